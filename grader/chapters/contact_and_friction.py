"""Spec of the contact-and-friction exercises (exercises/contact_and_friction.md).

Inputs only: the expected answers come from solutions/contact_and_friction.py
(hidden cases) and grader/chapters/contact_and_friction_public.json (public
cases, generated with ``python -m grader --write-public``).
The lesson has no chapter number, so its exercises are CF.1-CF.13 (CF:
Contact and Friction), in the order of the lesson's sections. None asks for a
formula the lesson displays, except CF.1 (the friction a block at rest needs,
which tests the pitfall "friction is always mu f_n"): each asks for a step the
lesson leaves (the least push, the best-scaled pyramid, the depth at which a
clipped spring-damper lets go, the smallest Painleve coefficient of any body),
a simulation or a solver the student builds (the contact-implicit step of a
rod, the fingertip linear program), a debugging task graded without lib (so
that no lib routine can stand in for the debugged simulation), a design judged
by simulation, concept checks and quantities with a unit.

Every partial-credit exercise has 4 or 8 cases, so each case is worth a round
share. Hidden cases keep a margin from the decision boundaries (the sign of
the Painleve term, the cone edge, zero gap) so that an answer that is right in
general cannot fail on round-off.
"""

import math

import numpy as np

from grader.spec import (Chapter, ChoiceExercise, DesignExercise, ExpressionExercise, FunctionExercise,
                         QuantityExercise)
from lib._validation import as_matrix, as_vector, in_range, nonnegative, positive
from lib.common import GRAVITY as G
from lib.models.ball_drop import (MAX_STEPS, penalty_bounce_duration,
                                  simulate_penalty_bounce)


# CF.2 ------------------------------------------------------------------------
def _hidden_push(rng):
    cases = []
    for _ in range(2):
        mu = float(rng.uniform(0.2, 1.2))
        crit = math.atan(mu)
        alpha = float(crit + rng.uniform(math.radians(3.0), min(math.radians(40.0), math.radians(85.0) - crit)))
        cases.append({"alpha": alpha, "mu_s": mu, "mass": float(rng.uniform(0.2, 20.0))})
    return cases


def _valid_push(c):
    in_range(c["alpha"], "alpha", 0.0, np.pi / 2, low_open=True, high_open=True)
    nonnegative(c["mu_s"], "mu_s")
    positive(c["mass"], "mass")
    if not c["alpha"] > math.atan(c["mu_s"]):
        raise ValueError("alpha must exceed the critical angle arctan(mu_s): the block slides without a push")


# CF.4 ------------------------------------------------------------------------
def _scaled_worst(ks):
    """tan^2(pi / (2 k)): the worst error of the best-scaled pyramid with k edges."""
    return np.tan(np.pi / (2 * np.asarray(ks))) ** 2


def _hidden_scaled(rng):
    # Tolerances chosen away from the exact worst-case errors of any k.
    worst = _scaled_worst(np.arange(3, 400))
    cases = []
    for low, high in ((0.002, 0.02), (0.02, 0.3)):
        while True:
            tol = float(rng.uniform(low, high))
            if np.min(np.abs(worst - tol)) > 1e-6:
                break
        cases.append({"tol": tol})
    return cases


# CF.6 ------------------------------------------------------------------------
def _rod_case(rng, kind):
    """A rod whose end A is on the floor or within 1 mm of it; the end's velocity sets the mode."""
    l = float(rng.uniform(0.2, 1.0))
    mass = float(rng.uniform(0.5, 5.0))
    theta = float(rng.uniform(0.2, 1.3))
    phi = float(rng.uniform(0.0, 1e-3))
    mu = float(rng.uniform(0.2, 0.9))
    thetadot = float(rng.uniform(-2.0, 2.0))
    if kind == "separate":
        w, u = float(rng.uniform(0.5, 2.0)), float(rng.uniform(-1.0, 1.0))
    elif kind == "stick":
        w = -float(rng.uniform(0.3, 1.0))
        u = float(rng.uniform(-0.05, 0.05)) * abs(w)
    elif kind == "painleve":   # high friction, rod near the Painleve angle, end sliding in -x
        mu = float(rng.uniform(1.5, 2.5))
        theta = float(math.atan(2.0) + rng.uniform(-0.1, 0.1))
        w, u = -float(rng.uniform(0.1, 0.5)), -float(rng.uniform(1.0, 2.0))
    else:                      # slide in +x or -x
        w = -float(rng.uniform(0.2, 1.0))
        u = (1.0 if kind == "slide+" else -1.0) * float(rng.uniform(1.5, 3.0))
    v = [u - l * math.sin(theta) * thetadot, w + l * math.cos(theta) * thetadot, thetadot]
    return {"q": [float(rng.uniform(-1.0, 1.0)), l * math.sin(theta) + phi, theta], "v": v,
            "mass": mass, "l": l, "mu": mu, "dt": 0.01}


