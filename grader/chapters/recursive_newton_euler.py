"""Spec of the 3.2 checkpoint exercises (exercises/recursive_newton_euler.md).

Inputs only: the expected answers come from solutions/recursive_newton_euler.py
(hidden cases) and grader/chapters/recursive_newton_euler_public.json (public
cases, generated with ``python -m grader --write-public``).
Every exercise with several cases has an even share per case (4 points / 4
cases, 3 points / 6 cases, 3 points / 4 cases, 1 point / 4 cases, 3 points / 6
options) so partial scores are exact. The trees of the hidden cases are generic
(branches, tilted joint axes and placements, full inertias, nonzero rates and
gravity), so an RNEA with a wrong frame, sign or missing term fails every
case. Tolerances (rtol 1e-8) accept any correct float64 computation (round-off
is ~1e-15 here) while every mistake tried in
tests/test_exercises_recursive_newton_euler.py is off by far more.
3.2.5 is a design, judged by lib's gravity_torques on a grid of poses.
"""

import numpy as np

from grader.spec import (Chapter, ChoiceExercise, DesignExercise, ExpressionExercise,
                         FunctionExercise)
from lib import kinematic_tree as kt
from lib._validation import as_array, as_vector, positive, real_number
from lib.common import GRAVITY, random_inertia, random_rotation
from lib.spatial import spatial_inertia, transform


# 3.2.1, 3.2.3 -----------------------------------------------------------------
def _rod(mass, length):
    """Spatial inertia of a uniform rod along x from its frame's origin."""
    return spatial_inertia(mass, np.diag([0.0, mass * length**2 / 12,
                                          mass * length**2 / 12]),
                           com=[length / 2, 0.0, 0.0])


def _planar_arm(lengths, masses):
    """The chapter's arm of two uniform rods: joints about z, rods along x."""
    return {"parents": [-1, 0],
            "placements": [np.eye(4), transform(np.eye(3), [lengths[0], 0.0, 0.0])],
            "axes": [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]],
            "inertias": [_rod(masses[0], lengths[0]), _rod(masses[1], lengths[1])]}


def _branched_tree():
    """Four bodies, a branch at body 1, tilted axes and offsets (a public case)."""
    c, s = np.cos(0.4), np.sin(0.4)
    tilt = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    turn = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    half = np.sqrt(0.5)
    return {"parents": [-1, 0, 1, 1],
            "placements": [transform(np.eye(3), [0.0, 0.0, 0.3]),
                           transform(tilt, [0.4, 0.0, 0.0]),
                           transform(turn, [0.3, 0.1, 0.0]),
                           transform(tilt.T, [0.0, -0.2, 0.1])],
            # unit axes, as the statement promises (two of them tilted by 45 degrees)
            "axes": [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [half, 0.0, half], [0.0, half, half]],
            "inertias": [
                spatial_inertia(3.0, np.diag([0.02, 0.03, 0.04]), com=[0.1, 0.0, 0.05]),
                spatial_inertia(2.0, np.array([[0.02, 0.001, 0.0], [0.001, 0.015, 0.002],
                                               [0.0, 0.002, 0.01]]), com=[0.2, 0.0, 0.0]),
                spatial_inertia(1.0, np.diag([0.004, 0.005, 0.006]), com=[0.1, 0.05, 0.0]),
                spatial_inertia(0.5, np.diag([0.002, 0.002, 0.003]),
                                com=[0.0, -0.05, 0.08])]}


def _random_tree(rng, n):
    """A tree of n revolute bodies with at least one branch, in general position."""
    parents = [-1, 0] + [int(rng.integers(0, i)) for i in range(2, n)]
    if len(set(parents)) == n:  # a chain: hang the last body from body 0 instead
        parents[-1] = 0
    axes = rng.normal(size=(n, 3))
    return {"parents": parents,
            "placements": [transform(random_rotation(rng), rng.normal(scale=0.3, size=3))
                           for _ in range(n)],
            "axes": axes / np.linalg.norm(axes, axis=1, keepdims=True),
            "inertias": [spatial_inertia(float(rng.uniform(0.5, 3.0)), random_inertia(rng),
                                         com=rng.normal(scale=0.2, size=3))
                         for _ in range(n)]}


def _gravity(rng):
    """9.81 m/s^2 in a random direction (a tilted base)."""
    g = rng.normal(size=3)
    return GRAVITY * g / np.linalg.norm(g)


