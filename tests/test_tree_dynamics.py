"""Tests of lib.tree_dynamics: closed forms, the routines against each other, batches.

Pinocchio's cross-checks are in tests/test_reference_tree_dynamics.py.
Tolerances: CRBA, C, the regressor and the momentum evaluate products of O(1)
numbers in double precision and agree with the RNEA to ~1e-15 relative;
1e-12 (relative to the largest entry) is used unless a comment gives a
reason for more. The ABA's accelerations pass through ``M^-1``, whose
condition number (up to 3e4 for these trees) multiplies the round-off.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import cho_factor, cho_solve, expm
from scipy.spatial.transform import Rotation

from lib.common import GRAVITY, random_inertia
from lib.errors import (
    NonFiniteError,
    NonPositiveValueError,
    NotPositiveDefiniteError,
    ShapeError,
)
from lib.inertia import pseudo_inertia
from lib.integrate import rk4
from lib.kinematic_tree import (
    _BLOCK,
    bias_forces,
    body_twists,
    forward_kinematics,
    gravity_torques,
    kinematic_tree,
    rnea,
    rnea_mass_matrix,
    tree_kinetic_energy,
)
from lib.models.robots import load_robot
from lib.spatial import spatial_inertia
from lib.tree_dynamics import (
    PARAMETER_NAMES,
    aba,
    center_of_mass,
    centroidal_momentum,
    centroidal_momentum_matrix,
    configuration_rate,
    coriolis_matrix,
    crba,
    inertial_parameters,
    regressor,
)
from test_kinematic_tree import planar_arm, random_state, spatial_chain

RTOL = 1e-12


def close(actual, expected, rtol: float = RTOL, what: str = "") -> None:
    """Agreement relative to the largest entry of the reference (at least 1)."""
    scale = max(float(np.max(np.abs(expected))), 1.0)
    np.testing.assert_allclose(
        actual, expected, rtol=0, atol=rtol * scale, err_msg=what
    )


def trees():
    """Fixed and floating trees: branched spatial chains (a fixed joint), robots."""
    rng = np.random.default_rng(100)
    return [
        ("chain", spatial_chain(rng, "revolute")),
        ("floating chain", spatial_chain(rng, "free")),
        ("ur5", load_robot("ur5")),
        ("solo12", load_robot("solo12")),
    ]


TREES = trees()
IDS = [name for name, _ in TREES]


def displaced(model, q, v, eps: float):
    """The configuration reached from ``q`` by moving with ``v`` for ``eps`` s.

    Joints: ``q + eps v``; a free joint: its pose times ``exp(eps [V])``, the
    exact motion with the constant body twist ``V`` (so that central
    differences are second-order accurate on the group).
    """
    out = q + eps * np.concatenate(
        [
            v[model.v_slices[i]] if model.joint_types[i] != "free" else np.zeros(7)
            for i in range(model.n_bodies)
        ]
    )
    for i, kind in enumerate(model.joint_types):
        if kind != "free":
            continue
        qs, vs = model.q_slices[i], model.v_slices[i]
        w, x, y, z = q[qs.start + 3 : qs.stop]
        T = np.eye(4)
        T[:3, :3] = Rotation.from_quat([x, y, z, w]).as_matrix()
        T[:3, 3] = q[qs.start : qs.start + 3]
        twist = np.zeros((4, 4))
        omega, lin = v[vs.start : vs.start + 3], v[vs.start + 3 : vs.stop]
        twist[:3, :3] = [[0, -omega[2], omega[1]], [omega[2], 0, -omega[0]],
                         [-omega[1], omega[0], 0]]
        twist[:3, 3] = lin
        T = T @ expm(eps * twist)
        x, y, z, w = Rotation.from_matrix(T[:3, :3]).as_quat()
        quat = np.array([w, x, y, z])
        # the sign of q's own quaternion (both signs are the same rotation)
        if quat @ q[qs.start + 3 : qs.stop] < 0.0:
            quat = -quat
        out[qs.start : qs.start + 3] = T[:3, 3]
        out[qs.start + 3 : qs.stop] = quat * np.linalg.norm(q[qs.start + 3 : qs.stop])
    return out


# --------------------------------------------------------------------------- CRBA


@pytest.mark.parametrize("name, model", TREES, ids=IDS)
def test_crba_is_the_rnea_mass_matrix(name, model):
    rng = np.random.default_rng(101)
    for _ in range(10):
        q, _, _ = random_state(rng, model)
        close(crba(model, q), rnea_mass_matrix(model, q))
        np.testing.assert_array_equal(crba(model, q), crba(model, q).T)  # filled so


def test_crba_has_the_branch_sparsity_of_the_tree():
    """M_ij = 0 exactly when neither joint's body is an ancestor of the other's."""
    rng = np.random.default_rng(102)
    for model in (load_robot("solo12"), load_robot("talos")):
        ancestors = []
        for i, parent in enumerate(model.parents):
            ancestors.append({i} | (ancestors[parent] if parent >= 0 else set()))
        related = np.zeros((model.nv, model.nv), bool)
        for i in range(model.n_bodies):
            for j in range(model.n_bodies):
                if i in ancestors[j] or j in ancestors[i]:
                    related[model.v_slices[i], model.v_slices[j]] = True
        q, _, _ = random_state(rng, model)
        M = crba(model, q)
        assert np.all(M[~related] == 0.0)  # never written: exact zeros
        # coupled entries are nonzero but for the structural zeros of the base's
        # mass block m E (its off-diagonal entries)
        assert np.count_nonzero(M[related]) >= related.sum() - 6
        assert (~related).sum() > 0.3 * model.nv**2  # legs and arms: many zeros


# --------------------------------------------------------------------------- ABA


@pytest.mark.parametrize("name, model", TREES, ids=IDS)
def test_aba_inverts_the_rnea_and_equals_a_cholesky_solve(name, model):
    rng = np.random.default_rng(103)
    g = np.array([0.3, -0.2, -GRAVITY])
    for _ in range(10):
        q, v, a = random_state(rng, model)
        tau = rnea(model, q, v, a, g)
        qdd = aba(model, q, v, tau, g)
        M = crba(model, q)
        # a residual of tau: round-off of the RNEA's sums, relative to |tau|
        close(rnea(model, q, v, qdd, g), tau, rtol=1e-11)
        # accelerations: round-off times cond(M) (measured up to 3e4 here)
        cond = np.linalg.cond(M)
        close(qdd, a, rtol=1e-14 * cond + 1e-12)
        factor = cho_factor(M)
        close(qdd, cho_solve(factor, tau - bias_forces(model, q, v, g)),
              rtol=1e-14 * cond + 1e-12)


def test_aba_of_the_planar_arm_is_the_closed_form_solve():
    """Two uniform rods: qdd = M^-1 (tau - C qd - g) with the textbook M, C and g."""
    l1, l2, m1, m2 = 0.7, 0.4, 3.0, 1.5
    arm = planar_arm((l1, l2), (m1, m2))
    g = np.array([0.0, -GRAVITY, 0.0])
    rng = np.random.default_rng(104)
    for _ in range(20):
        q, qd, tau = rng.normal(size=(3, 2))
        c2, s2 = np.cos(q[1]), np.sin(q[1])
        M = np.array(
            [
                [m1 * l1**2 / 3 + m2 * (l1**2 + l2**2 / 3 + l1 * l2 * c2),
                 m2 * (l2**2 / 3 + l1 * l2 * c2 / 2)],
                [m2 * (l2**2 / 3 + l1 * l2 * c2 / 2), m2 * l2**2 / 3],
            ]
        )
        k = m2 * l1 * l2 * s2 / 2
        C = np.array([[-k * qd[1], -k * (qd[0] + qd[1])], [k * qd[0], 0.0]])
        gq = GRAVITY * np.array(
            [
                (m1 / 2 + m2) * l1 * np.cos(q[0]) + m2 * l2 / 2 * np.cos(q[0] + q[1]),
                m2 * l2 / 2 * np.cos(q[0] + q[1]),
            ]
        )
        close(aba(arm, q, qd, tau, g), np.linalg.solve(M, tau - C @ qd - gq), 1e-11)
        close(coriolis_matrix(arm, q, qd), C)  # the Christoffel C of the textbook
        close(crba(arm, q), M)


def test_aba_refuses_a_joint_that_moves_no_mass():
    z = [0.0, 0.0, 1.0]
    G = spatial_inertia(1.0, np.diag([0.1, 0.1, 0.1]), com=[0.5, 0.0, 0.0])
    X = np.eye(4)
    X[0, 3] = 1.0
    # the second joint carries a massless body: M is singular
    arm = kinematic_tree([-1, 0], ["revolute"] * 2, [z, z], [np.eye(4), X],
                         [G, np.zeros((6, 6))])
    with pytest.raises(NotPositiveDefiniteError, match="joint1.*moves no mass"):
        aba(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    assert np.linalg.matrix_rank(crba(arm, [0.0, 0.0])) == 1


# --------------------------------------------------------------------------- C


@pytest.mark.parametrize("name, model", TREES, ids=IDS)
def test_coriolis_matrix_gives_h_and_a_skew_mdot_minus_2c(name, model):
    rng = np.random.default_rng(105)
    g = np.array([0.0, 0.0, -GRAVITY])
    eps = 1e-5
    for _ in range(5):
        q, v, _ = random_state(rng, model)
        C = coriolis_matrix(model, q, v)
        close(C @ v, bias_forces(model, q, v, g) - gravity_torques(model, q, g))
        # dM/dt by central differences along the motion: truncation eps^2 ~ 1e-10,
        # round-off 1e-16 |M| / eps ~ 1e-11 (measured up to 1e-9 relative)
        m_dot = (crba(model, displaced(model, q, v, eps))
                 - crba(model, displaced(model, q, v, -eps))) / (2 * eps)
        close(m_dot, C + C.T, rtol=1e-8)
        N = m_dot - 2 * C
        close(N, -N.T, rtol=1e-8)
        w = rng.normal(size=model.nv)
        assert abs(w @ N @ w) <= 1e-8 * np.abs(N).max() * w @ w  # w^T N w = 0


@pytest.mark.parametrize("name, model", TREES[:1] + TREES[2:3], ids=["chain", "ur5"])
def test_coriolis_matrix_is_the_christoffel_one(name, model):
    """Joint coordinates: C v = h - g does not fix C; the Christoffel symbols do.

    Their symmetry Gamma_ijk = Gamma_ikj gives C(q, v) w = C(q, w) v, and C is
    compared with the symbols computed from finite differences of M.
    """
    rng = np.random.default_rng(106)
    for _ in range(5):
        q, v, w = random_state(rng, model)
        close(coriolis_matrix(model, q, v) @ w, coriolis_matrix(model, q, w) @ v)
        # and linear in v
        close(coriolis_matrix(model, q, 2.0 * v - w),
              2.0 * coriolis_matrix(model, q, v) - coriolis_matrix(model, q, w))
        # against the Christoffel symbols from finite differences of M:
        # C_ij = sum_k (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) v_k / 2
        eps = 1e-6
        dM = np.array([(crba(model, q + eps * e) - crba(model, q - eps * e)) / (2 * eps)
                       for e in np.eye(model.nv)])  # dM[k] = dM/dq_k
        christoffel = 0.5 * (
            np.einsum("kij,k->ij", dM, v)
            + np.einsum("jik,k->ij", dM, v)
            - np.einsum("ijk,k->ij", dM, v)
        )
        # central differences at 1e-6: truncation and round-off, measured 1.6e-9
        close(coriolis_matrix(model, q, v), christoffel, rtol=1e-8)


# --------------------------------------------------------------------------- regressor


def test_inertial_parameters_are_3_1s_ten_numbers():
    """pi rebuilds G, and its entries make 3.1's pseudo-inertia."""
    rng = np.random.default_rng(107)
    assert PARAMETER_NAMES[:4] == ("m", "mc_x", "mc_y", "mc_z")
    for _ in range(20):
        m, I_c, c = rng.uniform(0.5, 3.0), random_inertia(rng), rng.normal(size=3)
        G = spatial_inertia(m, I_c, com=c)
        body = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
        pi = inertial_parameters(body)
        I_o = np.array([[pi[4], pi[7], pi[8]], [pi[7], pi[5], pi[9]],
                        [pi[8], pi[9], pi[6]]])
        close(pi[0], m)
        close(pi[1:4], m * c)
        close(I_o, G[:3, :3])
        Pi = np.zeros((4, 4))
        Pi[:3, :3] = 0.5 * np.trace(I_o) * np.eye(3) - I_o
        Pi[:3, 3] = Pi[3, :3] = pi[1:4]
        Pi[3, 3] = pi[0]
        close(Pi, pseudo_inertia(m, c, I_c))


