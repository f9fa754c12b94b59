"""Spec of the 3.5 checkpoint exercises (exercises/crba_and_aba.md).

Inputs only: the expected answers come from solutions/crba_and_aba.py (hidden
cases) and grader/chapters/crba_and_aba_public.json (public cases, generated with
``python -m grader --write-public``). Every exercise with several cases has an
even share per case (2 points / 4 cases, 4 points / 4 cases, 3 points / 4 cases,
3 points / 6 cases, 3 points / 4 cases); the multiple-select question earns an
even share per option. The trees are those of 3.2's exercises (the same
generators): branches, tilted joint axes and placements, full inertias, so a
wrong frame, sign or missing term fails every case. Tolerances (rtol 1e-8)
accept any correct float64 computation (round-off is ~1e-14 here) while every
mistake tried in tests/test_exercises_crba_and_aba.py is off by far more; 3.5.6
allows 1e-5 for the student's quadrature and root finding. 3.5.6 is graded
without lib: with it, a root-find around the page's own figure function
(lib.figures.floating_momentum) scores every case, and the step the page leaves
is writing the centroidal angular momentum of the two bodies by hand.
"""

import numpy as np

from grader.chapters.recursive_newton_euler import (
    _branched_tree,
    _planar_arm,
    _random_tree,
    _state_case,
    _tree_model,
)
from grader.spec import Chapter, ChoiceExercise, FunctionExercise
from lib import kinematic_tree as kt
from lib import tree_dynamics as td
from lib._validation import as_vector, positive
from lib.common import GRAVITY, random_inertia
from lib.spatial import spatial_inertia, transform


# 3.5.1 ------------------------------------------------------------------------
def _random_body(rng):
    """A rigid body's spatial inertia in a frame away from its centre of mass."""
    return spatial_inertia(float(rng.uniform(0.5, 3.0)), random_inertia(rng),
                           com=rng.normal(scale=0.4, size=3))


def _valid_rate_case(c):
    # a one-body tree checks G as a rigid body's spatial inertia (physical, symmetric)
    kt.kinematic_tree([-1], ["free"], [[0.0, 0.0, 1.0]], [np.eye(4)], [c["G"]])
    as_vector(c["V"], "V", 6)


_RATE_PUBLIC = [
    # a 2 kg body, its centre of mass 0.3 m along x of {0}, spinning at 1.5 rad/s
    # about the vertical axis through its centre of mass (v = -omega x c)
    {"G": spatial_inertia(2.0, np.diag([0.02, 0.03, 0.04]), com=[0.3, 0.0, 0.0]),
     "V": [0.0, 0.0, 1.5, 0.0, -0.45, 0.0]},
    {"G": spatial_inertia(1.5, np.array([[0.05, 0.01, 0.0], [0.01, 0.04, 0.005],
                                         [0.0, 0.005, 0.03]]), com=[0.1, -0.2, 0.25]),
     "V": [0.4, -1.0, 0.7, 0.3, 0.5, -0.8]},
]


# 3.5.2, 3.5.3, 3.5.4 ----------------------------------------------------------
def _y_tree():
    """A planar Y: a rod about z at the origin, two rods hanging from its tip."""
    arm = _planar_arm([0.6, 0.4], [3.0, 1.0])
    third = _planar_arm([0.6, 0.5], [3.0, 1.5])
    return {"parents": [-1, 0, 0],
            "placements": arm["placements"] + [third["placements"][1]],
            "axes": arm["axes"] + [[0.0, 0.0, 1.0]],
            "inertias": arm["inertias"] + [third["inertias"][1]]}


def _valid_tree_case(names, gravity=True):
    """The tree is a tree (parents first), its placements rigid, its inertias physical
    (lib's own checks), the state vectors have one entry per joint."""
    def check(c):
        model = _tree_model(c)
        for name in names:
            as_vector(c[name], name, model.nv)
        if gravity:
            as_vector(c["gravity"], "gravity", 3)
    return check


def _q_case(tree, q):
    return dict(tree, q=q)


def _unit_axes(tree):
    """The tree with unit joint axes, as the statement promises (3.2's four-body tree
    has two tilted axes of length sqrt 2; the answers are unchanged)."""
    axes = np.asarray(tree["axes"], dtype=float)
    return dict(tree, axes=(axes / np.linalg.norm(axes, axis=1)[:, None]).tolist())


