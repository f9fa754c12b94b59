"""Reference answers for the 3.4 checkpoint exercises.

The exercises are in exercises/manipulator_equations.md.

Plain numpy, written independently of ``lib`` (several exercises are graded
without ``lib``, and their answers must not use it). Every name here is an
exercise name in ``grader/chapters/manipulator_equations.py``. The arms are
``lib.models.planar_chain``'s: body ``i``'s frame at joint ``i``, its ``x`` axis
along the link, every joint about ``z``, gravity 9.81 m/s^2 (the book's
``lib.common.GRAVITY``, typed here so that this module does not import
``lib``) along ``-y``. Inertial parameters are ``lib.tree_dynamics``'s ten per
body, in the order (m, mc_x, mc_y, mc_z, I_xx, I_yy, I_zz, I_xy, I_xz, I_yz),
inertias about the body frame's origin.
"""

import numpy as np

_G = 9.81
#: positions of m, mc_x, mc_y, I_zz in a body's ten parameters
_M, _HX, _HY, _HZ, _IXX, _IYY, _IZZ, _IXY, _IXZ, _IYZ = range(10)
#: the parameters a motion in the plane never feels: mc_z and every inertia entry
#: but I_zz
_OUT_OF_PLANE = (_HZ, _IXX, _IYY, _IXY, _IXZ, _IYZ)


# Exercise 3.4.1 --------------------------------------------------------------
def planar_regressor(q, qd, qdd, lengths):
    """Y (2, 20) of the planar 2R arm in a vertical plane: tau = Y pi.

    Body 2's frame sits at p_2 = l1 (cos q1, sin q1) turned by phi = q1 + q2, so
    with beta = mc_x2 cos q2 - mc_y2 sin q2:
    K = I_zz1 qd1^2 / 2 + m2 l1^2 qd1^2 / 2 + l1 beta qd1 phid + I_zz2 phid^2 / 2,
    U = 9.81 (mc_x1 s1 + mc_y1 c1 + m2 l1 s1 + mc_x2 sin phi + mc_y2 cos phi);
    the Euler-Lagrange equations are linear in the parameters, column by column.
    """
    q1, q2 = q
    v1, v2 = qd
    a1, a2 = qdd
    l1 = float(lengths[0])
    c1, s1, c2, s2 = np.cos(q1), np.sin(q1), np.cos(q2), np.sin(q2)
    cp, sp_ = np.cos(q1 + q2), np.sin(q1 + q2)
    Y = np.zeros((2, 20))
    # body 1: rotation about the fixed joint (inertia) and its weight (first moments)
    Y[0, _IZZ] = a1
    Y[0, _HX] = _G * c1
    Y[0, _HY] = -_G * s1
    # body 2's mass sits at joint 2, l1 along link 1
    Y[0, 10 + _M] = l1**2 * a1 + _G * l1 * c1
    # body 2's first moments: coupling with link 1, centrifugal/Coriolis, weight
    quad1 = 2 * v1 * v2 + v2**2
    Y[0, 10 + _HX] = l1 * c2 * (2 * a1 + a2) - l1 * s2 * quad1 + _G * cp
    Y[1, 10 + _HX] = l1 * c2 * a1 + l1 * s2 * v1**2 + _G * cp
    Y[0, 10 + _HY] = -l1 * s2 * (2 * a1 + a2) - l1 * c2 * quad1 - _G * sp_
    Y[1, 10 + _HY] = -l1 * s2 * a1 + l1 * c2 * v1**2 - _G * sp_
    # body 2's inertia about joint 2
    Y[0, 10 + _IZZ] = a1 + a2
    Y[1, 10 + _IZZ] = a1 + a2
    return Y


# Exercise 3.4.2 --------------------------------------------------------------
def identifiable_projector(lengths, vertical):
    """Orthogonal projector onto the parameter combinations the joint torques determine.

    The unidentifiable directions N: everything out of the plane, m_1 (and with no
    gravity in the plane mc_x1, mc_y1), and, per joint, a point mass moved across it
    (m_b + 1, m_(b-1) - 1, mc_x(b-1) - l, I_zz(b-1) - l^2, I_yy(b-1) - l^2). They are
    independent, so P = 1 - N (N^T N)^-1 N^T (1 the identity).
    """
    lengths = np.atleast_1d(np.asarray(lengths, float))
    n = lengths.size
    cols = []

    def unit(*entries):
        v = np.zeros(10 * n)
        for index, value in entries:
            v[index] += value
        return v

    for b in range(n):
        cols += [unit((10 * b + k, 1.0)) for k in _OUT_OF_PLANE]
    cols.append(unit((_M, 1.0)))  # the first body turns about a fixed axis: m_1 unseen
    if not vertical:  # nor, without gravity in the plane, its first moments
        cols += [unit((_HX, 1.0)), unit((_HY, 1.0))]
    for b in range(1, n):  # a point mass at joint b moved from body b - 1 to body b
        lp, p = lengths[b - 1], 10 * (b - 1)
        cols.append(unit((10 * b + _M, 1.0), (p + _M, -1.0), (p + _HX, -lp),
                         (p + _IZZ, -lp**2), (p + _IYY, -lp**2)))
    N = np.array(cols).T
    return np.eye(10 * n) - N @ np.linalg.solve(N.T @ N, N.T)


