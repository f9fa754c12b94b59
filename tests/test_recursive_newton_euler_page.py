"""Chapter 3.2's page: its glued numbers are computed, its labels are those lib names,
and the physical claims its prose makes in words hold beyond the states the page draws.

The page itself asserts every comparison it glues (Pinocchio, the closed form, the
identities of h, g and M) when the book is built; these tests hold what the prose says
without a number: the base joint of UR5 at rest carries the arm's weight and its motor
none of it, slow motions change only the motion part of the torque, and the sections
that lib's docstrings refer to exist on the page.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jupytext
import numpy as np

from lib import kinematic_tree as kt
from lib.common import GRAVITY
from lib.models.robots import load_robot

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "dynamics" / "recursive-newton-euler.md"
GLUE_FUNCTIONS = {"gnum", "gtext", "glue", "glue_number", "glue_text"}


def _literal_glues(source: str) -> list[str]:
    """The glue calls of ``source`` whose value is a number typed into the call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in GLUE_FUNCTIONS and len(node.args) >= 2):
            continue
        value = node.args[1]
        if isinstance(value, ast.UnaryOp):
            value = value.operand
        if isinstance(value, ast.Constant) and isinstance(value.value, (int, float)):
            found.append(ast.unparse(node))
    return found


def test_no_glued_number_is_typed_into_the_glue_call():
    nb = jupytext.read(PAGE)
    typed = [call for cell in nb.cells if cell.cell_type == "code"
             for call in _literal_glues(cell.source)]
    assert not typed, "glue the variable the computation uses:\n" + "\n".join(typed)


def test_the_literal_glue_scan_can_fail():
    assert _literal_glues('gnum("rn_x", 2.0); gnum("rn_y", -1)') == [
        "gnum('rn_x', 2.0)", "gnum('rn_y', -1)"]
    assert not _literal_glues('gnum("rn_x", weight); gnum("rn_t", 1e6 * t_lib)')


def test_every_label_lib_refers_to_is_on_the_page():
    labels = set(re.findall(r"^\((sec-rn-[\w-]+)\)=", PAGE.read_text(), re.M))
    named = set()
    for path in (ROOT / "lib").rglob("*.py"):
        named |= set(re.findall(r":ref:`(sec-rn-[\w-]+)`", path.read_text()))
    required = {"sec-rn-tree", "sec-rn-forward", "sec-rn-backward", "sec-rn-bias",
                "sec-rn-mass-matrix", "sec-rn-robots", "sec-rn-crosscheck", "sec-rn-urdf"}
    assert "sec-rn-tree" in named  # the scan finds lib's references
    assert (required | named) <= labels, sorted((required | named) - labels)


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