@pytest.mark.parametrize("name, model", TREES, ids=IDS)
def test_regressor_times_random_consistent_parameters_is_the_rnea(name, model):
    """Y depends on the kinematics only; Y pi = rnea for any physical inertias."""
    rng = np.random.default_rng(108)
    g = np.array([0.5, 0.0, -GRAVITY])
    for _ in range(5):
        inertias = [
            spatial_inertia(rng.uniform(0.1, 5.0), random_inertia(rng),
                            com=rng.normal(scale=0.3, size=3))
            for _ in range(model.n_bodies)
        ]
        other = kinematic_tree(model.parents, model.joint_types, model.axes,
                               model.placements, inertias)
        q, v, a = random_state(rng, model)
        Y = regressor(model, q, v, a, g)
        # the same kinematics (re-normalised axes: round-off)
        close(Y, regressor(other, q, v, a, g), rtol=1e-14)
        close(Y @ inertial_parameters(other), rnea(other, q, v, a, g))
        # columns of a body are zero in the rows of joints that do not carry it
        for i in range(model.n_bodies):
            j = model.parents[i]
            carried = {i}
            while j >= 0:
                carried.add(j)
                j = model.parents[j]
            rows = np.concatenate(
                [np.arange(model.nv)[model.v_slices[k]]
                 for k in range(model.n_bodies) if k not in carried]
                + [np.zeros(0, int)]
            )
            assert np.all(Y[rows, 10 * i : 10 * i + 10] == 0.0)