def _hidden_braked(rng):
    """Random trees of four and six bodies; body 1's joint braked and the last
    body's free, the others at random, so both kinds of hand-over occur."""
    out = []
    for n in (4, 6):
        case = _q_case(_random_tree(rng, n), rng.uniform(-np.pi, np.pi, n))
        locked = rng.integers(0, 2, n)
        locked[1], locked[-1] = 1, 0
        case["locked"] = locked
        out.append(case)
    return out


def _valid_braked(c):
    _valid_tree_case(("q", "locked"), gravity=False)(c)
    if not set(np.asarray(c["locked"]).tolist()) <= {0, 1}:
        raise ValueError(f"locked must hold 0 (free) or 1 (braked), got {c['locked']}")


def _hidden_q(sizes):
    def hidden(rng):
        out = []
        for n in sizes:
            tree = _random_tree(rng, n)
            out.append(_q_case(tree, rng.uniform(-np.pi, np.pi, n)))
        return out
    return hidden


_ARM = _planar_arm([0.5, 0.5], [2.0, 2.0])
_G_DOWN = [0.0, 0.0, -GRAVITY]
_TREE_PUBLIC = [
    _q_case(_y_tree(), [0.4, 1.1, -0.8]),
    _q_case(_unit_axes(_branched_tree()), [0.2, -0.4, 0.9, 1.3]),
]
_ABA_PUBLIC = [
    dict(_ARM, q=[0.3, -0.7], qd=[1.0, -2.0], tau=[4.0, -1.5],
         gravity=[0.0, -GRAVITY, 0.0]),
    dict(_unit_axes(_branched_tree()), q=[0.2, -0.4, 0.9, 1.3],
         qd=[0.5, -1.0, 2.0, 0.7],
         tau=[2.0, -1.0, 0.5, 0.3], gravity=_G_DOWN),
]


def _hidden_aba(rng):
    out = []
    for n in (3, 4, 5, 6):
        case = _state_case(_random_tree(rng, n), rng, accelerations=False)
        case["tau"] = rng.normal(scale=2.0, size=n)
        out.append(case)
    return out


# 3.5.6 ------------------------------------------------------------------------
_FLOAT_ARGS = ("m_b", "I_b", "r", "l", "q0", "q1", "theta_max")


def floating_arm(m_b, I_b, r, l, m_a):
    """The free-floating base and rod of 3.5.6 as a lib tree: a free joint, then a
    revolute joint about z at (r, 0, 0) of the base's frame (its centre of mass)."""
    base = spatial_inertia(m_b, np.diag([I_b / 2, I_b / 2, I_b]))
    rod = spatial_inertia(m_a, np.diag([0.0, 1.0, 1.0]) * m_a * l**2 / 12,
                          com=[l / 2, 0.0, 0.0])
    return kt.kinematic_tree([-1, 0], ["free", "revolute"], [[0.0, 0.0, 1.0]] * 2,
                             [np.eye(4), transform(np.eye(3), [r, 0.0, 0.0])],
                             [base, rod])


#: Gauss-Legendre nodes on [-1, 1]: the base's rate is smooth in q, and 64 nodes
#: integrate it to round-off over swings up to 2.5 rad
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(64)


def base_turn(m_b, I_b, r, l, m_a, q0, q1):
    """The base's rotation (rad) for the swing q0 -> q1 from rest, by lib: zero
    centroidal momentum, A_G v = 0, gives the base's twist per unit joint rate (its
    six columns of A_G are invertible); its omega_z integrated over the swing."""
    model = floating_arm(m_b, I_b, r, l, m_a)
    q_joint = 0.5 * (q1 - q0) * _NODES + 0.5 * (q1 + q0)
    q = np.zeros((q_joint.size, model.nq))
    q[:, 3] = 1.0  # the base's quaternion (w, x, y, z); the rate does not depend on it
    q[:, 7] = q_joint
    a_g = td.centroidal_momentum_matrix(model, q)
    base_twist = np.linalg.solve(a_g[:, :, :6], -a_g[:, :, 6:7])[:, :, 0]
    return float(0.5 * (q1 - q0) * _WEIGHTS @ base_twist[:, 2])


def _swing_case(m_b, I_b, r, l, q0, q1, m_target):
    turn = abs(base_turn(m_b, I_b, r, l, m_target, q0, q1))
    return {"m_b": m_b, "I_b": I_b, "r": r, "l": l, "q0": q0, "q1": q1,
            "theta_max": float(turn)}


