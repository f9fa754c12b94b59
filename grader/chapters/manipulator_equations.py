"""Spec of the 3.4 checkpoint exercises (exercises/manipulator_equations.md).

Inputs only: the expected answers come from solutions/manipulator_equations.py
(hidden cases) and grader/chapters/manipulator_equations_public.json (public
cases, generated with ``python -m grader --write-public``). Every exercise with
several cases has an even share per case (3 points / 6 cases, 3 points / 4
cases, 2 points / 4 cases); a multiple-select question earns an even share per
option. States are generic (all angles, rates and accelerations non-zero), so a
term that is missing or has the wrong sign fails every case. The arms are
lib.models.planar_chain's (body frames at the joints, x along the links, joints
about z, gravity along -y); parameters are lib.tree_dynamics's ten per body.
"""

import numpy as np

from grader.spec import ChoiceExercise, Chapter, DesignExercise, FunctionExercise
from lib import tree_dynamics as td
from lib._validation import as_vector, nonnegative_array, positive, positive_array
from lib.common import GRAVITY, random_inertia, random_rotation
from lib.errors import DynamicsInputError
from lib.inertia import check_physical_inertia
from lib.kinematic_tree import kinematic_tree
from lib.models.planar_chain import planar_chain_tree
from lib.spatial import spatial_inertia

_DOWN = [0.0, -GRAVITY, 0.0]


# 3.4.1 ----------------------------------------------------------------------------
def _state(rng, n=2):
    return {"q": rng.uniform(-np.pi, np.pi, n), "qd": rng.normal(0.0, 2.0, n),
            "qdd": rng.normal(0.0, 3.0, n)}


def _regressor_case(rng):
    case = _state(rng)
    case["lengths"] = rng.uniform(0.2, 1.0, 2)
    return case


def _valid_regressor(c):
    for name in ("q", "qd", "qdd"):
        as_vector(c[name], name, 2)
    positive_array(c["lengths"], "lengths", (2,))


# 3.4.2 ----------------------------------------------------------------------------
def _projector_cases(rng):
    return [{"lengths": rng.uniform(0.2, 1.0, n), "vertical": vertical}
            for n, vertical in ((2, False), (3, True), (2, True), (3, False))]


def _valid_projector(c):
    positive_array(c["lengths"], "lengths", (None,))
    if not 2 <= len(c["lengths"]) <= 3 or not isinstance(c["vertical"], bool):
        raise ValueError("a chain of two or three links, vertical True or False")


# 3.4.3 ----------------------------------------------------------------------------
#: joint states on which the judge compares the torques of two parameter vectors
_FIT_STATES = [np.random.default_rng(3403).normal(0.0, 2.0, (64, 2)) for _ in range(3)]
#: torques of the returned parameters must equal those of the given ones to this
#: fraction of the largest torque (the parameters are O(1); round-off is 1e-15)
_FIT_RTOL = 1e-8


def _stacked_regressor(lengths):
    arm = planar_chain_tree(lengths, [1.0, 1.0])  # the regressor ignores the inertias
    q, qd, qdd = _FIT_STATES
    return td.regressor(arm, q, qd, qdd, gravity=_DOWN).reshape(-1, 20)


def _least_squares_fit(lengths, true_params):
    """What lstsq returns from exact torques: the minimum-norm parameters, P pi_true."""
    Y = _stacked_regressor(lengths)
    return np.linalg.lstsq(Y, Y @ true_params, rcond=1e-10)[0]


def _true_arm(rng, lengths):
    """A physical 2R arm: links of 1-5 kg, centres of mass near the links, tilted
    inertias."""
    inertias = []
    for length in lengths:
        m = float(rng.uniform(1.0, 5.0))
        com = [rng.uniform(0.3, 0.7) * length, rng.normal(0.0, 0.05),
               rng.normal(0.0, 0.03)]
        shape = random_inertia(rng)
        shape = shape * (m * length**2 / 10 / np.trace(shape))
        R = random_rotation(rng)
        inertias.append(spatial_inertia(m, R @ shape @ R.T, com=com))
    z = [0.0, 0.0, 1.0]
    along = np.eye(4)
    along[0, 3] = lengths[0]
    return td.inertial_parameters(kinematic_tree([-1, 0], ["revolute"] * 2, [z, z],
                                                 [np.eye(4), along], inertias))


