"""Exercise specifications: what each chapter's exercises are and how they are graded.

See README.md ("The exercise format"). A chapter spec lives in
``grader/chapters/<chapter>.py`` and defines ``CHAPTER``: a :class:`Chapter`
whose exercises are instances of the kinds of :mod:`grader.kinds` (re-exported
here). This module only describes chapters and builds case *inputs*; expected
answers are computed by :mod:`grader.expected` from the reference solutions,
in the trusted process.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path

# Every exercise kind's class (grader.kinds.__all__), importable from here as the chapter
# specs import them: a new kind is one class in grader/kinds.py.
from .kinds import *  # noqa: F401,F403
from .kinds import Exercise

REPO_ROOT = Path(__file__).resolve().parent.parent
CHAPTERS_DIR = Path(__file__).resolve().parent / "chapters"
DEFAULT_SOLUTIONS_DIR = REPO_ROOT / "solutions"
EXERCISES_DIR = REPO_ROOT / "exercises"


@dataclass
class Chapter:
    name: str
    title: str
    seed: int
    exercises: list
    #: key idea of the chapter -> names of the exercises that test it; every exercise tests at
    #: least one idea, and the ideas every course expects are there (tests/test_exercise_coverage.py)
    key_ideas: dict = field(default_factory=dict)

    @property
    def max_score(self) -> float:
        return float(sum(ex.points for ex in self.exercises))

    @property
    def notebook(self) -> Path:
        return EXERCISES_DIR / f"{self.name}.md"

    @property
    def public_file(self) -> Path:
        return CHAPTERS_DIR / f"{self.name}_public.json"

    def exercise(self, name: str) -> Exercise:
        for ex in self.exercises:
            if ex.name == name:
                return ex
        raise KeyError(f"chapter {self.name} has no exercise named {name!r}")


def chapter_names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(CHAPTERS_DIR)]) if not m.name.startswith("_"))


def load_chapter(name: str) -> Chapter:
    if name not in chapter_names():
        raise KeyError(f"unknown chapter {name!r}; known: {', '.join(chapter_names()) or 'none'}")
    module = importlib.import_module(f"grader.chapters.{name}")
    return module.CHAPTER


def solutions_path(chapter: str, solutions: str | Path | None = None) -> Path:
    """The reference module: a file, or ``<dir>/<chapter>.py``."""
    base = Path(solutions) if solutions else DEFAULT_SOLUTIONS_DIR
    return base if base.is_file() else base / f"{chapter}.py"


def load_solutions(chapter: str, solutions: str | Path | None = None):
    path = solutions_path(chapter, solutions)
    if not path.is_file():
        raise FileNotFoundError(f"reference solutions for {chapter!r} not found at {path}")
    spec = importlib.util.spec_from_file_location(f"_grader_reference_{chapter}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_public(chapter: Chapter) -> dict:
    """The public cases with expected answers: {name: [{"inputs", "expected"}]}."""
    return json.loads(chapter.public_file.read_text())
