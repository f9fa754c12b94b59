"""The chapter 3.11 schematics are drawn from the 3.11 models' own kinematics (lib.models)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lib.figures.schematics.mechanisms import (  # noqa: E402
    chain_points,
    draw_fivebar,
    draw_fourbar,
    draw_pen_arm,
    draw_stewart,
    joint_points,
)
from lib.models import fivebar, fourbar, planar_bodies, planar_chain, stewart_gough  # noqa: E402

TOL = 1e-12


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _line(ax, gid):
    return next(line for line in ax.lines if line.get_gid() == gid).get_xydata()


def _joints(ax):
    """Centres of the joint markers, in drawing order."""
    return np.array([c.get_offsets()[0] for c in ax.collections])


def _max_residual(q, joints):
    Phi, _, _ = planar_bodies.planar_pin_joints(q, np.zeros_like(q), joints)
    return np.abs(Phi).max()


@pytest.mark.parametrize("lengths", [fourbar.FOURBAR_LENGTHS, (0.45, 0.12, 0.35, 0.3)])
@pytest.mark.parametrize("theta", [0.3, 1.0472, 2.5])
def test_fourbar_points_are_the_models(lengths, theta):
    ax = draw_fourbar(theta, lengths)
    q = fourbar.fourbar_configuration(theta, lengths)
    joints = fourbar.fourbar_joints(lengths)
    assert _max_residual(q, joints) < 1e-12  # the drawn configuration closes the loop
    pts = joint_points(q, joints)
    np.testing.assert_allclose(_joints(ax), pts, atol=TOL)
    # rods run between the joints they connect: crank O-B, coupler B-C, rocker D-C
    np.testing.assert_allclose(_line(ax, "crank"), pts[[0, 1]], atol=TOL)
    np.testing.assert_allclose(_line(ax, "coupler"), pts[[1, 2]], atol=TOL)
    np.testing.assert_allclose(_line(ax, "rocker"), pts[[3, 2]], atol=TOL)
    np.testing.assert_allclose(pts[0], [0.0, 0.0], atol=TOL)
    np.testing.assert_allclose(pts[3], [lengths[0], 0.0], atol=TOL)
    np.testing.assert_allclose(pts[1], lengths[1] * np.array([np.cos(theta), np.sin(theta)]),
                               atol=TOL)


def test_a_longer_crank_moves_the_drawn_joints():
    a = _joints(draw_fourbar(1.0, (0.4, 0.1, 0.35, 0.3)))
    b = _joints(draw_fourbar(1.0, (0.4, 0.12, 0.35, 0.3)))
    np.testing.assert_allclose(b[1] - a[1], 0.02 * np.array([np.cos(1.0), np.sin(1.0)]),
                               atol=TOL)
    q = fourbar.fourbar_configuration(1.0, (0.4, 0.12, 0.35, 0.3))
    np.testing.assert_allclose(b, joint_points(q, fourbar.fourbar_joints((0.4, 0.12, 0.35, 0.3))),
                               atol=TOL)
    assert np.linalg.norm(b[2] - a[2]) > 1e-3  # the coupler-rocker pin moves too


@pytest.mark.parametrize("geometry", [fivebar.FIVEBAR_GEOMETRY, (0.12, 0.25, 0.32)])
@pytest.mark.parametrize("p", [(0.0, 0.3), (0.04, 0.27)])
def test_fivebar_points_are_the_models(geometry, p):
    ax = draw_fivebar(p, geometry, path=((0.0, 0.3), 0.05))
    q = fivebar.fivebar_configuration(p, geometry)
    joints = fivebar.fivebar_joints(geometry)
    assert _max_residual(q, joints) < 1e-12
    pts = joint_points(q, joints)
    np.testing.assert_allclose(_joints(ax), pts, atol=TOL)
    np.testing.assert_allclose(pts[4], p, atol=TOL)  # the end point is where it was asked
    a = geometry[0]
    np.testing.assert_allclose(pts[[0, 2]], [[-a, 0.0], [a, 0.0]], atol=TOL)
    np.testing.assert_allclose(_line(ax, "proximal_left"), pts[[0, 1]], atol=TOL)
    np.testing.assert_allclose(_line(ax, "distal_left"), pts[[1, 4]], atol=TOL)
    np.testing.assert_allclose(_line(ax, "proximal_right"), pts[[2, 3]], atol=TOL)
    np.testing.assert_allclose(_line(ax, "distal_right"), pts[[3, 4]], atol=TOL)
    # the actuated base joints are the filled ones
    faces = [tuple(c.get_facecolor()[0]) for c in ax.collections]
    assert faces[0] == faces[2] != faces[1]


def test_a_wider_fivebar_base_moves_the_drawn_pivots():
    a = _joints(draw_fivebar((0.0, 0.3), (0.1, 0.25, 0.3)))
    b = _joints(draw_fivebar((0.0, 0.3), (0.13, 0.25, 0.3)))
    np.testing.assert_allclose(b[0] - a[0], [-0.03, 0.0], atol=TOL)
    np.testing.assert_allclose(b[2] - a[2], [0.03, 0.0], atol=TOL)


@pytest.mark.parametrize("lengths", [(0.4, 0.3, 0.2), (0.5, 0.3, 0.25)])
def test_pen_arm_points_are_the_models(lengths):
    q = np.array([1.1, -0.8, -0.9])
    ax = draw_pen_arm(q, lengths, offset=0.3)
    arm = _line(ax, "arm")
    np.testing.assert_allclose(arm, chain_points(q, lengths), atol=TOL)
    tip = planar_chain.planar_chain_tip(q, np.zeros(3), lengths)[0]
    np.testing.assert_allclose(arm[-1], tip, atol=TOL)
    np.testing.assert_allclose(_line(ax, "tip")[0], tip, atol=TOL)
    # the constraint error of pen_on_line is the tip's height above the drawn board
    board = _line(ax, "board")
    np.testing.assert_allclose(board[:, 1], 0.3, atol=TOL)
    phi = planar_chain.pen_on_line(q, np.zeros(3), lengths).Phi[0]
    assert tip[1] - board[0, 1] == pytest.approx(phi, abs=TOL)
    # the elbow is where the first link ends
    np.testing.assert_allclose(arm[1], lengths[0] * np.array([np.cos(1.1), np.sin(1.1)]),
                               atol=TOL)


@pytest.mark.parametrize("beta_p", [np.deg2rad(100.0), np.deg2rad(20.0)])
def test_stewart_legs_are_the_wrench_matrix_legs(beta_p):
    base, plat = stewart_gough.stewart_geometry(beta_platform=beta_p)
    p = np.array([0.02, -0.01, 0.42])
    c, s = np.cos(0.1), np.sin(0.1)
    R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    top, side = draw_stewart(p, R, base, plat)
    W = stewart_gough.stewart_wrench_matrix(p, R, base, plat)
    for k in range(6):
        b_xy, r_xy = _line(top, f"leg{k}")
        b_xz, r_xz = _line(side, f"leg{k}")
        b = np.array([b_xy[0], b_xy[1], b_xz[1]])
        r = np.array([r_xy[0], r_xy[1], r_xz[1]])
        np.testing.assert_allclose([b_xz[0], r_xz[0]], [b_xy[0], r_xy[0]], atol=TOL)
        np.testing.assert_allclose(b, base[k], atol=TOL)
        # the drawn leg has lib's direction n_k and lib's moment (r_k - p) x n_k
        n = (r - b) / np.linalg.norm(r - b)
        np.testing.assert_allclose(n, W[3:, k], atol=TOL)
        np.testing.assert_allclose(np.cross(r - p, n), W[:3, k], atol=TOL)


def test_a_larger_platform_moves_the_drawn_platform_points():
    b1, p1 = stewart_gough.stewart_geometry(platform_radius=0.15)
    b2, p2 = stewart_gough.stewart_geometry(platform_radius=0.2)
    top1, _ = draw_stewart([0, 0, 0.4], np.eye(3), b1, p1)
    top2, _ = draw_stewart([0, 0, 0.4], np.eye(3), b2, p2)
    r1, r2 = _line(top1, "platform")[:6], _line(top2, "platform")[:6]
    np.testing.assert_allclose(np.linalg.norm(r1, axis=1), 0.15, atol=TOL)
    np.testing.assert_allclose(np.linalg.norm(r2, axis=1), 0.2, atol=TOL)
    np.testing.assert_allclose(_line(top2, "base"), _line(top1, "base"), atol=TOL)
