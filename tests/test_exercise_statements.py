"""What the exercise statements say (issue 12): no grader mechanics, no answers given away.

Only the Markdown of ``exercises/*.md`` is checked (the statements); argument names and
code stay as the grader needs them.
"""

from __future__ import annotations

import re

import jupytext
import pytest

from grader.spec import chapter_names, load_chapter, load_solutions
from grader_helpers import REPO

CHAPTERS = chapter_names()


def _statements(chapter: str) -> list[str]:
    """The Markdown cells of the notebook from the first exercise heading on."""
    nb = jupytext.read(REPO / "exercises" / f"{chapter}.md")
    cells = [c.source for c in nb.cells if c.cell_type == "markdown"]
    first = next(i for i, c in enumerate(cells) if re.search(r"^## Exercise ", c, re.M))
    return cells[first:]


MECHANICS = [r"astype", r"convert (it )?with", r"the grader (checks|simulates|converts|reads|accepts)",
             r"works too", r"is accepted", r"arrives? as"]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_statements_never_explain_grader_mechanics(chapter):
    for text in _statements(chapter):
        for pattern in MECHANICS:
            assert not re.search(pattern, text, re.I), (chapter, pattern, text[:200])


def test_min_edges_does_not_state_its_answer():
    """The lesson's figure asks for the 5 % pyramid by trial; the exercise asks for any
    tolerance, and neither the statement nor a public case gives the lesson's number away."""
    answer = load_solutions("contact_and_friction").min_edges(0.05)
    statement = next(t for t in _statements("contact_and_friction") if "`min_edges`" in t)
    assert not re.search(rf"\b{answer}\b", statement), statement
    spec = next(ex for ex in load_chapter("contact_and_friction").exercises if ex.name == "min_edges")
    assert all(case["tol"] != 0.05 for case in spec.public)
