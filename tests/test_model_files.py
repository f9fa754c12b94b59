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



# ----------------------------------------------------------------- URDF kinematic trees

from lib.errors import OutOfRangeError  # noqa: E402
from lib.kinematic_tree import forward_kinematics, kinematic_tree, rnea  # noqa: E402
from lib.model_files import parse_urdf_model  # noqa: E402

ROBOT = """<robot name="branch">
  <link name="base"><inertial><mass value="9"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="upper">{upper}</link>
  <link name="fore"/>
  <link name="tool"><inertial><origin xyz="0 0 0.05"/><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.0005"/>
  </inertial></link>
  <link name="slider"><inertial><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
  </inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.3" rpy="0.1 0.2 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="fore"/>
    <origin xyz="0.4 0 0"/><axis xyz="0 0 2"/></joint>
  <joint name="flange" type="fixed"><parent link="fore"/><child link="tool"/>
    <origin xyz="0.3 0 0" rpy="0 1.5707963 0"/></joint>
  <joint name="rail" type="prismatic"><parent link="base"/><child link="slider"/>
    <origin xyz="0.1 0 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
</robot>"""
UPPER = URDF.split(">", 1)[1].rsplit("</link>", 1)[0]  # the payload's <inertial>


def test_parse_urdf_model_builds_the_tree_the_file_describes():
    robot = parse_urdf_model(ROBOT.format(upper=UPPER), merge_fixed=False)
    # depth first, children sorted by joint name (rail before shoulder); the root link
    # is the ground
    assert robot.names == ("slider", "upper", "fore", "tool")
    assert robot.parents == (-1, -1, 1, 2)
    assert robot.joint_types == ("prismatic", "revolute", "revolute", "fixed")
    np.testing.assert_allclose(
        robot.axes, [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]], rtol=0, atol=0
    )
    renamed = parse_urdf_model(
        ROBOT.format(upper=UPPER).replace('"rail"', '"wrist"'), merge_fixed=False
    )
    assert renamed.names == ("upper", "fore", "tool", "slider")
    assert renamed.parents == (-1, 0, 1, -1)
    np.testing.assert_allclose(
        robot.placements[1][:3, :3],
        rpy_to_rotation([0.1, 0.2, 0.3]),
        rtol=RTOL,
        atol=ATOL,
    )
    np.testing.assert_allclose(
        robot.placements[1][:3, 3], [0, 0, 0.3], rtol=RTOL, atol=ATOL
    )
    np.testing.assert_allclose(
        robot.inertias[1],
        urdf_inertial_to_spatial_inertia(*parse_urdf_inertial(URDF)),
        rtol=RTOL,
        atol=ATOL,
    )
    np.testing.assert_array_equal(
        robot.inertias[2], np.zeros((6, 6))
    )  # a link without <inertial>
    # merged: the tool's inertia moves to the forearm, the tool stays a frame
    merged = parse_urdf_model(ROBOT.format(upper=UPPER))
    assert merged.names == ("slider", "upper", "fore") and merged.frames["tool"][0] == 2
    assert merged.frames["base"][0] == -1
    np.testing.assert_allclose(merged.inertias[2][3, 3], 0.5, rtol=RTOL)
    rng = np.random.default_rng(42)
    for _ in range(10):
        q, v, a = rng.normal(size=(3, 3))
        # merging moves an inertia through transform_spatial_inertia: a few round-offs
        # more
        np.testing.assert_allclose(
            rnea(merged, q, v, a), rnea(robot, q, v, a), rtol=1e-11, atol=1e-11
        )
    # a floating base: the root link becomes body 0 on a free joint named root_joint
    floating = parse_urdf_model(ROBOT.format(upper=UPPER), root_joint="free")
    assert (
        floating.joint_names[0] == "root_joint"
        and floating.nq == 10
        and floating.nv == 9
    )
    np.testing.assert_allclose(floating.inertias[0][3, 3], 9.0, rtol=RTOL)


def test_hand_built_and_parsed_trees_agree():
    upper = (
        '<inertial><origin xyz="0.2 0 0"/><mass value="2"/>'
        '<inertia ixx="0.01" ixy="0" ixz="0" '
        'iyy="0.03" iyz="0" izz="0.03"/></inertial>'
    )
    robot = parse_urdf_model(ROBOT.format(upper=upper), merge_fixed=False)
    G_upper = spatial_inertia(2.0, np.diag([0.01, 0.03, 0.03]), com=[0.2, 0.0, 0.0])
    G_tool = spatial_inertia(0.5, np.diag([0.001, 0.001, 0.0005]), com=[0.0, 0.0, 0.05])
    X = [np.eye(4) for _ in range(4)]
    X[0][:3, :3], X[0][:3, 3] = rpy_to_rotation([0.1, 0.2, 0.3]), [0, 0, 0.3]
    X[1][0, 3] = 0.4
    X[2][:3, :3], X[2][0, 3] = rpy_to_rotation([0, 1.5707963, 0]), 0.3
    X[3][0, 3] = 0.1
    X = [X[3], X[0], X[1], X[2]]  # rail, shoulder, elbow, flange
    by_hand = kinematic_tree(
        [-1, -1, 1, 2],
        ["prismatic", "revolute", "revolute", "fixed"],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]],
        X,
        [spatial_inertia(1.0, 0.01 * np.eye(3)), G_upper, np.zeros((6, 6)), G_tool],
    )
    q, v, a = np.random.default_rng(43).normal(size=(3, 3))
    np.testing.assert_allclose(
        rnea(robot, q, v, a), rnea(by_hand, q, v, a), rtol=RTOL, atol=ATOL
    )
    np.testing.assert_allclose(
        forward_kinematics(robot, q),
        forward_kinematics(by_hand, q),
        rtol=RTOL,
        atol=ATOL,
    )