# --------------------------------------------------------------------------- momentum


def test_momentum_of_a_single_free_body_is_3_1s():
    """h_G = (R I_c omega, m R v_c) in world axes about the COM."""
    rng = np.random.default_rng(109)
    m, I_c, c = 2.5, random_inertia(rng), np.array([0.1, -0.2, 0.3])
    body = kinematic_tree([-1], ["free"], np.zeros((1, 3)), [np.eye(4)],
                          [spatial_inertia(m, I_c, com=c)])
    for _ in range(10):
        q, v, _ = random_state(rng, body)
        T = forward_kinematics(body, q)[0]
        R, omega, lin = T[:3, :3], v[:3], v[3:]
        close(center_of_mass(body, q), T[:3, :3] @ c + T[:3, 3])
        expected = np.concatenate([R @ I_c @ omega, m * R @ (lin + np.cross(omega, c))])
        close(centroidal_momentum(body, q, v), expected)
        close(centroidal_momentum_matrix(body, q) @ v, expected)


@pytest.mark.parametrize("name, model", TREES, ids=IDS)
def test_momentum_two_ways_and_the_com_velocity(name, model):
    rng = np.random.default_rng(110)
    mass = inertial_parameters(model)[::10].sum()
    for _ in range(5):
        q, v, _ = random_state(rng, model)
        h = centroidal_momentum(model, q, v)
        close(centroidal_momentum_matrix(model, q) @ v, h)
        # linear momentum = m dc/dt (central differences: eps^2 truncation)
        eps = 1e-6
        c_dot = (center_of_mass(model, displaced(model, q, v, eps))
                 - center_of_mass(model, displaced(model, q, v, -eps))) / (2 * eps)
        close(h[3:], mass * c_dot, rtol=1e-8)  # measured up to 6e-10
        # kinetic energy >= |p|^2 / 2m + k^T I_G^-1 k / 2 >= |p|^2 / 2m (Koenig)
        translation = h[3:] @ h[3:] / (2 * mass)
        assert tree_kinetic_energy(model, q, v) >= translation * (1 - 1e-12)