def _hidden_rod(rng):
    return [_rod_case(rng, kind) for kind in ("separate", "stick", "slide+", "slide-", "painleve", "stick")]


def _judge_rod(c, z):
    """z = (v+, c_t, c_n) satisfies the contact-implicit step: momentum, cone, complementarity, slip law."""
    z = np.asarray(z, dtype=float)
    if z.shape != (5,):
        return False, f"expected (v+ (3 numbers), c_t, c_n), shape (5,), got shape {z.shape}"
    if not np.all(np.isfinite(z)):
        return False, "the result has a NaN or an infinite entry"
    q, v = np.asarray(c["q"], dtype=float), np.asarray(c["v"], dtype=float)
    m, l, mu, dt = c["mass"], c["l"], c["mu"], c["dt"]
    th = q[2]
    phi = q[1] - l * math.sin(th)
    mass_matrix = np.diag([m, m, m * l * l / 3.0])
    jac = np.array([[1.0, 0.0, l * math.sin(th)], [0.0, 1.0, -l * math.cos(th)]])
    v_plus, (c_t, c_n) = z[:3], z[3:]
    speed = float(np.linalg.norm(v)) + G * dt + abs(phi) / dt + 1e-3
    tol_v, tol_c = 1e-7 * speed, 1e-7 * m * speed * max(1.0, l)
    residual = mass_matrix @ (v_plus - v) + dt * m * G * np.array([0.0, 1.0, 0.0]) - jac.T @ z[3:]
    if np.abs(residual).max() > tol_c:
        return False, (f"M (v+ - v) = -dt m g e_y + J^T c fails by {np.abs(residual).max():.3g} "
                       f"(N s, tolerance {tol_c:.2g})")
    if c_n < -tol_c:
        return False, f"c_n = {c_n:.6g} N s is negative: the floor would pull"
    if abs(c_t) > mu * c_n + tol_c:
        return False, f"|c_t| = {abs(c_t):.6g} exceeds mu c_n = {mu * c_n:.6g} (N s): outside the friction cone"
    gap_rate = phi / dt + jac[1] @ v_plus
    if gap_rate < -tol_v:
        return False, f"phi/dt + N v+ = {gap_rate:.6g} m/s < 0: the end goes into the floor"
    if c_n > tol_c and gap_rate > tol_v:
        return False, f"c_n = {c_n:.6g} N s while the end leaves the floor (phi/dt + N v+ = {gap_rate:.6g} m/s)"
    slip = jac[0] @ v_plus
    if abs(slip) > tol_v and abs(c_t + mu * c_n * np.sign(slip)) > tol_c:
        return False, (f"the end slides at {slip:.6g} m/s but c_t = {c_t:.6g} N s is not "
                       f"-mu c_n sign(slip) = {-mu * c_n * np.sign(slip):.6g}")
    mode = "separates" if c_n <= tol_c else ("slides" if abs(slip) > tol_v else "sticks")
    return True, f"the step is consistent: the end {mode} (momentum residual {np.abs(residual).max():.1e} N s)"


def _valid_rod(c):
    q = as_vector(c["q"], "q", 3)
    as_vector(c["v"], "v", 3)
    positive(c["mass"], "mass")
    positive(c["l"], "l")
    nonnegative(c["mu"], "mu")
    positive(c["dt"], "dt")
    in_range(q[2], "theta", 0.0, np.pi / 2, low_open=True, high_open=True)
    nonnegative(q[1] - c["l"] * math.sin(q[2]), "phi (gap of the end)")


