"""Spec of the 3.12 checkpoint exercises (exercises/contact_and_impact.md).

Inputs only: the expected answers come from solutions/contact_and_impact.py
(hidden cases) and grader/chapters/contact_and_impact_public.json (public
cases, generated with ``python -m grader --write-public``).
Every exercise with several cases has an even share per case (2 points /
4 cases). Cases are generic (random mass matrices, directions away from the
pyramid's vertices and edge midpoints, damping ratios well below 1), so a
formula that is wrong in general fails every case.
"""

import numpy as np

from grader.spec import Chapter, ExpressionExercise, FunctionExercise


def _spd(rng, n):
    B = rng.normal(size=(n, n))
    return B @ B.T + n * np.eye(n)


# 3.12.1 ---------------------------------------------------------------------
def _impact_case(rng):
    n = int(rng.integers(2, 5))
    M = _spd(rng, n)
    row = rng.normal(size=n)
    v = rng.normal(size=n)
    v -= (row @ v + rng.uniform(0.5, 2.0)) / (row @ row) * row      # approaching: N v- < 0
    return {"M": M, "n_row": row, "v_minus": v, "e": float(rng.uniform(0.1, 0.9))}


# 3.12.2 ---------------------------------------------------------------------
def _pyramid_case(rng):
    m_d = int(rng.choice([3, 5, 6, 8, 12]))
    width = 2 * np.pi / m_d
    k = int(rng.integers(0, m_d))
    # inside an edge, at least 10 % of the edge away from a vertex and from the midpoint
    frac = float(rng.choice([-1, 1]) * rng.uniform(0.1, 0.4))
    return {"psi": (k + 0.5 + frac) * width, "m_d": m_d}


# 3.12.3 ---------------------------------------------------------------------
def _velocity_case(rng, n_contacts):
    n = int(rng.integers(2, 6))
    return {"M": _spd(rng, n), "N": rng.normal(size=(n_contacts(n), n)), "v_star": rng.normal(size=n)}


# 3.12.5 ---------------------------------------------------------------------
def _hertz_case(rng):
    return {"mass": float(rng.uniform(0.01, 5.0)), "v0": float(rng.uniform(0.1, 5.0)),
            "k": float(10 ** rng.uniform(6, 11))}


# 3.12.6 ---------------------------------------------------------------------
def _kv_case(rng):
    k, mass = float(10 ** rng.uniform(3, 7)), float(rng.uniform(0.1, 5.0))
    zeta = float(rng.uniform(0.05, 0.8))
    return {"k": k, "c": 2 * zeta * np.sqrt(k * mass), "mass": mass, "v0": float(rng.uniform(0.2, 3.0))}


# 3.12.4, 3.12.7, 3.12.8 -----------------------------------------------------------
def _hertz_point(rng):
    return {"k": float(10 ** rng.uniform(6, 10)), "m": float(rng.uniform(0.1, 3.0)), "v_0": float(rng.uniform(0.2, 4.0))}


def _hydro_point(rng):
    R = float(rng.uniform(0.01, 0.2))
    return {"E_h": float(10 ** rng.uniform(4, 7)), "R": R, "delta": float(rng.uniform(0.02, 0.9) * R)}


CHAPTER = Chapter(
    name="contact_and_impact",
    title="3.12 Contact and impact dynamics",
    seed=3112,
    exercises=[
        FunctionExercise(
            number="3.12.1", name="newton_impulse", points=2, partial=True,
            title="Impulse and energy loss from Newton's restitution law",
            args=("M", "n_row", "v_minus", "e"),
            public=[
                {"M": [[2.0]], "n_row": [1.0], "v_minus": [-3.0], "e": 0.5},
                {"M": [[3.0, 0.5], [0.5, 1.0]], "n_row": [0.6, 0.8], "v_minus": [-1.0, -0.5], "e": 0.3},
            ],
            hidden=lambda rng: [_impact_case(rng) for _ in range(2)],
            rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.12.2", name="pyramid_threshold", points=2, partial=True,
            title="Slip threshold and sliding-direction error of the inscribed pyramid",
            args=("psi", "m_d"),
            public=[
                {"psi": 0.5, "m_d": 4},
                {"psi": 2.0, "m_d": 8},
            ],
            hidden=lambda rng: [_pyramid_case(rng) for _ in range(2)],
            rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.12.3", name="frictionless_contact_velocity", points=2, partial=True,
            title="The unique velocity after a frictionless contact step",
            args=("M", "N", "v_star"),
            public=[
                {"M": [[2.0, 0.0], [0.0, 1.0]], "N": [[0.0, 1.0], [0.0, 1.0], [1.0, 1.0]], "v_star": [0.5, -1.0]},
                {"M": [[1.0, 0.2, 0.0], [0.2, 2.0, 0.1], [0.0, 0.1, 1.5]],
                 "N": [[1.0, 0.0, 0.0], [0.0, 1.0, -0.5]], "v_star": [-1.0, 0.2, 0.4]},
            ],
            # one problem with fewer contact rows than velocities, one with more (non-unique impulses)
            hidden=lambda rng: [_velocity_case(rng, lambda n: max(1, n - 1)), _velocity_case(rng, lambda n: n + 3)],
            rtol=1e-6, atol=1e-8,
        ),
        ExpressionExercise(
            number="3.12.4", name="hertz_delta_max", points=2, partial=False,
            title="Peak penetration of an elastic Hertz impact",
            symbols=("k", "m", "v_0"),
            public_points=[{"k": 1e9, "m": 1.0, "v_0": 1.0}, {"k": 3e8, "m": 0.2, "v_0": 2.5}],
            sample=_hertz_point, n_hidden=4, rtol=1e-9, atol=1e-15,
        ),
        FunctionExercise(
            number="3.12.5", name="hertz_contact_time", points=2, partial=True,
            title="Contact time of an elastic Hertz impact",
            args=("mass", "v0", "k"),
            public=[{"mass": 1.0, "v0": 1.0, "k": 1.25e9}, {"mass": 0.0329, "v0": 1.0, "k": 2.93e10}],
            hidden=lambda rng: [_hertz_case(rng) for _ in range(2)],
            rtol=1e-6, atol=0.0,
        ),
        FunctionExercise(
            number="3.12.6", name="kelvin_voigt_artefacts", points=2, partial=True,
            title="The force jump, restitution and pull of the Kelvin-Voigt contact",
            args=("k", "c", "mass", "v0"),
            public=[{"k": 1e5, "c": 63.2455532, "mass": 1.0, "v0": 2.0},
                    {"k": 4e4, "c": 100.0, "mass": 0.5, "v0": 1.0}],
            hidden=lambda rng: [_kv_case(rng) for _ in range(2)],
            rtol=1e-9, atol=1e-12,
        ),
        ExpressionExercise(
            number="3.12.7", name="hydro_force_expr", points=2, partial=False,
            title="Hydroelastic force of a compliant sphere on a rigid plane",
            symbols=("E_h", "R", "delta"),
            public_points=[{"E_h": 1e5, "R": 0.05, "delta": 0.004}, {"E_h": 2e6, "R": 0.1, "delta": 0.03}],
            sample=_hydro_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        ExpressionExercise(
            number="3.12.8", name="hydro_patch_radius", points=2, partial=False,
            title="Radius of the hydroelastic contact patch",
            symbols=("R", "delta"),
            public_points=[{"R": 0.05, "delta": 0.004}, {"R": 0.1, "delta": 0.03}],
            sample=lambda rng: {k_: v_ for k_, v_ in _hydro_point(rng).items() if k_ != "E_h"},
            n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
    ],
)
