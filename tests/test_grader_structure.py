"""The grader's structure: an exercise kind is one class in grader/kinds.py.

Every kind a chapter spec uses is a class registered in ``grader.kinds.KINDS``
that implements the kinds' interface (README, "Adding an exercise kind"); no
other grader module asks which kind an exercise is (a kind carries its own
checking, feedback and public/hidden behaviour); ``grader.core`` only
re-exports what the modules of the trusted side define.
"""

from __future__ import annotations

import ast
import dataclasses

import pytest

from grader import core, kinds, runner
from grader.spec import chapter_names, load_chapter
from grader_helpers import REPO

#: The child's readers (grader/runner.py) and the kinds themselves may name kinds; nothing else.
MAY_NAME_KINDS = {"kinds.py", "runner.py"}

INTERFACE = ("case_inputs", "child_description", "input_names", "check_reference", "judge_case",
             "case_labels", "public_expected")


def _chapters():
    return [load_chapter(name) for name in chapter_names()]


def _examples() -> dict:
    """kind name -> (chapter, exercise): the first exercise of each kind in the chapters."""
    found = {}
    for chapter in _chapters():
        for ex in chapter.exercises:
            found.setdefault(ex.kind, (chapter, ex))
    return found


def test_every_exercise_of_every_spec_is_an_instance_of_its_kinds_class():
    for chapter in _chapters():
        for ex in chapter.exercises:
            assert ex.kind in kinds.KINDS, f"{chapter.name}: {ex.name} has the unknown kind {ex.kind!r}"
            assert type(ex) is kinds.KINDS[ex.kind], (chapter.name, ex.name, type(ex).__name__)


def test_every_kind_is_used_by_a_chapter_so_the_chapter_tests_grade_it():
    assert set(kinds.KINDS) == set(_examples())


@pytest.mark.parametrize("name", sorted(kinds.KINDS))
def test_each_kind_class_implements_the_interface(name):
    cls = kinds.KINDS[name]
    assert issubclass(cls, kinds.Exercise) and dataclasses.is_dataclass(cls)
    assert cls.kind == name and cls.answer_reader in runner.ANSWER_READERS
    for method in INTERFACE:
        assert callable(getattr(cls, method, None)) or isinstance(getattr(cls, method), property), method
    for method in ("case_inputs", "child_description"):  # the base class only raises NotImplementedError
        assert getattr(cls, method) is not getattr(kinds.Exercise, method), (name, method)
    if cls.concept:  # one answer and no public case: the inline check says how it was read
        assert cls.read_back is not kinds.ConceptExercise.read_back and cls.answer_noun != "an answer"
    chapter, ex = _examples()[name]
    cases = ex.case_inputs(chapter.seed)
    assert cases and all(isinstance(public, bool) for public, _ in cases)
    assert not (cls.concept and any(public for public, _ in cases)), "a concept check has no public case"
    desc = ex.child_description([inputs for _, inputs in cases])
    assert desc["name"] == ex.name and desc["kind"] == ex.answer_reader
    assert runner.case_count(desc) == len(cases)
    labels = ex.case_labels([public for public, _ in cases])
    assert len(labels) == len(cases) and all(isinstance(label, str) and label for label in labels)
    if not cls.concept:
        assert len(set(labels)) == len(labels), labels


def test_the_kind_registry_has_every_kind_class_of_the_module_and_the_specs_can_import_it():
    from grader import spec

    classes = {obj for obj in vars(kinds).values()
               if isinstance(obj, type) and issubclass(obj, kinds.Exercise) and obj.kind != "abstract"}
    assert classes == set(kinds.KINDS.values())
    assert len({cls.kind for cls in classes}) == len(classes)
    for cls in [kinds.Exercise, *classes]:  # as grader/chapters/*.py import them
        assert getattr(spec, cls.__name__) is cls


def kind_questions(source: str) -> list[str]:
    """Where ``source`` asks which kind an exercise is: ``ex.kind == ...``, a kind's name in a
    comparison, ``isinstance(ex, <a kind's class>)``."""
    names = set(kinds.KINDS)
    classes = {cls.__name__ for cls in kinds.KINDS.values()} | {"Exercise"}
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                parts = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
                for part in parts:
                    if isinstance(part, ast.Attribute) and part.attr == "kind":
                        found.append(f"line {node.lineno}: compares `.kind`")
                    elif isinstance(part, ast.Constant) and part.value in names:
                        found.append(f"line {node.lineno}: compares with the kind {part.value!r}")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
            second = node.args[1]
            parts = second.elts if isinstance(second, ast.Tuple) else [second]
            if any(getattr(p, "id", getattr(p, "attr", None)) in classes for p in parts):
                found.append(f"line {node.lineno}: isinstance with a kind's class")
    return found


@pytest.mark.parametrize("source", [
    'if ex.kind == "design":\n    pass\n',
    'hidden = ex.kind in ("choice", "quantity")\n',
    'x = "design" if kind == "design" else None\n',
    "if isinstance(ex, DesignExercise):\n    pass\n",
    "if isinstance(ex, (kinds.ChoiceExercise, int)):\n    pass\n",
])
def test_the_kind_question_finder_finds_each_form(source):
    assert kind_questions(source)


def test_no_grader_module_but_the_kinds_asks_which_kind_an_exercise_is():
    asked = {path.name: kind_questions(path.read_text())
             for path in sorted((REPO / "grader").glob("*.py")) if path.name not in MAY_NAME_KINDS}
    assert {name: where for name, where in asked.items() if where} == {}


def test_core_only_reexports_the_modules_that_do_the_work():
    tree = ast.parse((REPO / "grader" / "core.py").read_text())
    for node in tree.body:
        is_docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        is_all = isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]
        assert is_docstring or is_all or isinstance(node, (ast.Import, ast.ImportFrom)), ast.dump(node)[:200]
    for name in core.__all__:
        value = getattr(core, name)
        assert getattr(value, "__module__", "grader.x") != "grader.core", name