def _fit_case(rng):
    """A fit whose link 2 has a positive mass too small for its first moment
    (I_zz m < |m c|^2 in the plane): only moving mass across the elbow makes it a
    body, as the statement says (most arms give one; others are drawn again)."""
    while True:
        lengths = np.round(rng.uniform(0.3, 0.8, 2), 3)
        fit = np.round(_least_squares_fit(lengths, _true_arm(rng, lengths)), 6) + 0.0
        m2, hx2, hy2, izz2 = fit[10], fit[11], fit[12], fit[16]
        if m2 > 0 and izz2 * m2 < 0.9 * (hx2**2 + hy2**2):
            return {"lengths": lengths, "params": fit}


def _valid_fit(c):
    positive_array(c["lengths"], "lengths", (2,))
    as_vector(c["params"], "params", 20)


def _body_problem(k, body):
    """Why one body's ten parameters are not those of a real body ('' if they are)."""
    m, h = body[0], body[1:4]
    if not m > 0:
        return f"body {k}: mass {m:.4g} kg is not positive"
    i_xx, i_yy, i_zz, i_xy, i_xz, i_yz = body[4:]
    inertia_o = np.array([[i_xx, i_xy, i_xz], [i_xy, i_yy, i_yz], [i_xz, i_yz, i_zz]])
    c = h / m
    try:  # the inertia about the centre of mass, I_c = I_o + m [c]^2
        check_physical_inertia(inertia_o + m * (np.outer(c, c) - (c @ c) * np.eye(3)),
                               f"body {k}'s inertia about its centre of mass")
    except DynamicsInputError as exc:
        return str(exc)
    return ""


def _judge_fit(c, value):
    value = np.asarray(value, dtype=float)
    if value.shape != (20,):
        return False, f"expected 20 parameters (shape (20,)), got shape {value.shape}"
    if not np.all(np.isfinite(value)):
        return False, "every parameter must be a finite number"
    Y = _stacked_regressor(c["lengths"])
    given = np.asarray(c["params"], dtype=float)
    scale = float(np.max(np.abs(Y @ given)))
    error = float(np.max(np.abs(Y @ (value - given))))
    problems = [p for p in (_body_problem(k + 1, body)
                            for k, body in enumerate(value.reshape(2, 10))) if p]
    fits = error <= _FIT_RTOL * scale
    why = (f"largest torque difference from the fitted parameters {error:.3g} N m "
           f"(at most {_FIT_RTOL * scale:.3g}); "
           + ("; ".join(problems) if problems
              else "both bodies are physically consistent"))
    return fits and not problems, why


# 3.4.4 ----------------------------------------------------------------------------
def _passivity_case(rng):
    return {"q": rng.uniform(-np.pi, np.pi, 2), "qd": rng.normal(0.0, 2.0, 2),
            "q_des": rng.uniform(-np.pi, np.pi, 2), "qd_des": rng.normal(0.0, 1.0, 2),
            "qdd_des": rng.normal(0.0, 2.0, 2), "lengths": rng.uniform(0.3, 0.8, 2),
            "masses": rng.uniform(1.0, 4.0, 2), "lam": float(rng.uniform(2.0, 10.0)),
            "k_d": float(rng.uniform(5.0, 50.0))}


def _valid_passivity(c):
    for name in ("q", "qd", "q_des", "qd_des", "qdd_des"):
        as_vector(c[name], name, 2)
    positive_array(c["lengths"], "lengths", (2,))
    positive_array(c["masses"], "masses", (2,))
    positive(c["lam"], "lam")
    positive(c["k_d"], "k_d")


# 3.4.6 ----------------------------------------------------------------------------
#: elbow angles on which the judge checks the smallest eigenvalue (ends included)
_GRID = 2001
#: the budget is the least possible r1 + r2 plus this fraction
_BUDGET_SLACK = 0.02


def _elbow_grid(q2_range):
    return np.linspace(q2_range[0], q2_range[1], _GRID)


def _mass_matrices(lengths, masses, q2_range):
    q2 = _elbow_grid(q2_range)
    return td.crba(planar_chain_tree(lengths, masses), np.stack([0.0 * q2, q2], axis=1))


