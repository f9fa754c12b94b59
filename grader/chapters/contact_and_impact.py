"""Spec of the 3.12 checkpoint exercises (exercises/contact_and_impact.md).

Inputs only: the expected answers come from solutions/contact_and_impact.py
(hidden cases) and grader/chapters/contact_and_impact_public.json (public
cases, generated with ``python -m grader --write-public``).
Every exercise with several cases has an even share per case (0.5 to 0.75
points a case). Cases are generic (random mass and Delassus matrices, impacts
whose slip stops in compression or in restitution, spheres pressed far past
the small-depth range), so a formula that is wrong in general fails every case.
"""

import numpy as np

from grader.spec import Chapter, ChoiceExercise, DesignExercise, FunctionExercise, QuantityExercise
from lib.common import random_spd


# 3.12.3 ---------------------------------------------------------------------
def _velocity_case(rng, n_contacts):
    n = int(rng.integers(2, 6))
    return {"M": random_spd(rng, n), "N": rng.normal(size=(n_contacts(n), n)), "v_star": rng.normal(size=n)}


# 3.12.5 ---------------------------------------------------------------------
def _mujoco_case(rng):
    return {"mass": float(rng.uniform(0.1, 10.0)), "g": float(rng.uniform(1.0, 20.0)),
            "timeconst": float(rng.uniform(0.005, 0.1)), "dampratio": float(rng.uniform(0.2, 1.5)),
            "xi": float(rng.uniform(0.5, 0.99))}


# 3.12.6 ---------------------------------------------------------------------
def _poisson_case(rng, regime):
    """A sliding impact in general position whose slip stops in compression ("compression"),
    in restitution ("restitution") or never ("slides"); the contact sticks once slip stops."""
    while True:
        B = rng.normal(size=(2, 2))
        W = B @ B.T + 0.2 * np.eye(2)
        mu, e = float(rng.uniform(0.2, 1.0)), float(rng.uniform(0.2, 0.9))
        u = np.array([rng.choice([-1.0, 1.0]) * rng.uniform(0.2, 3.0), -rng.uniform(0.3, 3.0)])
        s = np.sign(u[0])
        a1 = W[1, 1] - mu * s * W[0, 1]
        if abs(W[0, 1]) > 0.9 * mu * W[0, 0] or a1 < 0.1 * W[1, 1]:
            continue
        a2 = W[1, 1] - W[0, 1] ** 2 / W[0, 0]
        p_s = abs(u[0]) / (mu * W[0, 0] - s * W[0, 1])
        u_ns = u[1] + a1 * p_s
        p_c = p_s - u_ns / a2 if u_ns < 0 else -u[1] / a1
        where = "compression" if p_s < 0.9 * p_c else "restitution" if 1.1 * p_c < p_s < 0.9 * (1 + e) * p_c \
            else "slides" if p_s > 1.1 * (1 + e) * p_c else None
        if where == regime:
            return {"W": W, "u_minus": u, "mu": mu, "e": e}


# 3.12.7 ---------------------------------------------------------------------
def _hertz_case(rng):
    """Two balls of one material; radii at least 1.5 apart, so the reduced mass and radius
    differ clearly from either ball's."""
    r1 = float(rng.uniform(0.002, 0.03))
    r2 = float(r1 * rng.uniform(1.5, 4.0))
    return {"youngs": float(10 ** rng.uniform(9, 11.5)), "nu": float(rng.uniform(0.2, 0.45)),
            "radius1": r1, "radius2": r2, "density": float(rng.uniform(1000, 9000)),
            "v0": float(rng.uniform(0.1, 5.0))}


# 3.12.10 --------------------------------------------------------------------
def _hydro_case(rng, shallow):
    """A cylinder pressed shallow (2 to 15 % of R) or deep (30 to 95 % of R)."""
    R = float(rng.uniform(0.01, 0.2))
    share = rng.uniform(0.02, 0.15) if shallow else rng.uniform(0.3, 0.95)
    return {"E_h": float(10 ** rng.uniform(4, 7)), "R": R, "length": float(rng.uniform(0.05, 1.0)),
            "delta": float(share * R)}


