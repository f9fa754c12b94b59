"""Reference answers for the 3.1 checkpoint exercises (exercises/rigid_body_dynamics.md).

Plain numpy / sympy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers (the tests compare
these answers with ``lib`` and with closed forms). Every name here is an
exercise name in ``grader/chapters/rigid_body_dynamics.py``.

Conventions: twist V = (omega, v), wrench F = (moment, force), SI units.
"""

import numpy as np
import sympy as sp


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


# Exercise 3.1.1 -------------------------------------------------------------
def mesh_inertia(vertices, faces, density):
    """Inertia about the COM (kg m^2) of a closed, consistently oriented triangle mesh.

    Signed tetrahedra (origin, p1, p2, p3): V_t = p1.(p2 x p3)/6, int x dV = V_t pbar/4,
    int x x^T dV = V_t/20 (p1p1^T + p2p2^T + p3p3^T + pbar pbar^T). Inward faces make every
    V_t change sign, so the total volume is negative: then the sums are negated.
    """
    v = np.asarray(vertices, dtype=float)
    f = np.rint(np.asarray(faces, dtype=float)).astype(int)
    p1, p2, p3 = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    vol = np.einsum("ij,ij->i", p1, np.cross(p2, p3)) / 6.0
    pbar = p1 + p2 + p3
    volume = vol.sum()
    first = vol @ pbar / 4.0
    second = sum(np.einsum("i,ij,ik->jk", vol, p, p) for p in (p1, p2, p3, pbar)) / 20.0
    if volume < 0:                                  # faces ordered clockwise: flip every sign
        volume, first, second = -volume, -first, -second
    mass = density * volume
    com = first / volume
    Sigma_o = density * second
    I_o = np.trace(Sigma_o) * np.eye(3) - Sigma_o
    return I_o - mass * (com @ com * np.eye(3) - np.outer(com, com))


# Exercise 3.1.2 -------------------------------------------------------------
def inertia_between_points(inertia_a, mass, com, a, b):
    """I_b from I_a: Steiner only works from the COM, so go through I_c."""
    inertia_a = np.asarray(inertia_a, dtype=float)
    com, a, b = (np.asarray(x, dtype=float) for x in (com, a, b))
    d_a, d_b = com - a, com - b
    I_c = inertia_a - mass * (d_a @ d_a * np.eye(3) - np.outer(d_a, d_a))
    return I_c + mass * (d_b @ d_b * np.eye(3) - np.outer(d_b, d_b))


# Exercise 3.1.3 -------------------------------------------------------------
def is_physically_consistent(inertia):
    """True if the COM inertia's principal moments satisfy the triangle inequality."""
    inertia = np.asarray(inertia, dtype=float)
    lam = np.sort(np.linalg.eigvalsh((inertia + inertia.T) / 2))
    tol = 1e-12 * max(1.0, float(np.max(np.abs(lam))))
    return bool(lam[0] >= -tol and lam[0] + lam[1] >= lam[2] - tol)


# Exercise 3.1.4 -------------------------------------------------------------
def _pseudo_inertia(params):
    """Pi = [[Sigma_o, m c], [m c^T, m]] from (m, mc_x, mc_y, mc_z, I_xx, I_yy, I_zz, I_xy, I_xz, I_yz)."""
    m_, h = params[0], np.asarray(params[1:4], dtype=float)
    ixx, iyy, izz, ixy, ixz, iyz = params[4:]
    I_o = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    Pi = np.zeros((4, 4))
    Pi[:3, :3] = 0.5 * np.trace(I_o) * np.eye(3) - I_o
    Pi[:3, 3] = Pi[3, :3] = h
    Pi[3, 3] = m_
    return Pi


def fix_flipped_product(params):
    """Flip each product of inertia in turn; return the only set whose Pi is positive semidefinite."""
    params = np.asarray(params, dtype=float)
    best, best_eig = None, -np.inf
    for k in (7, 8, 9):
        trial = params.copy()
        trial[k] = -trial[k]
        eig = np.linalg.eigvalsh(_pseudo_inertia(trial)).min()
        if eig > best_eig:
            best, best_eig = trial, eig
    return best


