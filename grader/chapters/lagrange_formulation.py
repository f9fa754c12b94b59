"""Spec of the 3.3 checkpoint exercises (exercises/lagrange_formulation.md).

Inputs only: the expected answers come from solutions/lagrange_formulation.py
(hidden cases) and grader/chapters/lagrange_formulation_public.json (public
cases, generated with ``python -m grader --write-public``). Every exercise with
several cases has an even share per case (3 points / 6 cases, 4 points / 8
cases, 2 points / 4 cases); a multiple-select question earns an even share per
option. States are generic (all angles and rates non-zero), so a term that is
missing or has the wrong sign fails every case.
"""

import numpy as np

from grader.spec import ChoiceExercise, Chapter, DesignExercise, ExpressionExercise, FunctionExercise
from lib import kinematic_tree as kt
from lib._validation import as_array, as_symmetric, as_vector, positive, positive_array
from lib.common import GRAVITY
from lib.models.planar_chain import planar_chain_tree
from lib.spatial import spatial_inertia

# 3.3.1, 3.3.2 ------------------------------------------------------------------
_RP_SYMBOLS = ("q1", "q2", "qd1", "qd2", "m1", "m2", "r1", "I1", "I2")


def _rp_point(rng):
    return {"q1": float(rng.uniform(-np.pi, np.pi)), "q2": float(rng.uniform(0.2, 1.0)),
            "qd1": float(rng.normal(0.0, 2.0)), "qd2": float(rng.normal(0.0, 1.0)),
            "m1": float(rng.uniform(1.0, 5.0)), "m2": float(rng.uniform(0.5, 3.0)),
            "r1": float(rng.uniform(0.1, 0.4)), "I1": float(rng.uniform(0.01, 0.2)),
            "I2": float(rng.uniform(0.01, 0.1))}


def _valid_rp_point(p):
    for name in ("m1", "m2", "r1", "I1", "I2", "q2"):
        positive(p[name], name)


_RP_PUBLIC = [
    {"q1": 0.3, "q2": 0.6, "qd1": 1.5, "qd2": -0.4, "m1": 3.0, "m2": 1.5, "r1": 0.2,
     "I1": 0.05, "I2": 0.02},
    {"q1": -2.0, "q2": 0.35, "qd1": -0.7, "qd2": 0.9, "m1": 2.0, "m2": 2.5, "r1": 0.3,
     "I1": 0.1, "I2": 0.04},
]


# 3.3.3 ----------------------------------------------------------------------------
def _state(rng, n=2):
    return {"q": rng.uniform(-np.pi, np.pi, n), "qd": rng.normal(0.0, 2.0, n),
            "qdd": rng.normal(0.0, 3.0, n)}


def _cart_case(rng):
    case = _state(rng)
    case["q"][0] = rng.uniform(-1.0, 1.0)  # the cart's position, m
    case.update({"m_cart": float(rng.uniform(0.5, 5.0)), "m": float(rng.uniform(0.1, 2.0)),
                 "r": float(rng.uniform(0.1, 1.0)), "I": float(rng.uniform(0.001, 0.1))})
    return case


def _valid_state(c):
    for name in ("q", "qd", "qdd"):
        as_vector(c[name], name, 2)


def _valid_cart(c):
    _valid_state(c)
    for name in ("m_cart", "m", "r", "I"):
        positive(c[name], name)


# 3.3.4 ----------------------------------------------------------------------------
def _pan_tilt_case(rng):
    case = _state(rng)
    case.update({"J1": float(rng.uniform(0.01, 0.5)), "m2": float(rng.uniform(0.5, 3.0)),
                 "l": float(rng.uniform(0.2, 1.0)), "d": float(rng.uniform(0.02, 0.3))})
    return case


def _valid_pan_tilt(c):
    _valid_state(c)
    for name in ("J1", "m2", "l", "d"):
        positive(c[name], name)


# 3.3.5 ----------------------------------------------------------------------------
def _dM_case(rng, n):
    """Random dM/dq_k, each symmetric (a mass matrix is), and a velocity."""
    a = rng.normal(size=(n, n, n))
    return {"dM": a + np.swapaxes(a, 1, 2), "qd": rng.normal(size=n)}


def _valid_dM(c):
    n = as_array(c["dM"], "dM", (None, None, None)).shape[0]
    dM = as_array(c["dM"], "dM", (n, n, n))
    for k in range(n):
        as_symmetric(dM[k], f"dM[{k}]", n)
    as_vector(c["qd"], "qd", n)


# 3.3.7 ----------------------------------------------------------------------------
#: The fractions of d_max between which the reference cases keep the shoulder's
#: counterweight distance feasible (mass budget below, inertia limit above).
_D1_WINDOW = (0.45, 0.75)
#: Gravity and the Coriolis and centrifugal torques must be cancelled to this fraction of
#: the unbalanced arm's largest ones.
_BALANCE_RTOL = 1e-3


