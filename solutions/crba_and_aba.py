"""Reference answers for the 3.5 checkpoint exercises (exercises/crba_and_aba.md).

Plain numpy / scipy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers (several
exercises are graded without ``lib``, and these answers must not use it
either). Every name here is an exercise name in
``grader/chapters/crba_and_aba.py``.

Conventions: twists (omega, v), wrenches (m, f), every body quantity in the
body's own frame; ``placements[i]`` is body i's frame in its parent's at q_i = 0,
joint i turns body i by q_i about ``axes[i]`` (a vector of body i's frame).
Each function is self-contained (helpers nested): a notebook's function sees only
the names the notebook defines.
"""

import numpy as np
from scipy.integrate import quad
from scipy.optimize import brentq


# Exercise 3.5.1 -----------------------------------------------------------------
def inertia_rate(G, V):
    """G (6 x 6) of a body in a frame {0} that does not move, V the body's twist in
    {0}. G(t) = [Ad_{T^-1}]^T G_b [Ad_{T^-1}] with T = T_{0b}(t), and
    d/dt [Ad_{T^-1}] = -[Ad_{T^-1}][ad_V] (from dT/dt = [V] T), so
    dG/dt = -[ad_V]^T G - G [ad_V]: the force cross product of V applied to G, minus G
    followed by the motion cross product."""

    def skew(w):
        return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])

    G, V = np.asarray(G, dtype=float), np.asarray(V, dtype=float)
    ad = np.zeros((6, 6))
    ad[:3, :3], ad[3:, 3:], ad[3:, :3] = skew(V[:3]), skew(V[:3]), skew(V[3:])
    return -ad.T @ G - G @ ad


# Exercise 3.5.2 -----------------------------------------------------------------
def tree_crba(parents, placements, axes, inertias, q):
    """Composite inertias leaves to root (I^c_pa += X_i^T I^c_i X_i), then for each
    joint j the momentum F = I^c_j S_j of its subtree per unit rate, M_jj = S_j^T F,
    and carried to each ancestor i (F <- X^T F), M_ij = M_ji = S_i^T F. Entries of
    bodies on different branches stay zero."""
    def kinematics(placements, axes, q):
        """Motion subspaces S_i (6,) and adjoints X_i = [Ad_{T_{i, pa(i)}}]."""

        def skew(w):
            return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]],
                             [-w[1], w[0], 0.0]])

        S, X = [], []
        for i in range(len(q)):
            a = np.asarray(axes[i], dtype=float) / np.linalg.norm(axes[i])
            S.append(np.concatenate([a, np.zeros(3)]))
            K = skew(a)
            turn = np.eye(4)
            turn[:3, :3] = np.eye(3) + np.sin(q[i]) * K + (1.0 - np.cos(q[i])) * K @ K
            T = np.linalg.inv(np.asarray(placements[i], dtype=float) @ turn)  # T_{i,pa}
            R, p = T[:3, :3], T[:3, 3]
            out = np.zeros((6, 6))
            out[:3, :3], out[3:, 3:], out[3:, :3] = R, R, skew(p) @ R
            X.append(out)
        return S, X

    parents = [int(p) for p in parents]
    n = len(parents)
    S, X = kinematics(placements, axes, q)
    Ic = [np.array(G, dtype=float) for G in inertias]
    for i in range(n - 1, -1, -1):
        if parents[i] >= 0:
            Ic[parents[i]] = Ic[parents[i]] + X[i].T @ Ic[i] @ X[i]
    M = np.zeros((n, n))
    for j in range(n):
        F = Ic[j] @ S[j]
        M[j, j] = S[j] @ F
        i = j
        while parents[i] >= 0:
            F = X[i].T @ F
            i = parents[i]
            M[i, j] = M[j, i] = S[i] @ F
    return M


# Exercise 3.5.3 -----------------------------------------------------------------
def articulated_inertias(parents, placements, axes, inertias, q, locked):
    """Leaves to root: body i's inertia starts at G_i; a child c whose joint turns
    freely hands its parent X_c^T (G^A_c - U U^T / D) X_c (U = G^A_c S_c, D = S_c^T U:
    its joint's direction projected out), a braked child X_c^T G^A_c X_c (welded, as
    in the CRBA). All free: the ABA's articulated inertias; all braked: the composite
    inertias. Returns (n, 6, 6), each in {i}."""
    def kinematics(placements, axes, q):
        """Motion subspaces S_i (6,) and adjoints X_i = [Ad_{T_{i, pa(i)}}]."""

        def skew(w):
            return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]],
                             [-w[1], w[0], 0.0]])

        S, X = [], []
        for i in range(len(q)):
            a = np.asarray(axes[i], dtype=float) / np.linalg.norm(axes[i])
            S.append(np.concatenate([a, np.zeros(3)]))
            K = skew(a)
            turn = np.eye(4)
            turn[:3, :3] = np.eye(3) + np.sin(q[i]) * K + (1.0 - np.cos(q[i])) * K @ K
            T = np.linalg.inv(np.asarray(placements[i], dtype=float) @ turn)  # T_{i,pa}
            R, p = T[:3, :3], T[:3, 3]
            out = np.zeros((6, 6))
            out[:3, :3], out[3:, 3:], out[3:, :3] = R, R, skew(p) @ R
            X.append(out)
        return S, X

    parents = [int(p) for p in parents]
    n = len(parents)
    S, X = kinematics(placements, axes, q)
    IA = [np.array(G, dtype=float) for G in inertias]
    for i in range(n - 1, -1, -1):
        if parents[i] >= 0:
            share = IA[i]
            if not locked[i]:
                U = IA[i] @ S[i]
                share = IA[i] - np.outer(U, U) / (S[i] @ U)
            IA[parents[i]] = IA[parents[i]] + X[i].T @ share @ X[i]
    return np.array(IA)


