"""The fingertip schematic is drawn from lib.models.fingertip's kinematics."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lib.figures.schematics.fingertip import draw_fingertip_schematic  # noqa: E402
from lib.models import fingertip  # noqa: E402


def _line(ax, gid):
    return next(line for line in ax.lines if line.get_gid() == gid)


def _expected(x_tip, elbow, l1, l2, base_height):
    q = fingertip.two_link_ik(x_tip, elbow, l1, l2, base_height)
    return fingertip.two_link_points(q, l1, l2, base_height)


@pytest.mark.parametrize("elbow", ["up", "down"])
@pytest.mark.parametrize("l1, l2, base_height", [(0.5, 0.5, 0.5), (0.7, 0.5, 0.5),
                                                 (0.5, 0.35, 0.4)])
def test_links_and_contact_follow_the_kinematics(elbow, l1, l2, base_height):
    ax = draw_fingertip_schematic(0.3, elbow, 0.6, l1, l2, base_height)
    pts = _expected(0.3, elbow, l1, l2, base_height)
    np.testing.assert_allclose(_line(ax, "links").get_xydata(), pts, atol=1e-12)
    np.testing.assert_allclose(_line(ax, "contact").get_xydata()[0], pts[2], atol=1e-12)
    normal = _line(ax, "normal").get_xydata()
    np.testing.assert_allclose(normal[0], pts[2], atol=1e-12)
    assert normal[1][0] == pytest.approx(pts[2][0], abs=1e-12) and normal[1][1] > pts[2][1]
    plt.close(ax.figure)


def test_a_longer_upper_arm_moves_the_elbow():
    short = draw_fingertip_schematic(0.3, "up", 0.6, l1=0.5)
    long = draw_fingertip_schematic(0.3, "up", 0.6, l1=0.7)
    a = _line(short, "links").get_xydata()
    b = _line(long, "links").get_xydata()
    np.testing.assert_allclose(a[1], _expected(0.3, "up", 0.5, 0.5, 0.5)[1], atol=1e-12)
    np.testing.assert_allclose(b[1], _expected(0.3, "up", 0.7, 0.5, 0.5)[1], atol=1e-12)
    assert np.linalg.norm(a[1] - b[1]) > 0.05
    assert np.linalg.norm(b[1] - b[0]) == pytest.approx(0.7, abs=1e-12)
    plt.close(short.figure)
    plt.close(long.figure)


@pytest.mark.parametrize("mu", [0.0, 0.3, 1.0, 1.5])
def test_cone_edges_make_arctan_mu_with_the_normal(mu):
    ax = draw_fingertip_schematic(0.2, "up", mu)
    cone = _line(ax, "cone").get_xydata()
    tip = _expected(0.2, "up", 0.5, 0.5, 0.5)[2]
    np.testing.assert_allclose(cone[1], tip, atol=1e-12)
    for edge in (cone[0], cone[2]):
        d = edge - tip
        assert math.atan2(abs(d[0]), d[1]) == pytest.approx(math.atan(mu), abs=1e-12)
    plt.close(ax.figure)


def test_unreachable_tip_and_bad_mu_are_refused():
    with pytest.raises(Exception, match="cannot reach"):
        draw_fingertip_schematic(2.0)
    with pytest.raises(ValueError, match="mu"):
        draw_fingertip_schematic(0.3, mu=-0.1)