# 3.12.1 ---------------------------------------------------------------------
def _lcp_step_case(rng, sliding):
    """One contact of a 3-dof body in general position: M SPD, unit normal row, pyramid rows."""
    n = 3
    A = rng.normal(size=(n, n))
    M = A @ A.T + n * np.eye(n)
    normal = rng.normal(size=n)
    normal /= np.linalg.norm(normal)
    t1 = np.cross(normal, rng.normal(size=n))
    t1 /= np.linalg.norm(t1)
    t2 = np.cross(normal, t1)
    m_d = int(rng.choice([2, 4]))
    ang = 2 * np.pi * np.arange(m_d) / m_d
    D = np.array([np.cos(a) * t1 + np.sin(a) * t2 for a in ang])
    v_tan = (3.0 if sliding else 0.05) * rng.normal(size=2)
    v_star = -0.5 * normal + v_tan[0] * t1 + v_tan[1] * t2
    return {"M": M, "N": [normal], "D": D, "mu": float(rng.uniform(0.2, 0.9)),
            "phi": float(rng.uniform(0.0, 0.002)), "v_star": v_star, "h": 0.01}


def _judge_lcp_step(c, z):
    """z solves the time-stepping LCP that lib assembles from the same inputs."""
    from lib.contact_lcp import assemble_contact_lcp
    from lib.lcp import lcp_residual

    lcp = assemble_contact_lcp(c["M"], c["N"], c["D"], c["mu"], [c["phi"]], c["v_star"], c["h"])
    z = np.asarray(z, dtype=float)
    if z.shape != lcp.b.shape:
        return False, f"expected z of shape {lcp.b.shape} (c_n, the {lcp.b.size - 2} friction impulses, eta), got {z.shape}"
    res = lcp_residual(lcp.A, lcp.b, z)
    tol = 1e-8 * max(1.0, float(np.max(np.abs(lcp.b))))
    if res <= tol:
        return True, f"z solves the LCP (residual {res:.2g} <= {tol:.2g})"
    return False, f"z does not solve the LCP: residual {res:.3g} > {tol:.2g} (negative parts of z and w, |z_i w_i|)"


def _valid_lcp_step(c):
    from lib.contact_lcp import assemble_contact_lcp

    assemble_contact_lcp(c["M"], c["N"], c["D"], c["mu"], [c["phi"]], c["v_star"], c["h"])


# 3.12.2 ---------------------------------------------------------------------
def _ramp_case(rng, slides):
    mu = float(rng.uniform(0.2, 0.8))
    theta = float(np.arctan(mu) + (rng.uniform(0.05, 0.3) if slides else -rng.uniform(0.05, 0.15)))
    return {"theta": theta, "mu": mu, "v0": float(rng.uniform(0.0, 2.0)), "h": 0.01, "n_steps": int(rng.integers(20, 80))}


# 3.12.9 ---------------------------------------------------------------------
def _hc_case(rng):
    e_mid = float(rng.uniform(0.55, 0.85))
    return {"mass": float(rng.uniform(0.1, 2.0)), "v0": float(rng.uniform(0.3, 2.0)),
            "delta_limit": float(rng.uniform(2e-4, 2e-3)), "e_lo": e_mid - 0.05, "e_hi": e_mid + 0.05}


