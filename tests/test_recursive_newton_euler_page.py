"""Chapter 3.2's page: its glued numbers are computed, its labels are those lib names,
and the physical claims its prose makes in words hold beyond the states the page draws.

The page itself asserts every comparison it glues (Pinocchio, the closed form, the
identities of h, g and M) when the book is built; these tests hold what the prose says
without a number: the base joint of UR5 at rest carries the arm's weight and its motor
none of it, slow motions change only the motion part of the torque, and the sections
that lib's docstrings refer to exist on the page.
"""

from __future__ import annotations

import re
from pathlib import Path

import jupytext
import numpy as np

from lib import kinematic_tree as kt
from lib.common import GRAVITY
from lib.models.robots import load_robot

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "dynamics" / "recursive-newton-euler.md"
def test_the_parent_is_not_lambda_on_the_page():
    """lambda is the book's Lagrange multiplier (notation page); a tree's parent is pa(i)."""
    maths = " ".join(re.findall(r"\$([^$]+)\$", PAGE.read_text()))
    assert "\\lambda" not in maths and "\\mathrm{pa}(i)" in maths


def test_ur5_base_joint_carries_the_weight_and_its_motor_none_of_it():
    """At rest, in any pose, the force across UR5's pan joint is the arm's weight and the
    pan torque is zero (its axis is vertical): the prose of sec-rn-backward."""
    ur5 = load_robot("ur5")
    rng = np.random.default_rng(3202)
    q = rng.uniform(-np.pi, np.pi, (50, ur5.nq))
    zero = np.zeros_like(q)
    wrenches = kt.joint_wrenches(ur5, q, zero, zero)
    weight = ur5.inertias[:, 3, 3].sum() * GRAVITY
    # a sum of six bodies' weights carried through six frames: round-off ~1e-14 relative
    np.testing.assert_allclose(np.linalg.norm(wrenches[:, 0, 3:], axis=1), weight,
                               rtol=1e-12)
    np.testing.assert_allclose(kt.gravity_torques(ur5, q)[:, 0], 0.0, atol=1e-11)


def test_half_speed_leaves_gravity_and_quarters_the_motion_part():
    """Along any path q(s), running at half the speed keeps g(q) and divides
    tau - g(q) = M qdd + C qd by four (sec-rn-ur5)."""
    panda = load_robot("panda")
    rng = np.random.default_rng(32)
    q = rng.uniform(-np.pi, np.pi, (40, panda.nq))
    v, a = rng.normal(size=(2, 40, panda.nv))
    fast = kt.rnea(panda, q, v, a) - kt.gravity_torques(panda, q)
    slow = kt.rnea(panda, q, v / 2, a / 4) - kt.gravity_torques(panda, q)
    # the same products with a factor of four: round-off only
    np.testing.assert_allclose(slow, fast / 4, rtol=1e-12, atol=1e-12)
