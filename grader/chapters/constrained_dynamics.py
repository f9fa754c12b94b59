"""Spec of the 3.11 checkpoint exercises (exercises/constrained_dynamics.md).

Inputs only: the expected answers come from solutions/constrained_dynamics.py
(hidden cases) and grader/chapters/constrained_dynamics_public.json (public
cases, generated with ``python -m grader --write-public``).
Every exercise with several cases has an even share per case
(2 points / 4 cases, 3 points / 6 cases) so partial scores are exact.
Cases are generic (random SPD mass matrices, full-rank Jacobians, nonzero
velocities), so a formula that is wrong in general fails every case.
"""

import numpy as np

from grader.spec import Chapter, ExpressionExercise, FunctionExercise
from lib._validation import as_vector, positive, real_number
from lib.constraints import check_constraint_jacobian
from lib.contact_lcp import mass_matrix_inverse


def _spd(rng, n):
    A = rng.normal(size=(n, n))
    return A @ A.T + n * np.eye(n)


# 3.11.1 ---------------------------------------------------------------------
def _kkt_case(rng, n, m):
    return {"M": _spd(rng, n), "J": rng.normal(size=(m, n)), "f": rng.normal(size=n), "gamma": rng.normal(size=m)}


# 3.11.3 ---------------------------------------------------------------------
def _power_case(rng, admissible):
    case = _kkt_case(rng, 4, 2)
    if admissible:  # a velocity in the null space of J: the power must vanish
        _, _, Vt = np.linalg.svd(case["J"])
        case["qd"] = Vt[2:].T @ rng.normal(size=2)
    else:  # a velocity that violates J qd = 0: the constraint force does work
        case["qd"] = rng.normal(size=4)
    return case


# 3.11.4 ---------------------------------------------------------------------
def _hidden_drift(rng):
    """One step and its half over the same (random) duration: the ratio tests h^4."""
    h = float(rng.choice([0.04, 0.025, 0.02]))
    T = h * int(rng.integers(15, 40))
    return [{"h": h, "T": T}, {"h": h / 2, "T": T}]


# 3.11.6 ---------------------------------------------------------------------
def _vw_case(rng):
    n, k = 5, 2
    actuated = sorted(rng.choice(n, size=k, replace=False).tolist())
    return {"M": _spd(rng, n), "f": rng.normal(size=n), "J_loop": rng.normal(size=(n - k, n)),
            "actuated": [int(a) for a in actuated], "qdd": rng.normal(size=n)}


def _fivebar_case(y, pdd):
    """The chapter's five-bar at P = (0, y), at rest, with end-point acceleration pdd."""
    from lib import mechanisms as lm

    q, qd, qdd = lm.fivebar_motion([0.0, y], [0.0, 0.0], pdd)
    M, f = lm.fivebar_dynamics()
    _, J, _ = lm.fivebar_constraints(q, qd)
    return {"M": M, "f": f, "J_loop": J, "actuated": list(lm.FIVEBAR_ACTUATED), "qdd": qdd}


# Every case input is checked with the library's own validation (Exercise.validate):
# mass matrices symmetric positive definite, Jacobians of full row rank, sizes that match.
def _valid_kkt(c):
    n = len(mass_matrix_inverse(c["M"], "M"))
    check_constraint_jacobian(c["J"], name="J")
    m = len(c["J"])
    if len(c["J"][0]) != n:
        raise ValueError(f"J has {len(c['J'][0])} columns, M is {n} x {n}")
    as_vector(c["f"], "f", n)
    as_vector(c["gamma"], "gamma", m)
    if "qd" in c:
        as_vector(c["qd"], "qd", n)


def _valid_vw(c):
    n = len(mass_matrix_inverse(c["M"], "M"))
    check_constraint_jacobian(c["J_loop"], name="J_loop")
    as_vector(c["f"], "f", n)
    as_vector(c["qdd"], "qdd", n)
    if sorted(set(c["actuated"])) != sorted(c["actuated"]) or not all(0 <= a < n for a in c["actuated"]):
        raise ValueError(f"actuated {c['actuated']} must be distinct coordinates 0..{n - 1}")
    if len(c["J_loop"]) + len(c["actuated"]) != n:
        raise ValueError("loop constraints and actuated coordinates must add up to n")


def _valid_positive(*names):
    def check(c):
        for name in names:
            positive(c[name], name)
    return check


def _valid_gamma_point(p):
    for name in _GAMMA_SYMBOLS:
        real_number(p[name], name)