def _lambda_min(M, r):
    """Smallest eigenvalue of M + diag(r) over a stack of 2 x 2 matrices (closed
    form)."""
    a, b, d = M[:, 0, 0] + r[0], M[:, 0, 1], M[:, 1, 1] + r[1]
    return float(np.min(0.5 * (a + d) - np.hypot(0.5 * (a - d), b)))


def _least_sum(case):
    """min r1 + r2 over r >= 0 with lambda_min(M + diag r) >= mu on the grid: for each
    r1 the least r2 by bisection (lambda_min grows with r2), then golden-section search
    on r1 (the feasible set is convex)."""
    M = _mass_matrices(case["lengths"], case["masses"], case["q2_range"])
    mu = case["mu_min"]

    def least_r2(r1):
        lo, hi = 0.0, 100.0 * mu
        if _lambda_min(M, [r1, lo]) >= mu:
            return lo
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if _lambda_min(M, [r1, mid]) >= mu else (mid, hi)
        return hi

    lo = max(0.0, mu - float(np.min(M[:, 0, 0])))
    hi = lo + 20.0 * mu
    phi = (np.sqrt(5.0) - 1) / 2
    for _ in range(60):
        a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
        lo, hi = (lo, b) if a + least_r2(a) <= b + least_r2(b) else (a, hi)
    r1 = 0.5 * (lo + hi)
    return r1 + least_r2(r1)


def _rotor_case(rng):
    case = {"lengths": rng.uniform(0.3, 0.7, 2), "masses": rng.uniform(1.0, 4.0, 2),
            "q2_range": np.array([rng.uniform(0.4, 0.9), rng.uniform(2.2, 2.9)])}
    M = _mass_matrices(case["lengths"], case["masses"], case["q2_range"])
    case["mu_min"] = float(rng.uniform(2.0, 4.0) * _lambda_min(M, [0.0, 0.0]))
    case["budget"] = (1 + _BUDGET_SLACK) * _least_sum(case)
    return case


def _valid_rotor(c):
    positive_array(c["lengths"], "lengths", (2,))
    positive_array(c["masses"], "masses", (2,))
    q2_range = as_vector(c["q2_range"], "q2_range", 2)
    if not 0.0 < q2_range[0] < q2_range[1] < np.pi:
        raise ValueError(
            f"q2_range must lie in (0, pi) in increasing order, got {q2_range}")
    positive(c["mu_min"], "mu_min")
    positive(c["budget"], "budget")


def _judge_rotor(c, value):
    r = np.asarray(value, dtype=float)
    if r.shape != (2,):
        return False, f"expected [r1, r2] (shape (2,)), got shape {r.shape}"
    if not np.all(np.isfinite(r)):
        return False, "r1 and r2 must be finite numbers"
    try:
        nonnegative_array(r, "rotor inertias", (2,))
    except DynamicsInputError as exc:
        return False, str(exc)
    M = _mass_matrices(c["lengths"], c["masses"], c["q2_range"])
    smallest = np.linalg.eigvalsh(M + np.diag(r))[:, 0]
    worst = int(np.argmin(smallest))
    ok_mu = smallest[worst] >= c["mu_min"] * (1 - 1e-7)
    ok_sum = r.sum() <= c["budget"] * (1 + 1e-9)
    why = (f"smallest eigenvalue {smallest[worst]:.5g} kg m^2 at q2 = "
           f"{_elbow_grid(c['q2_range'])[worst]:.4g} rad (at least {c['mu_min']:.5g}), "
           f"r1 + r2 = {r.sum():.5g} kg m^2 (at most {c['budget']:.5g})")
    return ok_mu and ok_sum, why


# Generated with _rotor_case's rules and rounded (the tests of
# tests/test_exercises_manipulator_equations.py check that the rounded budgets stay
# above the least sum and reject the lazy designs).
_ROTOR_PUBLIC = [
    {"lengths": [0.5, 0.4], "masses": [3.0, 2.0], "q2_range": [0.5, 2.6],
     "mu_min": 0.15, "budget": 0.121},
    {"lengths": [0.4, 0.6], "masses": [2.0, 3.0], "q2_range": [0.45, 2.8],
     "mu_min": 0.25, "budget": 0.243},
]