def _state_case(tree, rng, accelerations=True):
    n = len(tree["parents"])
    case = dict(tree, q=rng.uniform(-np.pi, np.pi, n), qd=rng.normal(size=n),
                gravity=_gravity(rng))
    if accelerations:
        case["qdd"] = rng.normal(size=n)
    return case


_ARM = _planar_arm([0.5, 0.5], [2.0, 2.0])
_G_PLANAR = [0.0, -GRAVITY, 0.0]
_G_DOWN = [0.0, 0.0, -GRAVITY]
TREE_PUBLIC = [
    dict(_ARM, q=[0.3, -0.7], qd=[1.0, -2.0], qdd=[0.5, 1.5], gravity=_G_PLANAR),
    dict(_branched_tree(), q=[0.2, -0.4, 0.9, 1.3], qd=[0.5, -1.0, 2.0, 0.7],
         qdd=[1.0, 0.3, -0.8, 0.4], gravity=_G_DOWN),
]
BIAS_PUBLIC = [
    dict(_ARM, q=[0.3, -0.7], qd=[1.0, -2.0], gravity=_G_PLANAR),
    dict(_branched_tree(), q=[0.2, -0.4, 0.9, 1.3], qd=[0.5, -1.0, 2.0, 0.7],
         gravity=_G_DOWN),
]


def _tree_model(c):
    n = len(c["parents"])
    return kt.kinematic_tree([int(p) for p in c["parents"]], ["revolute"] * n, c["axes"],
                             c["placements"], c["inertias"])


# Every case input is checked with the library's own validation (Exercise.validate): the
# tree is a tree (parents first), the placements rigid transforms, the inertias physical.
def _valid_tree_case(names):
    def check(c):
        model = _tree_model(c)
        for name in names:
            as_vector(c[name], name, model.nv)
        as_vector(c["gravity"], "gravity", 3)
    return check


# 3.2.2 ------------------------------------------------------------------------
_RP_SYMBOLS = ("q1", "q2", "qd1", "qd2", "qdd1", "qdd2", "m1", "l1", "m2", "g")


def _rp_point(rng):
    values = {name: float(v) for name, v in zip(_RP_SYMBOLS[:6], rng.uniform(-1.5, 1.5, 6))}
    values["q2"] = float(rng.uniform(0.1, 0.9))
    values.update(m1=float(rng.uniform(0.5, 3.0)), l1=float(rng.uniform(0.5, 1.5)),
                  m2=float(rng.uniform(0.2, 2.0)), g=float(rng.uniform(5.0, 12.0)))
    return values


def _valid_rp(p):
    for name in _RP_SYMBOLS[:6]:
        real_number(p[name], name)
    for name in ("m1", "l1", "m2", "g"):
        positive(p[name], name)


# 3.2.5 ------------------------------------------------------------------------
_DESIGN_ARGS = ("l1", "l2", "m1", "m2", "m_payload", "tau1_max", "tau2_max", "d_max")


def counterweight_limits(l1, l2, m1, m2, m_payload, d_max, slack2, slack1):
    """Torque limits of a case: joint 2 needs a counterweight (its limit is ``slack2``
    times the unbalanced moment), joint 1 allows ``slack1`` times the unbalanced moment
    above the best design's peak (counterweight at ``d_max``), so that a counterweight
    placed much closer to the joint, being heavier, overloads joint 1."""
    b0 = m2 * l2 / 2 + m_payload * l2  # kg m: unbalanced first moment of link 2
    a0 = m1 * l1 / 2 + (m2 + m_payload) * l1
    m_min = (1.0 - slack2) * b0 / d_max
    candidates = [m_min] + ([b0 / d_max] if b0 / d_max > m_min else [])
    best = min(a0 + m * l1 + abs(b0 - m * d_max) for m in candidates)
    return GRAVITY * (best + slack1 * b0), GRAVITY * slack2 * b0


def _design_case(l1, l2, m1, m2, m_payload, d_max, slack2, slack1):
    tau1, tau2 = counterweight_limits(l1, l2, m1, m2, m_payload, d_max, slack2, slack1)
    return {"l1": l1, "l2": l2, "m1": m1, "m2": m2, "m_payload": m_payload,
            "tau1_max": tau1, "tau2_max": tau2, "d_max": d_max}


