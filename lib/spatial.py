"""Twists, wrenches, adjoints and spatial inertia (6-vector algebra).

Conventions: a twist is ``V = (omega, v)`` (angular first; ``v`` is the
velocity of the body-fixed point at the frame origin), a wrench is ``F = (m,
f)`` (moment about the frame origin first), SI units. ``T_ba`` is the pose of
frame ``{a}`` in frame ``{b}``, so that ``V_b = Ad_{T_ba} V_a``. Pinocchio
orders 6-vectors (linear, angular): convert explicitly when comparing.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (
    FloatArray,
    as_spatial_inertia,
    as_rotation,
    as_transform,
    as_vector,
    positive,
)
from .errors import NonPhysicalInertiaError
from .inertia import check_physical_inertia, skew

__all__ = [
    "transform",
    "inverse_transform",
    "adjoint",
    "ad",
    "spatial_inertia",
    "transform_spatial_inertia",
    "transform_wrench",
    "spatial_momentum",
    "kinetic_energy",
]


def transform(rotation: ArrayLike, position: ArrayLike) -> FloatArray:
    """Homogeneous transform ``T = [[R, p], [0, 1]]``.

    ``T_ab`` built from ``R = ^a R_b`` and ``p`` = origin of ``{b}`` in
    ``{a}`` maps ``{b}`` coordinates to ``{a}`` coordinates. Explained in
    :ref:`sec-rb-spatial`.

    Parameters
    ----------
    rotation : array_like, shape (3, 3)
        Rotation matrix (orthonormal, det +1).
    position : array_like, shape (3,)
        Translation, m.

    Returns
    -------
    numpy.ndarray, shape (4, 4)

    Raises
    ------
    NotARotationError
        If ``rotation`` is not a rotation matrix.
    ShapeError, NonFiniteError
        On malformed arrays.

    Examples
    --------
    >>> from lib.spatial import transform
    >>> print(transform([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], [1.0, 2.0, 3.0]))
    [[1. 0. 0. 1.]
     [0. 1. 0. 2.]
     [0. 0. 1. 3.]
     [0. 0. 0. 1.]]
    """
    r = as_rotation(rotation, "rotation")
    p = as_vector(position, "position", 3)
    out = np.eye(4)
    out[:3, :3] = r
    out[:3, 3] = p
    return out


def inverse_transform(T: ArrayLike) -> FloatArray:
    """Inverse of a rigid transform: ``T^-1 = [[R^T, -R^T p], [0, 1]]``.

    Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    T : array_like, shape (4, 4)
        Homogeneous rigid transform ``T_ab``.

    Returns
    -------
    numpy.ndarray, shape (4, 4)
        ``T_ba``.

    Raises
    ------
    NotATransformError
        If ``T`` is not a homogeneous rigid transform.
    ShapeError, NonFiniteError
        On a malformed array.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import transform, inverse_transform
    >>> T = transform([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]], [1.0, 2.0, 3.0])
    >>> print(np.round(inverse_transform(T) @ T, 6))
    [[1. 0. 0. 0.]
     [0. 1. 0. 0.]
     [0. 0. 1. 0.]
     [0. 0. 0. 1.]]
    """
    t = as_transform(T, "T")
    r, p = t[:3, :3], t[:3, 3]
    out = np.eye(4)
    out[:3, :3] = r.T
    out[:3, 3] = -r.T @ p
    return out


def adjoint(T: ArrayLike) -> FloatArray:
    """Adjoint ``[Ad_T] = [[R, 0], [[p]x R, R]]`` acting on twists ``(omega, v)``.

    If ``T = T_ba`` then ``V_b = Ad_{T_ba} V_a``; its transpose maps wrenches
    the other way, ``F_a = Ad_{T_ba}^T F_b``. Explained in
    :ref:`sec-rb-spatial`.

    Parameters
    ----------
    T : array_like, shape (4, 4)
        Homogeneous rigid transform ``T_ba`` (pose of ``{a}`` in ``{b}``).

    Returns
    -------
    numpy.ndarray, shape (6, 6)

    Raises
    ------
    NotATransformError
        If ``T`` is not a homogeneous rigid transform.
    ShapeError, NonFiniteError
        On a malformed array.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import adjoint, transform
    >>> T = transform(np.eye(3), [0.0, 1.0, 0.0])
    >>> # {a} sits 1 m along y of {b}; a spin about {a}'s z axis moves {b}'s origin along +x
    >>> print(adjoint(T) @ np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    [0. 0. 1. 1. 0. 0.]
    """
    t = as_transform(T, "T")
    r, p = t[:3, :3], t[:3, 3]
    out = np.zeros((6, 6))
    out[:3, :3] = r
    out[3:, 3:] = r
    out[3:, :3] = skew(p) @ r
    return out


def ad(V: ArrayLike) -> FloatArray:
    """Lie bracket matrix ``[ad_V] = [[[omega], 0], [[v], [omega]]]`` of a twist.

    ``ad_V1 V2`` is the Lie bracket; ``-ad_V^T (G V)`` is the velocity-product
    (gyroscopic) wrench of a rigid body. Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    V : array_like, shape (6,)
        Twist ``(omega, v)``, rad/s and m/s.

    Returns
    -------
    numpy.ndarray, shape (6, 6)

    Raises
    ------
    ShapeError, NonFiniteError
        If ``V`` is not a finite 6-vector.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import ad
    >>> V = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    >>> print(np.round(ad(V) @ V, 6))  # the bracket of a twist with itself vanishes
    [0. 0. 0. 0. 0. 0.]
    """
    twist = as_vector(V, "V", 6)
    w, v = skew(twist[:3]), skew(twist[3:])
    out = np.zeros((6, 6))
    out[:3, :3] = w
    out[3:, 3:] = w
    out[3:, :3] = v
    return out


def spatial_inertia(mass: float, inertia_com: ArrayLike, com: ArrayLike | None = None) -> FloatArray:
    """Spatial inertia ``G`` (6x6), ordered (angular, linear).

    Without ``com`` the frame is at the centre of mass and ``G = diag(I_c, m
    E)``. With ``com = c`` (the COM in a frame whose axes are those of
    ``inertia_com``) ``G = [[I_c - m [c]^2, m [c]], [-m [c], m E]]``, so that
    ``G V = (h_O, p)``. Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    inertia_com : array_like, shape (3, 3)
        Inertia about the COM, kg m^2 (symmetric and physical).
    com : array_like, shape (3,), optional
        Position of the COM in the frame, m (default: the origin).

    Returns
    -------
    numpy.ndarray, shape (6, 6)
        ``G`` in the frame; kg m^2, kg m and kg blocks.

    Raises
    ------
    NonPositiveMassError, NonSymmetricError, NonPhysicalInertiaError, ShapeError, NonFiniteError
        On a non-positive mass, or an inertia that is not symmetric or not physical.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import spatial_inertia
    >>> print(np.round(spatial_inertia(2.0, np.diag([0.1, 0.2, 0.25])).diagonal(), 6))
    [0.1  0.2  0.25 2.   2.   2.  ]
    """
    m = positive(mass, "mass")
    i_c = check_physical_inertia(inertia_com, "inertia_com")
    out = np.zeros((6, 6))
    out[3:, 3:] = m * np.eye(3)
    if com is None:
        out[:3, :3] = i_c
        return out
    c = skew(as_vector(com, "com", 3))
    out[:3, :3] = i_c - m * c @ c
    out[:3, 3:] = m * c
    out[3:, :3] = -m * c
    return out


def transform_spatial_inertia(G_b: ArrayLike, T_ba: ArrayLike) -> FloatArray:
    """Spatial inertia in another frame: ``G_a = Ad_{T_ba}^T G_b Ad_{T_ba}``.

    Follows from the frame independence of the kinetic energy, ``V_b = Ad_{T_ba}
    V_a``. With ``T_ba = (E, p)`` and ``{b}`` at the COM the angular block is
    the parallel-axis theorem. Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    G_b : array_like, shape (6, 6)
        Symmetric positive semidefinite spatial inertia in ``{b}``.
    T_ba : array_like, shape (4, 4)
        Pose of ``{a}`` in ``{b}``.

    Returns
    -------
    numpy.ndarray, shape (6, 6)
        ``G_a``.

    Raises
    ------
    NonSymmetricError, NonPhysicalInertiaError
        If ``G_b`` is not symmetric or not positive semidefinite.
    NotATransformError, ShapeError, NonFiniteError
        On a malformed transform or arrays.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import spatial_inertia, transform, transform_spatial_inertia
    >>> G_c = spatial_inertia(2.0, np.diag([0.01, 0.01, 0.02]))
    >>> T_ca = transform(np.eye(3), [0.0, 0.0, -0.1])  # frame {a} 0.1 m below the COM
    >>> print(np.round(transform_spatial_inertia(G_c, T_ca)[:3, :3].diagonal(), 6))
    [0.03 0.03 0.02]
    """
    g = as_spatial_inertia(G_b, "G_b")
    adj = adjoint(as_transform(T_ba, "T_ba"))
    out = adj.T @ g @ adj
    return 0.5 * (out + out.T)


def transform_wrench(F_b: ArrayLike, T_ba: ArrayLike) -> FloatArray:
    """Wrench in another frame: ``F_a = Ad_{T_ba}^T F_b``.

    Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    F_b : array_like, shape (6,)
        Wrench ``(moment, force)`` in ``{b}``, N m and N.
    T_ba : array_like, shape (4, 4)
        Pose of ``{a}`` in ``{b}``.

    Returns
    -------
    numpy.ndarray, shape (6,)
        ``F_a``: the same wrench, moment about ``{a}``'s origin, in ``{a}``.

    Raises
    ------
    NotATransformError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import transform, transform_wrench
    >>> T_ba = transform(np.eye(3), [-1.0, 0.0, 0.0])  # {a} 1 m along -x of {b}
    >>> print(np.round(transform_wrench([0.0, 0.0, 0.0, 0.0, 0.0, -10.0], T_ba), 6) + 0.0)
    [ 0. 10.  0.  0.  0. -10.]
    """
    f = as_vector(F_b, "F_b", 6)
    return adjoint(as_transform(T_ba, "T_ba")).T @ f


def spatial_momentum(G: ArrayLike, V: ArrayLike) -> FloatArray:
    """Spatial momentum ``P = G V = (h_O, p)``.

    Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    G : array_like, shape (6, 6)
        Spatial inertia in a frame ``{f}``.
    V : array_like, shape (6,)
        Twist ``(omega, v)`` in ``{f}``, rad/s and m/s.

    Returns
    -------
    numpy.ndarray, shape (6,)
        Angular momentum about ``{f}``'s origin (kg m^2/s) and linear momentum (kg m/s), in ``{f}``.

    Raises
    ------
    NonSymmetricError, NonPhysicalInertiaError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import spatial_inertia, spatial_momentum
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.2, 0.3]))
    >>> print(np.round(spatial_momentum(G, [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]), 6))
    [0.  0.  0.3 2.  0.  0. ]
    """
    g = as_spatial_inertia(G, "G")
    return g @ as_vector(V, "V", 6)


def kinetic_energy(G: ArrayLike, V: ArrayLike) -> float:
    """Kinetic energy ``K = V^T G V / 2``, J.

    Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    G : array_like, shape (6, 6)
        Spatial inertia in a frame ``{f}``.
    V : array_like, shape (6,)
        Twist ``(omega, v)`` in ``{f}``, rad/s and m/s.

    Returns
    -------
    float
        Kinetic energy, J (the same in every frame).

    Raises
    ------
    NonSymmetricError, NonPhysicalInertiaError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import spatial_inertia, kinetic_energy
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.2, 0.3]))
    >>> print(round(kinetic_energy(G, [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]), 6))
    1.15
    """
    g = as_spatial_inertia(G, "G")
    v = as_vector(V, "V", 6)
    return float(0.5 * v @ g @ v)
