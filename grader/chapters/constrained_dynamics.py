"""Spec of the 3.11 checkpoint exercises (exercises/constrained_dynamics.md).

Inputs only: the expected answers come from solutions/constrained_dynamics.py
(hidden cases) and grader/chapters/constrained_dynamics_public.json (public
cases, generated with ``python -m grader --write-public``).
Every exercise with several cases has an even share per case
(2 points / 4 cases, 3 points / 6 cases, 1.5 points / 6 cases) so partial
scores are exact; a multiple-select question earns an even share per option.
Cases are generic (random SPD mass matrices, full-rank Jacobians, nonzero
velocities, random choices of independent coordinates, tilted platforms), so a formula
that is wrong in general fails every case.
"""

import numpy as np

from grader.spec import ChoiceExercise, Chapter, ExpressionExercise, FunctionExercise
from lib import constraints as lc
from lib._validation import as_array, as_rotation, as_vector, nonnegative, positive, real_number
from lib.common import random_spd
from lib.constraints import check_constraint_jacobian
from lib.contact_lcp import mass_matrix_inverse
from lib.models import fivebar, stewart_gough


def _rot(axis, angle):
    c, s = np.cos(angle), np.sin(angle)
    return {"x": np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]),
            "y": np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]),
            "z": np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])}[axis]


# 3.11.1 ---------------------------------------------------------------------
_GAMMA_SYMBOLS = ("x", "y", "phi", "xd", "yd", "phid", "r_x", "r_y", "g_x", "g_y", "L")


def _gamma_point(rng):
    values = dict(zip(_GAMMA_SYMBOLS[:-1], (float(v) for v in rng.uniform(-1.5, 1.5, 10))))
    values["L"] = float(rng.uniform(0.5, 2.0))
    return values


def _valid_gamma_point(p):
    for name in _GAMMA_SYMBOLS[:-1]:
        real_number(p[name], name)
    positive(p["L"], "L")


# 3.11.2, 3.11.4, 3.11.5, 3.11.7 ---------------------------------------------
def _kkt_case(rng, n, m):
    return {"M": random_spd(rng, n), "J": rng.normal(size=(m, n)), "f": rng.normal(size=n), "gamma": rng.normal(size=m)}


def _partition_case(rng, n, m):
    """A KKT case and n - m independent coordinates, chosen at random (an integer array)."""
    case = _kkt_case(rng, n, m)
    case["independent"] = np.sort(rng.choice(n, size=n - m, replace=False)).astype(int)
    return case


def _energy_case(rng, n, m):
    return {"M": random_spd(rng, n), "J": rng.normal(size=(m, n)), "qd": rng.normal(size=n)}


# Every case input is checked with the library's own validation (Exercise.validate):
# mass matrices symmetric positive definite, Jacobians of full row rank, sizes that match.
def _valid_mj(c):
    n = len(mass_matrix_inverse(c["M"], "M"))
    check_constraint_jacobian(c["J"], name="J")
    if len(c["J"][0]) != n:
        raise ValueError(f"J has {len(c['J'][0])} columns, M is {n} x {n}")
    return n, len(c["J"])


def _valid_kkt(c):
    n, m = _valid_mj(c)
    as_vector(c["f"], "f", n)
    as_vector(c["gamma"], "gamma", m)


def _valid_partition(c):
    _valid_kkt(c)
    # lib checks that the dependent columns of J are invertible (raises otherwise)
    lc.actuated_velocity_map(c["J"], [int(i) for i in c["independent"]])


def _valid_energy(c):
    n, _ = _valid_mj(c)
    as_vector(c["qd"], "qd", n)


# 3.11.6, 3.11.8 -------------------------------------------------------------
def _hidden_residual(rng):
    """T / h lies 0.6 past a whole number, so round(T / h) and int(T / h) differ by a step:
    one run without gains, one with unequal gains."""
    cases = []
    for gains in ((0.0, 0.0), (float(rng.uniform(5.0, 15.0)), float(rng.uniform(10.0, 25.0)))):
        h = float(rng.choice([0.02, 0.0125, 0.01]))
        T = h * (int(rng.integers(30, 80)) + 0.6)
        cases.append({"h": h, "T": T, "alpha": gains[0], "beta": gains[1]})
    return cases


def _valid_residual(c):
    positive(c["h"], "h")
    positive(c["T"], "T")
    nonnegative(c["alpha"], "alpha")
    nonnegative(c["beta"], "beta")


