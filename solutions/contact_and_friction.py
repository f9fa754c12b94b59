"""Reference answers for the contact-and-friction exercises (exercises/contact_and_friction.md).

Plain numpy / sympy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers (the tests compare
these answers with ``lib``). Every name here is an exercise name in
``grader/chapters/contact_and_friction.py``. SI units; angles in degrees where
the exercise says so.
"""

import itertools

import numpy as np
import sympy as sp

ZERO = 1e-12


# Exercise CF.1 --------------------------------------------------------------
def critical_angle_deg(mu_s, mass):
    """tan(alpha) <= mu_s: the critical tilt arctan(mu_s) in degrees; the mass cancels."""
    return float(np.degrees(np.arctan(mu_s)))


# Exercise CF.2 --------------------------------------------------------------
def slip_friction(f_n, mu, f_t):
    """[friction supplied, unbalanced remainder] along the tangent, N."""
    ceiling = mu * f_n
    supplied = f_t if abs(f_t) <= ceiling else np.sign(f_t) * ceiling
    return np.array([supplied, f_t - supplied], dtype=float)


# Exercise CF.3 --------------------------------------------------------------
def pyramid_errors(k):
    """[1 - cos(pi/k), 1/cos(pi/k) - 1]: inscribed under-, circumscribed overestimate."""
    c = np.cos(np.pi / k)
    return np.array([1.0 - c, 1.0 / c - 1.0])


# Exercise CF.4 --------------------------------------------------------------
def max_stable_step(k, mass):
    """Semi-implicit Euler on a penalty contact: omega dt < 2, dt < 2 sqrt(m / k)."""
    return float(2.0 * np.sqrt(mass / k))


# Exercise CF.5 --------------------------------------------------------------
def complementarity_allowed(gap, force):
    """0 <= force  perp  gap >= 0 (values within 1e-12 of zero count as zero)."""
    if gap < -ZERO or force < -ZERO:
        return False
    return not (gap > ZERO and force > ZERO)


# Exercise CF.6 --------------------------------------------------------------
def ramp_sticks(alpha, mu_s, mass, push, beta, g=9.81):
    """|F cos b - m g sin a| <= mu_s (m g cos a - F sin b) and m g cos a - F sin b > 0."""
    normal = mass * g * np.cos(alpha) - push * np.sin(beta)
    demand = push * np.cos(beta) - mass * g * np.sin(alpha)
    return bool(normal > 0.0 and abs(demand) <= mu_s * normal)


# Exercise CF.7 --------------------------------------------------------------
def supplied_force(f_t, f_n, mu):
    """The force the surface supplies, (f_t, f_n): zero, the demand, or the cone edge."""
    if f_n < 0.0:
        return np.zeros(2)
    if abs(f_t) <= mu * f_n:
        return np.array([f_t, f_n], dtype=float)
    return np.array([np.sign(f_t) * mu * f_n, f_n], dtype=float)


# Exercise CF.8 --------------------------------------------------------------
def min_edges(tol):
    """Smallest k >= 3 with both worst pyramid errors below tol."""
    k = 3
    while max(pyramid_errors(k)) >= tol:
        k += 1
    return k


# Exercise CF.9 --------------------------------------------------------------
def zeno_rest_time(h0, e, g):
    """t0 (1 + e) / (1 - e) with t0 = sqrt(2 h0 / g)."""
    t0 = np.sqrt(2.0 * h0 / g)
    return float(t0 * (1.0 + e) / (1.0 - e))


_zeta = sp.Symbol("zeta", positive=True)
restitution_expr = sp.exp(-sp.pi * _zeta / sp.sqrt(1 - _zeta**2))


# Exercise CF.10 -------------------------------------------------------------
def max_press_force(jacobian, mu, tau_max):
    """max f_n over {f_n >= 0, |f_t| <= mu f_n, |(J^T f)_i| <= tau_max}, by vertex enumeration."""
    jac = np.asarray(jacobian, dtype=float)
    rows = [np.array([1.0, -mu]), np.array([-1.0, -mu]), np.array([0.0, -1.0]),
            jac[:, 0], -jac[:, 0], jac[:, 1], -jac[:, 1]]
    bounds = [0.0, 0.0, 0.0, tau_max, tau_max, tau_max, tau_max]
    a, b = np.array(rows), np.array(bounds)
    best = 0.0
    for i, j in itertools.combinations(range(len(rows)), 2):
        m = np.array([rows[i], rows[j]])
        if abs(np.linalg.det(m)) < 1e-12:
            continue
        p = np.linalg.solve(m, [bounds[i], bounds[j]])
        if np.all(a @ p <= b + 1e-9 * max(1.0, tau_max)):
            best = max(best, float(p[1]))
    return best
