"""Reference answers for the 3.12 checkpoint exercises (exercises/contact_and_impact.md).

Plain numpy / scipy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers (only the
Hunt-Crossley design simulates its first guess with ``lib``, as its judge does). Every name
here is an exercise name in ``grader/chapters/contact_and_impact.py``.

Conventions: generalized velocities v; contact normals point out of the
obstacle (a positive normal velocity separates); SI units.
"""

import numpy as np
from scipy.optimize import brentq, nnls
from scipy.special import gamma


# Exercise 3.12.1 ------------------------------------------------------------
# Graded without lib: this reference does not use it either.
def contact_lcp_step(M, N, D, mu, phi, v_star, h):
    """z = (c_n, c_t, eta) solving 0 <= z perp B z + b >= 0 for one contact (sec-ci-timestepping).

    B and b as in eq-ci-contact-lcp; solved by enumerating the complementary
    bases (2^(2 + n_d) of them: fine for one contact), least squares on each
    (the D M^-1 D^T block is singular when D holds opposite directions).
    """
    M = np.asarray(M, dtype=float)
    N = np.atleast_2d(np.asarray(N, dtype=float))
    D = np.atleast_2d(np.asarray(D, dtype=float))
    v_star = np.asarray(v_star, dtype=float)
    n_d = D.shape[0]
    G = np.vstack([N, D])
    W = G @ np.linalg.solve(M, G.T)
    size = 2 + n_d
    B = np.zeros((size, size))
    B[: 1 + n_d, : 1 + n_d] = W
    B[1: 1 + n_d, -1] = 1.0
    B[-1, 0] = mu
    B[-1, 1: 1 + n_d] = -1.0
    b = np.concatenate([N @ v_star + phi / h, D @ v_star, [0.0]])
    scale = max(1.0, float(np.max(np.abs(b))))
    best = None
    for mask in range(1 << size):
        S = [i for i in range(size) if mask >> i & 1]
        z = np.zeros(size)
        if S:
            z[S] = np.linalg.lstsq(B[np.ix_(S, S)], -b[S], rcond=None)[0]
        w = B @ z + b
        err = max(float(np.max(np.maximum(-z, 0.0))), float(np.max(np.maximum(-w, 0.0))),
                  float(np.max(np.abs(z * w))))
        if best is None or err < best[0]:
            best = (err, z)
        if err <= 1e-12 * scale:
            return z
    return best[1]


# Exercise 3.12.2 -----------------------------------------------------------
def ramp_slide(theta, mu, v0, h, n_steps):
    """Speed down the ramp after n_steps of the time-stepping LCP, started sliding down at v0 >= 0.

    For v0 >= 0 the implicit step reproduces the closed form at every step:
    v = v0 + g (sin - mu cos) t when tan(theta) > mu, max(0, v0 - g (mu cos - sin) t) otherwise.
    """
    g = 9.81
    a = g * (np.sin(theta) - mu * np.cos(theta))
    t = n_steps * h
    return float(v0 + a * t) if a > 0 else float(max(0.0, v0 + a * t))


# Exercise 3.12.3 ------------------------------------------------------------
def frictionless_contact_velocity(M, N, v_star):
    """v+ = v* + M^-1 N^T c with c solving the frictionless contact LCP (gaps zero).

    The LCP is the optimality condition of min_{c >= 0} |L^-1 N^T c + L^T v*|^2 with
    M = L L^T (a non-negative least-squares problem); v+ is unique even when c is not.
    Graded without lib: this reference does not use it either.
    """
    M = np.asarray(M, dtype=float)
    N = np.atleast_2d(np.asarray(N, dtype=float))
    v_star = np.asarray(v_star, dtype=float)
    L = np.linalg.cholesky(M)
    c, _ = nnls(np.linalg.solve(L, N.T), -L.T @ v_star, maxiter=100 * N.shape[0])
    return v_star + np.linalg.solve(M, N.T @ c)


# Exercise 3.12.4 ------------------------------------------------------------
lcp_facts = {"A", "C", "E"}


# Exercise 3.12.5 ------------------------------------------------------------
def mujoco_soft_contact(mass, g, timeconst, dampratio, xi):
    """[rest penetration (m), natural frequency (rad/s), damping ratio] of one frictionless
    MuJoCo contact with constant impedance xi and R = (1 - xi) / xi * A (sec-ci-convex).

    The unconstrained minimiser of 1/2 (A + R) f^2 + f (a_u - a_ref) is f = (a_ref - a_u) / (A + R);
    with A + R = A / xi the constraint acceleration is a = a_u + A f = xi a_ref + (1 - xi) a_u.
    With a_ref = -b r' - k r, b = 2 / (xi timeconst), k = 1 / (xi timeconst^2 dampratio^2):
    r'' + (2 / timeconst) r' + r / (timeconst dampratio)^2 = (1 - xi) a_u, a_u = -g at rest.
    The mass drops out.
    """
    omega = 1.0 / (timeconst * dampratio)
    return np.array([(1.0 - xi) * g / omega**2, omega, dampratio])


