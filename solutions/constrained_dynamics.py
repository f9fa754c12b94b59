"""Reference answers for the 3.11 checkpoint exercises (exercises/constrained_dynamics.md).

Plain numpy / sympy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers (several
exercises are graded without ``lib``, and these answers must not use it
either). Every name here is an exercise name in
``grader/chapters/constrained_dynamics.py``.

Sign convention: M qdd = f + J^T lam (constraint force on the right-hand side).
"""

import numpy as np
import sympy as sp


def _rot2(phi):
    c, s = np.cos(phi), np.sin(phi)
    return np.array([[c, -s], [s, c]])


# Exercise 3.11.1 ------------------------------------------------------------
x, y, phi, xd, yd, phid = sp.symbols("x y phi xd yd phid")
r_x, r_y, g_x, g_y, L = sp.symbols("r_x r_y g_x g_y L")


def _distance_constraint_gamma():
    """Phi = (|d|^2 - L^2)/2, d = p + R(phi) r - g.  Phi'' = |d'|^2 + d . d''; gamma = -(Phi'' - J qdd)."""
    t = sp.symbols("t")
    X, Y, P = (sp.Function(s)(t) for s in ("X", "Y", "P"))
    R = sp.Matrix([[sp.cos(P), -sp.sin(P)], [sp.sin(P), sp.cos(P)]])
    d = sp.Matrix([X, Y]) + R * sp.Matrix([r_x, r_y]) - sp.Matrix([g_x, g_y])
    Phi = ((d.T * d)[0, 0] - L**2) / 2
    Phidd = Phi.diff(t, 2)
    second = {sp.Derivative(v, (t, 2)): 0 for v in (X, Y, P)}
    gamma = -Phidd.subs(second)
    first = {sp.Derivative(X, t): xd, sp.Derivative(Y, t): yd, sp.Derivative(P, t): phid}
    gamma = gamma.subs(first).subs({X: x, Y: y, P: phi})
    return sp.simplify(gamma)


distance_constraint_gamma = _distance_constraint_gamma()


# Exercise 3.11.2 ------------------------------------------------------------
def constrained_accelerations(M, J, f, gamma):
    """Schur complement: A = J M^-1 J^T, lam = A^-1 (gamma - J M^-1 f), qdd = M^-1 (f + J^T lam).

    Returns the concatenation (qdd, lam), shape (n + m,).
    """
    M = np.asarray(M, dtype=float)
    J = np.atleast_2d(np.asarray(J, dtype=float))
    f = np.asarray(f, dtype=float).reshape(-1)
    gamma = np.asarray(gamma, dtype=float).reshape(-1)
    Minv_f = np.linalg.solve(M, f)
    Minv_Jt = np.linalg.solve(M, J.T)
    A = J @ Minv_Jt
    lam = np.linalg.solve(A, gamma - J @ Minv_f)
    qdd = Minv_f + Minv_Jt @ lam
    return np.concatenate([qdd, lam])


# Exercise 3.11.3 ------------------------------------------------------------
# A. P^2 = P (true).  B. P symmetric for every SPD M (false: only when M commutes).
# C. P^T is orthogonal in the metric M: M P^T is symmetric (true).
# D. P^T qd is the admissible velocity nearest qd in the Euclidean norm (false: in the M norm).
# E. The mass-weighted velocity projection never increases the kinetic energy (true).
# F. P J^T = 0 and P leaves M Z untouched for every null-space basis Z (true: P M Z = M Z).
projection_facts = {"A", "C", "E", "F"}


# Exercise 3.11.4 ------------------------------------------------------------
def independent_accelerations(M, J, f, gamma, independent):
    """Coordinate partitioning: u = S q for the `independent` coordinates, d the others.

    J_d Z_d + J_u = 0 gives the basis Z_u (Z_u[independent] = 1, Z_u[dependent] =
    -J_d^-1 J_u); the particular acceleration with S qdd_p = 0 solves J_d qdd_p[d] = gamma.
    Reduced equation: (Z_u^T M Z_u) udd = Z_u^T (f - M qdd_p).
    Returns np.concatenate([udd, (Z_u^T M Z_u).ravel()]).
    """
    M = np.asarray(M, dtype=float)
    J = np.atleast_2d(np.asarray(J, dtype=float))
    f = np.asarray(f, dtype=float).reshape(-1)
    gamma = np.asarray(gamma, dtype=float).reshape(-1)
    n = M.shape[0]
    u = [int(i) for i in np.ravel(independent)]
    d = [i for i in range(n) if i not in u]
    Jd, Ju = J[:, d], J[:, u]
    Z = np.zeros((n, len(u)))
    Z[u, np.arange(len(u))] = 1.0
    Z[d] = -np.linalg.solve(Jd, Ju)
    qdd_p = np.zeros(n)
    qdd_p[d] = np.linalg.solve(Jd, gamma)
    M_red = Z.T @ M @ Z
    udd = np.linalg.solve(M_red, Z.T @ (f - M @ qdd_p))
    return np.concatenate([udd, M_red.ravel()])


