"""Cross-checks of the contact routines (chapter 3.12) against real libraries.

SciPy (nnls, solve_ivp DOP853, quad), Pinocchio (crba, frame Jacobian,
impulseDynamics), MuJoCo (pyramidal versus elliptic friction cones, corner
forces of a box) and Drake (hydroelastic force of a compliant sphere on a
rigid plane as the mesh is refined; the geometry-pair table against the
engine). Pinocchio orders 6-vectors (linear, angular); only the linear rows
of its frame Jacobian are used here.
"""

from __future__ import annotations

import itertools
from importlib.metadata import version

import mujoco
import numpy as np
import pinocchio as pin
import pydrake
import pytest

from lib.common import GRAVITY
from pydrake.geometry import (
    AddCompliantHydroelasticProperties,
    AddCompliantHydroelasticPropertiesForHalfSpace,
    AddContactMaterial,
    AddRigidHydroelasticProperties,
    Box,
    Convex,
    HalfSpace,
    ProximityProperties,
    Sphere,
)
from pydrake.math import RigidTransform
from pydrake.multibody.plant import AddMultibodyPlantSceneGraph, ContactModel, CoulombFriction
from pydrake.multibody.tree import SpatialInertia, UnitInertia
from pydrake.systems.framework import DiagramBuilder
from scipy.integrate import quad, solve_ivp
from scipy.optimize import nnls

from lib.contact_lcp import delassus, effective_mass, newton_impact
from lib.friction import pyramid_capacity
from lib.hydroelastic import (
    DRAKE_TABLE_VERSION,
    drake_pair_outcome,
    sphere_plane_force,
    sphere_plane_force_quadrature,
)
from lib.lcp import lcp_residual, lemke, minimum_norm_lcp
from lib.models.box_on_corners import box_on_corners
from lib.models.planar_2r_arm import planar_2r_arm
from lib.soft_contact import (
    contact_time_constant,
    hertz_contact_time,
    hertz_force,
    hertz_stiffness,
    hunt_crossley_force,
    kelvin_voigt_damping,
    kelvin_voigt_force,
    simulate_collision,
)

G_ACC = GRAVITY  # lib.common: the book's g

# ============================================================== SciPy


def test_frictionless_lcp_agrees_with_scipy_nnls():
    # LCP(N M^-1 N^T, N v*) is the optimality condition of
    # min_{c >= 0} 1/2 |L^-1 N^T c + L^T v*|^2 (M = L L^T), a non-negative least-squares problem.
    rng = np.random.default_rng(2014)
    worst_v, worst_c = 0.0, 0.0
    for _ in range(300):
        n, m = int(rng.integers(1, 12)), int(rng.integers(1, 16))
        B = rng.normal(size=(n, n))
        M = B @ B.T + n * np.eye(n)
        N = rng.normal(size=(m, n))
        v_star = rng.normal(size=n)
        A, b = delassus(M, N), N @ v_star
        c_lemke = lemke(A, b)
        L = np.linalg.cholesky(M)
        c_nnls, _ = nnls(np.linalg.solve(L, N.T), -L.T @ v_star, maxiter=50 * m)
        Minv = np.linalg.inv(M)
        v_lemke = v_star + Minv @ N.T @ c_lemke
        v_nnls = v_star + Minv @ N.T @ c_nnls
        worst_v = max(worst_v, np.max(np.abs(v_lemke - v_nnls)) / (1 + np.max(np.abs(v_star))))
        if m <= n:  # full row rank: the impulses are unique too
            worst_c = max(worst_c, np.max(np.abs(c_lemke - c_nnls)) / (1 + np.max(np.abs(c_nnls))))
        assert lcp_residual(A, b, c_nnls) < 1e-8 * (1 + np.max(np.abs(c_nnls)))
    # v+ is unique even when the impulses are not; both solvers reach
    # round-off (1e-9 relative covers condition numbers up to ~1e4).
    assert worst_v < 1e-9
    assert worst_c < 1e-9


def test_contact_time_constant_against_scipy_quad():
    value, err = quad(lambda x: 1.0 / np.sqrt(1.0 - x**2.5), 0.0, 1.0, limit=200)
    # quad handles the integrable endpoint singularity to ~1e-10.
    np.testing.assert_allclose(contact_time_constant(), 2.0 * value, rtol=1e-9)


