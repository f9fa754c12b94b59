"""Chapter 3.4's page: the routines it shows do what its prose says.

The page asserts every comparison it glues when the book is built. These tests run
the page's own functions (extracted from its code cells, so page and test cannot
drift apart) against independent computations and hold the facts the prose states
in words: the difference quotient of M reproduces C + C^T (so dM/dt - 2C is skew to
its truncation error), the C' of eq. (eq-pr-other-c) has the same C qd and is not
skew, Y pi is the RNEA, the ranks of the stacked regressors (the numbers of base
parameters), the regrouping direction of the 2R arm, UR5's regroupings (mass moved
along its joint axes), the pseudo-inertia of ten
parameters, and the critical point mass beyond which a link stops being a body.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from pathlib import Path

import jupytext
import numpy as np
import pytest
from scipy.optimize import minimize

from lib import inertia as li
from lib import kinematic_tree as kt
from lib import tree_dynamics as td
from lib.common import GRAVITY, random_inertia, relerr
from lib.models.planar_chain import planar_chain_tree
from lib.models.robots import load_robot, robot_urdf_path
from lib.spatial import spatial_inertia

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "dynamics" / "manipulator-equations.md"
NAMES = td.PARAMETER_NAMES


def _page_functions(*names: str) -> dict:
    """The page's own definitions of ``names`` (top-level functions of its cells)."""
    namespace = {"np": np, "td": td, "kt": kt, "li": li, "ET": ET, "minimize": minimize,
                 "robot_urdf_path": robot_urdf_path, "RANK_TOL": 1e-10,
                 "rng": np.random.default_rng(34)}
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
    "joint_limits", "eigenvalue_bounds", "mass_matrix_rate", "mass_matrix_gradient",
    "symmetric_part", "with_inertias", "stacked_regressor", "base_parameters",
    "inertia_about_origin", "pseudo_inertia_of", "point_mass", "axis_point_masses")


@pytest.fixture(scope="module")
def ur5():
    return load_robot("ur5")


def test_joint_limits_are_the_urdf_values() -> None:
    panda = load_robot("panda")
    lower, upper = PAGE_FUNCTIONS["joint_limits"]("panda", panda)
    # panda.urdf: joint 4 in [-3.0718, -0.0698] rad, the fingers in [0, 0.04] m
    np.testing.assert_allclose([lower[3], upper[3]], [-3.0718, -0.0698], rtol=0, atol=0)
    np.testing.assert_allclose([lower[-1], upper[-1]], [0.0, 0.04], rtol=0, atol=0)


def test_eigenvalue_bounds_are_eigenvalues_beyond_the_samples(ur5) -> None:
    """The refined extremes bracket every sample and are eigenvalues of M at their q."""
    out = PAGE_FUNCTIONS["eigenvalue_bounds"]("ur5", ur5, 6, 500, n_refine=2)
    samples = out["samples"]
    assert out["min"][0] <= samples[:, 0].min()
    assert out["max"][0] >= samples[:, -1].max()
    for which, column in (("min", 0), ("max", -1)):
        value, x = out[which][:2]
        q = np.concatenate([[0.0], x])
        # the same eigenvalue recomputed from crba at the returned angles: round-off
        np.testing.assert_allclose(np.linalg.eigvalsh(td.crba(ur5, q))[column], value,
                                   rtol=1e-12)
    assert out["min"][0] > 0.0


def test_difference_quotient_of_M_gives_C_plus_C_transpose(ur5) -> None:
    rng = np.random.default_rng(1)
    Q, QD = rng.uniform(-np.pi, np.pi, (2, 20, 6))
    Md = PAGE_FUNCTIONS["mass_matrix_rate"](ur5, Q, QD)
    C = td.coriolis_matrix(ur5, Q, QD)
    # fourth-order difference with step 1e-3: truncation ~1e-12, round-off ~1e-13
    assert relerr(C + np.swapaxes(C, 1, 2), Md) < 1e-9
    S = Md - 2 * C
    assert PAGE_FUNCTIONS["symmetric_part"](S).max() < 1e-9


