"""Inertial data of robot model files (URDF, MJCF) as matrices and spatial inertias, and URDF trees.

URDF ``<inertial>``: ``<origin xyz rpy>`` is the pose of the COM frame ``{C}``
in the link frame ``{L}``; ``<inertia ixx ixy ixz iyy iyz izz>`` is the
inertia about the COM in ``{C}``'s axes with the products as matrix entries
(``ixy = I_xy = -int rho x y dV``). MJCF ``<inertial>``: ``pos`` and ``quat``
(``w x y z``) give ``{C}`` in the body frame; ``diaginertia`` gives principal
moments, ``fullinertia`` the matrix in the order ``Ixx Iyy Izz Ixy Ixz Iyz``
(and then no ``quat``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
from numpy.typing import ArrayLike

from ._validation import FloatArray, as_array, as_rotation, as_vector, one_of, positive
from .errors import ModelFileError, NonFiniteError, ShapeError
from .inertia import check_physical_inertia
from .spatial import inverse_transform, spatial_inertia, transform, transform_spatial_inertia

__all__ = [
    "rpy_to_rotation",
    "quat_to_rotation",
    "parse_urdf_inertial",
    "urdf_inertial_to_spatial_inertia",
    "inertial_to_spatial_inertia",
    "mjcf_fullinertia_to_matrix",
    "mjcf_diaginertia",
    "parse_mjcf_inertial",
    "parse_urdf_model",
]


def rpy_to_rotation(rpy: ArrayLike) -> FloatArray:
    """Rotation of URDF roll-pitch-yaw angles: ``R = R_z(yaw) R_y(pitch) R_x(roll)``.

    URDF rotates first about the fixed x axis by roll, then about fixed y by
    pitch, then about fixed z by yaw. Explained in :ref:`sec-rb-model-files`.

    Parameters
    ----------
    rpy : array_like, shape (3,)
        ``(roll, pitch, yaw)``, rad.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Rotation matrix.

    Raises
    ------
    ShapeError, NonFiniteError
        If ``rpy`` is not a finite 3-vector.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.model_files import rpy_to_rotation
    >>> print(np.round(rpy_to_rotation([0.0, 0.0, np.pi / 2]), 6) + 0.0)
    [[ 0. -1.  0.]
     [ 1.  0.  0.]
     [ 0.  0.  1.]]
    """
    roll, pitch, yaw = as_vector(rpy, "rpy", 3)
    cr, sr = np.cos(roll), np.sin(roll)
    cp, sp = np.cos(pitch), np.sin(pitch)
    cy, sy = np.cos(yaw), np.sin(yaw)
    rx = np.array([[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]])
    ry = np.array([[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]])
    rz = np.array([[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]])
    return rz @ ry @ rx


def quat_to_rotation(quat: ArrayLike) -> FloatArray:
    """Rotation of a MuJoCo quaternion ``(w, x, y, z)`` (normalised first).

    Vectorised: a stack of quaternions of shape ``(..., 4)`` gives rotations
    of shape ``(..., 3, 3)`` (the free joints of ``lib.kinematic_tree`` use
    it on a batch of states). Explained in
    :ref:`sec-rb-model-files`.

    Parameters
    ----------
    quat : array_like, shape (4,) or (..., 4)
        Quaternion, scalar first, non-zero.

    Returns
    -------
    numpy.ndarray, shape (3, 3) or (..., 3, 3)
        Rotation matrix.

    Raises
    ------
    ShapeError, NonFiniteError
        If ``quat`` is not a finite 4-vector.
    NonPositiveMassError
        If ``quat`` is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.model_files import quat_to_rotation
    >>> print(np.round(quat_to_rotation([np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)]), 6) + 0.0)
    [[ 0. -1.  0.]
     [ 1.  0.  0.]
     [ 0.  0.  1.]]
    """
    q = as_array(quat, "quat", [None] * (np.ndim(quat) - 1) + [4])
    norm = np.linalg.norm(q, axis=-1, keepdims=True)
    if norm.size:  # an empty stack (a batch of no states) has no norm to check
        positive(np.min(norm), "the norm of quat")
    w, x, y, z = np.moveaxis(q / norm, -1, 0)
    rows = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]
    return np.stack([np.stack(row, axis=-1) for row in rows], axis=-2)


def _find_inertial(xml_text: str, fmt: str) -> ET.Element:
    if not isinstance(xml_text, str):
        raise ModelFileError(f"xml_text must be a string of {fmt} XML, got {type(xml_text).__name__}")
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise ModelFileError(f"xml_text is not well-formed XML: {exc}") from None
    found = [root] if root.tag == "inertial" else root.findall(".//inertial")
    if len(found) != 1:
        raise ModelFileError(
            f"xml_text must contain exactly one <inertial> element, found {len(found)} "
            f"(root element <{root.tag}>); pass the <inertial> or its <link>/<body>"
        )
    return found[0]


def _numbers(text: str | None, name: str, count: int, default: str | None = None) -> FloatArray:
    if text is None:
        if default is None:
            raise ModelFileError(f"missing attribute {name}")
        text = default
    try:
        values = np.array([float(s) for s in text.split()])
    except ValueError:
        raise ModelFileError(f"{name} must contain {count} numbers, got {text!r}") from None
    if values.shape != (count,):
        raise ModelFileError(f"{name} must contain {count} numbers, got {values.size}: {text!r}")
    if not np.all(np.isfinite(values)):
        raise NonFiniteError(f"{name} contains NaN or infinity: {text!r}")
    return values


def parse_urdf_inertial(xml_text: str) -> tuple[float, FloatArray, FloatArray, FloatArray]:
    """Read a URDF ``<inertial>`` element (or a ``<link>`` holding one).

    ``<origin>`` is optional (default zero); ``<mass value>`` and all six
    ``<inertia>`` attributes are required. The products ``ixy, ixz, iyz`` are
    placed in the matrix as they are (URDF and Pinocchio read them as matrix
    entries). Explained in :ref:`sec-rb-model-files`.

    Parameters
    ----------
    xml_text : str
        XML text.

    Returns
    -------
    mass : float
        Mass, kg.
    xyz : numpy.ndarray, shape (3,)
        COM position in the link frame ``{L}``, m.
    rpy : numpy.ndarray, shape (3,)
        Roll-pitch-yaw of the COM frame ``{C}`` in ``{L}``, rad.
    inertia : numpy.ndarray, shape (3, 3)
        Inertia about the COM in ``{C}``'s axes, kg m^2.

    Raises
    ------
    ModelFileError
        On malformed XML, a missing element or attribute, or non-numeric values.
    NonPositiveMassError, NonPhysicalInertiaError, NonFiniteError
        On a non-positive mass or a non-physical inertia.

    Examples
    --------
    >>> from lib.model_files import parse_urdf_inertial
    >>> text = '''<inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="2"/>
    ...   <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.01"/></inertial>'''
    >>> mass, xyz, rpy, inertia = parse_urdf_inertial(text)
    >>> print(mass, xyz, inertia.diagonal())
    2.0 [0.  0.  0.1] [0.02 0.02 0.01]
    """
    element = _find_inertial(xml_text, "URDF")
    mass_el = element.find("mass")
    if mass_el is None:
        raise ModelFileError("URDF <inertial> has no <mass value=...> element")
    mass = positive(_numbers(mass_el.get("value"), "<mass value>", 1)[0], "URDF mass")
    origin = element.find("origin")
    xyz = _numbers(None if origin is None else origin.get("xyz"), "<origin xyz>", 3, "0 0 0")
    rpy = _numbers(None if origin is None else origin.get("rpy"), "<origin rpy>", 3, "0 0 0")
    inertia_el = element.find("inertia")
    if inertia_el is None:
        raise ModelFileError("URDF <inertial> has no <inertia ixx=... iyz=...> element")
    values = {}
    for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
        if inertia_el.get(key) is None:
            raise ModelFileError(f"URDF <inertia> is missing the attribute {key}")
        values[key] = _numbers(inertia_el.get(key), f"<inertia {key}>", 1)[0]
    inertia = np.array(
        [
            [values["ixx"], values["ixy"], values["ixz"]],
            [values["ixy"], values["iyy"], values["iyz"]],
            [values["ixz"], values["iyz"], values["izz"]],
        ]
    )
    return mass, xyz, rpy, check_physical_inertia(inertia, "URDF inertia")


def inertial_to_spatial_inertia(
    mass: float, position: ArrayLike, rotation: ArrayLike, inertia: ArrayLike
) -> FloatArray:
    """Spatial inertia in a link frame from a COM frame pose and its inertia.

    ``G_L = Ad_{T_CL}^T diag(I_C, m E) Ad_{T_CL}`` with ``T_LC = (R, p)``.
    Explained in :ref:`sec-rb-model-files`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    position : array_like, shape (3,)
        COM position ``p`` in ``{L}``, m.
    rotation : array_like, shape (3, 3)
        Orientation ``^L R_C`` of the COM frame.
    inertia : array_like, shape (3, 3)
        Inertia about the COM in ``{C}``'s axes, kg m^2 (physical).

    Returns
    -------
    numpy.ndarray, shape (6, 6)
        ``G_L`` ordered (angular, linear).

    Raises
    ------
    NotARotationError, NonPositiveMassError, NonPhysicalInertiaError, NonSymmetricError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.model_files import inertial_to_spatial_inertia
    >>> G = inertial_to_spatial_inertia(2.0, [0, 0, 0.1], np.eye(3), np.diag([0.02, 0.02, 0.01]))
    >>> print(np.round(G[:3, :3].diagonal(), 6))
    [0.04 0.04 0.01]
    """
    g_c = spatial_inertia(mass, inertia)
    t_lc = transform(as_rotation(rotation, "rotation"), as_vector(position, "position", 3))
    return transform_spatial_inertia(g_c, inverse_transform(t_lc))


def urdf_inertial_to_spatial_inertia(
    mass: float, xyz: ArrayLike, rpy: ArrayLike, inertia: ArrayLike
) -> FloatArray:
    """Spatial inertia ``G_L`` in the link frame from URDF inertial values.

    ``T_LC = (R_rpy(rpy), xyz)`` and ``G_L = Ad_{T_CL}^T diag(I_C, m E)
    Ad_{T_CL}``. Explained in :ref:`sec-rb-model-files`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    xyz : array_like, shape (3,)
        ``<origin xyz>``: COM position in ``{L}``, m.
    rpy : array_like, shape (3,)
        ``<origin rpy>``: orientation of ``{C}`` in ``{L}``, rad.
    inertia : array_like, shape (3, 3)
        Inertia about the COM in ``{C}``'s axes, kg m^2.

    Returns
    -------
    numpy.ndarray, shape (6, 6)
        ``G_L`` ordered (angular, linear).

    Raises
    ------
    NonPositiveMassError, NonPhysicalInertiaError, NonSymmetricError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.model_files import parse_urdf_inertial, urdf_inertial_to_spatial_inertia
    >>> text = '''<inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="2"/>
    ...   <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.01"/></inertial>'''
    >>> G = urdf_inertial_to_spatial_inertia(*parse_urdf_inertial(text))
    >>> print(np.round(G[:3, :3].diagonal(), 6), np.round(G[0, 4], 6))
    [0.04 0.04 0.01] -0.2
    """
    return inertial_to_spatial_inertia(mass, as_vector(xyz, "xyz", 3), rpy_to_rotation(rpy), inertia)


def mjcf_fullinertia_to_matrix(fullinertia: ArrayLike) -> FloatArray:
    """MuJoCo ``fullinertia`` (``Ixx Iyy Izz Ixy Ixz Iyz``) as a 3x3 matrix.

    The six numbers are matrix entries (products with the matrix sign).
    Explained in :ref:`sec-rb-model-files`.

    Parameters
    ----------
    fullinertia : array_like, shape (6,)
        ``(Ixx, Iyy, Izz, Ixy, Ixz, Iyz)``, kg m^2.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about the COM in the inertial frame's axes, kg m^2.

    Raises
    ------
    NonPhysicalInertiaError, ShapeError, NonFiniteError
        On a malformed or non-physical inertia.

    Examples
    --------
    >>> from lib.model_files import mjcf_fullinertia_to_matrix
    >>> print(mjcf_fullinertia_to_matrix([2.0, 3.0, 4.0, 0.1, 0.2, 0.3]))
    [[2.  0.1 0.2]
     [0.1 3.  0.3]
     [0.2 0.3 4. ]]
    """
    ixx, iyy, izz, ixy, ixz, iyz = as_vector(fullinertia, "fullinertia", 6)
    matrix = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    return check_physical_inertia(matrix, "fullinertia")


def mjcf_diaginertia(diaginertia: ArrayLike) -> FloatArray:
    """MuJoCo ``diaginertia`` (principal moments) as a diagonal 3x3 matrix.

    Explained in :ref:`sec-rb-model-files`.

    Parameters
    ----------
    diaginertia : array_like, shape (3,)
        Principal moments about the COM, kg m^2, in the inertial frame's axes.

    Returns
    -------
    numpy.ndarray, shape (3, 3)

    Raises
    ------
    NonPhysicalInertiaError, ShapeError, NonFiniteError
        On a malformed or non-physical inertia.

    Examples
    --------
    >>> from lib.model_files import mjcf_diaginertia
    >>> print(mjcf_diaginertia([1.0, 2.0, 2.5]).diagonal())
    [1.  2.  2.5]
    """
    return check_physical_inertia(np.diag(as_vector(diaginertia, "diaginertia", 3)), "diaginertia")


def parse_mjcf_inertial(xml_text: str) -> tuple[float, FloatArray, FloatArray, FloatArray]:
    """Read a MuJoCo ``<inertial>`` element (or a ``<body>`` holding one).

    ``pos`` and ``mass`` are required, and exactly one of ``diaginertia`` and
    ``fullinertia``; ``quat`` (``w x y z``, default identity) may only come
    with ``diaginertia``. Other orientation attributes (``euler``,
    ``axisangle``, ...) are not supported here. Explained in
    :ref:`sec-rb-model-files`.

    Parameters
    ----------
    xml_text : str
        XML text.

    Returns
    -------
    mass : float
        Mass, kg.
    pos : numpy.ndarray, shape (3,)
        COM position in the body frame ``{B}``, m.
    rotation : numpy.ndarray, shape (3, 3)
        Orientation ``^B R_C`` of the inertial frame.
    inertia : numpy.ndarray, shape (3, 3)
        Inertia about the COM in ``{C}``'s axes, kg m^2.

    Raises
    ------
    ModelFileError
        On malformed XML or missing, conflicting or unsupported attributes.
    NonPositiveMassError, NonPhysicalInertiaError, NonFiniteError
        On a non-positive mass or a non-physical inertia.

    Examples
    --------
    >>> from lib.model_files import parse_mjcf_inertial
    >>> mass, pos, R, inertia = parse_mjcf_inertial('<inertial pos="0 0 0.1" mass="2" diaginertia="0.02 0.02 0.01"/>')
    >>> print(mass, pos, inertia.diagonal())
    2.0 [0.  0.  0.1] [0.02 0.02 0.01]
    """
    element = _find_inertial(xml_text, "MJCF")
    unsupported = [key for key in ("euler", "axisangle", "xyaxes", "zaxis") if element.get(key) is not None]
    if unsupported:
        raise ModelFileError(
            f"MJCF <inertial> orientation attribute {unsupported[0]!r} is not supported here; use quat"
        )
    mass = positive(_numbers(element.get("mass"), "MJCF inertial mass", 1)[0], "MJCF mass")
    pos = _numbers(element.get("pos"), "MJCF inertial pos", 3)
    full, diag = element.get("fullinertia"), element.get("diaginertia")
    if (full is None) == (diag is None):
        raise ModelFileError(
            "MJCF <inertial> needs exactly one of diaginertia and fullinertia, "
            f"got {'both' if full is not None else 'neither'}"
        )
    if full is not None:
        if element.get("quat") is not None:
            raise ModelFileError("MJCF <inertial> cannot have both fullinertia and quat (MuJoCo rejects it)")
        inertia = mjcf_fullinertia_to_matrix(_numbers(full, "MJCF fullinertia", 6))
        return mass, pos, np.eye(3), inertia
    rotation = quat_to_rotation(_numbers(element.get("quat"), "MJCF inertial quat", 4, "1 0 0 0"))
    return mass, pos, rotation, mjcf_diaginertia(_numbers(diag, "MJCF diaginertia", 3))





#: URDF joint types and the tree joint each becomes (continuous: an unlimited revolute).
URDF_JOINT_TYPES = {
    "revolute": "revolute",
    "continuous": "revolute",
    "prismatic": "prismatic",
    "fixed": "fixed",
}


def _urdf_link_inertia(link: ET.Element) -> FloatArray:
    """``G_L`` of a URDF ``<link>``; zero without ``<inertial>`` or with mass 0."""
    name = link.get("name")
    inertial = link.find("inertial")
    if inertial is None:
        return np.zeros((6, 6))
    mass_el = inertial.find("mass")
    mass = _numbers(
        None if mass_el is None else mass_el.get("value"),
        f"link {name!r} <mass value>",
        1,
    )[0]
    if mass == 0.0:
        inertia_el = inertial.find("inertia")
        values = (
            []
            if inertia_el is None
            else [
                _numbers(inertia_el.get(k, "0"), f"link {name!r} <inertia {k}>", 1)[0]
                for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
            ]
        )
        if any(v != 0.0 for v in values):
            raise ModelFileError(
                f"link {name!r} has mass 0 but a non-zero inertia: no body has that"
            )
        return np.zeros((6, 6))
    try:
        return urdf_inertial_to_spatial_inertia(
            *parse_urdf_inertial(ET.tostring(inertial, encoding="unicode"))
        )
    except ModelFileError as exc:
        raise ModelFileError(f"link {name!r}: {exc}") from None


def _urdf_origin(element: ET.Element, where: str) -> FloatArray:
    origin = element.find("origin")
    xyz = _numbers(
        None if origin is None else origin.get("xyz"),
        f"{where} <origin xyz>",
        3,
        "0 0 0",
    )
    rpy = _numbers(
        None if origin is None else origin.get("rpy"),
        f"{where} <origin rpy>",
        3,
        "0 0 0",
    )
    return transform(rpy_to_rotation(rpy), xyz)


def parse_urdf_model(
    xml_text: str, root_joint: str = "fixed", merge_fixed: bool = True
):
    """Read a URDF ``<robot>`` into a :class:`lib.kinematic_tree.KinematicTree`.

    Each ``<joint>`` becomes a body named after its child link, placed by the
    joint's ``<origin>`` in the parent link's frame and moving about or along
    its ``<axis>`` (default ``1 0 0``); each link's ``<inertial>`` becomes the
    body's spatial inertia (a link without one, or with mass 0 and zero
    inertia, is massless). ``continuous`` joints are revolute joints without
    limits; ``<limit>``, ``<dynamics>``, ``<mimic>`` (each mimicking joint
    keeps its own coordinate, as in Pinocchio's default), visual and collision
    geometry and meshes are ignored. The root link is the ground
    (``root_joint="fixed"``; its inertia never moves and is dropped) or a
    floating base (``"free"``: a free joint named ``root_joint``, as
    Pinocchio names it). Bodies are numbered depth first, the children of
    a link in the alphabetical order of their joints' names, as Pinocchio's
    parser (urdfdom) numbers them, so the coordinates line up. With
    ``merge_fixed`` (default) fixed joints are merged into their parents
    (:func:`lib.kinematic_tree.merge_fixed_joints`) and every link stays a
    named frame. Explained in :ref:`sec-rb-model-files` (the inertials);
    the tree it builds is explained in :ref:`sec-rn-urdf`.

    Parameters
    ----------
    xml_text : str
        The URDF file's text.
    root_joint : str, optional
        ``"fixed"`` or ``"free"``.
    merge_fixed : bool, optional
        Merge fixed joints into their parents (default) or keep them as bodies.

    Returns
    -------
    KinematicTree

    Raises
    ------
    ModelFileError
        On malformed XML; a joint whose parent or child link is missing; a
        link that is the child of two joints (a closed loop: a URDF is a
        tree); no root or several roots; an unsupported joint type
        (``floating``, ``planar``) or an unknown one; bad numbers.
    OutOfRangeError
        If ``root_joint`` is not ``"fixed"`` or ``"free"``.
    NonPositiveMassError, NonPhysicalInertiaError, NonFiniteError
        On a link's negative mass or non-physical inertia.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.model_files import parse_urdf_model
    >>> text = '''<robot name="pendulum"><link name="base"/>
    ...   <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    ...     <inertia ixx="0.08" ixy="0" ixz="0" iyy="0.08" iyz="0" izz="0.001"/>
    ...   </inertial></link>
    ...   <joint name="hinge" type="continuous"><parent link="base"/><child link="rod"/>
    ...     <origin xyz="0 0 2"/><axis xyz="0 1 0"/></joint></robot>'''
    >>> pendulum = parse_urdf_model(text)
    >>> pendulum.names, pendulum.joint_types, pendulum.joint_names
    (('rod',), ('revolute',), ('hinge',))
    """
    from .kinematic_tree import kinematic_tree, merge_fixed_joints

    one_of(root_joint, "root_joint", ("fixed", "free"))
    if not isinstance(merge_fixed, (bool, np.bool_)):
        raise ShapeError(f"merge_fixed must be True or False, got {merge_fixed!r}")
    if not isinstance(xml_text, str):
        raise ModelFileError(
            f"xml_text must be a string of URDF XML, got {type(xml_text).__name__}"
        )
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise ModelFileError(f"xml_text is not well-formed XML: {exc}") from None
    if root.tag != "robot":
        raise ModelFileError(f"a URDF's root element is <robot>, got <{root.tag}>")
    links = {}
    for link in root.findall("link"):
        name = link.get("name")
        if not name:
            raise ModelFileError("a URDF <link> has no name")
        if name in links:
            raise ModelFileError(f"the URDF defines link {name!r} twice")
        links[name] = link
    if not links:
        raise ModelFileError("the URDF defines no <link>")
    joints, parent_of, children = [], {}, {name: [] for name in links}
    for joint in root.findall("joint"):
        name = joint.get("name")
        kind = joint.get("type")
        parent_el, child_el = joint.find("parent"), joint.find("child")
        parent = None if parent_el is None else parent_el.get("link")
        child = None if child_el is None else child_el.get("link")
        if not name or parent is None or child is None:
            raise ModelFileError(
                f"URDF joint {name!r} needs a name, a <parent link> and a <child link>"
            )
        if kind in ("floating", "planar"):
            raise ModelFileError(
                f"URDF joint {name!r} has type {kind!r}, which is not supported here "
                f"(supported: {sorted(URDF_JOINT_TYPES)}; a floating base is "
                "root_joint='free')"
            )
        if kind not in URDF_JOINT_TYPES:
            raise ModelFileError(
                f"URDF joint {name!r} has unknown type {kind!r} "
                f"(supported: {sorted(URDF_JOINT_TYPES)})"
            )
        for role, link in (("parent", parent), ("child", child)):
            if link not in links:
                raise ModelFileError(
                    f"URDF joint {name!r} names {role} link {link!r}, which the URDF "
                    "does not define"
                )
        if child in parent_of:
            raise ModelFileError(
                f"link {child!r} is the child of two joints ({parent_of[child][0]!r} "
                f"and {name!r}): a closed loop, but a URDF describes a tree (close "
                "loops with constraints, chapter 3.11)"
            )
        parent_of[child] = (name, parent)
        children[parent].append(len(joints))
        joints.append((name, URDF_JOINT_TYPES[kind], parent, child, joint))
    roots = [name for name in links if name not in parent_of]
    if len(roots) != 1:
        raise ModelFileError(
            f"a URDF tree has exactly one root link (a link that is no joint's child), "
            f"found {len(roots)}: {roots} (a loop through every link leaves none)"
        )
    # depth first, children sorted by joint name (urdfdom keeps joints in a sorted map)
    order = []
    stack = [roots[0]]
    while stack:
        link = stack.pop()
        order.append(link)
        stack.extend(
            joints[j][3]
            for j in sorted(children[link], key=lambda j: joints[j][0], reverse=True)
        )
    unreached = sorted(set(links) - set(order))
    if unreached:
        raise ModelFileError(
            f"links {unreached} are not connected to the root {roots[0]!r}: "
            "they form a loop"
        )
    index = {}
    parents, types, axes, placements, inertias, names, joint_names = (
        [] for _ in range(7)
    )
    if root_joint == "free":
        index[roots[0]] = 0
        parents.append(-1)
        types.append("free")
        axes.append(np.zeros(3))
        placements.append(np.eye(4))
        inertias.append(_urdf_link_inertia(links[roots[0]]))
        names.append(roots[0])
        joint_names.append("root_joint")
    else:
        index[roots[0]] = -1
    for link in order[1:]:
        name, kind, parent, _, element = joints[[j[3] for j in joints].index(link)]
        index[link] = len(names)
        parents.append(index[parent])
        types.append(kind)
        axis_el = element.find("axis")
        axes.append(
            _numbers(
                None if axis_el is None else axis_el.get("xyz"),
                f"joint {name!r} <axis xyz>",
                3,
                "1 0 0",
            )
            if kind != "fixed"
            else np.zeros(3)
        )
        if kind != "fixed" and not np.any(axes[-1]):
            raise ModelFileError(f"URDF joint {name!r} has a zero <axis xyz>")
        placements.append(_urdf_origin(element, f"joint {name!r}"))
        inertias.append(_urdf_link_inertia(links[link]))
        names.append(link)
        joint_names.append(name)
    if not names:
        raise ModelFileError(
            f"the URDF has no joint below its root link {roots[0]!r}: nothing moves"
        )
    frames = {roots[0]: (-1, np.eye(4))} if root_joint == "fixed" else {}
    model = kinematic_tree(
        parents,
        types,
        axes,
        placements,
        inertias,
        names=names,
        joint_names=joint_names,
        frames=frames,
    )
    return merge_fixed_joints(model) if merge_fixed else model