def test_bad_urdf_trees_are_rejected_with_clear_errors():
    loop = ROBOT.format(upper=UPPER).replace(
        "</robot>",
        '<joint name="back" type="fixed"><parent link="tool"/>'
        '<child link="upper"/></joint></robot>',
    )
    with pytest.raises(
        ModelFileError, match="'upper' is the child of two joints.*closed loop"
    ):
        parse_urdf_model(loop)
    ring = ROBOT.format(upper=UPPER).replace(
        "</robot>",
        '<joint name="ring" type="fixed"><parent link="slider"/>'
        '<child link="base"/></joint></robot>',
    )
    with pytest.raises(ModelFileError, match=r"exactly one root link .*found 0"):
        parse_urdf_model(ring)
    island = ROBOT.format(upper=UPPER).replace(
        "</robot>",
        """<link name="x"/><link name="y"/>
      <joint name="xy" type="fixed"><parent link="x"/><child link="y"/></joint>
      <joint name="yx" type="fixed"><parent link="y"/><child link="x"/></joint>
      </robot>""",
    )
    with pytest.raises(
        ModelFileError,
        match=r"links \['x', 'y'\] are not connected to the root 'base'.*loop",
    ):
        parse_urdf_model(island)
    with pytest.raises(
        ModelFileError,
        match="names parent link 'nowhere', which the URDF does not define",
    ):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace(
                '<parent link="upper"/>', '<parent link="nowhere"/>'
            )
        )
    with pytest.raises(ModelFileError, match="names child link 'gone'"):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace(
                '<child link="slider"/>', '<child link="gone"/>'
            )
        )
    with pytest.raises(ModelFileError, match=r"exactly one root link .*found 2"):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace(
                '<robot name="branch">', '<robot name="branch"><link name="stray"/>'
            )
        )
    with pytest.raises(ModelFileError, match="unknown type 'hinge'"):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace('type="continuous"', 'type="hinge"')
        )
    with pytest.raises(ModelFileError, match="type 'planar', which is not supported"):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace('type="continuous"', 'type="planar"')
        )
    with pytest.raises(ModelFileError, match="zero <axis xyz>"):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace(
                '<axis xyz="0 0 2"/>', '<axis xyz="0 0 0"/>'
            )
        )
    with pytest.raises(
        ModelFileError, match="elbow.*<axis xyz> must contain 3 numbers"
    ):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace(
                '<axis xyz="0 0 2"/>', '<axis xyz="0 1"/>'
            )
        )
    with pytest.raises(NonFiniteError, match="<origin xyz>"):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace('xyz="0.4 0 0"', 'xyz="nan 0 0"')
        )
    with pytest.raises(
        ModelFileError, match="link 'tool' has mass 0 but a non-zero inertia"
    ):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace(
                '<mass value="0.5"/>', '<mass value="0"/>'
            )
        )
    with pytest.raises(NonPositiveMassError):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace(
                '<mass value="0.5"/>', '<mass value="-0.5"/>'
            )
        )
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        parse_urdf_model(
            ROBOT.format(upper=UPPER).replace('izz="0.0005"', 'izz="0.005"')
        )
    with pytest.raises(ModelFileError, match="root element is <robot>"):
        parse_urdf_model(URDF)
    with pytest.raises(ModelFileError, match="not well-formed"):
        parse_urdf_model("<robot>")
    with pytest.raises(OutOfRangeError, match="root_joint must be one of"):
        parse_urdf_model(ROBOT.format(upper=UPPER), root_joint="floating")
    with pytest.raises(ShapeError, match="merge_fixed must be True or False"):
        parse_urdf_model(ROBOT.format(upper=UPPER), merge_fixed="yes")


def test_quat_to_rotation_takes_a_stack():
    q = np.random.default_rng(44).normal(size=(4, 3, 4))
    stacked = quat_to_rotation(q)
    assert stacked.shape == (4, 3, 3, 3)
    for index in np.ndindex(4, 3):
        np.testing.assert_array_equal(stacked[index], quat_to_rotation(q[index]))
    with pytest.raises(ShapeError, match=r"quat must have shape \(n, 4\)"):
        quat_to_rotation(np.zeros((2, 3)))
    with pytest.raises(NonPositiveMassError, match="the norm of quat"):
        quat_to_rotation(np.array([[1.0, 0, 0, 0], [0, 0, 0, 0]]))