def _hidden_swing(rng):
    out = []
    for _ in range(2):
        m_b = float(rng.uniform(20.0, 200.0))
        radius = float(rng.uniform(0.3, 1.0))  # radius of gyration of the base, m
        q0 = float(rng.uniform(-1.0, 0.5))
        out.append(_swing_case(m_b, m_b * radius**2, float(rng.uniform(0.3, 1.0)),
                               float(rng.uniform(0.8, 2.5)), q0,
                               q0 + float(rng.uniform(1.0, 2.5)),
                               m_b * float(rng.uniform(0.05, 0.5))))
    return out


def _valid_swing(c):
    for name in ("m_b", "I_b", "r", "l", "theta_max"):
        positive(c[name], name)
    positive(c["q1"] - c["q0"], "q1 - q0")


CHAPTER = Chapter(
    name="crba_and_aba",
    title="3.5 Spatial algebra, CRBA and ABA",
    seed=3505,
    key_ideas={
        "spatial cross products for motion and force": ("inertia_rate", "aba_fixed"),
        "composite rigid-body inertias and the CRBA": ("tree_crba",
                                                       "forward_dynamics_facts"),
        "articulated-body inertias and the ABA": ("articulated_inertias", "aba_fixed",
                                                  "forward_dynamics_facts"),
        "forward dynamics cost: ABA against Cholesky": ("forward_dynamics_facts",),
        "floating base and centroidal momentum": ("max_arm_mass",),
    },
    exercises=[
        FunctionExercise(
            number="3.5.1", name="inertia_rate", points=2, partial=True, minutes=15,
            lib_forbidden=True, section="sec-ab-spatial", validate=_valid_rate_case,
            title="The rate of change of a moving body's spatial inertia (without lib)",
            args=("G", "V"),
            public=_RATE_PUBLIC,
            hidden=lambda rng: [{"G": _random_body(rng), "V": rng.normal(size=6)}
                                for _ in range(2)],
            rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.5.2", name="tree_crba", points=4, partial=True, minutes=35,
            lib_forbidden=True, section="sec-ab-crba",
            validate=_valid_tree_case(("q",), gravity=False),
            title="The mass matrix of a tree by composite inertias (without lib)",
            args=("parents", "placements", "axes", "inertias", "q"),
            public=_TREE_PUBLIC, hidden=_hidden_q((5, 6)),
            rtol=1e-8, atol=1e-10,
        ),
        FunctionExercise(
            number="3.5.3", name="articulated_inertias", points=3, partial=True,
            minutes=30, lib_forbidden=True, section="sec-ab-aba",
            validate=_valid_braked,
            title="The inertias a tree's bodies show with some joints braked (without "
                  "lib)",
            args=("parents", "placements", "axes", "inertias", "q", "locked"),
            public=[dict(_TREE_PUBLIC[0], locked=[0, 1, 0]),
                    dict(_TREE_PUBLIC[1], locked=[0, 0, 1, 0])],
            hidden=_hidden_braked,
            rtol=1e-8, atol=1e-10,
        ),
        FunctionExercise(
            number="3.5.4", name="aba_fixed", points=3, partial=True, minutes=25,
            lib_forbidden=True, section="sec-ab-aba",
            validate=_valid_tree_case(("q", "qd", "tau")),
            title="Find and fix the two mistakes of an ABA routine (without lib)",
            args=("parents", "placements", "axes", "inertias", "q", "qd", "tau",
                  "gravity"),
            public=_ABA_PUBLIC, hidden=_hidden_aba,
            rtol=1e-8, atol=1e-10,
        ),
        ChoiceExercise(
            number="3.5.5", name="forward_dynamics_facts", points=3, partial=True,
            multi=True, minutes=18, options=("A", "B", "C", "D", "E", "F"),
            section="sec-ab-cost",
            title="What the CRBA, the ABA and a Cholesky factorisation cost and "
                  "compute",
        ),
        FunctionExercise(
            number="3.5.6", name="max_arm_mass", points=3, partial=True, minutes=35,
            lib_forbidden=True, section="sec-ab-floating", validate=_valid_swing,
            title="The heaviest arm that turns a floating base by at most a given "
                  "angle (without lib)",
            args=_FLOAT_ARGS,
            public=[dict(zip(_FLOAT_ARGS, (50.0, 8.0, 0.5, 1.2, 0.0, np.pi / 2, 0.2))),
                    dict(zip(_FLOAT_ARGS, (120.0, 30.0, 0.8, 2.0, -0.5, 1.5, 0.5)))],
            hidden=_hidden_swing,
            rtol=1e-5, atol=1e-9,
        ),
    ],
)
