"""Reference answers for the 3.2 checkpoint exercises (exercises/recursive_newton_euler.md).

Plain numpy / sympy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers (several
exercises are graded without ``lib``, and these answers must not use it
either). Every name here is an exercise name in
``grader/chapters/recursive_newton_euler.py``.

Conventions: twists (omega, v), wrenches (m, f), every body quantity in the
body's own frame; ``placements[i]`` is body i's frame in its parent's at q_i = 0,
joint i turns body i by q_i about ``axes[i]`` (a vector of body i's frame).
"""

import numpy as np
import sympy as sp

# Exercise 3.2.1 -----------------------------------------------------------------
def tree_rnea(parents, placements, axes, inertias, q, qd, qdd, gravity):
    """Forward pass (twists, accelerations from the ground's (0, -gravity)), backward
    pass (wrenches, each child's carried into its parent by [Ad_{T_{c,i}}]^T), tau_i =
    S_i^T F_i. Self-contained (helpers nested): a notebook's function sees only the
    names the notebook defines."""

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
    S, X = [], []  # motion subspaces; [Ad_{T_{i, parent}}]
    V, A, F = np.zeros((n, 6)), np.zeros((n, 6)), np.zeros((n, 6))
    base = np.concatenate([np.zeros(3), -np.asarray(gravity, dtype=float)])
    for i in range(n):
        a = np.asarray(axes[i], dtype=float) / np.linalg.norm(axes[i])
        S.append(np.concatenate([a, np.zeros(3)]))
        K = skew(a)
        turn = np.eye(4)
        turn[:3, :3] = np.eye(3) + np.sin(q[i]) * K + (1.0 - np.cos(q[i])) * K @ K
        X.append(adjoint(np.linalg.inv(np.asarray(placements[i], dtype=float) @ turn)))
        V_parent = np.zeros(6) if parents[i] < 0 else V[parents[i]]
        A_parent = base if parents[i] < 0 else A[parents[i]]
        V[i] = X[i] @ V_parent + S[i] * qd[i]
        A[i] = X[i] @ A_parent + ad(V[i]) @ S[i] * qd[i] + S[i] * qdd[i]
        G = np.asarray(inertias[i], dtype=float)
        F[i] = G @ A[i] - ad(V[i]).T @ G @ V[i]
    tau = np.zeros(n)
    for i in range(n - 1, -1, -1):
        tau[i] = S[i] @ F[i]
        if parents[i] >= 0:
            F[parents[i]] += X[i].T @ F[i]
    return tau


# Exercise 3.2.2 -----------------------------------------------------------------
q1, q2, qd1, qd2, qdd1, qdd2, m1, l1, m2, g = sp.symbols(
    "q1 q2 qd1 qd2 qdd1 qdd2 m1 l1 m2 g")
#: joint 1 (about z) carries a uniform rod (m1, l1) along its x axis; joint 2 slides a
#: point mass m2 along that axis to the distance q2; gravity g along -y
rp_arm_torques = sp.Matrix([
    (m1 * l1**2 / 3 + m2 * q2**2) * qdd1 + 2 * m2 * q2 * qd1 * qd2
    + g * sp.cos(q1) * (m1 * l1 / 2 + m2 * q2),
    m2 * (qdd2 - q2 * qd1**2) + m2 * g * sp.sin(q1),
])


