"""Checks of chapter 3.12, its contact scene and the Drake page that need no build (issue 19).

The numbers behind the prose are guarded where they are computed: the pages' hidden cells
assert each claim (the effective-mass curves, the hopping block, the creep comparisons), so
a changed computation fails the book build. Here: the notation the pages must use, and
what the Drake page says about the exercises.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.spec import load_chapter

REPO = Path(__file__).resolve().parents[1]
PAGES = {name: REPO / "book" / "dynamics" / f"{name}.md"
         for name in ("contact-and-impact", "contact-scene", "drake-hydroelastic-troubleshooting")}
EXERCISES = REPO / "exercises" / "contact_and_impact.md"

#: kinetic energy is K (book/appendix/notation.md); T with a + or - is the old notation
KINETIC_T = re.compile(r"(?<![\\A-Za-z_])T\^\{?[-+]")
#: the tangential Jacobian rows are D, D_k; T_k was the scene's old name for them
TANGENT_T = re.compile(r"(?<![\\A-Za-z_])T_\{?k")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [*PAGES.values(), EXERCISES], ids=lambda p: p.stem)
def test_kinetic_energy_is_K_and_tangent_rows_are_D(path):
    text = _text(path)
    assert not KINETIC_T.search(text), f"{path.name}: kinetic energy is K, not T"
    assert not TANGENT_T.search(text), f"{path.name}: the tangential rows are D_k, not T_k"


def test_notation_patterns_catch_the_old_text():
    assert KINETIC_T.search(r"$T^{+}-T^{-} = c_n$") and KINETIC_T.search(r"T^- - T^+")
    assert TANGENT_T.search(r"its tangent row $T_k = (-r_y, 1, 0)$")
    assert not KINETIC_T.search(r"$K^{+}-K^{-}$, $T_c$, $J^{T}$, $M^{-1}N^{T}$")
    assert not TANGENT_T.search(r"$D_k$, $T_c$, $N_k^{T}$")


def test_drake_page_says_which_exercise_ends_the_set():
    """The Drake page names the last exercise of 3.12 and it tests the pair table."""
    spec = load_chapter("contact_and_impact")
    last = spec.exercises[-1]
    assert last.section == "sec-drake-pair-table"
    text = _text(PAGES["drake-hydroelastic-troubleshooting"])
    onward = text[text.index("## Where to go next"):]
    assert f"exercise {last.number}" in onward and "end with the pair table" in onward


def test_the_contact_scene_quotes_computed_comparisons():
    """The wordings issue 19.6 found wrong are gone: every comparison is a glued number."""
    text = _text(PAGES["contact-scene"])
    for phrase in ("a few milliseconds", "creeps slowly", "not by $\\Delta t$"):
        assert phrase not in text, phrase
    for key in ("cs_creep_ratio", "cs_creep_mj_change_pct", "cs_pen_tip_early_ms",
                "cs_mujoco_t30_err_ms"):
        assert f"{{glue:text}}`{key}:" in text, key
