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
def inertia_about_origin(masses, points):
    """I_O = sum_i m_i (|r_i|^2 E - r_i r_i^T) = -sum_i m_i [r_i]^2 (kg m^2)."""
    masses = np.asarray(masses, dtype=float).reshape(-1)
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    inertia = np.zeros((3, 3))
    for m_i, r_i in zip(masses, points):
        inertia -= m_i * _skew(r_i) @ _skew(r_i)
    return inertia


# Exercise 3.1.2 -------------------------------------------------------------
def body_wrench(mass, inertia, omega, v, omega_dot, v_dot):
    """Newton-Euler in the body frame at the COM: (I wd + w x I w, m (vd + w x v))."""
    inertia = np.asarray(inertia, dtype=float)
    omega = np.asarray(omega, dtype=float)
    v = np.asarray(v, dtype=float)
    moment = inertia @ np.asarray(omega_dot, dtype=float) + np.cross(omega, inertia @ omega)
    force = mass * (np.asarray(v_dot, dtype=float) + np.cross(omega, v))
    return np.concatenate([moment, force])


# Exercise 3.1.3 -------------------------------------------------------------
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


# Exercise 3.1.4 -------------------------------------------------------------
def is_physically_consistent(inertia):
    """True if the COM inertia's principal moments satisfy the triangle inequality."""
    inertia = np.asarray(inertia, dtype=float)
    lam = np.sort(np.linalg.eigvalsh((inertia + inertia.T) / 2))
    tol = 1e-12 * max(1.0, float(np.max(np.abs(lam))))
    return bool(lam[0] >= -tol and lam[0] + lam[1] >= lam[2] - tol)


# Exercise 3.1.5 -------------------------------------------------------------
I_k, I_a, I_b, Omega = sp.symbols("I_k I_a I_b Omega", positive=True)
Omega_k_squared = Omega**2 * (I_k - I_a) * (I_k - I_b) / (I_a * I_b)


# Exercise 3.1.6 -------------------------------------------------------------
def axis_is_stable(moments, k):
    """Spin about principal axis k is (linearly) stable iff Omega_k^2 > 0."""
    moments = np.asarray(moments, dtype=float)
    k = int(k)
    others = [moments[j] for j in range(3) if j != k]
    return bool((moments[k] - others[0]) * (moments[k] - others[1]) > 0)


# Exercise 3.1.7 -------------------------------------------------------------
def world_frame_torque(R, inertia_body, omega_world, omega_dot_world):
    """tau_w = d/dt(I_w w_w) = I_w wd_w + w_w x I_w w_w with I_w = R I_b R^T."""
    R = np.asarray(R, dtype=float)
    I_w = R @ np.asarray(inertia_body, dtype=float) @ R.T
    w = np.asarray(omega_world, dtype=float)
    return I_w @ np.asarray(omega_dot_world, dtype=float) + np.cross(w, I_w @ w)


# Exercise 3.1.8 -------------------------------------------------------------
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