def _hidden_design(rng):
    return [_design_case(float(rng.uniform(0.4, 0.8)), float(rng.uniform(0.3, 0.6)),
                         float(rng.uniform(2.0, 6.0)), float(rng.uniform(1.0, 3.0)),
                         float(rng.uniform(0.5, 3.0)), float(rng.uniform(0.12, 0.3)),
                         float(rng.uniform(0.15, 0.3)), 0.1)
            for _ in range(2)]


def _valid_design(c):
    for name in _DESIGN_ARGS:
        positive(c[name], name)


def balanced_arm(c, m_c, d):
    """The arm of 3.2.5 as a tree: rods, the payload at the tip of link 2 and the
    counterweight m_c at distance d behind joint 2, all on link 2's body."""
    body2 = _rod(c["m2"], c["l2"]) + spatial_inertia(c["m_payload"], np.zeros((3, 3)),
                                                     com=[c["l2"], 0.0, 0.0])
    if m_c > 0.0:
        body2 = body2 + spatial_inertia(m_c, np.zeros((3, 3)), com=[-d, 0.0, 0.0])
    return kt.kinematic_tree([-1, 0], ["revolute"] * 2, [[0.0, 0.0, 1.0]] * 2,
                             [np.eye(4), transform(np.eye(3), [c["l1"], 0.0, 0.0])],
                             [_rod(c["m1"], c["l1"]), body2])


#: poses of the judge: every 7.5 degrees of both joints (the extremes of the static
#: torques, at multiples of 90 degrees, are on the grid)
_GRID = np.stack(np.meshgrid(*[np.arange(48) * np.pi / 24] * 2), -1).reshape(-1, 2)
_RTOL_LIMIT = 1e-9


def _judge_counterweight(c, design):
    design = np.asarray(design, dtype=float)
    if design.shape != (2,):
        return False, f"expected [m_c, d] (shape (2,)), got shape {design.shape}"
    m_c, d = design
    if not (np.isfinite(m_c) and np.isfinite(d)) or m_c < 0.0 or d < 0.0:
        return False, "m_c and d must be finite and non-negative"
    if d > c["d_max"] * (1 + _RTOL_LIMIT):
        return False, f"d = {d:.4g} m is longer than d_max = {c['d_max']:.4g} m"
    tau = kt.gravity_torques(balanced_arm(c, m_c, d), _GRID, gravity=[0.0, -GRAVITY, 0.0])
    peak1, peak2 = np.abs(tau).max(axis=0)
    ok1 = peak1 <= c["tau1_max"] * (1 + _RTOL_LIMIT)
    ok2 = peak2 <= c["tau2_max"] * (1 + _RTOL_LIMIT)
    why = (f"largest static torques over all poses: joint 1 {peak1:.4f} N m (limit "
           f"{c['tau1_max']:.4f}), joint 2 {peak2:.4f} N m (limit {c['tau2_max']:.4f})")
    return bool(ok1 and ok2), why


# 3.2.6 ------------------------------------------------------------------------
def _free_flyer_case(rng, k):
    quat = rng.normal(size=4)
    return {"q": np.concatenate([rng.normal(scale=0.5, size=3), quat / np.linalg.norm(quat),
                                 rng.uniform(-np.pi, np.pi, k)]),
            "v": rng.normal(size=6 + k), "tau_pin": rng.normal(scale=10.0, size=6 + k)}


def _valid_free_flyer(c):
    q = as_array(c["q"], "q", (None,))
    k = q.size - 7
    if k < 0 or abs(np.linalg.norm(q[3:7]) - 1.0) > 1e-12:
        raise ValueError("q must hold (p, w, x, y, z) with a unit quaternion, then the joints")
    as_vector(c["v"], "v", 6 + k)
    as_vector(c["tau_pin"], "tau_pin", 6 + k)