# Exercise 3.2.3 -----------------------------------------------------------------
def bias_forces_fixed(parents, placements, axes, inertias, q, qd, gravity):
    """The given routine with its two mistakes fixed: the parent's twist and acceleration
    are carried into {i} by [Ad_{T_{i,parent}}] (the inverse of the joint pose, not the
    pose), and the ground accelerates at (0, -gravity) (upwards), not (0, +gravity)."""
    qdd = np.zeros(len(parents))

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
    S, X = [], []  # motion subspaces; [Ad_{T_{i, parent}}]
    V, A, F = np.zeros((n, 6)), np.zeros((n, 6)), np.zeros((n, 6))
    base = np.concatenate([np.zeros(3), -np.asarray(gravity, dtype=float)])
    for i in range(n):
        a = np.asarray(axes[i], dtype=float) / np.linalg.norm(axes[i])
        S.append(np.concatenate([a, np.zeros(3)]))
        K = skew(a)
        turn = np.eye(4)
        turn[:3, :3] = np.eye(3) + np.sin(q[i]) * K + (1.0 - np.cos(q[i])) * K @ K
        X.append(adjoint(np.linalg.inv(np.asarray(placements[i], dtype=float) @ turn)))
        V_parent = np.zeros(6) if parents[i] < 0 else V[parents[i]]
        A_parent = base if parents[i] < 0 else A[parents[i]]
        V[i] = X[i] @ V_parent + S[i] * qd[i]
        A[i] = X[i] @ A_parent + ad(V[i]) @ S[i] * qd[i] + S[i] * qdd[i]
        G = np.asarray(inertias[i], dtype=float)
        F[i] = G @ A[i] - ad(V[i]).T @ G @ V[i]
    tau = np.zeros(n)
    for i in range(n - 1, -1, -1):
        tau[i] = S[i] @ F[i]
        if parents[i] >= 0:
            F[parents[i]] += X[i].T @ F[i]
    return tau


# Exercise 3.2.4 -----------------------------------------------------------------
#: A: the upward ground acceleration is each body's weight (true); B: the sum over the
#: children is accumulated once per body, O(n) (false); C: the bearing carries the rest
#: and it does no work on the joint's motion (true); D: RNEA(q, qd, 0) is h = C qd + g
#: (false); E: the columns need qd = 0 and g = 0, else each is off by h (true);
#: F: a revolute joint's torque is a scalar, only free-flyer blocks are reordered (false)
rnea_facts = {"A", "C", "E"}


# Exercise 3.2.5 -----------------------------------------------------------------
def counterweight_design(l1, l2, m1, m2, m_payload, tau1_max, tau2_max, d_max):
    """Static torques: g1 = g (a cos q1 + b cos(q1 + q2)), g2 = g b cos(q1 + q2), with
    a = m1 l1/2 + (m2 + m_p + m_c) l1 and b = m2 l2/2 + m_p l2 - m_c d; their peaks over
    all poses are g (|a| + |b|) and g |b|. Put the counterweight as far out as allowed
    (d = d_max: the least mass for a given moment m_c d, hence the least load on joint 1)
    and choose m_c with the smallest |a| + |b| among those with g |b| <= tau2_max."""
    gravity = 9.81  # m/s^2
    b0 = m2 * l2 / 2 + m_payload * l2
    a0 = m1 * l1 / 2 + (m2 + m_payload) * l1
    m_min = max(0.0, (b0 - tau2_max / gravity) / d_max)
    candidates = [m_min] + ([b0 / d_max] if b0 / d_max > m_min else [])
    m_best = min(candidates, key=lambda m: a0 + m * l1 + abs(b0 - m * d_max))
    return np.array([m_best, d_max])


# Exercise 3.2.6 -----------------------------------------------------------------
def pinocchio_state(q, v, tau_pin):
    """(p, w, x, y, z, joints) -> (p, x, y, z, w, joints); (omega, v, joints) -> (v,
    omega, joints); Pinocchio's (f, m, joints) -> (m, f, joints); concatenated."""
    q, v, tau_pin = (np.asarray(x, dtype=float) for x in (q, v, tau_pin))
    q_pin = np.concatenate([q[:3], q[4:7], q[3:4], q[7:]])
    v_pin = np.concatenate([v[3:6], v[:3], v[6:]])
    tau = np.concatenate([tau_pin[3:6], tau_pin[:3], tau_pin[6:]])
    return np.concatenate([q_pin, v_pin, tau])
