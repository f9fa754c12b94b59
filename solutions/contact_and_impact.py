"""Reference answers for the 3.12 checkpoint exercises (exercises/contact_and_impact.md).

Plain numpy / scipy / sympy, written independently of ``lib`` so that a change
in a ``lib`` routine cannot silently change the expected answers. Every name
here is an exercise name in ``grader/chapters/contact_and_impact.py``.

Conventions: generalized velocities v; contact normals point out of the
obstacle (a positive normal velocity separates); SI units.
"""

import numpy as np
import sympy as sp
from scipy.optimize import nnls
from scipy.special import gamma


# Exercise 3.12.1 ------------------------------------------------------------
def newton_impulse(M, n_row, v_minus, e):
    """[impulse c = (1 + e) Lambda_n s, energy loss (1 - e^2) Lambda_n s^2 / 2] for s = -N v- > 0."""
    M = np.asarray(M, dtype=float)
    n_row = np.asarray(n_row, dtype=float)
    lam = 1.0 / (n_row @ np.linalg.solve(M, n_row))
    s = -float(n_row @ np.asarray(v_minus, dtype=float))
    return np.array([(1.0 + e) * lam * s, 0.5 * (1.0 - e * e) * lam * s * s])


# Exercise 3.12.2 ------------------------------------------------------------
def pyramid_threshold(psi, m_d):
    """[capacity / (mu f_n) of the inscribed m_d-pyramid along psi, |psi - psi_mid| (rad)]."""
    width = 2.0 * np.pi / m_d
    k = np.floor(psi / width)
    psi_mid = (k + 0.5) * width          # midpoint of the edge between vertices k and k + 1
    offset = psi - psi_mid
    return np.array([np.cos(np.pi / m_d) / np.cos(offset), abs(offset)])


# Exercise 3.12.3 ------------------------------------------------------------
def frictionless_contact_velocity(M, N, v_star):
    """v+ = v* + M^-1 N^T c with c solving the frictionless contact LCP (gaps zero).

    The LCP is the optimality condition of min_{c >= 0} |L^-1 N^T c + L^T v*|^2 with
    M = L L^T (a non-negative least-squares problem); v+ is unique even when c is not.
    """
    M = np.asarray(M, dtype=float)
    N = np.atleast_2d(np.asarray(N, dtype=float))
    v_star = np.asarray(v_star, dtype=float)
    L = np.linalg.cholesky(M)
    c, _ = nnls(np.linalg.solve(L, N.T), -L.T @ v_star, maxiter=100 * N.shape[0])
    return v_star + np.linalg.solve(M, N.T @ c)


# Exercise 3.12.4 ------------------------------------------------------------
k, m, v_0 = sp.symbols("k m v_0")
hertz_delta_max = (sp.Rational(5, 4) * m * v_0**2 / k) ** sp.Rational(2, 5)


# Exercise 3.12.5 ------------------------------------------------------------
def hertz_contact_time(mass, v0, k):
    """T_c = c_T delta_max / v0, c_T = (4/5) B(2/5, 1/2) = 4 Gamma(2/5) Gamma(1/2) / (5 Gamma(9/10))."""
    c_T = 0.8 * gamma(0.4) * gamma(0.5) / gamma(0.9)
    delta_max = (5.0 * mass * v0**2 / (4.0 * k)) ** 0.4
    return c_T * delta_max / v0


# Exercise 3.12.6 ------------------------------------------------------------
def kelvin_voigt_artefacts(k, c, mass, v0):
    """[force right after first touch c v0, restitution e, force at release -c e v0] (tension allowed)."""
    zeta = c / (2.0 * np.sqrt(k * mass))
    e = np.exp(-np.pi * zeta / np.sqrt(1.0 - zeta**2))
    return np.array([c * v0, e, -c * e * v0])


# Exercise 3.12.7 ------------------------------------------------------------
E_h, R, delta = sp.symbols("E_h R delta")
hydro_force_expr = sp.pi * E_h * delta**2 * (1 - 2 * delta / (3 * R))


# Exercise 3.12.8 ------------------------------------------------------------
hydro_patch_radius = sp.sqrt(2 * R * delta - delta**2)


# Exercise 3.12.9 ------------------------------------------------------------
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


# Exercise 3.12.10 -----------------------------------------------------------
def ramp_slide(theta, mu, v0, h, n_steps):
    """Speed down the ramp after n_steps of the time-stepping LCP, started sliding down at v0 >= 0.

    For v0 >= 0 the implicit step reproduces the closed form at every step:
    v = v0 + g (sin - mu cos) t when tan(theta) > mu, max(0, v0 - g (mu cos - sin) t) otherwise.
    """
    g = 9.81
    a = g * (np.sin(theta) - mu * np.cos(theta))
    t = n_steps * h
    return float(v0 + a * t) if a > 0 else float(max(0.0, v0 + a * t))


# Exercise 3.12.11 -----------------------------------------------------------
lcp_facts = {"A", "C", "E"}


# Exercise 3.12.12 -----------------------------------------------------------
hunt_crossley_speed = "0.4 m/s"


# Exercise 3.12.13 -----------------------------------------------------------
def hunt_crossley_design(mass, v0, delta_limit, e_lo, e_hi):
    """[k, alpha]: Hertz peak penetration at 0.8 of the limit; alpha from e ~ 1 - alpha v0, corrected once.

    The correction uses the simulated restitution of the first guess (1 - e grows
    about in proportion to alpha); the judge simulates the design again.
    """
    from lib.soft_contact import hunt_crossley_force, simulate_collision

    def restitution(k, alpha):
        dt = 3.3 * (1.25 * mass * v0**2 / k) ** 0.4 / v0 / 200
        return simulate_collision(lambda x, xd: hunt_crossley_force(k, alpha, x, xd), mass, v0, dt).restitution

    k = 1.25 * mass * v0**2 / (0.8 * delta_limit) ** 2.5
    e_mid = 0.5 * (e_lo + e_hi)
    alpha = (1.0 - e_mid) / v0
    e_first = restitution(k, alpha)
    alpha *= (1.0 - e_mid) / (1.0 - e_first)
    return np.array([k, alpha])