# CF.7 ------------------------------------------------------------------------
def _zeta_point(rng):
    return {"zeta": float(rng.uniform(0.01, 0.95))}


def _valid_zeta(c):
    in_range(c["zeta"], "zeta", 0.0, 1.0, low_open=True, high_open=True)


# CF.8 ------------------------------------------------------------------------
def _hidden_rebound(rng):
    cases = []
    for zeta in (float(rng.uniform(0.02, 0.2)), float(rng.uniform(0.2, 0.7))):
        mass, k = float(rng.uniform(0.1, 5.0)), float(10 ** rng.uniform(3.0, 7.0))
        omega_dt = float(rng.uniform(0.02, 0.3))
        cases.append({"k": k, "zeta": zeta, "mass": mass, "v0": float(rng.uniform(0.5, 5.0)),
                      "dt": omega_dt / math.sqrt(k / mass)})
    return cases


def _valid_rebound(c):
    positive(c["k"], "k")
    in_range(c["zeta"], "zeta", 0.0, 1.0, high_open=True)
    positive(c["mass"], "mass")
    positive(c["v0"], "v0")
    positive(c["dt"], "dt")
    in_range(math.sqrt(c["k"] / c["mass"]) * c["dt"], "omega_n dt", 0.0, 0.5, low_open=True)


# CF.9 ------------------------------------------------------------------------
def _design_case(rng):
    h0 = float(rng.uniform(0.3, 1.5))
    delta_limit = float(rng.uniform(1e-3, 5e-3))
    e_mid = float(rng.uniform(0.3, 0.8))
    return {"mass": float(rng.uniform(0.2, 3.0)), "h0": h0, "delta_limit": delta_limit,
            "dt_min": 0.5 * delta_limit / math.sqrt(2.0 * G * h0), "e_lo": e_mid - 0.04, "e_hi": e_mid + 0.04}


def _judge_penalty(c, design):
    design = np.asarray(design, dtype=float)
    if design.shape != (3,):
        return False, f"expected [k, zeta, dt] (shape (3,)), got shape {design.shape}"
    k, zeta, dt = design
    if not np.all(np.isfinite(design)) or k <= 0 or not 0.0 <= zeta < 1.0 or dt <= 0:
        return False, "k and dt must be positive and 0 <= zeta < 1"
    if dt < c["dt_min"] * (1 - 1e-12):
        return False, f"dt = {dt:.4g} s is below the smallest step allowed, {c['dt_min']:.4g} s"
    # The trusted simulation is the one the statement names (lib.models.ball_drop).
    steps = penalty_bounce_duration(k, c["mass"], c["h0"]) / dt
    if steps > MAX_STEPS:
        return False, f"this design needs {steps:.3g} steps for one bounce: more than {MAX_STEPS:,}"
    r = simulate_penalty_bounce(k, dt, zeta, mass=c["mass"], h0=c["h0"])
    if r.diverged or r.bounces < 1:
        return False, f"the simulation blew up or the ball never left the floor (omega_n dt = {r.omega_dt:.3g})"
    ok_pen = r.max_penetration <= c["delta_limit"]
    ok_e = c["e_lo"] <= r.restitution <= c["e_hi"]
    why = (f"simulated with omega_n dt = {r.omega_dt:.3g}: peak penetration {r.max_penetration:.4g} m "
           f"(limit {c['delta_limit']:.4g}), rebound speed ratio {r.restitution:.4f} "
           f"(wanted {c['e_lo']:.4f} to {c['e_hi']:.4f})")
    return bool(ok_pen and ok_e), why


def _valid_design(c):
    for name in ("mass", "h0", "delta_limit", "dt_min"):
        positive(c[name], name)
    in_range(c["e_lo"], "e_lo", 0.0, 1.0, low_open=True, high_open=True)
    in_range(c["e_hi"], "e_hi", c["e_lo"], 1.0, low_open=True, high_open=True)


