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