# Exercise 3.11.5 ------------------------------------------------------------
def gauss_least_squares(M, J, f, gamma):
    """Gauss's principle as least squares: M = L L^T, a = a_p + Z z,
    min |L^T (a_p + Z z - a_u)|^2 over z.  Returns (qdd, minimum of 1/2 (a - a_u)^T M (a - a_u))."""
    M = np.asarray(M, dtype=float)
    J = np.atleast_2d(np.asarray(J, dtype=float))
    f = np.asarray(f, dtype=float)
    gamma = np.asarray(gamma, dtype=float)
    m, n = J.shape
    L = np.linalg.cholesky(M)
    a_u = np.linalg.solve(M, f)
    a_p = np.linalg.lstsq(J, gamma, rcond=None)[0]
    Z = np.linalg.svd(J)[2][m:].T
    z = np.linalg.lstsq(L.T @ Z, L.T @ (a_u - a_p), rcond=None)[0]
    a = a_p + Z @ z
    d = a - a_u
    return np.concatenate([a, [0.5 * d @ M @ d]])


# Exercise 3.11.6 ------------------------------------------------------------
def pendulum_residual(h, T, alpha, beta):
    """Cartesian pendulum (unit mass, unit length, from (1, 0) at rest, g = 9.81 along -y).

    Phi = (x^2 + y^2 - 1)/2, so J = (x, y) and gamma = -(xd^2 + yd^2); Baumgarte replaces
    gamma by gamma - 2 alpha J qd - beta^2 Phi. With M = 1 and one constraint,
    lam = (gamma - J f) / (J J^T). RK4 with round(T / h) steps of size h, as the statement
    fixes (int(T / h) would drop a step when T / h lands just below a whole number);
    returns Phi after the last step.
    """
    g, a, b = 9.81, float(alpha), float(beta)

    def rhs(state):
        p, v = state[:2], state[2:]
        J = p
        Phi = 0.5 * (p @ p - 1.0)
        gamma = -v @ v - 2.0 * a * (J @ v) - b * b * Phi
        f = np.array([0.0, -g])
        lam = (gamma - J @ f) / (J @ J)
        return np.concatenate([v, f + J * lam])

    s = np.array([1.0, 0.0, 0.0, 0.0])
    h = float(h)
    for _ in range(int(round(float(T) / h))):
        k1 = rhs(s)
        k2 = rhs(s + 0.5 * h * k1)
        k3 = rhs(s + 0.5 * h * k2)
        k4 = rhs(s + h * k3)
        s = s + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return float(0.5 * (s[:2] @ s[:2] - 1.0))


# Exercise 3.11.7 ------------------------------------------------------------
def projection_energy_loss(M, J, qd):
    """[K(qd) - K(mass-weighted projection), K(qd) - K(Euclidean projection)] (J)."""
    M = np.asarray(M, dtype=float)
    J = np.atleast_2d(np.asarray(J, dtype=float))
    qd = np.asarray(qd, dtype=float)
    MiJt = np.linalg.solve(M, J.T)
    v_m = qd - MiJt @ np.linalg.solve(J @ MiJt, J @ qd)
    v_e = qd - J.T @ np.linalg.solve(J @ J.T, J @ qd)
    K = lambda v: 0.5 * v @ M @ v  # noqa: E731
    return np.array([K(qd) - K(v_m), K(qd) - K(v_e)])


# Exercise 3.11.8 ------------------------------------------------------------
_RK4 = np.array([1.0, 1.0, 1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0])  # R(z) = sum c_k z^k