# CF.10 -----------------------------------------------------------------------
def _zeno_point(rng):
    return {"h_0": float(rng.uniform(0.1, 3.0)), "e": float(rng.uniform(0.05, 0.95))}


def _valid_zeno(c):
    positive(c["h_0"], "h_0")
    in_range(c["e"], "e", 0.0, 1.0, low_open=True, high_open=True)


# CF.11 -----------------------------------------------------------------------
def _painleve_case(rng, kind):
    """kind: which answer, and which wrong model (uniform-rod kappa, no spin term, the lesson's
    sliding direction only) the case tells apart from the right one."""
    l = float(rng.uniform(0.2, 1.5))
    slide, spin_fast = -1, False
    if kind in ("none", "two"):          # slender body: the uniform-rod kappa is positive here
        r = float(rng.uniform(0.05, 0.2))                # (rho / l)^2
        theta = math.atan(math.sqrt((r + 1.0) / r)) + float(rng.uniform(-0.03, 0.03))
        mu = 2.0 * math.sqrt(r * (r + 1.0)) * float(rng.uniform(1.2, 1.4))
        spin_fast = kind == "two"
    elif kind == "stubby":               # kappa > 0, but the uniform-rod kappa is negative
        r = float(rng.uniform(0.6, 1.0))
        theta = math.atan(2.0) + float(rng.uniform(-0.05, 0.05))
        mu = float(rng.uniform(1.6, 0.85 * 2.0 * math.sqrt(r * (r + 1.0))))
    elif kind == "slide+":               # friction pushes the rod down: kappa > 0 for every mu
        r = float(rng.uniform(0.1, 0.3))
        theta = math.atan(2.0) + float(rng.uniform(-0.05, 0.05))
        mu, slide = float(rng.uniform(1.6, 3.0)), 1
    elif kind == "lifts":                # kappa > 0 and the spin lifts the end: f_n = 0 only
        r = float(rng.uniform(0.1, 0.6))
        theta = float(rng.uniform(0.3, 1.2))
        mu = float(rng.uniform(0.1, 0.7)) * 2.0 * math.sqrt(r * (r + 1.0))
        spin_fast = True
    else:                                # "two-uniform": near the uniform rod, kappa < 0, spinning fast
        r = float(rng.uniform(0.3, 0.4))
        theta = math.atan(math.sqrt((r + 1.0) / r)) + float(rng.uniform(-0.03, 0.03))
        mu = 2.0 * math.sqrt(r * (r + 1.0)) * float(rng.uniform(1.3, 1.6))
        spin_fast = True
    spin = math.sqrt(G / (l * math.sin(theta)))      # |thetadot| where the end's free acceleration is zero
    thetadot = spin * (float(rng.uniform(1.3, 2.0)) if spin_fast else float(rng.uniform(0.0, 0.7)))
    thetadot *= float(rng.choice([-1.0, 1.0]))
    return {"theta": theta, "thetadot": thetadot, "mu": mu, "l": l, "rho": l * math.sqrt(r), "slide": slide}


def _hidden_painleve(rng):
    return [_painleve_case(rng, kind) for kind in ("none", "two", "stubby", "slide+", "lifts", "two-uniform")]


def _valid_painleve(c):
    in_range(c["theta"], "theta", 0.0, np.pi / 2, low_open=True, high_open=True)
    nonnegative(c["mu"], "mu")
    positive(c["l"], "l")
    positive(c["rho"], "rho")
    if c["slide"] not in (-1, 1) or not isinstance(c["slide"], int):
        raise ValueError(f"slide must be the int +1 or -1, got {c['slide']!r}")
    s, co = math.sin(c["theta"]), math.cos(c["theta"])
    kappa = 1.0 + (c["l"] / c["rho"]) ** 2 * (co * co + c["slide"] * c["mu"] * s * co)
    a0 = -G + c["l"] * s * c["thetadot"] ** 2
    if abs(kappa) < 0.05 or abs(a0) < 0.5:
        raise ValueError(f"too close to a boundary of the cases (kappa = {kappa:.3g}, a0 = {a0:.3g} m/s^2)")