def _arm_with_counterweights(lengths, masses, design):
    """The uniform-rod arm of lib.models.planar_chain with point counterweights behind the joints."""
    mc1, d1, mc2, d2 = design
    arm = planar_chain_tree(lengths, masses)
    inertias = [arm.inertias[0] + spatial_inertia(mc1, np.zeros((3, 3)), com=[-d1, 0.0, 0.0]),
                arm.inertias[1] + spatial_inertia(mc2, np.zeros((3, 3)), com=[-d2, 0.0, 0.0])]
    return kt.kinematic_tree(arm.parents, arm.joint_types, arm.axes, arm.placements, inertias)


def _grid(n=24):
    a = np.linspace(-np.pi, np.pi, n, endpoint=False)
    q1, q2 = np.meshgrid(a, a)
    return np.stack([q1.ravel(), q2.ravel()], axis=1)


def _balance_design(c, d1, d2):
    l1, l2 = c["lengths"]
    m1, m2 = c["masses"]
    mc2 = m2 * l2 / (2 * d2)
    return [(m1 * l1 / 2 + (m2 + mc2) * l1) / d1, d1, mc2, d2]


def _largest_M11(c, design):
    M = kt.rnea_mass_matrix(_arm_with_counterweights(c["lengths"], c["masses"], design), _grid())
    return float(np.max(M[:, 0, 0]))


def _counterweight_case(rng):
    """Limits such that, with d2 = d_max, d1 is feasible exactly on _D1_WINDOW of d_max."""
    case = {"lengths": rng.uniform(0.3, 0.6, 2), "masses": rng.uniform(1.0, 3.0, 2),
            "d_max": float(rng.uniform(0.15, 0.3))}
    lo, hi = (f * case["d_max"] for f in _D1_WINDOW)
    light = _balance_design(case, lo, case["d_max"])
    case["m_budget"] = float(light[0] + light[2])
    case["inertia_max"] = _largest_M11(case, _balance_design(case, hi, case["d_max"]))
    return case


def _valid_counterweights(c):
    positive_array(c["lengths"], "lengths", (2,))
    positive_array(c["masses"], "masses", (2,))
    for name in ("d_max", "m_budget", "inertia_max"):
        positive(c[name], name)


def _judge_counterweights(c, design):
    design = np.asarray(design, dtype=float)
    if design.shape != (4,):
        return False, f"expected [m_c1, d_1, m_c2, d_2] (shape (4,)), got shape {design.shape}"
    if not np.all(np.isfinite(design)) or np.any(design <= 0):
        return False, "every mass and distance must be a positive finite number"
    mc1, d1, mc2, d2 = design
    if max(d1, d2) > c["d_max"] * (1 + 1e-9):
        return False, f"d_1 = {d1:.4g} m and d_2 = {d2:.4g} m must not exceed {c['d_max']:.4g} m"
    arm = _arm_with_counterweights(c["lengths"], c["masses"], design)
    grid = _grid()
    down_y = [0.0, -GRAVITY, 0.0]
    bare = planar_chain_tree(c["lengths"], c["masses"])
    g_max, g_bare = (float(np.max(np.abs(kt.gravity_torques(a, grid, gravity=down_y))))
                     for a in (arm, bare))
    # C(q, qd) qd without gravity, at unit rates of both joints and of each alone
    rates = np.repeat([[1.0, 1.0], [1.0, 0.0], [0.0, 1.0]], len(grid), axis=0)
    states = np.tile(grid, (3, 1))
    c_max, c_bare = (float(np.max(np.abs(kt.bias_forces(a, states, rates, gravity=np.zeros(3)))))
                     for a in (arm, bare))
    M11 = float(np.max(kt.rnea_mass_matrix(arm, grid)[:, 0, 0]))
    ok_g = g_max <= _BALANCE_RTOL * g_bare
    ok_c = c_max <= _BALANCE_RTOL * c_bare
    ok_m = mc1 + mc2 <= c["m_budget"] * (1 + 1e-9)
    ok_i = M11 <= c["inertia_max"] * (1 + 1e-9)
    why = (f"largest gravity torque {g_max:.3g} N m (at most {_BALANCE_RTOL * g_bare:.3g}), "
           f"largest Coriolis and centrifugal torque at unit rates {c_max:.3g} N m "
           f"(at most {_BALANCE_RTOL * c_bare:.3g}), "
           f"counterweights {mc1 + mc2:.4g} kg (at most {c['m_budget']:.4g}), "
           f"largest M_11 {M11:.4g} kg m^2 (at most {c['inertia_max']:.4g})")
    return ok_g and ok_c and ok_m and ok_i, why


# Generated with _counterweight_case's rules and rounded (tests/test_exercises_lagrange_formulation.py
# checks that the rounded limits still leave a feasible window and reject the lazy designs).
_COUNTERWEIGHT_PUBLIC = [
    {"lengths": [0.5, 0.5], "masses": [2.0, 2.0], "d_max": 0.2, "m_budget": 33.1,
     "inertia_max": 1.97},
    {"lengths": [0.4, 0.55], "masses": [2.5, 1.5], "d_max": 0.25, "m_budget": 17.3,
     "inertia_max": 1.22},
]


