"""Spec of the contact-and-friction exercises (exercises/contact_and_friction.md).

Inputs only: the expected answers come from solutions/contact_and_friction.py
(hidden cases) and grader/chapters/contact_and_friction_public.json (public
cases, generated with ``python -m grader --write-public``).
The lesson has no chapter number, so its exercises are CF.1-CF.11 (CF:
Contact and Friction). CF.1-CF.5 are the lesson's five check-yourself
questions, CF.6-CF.11 one (or two) per interactive figure. Every exercise with partial credit has 4 cases,
so each case is worth a quarter of its points. Hidden cases keep a margin from
the decision boundaries (sticking, the cone edge, zero gap) so that an answer
that is right in general cannot fail on round-off; the yes/no exercises state
their case mix in the notebook.
"""

import numpy as np

from grader.spec import Chapter, ExpressionExercise, FunctionExercise
from lib._validation import as_matrix, in_range, nonnegative, positive, real_number

G = 9.81


# 1 ---------------------------------------------------------------------------
def _hidden_critical(rng):
    return [{"mu_s": float(rng.uniform(0.1, 1.5)), "mass": float(rng.uniform(0.1, 50.0))} for _ in range(2)]


# 2 ---------------------------------------------------------------------------
def _hidden_slip(rng):
    f_n, mu = float(rng.uniform(1.0, 10.0)), float(rng.uniform(0.2, 1.2))
    return [
        {"f_n": f_n, "mu": mu, "f_t": -float(rng.uniform(1.3, 3.0)) * mu * f_n},  # slips the other way
        {"f_n": f_n, "mu": mu, "f_t": float(rng.uniform(-0.8, 0.8)) * mu * f_n},  # sticks
    ]


# 3 ---------------------------------------------------------------------------
def _hidden_pyramid(rng):
    return [{"k": 16}, {"k": int(rng.integers(3, 64))}]


# 4 ---------------------------------------------------------------------------
def _hidden_step(rng):
    return [{"k": float(10 ** rng.uniform(3, 9)), "mass": float(rng.uniform(0.05, 20.0))} for _ in range(2)]


# 5 ---------------------------------------------------------------------------
def _hidden_complementarity(rng):
    return [
        {"gap": 0.0, "force": float(rng.uniform(0.5, 50.0))},        # in contact: allowed
        {"gap": -float(rng.uniform(1e-4, 1e-2)), "force": 0.0},      # penetration: forbidden
    ]


# 6 ---------------------------------------------------------------------------
def _hidden_ramp(rng):
    mu = float(rng.uniform(0.3, 1.0))
    mass = float(rng.uniform(0.5, 5.0))
    crit = np.arctan(mu)
    alpha = float(crit + np.radians(rng.uniform(3.0, 8.0)))
    weight = mass * G
    return [
        # past the critical angle but pressed hard into the surface: sticks
        {"alpha": alpha, "mu_s": mu, "mass": mass, "push": float(rng.uniform(1.5, 2.5)) * weight,
         "beta": -np.pi / 2},
        # pulled away from the surface harder than the normal load: lifts off, does not stick
        {"alpha": float(crit - np.radians(5.0)), "mu_s": mu, "mass": mass,
         "push": float(rng.uniform(1.5, 2.5)) * weight, "beta": float(np.radians(rng.uniform(60.0, 85.0)))},
    ]


# 7 ---------------------------------------------------------------------------
def _hidden_supplied(rng):
    mu = float(rng.uniform(0.2, 1.5))
    f_n = float(rng.uniform(0.5, 5.0))
    return [
        {"f_t": -float(rng.uniform(1.3, 3.0)) * mu * f_n, "f_n": f_n, "mu": mu},  # slips
        {"f_t": float(rng.uniform(-0.8, 0.8)) * mu * f_n, "f_n": f_n, "mu": mu},  # sticks
    ]


# 8 ---------------------------------------------------------------------------
def _hidden_edges(rng):
    # Tolerances chosen away from the exact worst-case errors of any k.
    ks = np.arange(3, 200)
    worst = np.maximum(1 - np.cos(np.pi / ks), 1 / np.cos(np.pi / ks) - 1)
    cases = []
    for low, high in ((0.008, 0.012), (0.02, 0.2)):
        while True:
            tol = float(rng.uniform(low, high))
            if np.min(np.abs(worst - tol)) > 1e-6:
                break
        cases.append({"tol": tol})
    return cases


# 9 ---------------------------------------------------------------------------
def _hidden_zeno(rng):
    return [{"h0": float(rng.uniform(0.1, 3.0)), "e": float(rng.uniform(0.1, 0.95)),
             "g": float(rng.uniform(1.6, 25.0))} for _ in range(2)]


def _zeta_point(rng):
    return {"zeta": float(rng.uniform(0.01, 0.9))}


# 11 --------------------------------------------------------------------------
def _finger_jacobian(q1, q2, l1=0.5, l2=0.5):
    s1, c1, s12, c12 = np.sin(q1), np.cos(q1), np.sin(q1 + q2), np.cos(q1 + q2)
    return [[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]]


def _hidden_press(rng):
    cases = []
    for _ in range(2):
        q1 = float(rng.uniform(-2.6, -0.4))
        q2 = float(rng.choice([-1.0, 1.0]) * rng.uniform(0.6, 2.4))  # well away from singular postures
        cases.append({"jacobian": _finger_jacobian(q1, q2), "mu": float(rng.uniform(0.2, 1.2)),
                      "tau_max": float(rng.uniform(0.3, 3.0))})
    return cases


# Every case input is checked with the library's own validation (Exercise.validate).
def _valid(positives=(), nonnegatives=(), reals=()):
    def check(c):
        for name in positives:
            positive(c[name], name)
        for name in nonnegatives:
            nonnegative(c[name], name)
        for name in reals:
            real_number(c[name], name)
    return check