def test_hydroelastic_force_against_scipy_quad():
    E_h, R = 1e5, 0.05
    for delta in (1e-4, 1e-3, 4e-3, 2e-2, 5e-2):
        a = np.sqrt(2 * R * delta - delta**2)
        value, _ = quad(lambda rho: E_h * (1 - np.hypot(R - delta, rho) / R) * 2 * np.pi * rho, 0.0, a)
        # adaptive quadrature of a smooth integrand: 1e-12 relative.
        np.testing.assert_allclose(sphere_plane_force(E_H := E_h, R, delta), value, rtol=1e-12)
        np.testing.assert_allclose(sphere_plane_force_quadrature(E_H, R, delta), value, rtol=1e-12)


def _ivp_collision(force_law, mass, v0, t_end):
    """Reference: DOP853 with an event at x = 0 (after first touch)."""

    def rhs(t, y):
        x = max(y[0], np.nextafter(0.0, 1.0))  # contact phase: just inside at first touch
        return [y[1], -force_law(x, y[1]) / mass]

    def leave(t, y):
        return y[0]

    leave.terminal, leave.direction = True, -1
    sol = solve_ivp(rhs, (0.0, t_end), [0.0, v0], method="DOP853", events=leave,
                    rtol=1e-12, atol=1e-15, first_step=t_end * 1e-6)
    assert sol.status == 1, "the reference integration did not see the mass leave"
    return sol.t_events[0][0], -sol.y_events[0][0][1] / v0


@pytest.mark.parametrize("law_name", ["hertz", "hunt_crossley", "kelvin_voigt"])
def test_collision_integrator_against_scipy_dop853(law_name):
    radius = 0.01
    mass = 7850.0 * 4 / 3 * np.pi * radius**3
    k = hertz_stiffness(radius, 200e9, 0.3)
    v0 = 1.0
    T = hertz_contact_time(mass, v0, k)
    if law_name == "hertz":
        def law(x, v):
            return float(hertz_force(k, x))
    elif law_name == "hunt_crossley":
        def law(x, v):
            return float(hunt_crossley_force(k, 0.1, x, v))
    else:
        k_lin = 1e7
        c = kelvin_voigt_damping(0.25, k_lin, mass)
        T = np.pi * np.sqrt(mass / k_lin)

        def law(x, v):
            return float(kelvin_voigt_force(k_lin, c, x, v))
    ours = simulate_collision(law, mass, v0, T / 2000)
    t_ref, e_ref = _ivp_collision(law, mass, v0, 5 * T)
    # RK4 with 2000 steps per contact against DOP853 at rtol 1e-12: the
    # fourth-order error is ~1e-10; 1e-8 leaves room for the event location.
    np.testing.assert_allclose(ours.restitution, e_ref, rtol=1e-8)
    np.testing.assert_allclose(ours.contact_time, t_ref, rtol=1e-8)


# ============================================================== Pinocchio


def _pinocchio_2r(lengths, masses):
    model = pin.Model()
    parent = 0
    placement = pin.SE3.Identity()
    for i, (length, mass) in enumerate(zip(lengths, masses)):
        joint = model.addJoint(parent, pin.JointModelRZ(), placement, f"joint{i + 1}")
        rod = np.diag([0.0, mass * length**2 / 12, mass * length**2 / 12])  # thin rod along x
        model.appendBodyToJoint(joint, pin.Inertia(mass, np.array([length / 2, 0, 0]), rod), pin.SE3.Identity())
        parent = joint
        placement = pin.SE3(np.eye(3), np.array([length, 0.0, 0.0]))
    tip = model.addFrame(pin.Frame("tip", parent, placement, pin.FrameType.OP_FRAME))
    return model, model.createData(), tip


