"""Algorithms on kinematic trees: CRBA, ABA, the Christoffel C, the regressor, momentum.

The trees, states and conventions are those of :mod:`lib.kinematic_tree`:
bodies numbered parents first, twists ``(omega, v)`` and wrenches ``(m, f)``
in each body's own frame ``{i}``, a free joint's velocity the body twist of
its body, SI units. ``X_i = Ad_{T_{i pa(i)}}`` carries a twist of the
parent into ``{i}``; its transpose carries a wrench of ``{i}`` back to the
parent.

- :func:`crba`: the mass matrix by composite rigid bodies, ``O(n d)`` for a
  tree of depth ``d`` (``M_ij = 0`` when neither body is an ancestor of the
  other);
- :func:`aba`: forward dynamics ``qdd`` by articulated bodies, ``O(n)``;
- :func:`coriolis_matrix`: the ``C(q, v)`` of the Christoffel symbols, with
  ``C v = h - g`` and ``dM/dt - 2 C`` skew-symmetric;
- :func:`inertial_parameters` and :func:`regressor`: ``tau = Y(q, v, a) pi``
  with the ten inertial parameters of each body in 3.1's order;
- :func:`center_of_mass`, :func:`centroidal_momentum_matrix` and
  :func:`centroidal_momentum`: the momentum of the whole tree about its
  centre of mass;
- :func:`configuration_rate`: ``dq/dt`` from ``v`` (a free joint's
  quaternion and position rates), for integrating a floating base.

Batches: every routine takes one state, shape ``(nq,)``, or ``N`` states,
shape ``(N, nq)``, and evaluates a batch at once with NumPy broadcasting
(the loops run over bodies, never over states); a batch returns every
result with a leading axis of length ``N``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import FloatArray, instance_of
from .errors import NotPositiveDefiniteError
from .inertia import _skew
from .model_files import quat_to_rotation
from .kinematic_tree import (
    _AD,
    _DEFAULT_GRAVITY,
    _SKEW,
    KinematicTree,
    _gravity,
    _in_blocks,
    _joint_adjoints,
    _joint_poses,
    _joint_twists,
    _states,
    _world_poses,
)

__all__ = [
    "PARAMETER_NAMES",
    "crba",
    "aba",
    "coriolis_matrix",
    "inertial_parameters",
    "regressor",
    "center_of_mass",
    "centroidal_momentum_matrix",
    "centroidal_momentum",
    "configuration_rate",
]

#: The ten inertial parameters of a body, in the order of
#: :ref:`sec-rb-consistency`: mass, first moments ``m c`` and the inertia about
#: the body frame's origin (tensor entries, ``I_xy = -int rho x y dV``).
PARAMETER_NAMES = (
    "m", "mc_x", "mc_y", "mc_z", "I_xx", "I_yy", "I_zz", "I_xy", "I_xz", "I_yz"
)


def _parameter_basis() -> FloatArray:
    """``G_k`` (10, 6, 6) with ``G(pi) = sum_k pi_k G_k`` (3.1's spatial inertia)."""
    basis = np.zeros((10, 6, 6))
    basis[0, 3:, 3:] = np.eye(3)
    for k in range(3):  # m c_k: the blocks m [c] (upper right) and -m [c] (lower left)
        skew = _skew(np.eye(3)[k])
        basis[1 + k, :3, 3:] = skew
        basis[1 + k, 3:, :3] = -skew
    for k, (r, c) in enumerate([(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)]):
        basis[4 + k, r, c] = basis[4 + k, c, r] = 1.0
    return basis


_BASIS = _parameter_basis()


def _bar_cross(f: FloatArray) -> FloatArray:
    """``B(f)`` (.., 6, 6) with ``B(f) V = -ad_V^T f`` for every twist ``V``.

    For ``f = (n, f)``: ``[[-[n], -[f]], [-[f], 0]]`` (Featherstone's
    ``f x-bar*``).
    """
    shape = f.shape[:-1]
    out = np.zeros(shape + (6, 6))
    n_skew = (f[..., :3] @ _SKEW).reshape(shape + (3, 3))
    f_skew = (f[..., 3:] @ _SKEW).reshape(shape + (3, 3))
    out[..., :3, :3] = -n_skew
    out[..., :3, 3:] = -f_skew
    out[..., 3:, :3] = -f_skew
    return out


def _ad(twists: FloatArray) -> FloatArray:
    """``ad_V`` (N, 6, 6) of a stack of twists (N, 6)."""
    return (twists @ _AD).reshape(twists.shape[0], 6, 6)


def _t(a: FloatArray) -> FloatArray:
    return np.swapaxes(a, -1, -2)


def _mv(a: FloatArray, v: FloatArray) -> FloatArray:
    """Stacked matrix times stacked vector, ``a (..., m, k)`` and ``v (..., k)``."""
    return (a @ v[..., None])[..., 0]


def _vm(v: FloatArray, a: FloatArray) -> FloatArray:
    """Stacked row vector times stacked matrix, ``v^T a``."""
    return (v[..., None, :] @ a)[..., 0, :]


def _composite(model: KinematicTree, x: FloatArray, per_body: FloatArray) -> FloatArray:
    """Sum each body's (N, 6, 6) matrix over its subtree, in its own frame.

    ``per_body`` (n_b, N, 6, 6) is overwritten: leaves to root, ``A_pa(i) +=
    X_i^T A_i X_i``.
    """
    for i in range(model.n_bodies - 1, -1, -1):
        parent = model.parents[i]
        if parent >= 0:
            per_body[parent] += _t(x[i]) @ per_body[i] @ x[i]
    return per_body


def _inertia_stack(model: KinematicTree, n: int) -> FloatArray:
    return np.broadcast_to(model.inertias[:, None], (model.n_bodies, n, 6, 6)).copy()


def _moving(model: KinematicTree) -> list[int]:
    return [i for i in range(model.n_bodies) if model.S[i].shape[1] > 0]


def _crba(model: KinematicTree, x: FloatArray, ic: FloatArray) -> FloatArray:
    """``M`` (N, nv, nv) from the adjoints and the composite inertias."""
    n = ic.shape[1]
    out = np.zeros((n, model.nv, model.nv))
    for i in _moving(model):
        si, vi = model.S[i], model.v_slices[i]
        f = ic[i] @ si  # (N, 6, k): the composite body's momentum per unit qd_i
        block = si.T @ f
        out[:, vi, vi] = 0.5 * (block + _t(block))  # symmetric in exact arithmetic
        j = i
        while model.parents[j] >= 0:
            f = _t(x[j]) @ f
            j = model.parents[j]
            if model.S[j].shape[1]:
                block = model.S[j].T @ f
                out[:, model.v_slices[j], vi] = block
                out[:, vi, model.v_slices[j]] = _t(block)
    return out


def _kinematics(model: KinematicTree, q: FloatArray) -> FloatArray:
    return _joint_adjoints(model, q)


def crba(model: KinematicTree, q: ArrayLike) -> FloatArray:
    """The mass matrix ``M(q)`` by the composite-rigid-body algorithm.

    Leaves to root, each body's composite inertia ``I^c_i = G_i + sum over
    children X_c^T I^c_c X_c`` is the inertia of its whole subtree welded
    rigid. A unit rate of joint ``j`` moves that subtree: its momentum is
    ``F = I^c_j S_j``, so ``M_jj = S_j^T F``, and carried towards the root,
    ``F <- X^T F``, it gives ``M_ij = S_i^T F`` for every ancestor ``i``.
    Entries of bodies on different branches stay zero. The work is
    ``O(n d)`` for a tree of depth ``d`` (``O(n^2)`` for a chain) and no RNEA
    is repeated (:func:`lib.kinematic_tree.rnea_mass_matrix` needs ``nv``
    of them). Explained in :ref:`sec-ab-crba`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates (rad, m; free joints ``(p, w, x, y, z)``).

    Returns
    -------
    numpy.ndarray, shape (nv, nv) or (N, nv, nv)
        ``M(q)``, symmetric; kg m^2, kg m and kg entries.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NonPositiveValueError
        If a free joint's quaternion is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import crba
    >>> from lib.spatial import spatial_inertia
    >>> rod = np.diag([0.0, 1.0, 1.0]) / 12.0  # 1 kg, 1 m
    >>> G = spatial_inertia(1.0, rod, com=[0.5, 0.0, 0.0])
    >>> X = np.eye(4); X[0, 3] = 1.0
    >>> z = [0.0, 0.0, 1.0]
    >>> arm = kinematic_tree([-1, 0], ["revolute"] * 2, [z, z], [np.eye(4), X], [G, G])
    >>> print(np.round(crba(arm, [0.0, 0.0]), 6))
    [[2.666667 0.833333]
     [0.833333 0.333333]]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr,), single = _states(model, (q, "q", model.nq))
    def blocks(q_block: FloatArray) -> FloatArray:
        x = _kinematics(model, q_block)
        n = q_block.shape[0]
        return _crba(model, x, _composite(model, x, _inertia_stack(model, n)))

    out = _in_blocks(blocks, q_arr)
    return out[0] if single else out


def _unit_axes(model: KinematicTree) -> list:
    """Per body: ``(k, sign)`` if ``S_i = sign e_k`` (one velocity), else ``None``."""
    out = []
    for s in model.S:
        nonzero = np.flatnonzero(s[:, 0]) if s.shape[1] == 1 else ()
        one = len(nonzero) == 1 and abs(s[nonzero[0], 0]) == 1.0
        out.append((int(nonzero[0]), float(s[nonzero[0], 0])) if one else None)
    return out


def _aba(
    model: KinematicTree,
    q: FloatArray,
    v: FloatArray,
    tau: FloatArray,
    gravity: FloatArray,
) -> FloatArray:
    """``qdd`` (N, nv) of validated batches by the articulated-body algorithm.

    A joint with one velocity has ``S_i = s`` (a 6-vector): ``U_i`` is a
    stack of 6-vectors and ``D_i`` of numbers, so no ``k x k`` inverse; when
    ``s = +-e_k`` (a joint axis along a frame axis, as in most URDFs)
    ``U_i`` is a column of ``I^A_i`` and ``D_i`` a diagonal entry.
    """
    n, n_b = q.shape[0], model.n_bodies
    x = _kinematics(model, q)
    joint_v = _joint_twists(model, v)
    twists = joint_v.copy()
    bias_acc = np.empty((n_b, n, 6))
    art = _inertia_stack(model, n)  # articulated inertias I^A_i
    bias = np.empty((n_b, n, 6))  # articulated bias forces p^A_i
    for i, parent in enumerate(model.parents):
        if parent >= 0:
            twists[i] += _mv(x[i], twists[parent])
        ad_v = _ad(twists[i])
        bias_acc[i] = _mv(ad_v, joint_v[i])
        bias[i] = -_vm(twists[i] @ model.inertias[i], ad_v)  # -ad_V^T G V
    axes = _unit_axes(model)
    saved = {}
    for i in range(n_b - 1, -1, -1):
        parent, s = model.parents[i], model.S[i]
        k = s.shape[1]
        tau_i = tau[:, model.v_slices[i]]
        if k == 1:
            if axes[i] is not None:
                e, sign = axes[i]
                u_vec = art[i, :, :, e] if sign > 0 else -art[i, :, :, e]
                d = art[i, :, e, e]
                u = tau_i[:, 0] - sign * bias[i, :, e]
            else:
                s = s[:, 0]
                u_vec = art[i] @ s  # U_i = I^A_i s, (N, 6)
                d = u_vec @ s  # D_i = s^T U_i, (N,)
                u = tau_i[:, 0] - bias[i] @ s  # u_i = tau_i - s^T p^A_i
            if d.size and d.min() <= 0.0:
                _check_positive(d, i, model)
            ud = u_vec / d[:, None]
            saved[i] = (ud, u / d)
            if parent >= 0:
                ia = art[i] - ud[:, :, None] * u_vec[:, None, :]
                pa = bias[i] + _mv(ia, bias_acc[i]) + ud * u[:, None]
        elif k:
            u_mat = art[i] @ s  # (N, 6, k)
            d = s.T @ u_mat  # (N, k, k)
            _check_positive(d, i, model)
            d_inv = np.linalg.inv(d)
            u = tau_i - bias[i] @ s
            saved[i] = (u_mat, d_inv, u)
            if parent >= 0:
                ud = u_mat @ d_inv
                ia = art[i] - ud @ _t(u_mat)
                pa = bias[i] + _mv(ia, bias_acc[i]) + _mv(ud, u)
        elif parent >= 0:
            ia = art[i]
            pa = bias[i] + _mv(ia, bias_acc[i])
        if parent >= 0:
            art[parent] += _t(x[i]) @ ia @ x[i]
            bias[parent] += _vm(pa, x[i])
    qdd = np.empty((n, model.nv))
    accels = np.empty((n_b, n, 6))
    base = np.zeros((n, 6))
    base[:, 3:] = -gravity  # gravity as an upward acceleration of the ground
    for i, parent in enumerate(model.parents):
        a_parent = base if parent < 0 else accels[parent]
        accels[i] = _mv(x[i], a_parent) + bias_acc[i]
        if i not in saved:
            continue
        if model.S[i].shape[1] == 1:
            ud, u_over_d = saved[i]
            # qdd_i = (u_i - U_i^T a'_i) / D_i
            qdd_i = u_over_d - (accels[i, :, None, :] @ ud[:, :, None])[:, 0, 0]
            qdd[:, model.v_slices[i].start] = qdd_i
            if axes[i] is not None:
                e, sign = axes[i]
                accels[i, :, e] += qdd_i if sign > 0 else -qdd_i
            else:
                accels[i] += qdd_i[:, None] * model.S[i][:, 0]
        else:
            u_mat, d_inv, u = saved[i]
            qdd_i = _mv(d_inv, u - _vm(accels[i], u_mat))
            qdd[:, model.v_slices[i]] = qdd_i
            accels[i] += qdd_i @ model.S[i].T
    return qdd


def _check_positive(d: FloatArray, body: int, model: KinematicTree) -> None:
    """``D_i`` must be positive definite: joint ``i`` moves some mass."""
    if d.ndim == 1:  # one velocity: D_i is a number per state
        ok = bool(np.all(d > 0.0))
    else:
        ok = bool(np.all(np.linalg.eigvalsh(d)[..., 0] > 0.0))
    if not ok:
        raise NotPositiveDefiniteError(
            f"joint {model.joint_names[body]!r} moves no mass (its articulated "
            "inertia S^T I^A S is not positive): M(q) is singular and the forward "
            "dynamics is undefined"
        )


def aba(
    model: KinematicTree,
    q: ArrayLike,
    v: ArrayLike,
    tau: ArrayLike,
    gravity: ArrayLike = _DEFAULT_GRAVITY,
) -> FloatArray:
    """Forward dynamics ``qdd = M^-1 (tau - h)`` by the articulated-body algorithm.

    Three passes over the bodies. Root to leaves: twists ``V_i`` and the
    velocity-product accelerations ``c_i = ad_{V_i} S_i qd_i``. Leaves to
    root: each body's articulated inertia ``I^A_i`` and bias force ``p^A_i``
    (starting from ``G_i`` and ``-ad_{V_i}^T G_i V_i``); with ``U_i = I^A_i
    S_i``, ``D_i = S_i^T U_i`` and ``u_i = tau_i - S_i^T p^A_i`` the joint's
    free motion is eliminated, and the parent receives ``X_i^T (I^A_i - U_i
    D_i^-1 U_i^T) X_i`` and ``X_i^T (p^A_i + I^a_i c_i + U_i D_i^-1 u_i)``.
    Root to leaves: ``a'_i = X_i a_pa(i) + c_i``, ``qdd_i = D_i^-1 (u_i -
    U_i^T a'_i)``, ``a_i = a'_i + S_i qdd_i``, from the ground's ``(0,
    -gravity)``. Each pass visits each body once: ``O(n)``, no mass matrix
    is formed. Explained in :ref:`sec-ab-aba`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v : array_like, shape (nv,) or (N, nv)
        Joint velocities (a free joint's body twist ``(omega, v)``).
    tau : array_like, shape (nv,) or (N, nv)
        Joint forces, N m and N (a free joint's entry a body wrench ``(m,
        f)``, zero for an unactuated floating base).
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2 (default ``(0,
        0, -9.81)``).

    Returns
    -------
    numpy.ndarray, shape (nv,) or (N, nv)
        Joint accelerations (rad/s^2, m/s^2; a free joint's body-frame
        ``d/dt (omega, v)``), such that ``rnea(q, v, qdd) = tau``.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NonPositiveValueError
        If a free joint's quaternion is zero.
    NotPositiveDefiniteError
        If a joint moves no mass (``M(q)`` singular).

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import aba
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.zeros((3, 3)), com=[0.5, 0.0, 0.0])  # point mass
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> g = [0.0, -9.81, 0.0]
    >>> print(np.round(aba(pendulum, [0.0], [0.0], [0.0], gravity=g), 6))  # -g / l
    [-19.62]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr, t_arr), single = _states(
        model, (q, "q", model.nq), (v, "v", model.nv), (tau, "tau", model.nv)
    )
    g = _gravity(gravity)
    out = _in_blocks(lambda *state: _aba(model, *state, g), q_arr, v_arr, t_arr)
    return out[0] if single else out