# Exercise 3.1.5 -------------------------------------------------------------
def body_wrench(mass, inertia, com, omega, v, omega_dot, v_dot):
    """Wrench about the origin of a body frame {o} whose COM is at c.

    The COM frame {c} (same axes) has the twist (w, v + w x c) and the derivative
    (wd, vd + wd x c); Newton-Euler there gives (m_c, f); moved to {o}: m_o = m_c + c x f.
    """
    inertia = np.asarray(inertia, dtype=float)
    com, omega, v, omega_dot, v_dot = (np.asarray(x, dtype=float) for x in (com, omega, v, omega_dot, v_dot))
    v_c = v + np.cross(omega, com)
    v_c_dot = v_dot + np.cross(omega_dot, com)
    force = mass * (v_c_dot + np.cross(omega, v_c))
    moment_c = inertia @ omega_dot + np.cross(omega, inertia @ omega)
    return np.concatenate([moment_c + np.cross(com, force), force])


# Exercise 3.1.6 -------------------------------------------------------------
def world_frame_torque(R, inertia_body, omega_world, omega_dot_world):
    """tau_w = d/dt(I_w w_w) = I_w wd_w + w_w x I_w w_w with I_w = R I_b R^T."""
    R = np.asarray(R, dtype=float)
    I_w = R @ np.asarray(inertia_body, dtype=float) @ R.T
    w = np.asarray(omega_world, dtype=float)
    return I_w @ np.asarray(omega_dot_world, dtype=float) + np.cross(w, I_w @ w)


# Exercise 3.1.7 -------------------------------------------------------------
I_k, I_a, I_b, Omega = sp.symbols("I_k I_a I_b Omega", positive=True)
L_r = sp.Symbol("L_r", real=True)
# I wd + w x (I w + L_r e_k) = 0, linearised about w = Omega e_k (derived and simulated in the tests)
Omega_k_squared = ((I_k - I_a) * Omega + L_r) * ((I_k - I_b) * Omega + L_r) / (I_a * I_b)


# Exercise 3.1.8 -------------------------------------------------------------
def axis_is_stable(moments, k):
    """Spin about principal axis k is (linearly) stable iff Omega_k^2 > 0."""
    moments = np.asarray(moments, dtype=float)
    k = int(k)
    others = [moments[j] for j in range(3) if j != k]
    return bool((moments[k] - others[0]) * (moments[k] - others[1]) > 0)


# Exercise 3.1.9 -------------------------------------------------------------
m, c_x, c_y, c_z = sp.symbols("m c_x c_y c_z")
I_xx, I_yy, I_zz, I_xy, I_xz, I_yz = sp.symbols("I_xx I_yy I_zz I_xy I_xz I_yz")


