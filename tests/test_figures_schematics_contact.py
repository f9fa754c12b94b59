"""Chapter 3.12's schematics are drawn from lib.models' geometry."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lib import contact_lcp as cl  # noqa: E402
from lib.figures.schematics.contact import (  # noqa: E402
    arm_points,
    box_corner_points,
    draw_arm_at_wall,
    draw_box_on_corners,
)
from lib.models.box_on_corners import box_on_corners  # noqa: E402
from lib.models.planar_2r_arm import planar_2r_arm  # noqa: E402


def _line(ax, gid):
    return next(line for line in ax.lines if line.get_gid() == gid)


@pytest.mark.parametrize("half, offset", [((0.2, 0.1, 0.05), (0.05, 0.02)),
                                          ((0.3, 0.1, 0.05), (0.05, 0.02)),
                                          ((0.2, 0.15, 0.08), (-0.03, 0.04))])
def test_box_corners_are_lib_corners(half, offset):
    side, top = draw_box_on_corners(half, offset, mu=0.5, n_d=4)
    _, N, rel = box_on_corners(2.0, half, offset)
    com = np.array([offset[0], offset[1], half[2]])
    corners = rel + com
    np.testing.assert_allclose(_line(top, "corners").get_xydata(), corners[:, :2], atol=1e-12)
    np.testing.assert_allclose(_line(side, "corners-side").get_xydata(), corners[:, [0, 2]],
                               atol=1e-12)
    np.testing.assert_allclose(_line(top, "com").get_xydata()[0], com[:2], atol=1e-12)
    # the floor is z = 0 and the normals point along lib's normal rows (e_z)
    np.testing.assert_allclose(corners[:, 2], 0.0, atol=1e-12)
    for k in range(4):
        seg = _line(side, f"normal-{k}").get_xydata()
        direction = np.array([seg[1, 0] - seg[0, 0], 0.0, seg[1, 1] - seg[0, 1]])
        np.testing.assert_allclose(direction / np.linalg.norm(direction), N[k, 3:], atol=1e-12)
        for i, d in enumerate(cl.friction_directions(4)):
            seg = _line(top, f"friction-{k}-{i}").get_xydata()
            np.testing.assert_allclose(seg[0], corners[k, :2], atol=1e-12)
            step = seg[1] - seg[0]
            np.testing.assert_allclose(step / np.linalg.norm(step), d, atol=1e-12)
    plt.close("all")


def test_box_drawing_moves_with_a_changed_dimension():
    small, _ = box_corner_points((0.2, 0.1, 0.05), (0.0, 0.0))
    large, _ = box_corner_points((0.3, 0.1, 0.05), (0.0, 0.0))
    assert np.allclose(large[:, 0], 1.5 * small[:, 0]) and np.allclose(large[:, 1], small[:, 1])


@pytest.mark.parametrize("q", [(0.0, np.radians(10.0)), (0.4, 1.2), (-0.3, 2.5)])
@pytest.mark.parametrize("lengths", [(0.5, 0.5), (0.7, 0.4)])
@pytest.mark.parametrize("normal", ["radial", "tangential"])
def test_arm_joints_are_lib_kinematics(q, lengths, normal):
    ax = draw_arm_at_wall(q, lengths, normal)
    _, _, tip = planar_2r_arm(q, lengths)
    elbow = lengths[0] * np.array([np.cos(q[0]), np.sin(q[0])])
    np.testing.assert_allclose(_line(ax, "arm").get_xydata(),
                               np.vstack([np.zeros(2), elbow, tip]), atol=1e-12)
    # the wall passes through the tip, perpendicular to the drawn normal
    wall = _line(ax, "wall").get_xydata()
    np.testing.assert_allclose(wall.mean(axis=0), tip, atol=1e-12)
    n_seg = _line(ax, "wall-normal").get_xydata()
    n = (n_seg[1] - n_seg[0]) / np.linalg.norm(n_seg[1] - n_seg[0])
    np.testing.assert_allclose(n_seg[0], tip, atol=1e-12)
    assert abs(n @ (wall[1] - wall[0])) < 1e-12
    radial = tip / np.linalg.norm(tip)
    expected = -radial if normal == "radial" else np.array([radial[1], -radial[0]])
    np.testing.assert_allclose(n, expected, atol=1e-12)
    plt.close("all")


def test_arm_drawing_moves_with_a_changed_length():
    a = arm_points((0.2, 0.9), (0.5, 0.5))
    b = arm_points((0.2, 0.9), (0.8, 0.5))
    np.testing.assert_allclose(b[1], 1.6 * a[1], atol=1e-12)
    np.testing.assert_allclose(b[2], planar_2r_arm((0.2, 0.9), (0.8, 0.5))[2], atol=1e-12)


def test_bad_normal_is_rejected():
    with pytest.raises(ValueError):
        draw_arm_at_wall((0.0, 0.5), normal="sideways")