# Exercise 3.4.3 --------------------------------------------------------------
def consistent_parameters(lengths, params):
    """A physically consistent pi' with Y pi' = Y pi at every state (2R, vertical).

    Free: m_1, everything out of the plane, and delta, the point mass moved across
    joint 2. Body 2 needs m_2' I_zz2 > |h_2|^2 (its inertia about its centre of mass
    in the plane is positive); body 1 then needs I_zz1 - l1^2 delta > 0, and m_1'
    large enough. Take delta in the middle of that interval, m_1' twice the least,
    and each body's inertia about its centre of mass isotropic (a 'ball' whose
    moments equal the in-plane one), centre of mass in the plane.
    """
    l1 = float(lengths[0])
    p = np.array(params, dtype=float).reshape(2, 10)
    h2 = p[1, _HX:_HY + 1]
    lo = h2 @ h2 / p[1, _IZZ] - p[1, _M]  # body 2 needs m_2 + delta > |h_2|^2 / I_zz2
    hi = p[0, _IZZ] / l1**2  # body 1 needs I_zz1 - l1^2 delta > 0
    delta = 0.5 * (lo + hi)
    p[1, _M] += delta
    p[0, _HX] -= l1 * delta
    p[0, _IZZ] -= l1**2 * delta
    h1 = p[0, _HX:_HY + 1]
    p[0, _M] = 2 * (h1 @ h1) / p[0, _IZZ] + p[1, _M]
    for body in p:
        m, hx, hy = body[_M], body[_HX], body[_HY]
        spin = body[_IZZ] - (hx**2 + hy**2) / m  # I_zz about the centre of mass
        body[_HZ] = 0.0
        body[_IXX] = spin + hy**2 / m
        body[_IYY] = spin + hx**2 / m
        body[_IXY] = -hx * hy / m
        body[_IXZ] = body[_IYZ] = 0.0
    return p.ravel()


# Exercise 3.4.4 --------------------------------------------------------------
def fixed_passivity_torque(q, qd, q_des, qd_des, qdd_des, lengths, masses, lam, k_d):
    """Slotine and Li's passivity-based law for the uniform-rod 2R arm, with the
    Christoffel C (so that dM/dt - 2C is skew) multiplying the reference rate qd_r."""
    l1, l2 = lengths
    m1, m2 = masses
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    a = m1 * l1**2 / 3 + m2 * l1**2 + m2 * l2**2 / 3
    b = m2 * l1 * l2 / 2
    d = m2 * l2**2 / 3
    M = np.array([[a + 2 * b * c2, d + b * c2], [d + b * c2, d]])
    C = -b * s2 * np.array([[qd[1], qd[0] + qd[1]], [-qd[0], 0.0]])
    c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])
    g = _G * np.array([(m1 / 2 + m2) * l1 * c1 + m2 * l2 / 2 * c12,
                       m2 * l2 / 2 * c12])
    qd_r = qd_des - lam * (q - q_des)
    qdd_r = qdd_des - lam * (qd - qd_des)
    s = qd - qd_r
    return M @ qdd_r + C @ qd_r + g - k_d * s


# Exercise 3.4.5 --------------------------------------------------------------
# A true: M + J_r e_j e_j^T adds a positive semidefinite matrix of norm J_r, so each
#   eigenvalue rises by between 0 and J_r (Weyl's inequalities);
# B false: the Rayleigh quotient at x = e_2 is M_22, so the smallest eigenvalue is at
#   most the smallest diagonal entry, never at least;
# C true: d(K + U)/dt = qd^T tau = -qd^T K_D qd <= 0;
# D false: tau = Y pi is linear, so 2 pi gives twice the torques: the measured
#   torques fix the scale;
# E false: with joint 2 locked the arm turns as one body and joint 1's torque shows
#   only its total inertia and first moments; a change that keeps those changes the
#   torques of motions that move joint 2;
# F false: C + N with N qd = 0 (for example N = k [[qd2, -qd1], [0, 0]]) is valid too.
manipulator_facts = {"A", "C"}


# Exercise 3.4.6 --------------------------------------------------------------
def rotor_inertias(lengths, masses, q2_range, mu_min, budget):
    """Least r1 + r2, r >= 0, with M(q) + diag(r) - mu_min 1 semidefinite on q2_range.

    A 2 x 2 symmetric matrix minus mu E is positive semidefinite when both diagonal
    entries and the determinant are >= 0: for a given r1, the least r2 is
    max over q2 of mu - M22 + M12^2 / (M11 + r1 - mu). The sum is convex in r1
    (the feasible set is convex): golden-section search on r1.
    """
    l1, l2 = lengths
    m1, m2 = masses
    a = m1 * l1**2 / 3 + m2 * l1**2 + m2 * l2**2 / 3
    b = m2 * l1 * l2 / 2
    d = m2 * l2**2 / 3
    c2 = np.cos(np.linspace(q2_range[0], q2_range[1], 2001))
    m11, m12, m22 = a + 2 * b * c2, d + b * c2, d
    margin = 1e-9 * mu_min

    def least_r2(r1):
        d1 = m11 + r1 - mu_min
        return max(0.0, float(np.max(mu_min - m22 + m12**2 / d1)) + margin)

    lo = max(0.0, float(np.max(mu_min - m11))) + 1e-9 * mu_min
    hi = lo + 10.0 * mu_min + float(np.max(m12**2)) / mu_min
    phi = (np.sqrt(5.0) - 1) / 2
    for _ in range(200):
        x, y = hi - phi * (hi - lo), lo + phi * (hi - lo)
        if x + least_r2(x) <= y + least_r2(y):
            hi = y
        else:
            lo = x
    r1 = 0.5 * (lo + hi) + margin
    return np.array([r1, least_r2(r1)])