def _sym_skew(a):
    return sp.Matrix([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def _steiner_block():
    I_c = sp.Matrix([[I_xx, I_xy, I_xz], [I_xy, I_yy, I_yz], [I_xz, I_yz, I_zz]])
    c = sp.Matrix([c_x, c_y, c_z])
    G_c = sp.diag(I_c, m * sp.eye(3))
    # T_ca = (E, -c): frame {a} seen from the COM frame {c}; Ad = [[E, 0], [[-c], E]].
    Ad = sp.zeros(6, 6)
    Ad[:3, :3] = sp.eye(3)
    Ad[3:, 3:] = sp.eye(3)
    Ad[3:, :3] = _sym_skew(-c)
    G_a = Ad.T * G_c * Ad
    return sp.expand(G_a[:3, :3])


steiner_block = _steiner_block()


# Exercise 3.1.10 -------------------------------------------------------------
def _rpy(roll, pitch, yaw):
    cr, sr = np.cos(roll), np.sin(roll)
    cp, sp_ = np.cos(pitch), np.sin(pitch)
    cy, sy = np.cos(yaw), np.sin(yaw)
    Rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    Ry = np.array([[cp, 0, sp_], [0, 1, 0], [-sp_, 0, cp]])
    Rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def _adjoint(R, p):
    A = np.zeros((6, 6))
    A[:3, :3] = R
    A[3:, 3:] = R
    A[3:, :3] = _skew(p) @ R
    return A


def urdf_inertial_to_G(mass, xyz, rpy, inertia):
    """G_L = Ad_{T_CL}^T diag(I_C, m E) Ad_{T_CL}, with T_LC = (R_rpy, xyz).

    ``inertia`` = (ixx, ixy, ixz, iyy, iyz, izz), the URDF attributes, which
    are the matrix entries of I_C about the COM in the {C} axes.
    """
    ixx, ixy, ixz, iyy, iyz, izz = np.asarray(inertia, dtype=float)
    I_C = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    R = _rpy(*np.asarray(rpy, dtype=float))
    p = np.asarray(xyz, dtype=float)
    G_C = np.zeros((6, 6))
    G_C[:3, :3] = I_C
    G_C[3:, 3:] = mass * np.eye(3)
    Ad_CL = _adjoint(R.T, -R.T @ p)
    return Ad_CL.T @ G_C @ Ad_CL


# Exercise 3.1.11 ------------------------------------------------------------
def mjcf_fullinertia(rpy, inertia):
    """MJCF fullinertia (Ixx Iyy Izz Ixy Ixz Iyz) of R I_C R^T: the URDF inertia in the link's axes."""
    ixx, ixy, ixz, iyy, iyz, izz = np.asarray(inertia, dtype=float)
    I_C = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    R = _rpy(*np.asarray(rpy, dtype=float))
    I_L = R @ I_C @ R.T
    return np.array([I_L[0, 0], I_L[1, 1], I_L[2, 2], I_L[0, 1], I_L[0, 2], I_L[1, 2]])


# Exercise 3.1.12 ------------------------------------------------------------
def _flange_moments(density, omega, omega_dot, g, a, b, h):
    """|I_f wd + w x I_f w - m c x g| for boxes a x b x h (arrays) with c = (0, 0, h/2)."""
    mass = density * a * b * h
    # I_f = I_c + m (|c|^2 1 - c c^T): diagonal, (m/12 (b^2 + h^2) + m h^2/4, m/12 (a^2 + h^2) + m h^2/4, m/12 (a^2 + b^2))
    d = np.stack([mass / 12 * (b * b + h * h) + mass * h * h / 4,
                  mass / 12 * (a * a + h * h) + mass * h * h / 4,
                  mass / 12 * (a * a + b * b)], axis=-1)
    Iw = d * omega
    moment = d * omega_dot + np.cross(omega, Iw)
    c = np.stack([np.zeros_like(h), np.zeros_like(h), h / 2], axis=-1)
    moment = moment - mass[..., None] * np.cross(c, g)
    return np.linalg.norm(moment, axis=-1)


def payload_box(density, m_min, omega, omega_dot, g, moment_max):
    """The box of mass m_min with the smallest flange moment: a grid over (a, b), refined."""
    omega, omega_dot, g = (np.asarray(x, dtype=float) for x in (omega, omega_dot, g))
    volume = m_min * (1 + 1e-9) / density     # a hair more, so that round-off never leaves the mass short
    lo, hi = 0.01, 0.4
    a_lo, a_hi, b_lo, b_hi = lo, hi, lo, hi
    for _ in range(6):                          # each round zooms in around the best grid point
        a, b = np.meshgrid(np.linspace(a_lo, a_hi, 41), np.linspace(b_lo, b_hi, 41))
        h = volume / (a * b)
        cost = _flange_moments(density, omega, omega_dot, g, a, b, h)
        cost[(h < lo) | (h > hi)] = np.inf
        k = np.unravel_index(np.argmin(cost), cost.shape)
        a_best, b_best = a[k], b[k]
        da, db = (a_hi - a_lo) / 10, (b_hi - b_lo) / 10
        a_lo, a_hi = max(lo, a_best - da), min(hi, a_best + da)
        b_lo, b_hi = max(lo, b_best - db), min(hi, b_best + db)
    return np.array([a_best, b_best, volume / (a_best * b_best)])
