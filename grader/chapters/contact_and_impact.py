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

from grader.spec import (Chapter, ChoiceExercise, DesignExercise, ExpressionExercise, FunctionExercise,
                         QuantityExercise)


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


# 3.12.9 ---------------------------------------------------------------------
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


# 3.12.10 --------------------------------------------------------------------
def _ramp_case(rng, slides):
    mu = float(rng.uniform(0.2, 0.8))
    theta = float(np.arctan(mu) + (rng.uniform(0.05, 0.3) if slides else -rng.uniform(0.05, 0.15)))
    return {"theta": theta, "mu": mu, "v0": float(rng.uniform(0.0, 2.0)), "h": 0.01, "n_steps": int(rng.integers(20, 80))}


# 3.12.13 --------------------------------------------------------------------
def _hc_case(rng):
    e_mid = float(rng.uniform(0.55, 0.85))
    return {"mass": float(rng.uniform(0.1, 2.0)), "v0": float(rng.uniform(0.3, 2.0)),
            "delta_limit": float(rng.uniform(2e-4, 2e-3)), "e_lo": e_mid - 0.05, "e_hi": e_mid + 0.05}


def hc_collision(mass, v0, k, alpha):
    """The trusted simulation of a Hunt-Crossley impact (also used by the judge)."""
    from lib.soft_contact import hunt_crossley_force, simulate_collision

    delta_elastic = (1.25 * mass * v0**2 / k) ** 0.4
    dt = 3.3 * delta_elastic / v0 / 200
    return simulate_collision(lambda x, xd: hunt_crossley_force(k, alpha, x, xd), mass, v0, dt,
                              max_time=2000 * dt)


def _judge_hc(c, design):
    design = np.asarray(design, dtype=float)
    if design.shape != (2,):
        return False, f"expected [k, alpha] (shape (2,)), got shape {design.shape}"
    k, alpha = design
    if not (np.isfinite(k) and np.isfinite(alpha)) or k <= 0 or alpha < 0:
        return False, "k must be positive and alpha non-negative"
    if k > 1e13 or alpha * c["v0"] >= 1.0:
        return False, "k above 1e13 N/m^1.5 or alpha v0 >= 1: outside the range of this model"
    r = hc_collision(c["mass"], c["v0"], k, alpha)
    ok_pen = r.max_penetration <= c["delta_limit"]
    ok_e = c["e_lo"] <= r.restitution <= c["e_hi"]
    why = (f"simulated: peak penetration {r.max_penetration:.4g} m (limit {c['delta_limit']:.4g}), "
           f"restitution {r.restitution:.4f} (wanted {c['e_lo']:.4f} to {c['e_hi']:.4f})")
    return ok_pen and ok_e, why


# Every case input is checked with the library's own validation (Exercise.validate).
def _valid_impact(c):
    from lib._validation import as_vector, in_range
    from lib.contact_lcp import mass_matrix_inverse

    n = mass_matrix_inverse(c["M"]).shape[0]
    row = as_vector(c["n_row"], "n_row", n)
    v = as_vector(c["v_minus"], "v_minus", n)
    in_range(c["e"], "e", 0.0, 1.0)
    if not row @ v < 0:
        raise ValueError("v_minus must approach the contact (n_row . v_minus < 0)")


