"""Reference answers for the 3.3 checkpoint exercises (exercises/lagrange_formulation.md).

Plain numpy / sympy, written independently of ``lib`` (several exercises are
graded without ``lib``, and their answers must not use it). Every name here
is an exercise name in ``grader/chapters/lagrange_formulation.py``. Gravity is
9.81 m/s^2 (the book's ``lib.common.GRAVITY``), typed here so that this module
does not import ``lib``.
"""

import numpy as np
import sympy as sp

_G = 9.81

# Exercise 3.3.1 --------------------------------------------------------------
# Polar (RP) arm in a horizontal plane: joint 1 turns about the vertical axis by
# q1, joint 2 slides along the arm; q2 is the distance from the vertical axis to
# link 2's centre of mass.
q1, q2, qd1, qd2 = sp.symbols("q1 q2 qd1 qd2")
m1, m2, r1, I1, I2 = sp.symbols("m1 m2 r1 I1 I2")


def _rp_mass_matrix():
    """K = (I1 + m1 r1^2) qd1^2 / 2 + I2 qd1^2 / 2 + m2 (qd2^2 + q2^2 qd1^2) / 2."""
    qd = sp.Matrix([qd1, qd2])
    com2 = sp.Matrix([q2 * sp.cos(q1), q2 * sp.sin(q1)])
    v2 = com2.jacobian([q1, q2]) * qd
    K = (I1 + m1 * r1**2) * qd1**2 / 2 + I2 * qd1**2 / 2 + m2 * (v2.T * v2)[0] / 2
    K = sp.expand(sp.simplify(K))
    return sp.hessian(K, (qd1, qd2)).applyfunc(sp.simplify)


rp_arm_mass_matrix = _rp_mass_matrix()


# Exercise 3.3.2 --------------------------------------------------------------
def _christoffel(M, q, qd):
    n = len(q)
    C = sp.zeros(n, n)
    for i in range(n):
        for j in range(n):
            C[i, j] = sum(
                sp.Rational(1, 2)
                * (M[i, j].diff(q[k]) + M[i, k].diff(q[j]) - M[j, k].diff(q[i]))
                * qd[k]
                for k in range(n)
            )
    return C.applyfunc(sp.simplify)


rp_arm_coriolis = _christoffel(rp_arm_mass_matrix, (q1, q2), (qd1, qd2))


# Exercise 3.3.3 --------------------------------------------------------------
def cart_pendulum_tau(q, qd, qdd, m_cart, m, r, I):
    """Cart at x (force along x), pendulum angle theta from the downward vertical.

    Centre of mass of the pendulum (x + r sin th, -r cos th); K and U give
    M = [[m_cart + m, m r cos th], [m r cos th, I + m r^2]],
    C qd = (-m r sin th thd^2, 0), g = (0, m g r sin th).
    """
    x, th = q
    xd, thd = qd
    c, s = np.cos(th), np.sin(th)
    M = np.array([[m_cart + m, m * r * c], [m * r * c, I + m * r**2]])
    h = np.array([-m * r * s * thd**2, m * _G * r * s])
    return M @ np.asarray(qdd, float) + h


# Exercise 3.3.4 --------------------------------------------------------------
def pan_tilt_tau(q, qd, qdd, J1, m2, l, d):
    """Yaw joint q1 (turret inertia J1 about the vertical axis), elevation q2 of a uniform
    rod (mass m2, length l) whose pivot sits d from the yaw axis along the pivot's axis.

    a = m2 l^2 / 3, b = m2 d l / 2:
    M = [[J1 + m2 d^2 + a cos^2 q2, b sin q2], [b sin q2, a]],
    c_112 = c_121 = -a s c, c_211 = a s c, c_122 = b cos q2,
    g = (0, m2 g l cos q2 / 2).
    """
    _, e = q
    qd1_, qd2_ = qd
    c, s = np.cos(e), np.sin(e)
    a, b = m2 * l**2 / 3, m2 * d * l / 2
    M = np.array([[J1 + m2 * d**2 + a * c**2, b * s], [b * s, a]])
    coriolis = np.array([-2 * a * s * c * qd1_ * qd2_ + b * c * qd2_**2, a * s * c * qd1_**2])
    gravity = np.array([0.0, m2 * _G * l * c / 2])
    return M @ np.asarray(qdd, float) + coriolis + gravity


# Exercise 3.3.5 --------------------------------------------------------------
def fixed_coriolis(dM, qd):
    """C_ij = sum_k c_ijk qd_k, c_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2;
    dM[k] = dM/dq_k."""
    dM = np.asarray(dM, float)
    qd = np.asarray(qd, float)
    n = qd.size
    C = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            for k in range(n):
                C[i, j] += 0.5 * (dM[k, i, j] + dM[j, i, k] - dM[i, j, k]) * qd[k]
    return C


# Exercise 3.3.6 --------------------------------------------------------------
# A true (twists linear in qd); B true (only C qd enters the equations);
# C false (only the Christoffel choice, among others); D true (U depends on
# masses and centres of mass only); E false (rotating the whole arm about the
# first joint's axis changes no energy: M never depends on q1); F false (the
# shared expressions still grow faster than n).
lagrange_facts = {"A", "B", "D"}


# Exercise 3.3.7 --------------------------------------------------------------
def decoupled_arm(lengths, masses, d_max, m_budget, inertia_max):
    """Balance both links with point counterweights behind their joints.

    M is constant (so C = 0) exactly when link 2 with its counterweight has its
    centre of mass at the elbow: mc2 d2 = m2 l2 / 2 (the l1 m2 r2 cos q2 terms
    vanish); then M11 does not depend on q2:
    M11 = m1 l1^2/3 + mc1 d1^2 + (m2 + mc2) l1^2 + m2 l2^2/3 + mc2 d2^2.
    Link 1: mc1 d1 = m1 l1 / 2 + (m2 + mc2) l1. With mc d fixed, mc d^2 = (mc d) d:
    the farther d2 the lighter both counterweights and (for d2 < l1) the smaller
    M11, so d2 = d_max; d1 trades mass (A / d1) against inertia (A d1): take the
    middle of the feasible interval of d1.
    """
    l1, l2 = np.asarray(lengths, float)
    mm1, mm2 = np.asarray(masses, float)
    d2 = float(d_max)
    mc2 = mm2 * l2 / (2 * d2)
    A = mm1 * l1 / 2 + (mm2 + mc2) * l1
    rest = mm1 * l1**2 / 3 + (mm2 + mc2) * l1**2 + mm2 * l2**2 / 3 + mc2 * d2**2
    d_lo = A / (m_budget - mc2) if m_budget > mc2 else np.inf  # mass budget
    d_hi = min((inertia_max - rest) / A, d_max)  # inertia limit
    d1 = 0.5 * (d_lo + d_hi) if d_lo <= d_hi else d_max
    return np.array([A / d1, d1, mc2, d2])