def _judge_hc(c, design):
    design = np.asarray(design, dtype=float)
    if design.shape != (2,):
        return False, f"expected [k, alpha] (shape (2,)), got shape {design.shape}"
    k, alpha = design
    if not (np.isfinite(k) and np.isfinite(alpha)) or k <= 0 or alpha < 0:
        return False, "k must be positive and alpha non-negative"
    if k > 1e13 or alpha * c["v0"] >= 1.0:
        return False, "k above 1e13 N/m^1.5 or alpha v0 >= 1: outside the range of this model"
    # The trusted simulation is the one the statement names.
    from lib.soft_contact import simulate_hunt_crossley_impact

    r = simulate_hunt_crossley_impact(c["mass"], c["v0"], k, alpha)
    ok_pen = r.max_penetration <= c["delta_limit"]
    ok_e = c["e_lo"] <= r.restitution <= c["e_hi"]
    why = (f"simulated: peak penetration {r.max_penetration:.4g} m (limit {c['delta_limit']:.4g}), "
           f"restitution {r.restitution:.4f} (wanted {c['e_lo']:.4f} to {c['e_hi']:.4f})")
    return ok_pen and ok_e, why


# Every case input is checked with the library's own validation (Exercise.validate).
def _valid_velocity(c):
    from lib._validation import as_matrix, as_vector
    from lib.contact_lcp import mass_matrix_inverse

    n = mass_matrix_inverse(c["M"]).shape[0]
    as_matrix(c["N"], "N", len(c["N"]), n)
    as_vector(c["v_star"], "v_star", n)


def _valid_positive(*names):
    def check(c):
        from lib._validation import positive

        for name in names:
            positive(c[name], name)
    return check


def _valid_mujoco(c):
    from lib._validation import in_range
    from lib.contact_lcp import mujoco_regularizer

    _valid_positive("mass", "g", "timeconst", "dampratio")(c)
    in_range(c["xi"], "xi", 0.0, 1.0, low_open=True, high_open=True)
    mujoco_regularizer([[1.0 / c["mass"]]], c["xi"])


def _valid_poisson(c):
    from lib._validation import as_symmetric, as_vector, in_range, nonnegative
    from lib.contact_lcp import mass_matrix_inverse

    W = as_symmetric(c["W"], "W", 2)
    mass_matrix_inverse(W, "W")                      # symmetric positive definite
    u = as_vector(c["u_minus"], "u_minus", 2)
    mu = nonnegative(c["mu"], "mu")
    in_range(c["e"], "e", 0.0, 1.0)
    if not (u[1] < 0 and u[0] != 0):
        raise ValueError("the contact must approach (u_n < 0) while sliding (u_t != 0)")
    if not abs(W[0, 1]) < mu * W[0, 0]:
        raise ValueError("the cases stick once slip stops: |W_tn| < mu W_tt")
    if not W[1, 1] - mu * np.sign(u[0]) * W[0, 1] > 0:
        raise ValueError("the normal velocity must grow while the contact slides")


def _valid_hertz(c):
    from lib._validation import in_range
    from lib.soft_contact import hertz_stiffness

    _valid_positive("youngs", "radius1", "radius2", "density", "v0")(c)
    in_range(c["nu"], "nu", 0.0, 0.5, high_open=True)
    hertz_stiffness(c["radius1"], c["youngs"], c["nu"], c["radius2"], c["youngs"], c["nu"])


def _valid_hydro(c):
    from lib._validation import in_range

    _valid_positive("E_h", "R", "length", "delta")(c)
    in_range(c["delta"], "delta", 0.0, c["R"], low_open=True)


def _valid_ramp(c):
    from lib._validation import in_range, nonnegative, real_number

    in_range(c["theta"], "theta", 0.0, np.pi / 2, low_open=True, high_open=True)
    nonnegative(c["mu"], "mu")
    real_number(c["v0"], "v0")
    _valid_positive("h")(c)
    if not isinstance(c["n_steps"], int) or c["n_steps"] < 1:
        raise ValueError(f"n_steps must be a positive int, got {c['n_steps']!r}")


def _valid_hc(c):
    from lib._validation import in_range

    _valid_positive("mass", "v0", "delta_limit")(c)
    in_range(c["e_lo"], "e_lo", 0.0, 1.0)
    in_range(c["e_hi"], "e_hi", c["e_lo"], 1.0)