def _valid_pyramid(c):
    from lib._validation import real_number

    real_number(c["psi"], "psi")
    if not isinstance(c["m_d"], int) or c["m_d"] < 3:
        raise ValueError(f"m_d must be an int >= 3 (pyramid edges), got {c['m_d']!r}")


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
    exercises=[
        FunctionExercise(
            number="3.12.1", name="newton_impulse", points=2, partial=True,
            validate=_valid_impact,
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
            validate=_valid_pyramid,
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
            validate=_valid_velocity,
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
            validate=_valid_positive("k", "m", "v_0"),
            title="Peak penetration of an elastic Hertz impact",
            symbols=("k", "m", "v_0"),
            public_points=[{"k": 1e9, "m": 1.0, "v_0": 1.0}, {"k": 3e8, "m": 0.2, "v_0": 2.5}],
            sample=_hertz_point, n_hidden=4, rtol=1e-9, atol=1e-15,
        ),
        FunctionExercise(
            number="3.12.5", name="hertz_contact_time", points=2, partial=True,
            validate=_valid_positive("mass", "v0", "k"),
            title="Contact time of an elastic Hertz impact",
            args=("mass", "v0", "k"),
            public=[{"mass": 1.0, "v0": 1.0, "k": 1.25e9}, {"mass": 0.0329, "v0": 1.0, "k": 2.93e10}],
            hidden=lambda rng: [_hertz_case(rng) for _ in range(2)],
            rtol=1e-6, atol=0.0,
        ),
        FunctionExercise(
            number="3.12.6", name="kelvin_voigt_artefacts", points=2, partial=True,
            validate=_valid_positive("k", "c", "mass", "v0"),
            title="The force jump, restitution and pull of the Kelvin-Voigt contact",
            args=("k", "c", "mass", "v0"),
            public=[{"k": 1e5, "c": 63.2455532, "mass": 1.0, "v0": 2.0},
                    {"k": 4e4, "c": 100.0, "mass": 0.5, "v0": 1.0}],
            hidden=lambda rng: [_kv_case(rng) for _ in range(2)],
            rtol=1e-9, atol=1e-12,
        ),
        ExpressionExercise(
            number="3.12.7", name="hydro_force_expr", points=2, partial=False,
            validate=_valid_positive("E_h", "R", "delta"),
            title="Hydroelastic force of a compliant sphere on a rigid plane",
            symbols=("E_h", "R", "delta"),
            public_points=[{"E_h": 1e5, "R": 0.05, "delta": 0.004}, {"E_h": 2e6, "R": 0.1, "delta": 0.03}],
            sample=_hydro_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        ExpressionExercise(
            number="3.12.8", name="hydro_patch_radius", points=2, partial=False,
            validate=_valid_positive("R", "delta"),
            title="Radius of the hydroelastic contact patch",
            symbols=("R", "delta"),
            public_points=[{"R": 0.05, "delta": 0.004}, {"R": 0.1, "delta": 0.03}],
            sample=lambda rng: {k_: v_ for k_, v_ in _hydro_point(rng).items() if k_ != "E_h"},
            n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        DesignExercise(
            number="3.12.9", name="contact_lcp_step", points=4.5, partial=True, lib_forbidden=True,
            section="sec-ci-timestepping", validate=_valid_lcp_step,
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
            number="3.12.10", name="ramp_slide", points=3, partial=True, lib_forbidden=True,
            validate=_valid_ramp,
            section="sec-ci-timestepping",
            title="A block on a ramp, stepped with your own LCP, against the closed form",
            args=("theta", "mu", "v0", "h", "n_steps"),
            public=[{"theta": 0.6, "mu": 0.4, "v0": 0.0, "h": 0.01, "n_steps": 50},
                    {"theta": 0.3, "mu": 0.5, "v0": 1.5, "h": 0.01, "n_steps": 60}],
            hidden=lambda rng: [_ramp_case(rng, s_) for s_ in (True, False, True, False)],
            rtol=1e-6, atol=1e-9,
        ),
        ChoiceExercise(
            number="3.12.11", name="lcp_facts", points=2.5, partial=True, multi=True,
            options=("A", "B", "C", "D", "E"), section="sec-ci-lcp-properties",
            title="What the contact LCP and its solvers guarantee",
        ),
        QuantityExercise(
            number="3.12.12", name="hunt_crossley_speed", points=1, unit="m/s", rtol=1e-3, atol=0.0,
            section="sec-ci-soft-damping",
            title="The impact speed at which Hunt-Crossley restitution drops",
        ),
        DesignExercise(
            number="3.12.13", name="hunt_crossley_design", points=3, partial=True,
            validate=_valid_hc,
            section="sec-ci-soft-damping",
            title="Design a Hunt-Crossley contact for a penetration and a restitution",
            args=("mass", "v0", "delta_limit", "e_lo", "e_hi"),
            public=[{"mass": 0.5, "v0": 1.0, "delta_limit": 1e-3, "e_lo": 0.75, "e_hi": 0.85},
                    {"mass": 2.0, "v0": 0.5, "delta_limit": 5e-4, "e_lo": 0.6, "e_hi": 0.7}],
            hidden=lambda rng: [_hc_case(rng) for _ in range(4)],
            judge=_judge_hc, timeout=60,  # a design is checked by simulating it (about 1 s a case)
        ),
    ],
)
