"""Reference answers for the 3.11 checkpoint exercises (exercises/constrained_dynamics.md).

Plain numpy / sympy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers (the tests compare
these answers with ``lib``). Every name here is an exercise name in
``grader/chapters/constrained_dynamics.py``.

Sign convention: M qdd = f + J^T lam (constraint force on the right-hand side).
"""

import numpy as np
import sympy as sp


# Exercise 3.11.1 ------------------------------------------------------------
def constrained_accelerations(M, J, f, gamma):
    """Schur complement: G = J M^-1 J^T, lam = G^-1 (gamma - J M^-1 f), qdd = M^-1 (f + J^T lam).

    Returns the concatenation (qdd, lam), shape (n + m,).
    """
    M = np.asarray(M, dtype=float)
    J = np.atleast_2d(np.asarray(J, dtype=float))
    f = np.asarray(f, dtype=float).reshape(-1)
    gamma = np.asarray(gamma, dtype=float).reshape(-1)
    Minv_f = np.linalg.solve(M, f)
    Minv_Jt = np.linalg.solve(M, J.T)
    G = J @ Minv_Jt
    lam = np.linalg.solve(G, gamma - J @ Minv_f)
    qdd = Minv_f + Minv_Jt @ lam
    return np.concatenate([qdd, lam])


# Exercise 3.11.2 ------------------------------------------------------------
phi_a, phid_a, phi_b, phid_b = sp.symbols("phi_a phid_a phi_b phid_b")
r_ax, r_ay, r_bx, r_by = sp.symbols("r_ax r_ay r_bx r_by")


def _pin_joint_gamma():
    def rot(phi):
        return sp.Matrix([[sp.cos(phi), -sp.sin(phi)], [sp.sin(phi), sp.cos(phi)]])

    return rot(phi_a) * sp.Matrix([r_ax, r_ay]) * phid_a**2 - rot(phi_b) * sp.Matrix([r_bx, r_by]) * phid_b**2


pin_joint_gamma = _pin_joint_gamma()


# Exercise 3.11.3 ------------------------------------------------------------
def constraint_force_power(M, J, f, gamma, qd):
    """Power (J^T lam) . qd of the constraint force at the velocity qd (W)."""
    n = np.asarray(M).shape[0]
    lam = constrained_accelerations(M, J, f, gamma)[n:]
    J = np.atleast_2d(np.asarray(J, dtype=float))
    return float((J.T @ lam) @ np.asarray(qd, dtype=float))


# Exercise 3.11.4 ------------------------------------------------------------
def pendulum_drift(h, T):
    """Cartesian pendulum (unit mass, unit length, from (1, 0) at rest, g = 9.81 along -y).

    RK4 with step h on the acceleration-level KKT equations, no stabilisation;
    returns Phi = (x^2 + y^2 - 1)/2 at t = T.
    """
    g = 9.81

    def rhs(state):
        p, v = state[:2], state[2:]
        J = p  # dPhi/dq for Phi = (|p|^2 - 1)/2
        gamma = -v @ v  # -Jdot qd
        f = np.array([0.0, -g])
        lam = (gamma - J @ f) / (J @ J)  # M = I
        return np.concatenate([v, f + J * lam])

    y = np.array([1.0, 0.0, 0.0, 0.0])
    steps = int(round(float(T) / float(h)))
    for _ in range(steps):
        k1 = rhs(y)
        k2 = rhs(y + 0.5 * h * k1)
        k3 = rhs(y + 0.5 * h * k2)
        k4 = rhs(y + h * k3)
        y = y + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return float(0.5 * (y[:2] @ y[:2] - 1.0))


# Exercise 3.11.5 ------------------------------------------------------------
def baumgarte_amplification(beta, h):
    """Spectral radius of one RK4 step on e'' + 2 beta e' + beta^2 e = 0 (alpha = beta).

    The system matrix has the double eigenvalue -beta, so the step matrix has
    the double eigenvalue R(-beta h), R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24.
    """
    z = -float(beta) * float(h)
    return abs(1.0 + z + z**2 / 2.0 + z**3 / 6.0 + z**4 / 24.0)


# Exercise 3.11.6 ------------------------------------------------------------
def virtual_work_torques(M, f, J_loop, actuated, qdd):
    """tau = V^T (M qdd - f) with J_loop V = 0 and V[actuated] = I."""
    M = np.asarray(M, dtype=float)
    J = np.atleast_2d(np.asarray(J_loop, dtype=float))
    act = np.asarray(actuated).astype(int).reshape(-1)
    n = M.shape[0]
    passive = np.array([i for i in range(n) if i not in set(act.tolist())], dtype=int)
    V = np.zeros((n, act.size))
    V[act, np.arange(act.size)] = 1.0
    V[passive] = np.linalg.solve(J[:, passive], -J[:, act])
    return V.T @ (M @ np.asarray(qdd, dtype=float) - np.asarray(f, dtype=float))
