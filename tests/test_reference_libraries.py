"""Cross-checks of lib against independent libraries.

Pinocchio (``pin``), modern_robotics, trimesh, MuJoCo and SciPy compute the
same quantities with their own code. Pinocchio orders 6-vectors (linear,
angular) and the book (angular, linear): ``SWAP`` converts between them.
Tolerances: the libraries and ``lib`` evaluate the same closed forms in double
precision, so agreement is ~1e-15 relative; 1e-12 is used unless a comment
gives a reason for more.
"""

from __future__ import annotations

import modern_robotics as mr
import mujoco
import numpy as np
import pinocchio as pin
import trimesh
from scipy.integrate import solve_ivp
from scipy.spatial.transform import Rotation

from lib.inertia import (
    box_inertia,
    box_mesh,
    cylinder_inertia,
    ellipsoid_inertia,
    mesh_mass_properties,
    point_mass_properties,
    prism_mesh,
    sphere_inertia,
)
from lib.integrate import rk4
from lib.model_files import mjcf_fullinertia_to_matrix, parse_mjcf_inertial, quat_to_rotation
from lib.rigid_body import spatial_newton_euler, torque_free_rhs
from lib.spatial import ad, adjoint, inverse_transform, spatial_inertia, transform, transform_spatial_inertia

RTOL = 1e-12
ATOL = 1e-12

# (angular, linear) <-> (linear, angular); SWAP is its own inverse
SWAP = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])


def random_pose(rng: np.random.Generator) -> np.ndarray:
    return transform(Rotation.random(random_state=rng).as_matrix(), rng.normal(size=3))


def random_body(rng: np.random.Generator):
    n = int(rng.integers(3, 12))
    return point_mass_properties(rng.uniform(0.1, 2.0, n), rng.normal(scale=0.5, size=(n, 3)))


def fmt(values) -> str:
    return " ".join(f"{x:.17g}" for x in np.ravel(values))


# --------------------------------------------------------------------------- Pinocchio


def test_pinocchio_closed_form_shapes():
    # pin.Inertia.FromBox takes full edge lengths, FromEllipsoid semi-axes
    np.testing.assert_allclose(pin.Inertia.FromBox(2.5, 0.3, 0.5, 0.7).inertia, box_inertia(2.5, [0.3, 0.5, 0.7]), rtol=RTOL)
    np.testing.assert_allclose(pin.Inertia.FromCylinder(2.5, 0.1, 0.4).inertia, cylinder_inertia(2.5, 0.1, 0.4), rtol=RTOL)
    np.testing.assert_allclose(pin.Inertia.FromSphere(2.5, 0.3).inertia, sphere_inertia(2.5, 0.3), rtol=RTOL)
    np.testing.assert_allclose(
        pin.Inertia.FromEllipsoid(2.5, 0.3, 0.5, 0.7).inertia, ellipsoid_inertia(2.5, [0.3, 0.5, 0.7]), rtol=RTOL
    )


def test_pinocchio_spatial_inertia_frame_change_and_dynamics():
    rng = np.random.default_rng(50)
    for _ in range(100):
        body = random_body(rng)
        I_pin = pin.Inertia(body.mass, body.com, body.inertia_com)
        G = spatial_inertia(body.mass, body.inertia_com, com=body.com)
        np.testing.assert_allclose(SWAP @ I_pin.matrix() @ SWAP, G, rtol=RTOL, atol=ATOL)

        # SE3 action on motions = adjoint (after reordering)
        T = random_pose(rng)
        M = pin.SE3(T[:3, :3], T[:3, 3])
        np.testing.assert_allclose(SWAP @ M.action @ SWAP, adjoint(T), rtol=RTOL, atol=ATOL)

        # Inertia.se3Action(aMb) expresses an inertia given in {b} in {a}: G_a = Ad_{T_ba}^T G_b Ad_{T_ba}
        G_a = transform_spatial_inertia(G, inverse_transform(T))
        np.testing.assert_allclose(SWAP @ I_pin.se3Action(M).matrix() @ SWAP, G_a, rtol=RTOL, atol=ATOL)

        # rigid-body equation: pin f = I a + v x* (I v)
        V, Vd = rng.normal(size=(2, 6))
        f_pin = I_pin * pin.Motion(SWAP @ Vd) + I_pin.vxiv(pin.Motion(SWAP @ V))
        np.testing.assert_allclose(SWAP @ f_pin.vector, spatial_newton_euler(G, V, Vd), rtol=RTOL, atol=ATOL)
        # kinetic energy
        np.testing.assert_allclose(0.5 * V @ G @ V, I_pin.vtiv(pin.Motion(SWAP @ V)) / 2.0, rtol=RTOL)


# --------------------------------------------------------------------------- modern_robotics