CHAPTER = Chapter(
    name="recursive_newton_euler",
    title="3.2 The recursive Newton–Euler algorithm",
    seed=3202,
    key_ideas={
        "forward and backward passes of the RNEA": ("tree_rnea", "bias_forces_fixed"),
        "gravity as an upward acceleration of the ground": ("bias_forces_fixed",
                                                            "rnea_facts"),
        "tau_i = S_i^T F_i and the wrench the bearing carries": ("rnea_facts",),
        "velocity-product terms of a chain derived by hand": ("rp_arm_torques",),
        "h, g and M as RNEA calls": ("rnea_facts", "counterweight_design"),
        "static balancing with g(q)": ("counterweight_design",),
        "the (omega, v) and (v, omega) orders at Pinocchio's boundary": ("pinocchio_state",),
    },
    exercises=[
        FunctionExercise(
            number="3.2.1", name="tree_rnea", points=4, partial=True, minutes=40,
            lib_forbidden=True, section="sec-rn-backward",
            validate=_valid_tree_case(("q", "qd", "qdd")),
            title="The RNEA for a tree of revolute joints (without lib)",
            args=("parents", "placements", "axes", "inertias", "q", "qd", "qdd", "gravity"),
            public=TREE_PUBLIC,
            hidden=lambda rng: [_state_case(_random_tree(rng, n), rng) for n in (5, 6)],
            rtol=1e-8, atol=1e-10,
        ),
        ExpressionExercise(
            number="3.2.2", name="rp_arm_torques", points=2, partial=False, minutes=20,
            section="sec-rn-forward", validate=_valid_rp,
            title="The joint forces of a planar RP arm, by the two passes on paper",
            symbols=_RP_SYMBOLS, shape=(2, 1),
            public_points=[
                {"q1": 0.4, "q2": 0.3, "qd1": 1.2, "qd2": -0.5, "qdd1": 0.7, "qdd2": 0.2,
                 "m1": 2.0, "l1": 1.0, "m2": 0.5, "g": 9.81},
                {"q1": -1.1, "q2": 0.6, "qd1": -0.4, "qd2": 1.5, "qdd1": -1.3, "qdd2": 0.9,
                 "m1": 1.2, "l1": 0.8, "m2": 1.5, "g": 9.81},
            ],
            sample=_rp_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.2.3", name="bias_forces_fixed", points=3, partial=True, minutes=25,
            lib_forbidden=True, section="sec-rn-forward",
            validate=_valid_tree_case(("q", "qd")),
            title="Find and fix the two mistakes of a bias-force routine (without lib)",
            args=("parents", "placements", "axes", "inertias", "q", "qd", "gravity"),
            public=BIAS_PUBLIC,
            hidden=lambda rng: [_state_case(_random_tree(rng, n), rng, accelerations=False)
                                for n in (3, 4, 5, 6)],
            rtol=1e-8, atol=1e-10,
        ),
        ChoiceExercise(
            number="3.2.4", name="rnea_facts", points=3, partial=True, multi=True, minutes=18,
            options=("A", "B", "C", "D", "E", "F"), section="sec-rn-bias",
            title="What the RNEA's inputs and outputs mean",
        ),
        DesignExercise(
            number="3.2.5", name="counterweight_design", points=3, partial=True, minutes=25,
            section="sec-rn-bias", validate=_valid_design,
            title="A counterweight that keeps both static joint torques within their limits",
            args=_DESIGN_ARGS,
            public=[_design_case(0.6, 0.5, 4.0, 2.0, 1.5, 0.2, 0.2, 0.1),
                    _design_case(0.5, 0.4, 3.0, 1.5, 2.5, 0.25, 0.25, 0.1)],
            hidden=_hidden_design, judge=_judge_counterweight,
        ),
        FunctionExercise(
            number="3.2.6", name="pinocchio_state", points=1, partial=True, minutes=10,
            lib_forbidden=True, section="sec-rn-crosscheck", validate=_valid_free_flyer,
            title="A floating-base state to Pinocchio's order, and its joint forces back "
                  "(without lib)",
            args=("q", "v", "tau_pin"),
            public=[{"q": [0.1, -0.2, 0.3, 0.5, 0.5, -0.5, 0.5, 0.4, -1.2],
                     "v": [0.1, 0.2, 0.3, 1.0, 2.0, 3.0, -0.5, 0.7],
                     "tau_pin": [10.0, 20.0, 30.0, 1.0, 2.0, 3.0, 4.0, 5.0]},
                    {"q": [0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.3],
                     "v": [0.0, 0.0, 1.0, 0.2, 0.0, 0.0, 0.6],
                     "tau_pin": [0.0, 0.0, 98.1, 0.0, 1.5, 0.0, 2.0]}],
            hidden=lambda rng: [_free_flyer_case(rng, k) for k in (3, 12)],
            rtol=1e-12, atol=1e-12,
        ),
    ],
)