# Exercise 3.5.4 -----------------------------------------------------------------
def aba_fixed(parents, placements, axes, inertias, q, qd, tau, gravity):
    """The given routine with its two mistakes fixed: the bias force of a body starts
    at V x* G V = -[ad_V]^T G V (the force cross product), not +[ad_V]^T G V; and the
    parent receives the articulated inertia with the joint's direction projected out,
    I^A - U D^-1 U^T, not I^A + U D^-1 U^T."""

    def skew(w):
        return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])

    def adjoint(T):
        R, p = T[:3, :3], T[:3, 3]
        out = np.zeros((6, 6))
        out[:3, :3], out[3:, 3:], out[3:, :3] = R, R, skew(p) @ R
        return out

    def ad(V):
        out = np.zeros((6, 6))
        out[:3, :3], out[3:, 3:], out[3:, :3] = skew(V[:3]), skew(V[:3]), skew(V[3:])
        return out

    parents = [int(p) for p in parents]
    n = len(parents)
    S, X = [], []
    V, c = np.zeros((n, 6)), np.zeros((n, 6))
    IA, pA = [], np.zeros((n, 6))
    for i in range(n):
        a = np.asarray(axes[i], dtype=float) / np.linalg.norm(axes[i])
        S.append(np.concatenate([a, np.zeros(3)]))
        K = skew(a)
        turn = np.eye(4)
        turn[:3, :3] = np.eye(3) + np.sin(q[i]) * K + (1.0 - np.cos(q[i])) * K @ K
        X.append(adjoint(np.linalg.inv(np.asarray(placements[i], dtype=float) @ turn)))
        V_parent = np.zeros(6) if parents[i] < 0 else V[parents[i]]
        V[i] = X[i] @ V_parent + S[i] * qd[i]
        c[i] = ad(V[i]) @ S[i] * qd[i]
        G = np.asarray(inertias[i], dtype=float)
        IA.append(G.copy())
        pA[i] = -ad(V[i]).T @ G @ V[i]
    U, D, u = np.zeros((n, 6)), np.zeros(n), np.zeros(n)
    for i in range(n - 1, -1, -1):
        U[i] = IA[i] @ S[i]
        D[i] = S[i] @ U[i]
        u[i] = tau[i] - S[i] @ pA[i]
        if parents[i] >= 0:
            Ia = IA[i] - np.outer(U[i], U[i]) / D[i]
            pa = pA[i] + Ia @ c[i] + U[i] * u[i] / D[i]
            IA[parents[i]] = IA[parents[i]] + X[i].T @ Ia @ X[i]
            pA[parents[i]] = pA[parents[i]] + X[i].T @ pa
    qdd, A = np.zeros(n), np.zeros((n, 6))
    base = np.concatenate([np.zeros(3), -np.asarray(gravity, dtype=float)])
    for i in range(n):
        A_parent = base if parents[i] < 0 else A[parents[i]]
        A_i = X[i] @ A_parent + c[i]
        qdd[i] = (u[i] - U[i] @ A_i) / D[i]
        A[i] = A_i + S[i] * qdd[i]
    return qdd


# Exercise 3.5.5 -----------------------------------------------------------------
#: A: O(n) against O(n^2) + O(n^3) for a chain (true); B: the CRBA never computes the
#: entries of bodies on different branches, O(n d) (false); C: an order of growth says
#: nothing about small n: implementations that keep composite inertias in their
#: ten-number form need fewer operations on short chains (false); D: h and the factor
#: depend on (q, qd) only, each further tau costs two triangular solves (true); E: the
#: ABA's qdd is exact, velocity terms included in its bias forces (false); F: D_i is
#: the inertia of joint i with its subtree's joints free, M_ii with them locked, and
#: freeing joints never adds inertia (true)
forward_dynamics_facts = {"A", "D", "F"}


# Exercise 3.5.6 -----------------------------------------------------------------
def max_arm_mass(m_b, I_b, r, l, q0, q1, theta_max):
    """The base turns more the heavier the rod (from 0 towards -(q1 - q0)); the
    largest rod mass whose swing turns the base by theta_max, by bisection (brentq).

    The base's turn for a rod of mass m_a: zero angular momentum about the system's
    centre of mass, k = I_b w + I_a (w + qd) + mu (d x dd/dt) with the rod's I_a =
    m_a l^2 / 12 about its centre, the reduced mass mu = m_b m_a / (m_b + m_a) and d
    the vector from the base's centre of mass to the rod's, rho(q) = (r + l cos q / 2,
    l sin q / 2) in the base frame: w / qd = -(I_a + mu (rho x rho')) / (I_b + I_a +
    mu |rho|^2), a function of q alone, so the turn is its integral over the swing
    (the same however fast the arm moves)."""

    def base_turn(m_a):
        I_a = m_a * l**2 / 12.0
        mu = m_b * m_a / (m_b + m_a)

        def rate(q):
            cross = 0.5 * l * r * np.cos(q) + 0.25 * l**2  # rho x d rho / dq
            square = r**2 + l * r * np.cos(q) + 0.25 * l**2  # |rho|^2
            return -(I_a + mu * cross) / (I_b + I_a + mu * square)

        return quad(rate, q0, q1, epsabs=1e-13, epsrel=1e-12)[0]

    def excess(m_a):
        return abs(base_turn(m_a)) - theta_max

    hi = m_b
    while excess(hi) < 0.0:
        hi *= 2.0
    return brentq(excess, 1e-9 * m_b, hi, xtol=1e-14 * m_b, rtol=1e-13)
