"""Chapter 3.3's page: its glued numbers are computed, its labels are those lib names,
and the symbolic routines it shows say what its prose says about them.

The page asserts every comparison it glues (symbolic terms against the RNEA, the
Christoffel C against lib.tree_dynamics, the straight-line RNEA against the Lagrange
torques) when the book is built. These tests run the page's own SymPy functions
(extracted from the page, so the page and the test cannot drift apart) and hold the
claims the prose makes in words: the 2R mass matrix depends on the elbow angle only,
its only non-zero Christoffel symbols are c_112 = c_121 = -c_211 and c_122, the
Christoffel C makes dM/dt - 2C skew-symmetric, and the expanded torques outgrow the
recursion, whose cost per link is constant.
"""

from __future__ import annotations

import ast
from pathlib import Path

import jupytext
import numpy as np
import pytest
import sympy as sp

from lib.common import GRAVITY
from lib.models.planar_chain import planar_chain_dynamics

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "dynamics" / "lagrange-formulation.md"
def _page_functions(*names: str) -> dict:
    """The page's own definitions of ``names`` (top-level functions of its code cells)."""
    namespace = {"sp": sp, "np": np}
    for cell in jupytext.read(PAGE).cells:
        if cell.cell_type != "code":
            continue
        for node in ast.parse(cell.source).body:
            if isinstance(node, ast.FunctionDef) and node.name in names:
                exec(compile(ast.Module([node], []), str(PAGE), "exec"), namespace)
    missing = set(names) - set(namespace)
    assert not missing, f"the page no longer defines {sorted(missing)}"
    return namespace


PAGE_FUNCTIONS = _page_functions(
    "christoffel_coriolis", "planar_chain_lagrange", "trig_reduce", "planar_rnea_code",
    "run_code")


@pytest.fixture(scope="module")
def two_link():
    s, M, C, g = PAGE_FUNCTIONS["planar_chain_lagrange"](2)
    M = M.applyfunc(lambda e: PAGE_FUNCTIONS["trig_reduce"](e, s["q"]))
    return s, M, PAGE_FUNCTIONS["christoffel_coriolis"](M, s["q"], s["qd"]), g


def test_2r_mass_matrix_depends_on_the_elbow_only(two_link):
    s, M, _, _ = two_link
    q1, q2 = s["q"]
    assert M.diff(q1).applyfunc(sp.simplify) == sp.zeros(2, 2)
    assert M.diff(q2).applyfunc(sp.simplify) != sp.zeros(2, 2)


def test_2r_christoffel_symbols_are_the_ones_the_prose_names(two_link):
    s, M, _, _ = two_link
    q = s["q"]

    def c(i, j, k):  # the page's formula, 1-based indices as in the prose
        i, j, k = i - 1, j - 1, k - 1
        return sp.simplify((M[i, j].diff(q[k]) + M[i, k].diff(q[j])
                            - M[j, k].diff(q[i])) / 2)

    nonzero = {(i, j, k) for i in (1, 2) for j in (1, 2) for k in (1, 2) if c(i, j, k) != 0}
    assert nonzero == {(1, 1, 2), (1, 2, 1), (2, 1, 1), (1, 2, 2)}
    assert sp.simplify(c(1, 1, 2) - c(1, 2, 1)) == 0
    assert sp.simplify(c(1, 1, 2) + c(2, 1, 1)) == 0
    l1, m2, r2 = s["l"][0], s["m"][1], s["r"][1]
    for symbol in (c(1, 1, 2), c(1, 2, 2)):
        assert sp.simplify(symbol / (l1 * m2 * r2 * sp.sin(q[1]))) in (-1, 1)


def test_2r_terms_equal_the_planar_chain_of_chapter_3_11(two_link):
    """Uniform rods (r = l/2, I = m l^2/12) against lib.models.planar_chain: the same
    M and h = C qd + g to round-off (1e-12 relative) on random states."""
    s, M, C, g = two_link
    rng = np.random.default_rng(3303)
    lengths, masses = rng.uniform(0.3, 1.0, 2), rng.uniform(0.5, 3.0, 2)
    values = {s["g"]: GRAVITY}
    for i in range(2):
        values.update({s["l"][i]: lengths[i], s["m"][i]: masses[i], s["r"][i]: lengths[i] / 2,
                       s["Izz"][i]: masses[i] * lengths[i] ** 2 / 12})
    f_M = sp.lambdify([s["q"]], M.subs(values))
    f_h = sp.lambdify([s["q"], s["qd"]], (C * sp.Matrix(s["qd"]) + g).subs(values))
    for _ in range(20):
        q, qd = rng.uniform(-np.pi, np.pi, 2), rng.normal(size=2)
        M_ref, h_ref = planar_chain_dynamics(q, qd, lengths, masses)
        np.testing.assert_allclose(f_M(q), M_ref, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(np.ravel(f_h(q, qd)), h_ref, rtol=1e-12, atol=1e-12)


def test_christoffel_C_makes_Mdot_minus_2C_skew(two_link):
    s, M, C, _ = two_link
    Md = sum((M.diff(x) * v for x, v in zip(s["q"], s["qd"])), sp.zeros(2, 2))
    S = Md - 2 * C
    assert (S + S.T).applyfunc(sp.simplify) == sp.zeros(2, 2)


def test_expanded_torques_outgrow_the_recursion():
    """The prose of sec-lg-cost: the RNEA adds a constant number of operations per link;
    the Lagrange torques, even with shared subexpressions, grow faster than that."""
    raw, cse, rnea = [], [], []
    for n in (1, 2, 3, 4):
        s, M, C, g = PAGE_FUNCTIONS["planar_chain_lagrange"](n)
        code, _, qdd = PAGE_FUNCTIONS["planar_rnea_code"](n, s)
        tau = M * sp.Matrix(qdd) + C * sp.Matrix(s["qd"]) + g
        raw.append(sum(sp.count_ops(x) for x in tau))
        shared, reduced = sp.cse(list(tau))
        cse.append(sum(sp.count_ops(x) for _, x in shared)
                   + sum(sp.count_ops(x) for x in reduced))
        rnea.append(sum(sp.count_ops(x) for _, x in code))
    steps = np.diff(rnea)
    assert np.all(steps == steps[0]) and steps[0] > 0
    assert np.all(np.diff(np.diff(cse)) > 0)  # convex: faster than linear
    assert raw[-1] > cse[-1] > rnea[-1]


def test_straight_line_rnea_returns_the_lagrange_torques():
    s, M, C, g = PAGE_FUNCTIONS["planar_chain_lagrange"](3)
    code, tau_r, qdd = PAGE_FUNCTIONS["planar_rnea_code"](3, s)
    rng = np.random.default_rng(3304)
    point = {x: rng.uniform(0.2, 1.0) for x in (*s["l"], *s["m"], *s["r"], *s["Izz"])}
    point.update({x: rng.normal() for x in (*s["q"], *s["qd"], *qdd)})
    point[s["g"]] = GRAVITY
    tau_l = (M * sp.Matrix(qdd) + C * sp.Matrix(s["qd"]) + g).subs(point)
    # two evaluations of the same torques in floating point: round-off only
    np.testing.assert_allclose(PAGE_FUNCTIONS["run_code"](code, tau_r, point),
                               np.array(tau_l, dtype=float).ravel(), rtol=1e-12)