def _valid_pyramid(c):
    if not isinstance(c["k"], int) or c["k"] < 3:
        raise ValueError(f"k must be an int >= 3 (pyramid edges), got {c['k']!r}")


def _valid_zeno(c):
    positive(c["h0"], "h0")
    positive(c["g"], "g")
    in_range(c["e"], "e", 0.0, 1.0)


def _valid_press(c):
    as_matrix(c["jacobian"], "jacobian", 2, 2)
    nonnegative(c["mu"], "mu")
    positive(c["tau_max"], "tau_max")


CHAPTER = Chapter(
    name="contact_and_friction",
    title="CF Contact and friction: an interactive lesson",
    seed=8401,
    exercises=[
        FunctionExercise(
            number="CF.1", name="critical_angle_deg", points=1, partial=True,
            validate=_valid(positives=("mu_s", "mass")),
            title="Check yourself 1: the critical angle of a ramp",
            args=("mu_s", "mass"),
            public=[{"mu_s": 0.8, "mass": 1.0}, {"mu_s": 0.8, "mass": 10.0}],
            hidden=_hidden_critical, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.2", name="slip_friction", points=2, partial=True,
            validate=_valid(positives=("f_n",), nonnegatives=("mu",), reals=("f_t",)),
            title="Check yourself 2: friction supplied and the unbalanced remainder",
            args=("f_n", "mu", "f_t"),
            public=[{"f_n": 4.0, "mu": 0.5, "f_t": 3.0}, {"f_n": 4.0, "mu": 0.5, "f_t": 1.0}],
            hidden=_hidden_slip, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.3", name="pyramid_errors", points=2, partial=True,
            validate=_valid_pyramid,
            title="Check yourself 3: worst-case errors of the k-edge pyramids",
            args=("k",),
            public=[{"k": 4}, {"k": 8}],
            hidden=_hidden_pyramid, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.4", name="max_stable_step", points=1, partial=True,
            validate=_valid(positives=("k", "mass")),
            title="Check yourself 4: the stable step of a penalty contact",
            args=("k", "mass"),
            public=[{"k": 1e6, "mass": 1.0}, {"k": 1e8, "mass": 1.0}],
            hidden=_hidden_step, rtol=1e-9, atol=1e-15,
        ),
        FunctionExercise(
            number="CF.5", name="complementarity_allowed", points=2, partial=True,
            validate=_valid(reals=("gap", "force")),
            title="Check yourself 5: which (gap, force) pairs complementarity allows",
            args=("gap", "force"),
            public=[{"gap": 0.003, "force": 5.0}, {"gap": 0.003, "force": 0.0}],
            hidden=_hidden_complementarity,
        ),
        FunctionExercise(
            number="CF.6", name="ramp_sticks", points=2, partial=True,
            validate=_valid(positives=("mass",), nonnegatives=("mu_s", "push"), reals=("alpha", "beta")),
            title="FIG 1: the sticking condition with a push",
            args=("alpha", "mu_s", "mass", "push", "beta"),
            public=[
                {"alpha": float(np.radians(20.0)), "mu_s": 0.6, "mass": 1.0, "push": 0.0, "beta": 0.0},
                {"alpha": float(np.radians(45.0)), "mu_s": 0.6, "mass": 1.0, "push": 0.0, "beta": 0.0},
            ],
            hidden=_hidden_ramp,
        ),
        FunctionExercise(
            number="CF.7", name="supplied_force", points=2, partial=True,
            validate=_valid(nonnegatives=("mu",), reals=("f_t", "f_n")),  # f_n < 0: a pull, a case on purpose
            title="FIG 2: the force a Coulomb contact supplies",
            args=("f_t", "f_n", "mu"),
            public=[{"f_t": 1.0, "f_n": 3.0, "mu": 0.5}, {"f_t": 1.0, "f_n": -1.5, "mu": 0.5}],
            hidden=_hidden_supplied, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.8", name="min_edges", points=2, partial=True,
            validate=_valid(positives=("tol",)),
            title="FIG 3: the fewest pyramid edges for a given accuracy",
            args=("tol",),
            public=[{"tol": 0.3}, {"tol": 0.02}],  # not the lesson's 5 %: its answer is the figure's task
            hidden=_hidden_edges, rtol=0.0, atol=0.0,
        ),
        FunctionExercise(
            number="CF.9", name="zeno_rest_time", points=1, partial=True,
            validate=_valid_zeno,
            title="FIG 4: the rest time of a bouncing ball",
            args=("h0", "e", "g"),
            public=[{"h0": 1.0, "e": 0.8, "g": 9.81}, {"h0": 1.0, "e": 0.0, "g": 9.81}],
            hidden=_hidden_zeno, rtol=1e-9, atol=1e-12,
        ),
        ExpressionExercise(
            number="CF.10", name="restitution_expr", points=1, partial=False,
            validate=_valid(positives=("zeta",)),
            title="FIG 4: the effective restitution of a spring-damper contact",
            symbols=("zeta",),
            public_points=[{"zeta": 0.1}, {"zeta": 0.3}],
            sample=_zeta_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.11", name="max_press_force", points=2, partial=True,
            validate=_valid_press,
            title="FIG 5: how hard the finger can press",
            args=("jacobian", "mu", "tau_max"),
            public=[
                {"jacobian": [[0.5, 0.5], [0.5, 0.0]], "mu": 0.5, "tau_max": 1.0},
                {"jacobian": [[0.5, 0.5], [0.5, 0.0]], "mu": 0.0, "tau_max": 1.0},
            ],
            hidden=_hidden_press, rtol=1e-6, atol=1e-9,
        ),
    ],
)