@pytest.mark.parametrize("name", ["floating chain", "solo12"])
def test_momentum_is_conserved_in_free_fall_without_gravity(name):
    """A floating tree with joint torques but no gravity: ABA, RK4, the quaternion."""
    model = dict(TREES)[name]
    rng = np.random.default_rng(111)
    q0, v0, _ = random_state(rng, model)
    nq = model.nq
    zero_g = np.zeros(3)
    root_dofs = model.v_slices[0]

    # internal torques only: joint dampers with a time constant of ~0.1 s (the
    # floating base gets none)
    damping = 10.0 * np.diagonal(crba(model, q0)).copy()
    damping[root_dofs] = 0.0

    def torques(q, v):
        return -damping * v

    def rhs(t, y):
        q, v = y[:nq], y[nq:]
        return np.concatenate([configuration_rate(model, q, v),
                               aba(model, q, v, torques(q, v), zero_g)])

    _, states = rk4(rhs, np.concatenate([q0, v0]), 0.0, 1e-3, 300)
    q, v = states[:, :nq], states[:, nq:]
    h = centroidal_momentum(model, q, v)  # one batch for the whole trajectory
    # RK4's error: measured 1.4e-10 (chain) and 1.5e-12 (Solo-12) of |h| at 1 ms,
    # ~16 times more at 2 ms (h^4): the drift is the integrator's, not the ABA's
    close(h, np.broadcast_to(h[0], h.shape), rtol=1e-9)
    # not trivial: the dampers slowed the joints down and took energy out, and the
    # base's own twist changed while the whole tree's momentum did not
    energy = tree_kinetic_energy(model, q, v)
    joints = np.abs(v[:, root_dofs.stop :]).max(axis=1)
    assert joints[-1] < 0.5 * joints[0]
    assert energy[-1] < energy[0]
    assert np.abs(v[-1, root_dofs] - v[0, root_dofs]).max() > 0.1