def test_modern_robotics_adjoint_and_ad():
    # modern_robotics uses the same (omega, v) order as the book
    rng = np.random.default_rng(51)
    for _ in range(100):
        T = random_pose(rng)
        V = rng.normal(size=6)
        np.testing.assert_allclose(adjoint(T), mr.Adjoint(T), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(ad(V), mr.ad(V), rtol=RTOL, atol=ATOL)


# --------------------------------------------------------------------------- trimesh


def test_trimesh_mass_properties_of_box_prism_and_icosphere():
    sphere = trimesh.creation.icosphere(subdivisions=3, radius=0.2)
    cases = [
        box_mesh([0.3, 0.5, 0.7]),
        prism_mesh(0.05, 0.2, 32),
        (np.asarray(sphere.vertices), np.asarray(sphere.faces)),
    ]
    rng = np.random.default_rng(52)
    for vertices, faces in cases:
        # move the mesh off the origin so that the COM shift is tested too
        R = Rotation.random(random_state=rng).as_matrix()
        moved = vertices @ R.T + rng.normal(size=3)
        mesh = trimesh.Trimesh(vertices=moved, faces=faces, process=False)
        mesh.density = 2700.0
        ours = mesh_mass_properties(moved, faces, density=2700.0)
        # same tetrahedron decomposition in double precision: ~1e-15 (book: 1.4e-15)
        np.testing.assert_allclose(ours.mass, mesh.mass, rtol=1e-13)
        np.testing.assert_allclose(ours.com, mesh.center_mass, rtol=1e-13, atol=1e-15)
        # trimesh's moment_inertia is about the centre of mass, in the mesh axes. trimesh
        # integrates about the origin and then subtracts m(|c|^2 E - c c^T); with the mesh
        # ~1-2 m off the origin and ~0.3 m in size that cancels (|c|/size)^2 ~ 50 times the
        # round-off (lib shifts to the mean vertex first): measured 2e-14 absolute, so the
        # tolerance is 1e-11 of the largest entry
        scale = np.abs(mesh.moment_inertia).max()
        np.testing.assert_allclose(ours.inertia_com, mesh.moment_inertia, rtol=0, atol=1e-11 * scale)


# --------------------------------------------------------------------------- MuJoCo


def test_mujoco_free_body_box_and_fullinertia():
    size = np.array([0.2, 0.4, 0.6])
    density = 1000.0
    full = np.array([0.04, 0.05, 0.06, 0.002, -0.001, 0.003])  # Ixx Iyy Izz Ixy Ixz Iyz
    xml = f"""<mujoco><worldbody>
      <body name="box"><freejoint/><geom type="box" size="{fmt(size / 2)}" density="{density}"/></body>
      <body name="full" pos="1 0 0"><freejoint/>
        <inertial pos="0.01 0.02 0.03" mass="1.5" fullinertia="{fmt(full)}"/>
        <geom type="sphere" size="0.01" contype="0" conaffinity="0" mass="0"/></body>
    </worldbody></mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    # box geom: MuJoCo takes half sizes; mass and principal moments in double precision
    mass = density * np.prod(size)
    np.testing.assert_allclose(model.body_mass[1], mass, rtol=1e-14)
    np.testing.assert_allclose(np.sort(model.body_inertia[1]), np.sort(box_inertia(mass, size).diagonal()), rtol=1e-12)
    # fullinertia: MuJoCo diagonalises it; R(iquat) diag(body_inertia) R^T must give back our matrix.
    # MuJoCo's own eigen-solver stops at ~1e-12 relative, hence 1e-10.
    matrix = mjcf_fullinertia_to_matrix(full)
    R = quat_to_rotation(model.body_iquat[2])
    np.testing.assert_allclose(R @ np.diag(model.body_inertia[2]) @ R.T, matrix, rtol=0, atol=1e-10 * np.trace(matrix))
    np.testing.assert_allclose(np.sort(model.body_inertia[2]), np.linalg.eigvalsh(matrix), rtol=1e-10)
    mass_parsed, pos, _, inertia = parse_mjcf_inertial(
        f'<inertial pos="0.01 0.02 0.03" mass="1.5" fullinertia="{fmt(full)}"/>'
    )
    np.testing.assert_allclose(model.body_ipos[2], pos, rtol=1e-15)
    assert model.body_mass[2] == mass_parsed


def test_mujoco_mesh_inertia_is_float32_accurate():
    vertices, faces = prism_mesh(0.05, 0.2, 16)
    xml = f"""<mujoco><asset>
      <mesh name="prism" vertex="{fmt(vertices)}" face="{fmt(faces)}" inertia="exact"/></asset>
      <worldbody><body><freejoint/><geom type="mesh" mesh="prism" density="7800"/></body></worldbody></mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    assert model.mesh_vert.dtype == np.float32
    ours = mesh_mass_properties(vertices, faces, density=7800.0)
    # MuJoCo stores mesh vertices in float32 (eps 6e-8), so its mass and inertia differ
    # from a double-precision computation at ~1e-7 relative (measured 3e-8; book: 1.4e-7)
    np.testing.assert_allclose(model.body_mass[1], ours.mass, rtol=5e-7)
    np.testing.assert_allclose(np.sort(model.body_inertia[1]), np.linalg.eigvalsh(ours.inertia_com), rtol=5e-7)
    # with the float32 vertices themselves, the two agree to double precision
    rounded = mesh_mass_properties(vertices.astype(np.float32).astype(float), faces, density=7800.0)
    np.testing.assert_allclose(model.body_mass[1], rounded.mass, rtol=1e-6)


# --------------------------------------------------------------------------- SciPy


def test_scipy_dop853_matches_rk4_on_torque_free_rotation():
    inertia = np.diag([1.0, 2.0, 3.0])
    f = torque_free_rhs(inertia)
    w0 = np.array([1.0, 0.3, 2.0])
    t, states = rk4(f, w0, 0.0, 1e-3, 4000)
    solution = solve_ivp(f, (0.0, 4.0), w0, method="DOP853", rtol=1e-12, atol=1e-14, t_eval=t[::400])
    # RK4 global error at h = 1 ms is ~1e-12 here (16x per halving, 6.5e-10 at h = 5 ms);
    # DOP853 at rtol 1e-12 is as accurate: 1e-10 leaves a margin of ~100
    np.testing.assert_allclose(states[::400], solution.y.T, rtol=0, atol=1e-10)