def coriolis_matrix(model: KinematicTree, q: ArrayLike, v: ArrayLike) -> FloatArray:
    """The Coriolis matrix ``C(q, v)`` of the Christoffel symbols.

    ``C v = h(q, v) - g(q)`` and ``dM/dt = C + C^T``, so ``dM/dt - 2 C`` is
    skew-symmetric; for joint coordinates ``C_ij = sum_k Gamma_ijk v_k``
    with the Christoffel symbols of the first kind, hence ``C(q, v) w =
    C(q, w) v``. Computed without derivatives of ``M``, by the composite
    method (Algorithm 1) of S. Echeandia and P. M. Wensing, "Numerical
    methods to compute the Coriolis matrix and Christoffel symbols for
    rigid-body systems" (2021): with ``dS_j = ad_{V_j} S_j`` (the
    rate of joint ``j``'s axis seen from the ground) and, per body,
    ``B_i = (-ad_{V_i}^T G_i + B(G_i V_i) - G_i ad_{V_i}) / 2`` (``B(f) V =
    -ad_V^T f``), whose sum over a subtree is ``B^c``: ``C_ij = S_i^T (I^c_i
    Ad_{ij} dS_j + B^c_i Ad_{ij} S_j)`` for ``j`` an ancestor of ``i`` or
    ``i`` itself, ``C_ji = S_j^T Ad_{ij}^T (I^c_i dS_i + B^c_i S_i)``. A
    free joint's velocity is a body twist, not a coordinate rate, so there
    only the first two properties hold. Explained in
    :ref:`sec-pr-skew`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v : array_like, shape (nv,) or (N, nv)
        Joint velocities.

    Returns
    -------
    numpy.ndarray, shape (nv, nv) or (N, nv, nv)
        ``C(q, v)``; multiplied by ``v`` it gives N m and N.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NonPositiveValueError
        If a free joint's quaternion is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import coriolis_matrix
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(1.0, np.zeros((3, 3)), com=[1.0, 0.0, 0.0])  # point mass
    >>> X = np.eye(4); X[0, 3] = 1.0
    >>> z = [0.0, 0.0, 1.0]
    >>> arm = kinematic_tree([-1, 0], ["revolute"] * 2, [z, z], [np.eye(4), X], [G, G])
    >>> print(np.round(coriolis_matrix(arm, [0.0, np.pi / 2], [1.0, 0.0]), 6) + 0.0)
    [[ 0. -1.]
     [ 1.  0.]]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr), single = _states(model, (q, "q", model.nq), (v, "v", model.nv))
    n, n_b = q_arr.shape[0], model.n_bodies
    x = _kinematics(model, q_arr)
    twists = _joint_twists(model, v_arr)
    per_body_b = np.empty((n_b, n, 6, 6))
    dots = {}
    for i, parent in enumerate(model.parents):
        if parent >= 0:
            twists[i] += (x[i] @ twists[parent, :, :, None])[:, :, 0]
        ad_v = _ad(twists[i])
        g = model.inertias[i]
        per_body_b[i] = 0.5 * (-_t(ad_v) @ g + _bar_cross(twists[i] @ g) - g @ ad_v)
        if model.S[i].shape[1]:
            dots[i] = ad_v @ model.S[i]  # dS_i, (N, 6, k)
    ic = _composite(model, x, _inertia_stack(model, n))
    bc = _composite(model, x, per_body_b)
    out = np.zeros((n, model.nv, model.nv))
    for i in _moving(model):
        si, vi = model.S[i], model.v_slices[i]
        # column block i: C_ji = S_j^T Ad_ij^T (I^c_i dS_i + B^c_i S_i), j <= i
        f = ic[i] @ dots[i] + bc[i] @ si
        out[:, vi, vi] = si.T @ f
        # row block i: C_ij = S_i^T I^c_i Ad_ij dS_j + S_i^T B^c_i Ad_ij S_j, j < i
        row_i, row_b = si.T @ ic[i], si.T @ bc[i]
        j = i
        while model.parents[j] >= 0:
            f = _t(x[j]) @ f
            row_i, row_b = row_i @ x[j], row_b @ x[j]
            j = model.parents[j]
            if model.S[j].shape[1]:
                vj = model.v_slices[j]
                out[:, vj, vi] = model.S[j].T @ f
                out[:, vi, vj] = row_i @ dots[j] + row_b @ model.S[j]
    return out[0] if single else out


def inertial_parameters(model: KinematicTree) -> FloatArray:
    """The ten inertial parameters of every body, stacked: ``pi`` of ``tau = Y pi``.

    Body ``i``'s block ``pi[10 i : 10 i + 10]`` holds, in the order of
    :data:`PARAMETER_NAMES` (the order of :ref:`sec-rb-consistency`), its mass,
    first moments ``m c`` and inertia about the origin of ``{i}``, read from
    its spatial inertia ``G_i = [[I_o, m [c]], [m [c]^T, m E]]``. Explained
    in :ref:`sec-pr-regressor`.

    Parameters
    ----------
    model : KinematicTree
        The tree.

    Returns
    -------
    numpy.ndarray, shape (10 n_b,)
        kg, kg m and kg m^2 entries.

    Raises
    ------
    ShapeError
        If ``model`` is not a :class:`lib.kinematic_tree.KinematicTree`.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import inertial_parameters
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.1, 0.2]), com=[0.5, 0.0, 0.0])
    >>> arm = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> print(np.round(inertial_parameters(arm), 6))
    [2.  1.  0.  0.  0.1 0.6 0.7 0.  0.  0. ]
    """
    instance_of(model, KinematicTree, "model")
    g = model.inertias
    out = np.empty((model.n_bodies, 10))
    out[:, 0] = g[:, 3, 3]
    out[:, 1:4] = np.stack([g[:, 2, 4], g[:, 0, 5], g[:, 1, 3]], axis=1)
    out[:, 4:7] = g[:, [0, 1, 2], [0, 1, 2]]
    out[:, 7:10] = g[:, [0, 0, 1], [1, 2, 2]]
    return out.ravel()


def regressor(
    model: KinematicTree,
    q: ArrayLike,
    v: ArrayLike,
    a: ArrayLike,
    gravity: ArrayLike = _DEFAULT_GRAVITY,
) -> FloatArray:
    """The regressor ``Y(q, v, a)``: ``tau = Y pi`` with :func:`inertial_parameters`.

    A body's Newton-Euler wrench ``F_i = G_i A_i - ad_{V_i}^T G_i V_i`` is
    linear in its spatial inertia, and ``G_i`` is linear in the ten
    parameters: ``F_i = sum_k pi_ik (G_k A_i - ad_{V_i}^T G_k V_i)`` with the
    constant ``G_k`` of parameter ``k``. Joint ``j`` carries the wrenches of
    its subtree, ``tau_j = S_j^T sum_i Ad_{ij}^T F_i``, so body ``i``'s
    ten columns are nonzero only in the rows of ``i`` and its ancestors.
    ``V_i`` and ``A_i`` (gravity included) are the RNEA's forward pass.
    Explained in :ref:`sec-pr-regressor`.

    Parameters
    ----------
    model : KinematicTree
        The tree (its inertias are not used).
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v, a : array_like, shape (nv,) or (N, nv)
        Joint velocities and accelerations.
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2.

    Returns
    -------
    numpy.ndarray, shape (nv, 10 n_b) or (N, nv, 10 n_b)
        ``Y``; columns ``10 i ... 10 i + 9`` belong to body ``i`` in the order
        of :data:`PARAMETER_NAMES`.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NonPositiveValueError
        If a free joint's quaternion is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import regressor
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.1, 0.2]), com=[0.5, 0.0, 0.0])
    >>> arm = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> Y = regressor(arm, [0.0], [0.0], [1.0], gravity=[0.0, -9.81, 0.0])
    >>> print(np.round(Y, 6) + 0.0)  # tau = 9.81 m c_x + I_zz
    [[0.   9.81 0.   0.   0.   0.   1.   0.   0.   0.  ]]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr, a_arr), single = _states(
        model, (q, "q", model.nq), (v, "v", model.nv), (a, "a", model.nv)
    )
    grav = _gravity(gravity)
    n, n_b = q_arr.shape[0], model.n_bodies
    x = _kinematics(model, q_arr)
    joint_v = _joint_twists(model, v_arr)
    accels = _joint_twists(model, a_arr)
    twists = joint_v.copy()
    base = np.zeros((n, 6, 1))
    base[:, 3:, 0] = -grav
    out = np.zeros((n, model.nv, 10 * n_b))
    for i, parent in enumerate(model.parents):
        if parent >= 0:
            twists[i] += (x[i] @ twists[parent, :, :, None])[:, :, 0]
            a_parent = accels[parent, :, :, None]
        else:
            a_parent = base
        ad_v = _ad(twists[i])
        accels[i] += (x[i] @ a_parent + ad_v @ joint_v[i, :, :, None])[:, :, 0]
        # columns k of the body's wrench: G_k A - ad_V^T G_k V, (N, 6, 10)
        y = np.einsum("kab,nb->nak", _BASIS, accels[i])
        y -= _t(ad_v) @ np.einsum("kab,nb->nak", _BASIS, twists[i])
        cols = slice(10 * i, 10 * i + 10)
        j = i
        while True:
            if model.S[j].shape[1]:
                out[:, model.v_slices[j], cols] = model.S[j].T @ y
            if model.parents[j] < 0:
                break
            y = _t(x[j]) @ y
            j = model.parents[j]
    return out[0] if single else out