# --------------------------------------------------------------------------- batches


def test_batches_equal_the_single_states():
    rng = np.random.default_rng(112)
    for _, model in TREES[1:3]:
        q, v, a = random_state(rng, model, 6)
        batched = {
            "crba": (crba(model, q), lambda k: crba(model, q[k])),
            "aba": (aba(model, q, v, a), lambda k: aba(model, q[k], v[k], a[k])),
            "C": (coriolis_matrix(model, q, v),
                  lambda k: coriolis_matrix(model, q[k], v[k])),
            "Y": (
                regressor(model, q, v, a),
                lambda k: regressor(model, q[k], v[k], a[k]),
            ),
            "com": (center_of_mass(model, q), lambda k: center_of_mass(model, q[k])),
            "A_G": (centroidal_momentum_matrix(model, q),
                    lambda k: centroidal_momentum_matrix(model, q[k])),
            "h_G": (centroidal_momentum(model, q, v),
                    lambda k: centroidal_momentum(model, q[k], v[k])),
            "dq": (configuration_rate(model, q, v),
                   lambda k: configuration_rate(model, q[k], v[k])),
        }
        for what, (batch, single) in batched.items():
            assert batch.shape[0] == 6, what
            for k in range(6):
                # the same operations on the same numbers; only the order of a
                # batched matmul may differ
                np.testing.assert_allclose(
                    batch[k],
                    single(k),
                    rtol=1e-13,
                    atol=1e-13 * np.abs(batch).max(),
                    err_msg=what,
                )
        # an empty batch
        assert crba(model, q[:0]).shape == (0, model.nv, model.nv)
        assert aba(model, q[:0], v[:0], a[:0]).shape == (0, model.nv)