def test_the_other_factorisation_has_the_same_forces_and_is_not_skew(ur5) -> None:
    rng = np.random.default_rng(2)
    Q, QD = rng.uniform(-np.pi, np.pi, (2, 20, 6))
    dM = PAGE_FUNCTIONS["mass_matrix_gradient"](ur5, Q)
    # dM/dq_k against a plain central difference of crba (step 1e-6: error ~1e-9)
    e = np.zeros(6)
    e[2] = 1e-6
    plain = (td.crba(ur5, Q + e) - td.crba(ur5, Q - e)) / 2e-6
    assert relerr(dM[:, 2], plain) < 1e-7
    Md = np.einsum("nkij,nk->nij", dM, QD)
    C_other = Md - 0.5 * np.einsum("nikj,nk->nij", dM, QD)
    C = td.coriolis_matrix(ur5, Q, QD)
    assert relerr(np.einsum("nij,nj->ni", C_other, QD),
                  np.einsum("nij,nj->ni", C, QD)) < 1e-9
    assert PAGE_FUNCTIONS["symmetric_part"](Md - 2 * C_other).min() > 0.1


def test_regressor_times_random_parameters_is_the_rnea(ur5) -> None:
    rng = np.random.default_rng(3)
    Q = rng.uniform(-np.pi, np.pi, (10, 6))
    QD, QDD = rng.normal(size=(2, 10, 6))
    Y = td.regressor(ur5, Q, QD, QDD)
    bodies = [spatial_inertia(rng.uniform(0.2, 5.0), 0.02 * random_inertia(rng),
                              com=rng.normal(scale=0.1, size=3)) for _ in range(6)]
    other = PAGE_FUNCTIONS["with_inertias"](ur5, bodies)
    # kinematic_tree symmetrises each inertia: equal to the last bit or so
    np.testing.assert_allclose(other.inertias, np.array(bodies), rtol=1e-15, atol=1e-15)
    # products of O(1) numbers summed over six bodies: round-off
    assert relerr(Y @ td.inertial_parameters(other), kt.rnea(other, Q, QD, QDD)) < 1e-13


@pytest.mark.parametrize(("model", "gravity", "rank"), [
    ("2R", (0.0, -GRAVITY, 0.0), 6),
    ("3R", (0.0, -GRAVITY, 0.0), 9),
    ("2R", (0.0, 0.0, -GRAVITY), 4),
    ("ur5", (0.0, 0.0, -GRAVITY), 36),
])
def test_numbers_of_base_parameters(model, gravity, rank) -> None:
    """The ranks the page reports, with a gap of many orders below the last one."""
    tree = {"2R": lambda: planar_chain_tree([0.5, 0.5], [2.0, 2.0]),
            "3R": lambda: planar_chain_tree([0.5, 0.4, 0.3], [2.0, 1.5, 1.0]),
            "ur5": lambda: load_robot("ur5")}[model]()
    Y_s = PAGE_FUNCTIONS["stacked_regressor"](tree, list(gravity), 150)
    found, gap, unseen = PAGE_FUNCTIONS["base_parameters"](Y_s)
    assert found == rank and gap < 1e-12
    assert NAMES.index("m") in unseen  # the first link's mass never appears
    # an independent count: numpy's rank with a tolerance between the two values
    sv = np.linalg.svd(Y_s, compute_uv=False)
    assert np.linalg.matrix_rank(Y_s, tol=1e-6 * sv[0]) == rank


def test_the_2r_regrouping_direction_changes_no_torque() -> None:
    lengths = [0.5, 0.5]
    arm = planar_chain_tree(lengths, [2.0, 2.0])
    Y_s = PAGE_FUNCTIONS["stacked_regressor"](arm, [0.0, -GRAVITY, 0.0], 100)
    regroup = np.zeros(20)
    regroup[[NAMES.index("mc_x"), NAMES.index("I_zz"), 10 + NAMES.index("m")]] = (
        lengths[0], lengths[0] ** 2, -1.0)
    # torques of O(10) N m per unit parameter: round-off
    assert np.abs(Y_s @ regroup).max() < 1e-12
    wrong = regroup.copy()
    wrong[NAMES.index("I_zz")] = lengths[0]  # l1 instead of l1^2
    assert np.abs(Y_s @ wrong).max() > 1e-3


