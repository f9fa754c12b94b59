"""Tests of lib.model_files: URDF and MJCF inertial elements."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from lib.errors import ModelFileError, NonFiniteError, NonPhysicalInertiaError, NonPositiveMassError, ShapeError
from lib.inertia import point_mass_properties, rotate_inertia
from lib.model_files import (
    inertial_to_spatial_inertia,
    mjcf_diaginertia,
    mjcf_fullinertia_to_matrix,
    parse_mjcf_inertial,
    parse_urdf_inertial,
    quat_to_rotation,
    rpy_to_rotation,
    urdf_inertial_to_spatial_inertia,
)
from lib.spatial import spatial_inertia

# Products of a few O(1) numbers and one 3x3 rotation: round-off ~1e-15.
RTOL = 1e-12
ATOL = 1e-12

URDF = """<link name="payload"><inertial>
  <origin xyz="0.01 -0.02 0.12" rpy="0.1 -0.2 0.3"/>
  <mass value="2.0"/>
  <inertia ixx="0.0104" ixy="-0.001" ixz="0.0005" iyy="0.0125" iyz="0.0002" izz="0.0083"/>
</inertial></link>"""


def test_rpy_is_fixed_axis_xyz_like_scipy_extrinsic():
    rng = np.random.default_rng(40)
    for _ in range(100):
        rpy = rng.uniform(-np.pi, np.pi, 3)
        # scipy's lower-case "xyz" is extrinsic (fixed axes), as URDF specifies
        np.testing.assert_allclose(rpy_to_rotation(rpy), Rotation.from_euler("xyz", rpy).as_matrix(), atol=1e-14)


def test_quaternion_is_scalar_first_like_scipy():
    rng = np.random.default_rng(41)
    for _ in range(100):
        q = rng.normal(size=4)
        np.testing.assert_allclose(
            quat_to_rotation(q), Rotation.from_quat(q, scalar_first=True).as_matrix(), atol=1e-14
        )


def test_parse_urdf_inertial_puts_products_in_the_matrix():
    mass, xyz, rpy, inertia = parse_urdf_inertial(URDF)
    assert mass == 2.0
    np.testing.assert_array_equal(xyz, [0.01, -0.02, 0.12])
    np.testing.assert_array_equal(rpy, [0.1, -0.2, 0.3])
    np.testing.assert_array_equal(
        inertia, [[0.0104, -0.001, 0.0005], [-0.001, 0.0125, 0.0002], [0.0005, 0.0002, 0.0083]]
    )
    # origin is optional in URDF (identity)
    _, xyz0, rpy0, _ = parse_urdf_inertial(
        '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
    )
    np.testing.assert_array_equal(np.r_[xyz0, rpy0], np.zeros(6))


def test_urdf_spatial_inertia_equals_point_mass_sums():
    """G_L from URDF values against the momentum of point masses placed by (xyz, rpy)."""
    rng = np.random.default_rng(42)
    for _ in range(100):
        m = rng.uniform(0.1, 2.0, 8)
        x_c = rng.normal(scale=0.3, size=(8, 3))
        x_c -= m @ x_c / m.sum()  # the COM at the origin of {C}
        body_c = point_mass_properties(m, x_c)
        xyz, rpy = rng.normal(size=3), rng.uniform(-np.pi, np.pi, 3)
        R = rpy_to_rotation(rpy)
        x_l = x_c @ R.T + xyz
        G_L = urdf_inertial_to_spatial_inertia(body_c.mass, xyz, rpy, body_c.inertia_com)
        V = rng.normal(size=6)
        u = V[3:] + np.cross(V[:3], x_l)
        P = np.concatenate([np.sum(m[:, None] * np.cross(x_l, u), 0), m @ u])
        np.testing.assert_allclose(G_L @ V, P, rtol=RTOL, atol=ATOL)
        # the same as the COM-offset closed form with the inertia rotated into {L}
        np.testing.assert_allclose(
            G_L, spatial_inertia(body_c.mass, rotate_inertia(body_c.inertia_com, R), com=xyz), rtol=RTOL, atol=ATOL
        )


def test_mjcf_fullinertia_order_and_parse():
    np.testing.assert_array_equal(
        mjcf_fullinertia_to_matrix([2.0, 3.0, 4.0, 0.1, 0.2, 0.3]), [[2.0, 0.1, 0.2], [0.1, 3.0, 0.3], [0.2, 0.3, 4.0]]
    )
    np.testing.assert_array_equal(mjcf_diaginertia([1.0, 2.0, 2.5]), np.diag([1.0, 2.0, 2.5]))
    mass, pos, R, inertia = parse_mjcf_inertial(
        '<body><inertial pos="0 0 0.1" mass="3" fullinertia="2 3 4 0.1 0.2 0.3"/></body>'
    )
    assert mass == 3.0
    np.testing.assert_array_equal(R, np.eye(3))
    np.testing.assert_array_equal(inertia[0], [2.0, 0.1, 0.2])
    q = np.array([np.cos(0.3), 0.0, np.sin(0.3), 0.0])
    _, _, R, _ = parse_mjcf_inertial(f'<inertial pos="0 0 0" mass="1" quat="{q[0]} {q[1]} {q[2]} {q[3]}" diaginertia="1 2 2.5"/>')
    np.testing.assert_allclose(R, Rotation.from_quat(q, scalar_first=True).as_matrix(), atol=1e-15)
    G = inertial_to_spatial_inertia(1.0, np.zeros(3), R, np.diag([1.0, 2.0, 2.5]))
    np.testing.assert_allclose(G[:3, :3], R @ np.diag([1.0, 2.0, 2.5]) @ R.T, atol=1e-15)


def test_bad_urdf_is_rejected_with_clear_errors():
    with pytest.raises(ModelFileError, match="not well-formed XML"):
        parse_urdf_inertial("<inertial><mass value='1'></inertial>")
    with pytest.raises(ModelFileError, match="exactly one <inertial>"):
        parse_urdf_inertial("<link/>")
    with pytest.raises(ModelFileError, match="exactly one <inertial>"):
        parse_urdf_inertial(f"<robot>{URDF}{URDF}</robot>")
    with pytest.raises(ModelFileError, match="no <mass"):
        parse_urdf_inertial('<inertial><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>')
    with pytest.raises(ModelFileError, match="missing the attribute iyz"):
        parse_urdf_inertial('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" izz="1"/></inertial>')
    with pytest.raises(ModelFileError, match="no <inertia"):
        parse_urdf_inertial('<inertial><mass value="1"/></inertial>')
    with pytest.raises(NonPositiveMassError, match="URDF mass must be positive"):
        parse_urdf_inertial(URDF.replace('value="2.0"', 'value="-2.0"'))
    with pytest.raises(ModelFileError, match="must contain 1 numbers"):
        parse_urdf_inertial(URDF.replace('value="2.0"', 'value="heavy"'))
    with pytest.raises(ModelFileError, match="xyz"):
        parse_urdf_inertial(URDF.replace('xyz="0.01 -0.02 0.12"', 'xyz="0.01 -0.02"'))
    with pytest.raises(NonFiniteError, match="NaN"):
        parse_urdf_inertial(URDF.replace('ixx="0.0104"', 'ixx="nan"'))
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        parse_urdf_inertial(URDF.replace('izz="0.0083"', 'izz="0.083"'))
    with pytest.raises(ModelFileError, match="string"):
        parse_urdf_inertial(None)  # type: ignore[arg-type]


def test_bad_mjcf_is_rejected_with_clear_errors():
    with pytest.raises(ModelFileError, match="both"):
        parse_mjcf_inertial('<inertial pos="0 0 0" mass="1" diaginertia="1 1 1" fullinertia="1 1 1 0 0 0"/>')
    with pytest.raises(ModelFileError, match="neither"):
        parse_mjcf_inertial('<inertial pos="0 0 0" mass="1"/>')
    with pytest.raises(ModelFileError, match="fullinertia and quat"):
        parse_mjcf_inertial('<inertial pos="0 0 0" mass="1" quat="1 0 0 0" fullinertia="1 1 1 0 0 0"/>')
    with pytest.raises(ModelFileError, match="'euler' is not supported"):
        parse_mjcf_inertial('<inertial pos="0 0 0" mass="1" euler="0 0 1" diaginertia="1 1 1"/>')
    with pytest.raises(ModelFileError, match="missing attribute MJCF inertial mass"):
        parse_mjcf_inertial('<inertial pos="0 0 0" diaginertia="1 1 1"/>')
    with pytest.raises(NonPositiveMassError, match="MJCF mass must be positive"):
        parse_mjcf_inertial('<inertial pos="0 0 0" mass="0" diaginertia="1 1 1"/>')
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        mjcf_diaginertia([1.0, 1.0, 3.0])
    with pytest.raises(ShapeError, match=r"fullinertia must have shape \(6,\)"):
        mjcf_fullinertia_to_matrix([1.0, 1.0, 1.0])
    with pytest.raises(NonPositiveMassError, match="norm of quat"):
        quat_to_rotation(np.zeros(4))
    with pytest.raises(ShapeError, match="rpy must have shape"):
        rpy_to_rotation([0.0, 0.0])