def test_batches_larger_than_a_block_are_evaluated_block_by_block():
    """A batch of more states than lib evaluates at once: every block's states."""
    model = load_robot("ur5")
    rng = np.random.default_rng(114)
    n = 2 * _BLOCK + 3
    q, v, a = random_state(rng, model, n)
    tau, qdd, M = rnea(model, q, v, a), aba(model, q, v, a), crba(model, q)
    assert tau.shape == qdd.shape == (n, model.nv) and M.shape == (n, 6, 6)
    for k in (0, _BLOCK - 1, _BLOCK, 2 * _BLOCK, n - 1):
        # single states: the same operations, up to the order of batched matmuls
        close(tau[k], rnea(model, q[k], v[k], a[k]), rtol=1e-13)
        close(qdd[k], aba(model, q[k], v[k], a[k]), rtol=1e-13)
        close(M[k], crba(model, q[k]), rtol=1e-13)


def test_configuration_rate_is_the_derivative_of_the_motion():
    """d/dt of displaced(q, v, t) at t = 0, with the exact exponential of the base."""
    rng = np.random.default_rng(113)
    model = dict(TREES)["floating chain"]
    for _ in range(5):
        q, v, _ = random_state(rng, model)
        eps = 1e-6
        fd = (displaced(model, q, v, eps) - displaced(model, q, v, -eps)) / (2 * eps)
        close(configuration_rate(model, q, v), fd, rtol=1e-8)  # measured 8e-11
        # the convention displaced() relies on: the base's velocity is its body twist
        close(body_twists(model, q, v)[0], v[:6])


# --------------------------------------------------------------------------- bad input


def test_bad_input_is_rejected_with_clear_errors():
    arm = planar_arm()
    with pytest.raises(ShapeError, match=r"q must have shape \(2,\), got shape \(3,\)"):
        crba(arm, [0.0, 0.0, 0.0])
    with pytest.raises(ShapeError, match=r"tau must have shape \(2,\)"):
        aba(arm, [0.0, 0.0], [0.0, 0.0], [0.0])
    with pytest.raises(ShapeError, match=r"v must have shape \(4, 2\)"):
        coriolis_matrix(arm, np.zeros((4, 2)), np.zeros((3, 2)))
    with pytest.raises(NonFiniteError, match="a contains NaN"):
        regressor(arm, [0.0, 0.0], [0.0, 0.0], [np.nan, 0.0])
    with pytest.raises(ShapeError, match="gravity must have shape"):
        aba(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], gravity=9.81)
    with pytest.raises(ShapeError, match="model must be a KinematicTree"):
        inertial_parameters("ur5")
    with pytest.raises(ShapeError, match="model must be a KinematicTree"):
        centroidal_momentum(None, [0.0, 0.0], [0.0, 0.0])
    body = kinematic_tree([-1], ["free"], np.zeros((1, 3)), [np.eye(4)],
                          [spatial_inertia(1.0, np.eye(3))])
    with pytest.raises(NonPositiveValueError, match="the norm of quat"):
        aba(body, np.zeros(7), np.zeros(6), np.zeros(6))
    with pytest.raises(NonPositiveValueError, match="the norm of quat"):
        configuration_rate(body, np.zeros(7), np.zeros(6))
    ghost = kinematic_tree([-1], ["free"], np.zeros((1, 3)), [np.eye(4)],
                           [np.zeros((6, 6))])
    with pytest.raises(NotPositiveDefiniteError, match="no mass"):
        center_of_mass(ghost, [0, 0, 0, 1.0, 0, 0, 0])
    with pytest.raises(NotPositiveDefiniteError, match="moves no mass"):
        aba(ghost, [0, 0, 0, 1.0, 0, 0, 0], np.zeros(6), np.zeros(6))