def _mass_and_com(model: KinematicTree, q: FloatArray):
    """Total mass, COM (N, 3) and the world poses (R, p) of the bodies."""
    r, p = _world_poses(model, *_joint_poses(model, q))
    params = inertial_parameters(model).reshape(model.n_bodies, 10)
    masses, m_c = params[:, 0], params[:, 1:4]  # m and m c in {i}
    total = float(np.sum(masses))
    if total <= 0.0:
        raise NotPositiveDefiniteError(
            "model has no mass: its centre of mass is undefined"
        )
    first = masses[:, None, None] * p + (r @ m_c[:, None, :, None])[..., 0]
    return total, np.sum(first, axis=0) / total, r, p


def _to_centroid(r: FloatArray, p: FloatArray, com: FloatArray, f: FloatArray):
    """Wrench-like 6-vectors (or matrices, ``(..., 6, k)``) of ``{i}`` at the COM.

    ``n_G = R n + (p - c) x (R f)``, ``f_G = R f``: world axes, COM origin.
    """
    n_w = r @ f[..., :3, :]
    f_w = r @ f[..., 3:, :]
    arm = np.broadcast_to((p - com)[..., None], f_w.shape)
    return np.concatenate([n_w + np.cross(arm, f_w, axis=-2), f_w], axis=-2)