def _hidden_step_limit(rng):
    """An underdamped and an overdamped error equation (the chapter treats alpha = beta)."""
    beta = [float(rng.uniform(10.0, 300.0)) for _ in range(2)]
    return [{"alpha": beta[0] * float(rng.uniform(0.2, 0.8)), "beta": beta[0]},
            {"alpha": beta[1] * float(rng.uniform(1.3, 3.0)), "beta": beta[1]}]


def _valid_positive(*names):
    def check(c):
        for name in names:
            positive(c[name], name)
    return check


# 3.11.9 ---------------------------------------------------------------------
def _fivebar_case(rng, near_singular=False):
    if near_singular:  # down the axis towards the actuator singularity P = (0, 0.15)
        p = [0.0, 0.15 + float(10.0 ** rng.uniform(-3.5, -2.5))]
        F = [float(rng.uniform(-1.0, 1.0)), float(rng.uniform(-20.0, -5.0))]
    else:
        p = [float(rng.uniform(-0.08, 0.08)), float(rng.uniform(0.2, 0.4))]
        F = [float(v) for v in rng.uniform(-10.0, 10.0, 2)]
    return {"p": p, "F": F}


def _valid_fivebar(c):
    as_vector(c["F"], "F", 2)
    q = fivebar.fivebar_configuration(c["p"])  # raises if P is out of reach
    _, J, _ = fivebar.fivebar_constraints(q, np.zeros(12))
    lc.actuated_velocity_map(J, fivebar.FIVEBAR_ACTUATED)  # raises at a passive singularity
    check_constraint_jacobian(np.vstack([J, np.eye(12)[list(fivebar.FIVEBAR_ACTUATED)]]), name="J_full")


# 3.11.10 --------------------------------------------------------------------
def _stewart_case(rng, geometry=None):
    if geometry is None:
        geometry = (float(rng.uniform(0.25, 0.35)), float(rng.uniform(0.1, 0.2)),
                    float(np.deg2rad(rng.uniform(15.0, 40.0))), float(np.deg2rad(rng.uniform(80.0, 110.0))))
    base, plat = stewart_gough.stewart_geometry(*geometry)
    angles = rng.uniform(-0.15, 0.15, 3)
    R = _rot("z", angles[0]) @ _rot("y", angles[1]) @ _rot("x", angles[2])
    return {"position": [float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03)),
                         float(rng.uniform(0.35, 0.45))],
            "rotation": R, "base": base, "platform": plat, "mass": float(rng.uniform(1.0, 5.0)),
            "force": rng.uniform(-20.0, 20.0, 3), "point": rng.uniform(-0.1, 0.1, 3)}


#: the chapter's platform (the defaults of lib.models.stewart_gough.stewart_geometry)
_CHAPTER_STEWART = (0.3, 0.15, float(np.deg2rad(20.0)), float(np.deg2rad(100.0)))


def _valid_stewart(c):
    as_rotation(c["rotation"], "rotation")
    as_array(c["base"], "base", (6, 3))
    as_array(c["platform"], "platform", (6, 3))
    as_vector(c["force"], "force", 3)
    as_vector(c["point"], "point", 3)
    positive(c["mass"], "mass")
    # lib refuses a (nearly) singular leg-wrench matrix; the cases stay well conditioned
    stewart_gough.stewart_leg_forces(c["position"], c["rotation"], c["base"], c["platform"], c["mass"], np.eye(3),
                          max_condition=1e3)


_FORMS = ("projection_facts", "independent_accelerations", "gauss_least_squares")

#: the public cases of 3.11.2 and 3.11.5: the same systems, solved two ways
KKT_PUBLIC = [
    {"M": [[2.0, 0.0], [0.0, 1.0]], "J": [[1.0, 1.0]], "f": [0.0, -9.81], "gamma": [0.0]},
    {"M": [[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.0]], "J": [[1.0, -0.5, 0.2], [0.0, 1.0, 1.0]],
     "f": [1.0, -2.0, 0.5], "gamma": [0.3, -0.1]},
]