CHAPTER = Chapter(
    name="lagrange_formulation",
    title="3.3 The Lagrange formulation",
    seed=3303,
    key_ideas={
        "kinetic energy as a quadratic form in the joint velocities": (
            "rp_arm_mass_matrix", "lagrange_facts"),
        "the Christoffel symbols of the mass matrix": ("rp_arm_coriolis", "fixed_coriolis"),
        "the Euler-Lagrange equations of a chain": ("cart_pendulum_tau", "pan_tilt_tau"),
        "gravity forces as the gradient of the potential energy": (
            "cart_pendulum_tau", "pan_tilt_tau", "decoupled_arm"),
        "the factorisation C(q, qd) qd is not unique": ("rp_arm_coriolis", "lagrange_facts"),
        "mass balancing: a constant M, no Coriolis forces, and its cost in inertia": (
            "decoupled_arm",),
        "expanding the equations against recursion": ("lagrange_facts",),
    },
    exercises=[
        ExpressionExercise(
            number="3.3.1", name="rp_arm_mass_matrix", points=2, partial=False, minutes=15,
            section="sec-lg-energy", validate=_valid_rp_point,
            title="The mass matrix of a polar arm with a prismatic joint",
            symbols=_RP_SYMBOLS, shape=(2, 2), public_points=_RP_PUBLIC,
            sample=_rp_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        ExpressionExercise(
            number="3.3.2", name="rp_arm_coriolis", points=2, partial=False, minutes=20,
            section="sec-lg-euler-lagrange", validate=_valid_rp_point,
            title="The Christoffel Coriolis matrix of the polar arm",
            symbols=_RP_SYMBOLS, shape=(2, 2), public_points=_RP_PUBLIC,
            sample=_rp_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.3.3", name="cart_pendulum_tau", points=3, partial=True, minutes=25,
            lib_forbidden=True, section="sec-lg-euler-lagrange", validate=_valid_cart,
            title="Inverse dynamics of a pendulum on a cart (without lib)",
            args=("q", "qd", "qdd", "m_cart", "m", "r", "I"),
            public=[
                {"q": [0.2, 0.5], "qd": [0.3, -1.2], "qdd": [1.0, 2.0], "m_cart": 2.0,
                 "m": 0.5, "r": 0.4, "I": 0.01},
                {"q": [-0.5, 2.5], "qd": [-1.0, 3.0], "qdd": [-2.0, 0.5], "m_cart": 1.0,
                 "m": 1.2, "r": 0.25, "I": 0.02},
            ],
            hidden=lambda rng: [_cart_case(rng) for _ in range(4)],
            rtol=1e-8, atol=1e-10,
        ),
        FunctionExercise(
            number="3.3.4", name="pan_tilt_tau", points=4, partial=True, minutes=35,
            lib_forbidden=True, section="sec-lg-spatial", validate=_valid_pan_tilt,
            title="Inverse dynamics of a pan-tilt arm with an offset pivot (without lib)",
            args=("q", "qd", "qdd", "J1", "m2", "l", "d"),
            public=[
                {"q": [0.4, 0.6], "qd": [1.5, -0.8], "qdd": [0.5, 1.0], "J1": 0.05,
                 "m2": 1.0, "l": 0.6, "d": 0.1},
                {"q": [-1.0, -0.3], "qd": [-2.0, 1.2], "qdd": [-1.0, 0.3], "J1": 0.2,
                 "m2": 2.0, "l": 0.4, "d": 0.05},
            ],
            hidden=lambda rng: [_pan_tilt_case(rng) for _ in range(6)],
            rtol=1e-8, atol=1e-10,
        ),
        FunctionExercise(
            number="3.3.5", name="fixed_coriolis", points=2, partial=True, minutes=20,
            lib_forbidden=True, section="sec-lg-euler-lagrange", validate=_valid_dM,
            title="Debug a Coriolis matrix from the derivatives of M (without lib)",
            args=("dM", "qd"),
            public=[_dM_case(np.random.default_rng(3305), 2),
                    _dM_case(np.random.default_rng(3306), 3)],
            hidden=lambda rng: [_dM_case(rng, 3), _dM_case(rng, 4)],
            rtol=1e-9, atol=1e-12,
        ),
        ChoiceExercise(
            number="3.3.6", name="lagrange_facts", points=3, partial=True, multi=True, minutes=18,
            options=("A", "B", "C", "D", "E", "F"), section="sec-lg-euler-lagrange",
            title="What the Lagrange formulation says about M, C and g",
        ),
        DesignExercise(
            number="3.3.7", name="decoupled_arm", points=3, partial=True, minutes=30,
            section="sec-lg-2r", validate=_valid_counterweights,
            title="A decoupled, balanced two-link arm within a mass and an inertia budget",
            args=("lengths", "masses", "d_max", "m_budget", "inertia_max"),
            public=_COUNTERWEIGHT_PUBLIC,
            hidden=lambda rng: [_counterweight_case(rng) for _ in range(4)],
            judge=_judge_counterweights,
        ),
    ],
)