_GAMMA_SYMBOLS = ("phi_a", "phid_a", "phi_b", "phid_b", "r_ax", "r_ay", "r_bx", "r_by")


def _gamma_point(rng):
    values = rng.uniform(-1.5, 1.5, 8)
    return dict(zip(_GAMMA_SYMBOLS, (float(v) for v in values)))


CHAPTER = Chapter(
    name="constrained_dynamics",
    title="3.11 Constrained dynamics and closed chains",
    seed=3111,
    exercises=[
        FunctionExercise(
            number="3.11.1", name="constrained_accelerations", points=2, partial=True,
            validate=_valid_kkt,
            title="Constrained equations of motion through the Schur complement",
            args=("M", "J", "f", "gamma"),
            public=[
                {"M": [[2.0, 0.0], [0.0, 1.0]], "J": [[1.0, 1.0]], "f": [0.0, -9.81], "gamma": [0.0]},
                {"M": [[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.0]], "J": [[1.0, -0.5, 0.2], [0.0, 1.0, 1.0]],
                 "f": [1.0, -2.0, 0.5], "gamma": [0.3, -0.1]},
            ],
            hidden=lambda rng: [_kkt_case(rng, 5, 2), _kkt_case(rng, 6, 3)],
            rtol=1e-9, atol=1e-12,
        ),
        ExpressionExercise(
            number="3.11.2", name="pin_joint_gamma", points=2, partial=False,
            validate=_valid_gamma_point,
            title="The acceleration right-hand side of a planar pin joint",
            symbols=_GAMMA_SYMBOLS, shape=(2, 1),
            public_points=[
                {"phi_a": 0.3, "phid_a": 2.0, "phi_b": -0.7, "phid_b": 1.0,
                 "r_ax": 0.5, "r_ay": 0.1, "r_bx": -0.25, "r_by": 0.05},
                {"phi_a": 1.2, "phid_a": -1.5, "phi_b": 2.0, "phid_b": 0.5,
                 "r_ax": -0.2, "r_ay": 0.3, "r_bx": 0.4, "r_by": -0.1},
            ],
            sample=_gamma_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.11.3", name="constraint_force_power", points=2, partial=True,
            validate=_valid_kkt,
            title="Ideal constraint forces do no work on admissible velocities",
            args=("M", "J", "f", "gamma", "qd"),
            public=[
                {"M": [[2.0, 0.0], [0.0, 1.0]], "J": [[1.0, 1.0]], "f": [0.0, -9.81], "gamma": [0.0],
                 "qd": [1.0, -1.0]},
                {"M": [[2.0, 0.0], [0.0, 1.0]], "J": [[1.0, 1.0]], "f": [0.0, -9.81], "gamma": [0.0],
                 "qd": [1.0, 0.5]},
            ],
            hidden=lambda rng: [_power_case(rng, True), _power_case(rng, False)],
            rtol=1e-9, atol=1e-10,
        ),
        FunctionExercise(
            number="3.11.4", name="pendulum_drift", points=2, partial=True,
            validate=_valid_positive("h", "T"),
            title="Drift of an acceleration-level simulation scales as h^4",
            args=("h", "T"),
            public=[{"h": 0.02, "T": 1.0}, {"h": 0.01, "T": 1.0}],
            hidden=_hidden_drift,
            rtol=1e-6, atol=1e-13,
        ),
        FunctionExercise(
            number="3.11.5", name="baumgarte_amplification", points=2, partial=True,
            validate=_valid_positive("beta", "h"),
            title="Why large Baumgarte gains hurt: RK4 on the constraint-error mode",
            args=("beta", "h"),
            public=[{"beta": 5.0, "h": 0.01}, {"beta": 300.0, "h": 0.01}],
            hidden=lambda rng: [{"beta": float(rng.uniform(20.0, 200.0)), "h": 0.01},
                                {"beta": float(rng.uniform(290.0, 400.0)), "h": 0.01}],
            rtol=1e-6, atol=1e-7,
        ),
        FunctionExercise(
            number="3.11.6", name="virtual_work_torques", points=3, partial=True,
            validate=_valid_vw,
            title="Actuator torques by virtual work",
            args=("M", "f", "J_loop", "actuated", "qdd"),
            public=[_fivebar_case(0.3, [0.0, 0.0]), _fivebar_case(0.25, [1.0, -0.5])],
            hidden=lambda rng: [_vw_case(rng) for _ in range(3)] + [_fivebar_case(float(rng.uniform(0.2, 0.4)), rng.normal(size=2))],
            rtol=1e-9, atol=1e-10,
        ),
    ],
)
