"""What the exercise statements say (issue 12): no grader mechanics, no answers given away,
the book's notation (book/appendix/notation.md) in their maths.

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


def _maths(text: str) -> list[str]:
    """Every $...$ and $$...$$ span of a Markdown text (code spans removed first)."""
    text = re.sub(r"`[^`]*`", "", text)
    spans = re.findall(r"\$\$(.+?)\$\$", text, re.S)
    text = re.sub(r"\$\$(.+?)\$\$", "", text, flags=re.S)
    return spans + re.findall(r"\$(.+?)\$", text, re.S)


MECHANICS = [r"astype", r"convert (it )?with", r"the grader (checks|simulates|converts|reads|accepts)",
             r"works too", r"is accepted", r"arrives? as"]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_statements_never_explain_grader_mechanics(chapter):
    for text in _statements(chapter):
        for pattern in MECHANICS:
            assert not re.search(pattern, text, re.I), (chapter, pattern, text[:200])


def test_scaled_pyramid_does_not_state_its_answer():
    """CF.4 asks for the best scale s = 2 / (1 + cos(pi/n_d)) and its worst error
    tan^2(pi / (2 n_d)); neither the statement nor the lesson displays them (issue 19.11:
    the old CF.4 only searched the lesson's displayed formula)."""
    statement = next(t for t in _statements("contact_and_friction") if "`scaled_pyramid`" in t)
    lesson = (REPO / "book" / "dynamics" / "contact-and-friction.md").read_text()
    for text in (statement, lesson):
        for span in _maths(text):
            assert not re.search(r"\\tan\^?\{?2|1\s*\+\s*\\cos", span), span


# (pattern in a maths span, what the notation says instead); per chapter where a symbol
# keeps another meaning elsewhere.
NOTATION = {
    "all": [
        (r"(?<![\\A-Za-z])E(?![_^*A-Za-z])", r"identity \mathbf 1 (E is Young's modulus)"),
        (r"\\lambda_\{?[123ijk]", "principal moments I_1, I_2, I_3"),
        (r"(?<![\\A-Za-z])m_d", "pyramid edges n_d"),
        (r"(?<!\\mathcal )(?<![\\A-Za-z])G_[a-zA-Z]", r"spatial inertia \mathcal G"),
        (r"(?<![\\A-Za-z])[VF]\s*=\s*\(", r"twist \mathcal V, wrench \mathcal F"),
        (r"(?<![\\A-Za-z])T\^[-+]", "kinetic energy K"),
    ],
    "constrained_dynamics": [
        (r"(?<![\\A-Za-z])G\s*=\s*JM", "Delassus matrix A"),
        (r"(?<![\\A-Za-z])M\s*=\s*I\b", r"identity \mathbf 1"),
    ],
    "contact_and_friction": [
        (r"\\lambda", "contact force f_n (lambda is a Lagrange multiplier)"),
        (r"\\omega(?![_A-Za-z])", r"natural frequency \omega_n"),
    ],
    "contact_and_impact": [
        (r"\\lambda", "impulses c_n, c_t"),
        (r"(?<![\\A-Za-z_{])c(?![_A-Za-z])", "impulses c_n, c_t (damping d)"),
    ],
}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_statement_maths_uses_the_books_notation(chapter):
    rules = NOTATION["all"] + NOTATION.get(chapter, [])
    for text in _statements(chapter):
        for span in _maths(text):
            for pattern, instead in rules:
                assert not re.search(pattern, span), f"{chapter}: ${span}$ -- write {instead}"
            # the time step is \Delta t; h is the bias force only (f = tau - h)
            if re.search(r"(?<![\\A-Za-z_])h(?![A-Za-z_])", span):
                assert re.search(r"\\tau\s*-\s*h", span), f"{chapter}: ${span}$ -- the step is \\Delta t"


def test_notation_rules_can_fail():
    """Each rule catches what the exercises used to write."""
    old = {
        "all": [r"\lVert r\rVert^2 E - r r^T", r"\lambda_1", r"\cos(\pi/m_d)", r"G_a = X",
                r"V=(\omega, v)", r"T^- - T^+"],
        "constrained_dynamics": [r"G = JM^{-1}J^{T}", r"M = I"],
        "contact_and_friction": [r"0\le\lambda\perp\phi", r"2\zeta\omega\dot\delta"],
        "contact_and_impact": [r"0 \le \lambda", r"F = kx + c\dot x"],
    }
    for key, spans in old.items():
        for span, (pattern, _) in zip(spans, NOTATION[key]):
            assert re.search(pattern, span), (key, pattern, span)
    assert re.search(r"(?<![\\A-Za-z])h(?![A-Za-z_])", r"\beta h")
