"""Chapter 3.5's page: the facts its prose states hold beyond the states the page draws.

The page asserts every number it glues when the book is built; these tests hold
the claims it makes in words, on other seeds and robots: Featherstone's Plücker
transform is the book's adjoint, forward dynamics by the ABA equals M^-1 (tau - h)
by a Cholesky factorisation, the mass matrix is zero wherever neither joint is an
ancestor of the other (and a leaves-first Cholesky factor keeps those zeros), an
articulated body is never heavier than the same bodies welded rigid, and a floating
robot's centroidal momentum is conserved without gravity and gains m g with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from scipy.linalg import cho_factor, cho_solve

from lib import kinematic_tree as kt
from lib import spatial as ls
from lib import tree_dynamics as td
from lib.common import GRAVITY, random_rotation
from lib.integrate import rk4_step
from lib.models.benchmark import random_states
from lib.models.robots import load_robot

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "dynamics" / "crba-and-aba.md"
ROBOTS = ("ur5", "panda", "solo12", "talos")


def test_the_page_defines_the_sections_lib_refers_to():
    labels = set(re.findall(r"^\((sec-ab-[\w-]+)\)=", PAGE.read_text(), re.M))
    assert {"sec-ab-spatial", "sec-ab-crba", "sec-ab-aba", "sec-ab-cost",
            "sec-ab-benchmark", "sec-ab-floating"} <= labels


def test_featherstones_plucker_transform_is_the_adjoint():
    """B_X_A = [[E, 0], [-E r x, E]] with E = R_BA and r = B's origin in A is Ad_{T_BA},
    and his force transform B_X_A^-T is Ad_{T_AB}^T (eq-ab-plucker)."""
    rng = np.random.default_rng(35)
    for _ in range(50):
        R, p = random_rotation(rng), rng.normal(size=3)
        T = ls.transform(R, p)  # pose of A in B
        r = -R.T @ p
        r_cross = np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])
        X = np.block([[R, np.zeros((3, 3))], [-R @ r_cross, R]])
        # products of a rotation and a cross matrix: round-off of order 1e-15
        np.testing.assert_allclose(X, ls.adjoint(T), atol=1e-13)
        np.testing.assert_allclose(np.linalg.inv(X).T,
                                   ls.adjoint(ls.inverse_transform(T)).T, atol=1e-12)


@pytest.mark.parametrize("name", ROBOTS)
def test_aba_equals_cholesky_of_crba_and_bias_forces(name):
    robot = load_robot(name)
    rng = np.random.default_rng(350)
    q, v, _ = random_states(robot, 30, rng)
    tau = rng.normal(size=(30, robot.nv)) * 5.0
    M, h = td.crba(robot, q), kt.bias_forces(robot, q, v)
    qdd = np.array([cho_solve(cho_factor(Mk), rhs) for Mk, rhs in zip(M, tau - h)])
    # two factorisations of the same equations: round-off amplified by cond(M),
    # up to ~1e4 for Talos at random poses
    np.testing.assert_allclose(td.aba(robot, q, v, tau), qdd, rtol=1e-8,
                               atol=1e-8 * np.abs(qdd).max())


def _related(model):
    """(nv, nv) True where one velocity's body is an ancestor of the other's."""
    body_of = np.concatenate([[i] * (s.stop - s.start)
                              for i, s in enumerate(model.v_slices)])
    ancestors = []
    for i, parent in enumerate(model.parents):
        ancestors.append({i} | (ancestors[parent] if parent >= 0 else set()))
    return np.array([[a in ancestors[b] or b in ancestors[a] for b in body_of]
                     for a in body_of])


@pytest.mark.parametrize("name", ["solo12", "talos"])
def test_mass_matrix_is_zero_between_branches_and_leaves_first_cholesky_keeps_it(name):
    robot = load_robot(name)
    related = _related(robot)
    assert not related.all()  # a branched tree: some pairs are unrelated
    q, _, _ = random_states(robot, 10, np.random.default_rng(3500))
    for M in td.crba(robot, q):
        assert np.all(M[~related] == 0.0)  # exactly: the CRBA never writes them
        L = np.linalg.cholesky(M[::-1, ::-1])
        tol = 1e-12 * np.abs(M).max()  # round-off left where an entry cancels
        assert np.all((np.abs(L) > tol) <= related[::-1, ::-1])
        # root first, the factor fills in between the branches
        assert np.any((np.abs(np.linalg.cholesky(M)) > tol) & ~related)


def test_articulated_trunk_inertia_is_the_schur_complement_and_at_most_the_rigid_one():
    solo = load_robot("solo12")
    q, _, _ = random_states(solo, 8, np.random.default_rng(35000))
    wrenches = np.zeros((6, solo.nv))
    wrenches[:, :6] = np.eye(6)
    for qk in q:
        M = td.crba(solo, qk)
        b, l = slice(0, 6), slice(6, solo.nv)
        schur = M[b, b] - M[b, l] @ np.linalg.solve(M[l, l], M[l, b])
        acc = td.aba(solo, np.tile(qk, (6, 1)), np.zeros((6, solo.nv)), wrenches,
                     gravity=np.zeros(3))[:, :6]
        articulated = np.linalg.inv(acc.T)
        # inverse of a 6 x 6 response matrix: round-off ~1e-13 relative
        np.testing.assert_allclose(articulated, schur, rtol=1e-9,
                                   atol=1e-9 * np.abs(schur).max())
        gap = np.linalg.eigvalsh(M[b, b] - articulated)
        assert gap.min() > -1e-10 and gap.max() > 0.0


def _fall(robot, gravity, steps, dt, rng):
    q0, v0, _ = random_states(robot, 1, rng)
    q0, v0 = q0[0], 0.3 * v0[0]
    phase = rng.uniform(0, 2 * np.pi, robot.nv - 6)

    def rhs(t, y):
        q, v = y[:robot.nq], y[robot.nq:]
        tau = np.zeros(robot.nv)
        tau[6:] = 0.05 * np.sin(10.0 * t + phase)  # internal: the trunk is free
        return np.concatenate([td.configuration_rate(robot, q, v),
                               td.aba(robot, q, v, tau, gravity)])

    states = [np.concatenate([q0, v0])]
    for k in range(steps):
        y = rk4_step(rhs, k * dt, states[-1], dt)
        y[3:7] /= np.linalg.norm(y[3:7])
        states.append(y)
    states = np.array(states)
    return td.centroidal_momentum(robot, states[:, :robot.nq], states[:, robot.nq:])


def test_momentum_is_conserved_in_free_fall_and_gravity_adds_m_g():
    solo = load_robot("solo12")
    dt, steps = 2e-3, 60
    h = _fall(solo, np.zeros(3), steps, dt, np.random.default_rng(7))
    scale = np.abs(h).max()
    # RK4 at 2 ms: the page measures a drift of order 1e-8 of the largest entry
    np.testing.assert_allclose(h, np.broadcast_to(h[0], h.shape), atol=1e-6 * scale)
    g = np.array([0.0, 0.0, -GRAVITY])
    h_g = _fall(solo, g, steps, dt, np.random.default_rng(7))
    mass = solo.inertias[:, 3, 3].sum()
    t = np.arange(steps + 1) * dt
    expected = h_g[0] + np.outer(t, np.concatenate([np.zeros(3), mass * g]))
    np.testing.assert_allclose(h_g, expected, atol=1e-6 * np.abs(h_g).max())
    # the same start: without gravity the linear momentum stays, with it it falls
    assert h_g[-1, 5] < h[-1, 5] - 0.5 * mass * GRAVITY * t[-1]