# Exercise 3.12.6 ------------------------------------------------------------
def poisson_friction_impact(W, u_minus, mu, e):
    """[c_t, c_n, K- - K+] of Poisson's law and Newton's c_n, both along Routh's impulse path.

    The normal impulse p is the parameter. While the contact slides with sign s,
    dc_t = -mu s dp; once u_t = 0 it sticks (|W_tn| < mu W_tt), dc_t = -(W_tn / W_tt) dp.
    u_n(p) is piecewise linear; compression ends at u_n = 0 (p_c). Poisson: p = (1 + e) p_c;
    Newton: u_n = -e u_n^-.
    """
    W = np.asarray(W, dtype=float)
    u = np.asarray(u_minus, dtype=float)
    s = np.sign(u[0])
    W_tt, W_tn, W_nn = W[0, 0], W[0, 1], W[1, 1]
    a_slide = W_nn - mu * s * W_tn              # du_n / dp while sliding
    a_stick = W_nn - W_tn**2 / W_tt             # du_n / dp while sticking
    p_stop = abs(u[0]) / (mu * W_tt - s * W_tn)  # slip stops here
    u_n_stop = u[1] + a_slide * p_stop

    def p_at(u_n_target):
        if u_n_target <= u_n_stop:
            return (u_n_target - u[1]) / a_slide
        return p_stop + (u_n_target - u_n_stop) / a_stick

    def c_t(p):
        return -mu * s * min(p, p_stop) - W_tn / W_tt * max(p - p_stop, 0.0)

    p_poisson = (1.0 + e) * p_at(0.0)
    P = np.array([c_t(p_poisson), p_poisson])
    loss = -(u @ P + 0.5 * P @ W @ P)
    return np.array([P[0], P[1], loss, p_at(-e * u[1])])


# Exercise 3.12.7 ------------------------------------------------------------
def hertz_step_limit(youngs, nu, radius1, radius2, density, v0):
    """[explicit step limit (s), contact time (s)] of two balls of one material colliding
    head-on at the relative speed v0 (sec-ci-hertz).

    Both deform: 1/E* = 2 (1 - nu^2) / E, 1/R* = 1/R1 + 1/R2. The gap delta = x1 - x2
    obeys m* delta'' = -k delta^1.5 with the reduced mass m* = m1 m2 / (m1 + m2), so
    delta_max and T_c are the plane's formulas with m*. The linearised two-mass system
    [m1 0; 0 m2] x'' = -k_eff [1 -1; -1 1] x has the one nonzero frequency
    omega^2 = k_eff (1/m1 + 1/m2) = k_eff / m*, and the explicit limit is 2 / omega.
    """
    E_star = youngs / (2.0 * (1.0 - nu**2))
    R_star = radius1 * radius2 / (radius1 + radius2)
    k = 4.0 / 3.0 * E_star * np.sqrt(R_star)
    m1, m2 = (density * 4.0 / 3.0 * np.pi * r**3 for r in (radius1, radius2))
    m_star = m1 * m2 / (m1 + m2)
    delta_max = (5.0 * m_star * v0**2 / (4.0 * k)) ** 0.4
    omega = np.sqrt(1.5 * k * np.sqrt(delta_max) / m_star)
    c_T = 0.8 * gamma(0.4) * gamma(0.5) / gamma(0.9)
    return np.array([2.0 / omega, c_T * delta_max / v0])


# Exercise 3.12.8 ------------------------------------------------------------
def _hunt_crossley_restitution(alpha, v0):
    """Exact restitution of F = k delta^1.5 (1 + 1.5 alpha delta'): in the phase plane
    m v dv / (1 + b v) = -k delta^1.5 d delta with b = 1.5 alpha, so
    G(v) = b v - ln(1 + b v) takes the same value at v0 and at -e v0."""
    x = 1.5 * alpha * v0
    g0 = x - np.log1p(x)
    y = brentq(lambda y_: -y_ - np.log1p(-y_) - g0, 0.0, x, xtol=1e-15, rtol=1e-15)
    return y / x


hunt_crossley_speed = (
    f"{brentq(lambda v: _hunt_crossley_restitution(0.25, v) - 0.9, 0.01, 2.0, xtol=1e-14):.6g} m/s")


# Exercise 3.12.9 ------------------------------------------------------------
def hunt_crossley_design(mass, v0, delta_limit, e_lo, e_hi):
    """[k, alpha]: Hertz peak penetration at 0.8 of the limit; alpha from e ~ 1 - alpha v0, corrected once.

    The correction uses the simulated restitution of the first guess (1 - e grows
    about in proportion to alpha); the judge simulates the design again.
    """
    from lib.soft_contact import simulate_hunt_crossley_impact

    def restitution(k, alpha):
        return simulate_hunt_crossley_impact(mass, v0, k, alpha).restitution

    k = 1.25 * mass * v0**2 / (0.8 * delta_limit) ** 2.5
    e_mid = 0.5 * (e_lo + e_hi)
    alpha = (1.0 - e_mid) / v0
    e_first = restitution(k, alpha)
    alpha *= (1.0 - e_mid) / (1.0 - e_first)
    return np.array([k, alpha])


# Exercise 3.12.10 -----------------------------------------------------------
def hydro_cylinder_force(E_h, R, length, delta):
    """Force (N) of a long compliant cylinder (field p = E_h (1 - r/R), r from the axis)
    pressed delta into a rigid plane parallel to its axis, ends ignored (sec-ci-hydro).

    The patch is the strip |x| <= a, a = sqrt(2 R delta - delta^2), where
    r = sqrt(c^2 + x^2), c = R - delta; with int sqrt(c^2 + x^2) dx =
    (x r + c^2 asinh(x / c)) / 2 and r(a) = R:
    F = length E_h (a - c^2 / R asinh(a / c)); length E_h R at delta = R.
    """
    c = R - delta
    a = np.sqrt(max(2.0 * R * delta - delta**2, 0.0))
    if c <= 0.0:
        return float(length * E_h * R)
    return float(length * E_h * (a - c**2 / R * np.arcsinh(a / c)))


# Exercise 3.12.11 -----------------------------------------------------------
# A: C + U under the default model falls back to a point contact; B: C + U raises under
# strict kHydroelastic; C: R + R falls back to a point contact; D: a compliant convex mesh
# and a compliant half-space form no patch; E: a filtered pair gets no contact at all;
# F: C + R gives a patch in both hydroelastic models.
drake_pairs = {"B", "C", "F"}