CHAPTER = Chapter(
    name="constrained_dynamics",
    title="3.11 Constrained dynamics and closed chains",
    seed=3111,
    key_ideas={
        "constraints at three levels and the acceleration right-hand side gamma": ("distance_constraint_gamma",),
        "the KKT system and its Schur complement, the Delassus matrix": ("constrained_accelerations",),
        "projection, null-space and Gauss forms of constrained dynamics": _FORMS,
        "the mass-weighted projection": ("projection_facts", "projection_energy_loss"),
        "constraint drift and Baumgarte stabilisation": ("pendulum_residual", "baumgarte_step_limit"),
        "actuator torques of a parallel mechanism by virtual work": ("fivebar_hold_torques",),
        "actuator singularity: torque grows as 1/sigma_min": ("fivebar_hold_torques", "singularity_facts"),
        "Stewart platform leg forces and singular geometry": ("stewart_payload_forces", "stewart_singular_poses"),
        "choosing a closed-chain representation": ("closed_chain_representation",),
    },
    exercises=[
        ExpressionExercise(
            number="3.11.1", name="distance_constraint_gamma", points=2, partial=False, minutes=15,
            section="sec-cd-levels", validate=_valid_gamma_point,
            title="The acceleration right-hand side of a distance constraint",
            symbols=_GAMMA_SYMBOLS,
            public_points=[
                {"x": 0.3, "y": -0.2, "phi": 0.4, "xd": 1.0, "yd": -0.5, "phid": 2.0,
                 "r_x": 0.5, "r_y": 0.1, "g_x": 0.0, "g_y": 1.0, "L": 1.2},
                {"x": -1.0, "y": 0.5, "phi": -1.1, "xd": 0.2, "yd": 0.7, "phid": -1.5,
                 "r_x": -0.3, "r_y": 0.4, "g_x": 0.6, "g_y": -0.2, "L": 0.8},
            ],
            sample=_gamma_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.11.2", name="constrained_accelerations", points=2, partial=True, minutes=15,
            lib_forbidden=True, section="sec-cd-kkt", validate=_valid_kkt,
            title="Constrained equations of motion through the Delassus matrix (without lib)",
            args=("M", "J", "f", "gamma"),
            public=KKT_PUBLIC,
            hidden=lambda rng: [_kkt_case(rng, 5, 2), _kkt_case(rng, 6, 3)],
            rtol=1e-9, atol=1e-12,
        ),
        ChoiceExercise(
            number="3.11.3", name="projection_facts", points=3, partial=True, multi=True, minutes=18,
            options=("A", "B", "C", "D", "E", "F"), section="sec-cd-projection",
            title="What the projection P does, and in which metric",
        ),
        FunctionExercise(
            number="3.11.4", name="independent_accelerations", points=2, partial=True, minutes=15,
            lib_forbidden=True, section="sec-cd-nullspace", validate=_valid_partition,
            title="Null-space reduction in independent coordinates, and their mass matrix (without lib)",
            args=("M", "J", "f", "gamma", "independent"),
            public=[
                {"M": [[2.0, 0.0], [0.0, 1.0]], "J": [[1.0, 1.0]], "f": [0.0, -9.81], "gamma": [0.0],
                 "independent": [0]},
                {"M": [[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.0]], "J": [[1.0, -0.5, 0.2], [0.0, 1.0, 1.0]],
                 "f": [1.0, -2.0, 0.5], "gamma": [0.3, -0.1], "independent": [2]},
            ],
            hidden=lambda rng: [_partition_case(rng, 5, 2), _partition_case(rng, 6, 3)],
            rtol=1e-8, atol=1e-10,
        ),
        FunctionExercise(
            number="3.11.5", name="gauss_least_squares", points=2, partial=True, minutes=15,
            lib_forbidden=True, section="sec-cd-gauss", validate=_valid_kkt,
            title="Gauss's principle as a least-squares problem (without lib)",
            args=("M", "J", "f", "gamma"),
            public=KKT_PUBLIC,
            hidden=lambda rng: [_kkt_case(rng, 5, 2), _kkt_case(rng, 6, 3)],
            rtol=1e-8, atol=1e-10,
        ),
        FunctionExercise(
            number="3.11.6", name="pendulum_residual", points=2, partial=True, minutes=20,
            section="sec-cd-drift", validate=_valid_residual,
            title="A pendulum in Cartesian coordinates: drift, and Baumgarte's gains",
            args=("h", "T", "alpha", "beta"),
            # 0.29 / 0.01 = 28.999999999999996 in floating point: round gives the 29 steps
            # the statement asks for, int 28
            public=[{"h": 0.02, "T": 1.0, "alpha": 0.0, "beta": 0.0},
                    {"h": 0.01, "T": 0.29, "alpha": 20.0, "beta": 20.0}],
            hidden=_hidden_residual,
            rtol=1e-6, atol=1e-13,
        ),
        FunctionExercise(
            number="3.11.7", name="projection_energy_loss", points=1.5, partial=True, minutes=15,
            section="sec-cd-drift", validate=_valid_energy,
            title="Kinetic energy removed by a velocity projection, mass-weighted and Euclidean",
            args=("M", "J", "qd"),
            public=[
                {"M": [[2.0, 0.0], [0.0, 1.0]], "J": [[1.0, 1.0]], "qd": [1.0, 0.5]},
                {"M": [[4.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.5]], "J": [[1.0, 0.0, 1.0]],
                 "qd": [0.5, -2.0, 1.0]},
            ],
            hidden=lambda rng: [_energy_case(rng, 4, 1), _energy_case(rng, 5, 2), _energy_case(rng, 6, 2),
                                _energy_case(rng, 6, 3)],
            rtol=1e-8, atol=1e-10,
        ),
        FunctionExercise(
            number="3.11.8", name="baumgarte_step_limit", points=2, partial=True, minutes=15,
            section="sec-cd-drift", validate=_valid_positive("alpha", "beta"),
            title="RK4's step limit for Baumgarte's constraint-error equation, any damping",
            args=("alpha", "beta"),
            public=[{"alpha": 20.0, "beta": 20.0}, {"alpha": 5.0, "beta": 20.0}],
            hidden=_hidden_step_limit,
            rtol=1e-6, atol=1e-12,
        ),
        FunctionExercise(
            number="3.11.9", name="fivebar_hold_torques", points=3, partial=True, minutes=30,
            section="sec-cd-parallel", validate=_valid_fivebar,
            title="Actuator torques that hold the five-bar against a force at its end point",
            args=("p", "F"),
            public=[{"p": [0.0, 0.3], "F": [0.0, -10.0]}, {"p": [0.05, 0.25], "F": [2.0, -5.0]}],
            hidden=lambda rng: [_fivebar_case(rng) for _ in range(3)] + [_fivebar_case(rng, near_singular=True)],
            rtol=1e-7, atol=1e-9,
        ),
        FunctionExercise(
            number="3.11.10", name="stewart_payload_forces", points=3, partial=True, minutes=30,
            lib_forbidden=True, section="sec-cd-stewart", validate=_valid_stewart,
            title="Leg forces of a Stewart-Gough platform under a payload force (without lib)",
            args=("position", "rotation", "base", "platform", "mass", "force", "point"),
            public=[
                {"position": [0.0, 0.0, 0.4], "rotation": np.eye(3), "base": stewart_gough.stewart_geometry()[0],
                 "platform": stewart_gough.stewart_geometry()[1], "mass": 2.0, "force": [0.0, 0.0, -10.0],
                 "point": [0.0, 0.0, 0.0]},
                {"position": [0.02, -0.01, 0.42], "rotation": _rot("z", 0.1) @ _rot("x", 0.05),
                 "base": stewart_gough.stewart_geometry()[0], "platform": stewart_gough.stewart_geometry()[1], "mass": 2.0,
                 "force": [5.0, 0.0, -10.0], "point": [0.1, 0.0, -0.05]},
            ],
            hidden=lambda rng: [_stewart_case(rng, _CHAPTER_STEWART)]
            + [_stewart_case(rng) for _ in range(3)],
            rtol=1e-8, atol=1e-9,
        ),
        ChoiceExercise(
            number="3.11.11", name="closed_chain_representation", points=3, partial=True, multi=True,
            minutes=18, options=("A", "B", "C", "D", "E", "F"), section="sec-cd-representations",
            title="Which representation of a closed chain for which job",
        ),
        ChoiceExercise(
            number="3.11.12", name="singularity_facts", points=2, partial=True, multi=True, minutes=12,
            options=("A", "B", "C", "D"), section="sec-cd-singular",
            title="What happens near the five-bar's actuator singularity",
        ),
        ChoiceExercise(
            number="3.11.13", name="stewart_singular_poses", points=3, partial=True, multi=True, minutes=18,
            options=("A", "B", "C", "D", "E", "F"), section="sec-cd-stewart-forces",
            title="Which Stewart-Gough poses are singular",
        ),
    ],
)