def test_ur5_axis_point_masses_are_its_regroupings(ur5) -> None:
    """The page's moves of mass along joint axes change no torque, are independent
    among the parameters that appear, and are as many as the null directions there
    (60 - 9 never appearing - rank 36 = 15); off the axis a move changes torques."""
    moves = PAGE_FUNCTIONS["axis_point_masses"](ur5)
    Y_s = PAGE_FUNCTIONS["stacked_regressor"](ur5, [0.0, 0.0, -GRAVITY], 150)
    seen = np.flatnonzero(np.abs(Y_s).max(axis=0) > 0.0)
    rank = np.linalg.matrix_rank(Y_s)
    assert len(moves) == 15 == seen.size - rank
    assert np.linalg.matrix_rank(moves[:, seen]) == 15
    # unit point masses, torques of O(10) N m: round-off
    assert np.abs(Y_s @ moves.T).max() < 1e-12 * np.abs(Y_s).max()
    point = PAGE_FUNCTIONS["point_mass"]
    off_axis = np.zeros((6, 10))  # 5 cm beside joint 3's axis, moved to link 2
    offset = np.cross(ur5.axes[2], [1.0, 1.0, 0.0])  # across the axis
    offset *= 0.05 / np.linalg.norm(offset)
    X = ur5.placements[2]
    off_axis[2] -= point(1.0, offset)
    off_axis[1] += point(1.0, X[:3, :3] @ offset + X[:3, 3])
    assert np.abs(Y_s @ off_axis.ravel()).max() > 1e-3


def test_pseudo_inertia_of_ten_parameters_is_lib_s() -> None:
    rng = np.random.default_rng(4)
    for _ in range(5):
        mass, com = rng.uniform(0.5, 3.0), rng.normal(size=3)
        inertia_c = random_inertia(rng)
        G = spatial_inertia(mass, inertia_c, com=com)
        one = kt.kinematic_tree([-1], ["revolute"], [[0.0, 0.0, 1.0]], [np.eye(4)], [G])
        np.testing.assert_allclose(
            PAGE_FUNCTIONS["pseudo_inertia_of"](td.inertial_parameters(one)),
            li.pseudo_inertia(mass, com, inertia_c), rtol=1e-12, atol=1e-12)


def test_point_mass_parameters_are_lib_s() -> None:
    p = np.array([0.1, -0.4, 0.25])
    params = PAGE_FUNCTIONS["point_mass"](1.5, p)
    I_o = li.point_mass_inertia([1.5], [p])
    np.testing.assert_allclose(params[:4], [1.5, *(1.5 * p)], rtol=1e-15)
    np.testing.assert_allclose(
        params[4:], [I_o[0, 0], I_o[1, 1], I_o[2, 2], I_o[0, 1], I_o[0, 2], I_o[1, 2]],
        rtol=1e-14, atol=1e-16)


def test_the_critical_point_mass_separates_bodies_from_non_bodies(ur5) -> None:
    """Below m_crit the forearm stays a body, above it the pseudo-inertia is indefinite,
    and either way the torques do not change."""
    pseudo, point = PAGE_FUNCTIONS["pseudo_inertia_of"], PAGE_FUNCTIONS["point_mass"]
    P = td.inertial_parameters(ur5).reshape(6, 10)
    p = ur5.placements[3][:3, 3]
    z = np.append(p, 1.0)
    m_crit = 1.0 / (z @ np.linalg.solve(pseudo(P[2]), z))
    rng = np.random.default_rng(5)
    Q = rng.uniform(-np.pi, np.pi, (20, 6))
    QD, QDD = rng.normal(size=(2, 20, 6))
    Y = td.regressor(ur5, Q, QD, QDD)
    for factor, physical in ((0.8, True), (1.2, False)):
        moved = P.copy()
        moved[2] -= point(factor * m_crit, p)
        moved[3] += point(factor * m_crit, np.zeros(3))
        assert bool(np.linalg.eigvalsh(pseudo(moved[2]))[0] > 0.0) is physical
        # the same torques: round-off of O(10) N m sums
        assert relerr(Y @ moved.ravel(), Y @ P.ravel()) < 1e-13