CHAPTER = Chapter(
    name="manipulator_equations",
    title="3.4 Properties of the manipulator equations",
    seed=3404,
    key_ideas={
        "bounds on the eigenvalues of M(q)": ("rotor_inertias", "manipulator_facts"),
        "skew-symmetry of dM/dt - 2C and passivity": (
            "fixed_passivity_torque", "manipulator_facts"),
        "linearity in the inertial parameters: the regressor": ("planar_regressor",),
        "base parameters and identifiability": (
            "identifiable_projector", "consistent_parameters", "manipulator_facts"),
        "physical consistency of identified parameters": ("consistent_parameters",),
    },
    exercises=[
        FunctionExercise(
            number="3.4.1", name="planar_regressor", points=3, partial=True, minutes=30,
            lib_forbidden=True, section="sec-pr-regressor", validate=_valid_regressor,
            title="The regressor of a planar two-link arm (without lib)",
            args=("q", "qd", "qdd", "lengths"),
            public=[
                {"q": [0.4, 0.9], "qd": [1.2, -0.7], "qdd": [0.5, 2.0],
                 "lengths": [0.5, 0.4]},
                {"q": [-2.1, -0.6], "qd": [-0.8, 1.5], "qdd": [-1.5, 0.4],
                 "lengths": [0.3, 0.6]},
            ],
            hidden=lambda rng: [_regressor_case(rng) for _ in range(4)],
            rtol=1e-9, atol=1e-10,
        ),
        FunctionExercise(
            number="3.4.2", name="identifiable_projector", points=3, partial=True,
            minutes=30,
            lib_forbidden=True, section="sec-pr-base", validate=_valid_projector,
            title=("Which parameter combinations a planar chain's torques determine "
                   "(without lib)"),
            args=("lengths", "vertical"),
            public=[{"lengths": [0.5, 0.4], "vertical": True},
                    {"lengths": [0.6, 0.5, 0.3], "vertical": False}],
            hidden=_projector_cases,
            rtol=1e-7, atol=1e-9,
        ),
        DesignExercise(
            number="3.4.3", name="consistent_parameters", points=3, partial=True,
            minutes=30,
            section="sec-pr-consistency", validate=_valid_fit,
            title="A physically consistent parameter set with the same torques",
            args=("lengths", "params"),
            public=[_fit_case(np.random.default_rng(seed)) for seed in (3431, 3432)],
            hidden=lambda rng: [_fit_case(rng) for _ in range(2)],
            judge=_judge_fit,
        ),
        FunctionExercise(
            number="3.4.4", name="fixed_passivity_torque", points=2, partial=True,
            minutes=20,
            lib_forbidden=True, section="sec-pr-skew", validate=_valid_passivity,
            title="Debug a passivity-based controller (without lib)",
            args=("q", "qd", "q_des", "qd_des", "qdd_des", "lengths", "masses", "lam",
                  "k_d"),
            public=[
                {"q": [0.7, 1.1], "qd": [0.5, -1.2], "q_des": [0.9, 0.8],
                 "qd_des": [0.3, 0.4], "qdd_des": [1.0, -0.5],
                 "lengths": [0.5, 0.4], "masses": [3.0, 2.0], "lam": 5.0, "k_d": 20.0},
                {"q": [-1.9, 2.4], "qd": [-2.0, 0.6], "q_des": [-1.5, 2.0],
                 "qd_des": [-1.0, 1.5], "qdd_des": [-0.5, 2.0],
                 "lengths": [0.6, 0.5], "masses": [2.5, 1.5], "lam": 8.0, "k_d": 30.0},
            ],
            hidden=lambda rng: [_passivity_case(rng) for _ in range(2)],
            rtol=1e-9, atol=1e-10,
        ),
        ChoiceExercise(
            number="3.4.5", name="manipulator_facts", points=3, partial=True,
            multi=True, minutes=18, options=("A", "B", "C", "D", "E", "F"),
            section="sec-pr-mass-matrix",
            title="What the structure of M, C and Y guarantees",
        ),
        DesignExercise(
            number="3.4.6", name="rotor_inertias", points=3, partial=True, minutes=30,
            section="sec-pr-mass-matrix", validate=_valid_rotor,
            title="Rotor inertias that bound the smallest eigenvalue of M from below",
            args=("lengths", "masses", "q2_range", "mu_min", "budget"),
            public=_ROTOR_PUBLIC,
            hidden=lambda rng: [_rotor_case(rng) for _ in range(2)],
            judge=_judge_rotor,
        ),
    ],
)