def baumgarte_step_limit(alpha, beta):
    """The smallest step h > 0 at which one RK4 step stops damping the constraint error.

    The error modes are e^(mu t), mu = -alpha +- sqrt(alpha^2 - beta^2); one RK4 step
    multiplies a mode by R(h mu). |R(h mu)|^2 = 1 is a polynomial in z = h |mu| of
    degree 8 with real coefficients; its smallest positive root, divided by |mu|, is that
    mode's limit, and the step limit is the smaller of the two modes' limits.
    """
    mus = np.roots([1.0, 2.0 * float(alpha), float(beta) ** 2]).astype(complex)
    limit = np.inf
    for mu in mus:
        unit = mu / abs(mu)
        c = _RK4 * unit ** np.arange(5)  # R(z unit) in powers of z
        p = np.convolve(c, np.conj(c)).real  # |R|^2, ascending powers
        p[0] -= 1.0
        z = np.roots(p[::-1])
        z = z[(np.abs(z.imag) <= 1e-9 * np.abs(z)) & (z.real > 1e-9)].real
        limit = min(limit, z.min() / abs(mu))
    return float(limit)


# Exercise 3.11.9 ------------------------------------------------------------
FIVEBAR = (0.1, 0.25, 0.3)  # base half-width a, proximal and distal lengths (lib.models.fivebar.FIVEBAR_GEOMETRY)


def fivebar_hold_torques(p, F):
    """Torques on the two proximal links that hold the massless-in-effect five-bar at rest
    against a force F at the end point P = p (no gravity): by virtual work,
    tau . thetad + F . pd = 0 for every motion, so D^T tau = -F with D = dtheta/dp."""
    a, l1, l2 = FIVEBAR
    P = np.asarray(p, dtype=float)
    D = np.zeros((2, 2))
    for k, (A, left) in enumerate(((np.array([-a, 0.0]), True), (np.array([a, 0.0]), False))):
        # elbow B: |B - A| = l1, |P - B| = l2; left of A->P for the left leg, right for the right leg
        d = P - A
        dist = np.linalg.norm(d)
        u = d / dist
        along = (l1**2 - l2**2 + dist**2) / (2 * dist)
        across = np.sqrt(l1**2 - along**2)
        nrm = np.array([-u[1], u[0]]) * (1.0 if left else -1.0)
        B = A + along * u + across * nrm
        th = np.arctan2(*(B - A)[::-1])
        e_th = l1 * np.array([-np.sin(th), np.cos(th)])  # dB/dtheta
        D[k] = (P - B) / ((P - B) @ e_th)  # |P - B|^2 = l2^2 differentiated
    return np.linalg.solve(D.T, -np.asarray(F, dtype=float))


# Exercise 3.11.10 -----------------------------------------------------------
def stewart_payload_forces(position, rotation, base, platform, mass, force, point):
    """Leg forces (push positive) holding the platform at rest under gravity (9.81 m/s^2 along -z)
    and a force `force` (world frame) applied at `point` (platform frame)."""
    p = np.asarray(position, dtype=float)
    R = np.asarray(rotation, dtype=float)
    b = np.asarray(base, dtype=float)
    r = p + np.asarray(platform, dtype=float) @ R.T
    n = (r - b) / np.linalg.norm(r - b, axis=1)[:, None]
    W = np.vstack([np.cross(r - p, n).T, n.T])
    F = np.asarray(force, dtype=float)
    c = R @ np.asarray(point, dtype=float)
    g = np.array([0.0, 0.0, -9.81])
    rhs = np.concatenate([-np.cross(c, F), -float(mass) * g - F])
    return np.linalg.solve(W, rhs)


# Exercise 3.11.11 -----------------------------------------------------------
# A true, B true, C false (reactions at the cuts only), D false (branch points break the
# independent coordinates), E false (the cut constraints drift), F true.
closed_chain_representation = {"A", "B", "F"}


# Exercise 3.11.12 -----------------------------------------------------------
# A true (sigma_min ~ distance, tau ~ 1/distance), B false (collinear links carry a horizontal
# load), C true (null vector of J_full: P moves vertically with the actuators locked),
# D false (the pin reactions grow too).
singularity_facts = {"A", "C"}


# Exercise 3.11.13 -----------------------------------------------------------
# A regular (rank 6), B singular (yaw 90 deg, rank 5), C singular (yaw 90 deg, shifted, rank 5),
# D regular (yaw 90 deg then tilted: sigma_min ~ 7e-4), E singular (equal spreads, rank 3),
# F regular (tilted 10 deg).
stewart_singular_poses = {"B", "C", "E"}
