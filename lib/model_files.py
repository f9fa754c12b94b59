"""Inertial data of robot model files (URDF, MJCF) as matrices and spatial inertias.

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

from ._validation import FloatArray, as_rotation, as_vector, positive
from .errors import ModelFileError, NonFiniteError
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

    Explained in :ref:`sec-rb-model-files`.

    Parameters
    ----------
    quat : array_like, shape (4,)
        Quaternion, scalar first, non-zero.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
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
    q = as_vector(quat, "quat", 4)
    w, x, y, z = q / positive(np.linalg.norm(q), "the norm of quat")
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


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