CHAPTER = Chapter(
    name="contact_and_impact",
    title="3.12 Contact and impact dynamics",
    seed=3112,
    key_ideas={
        "assembling and solving the frictional time-stepping LCP": ("contact_lcp_step", "ramp_slide"),
        "the frictionless step as a convex QP: a unique velocity, non-unique impulses":
            ("frictionless_contact_velocity", "lcp_facts"),
        "Lemke's method versus projected Gauss-Seidel": ("lcp_facts",),
        "MuJoCo's regularised contact": ("mujoco_soft_contact",),
        "Poisson restitution": ("poisson_friction_impact",),
        "the stiff-contact step limit": ("hertz_step_limit",),
        "restitution e = 1 - alpha v0 of Hunt-Crossley contact": ("hunt_crossley_speed", "hunt_crossley_design"),
        "the hydroelastic pressure-field force": ("hydro_cylinder_force",),
        "Drake's hydroelastic pair table": ("drake_pairs",),
    },
    exercises=[
        DesignExercise(
            number="3.12.1", name="contact_lcp_step", points=4.5, partial=True, lib_forbidden=True,
            section="sec-ci-timestepping", validate=_valid_lcp_step, minutes=35,
            title="Build and solve the frictional time-stepping LCP (without lib)",
            args=("M", "N", "D", "mu", "phi", "v_star", "h"),
            public=[
                {"M": [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]], "N": [[0.0, 0.0, 1.0]],
                 "D": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]],
                 "mu": 0.3, "phi": 0.0, "v_star": [1.0, 0.5, -0.2], "h": 0.01},
                {"M": [[1.0, 0.0], [0.0, 1.0]], "N": [[0.0, 1.0]], "D": [[1.0, 0.0], [-1.0, 0.0]],
                 "mu": 0.5, "phi": 0.0, "v_star": [0.02, -0.1], "h": 0.01},
            ],
            hidden=lambda rng: [_lcp_step_case(rng, s_) for s_ in (True, False, True, False)],
            judge=_judge_lcp_step,
        ),
        FunctionExercise(
            number="3.12.2", name="ramp_slide", points=3, partial=True, lib_forbidden=True,
            validate=_valid_ramp, minutes=20,
            section="sec-ci-timestepping",
            title="A block on a ramp, stepped with your own LCP, against the closed form",
            args=("theta", "mu", "v0", "h", "n_steps"),
            public=[{"theta": 0.6, "mu": 0.4, "v0": 0.0, "h": 0.01, "n_steps": 50},
                    {"theta": 0.3, "mu": 0.5, "v0": 1.5, "h": 0.01, "n_steps": 60}],
            hidden=lambda rng: [_ramp_case(rng, s_) for s_ in (True, False, True, False)],
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.12.3", name="frictionless_contact_velocity", points=2, partial=True, lib_forbidden=True,
            validate=_valid_velocity, minutes=20,
            section="sec-ci-lcp-properties",
            title="The unique velocity after a frictionless contact step (without lib)",
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
        ChoiceExercise(
            number="3.12.4", name="lcp_facts", points=2.5, partial=True, multi=True, minutes=15,
            options=("A", "B", "C", "D", "E"), section="sec-ci-lcp-properties",
            title="What the contact LCP and its solvers guarantee",
        ),
        FunctionExercise(
            number="3.12.5", name="mujoco_soft_contact", points=2, partial=True,
            validate=_valid_mujoco, minutes=20,
            section="sec-ci-convex",
            title="Rest penetration, frequency and damping of MuJoCo's regularised contact",
            args=("mass", "g", "timeconst", "dampratio", "xi"),
            public=[{"mass": 1.0, "g": 9.81, "timeconst": 0.02, "dampratio": 0.8, "xi": 0.95},
                    {"mass": 3.0, "g": 5.0, "timeconst": 0.05, "dampratio": 0.3, "xi": 0.8}],
            hidden=lambda rng: [_mujoco_case(rng) for _ in range(2)],
            rtol=1e-9, atol=1e-15,
        ),
        FunctionExercise(
            number="3.12.6", name="poisson_friction_impact", points=3, partial=True,
            validate=_valid_poisson, minutes=30,
            section="sec-ci-impact",
            title="Poisson's and Newton's restitution for an impact with friction",
            args=("W", "u_minus", "mu", "e"),
            public=[{"W": [[2.0, -1.0], [-1.0, 1.0]], "u_minus": [1.0, -1.0], "mu": 1.0, "e": 1.0},
                    {"W": [[1.5, 0.3], [0.3, 2.0]], "u_minus": [-4.0, -1.0], "mu": 0.4, "e": 0.5}],
            hidden=lambda rng: [_poisson_case(rng, r_) for r_ in ("compression", "restitution", "compression",
                                                                   "restitution")],
            rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.12.7", name="hertz_step_limit", points=2.5, partial=True,
            validate=_valid_hertz, minutes=20,
            section="sec-ci-hertz",
            title="The explicit step limit and contact time of two colliding balls",
            args=("youngs", "nu", "radius1", "radius2", "density", "v0"),
            public=[{"youngs": 210e9, "nu": 0.3, "radius1": 0.005, "radius2": 0.01, "density": 7850.0,
                     "v0": 1.0},
                    {"youngs": 70e9, "nu": 0.33, "radius1": 0.02, "radius2": 0.06, "density": 2700.0,
                     "v0": 2.0}],
            hidden=lambda rng: [_hertz_case(rng) for _ in range(3)],
            rtol=1e-6, atol=0.0,
        ),
        QuantityExercise(
            number="3.12.8", name="hunt_crossley_speed", points=2, unit="m/s", rtol=1e-3, atol=0.0,
            section="sec-ci-soft-damping", minutes=15,
            title="The impact speed at which Hunt-Crossley restitution is 0.9, beyond first order",
        ),
        DesignExercise(
            number="3.12.9", name="hunt_crossley_design", points=3, partial=True,
            validate=_valid_hc, minutes=25,
            section="sec-ci-soft-damping",
            title="Design a Hunt-Crossley contact for a penetration and a restitution",
            args=("mass", "v0", "delta_limit", "e_lo", "e_hi"),
            public=[{"mass": 0.5, "v0": 1.0, "delta_limit": 1e-3, "e_lo": 0.75, "e_hi": 0.85},
                    {"mass": 2.0, "v0": 0.5, "delta_limit": 5e-4, "e_lo": 0.6, "e_hi": 0.7}],
            hidden=lambda rng: [_hc_case(rng) for _ in range(4)],
            judge=_judge_hc, timeout=60,  # a design is checked by simulating it (about 1 s a case)
        ),
        FunctionExercise(
            number="3.12.10", name="hydro_cylinder_force", points=2, partial=True,
            validate=_valid_hydro, minutes=20,
            section="sec-ci-hydro",
            title="The hydroelastic force of a compliant cylinder lying on a rigid plane",
            args=("E_h", "R", "length", "delta"),
            public=[{"E_h": 1e5, "R": 0.05, "length": 0.2, "delta": 0.004},
                    {"E_h": 2e4, "R": 0.1, "length": 0.5, "delta": 0.06}],
            hidden=lambda rng: [_hydro_case(rng, s_) for s_ in (True, False)],
            rtol=1e-7, atol=0.0,
        ),
        ChoiceExercise(
            number="3.12.11", name="drake_pairs", points=1.5, partial=True, multi=True, minutes=10,
            options=("A", "B", "C", "D", "E", "F"), section="sec-drake-pair-table",
            title="Diagnose a grasping scene in Drake: patch, point contact or an error",
        ),
    ],
)
