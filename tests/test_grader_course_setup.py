"""A course keeps the answers from students (issue 12): private solutions and seed.

The Gradescope bundle carries the solutions and the seed it was built from,
grading honours both, and nothing a student reads points at ``solutions/``.
"""

from __future__ import annotations

import re
import zipfile

from grader import cli, core
from grader.spec import chapter_names, load_chapter
from grader_helpers import REPO, small_limits

CHAPTER = "rigid_body_dynamics"


def _private_solutions(tmp_path):
    folder = tmp_path / "course-private" / "solutions"
    folder.mkdir(parents=True)
    text = "# PRIVATE COPY\n" + (REPO / "solutions" / f"{CHAPTER}.py").read_text()
    (folder / f"{CHAPTER}.py").write_text(text)
    return folder, text


def test_bundle_carries_the_private_solutions_and_seed(tmp_path):
    folder, text = _private_solutions(tmp_path)
    out = tmp_path / "autograder.zip"
    assert cli.main(["--gradescope-bundle", str(out), "--chapter", CHAPTER,
                     "--solutions", str(folder), "--seed", "918273"]) == 0
    with zipfile.ZipFile(out) as zf:
        assert zf.read(f"solutions/{CHAPTER}.py").decode() == text
        run = zf.read("run_autograder").decode()
    assert re.search(r"--jobs 1 --seed 918273 \\\n", run), run


def test_bundle_without_a_seed_uses_the_chapters(tmp_path):
    out = tmp_path / "autograder.zip"
    assert cli.main(["--gradescope-bundle", str(out), "--chapter", CHAPTER]) == 0
    with zipfile.ZipFile(out) as zf:
        run = zf.read("run_autograder").decode()
        assert zf.read(f"solutions/{CHAPTER}.py") == (REPO / "solutions" / f"{CHAPTER}.py").read_bytes()
    assert "--seed" not in run


def test_private_seed_changes_the_hidden_cases_not_the_score(tmp_path):
    folder, _ = _private_solutions(tmp_path)
    chapter = load_chapter(CHAPTER)
    default = core.expected_cases(chapter, None, None)
    private = core.expected_cases(chapter, folder, 918273)
    name = "inertia_between_points"
    hidden = [repr(c.inputs) for c in default[name] if not c.public]
    hidden_private = [repr(c.inputs) for c in private[name] if not c.public]
    assert hidden and hidden != hidden_private
    sub = tmp_path / "alice.py"
    sub.write_text((REPO / "solutions" / f"{CHAPTER}.py").read_text())
    opts = core.GradeOptions(chapter=CHAPTER, solutions=str(folder), seed=918273, limits=small_limits())
    report = core.grade_submission(sub, opts)
    assert report["score"] == chapter.max_score and report["seed"] == 918273


def _student_facing_texts():
    texts = {f"exercises/{c}.md": (REPO / "exercises" / f"{c}.md").read_text() for c in chapter_names()}
    for page in sorted((REPO / "book" / "dynamics").glob("*.md")):
        text = page.read_text()
        m = re.search(r"^## Checkpoint exercises\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        if m:
            texts[f"{page.relative_to(REPO)} (Checkpoint exercises)"] = m.group(1)
    readme = (REPO / "README.md").read_text()
    m = re.search(r"^## Students.*?(?=^## )", readme, re.M | re.S)
    assert m, "README.md has a Students section"
    texts["README.md (Students)"] = m.group(0)
    return texts


def test_student_facing_text_never_points_at_the_solutions():
    texts = _student_facing_texts()
    assert len(texts) >= 2 * len(chapter_names()) + 1
    for where, text in texts.items():
        assert not re.search(r"solutions?/|solutions\.py|reference solution", text), where