def center_of_mass(model: KinematicTree, q: ArrayLike) -> FloatArray:
    """The centre of mass of the whole tree in the world frame, m.

    ``c = sum_i m_i c_i / sum_i m_i``, each body's COM ``c_i`` read from its
    spatial inertia and placed by the forward kinematics. Explained in
    :ref:`sec-ab-floating`.

    Parameters
    ----------
    model : KinematicTree
        The tree (with some mass).
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.

    Returns
    -------
    numpy.ndarray, shape (3,) or (N, 3)
        ``c`` in the world frame, m.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NotPositiveDefiniteError
        If the tree has no mass.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import center_of_mass
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.zeros((3, 3)), com=[0.5, 0.0, 0.0])
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> print(np.round(center_of_mass(pendulum, [np.pi / 2]), 6) + 0.0)
    [0.  0.5 0. ]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr,), single = _states(model, (q, "q", model.nq))
    _, com, _, _ = _mass_and_com(model, q_arr)
    return com[0] if single else com


def centroidal_momentum_matrix(model: KinematicTree, q: ArrayLike) -> FloatArray:
    """The centroidal momentum matrix ``A_G(q)``, with ``h_G = A_G v``.

    ``h_G = (k_G, p)`` is the angular momentum about the centre of mass and
    the linear momentum of the whole tree, in world axes. A unit rate of
    joint ``j`` moves its subtree, whose momentum is ``I^c_j S_j`` in ``{j}``
    (the composite inertia of :func:`crba`); carried to the COM it is column
    block ``j`` of ``A_G``. Explained in :ref:`sec-ab-floating`.

    Parameters
    ----------
    model : KinematicTree
        The tree (with some mass).
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.

    Returns
    -------
    numpy.ndarray, shape (6, nv) or (N, 6, nv)
        ``A_G``; rows ``(k_G, p)`` (kg m^2/s and kg m/s per unit velocity).

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NotPositiveDefiniteError
        If the tree has no mass.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import centroidal_momentum_matrix
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.1, 0.2]))
    >>> block = kinematic_tree([-1], ["free"], [[0, 0, 0.0]], [np.eye(4)], [G])
    >>> q = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    >>> print(np.round(centroidal_momentum_matrix(block, q).diagonal(), 6))
    [0.1 0.1 0.2 2.  2.  2. ]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr,), single = _states(model, (q, "q", model.nq))
    n = q_arr.shape[0]
    _, com, r, p = _mass_and_com(model, q_arr)
    x = _kinematics(model, q_arr)
    ic = _composite(model, x, _inertia_stack(model, n))
    out = np.zeros((n, 6, model.nv))
    for i in _moving(model):
        out[:, :, model.v_slices[i]] = _to_centroid(r[i], p[i], com, ic[i] @ model.S[i])
    return out[0] if single else out