def _mu_min_point(rng):
    l = float(rng.uniform(0.1, 2.0))
    return {"l": l, "rho": l * float(rng.uniform(0.1, 1.5))}


# CF.13 -----------------------------------------------------------------------
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


def _valid_press(c):
    as_matrix(c["jacobian"], "jacobian", 2, 2)
    nonnegative(c["mu"], "mu")
    positive(c["tau_max"], "tau_max")


def _valid(positives=()):
    def check(c):
        for name in positives:
            positive(c[name], name)
    return check


CHAPTER = Chapter(
    name="contact_and_friction",
    title="CF Contact and friction: an interactive lesson",
    seed=8401,
    key_ideas={
        "Coulomb friction as a set: stick, slip, lift-off": ("ramp_friction", "least_push", "cone_facts"),
        "the polyhedral pyramid and its worst-case error": ("scaled_pyramid",),
        "complementarity: rigid, penalty and impulse contact": ("contact_models",),
        "the contact-implicit equation": ("rod_implicit_step",),
        "penalty contact: restitution, stability and the stiffness-step trade-off":
            ("liftoff_depth", "rebound_ratio", "penalty_design"),
        "Zeno behaviour of impulse contact": ("zeno_distance",),
        "Painleve's paradox": ("painleve_solutions", "painleve_mu_min"),
        "the friction cone meets the torque limits: the fingertip linear program": ("max_press_force",),
    },
    exercises=[
        QuantityExercise(
            number="CF.1", name="ramp_friction", points=1, unit="N", rtol=1e-3, atol=0.0,
            section="sec-cf-ramp", minutes=6,
            title="The friction a plank supplies to a block at rest",
        ),
        FunctionExercise(
            number="CF.2", name="least_push", points=2, partial=True, validate=_valid_push,
            section="sec-cf-ramp", minutes=15,
            title="The smallest push that holds a block past its critical angle",
            args=("alpha", "mu_s", "mass"),
            public=[{"alpha": float(np.radians(40.0)), "mu_s": 0.6, "mass": 1.0},
                    {"alpha": float(np.radians(60.0)), "mu_s": 0.3, "mass": 2.5}],
            hidden=_hidden_push, rtol=1e-9, atol=1e-12,
        ),
        ChoiceExercise(
            number="CF.3", name="cone_facts", points=2, partial=True, multi=True,
            options=("A", "B", "C", "D"), section="sec-cf-cone2d", minutes=10,
            title="What the planar friction cone allows",
        ),
        FunctionExercise(
            number="CF.4", name="scaled_pyramid", points=2, partial=True,
            validate=_valid(positives=("tol",)), section="sec-cf-pyramid", minutes=15,
            title="The best-scaled pyramid for a given accuracy",
            args=("tol",),
            public=[{"tol": 0.1}, {"tol": 0.01}],
            hidden=_hidden_scaled, rtol=1e-9, atol=0.0,
        ),
        ChoiceExercise(
            number="CF.5", name="contact_models", points=1.25, partial=True, multi=True,
            options=("A", "B", "C", "D", "E"), section="sec-cf-nonsmooth", minutes=8,
            title="Rigid, penalty and impulse contact",
        ),
        DesignExercise(
            number="CF.6", name="rod_implicit_step", points=4, partial=True, lib_forbidden=True,
            validate=_valid_rod, section="sec-cf-implicit", minutes=30,
            title="One contact-implicit step of a rod on a rough floor (without lib)",
            args=("q", "v", "mass", "l", "mu", "dt"),
            public=[
                {"q": [0.0, 0.5 * math.sin(0.6), 0.6], "v": [-1.5, -0.8, 0.0], "mass": 1.0, "l": 0.5,
                 "mu": 0.4, "dt": 0.01},
                {"q": [0.0, 0.5 * math.sin(0.9), 0.9], "v": [0.0, -0.5, 0.0], "mass": 2.0, "l": 0.5,
                 "mu": 0.8, "dt": 0.01},
            ],
            hidden=_hidden_rod, judge=_judge_rod,
        ),
        ExpressionExercise(
            number="CF.7", name="liftoff_depth", points=3, partial=False, lib_forbidden=True,
            validate=_valid_zeta, section="sec-cf-penalty", minutes=20,
            title="How deep a ball still is when a clipped spring-damper lets go (without lib)",
            symbols=("zeta",),
            public_points=[{"zeta": 0.1}, {"zeta": 0.3}],
            sample=_zeta_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.8", name="rebound_ratio", points=3, partial=True, lib_forbidden=True,
            validate=_valid_rebound, section="sec-cf-penalty", minutes=20,
            title="Debug a penalty-contact simulation (without lib)",
            args=("k", "zeta", "mass", "v0", "dt"),
            public=[{"k": 1e6, "zeta": 0.1, "mass": 1.0, "v0": 3.0, "dt": 1e-4},
                    {"k": 1e5, "zeta": 0.0, "mass": 0.5, "v0": 2.0, "dt": 2e-4}],
            hidden=_hidden_rebound, rtol=1e-6, atol=1e-12,
        ),
        DesignExercise(
            number="CF.9", name="penalty_design", points=3, partial=True,
            validate=_valid_design, section="sec-cf-penalty", minutes=25,
            title="Design a penalty contact for a penetration, a restitution and a step budget",
            args=("mass", "h0", "delta_limit", "dt_min", "e_lo", "e_hi"),
            public=[{"mass": 1.0, "h0": 1.0, "delta_limit": 2e-3, "dt_min": 2.2e-4, "e_lo": 0.55, "e_hi": 0.63},
                    {"mass": 0.4, "h0": 0.5, "delta_limit": 4e-3, "dt_min": 6e-4, "e_lo": 0.72, "e_hi": 0.8}],
            hidden=lambda rng: [_design_case(rng) for _ in range(2)],
            judge=_judge_penalty, timeout=60,
        ),
        ExpressionExercise(
            number="CF.10", name="zeno_distance", points=1, partial=False,
            validate=_valid_zeno, section="sec-cf-zeno", minutes=10,
            title="How far a Zeno ball travels",
            symbols=("h_0", "e"),
            public_points=[{"h_0": 1.5, "e": 0.7}, {"h_0": 1.0, "e": 0.5}],
            sample=_zeno_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.11", name="painleve_solutions", points=4, partial=True,
            validate=_valid_painleve, section="sec-cf-painleve", minutes=25,
            title="No, one or two contact forces: Painleve's rod",
            args=("theta", "thetadot", "mu", "l", "rho", "slide"),
            public=[{"theta": math.atan(2.0), "thetadot": 0.0, "mu": 1.6, "l": 0.5,
                     "rho": 0.5 / math.sqrt(3.0), "slide": -1},
                    {"theta": math.atan(2.0), "thetadot": 0.0, "mu": 1.6, "l": 0.5,
                     "rho": 0.5 / math.sqrt(3.0), "slide": 1}],
            hidden=_hidden_painleve, rtol=0.0, atol=0.0,
        ),
        ExpressionExercise(
            number="CF.12", name="painleve_mu_min", points=2, partial=False,
            validate=_valid(positives=("l", "rho")), section="sec-cf-painleve", minutes=15,
            title="The smallest friction coefficient of Painleve's paradox for any body",
            symbols=("l", "rho"),
            public_points=[{"l": 0.5, "rho": 0.5 / math.sqrt(3.0)}, {"l": 1.0, "rho": 0.5}],
            sample=_mu_min_point, n_hidden=4, rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="CF.13", name="max_press_force", points=3, partial=True, lib_forbidden=True,
            validate=_valid_press, section="sec-cf-fingertip", minutes=20,
            title="How hard the finger can press: the linear program (without lib)",
            args=("jacobian", "mu", "tau_max"),
            public=[
                {"jacobian": [[0.5, 0.5], [0.5, 0.0]], "mu": 0.5, "tau_max": 1.0},
                {"jacobian": [[0.5, 0.5], [0.5, 0.0]], "mu": 0.0, "tau_max": 1.0},
            ],
            hidden=_hidden_press, rtol=1e-6, atol=1e-9,
        ),
    ],
)
