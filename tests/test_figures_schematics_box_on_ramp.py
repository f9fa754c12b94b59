"""The box-on-ramp schematic is drawn from lib.models.box_on_ramp's corner positions."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lib.figures.schematics.box_on_ramp import draw_box_on_ramp, ramp_to_page  # noqa: E402
from lib.models import box_on_ramp as br  # noqa: E402


def _line(ax, gid):
    return next(line for line in ax.lines if line.get_gid() == gid)


def _page(box, points):
    c, s = math.cos(box.alpha), math.sin(box.alpha)
    return np.asarray(points) @ np.array([[c, s], [-s, c]])


@pytest.mark.parametrize("width, height, alpha_deg", [(0.2, 0.4, 15.0), (0.3, 0.4, 15.0),
                                                      (0.2, 0.6, 30.0)])
@pytest.mark.parametrize("q", [None, [0.4, -0.1, 0.22]])
def test_outline_and_contacts_follow_the_model(width, height, alpha_deg, q):
    box = br.box_on_ramp(width, height, 1.0, math.radians(alpha_deg), 0.5)
    ax = draw_box_on_ramp(box, q)
    pose = br.resting_state(box) if q is None else q
    corners = _page(box, br.corner_positions(box, pose))
    # the drawing uses the model's corners (round-off of one rotation: 1e-12 m)
    np.testing.assert_allclose(_line(ax, "box").get_xydata()[:4], corners, atol=1e-12)
    np.testing.assert_allclose(_line(ax, "contacts").get_xydata(), corners[:2], atol=1e-12)
    com = _page(box, [pose[1:]])[0]
    np.testing.assert_allclose(_line(ax, "com").get_xydata()[0], com, atol=1e-12)
    plt.close(ax.figure)


def test_a_wider_box_moves_the_drawn_corners():
    narrow = br.box_on_ramp(0.2, 0.4, 1.0, 0.3, 0.5)
    wide = br.box_on_ramp(0.3, 0.4, 1.0, 0.3, 0.5)
    a = _line(draw_box_on_ramp(narrow), "box").get_xydata()[:4]
    b = _line(draw_box_on_ramp(wide), "box").get_xydata()[:4]
    # the corners move by half the change in width along the ramp (1e-12 m)
    shift = ramp_to_page(wide, [[0.05, 0.0]])[0]
    np.testing.assert_allclose(b[1] - a[1], shift, atol=1e-12)
    np.testing.assert_allclose(b[0] - a[0], -shift, atol=1e-12)
    plt.close("all")


def test_ramp_surface_has_the_inclination():
    box = br.box_on_ramp(0.2, 0.4, 1.0, math.radians(20.0), 0.5)
    xy = _line(draw_box_on_ramp(box), "ramp").get_xydata()
    slope = (xy[1, 1] - xy[0, 1]) / (xy[1, 0] - xy[0, 0])
    assert slope == pytest.approx(math.tan(box.alpha), rel=1e-12)
    plt.close("all")