def centroidal_momentum(model: KinematicTree, q: ArrayLike, v: ArrayLike) -> FloatArray:
    """The momentum ``h_G = (k_G, p)`` of the whole tree about its centre of mass.

    The sum of the bodies' spatial momenta ``G_i V_i`` (3.1's
    :func:`lib.spatial.spatial_momentum`) carried to the COM in world axes:
    ``k_G = sum_i R_i n_i + (p_i - c) x R_i f_i``, ``p = sum_i R_i f_i``. It
    equals ``A_G v`` (:func:`centroidal_momentum_matrix`) and changes only by
    external forces: in free fall without gravity it is constant. Explained
    in :ref:`sec-ab-floating`.

    Parameters
    ----------
    model : KinematicTree
        The tree (with some mass).
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v : array_like, shape (nv,) or (N, nv)
        Joint velocities.

    Returns
    -------
    numpy.ndarray, shape (6,) or (N, 6)
        ``(k_G, p)``: kg m^2/s and kg m/s, world axes.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NotPositiveDefiniteError
        If the tree has no mass.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import centroidal_momentum
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.1, 0.2]))
    >>> block = kinematic_tree([-1], ["free"], [[0, 0, 0.0]], [np.eye(4)], [G])
    >>> q = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    >>> print(np.round(centroidal_momentum(block, q, [0, 0, 1.0, 1.0, 0, 0]), 6))
    [0.  0.  0.2 2.  0.  0. ]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr), single = _states(model, (q, "q", model.nq), (v, "v", model.nv))
    _, com, r, p = _mass_and_com(model, q_arr)
    x = _kinematics(model, q_arr)
    twists = _joint_twists(model, v_arr)
    for i, parent in enumerate(model.parents):
        if parent >= 0:
            twists[i] += (x[i] @ twists[parent, :, :, None])[:, :, 0]
    # G_i V_i (G symmetric), (n_b, N, 6, 1)
    momenta = (twists @ model.inertias)[..., None]
    out = np.sum(_to_centroid(r, p, com, momenta)[..., 0], axis=0)
    return out[0] if single else out


def configuration_rate(model: KinematicTree, q: ArrayLike, v: ArrayLike) -> FloatArray:
    """The coordinate rates ``dq/dt`` of the velocities ``v``.

    Revolute and prismatic joints: ``dq_i/dt = v_i``. A free joint's
    coordinates ``(p, w, x, y, z)`` move with its body twist ``(omega, v)``
    (in ``{i}``) as ``dp/dt = R v`` and ``d quat/dt = quat * (0, omega) / 2``
    (quaternion product, ``R`` the rotation of the quaternion), so that an
    integrator of ``(q, v)`` can step a floating base; renormalise the
    quaternion after a step. Explained in :ref:`sec-ab-floating`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v : array_like, shape (nv,) or (N, nv)
        Joint velocities.

    Returns
    -------
    numpy.ndarray, shape (nq,) or (N, nq)
        ``dq/dt`` (rad/s, m/s; 1/s for quaternion entries).

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.
    NonPositiveValueError
        If a free joint's quaternion is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.tree_dynamics import configuration_rate
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.1, 0.2]))
    >>> block = kinematic_tree([-1], ["free"], [[0, 0, 0.0]], [np.eye(4)], [G])
    >>> q = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]  # turned half a turn about z
    >>> print(np.round(configuration_rate(block, q, [0, 0, 2.0, 1.0, 0, 0]), 6) + 0.0)
    [-1.  0.  0. -1.  0.  0.  0.]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr), single = _states(model, (q, "q", model.nq), (v, "v", model.nv))
    out = np.zeros_like(q_arr)
    for i, kind in enumerate(model.joint_types):
        qs, vs = model.q_slices[i], model.v_slices[i]
        if kind in ("revolute", "prismatic"):
            out[:, qs] = v_arr[:, vs]
        elif kind == "free":
            quat = q_arr[:, qs.start + 3 : qs.stop]
            omega = v_arr[:, vs.start : vs.start + 3]
            lin = v_arr[:, vs.start + 3 : vs.stop]
            r = quat_to_rotation(quat)
            out[:, qs.start : qs.start + 3] = (r @ lin[:, :, None])[:, :, 0]
            w, vec = quat[:, :1], quat[:, 1:]
            # quat * (0, omega) = (-vec . omega, w omega + vec x omega)
            out[:, qs.start + 3] = -0.5 * np.sum(vec * omega, axis=1)
            out[:, qs.start + 4 : qs.stop] = 0.5 * (w * omega + np.cross(vec, omega))
    return out[0] if single else out