def test_2r_arm_mass_matrix_jacobian_and_impulse_against_pinocchio():
    lengths, masses = (0.5, 0.4), (2.0, 1.5)
    model, data, tip = _pinocchio_2r(lengths, masses)
    rng = np.random.default_rng(26)
    for q in rng.uniform(-np.pi, np.pi, size=(40, 2)):
        M, J, p = planar_2r_arm(q, lengths, masses)
        M_pin = pin.crba(model, data, q)
        M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T  # crba fills the upper triangle
        # 1e-13: the same model evaluated two ways, round-off only.
        np.testing.assert_allclose(M, M_pin, atol=1e-13)
        pin.forwardKinematics(model, data, q)
        pin.updateFramePlacements(model, data)
        J_pin = pin.computeFrameJacobian(model, data, q, tip, pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(J, J_pin[:2], atol=1e-13)  # rows 0, 1: linear x, y
        np.testing.assert_allclose(p, data.oMf[tip].translation[:2], atol=1e-14)
        if abs(np.linalg.det(J)) < 1e-3:
            continue
        # Impact: the tip hits a wall whose normal is random, at 1 m/s.
        phi = rng.uniform(0, 2 * np.pi)
        normal = np.array([np.cos(phi), np.sin(phi)])
        v_minus = np.linalg.solve(J, -normal)  # tip moves into the wall at 1 m/s
        e = float(rng.uniform(0, 1))
        ours = newton_impact(M, normal @ J, v_minus, e)
        Jc = (np.append(normal, 0.0) @ J_pin[:3]).reshape(1, 2)
        v_pin = pin.impulseDynamics(model, data, q, v_minus, Jc, e)
        # impulse solves with condition numbers up to ~1e3: 1e-10.
        np.testing.assert_allclose(ours.v_plus, v_pin, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(ours.impulse, np.abs(data.impulse_c), rtol=1e-10)
        np.testing.assert_allclose(ours.impulse[0], (1 + e) * effective_mass(M, normal @ J), rtol=1e-12)


# ============================================================== MuJoCo

SLIDER = """
<mujoco>
  <option timestep="0.001" cone="{cone}"/>
  <worldbody>
    <geom type="plane" size="5 5 0.1" friction="{mu} 0.005 0.0001"/>
    <body pos="0 0 0.05">
      <joint type="slide" axis="1 0 0"/>
      <joint type="slide" axis="0 1 0"/>
      <joint type="slide" axis="0 0 1"/>
      <geom type="box" size="0.05 0.05 0.05" mass="1" friction="{mu} 0.005 0.0001"/>
    </body>
  </worldbody>
</mujoco>
"""
MU = 0.5


def _pushed_speed(cone, ratio, psi, seconds=1.0):
    """Speed after pushing the resting 1 kg block with ratio * mu m g along psi."""
    model = mujoco.MjModel.from_xml_string(SLIDER.format(cone=cone, mu=MU))
    data = mujoco.MjData(model)
    for _ in range(200):  # settle on the floor
        mujoco.mj_step(model, data)
    data.qfrc_applied[:2] = ratio * MU * G_ACC * np.array([np.cos(psi), np.sin(psi)])
    for _ in range(int(seconds / model.opt.timestep)):
        mujoco.mj_step(model, data)
    return float(np.linalg.norm(data.qvel[:2]))


@pytest.mark.parametrize(
    ("cone", "psi", "threshold"),
    [
        ("pyramidal", 0.0, 1.0),                       # vertex of MuJoCo's 4-edge pyramid
        ("pyramidal", np.pi / 4, np.cos(np.pi / 4)),   # edge midpoint: cos(pi/4) of the cone
        ("elliptic", 0.0, 1.0),
        ("elliptic", np.pi / 4, 1.0),                  # the exact cone has no preferred direction
    ],
)
def test_mujoco_breakaway_pyramidal_versus_elliptic(cone, psi, threshold):
    # Soft contacts creep at mm/s below breakaway; 5 % above the threshold the
    # block accelerates at 0.05 * threshold * mu g and exceeds 0.05 m/s within 1 s.
    assert _pushed_speed(cone, 0.95 * threshold, psi) < 0.01
    assert _pushed_speed(cone, 1.05 * threshold, psi) > 0.05
    # and the inscribed 4-edge pyramid's closed form says the same
    if cone == "pyramidal":
        np.testing.assert_allclose(pyramid_capacity(psi, 1.0, 4)[1], threshold, rtol=1e-14)


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_mujoco_sliding_deceleration(cone):
    """Deceleration fitted over the whole slide of a block settled in contact.

    After the velocity is set the block hops: it touches the floor in only
    about 40 % of the steps, with normal-force spikes near 5 m g, so a short
    window (e.g. 20-120 ms) catches a biased sample. Over the whole slide the
    mean normal force is m g and the fitted deceleration is within 0.5 % of
    mu g (0.998 / 0.996 mu g, pyramidal / elliptic, at dt = 1 ms); the rest is
    MuJoCo's soft, regularised friction.
    """
    model = mujoco.MjModel.from_xml_string(SLIDER.format(cone=cone, mu=MU))
    data = mujoco.MjData(model)
    for _ in range(500):  # settle in contact
        mujoco.mj_step(model, data)
    data.qvel[0] = 1.0
    ts, vs, fn, touching = [], [], [], []
    wrench = np.zeros(6)
    while data.qvel[0] > 0.1:
        mujoco.mj_step(model, data)
        force = 0.0
        for i in range(data.ncon):
            mujoco.mj_contactForce(model, data, i, wrench)
            force += wrench[0]
        ts.append(data.time)
        vs.append(data.qvel[0])
        fn.append(force)
        touching.append(data.ncon > 0)
    decel = -np.polyfit(ts, vs, 1)[0]
    np.testing.assert_allclose(decel, MU * G_ACC, rtol=0.01)
    np.testing.assert_allclose(np.mean(fn), G_ACC, rtol=0.02)   # 1 kg block
    assert 0.2 < np.mean(touching) < 0.8                        # it hops


BOX = """
<mujoco>
  <option timestep="0.001" cone="{cone}"/>
  <default><geom solimp="{solimp}"/></default>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body pos="0 0 0.0505">
      <freejoint/>
      <inertial pos="{ox} {oy} 0" mass="{m}" diaginertia="{ix} {iy} {iz}"/>
      <geom type="box" size="{a} {b} {c}" mass="0"/>
    </body>
  </worldbody>
</mujoco>
"""


def _mujoco_corner_forces(cone, solimp, mass, half, offset):
    a, b, c = half
    inertia = mass / 3 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    xml = BOX.format(cone=cone, solimp=solimp, m=mass, a=a, b=b, c=c, ox=offset[0], oy=offset[1],
                     ix=inertia[0], iy=inertia[1], iz=inertia[2])
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    for _ in range(3000):
        mujoco.mj_step(model, data)
    forces = {}
    wrench = np.zeros(6)
    for i in range(data.ncon):
        mujoco.mj_contactForce(model, data, i, wrench)
        pos = data.contact[i].pos
        forces[(np.sign(pos[0]), np.sign(pos[1]))] = wrench[0]
    # box_on_corners order: (+,+), (-,+), (-,-), (+,-)
    return np.array([forces[(1, 1)], forces[(-1, 1)], forces[(-1, -1)], forces[(1, -1)]])


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_mujoco_corner_forces_are_the_least_norm_solution(cone):
    mass, half, offset = 2.0, (0.2, 0.1, 0.05), (0.05, 0.02)
    M, N, _ = box_on_corners(mass, half, offset)
    h = 1e-3
    b = N @ np.array([0, 0, 0, 0, 0, -G_ACC * h])
    least_norm = minimum_norm_lcp(delassus(M, N), b) / h
    # With a constant impedance (solimp d0 = dwidth = 0.95) every corner gets
    # the same regulariser and MuJoCo's soft solution is the least-norm one;
    # measured within 3.2e-4 N of 19.6 N (the remaining softness), 1e-3 N allowed.
    ours = _mujoco_corner_forces(cone, "0.95 0.95 0.001 0.5 2", mass, half, offset)
    np.testing.assert_allclose(ours, least_norm, atol=1e-3)
    # With the default position-dependent impedance the deeper corners get a
    # different regulariser and the split moves by ~0.02 N.
    default = _mujoco_corner_forces(cone, "0.9 0.95 0.001 0.5 2", mass, half, offset)
    assert 5e-3 < np.max(np.abs(default - least_norm)) < 0.1
    np.testing.assert_allclose(default.sum(), mass * G_ACC, rtol=1e-6)


# ============================================================== Drake

E_H, RADIUS = 1e5, 0.05


def _friction():
    return CoulombFriction(0.5, 0.5)


def _properties(kind, shape):
    props = ProximityProperties()
    if kind == "C":
        if isinstance(shape, HalfSpace):
            AddCompliantHydroelasticPropertiesForHalfSpace(0.1, E_H, props)
        else:
            AddCompliantHydroelasticProperties(0.02, E_H, props)
    elif kind == "R":
        # a rigid box's mesh is exact at any resolution; a coarse hint keeps it at a few triangles
        AddRigidHydroelasticProperties(1.0 if isinstance(shape, Box) else 0.02, props)
    AddContactMaterial(0.0, None, _friction(), props)
    return props


def _drake_scene(shape_a, kind_a, shape_b, kind_b, model, height, props_a=None):
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("ball", SpatialInertia(1.0, np.zeros(3), UnitInertia.SolidSphere(RADIUS)))
    plant.RegisterCollisionGeometry(body, RigidTransform(), shape_a, "a",
                                    props_a if props_a is not None else _properties(kind_a, shape_a))
    pose_b = RigidTransform([0, 0, -0.5]) if isinstance(shape_b, Box) else RigidTransform()
    plant.RegisterCollisionGeometry(plant.world_body(), pose_b, shape_b, "b", _properties(kind_b, shape_b))
    plant.set_contact_model(model)
    plant.Finalize()
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    plant.SetFreeBodyPose(plant_context, body, RigidTransform([0, 0, height]))
    return plant, plant_context


def _drake_outcome(plant, context):
    try:
        results = plant.get_contact_results_output_port().Eval(context)
    except RuntimeError:
        return "raises"
    if results.num_hydroelastic_contacts() > 0:
        return "patch"
    if results.num_point_pair_contacts() > 0:
        return "point"
    return "none"


def _drake_sphere_force(resolution, delta):
    props = ProximityProperties()
    AddCompliantHydroelasticProperties(resolution, E_H, props)
    AddContactMaterial(0.0, None, _friction(), props)
    plant, context = _drake_scene(Sphere(RADIUS), "C", Box(1.0, 1.0, 1.0), "R",
                                  ContactModel.kHydroelastic, RADIUS - delta, props_a=props)
    info = plant.get_contact_results_output_port().Eval(context).hydroelastic_contact_info(0)
    return info.F_Ac_W().translational(), info.contact_surface().total_area()


def test_drake_version_is_the_table_version():
    # The pair table encodes one release's behaviour; a new Drake must be re-checked.
    assert version("drake") == DRAKE_TABLE_VERSION
    assert pydrake.getDrakePath()  # the installed pydrake is the one imported


def test_drake_hydroelastic_force_converges_to_closed_form():
    delta = 0.004
    exact = float(sphere_plane_force(E_H, RADIUS, delta))
    patch = np.pi * (2 * RADIUS * delta - delta**2)
    errors = []
    for resolution in (0.01, 0.005, 0.0025, 0.00125):
        force, area = _drake_sphere_force(resolution, delta)
        # at zero velocity there is no dissipation and no friction: the force is normal
        np.testing.assert_allclose(force[:2], 0.0, atol=1e-9 * exact)
        errors.append(abs(force[2] / exact - 1))
        assert force[2] < exact and area < patch  # the inscribed mesh loses volume
    # the error shrinks by about 4 per halving (second order in the mesh size)
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert np.all((ratios > 3.0) & (ratios < 5.0)), ratios
    # finest mesh within 0.3 % (measured 0.26 %)
    assert errors[-1] < 3e-3


def test_drake_force_scales_like_delta_squared():
    # At a fixed fine mesh the force ratio between two depths follows the closed form.
    f1, _ = _drake_sphere_force(0.0025, 0.002)
    f2, _ = _drake_sphere_force(0.0025, 0.004)
    expected = float(sphere_plane_force(E_H, RADIUS, 0.004) / sphere_plane_force(E_H, RADIUS, 0.002))
    # both carry a ~1 % discretisation error of the same sign; 1 % on the ratio.
    np.testing.assert_allclose(f2[2] / f1[2], expected, rtol=0.01)


MODELS = {
    "hydroelastic": ContactModel.kHydroelastic,
    "hydroelastic_with_fallback": ContactModel.kHydroelasticWithFallback,
    "point": ContactModel.kPoint,
}


@pytest.mark.parametrize("model_name", sorted(MODELS))
@pytest.mark.parametrize(("kind_a", "kind_b"), list(itertools.product("CRU", repeat=2)))
def test_pair_table_against_drake(kind_a, kind_b, model_name):
    plant, context = _drake_scene(Sphere(RADIUS), kind_a, Box(1.0, 1.0, 1.0), kind_b,
                                  MODELS[model_name], RADIUS - 0.004)
    assert _drake_outcome(plant, context) == drake_pair_outcome(kind_a, kind_b, model_name, "sphere", "box").result


@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_shape_restrictions_against_drake(model_name, tmp_path):
    cube = tmp_path / "cube.obj"
    corners = [(x, y, z) for z in (-0.05, 0.05) for y in (-0.05, 0.05) for x in (-0.05, 0.05)]
    faces = [(1, 3, 4), (1, 4, 2), (5, 6, 8), (5, 8, 7), (1, 2, 6), (1, 6, 5),
             (2, 4, 8), (2, 8, 6), (4, 3, 7), (4, 7, 8), (3, 1, 5), (3, 5, 7)]
    cube.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in corners)
                    + "".join(f"f {a} {b} {c}\n" for a, b, c in faces))
    # compliant convex against a compliant half-space
    plant, context = _drake_scene(Convex(str(cube)), "C", HalfSpace(), "C", MODELS[model_name], 0.045)
    assert _drake_outcome(plant, context) == drake_pair_outcome("C", "C", model_name, "convex", "halfspace").result
    # two half-spaces
    plant, context = _drake_scene(HalfSpace(), "C", HalfSpace(), "C", MODELS[model_name], -0.01)
    assert _drake_outcome(plant, context) == drake_pair_outcome("C", "C", model_name, "halfspace", "halfspace").result
