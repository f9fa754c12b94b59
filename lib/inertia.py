"""Mass properties of rigid bodies: centre of mass, inertia tensor, consistency.

Conventions: SI units (kg, m, kg m^2). An inertia tensor ``I`` is a symmetric
3x3 matrix with the products of inertia as matrix entries,
``I_xy = -sum m_i x_i y_i``, so that the angular momentum is ``h = I omega``.
Every function says about which point and in which frame's axes its tensors
are expressed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (
    FloatArray,
    as_array,
    as_rotation,
    as_symmetric,
    as_vector,
    nonnegative_array,
    positive,
    positive_array,
)
from .errors import (
    MeshOrientationError,
    NonPhysicalInertiaError,
    NonPositiveValueError,
    ShapeError,
)

__all__ = [
    "skew",
    "MassProperties",
    "point_mass_properties",
    "point_mass_inertia",
    "box_inertia",
    "cylinder_inertia",
    "sphere_inertia",
    "ellipsoid_inertia",
    "box_mesh",
    "prism_mesh",
    "mesh_mass_properties",
    "parallel_axis",
    "inertia_about_com",
    "rotate_inertia",
    "combine_bodies",
    "principal_axes",
    "triangle_inequality_margins",
    "is_physically_consistent",
    "check_physical_inertia",
    "second_moment_from_inertia",
    "pseudo_inertia",
    "six_point_masses",
    "PHYSICAL_RTOL",
]

#: Default relative tolerance (relative to ``tr I``) for the consistency checks.
#: Round-off in a computed inertia is ~1e-16 tr I; 1e-9 leaves room for values
#: read from model files with 9-10 significant digits.
PHYSICAL_RTOL = 1e-9


def _skew(w: FloatArray) -> FloatArray:
    """[w]x for a (..., 3) array (internal, no validation)."""
    out = np.zeros(w.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2] = -w[..., 2], w[..., 1]
    out[..., 1, 0], out[..., 1, 2] = w[..., 2], -w[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -w[..., 1], w[..., 0]
    return out


def skew(w: ArrayLike) -> FloatArray:
    """Skew-symmetric matrix ``[w]x`` with ``[w]x u = w x u``.

    Explained in :ref:`sec-rb-inertia-tensor`.

    Parameters
    ----------
    w : array_like, shape (3,)
        A 3-vector (any unit, any frame).

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        ``[[0, -w_z, w_y], [w_z, 0, -w_x], [-w_y, w_x, 0]]``.

    Raises
    ------
    ShapeError, NonFiniteError
        If ``w`` is not a finite 3-vector.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import skew
    >>> print(skew([1.0, 2.0, 3.0]) @ np.array([4.0, 5.0, 6.0]), np.cross([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]))
    [-3.  6. -3.] [-3.  6. -3.]
    """
    return _skew(as_vector(w, "w", 3))


def _moments(inertia: FloatArray) -> FloatArray:
    """Ascending eigenvalues of a symmetric matrix (internal)."""
    return np.linalg.eigvalsh(inertia)


def _margins_from_moments(moments: FloatArray) -> FloatArray:
    total = np.sum(moments, axis=-1, keepdims=True)
    return total - 2.0 * moments


# ---------------------------------------------------------------------------
# Consistency
# ---------------------------------------------------------------------------


def triangle_inequality_margins(inertia: ArrayLike) -> FloatArray:
    """Margins ``I_j + I_k - I_i`` of the triangle inequality.

    With the principal moments sorted ascending, ``I_1 <= I_2 <=
    I_3``, the three margins are ``(I_2 + I_3 - I_1,
    I_1 + I_3 - I_2, I_1 + I_2 - I_3)``, in
    descending order; a real body has all three >= 0, so the last one decides.
    Each margin is twice the second moment ``int rho x_i^2 dV`` along
    principal axis ``i``. Explained in :ref:`sec-rb-consistency`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Symmetric inertia tensor about the centre of mass, kg m^2 (any axes).

    Returns
    -------
    numpy.ndarray, shape (3,)
        The margins, kg m^2.

    Raises
    ------
    ShapeError, NonFiniteError, NonSymmetricError
        If ``inertia`` is not a finite symmetric 3x3 matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import triangle_inequality_margins
    >>> print(np.round(triangle_inequality_margins(np.diag([1.0, 1.0, 3.0])), 6))
    [ 3.  3. -1.]
    """
    matrix = as_symmetric(inertia, "inertia", 3)
    return _margins_from_moments(_moments(matrix))


def is_physically_consistent(inertia: ArrayLike, rtol: float = PHYSICAL_RTOL) -> bool:
    """Whether an inertia about the COM can belong to a real mass distribution.

    True when all principal moments satisfy the triangle inequality
    ``I_i + I_j >= I_k`` (which also implies ``I_i >= 0``)
    to within ``rtol * tr(I)``. The triangle inequality is necessary and
    sufficient: six point masses realise any such moments
    (:func:`six_point_masses`). Explained in :ref:`sec-rb-consistency`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Symmetric inertia tensor about the centre of mass, kg m^2.
    rtol : float, optional
        Allowed violation relative to ``tr(I)``.

    Returns
    -------
    bool

    Raises
    ------
    ShapeError, NonFiniteError, NonSymmetricError
        If ``inertia`` is not a finite symmetric 3x3 matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import is_physically_consistent
    >>> is_physically_consistent(np.diag([1.0, 2.0, 2.5]))
    True
    >>> is_physically_consistent(np.diag([1.0, 1.0, 3.0]))  # positive definite, yet not physical
    False
    """
    matrix = as_symmetric(inertia, "inertia", 3)
    moments = _moments(matrix)
    scale = max(float(np.sum(np.abs(moments))), np.finfo(float).tiny)
    return bool(np.all(_margins_from_moments(moments) >= -rtol * scale))


def check_physical_inertia(
    inertia: ArrayLike, name: str = "inertia", rtol: float = PHYSICAL_RTOL
) -> FloatArray:
    """Validate that an inertia about the COM is physical, and return it.

    Checks that the matrix is finite, 3x3 and symmetric, that its principal
    moments are non-negative (positive semidefinite) and that they satisfy the
    triangle inequality, each to within ``rtol * tr(I)``. Explained in
    :ref:`sec-rb-consistency`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Inertia tensor about the centre of mass, kg m^2.
    name : str, optional
        Argument name used in error messages.
    rtol : float, optional
        Allowed violation relative to ``tr(I)``.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        The inertia as an exactly symmetric float array.

    Raises
    ------
    NonPhysicalInertiaError
        If a principal moment is negative or the triangle inequality fails;
        the message names the violated inequality.
    ShapeError, NonFiniteError, NonSymmetricError
        If the matrix is not a finite symmetric 3x3 matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import check_physical_inertia
    >>> print(check_physical_inertia(np.diag([1.0, 2.0, 2.5])).diagonal())
    [1.  2.  2.5]
    >>> check_physical_inertia(np.diag([1.0, 1.0, 3.0]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lib.errors.NonPhysicalInertiaError: inertia violates the triangle inequality ...
    """
    matrix = as_symmetric(inertia, name, 3)
    moments = _moments(matrix)
    scale = max(float(np.sum(np.abs(moments))), np.finfo(float).tiny)
    tol = rtol * scale
    if moments[0] < -tol:
        raise NonPhysicalInertiaError(
            f"{name} is not positive semidefinite: its smallest principal moment is "
            f"{moments[0]:.6g} kg m^2 < 0 (principal moments {np.round(moments, 12)}); "
            "a moment of inertia sum m_i r_i^2 can never be negative"
        )
    margin = float(moments[0] + moments[1] - moments[2])
    if margin < -tol:
        raise NonPhysicalInertiaError(
            f"{name} violates the triangle inequality I_1 + I_2 >= I_3 of its "
            f"principal moments: {moments[0]:.6g} + {moments[1]:.6g} < {moments[2]:.6g} "
            f"(margin {margin:.3g} kg m^2); no mass distribution has this inertia, even though "
            "the matrix may be positive definite"
        )
    return matrix


def second_moment_from_inertia(inertia: ArrayLike) -> FloatArray:
    """Second moment ``Sigma = int rho x x^T dV = tr(I)/2 E - I``.

    Its eigenvalues are ``(I_j + I_k - I_i) / 2``: half the
    triangle-inequality margins (:func:`triangle_inequality_margins`), so a
    real body has ``Sigma >= 0``. The inverse map is ``I = tr(Sigma) E -
    Sigma``. Explained in :ref:`sec-rb-consistency`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Symmetric inertia tensor about a point ``O``, kg m^2.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        ``Sigma`` about the same point in the same axes, kg m^2.

    Raises
    ------
    ShapeError, NonFiniteError, NonSymmetricError
        If ``inertia`` is not a finite symmetric 3x3 matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import second_moment_from_inertia
    >>> print(np.round(np.diag(second_moment_from_inertia(np.diag([1.0, 2.0, 2.5]))), 6))
    [1.75 0.75 0.25]
    """
    matrix = as_symmetric(inertia, "inertia", 3)
    return 0.5 * np.trace(matrix) * np.eye(3) - matrix


def pseudo_inertia(mass: float, com: ArrayLike, inertia_com: ArrayLike) -> FloatArray:
    """Pseudo-inertia ``Pi = [[Sigma_O, m c], [m c^T, m]]`` (4x4).

    ``Pi = int rho [x; 1][x; 1]^T dV`` about the frame origin ``O``, with
    ``Sigma_O = tr(I_O)/2 E - I_O`` and ``I_O`` from the parallel-axis
    theorem. ``Pi >= 0`` is necessary for a real body. The inertia is not
    checked for consistency here, so that ``Pi`` of a non-physical inertia can
    be inspected. Explained in :ref:`sec-rb-consistency`.

    Parameters
    ----------
    mass : float
        Mass ``m``, kg, > 0.
    com : array_like, shape (3,)
        Centre of mass ``c`` in the frame, m.
    inertia_com : array_like, shape (3, 3)
        Symmetric inertia about the COM in the frame's axes, kg m^2.

    Returns
    -------
    numpy.ndarray, shape (4, 4)
        ``Pi``; units kg m^2 (top-left), kg m (column), kg (corner).

    Raises
    ------
    NonPositiveMassError, ShapeError, NonFiniteError, NonSymmetricError
        On a non-positive mass or malformed arrays.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import pseudo_inertia
    >>> Pi = pseudo_inertia(2.0, [0.0, 0.0, 0.1], np.diag([0.02, 0.02, 0.01]))
    >>> print(np.round(Pi, 6))
    [[0.005 0.    0.    0.   ]
     [0.    0.005 0.    0.   ]
     [0.    0.    0.035 0.2  ]
     [0.    0.    0.2   2.   ]]
    """
    m = positive(mass, "mass")
    c = as_vector(com, "com", 3)
    i_c = as_symmetric(inertia_com, "inertia_com", 3)
    sigma_o = 0.5 * np.trace(i_c) * np.eye(3) - i_c + m * np.outer(c, c)
    out = np.empty((4, 4))
    out[:3, :3] = sigma_o
    out[:3, 3] = out[3, :3] = m * c
    out[3, 3] = m
    return out


def six_point_masses(
    mass: float, principal_moments: ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """Six point masses on the principal axes with given mass and moments.

    With ``s_i = (I_j + I_k - I_i) / 2 >= 0`` (the triangle
    inequality) and ``d = sqrt((I_1 + I_2 + I_3) / (2 m))``, masses ``s_i / (2
    d^2)`` at ``+-d e_i`` have total mass ``m``, centre of mass at the origin
    and principal moments ``I_1, I_2, I_3`` about it. This proves that the triangle
    inequality is sufficient. A mass is zero where ``s_i = 0``. Explained in
    :ref:`sec-rb-consistency`.

    Parameters
    ----------
    mass : float
        Total mass, kg, > 0.
    principal_moments : array_like, shape (3,)
        Principal moments ``I_1, I_2, I_3`` about the COM, kg m^2 (any order), not all zero.

    Returns
    -------
    masses : numpy.ndarray, shape (6,)
        Point masses, kg, ordered ``+x, -x, +y, -y, +z, -z``.
    positions : numpy.ndarray, shape (6, 3)
        Their positions in the principal-axes frame at the COM, m.

    Raises
    ------
    NonPhysicalInertiaError
        If the moments violate the triangle inequality or are all zero.
    NonPositiveMassError, ShapeError, NonFiniteError
        On a non-positive mass or malformed moments.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import six_point_masses, point_mass_properties
    >>> masses, positions = six_point_masses(2.0, [1.0, 2.0, 2.5])
    >>> print(np.round(point_mass_properties(masses, positions).inertia_com, 6))
    [[1.  0.  0. ]
     [0.  2.  0. ]
     [0.  0.  2.5]]
    """
    m = positive(mass, "mass")
    moments = as_vector(principal_moments, "principal_moments", 3)
    check_physical_inertia(np.diag(moments), "diag(principal_moments)")
    total = float(np.sum(moments))
    if total <= 0.0:
        raise NonPhysicalInertiaError(
            "principal_moments are all zero: that is a single point mass, which six "
            "point masses at a positive distance cannot represent"
        )
    s = np.maximum(0.5 * total - moments, 0.0)  # clip round-off below zero
    d = np.sqrt(total / (2.0 * m))
    masses = np.repeat(s / (2.0 * d * d), 2)
    masses *= m / np.sum(masses)  # exact total mass despite round-off
    positions = np.zeros((6, 3))
    for axis in range(3):
        positions[2 * axis, axis] = d
        positions[2 * axis + 1, axis] = -d
    return masses, positions


# ---------------------------------------------------------------------------
# Point masses and the MassProperties record
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MassProperties:
    """Mass, centre of mass and inertia about the centre of mass of one body.

    All three are expressed in one frame ``{f}``: ``com`` is the position of
    the centre of mass in ``{f}`` and ``inertia_com`` is the inertia about the
    centre of mass in ``{f}``'s axes. The fields are validated (``mass > 0``,
    finite, symmetric and physical inertia) and stored read-only. Explained in
    :ref:`sec-rb-inertia-tensor`.

    Parameters
    ----------
    mass : float
        Mass, kg.
    com : array_like, shape (3,)
        Centre of mass in ``{f}``, m.
    inertia_com : array_like, shape (3, 3)
        Inertia about the centre of mass in ``{f}``'s axes, kg m^2.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import MassProperties
    >>> body = MassProperties(2.0, [0.0, 0.0, 0.1], np.diag([0.02, 0.02, 0.01]))
    >>> print(body.mass, body.com)
    2.0 [0.  0.  0.1]
    """

    mass: float
    com: FloatArray = field()
    inertia_com: FloatArray = field()

    def __post_init__(self) -> None:
        m = positive(self.mass, "mass")
        c = as_vector(self.com, "com", 3)
        i_c = check_physical_inertia(self.inertia_com, "inertia_com")
        c.setflags(write=False)
        i_c.setflags(write=False)
        object.__setattr__(self, "mass", m)
        object.__setattr__(self, "com", c)
        object.__setattr__(self, "inertia_com", i_c)

    def inertia_about(self, point: ArrayLike) -> FloatArray:
        """Inertia about ``point`` (in ``{f}``), in ``{f}``'s axes, kg m^2.

        Explained in :ref:`sec-rb-steiner`.

        Examples
        --------
        >>> import numpy as np
        >>> from lib.inertia import MassProperties
        >>> body = MassProperties(2.0, [0.0, 0.0, 0.1], np.diag([0.02, 0.02, 0.01]))
        >>> print(np.round(body.inertia_about([0.0, 0.0, 0.0]).diagonal(), 6))
        [0.04 0.04 0.01]
        """
        p = as_vector(point, "point", 3)
        return parallel_axis(self.inertia_com, self.mass, self.com - p)


def _point_masses(masses: ArrayLike, positions: ArrayLike) -> tuple[FloatArray, FloatArray]:
    m = nonnegative_array(masses, "masses", (None,))
    p = as_array(positions, "positions", (None, 3))
    if p.shape[0] != m.shape[0]:
        raise ShapeError(
            f"positions must have one row per mass: {m.shape[0]} masses but positions has shape {p.shape}"
        )
    if m.size == 0 or float(np.sum(m)) <= 0.0:
        raise NonPositiveValueError(f"the total of masses must be positive, got {float(np.sum(m)) if m.size else 0.0}")
    return m, p


def point_mass_inertia(
    masses: ArrayLike, positions: ArrayLike, about: ArrayLike = (0.0, 0.0, 0.0)
) -> FloatArray:
    """Inertia of point masses about a point: ``sum m_i (|r_i|^2 E - r_i r_i^T)``.

    ``r_i = p_i - about``. Explained in :ref:`sec-rb-inertia-tensor`.

    Parameters
    ----------
    masses : array_like, shape (n,)
        Point masses, kg, >= 0 with a positive total.
    positions : array_like, shape (n, 3)
        Their positions in a frame ``{f}``, m.
    about : array_like, shape (3,), optional
        Reference point in ``{f}``, m (default: ``{f}``'s origin).

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about ``about`` in ``{f}``'s axes, kg m^2.

    Raises
    ------
    ShapeError, NonFiniteError, NonPositiveMassError
        On malformed arrays, a negative mass or a zero total mass.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import point_mass_inertia
    >>> print(np.round(point_mass_inertia([1.0, 1.0], [[1.0, 0, 0], [0, 1.0, 0]]), 6))
    [[1. 0. 0.]
     [0. 1. 0.]
     [0. 0. 2.]]
    """
    m, p = _point_masses(masses, positions)
    r = p - as_vector(about, "about", 3)
    second = np.einsum("i,ij,ik->jk", m, r, r)
    return np.trace(second) * np.eye(3) - second


def point_mass_properties(masses: ArrayLike, positions: ArrayLike) -> MassProperties:
    """Mass, centre of mass and inertia about the COM of a set of point masses.

    ``m = sum m_i``, ``c = sum m_i p_i / m``, ``I_c = sum m_i (|r_i|^2 E -
    r_i r_i^T)`` with ``r_i = p_i - c``. Explained in
    :ref:`sec-rb-inertia-tensor`.

    Parameters
    ----------
    masses : array_like, shape (n,)
        Point masses, kg, >= 0 with a positive total.
    positions : array_like, shape (n, 3)
        Their positions in a frame ``{f}``, m.

    Returns
    -------
    MassProperties
        In ``{f}``.

    Raises
    ------
    ShapeError, NonFiniteError, NonPositiveMassError
        On malformed arrays, a negative mass or a zero total mass.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import point_mass_properties
    >>> body = point_mass_properties([1.0, 3.0], [[0.0, 0, 0], [0.4, 0, 0]])
    >>> print(body.mass, np.round(body.com, 6), np.round(body.inertia_com.diagonal(), 6))
    4.0 [0.3 0.  0. ] [0.   0.12 0.12]
    """
    m, p = _point_masses(masses, positions)
    total = float(np.sum(m))
    c = m @ p / total
    r = p - c
    second = np.einsum("i,ij,ik->jk", m, r, r)
    return MassProperties(total, c, np.trace(second) * np.eye(3) - second)


# ---------------------------------------------------------------------------
# Closed forms
# ---------------------------------------------------------------------------


def box_inertia(mass: float, size: ArrayLike) -> FloatArray:
    """Inertia of a uniform box about its centre, axes along its edges.

    ``I = m/12 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2)`` for full edge lengths
    ``(a, b, c)`` along ``(x, y, z)``. Explained in :ref:`sec-rb-closed-forms`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    size : array_like, shape (3,)
        Full edge lengths ``(a, b, c)``, m, > 0.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about the centre in the box frame, kg m^2.

    Raises
    ------
    NonPositiveMassError, ShapeError, NonFiniteError
        On a non-positive mass or edge length, or a malformed size.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import box_inertia
    >>> print(np.round(box_inertia(12.0, [1.0, 2.0, 3.0]).diagonal(), 6))
    [13. 10.  5.]
    """
    m = positive(mass, "mass")
    a, b, c = positive_array(size, "size", (3,)) ** 2
    return m / 12.0 * np.diag([b + c, a + c, a + b])


def cylinder_inertia(mass: float, radius: float, height: float) -> FloatArray:
    """Inertia of a uniform solid cylinder about its centre, axis along z.

    ``I_xx = I_yy = m (3 r^2 + h^2) / 12``, ``I_zz = m r^2 / 2``. Explained
    in :ref:`sec-rb-closed-forms`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    radius : float
        Radius ``r``, m, > 0.
    height : float
        Full length ``h`` along z, m, > 0.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about the centre, cylinder frame (z = axis), kg m^2.

    Raises
    ------
    NonPositiveMassError, NonFiniteError
        On a non-positive mass, radius or height.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import cylinder_inertia
    >>> print(np.round(cylinder_inertia(2.0, 0.1, 0.3).diagonal(), 6))
    [0.02 0.02 0.01]
    """
    m = positive(mass, "mass")
    r = positive(radius, "radius")
    h = positive(height, "height")
    side = m * (3.0 * r * r + h * h) / 12.0
    return np.diag([side, side, 0.5 * m * r * r])


def sphere_inertia(mass: float, radius: float) -> FloatArray:
    """Inertia of a uniform solid sphere about its centre: ``2/5 m r^2 E``.

    Explained in :ref:`sec-rb-closed-forms`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    radius : float
        Radius, m, > 0.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about the centre (any axes), kg m^2.

    Raises
    ------
    NonPositiveMassError, NonFiniteError
        On a non-positive mass or radius.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import sphere_inertia
    >>> print(np.round(sphere_inertia(5.0, 0.2).diagonal(), 6))
    [0.08 0.08 0.08]
    """
    m = positive(mass, "mass")
    r = positive(radius, "radius")
    return 0.4 * m * r * r * np.eye(3)


def ellipsoid_inertia(mass: float, semi_axes: ArrayLike) -> FloatArray:
    """Inertia of a uniform solid ellipsoid about its centre, axes along its semi-axes.

    ``I = m/5 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2)`` for semi-axes ``(a, b,
    c)``. Explained in :ref:`sec-rb-closed-forms`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    semi_axes : array_like, shape (3,)
        Semi-axis lengths along x, y, z, m, > 0.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about the centre in the ellipsoid frame, kg m^2.

    Raises
    ------
    NonPositiveMassError, ShapeError, NonFiniteError
        On a non-positive mass or semi-axis.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import ellipsoid_inertia
    >>> print(np.round(ellipsoid_inertia(5.0, [1.0, 2.0, 3.0]).diagonal(), 6))
    [13. 10.  5.]
    """
    m = positive(mass, "mass")
    a, b, c = positive_array(semi_axes, "semi_axes", (3,)) ** 2
    return m / 5.0 * np.diag([b + c, a + c, a + b])


# ---------------------------------------------------------------------------
# Meshes
# ---------------------------------------------------------------------------


def box_mesh(size: ArrayLike) -> tuple[FloatArray, np.ndarray]:
    """Closed triangle mesh of a box centred at the origin (12 triangles).

    Faces are ordered counter-clockwise seen from outside, so their normals
    point outward. Explained in :ref:`sec-rb-mesh`.

    Parameters
    ----------
    size : array_like, shape (3,)
        Full edge lengths along x, y, z, m, > 0.

    Returns
    -------
    vertices : numpy.ndarray, shape (8, 3)
        Vertex positions, m.
    faces : numpy.ndarray of int, shape (12, 3)
        Vertex indices of each triangle.

    Raises
    ------
    NonPositiveMassError, ShapeError, NonFiniteError
        On a non-positive or malformed size.

    Examples
    --------
    >>> from lib.inertia import box_mesh, mesh_mass_properties
    >>> vertices, faces = box_mesh([1.0, 2.0, 3.0])
    >>> print(vertices.shape, faces.shape, mesh_mass_properties(vertices, faces).mass)
    (8, 3) (12, 3) 6.0
    """
    half = 0.5 * positive_array(size, "size", (3,))
    corners = np.array([[(i >> 0) & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=float)
    vertices = (2.0 * corners - 1.0) * half
    # vertex index = x + 2 y + 4 z; each quad counter-clockwise seen from outside
    quads = [
        (0, 4, 6, 2),  # -x
        (1, 3, 7, 5),  # +x
        (0, 1, 5, 4),  # -y
        (2, 6, 7, 3),  # +y
        (0, 2, 3, 1),  # -z
        (4, 5, 7, 6),  # +z
    ]
    faces = np.array([t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))], dtype=np.int64)
    return vertices, faces


def prism_mesh(radius: float, height: float, n_sides: int) -> tuple[FloatArray, np.ndarray]:
    """Closed mesh of a regular n-gon prism inscribed in a cylinder (axis z).

    The polygon's corners lie on the circle of radius ``radius``; the prism
    spans ``z = -height/2 .. height/2``; both caps are fans around a centre
    vertex. Its volume is ``n/2 r^2 sin(2 pi/n) h``, so the relative mass
    error against the cylinder is ``1 - n/(2 pi) sin(2 pi/n)``. Normals point
    outward. Explained in :ref:`sec-rb-mesh`.

    Parameters
    ----------
    radius : float
        Circumscribed radius, m, > 0.
    height : float
        Length along z, m, > 0.
    n_sides : int
        Number of polygon sides, >= 3.

    Returns
    -------
    vertices : numpy.ndarray, shape (2 n + 2, 3)
        Vertex positions, m.
    faces : numpy.ndarray of int, shape (4 n, 3)
        Vertex indices of each triangle.

    Raises
    ------
    NonPositiveMassError, NonFiniteError
        On a non-positive radius or height.
    ShapeError
        If ``n_sides`` is not an integer >= 3.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import prism_mesh, mesh_mass_properties
    >>> vertices, faces = prism_mesh(1.0, 1.0, 4)
    >>> print(faces.shape, np.round(mesh_mass_properties(vertices, faces).mass, 6))
    (16, 3) 2.0
    """
    r = positive(radius, "radius")
    h = positive(height, "height")
    if isinstance(n_sides, bool) or not isinstance(n_sides, (int, np.integer)) or n_sides < 3:
        raise ShapeError(f"n_sides must be an integer >= 3, got {n_sides!r}")
    n = int(n_sides)
    angles = 2.0 * np.pi * np.arange(n) / n
    ring = np.column_stack([r * np.cos(angles), r * np.sin(angles)])
    bottom = np.column_stack([ring, np.full(n, -0.5 * h)])
    top = np.column_stack([ring, np.full(n, 0.5 * h)])
    vertices = np.vstack([bottom, top, [[0.0, 0.0, -0.5 * h], [0.0, 0.0, 0.5 * h]]])
    i = np.arange(n)
    j = (i + 1) % n
    cb, ct = 2 * n, 2 * n + 1
    faces = np.vstack(
        [
            np.column_stack([i, j, n + j]),  # sides, counter-clockwise seen from outside
            np.column_stack([i, n + j, n + i]),
            np.column_stack([np.full(n, cb), j, i]),  # bottom cap, normal -z
            np.column_stack([np.full(n, ct), n + i, n + j]),  # top cap, normal +z
        ]
    ).astype(np.int64)
    return vertices, faces


def _check_closed_mesh(faces: np.ndarray, n_vertices: int) -> None:
    """Every edge must be shared by exactly two faces with opposite directions."""
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    codes = directed[:, 0] * n_vertices + directed[:, 1]
    unique, counts = np.unique(codes, return_counts=True)
    if np.any(counts > 1):
        code = int(unique[np.argmax(counts > 1)])
        raise MeshOrientationError(
            f"the directed edge ({code // n_vertices} -> {code % n_vertices}) is used by "
            f"{int(counts.max())} faces in the same direction: neighbouring faces are "
            "inconsistently oriented (or the mesh is not a manifold); "
            "each edge must appear once in each direction"
        )
    reverse = directed[:, 1] * n_vertices + directed[:, 0]
    missing = ~np.isin(reverse, unique)
    if np.any(missing):
        a, b = directed[np.argmax(missing)]
        raise MeshOrientationError(
            f"the mesh is open: edge ({a} -> {b}) belongs to only one face "
            f"({int(np.sum(missing))} such boundary edges); mass properties need a closed "
            "(watertight) surface with every edge shared by exactly two faces"
        )


def mesh_mass_properties(
    vertices: ArrayLike, faces: ArrayLike, density: float = 1.0
) -> MassProperties:
    """Mass properties of a closed, outward-oriented triangle mesh of uniform density.

    Sums signed tetrahedra (origin, a, b, c): ``v = a.(b x c)/6``, ``int x dV
    = v (a+b+c)/4``, ``int x x^T dV = v/20 (aa^T + bb^T + cc^T + ss^T)`` with
    ``s = a+b+c``; then ``I_O = rho (tr(C) E - C)`` and ``I_c = I_O - m
    (|c|^2 E - c c^T)``. The vertices are first shifted to their mean to
    reduce cancellation; the result does not depend on that point. Explained
    in :ref:`sec-rb-mesh`.

    Parameters
    ----------
    vertices : array_like, shape (n, 3)
        Vertex positions in a frame ``{f}``, m.
    faces : array_like of int, shape (k, 3)
        Vertex indices of each triangle, counter-clockwise seen from outside.
    density : float, optional
        Uniform density, kg/m^3, > 0.

    Returns
    -------
    MassProperties
        In ``{f}``.

    Raises
    ------
    MeshOrientationError
        If the mesh is open, inconsistently oriented, inward-facing (negative
        volume), has a face with a repeated vertex or encloses no volume.
    ShapeError, NonFiniteError, NonPositiveMassError
        On malformed arrays, out-of-range indices or a non-positive density.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import box_mesh, mesh_mass_properties
    >>> body = mesh_mass_properties(*box_mesh([1.0, 2.0, 3.0]), density=2.0)
    >>> print(body.mass, np.round(body.inertia_com.diagonal(), 6))
    12.0 [13. 10.  5.]
    """
    rho = positive(density, "density")
    v = as_array(vertices, "vertices", (None, 3))
    f_raw = np.asarray(faces)
    if f_raw.ndim != 2 or f_raw.shape[1] != 3:
        raise ShapeError(f"faces must have shape (k, 3) (three vertex indices per triangle), got shape {f_raw.shape}")
    if f_raw.size and not np.issubdtype(f_raw.dtype, np.integer):
        if not np.all(np.isfinite(f_raw.astype(float))) or np.any(f_raw != np.round(f_raw)):
            raise ShapeError("faces must contain integer vertex indices")
    f = f_raw.astype(np.int64)
    if f.shape[0] < 4:
        raise MeshOrientationError(
            f"a closed triangle mesh needs at least 4 faces (a tetrahedron), got {f.shape[0]}"
        )
    if f.min() < 0 or f.max() >= v.shape[0]:
        raise ShapeError(
            f"faces refer to vertex indices {int(f.min())}..{int(f.max())}, but there are only "
            f"{v.shape[0]} vertices (valid indices 0..{v.shape[0] - 1})"
        )
    repeated = (f[:, 0] == f[:, 1]) | (f[:, 1] == f[:, 2]) | (f[:, 0] == f[:, 2])
    if np.any(repeated):
        raise MeshOrientationError(
            f"face {int(np.argmax(repeated))} = {f[np.argmax(repeated)].tolist()} repeats a vertex: "
            "a degenerate triangle has no orientation"
        )
    _check_closed_mesh(f, v.shape[0])
    origin = v.mean(axis=0)
    a, b, c = (v - origin)[f].transpose(1, 0, 2)
    vol = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    s = a + b + c
    volume = float(np.sum(vol))
    extent = float(np.max(np.ptp(v, axis=0)))
    if not volume > 1e-12 * extent**3:
        if volume < 0.0 and abs(volume) > 1e-12 * extent**3:
            raise MeshOrientationError(
                f"the mesh encloses a negative volume ({volume:.6g} m^3): its faces are ordered "
                "clockwise seen from outside (normals point inward); reverse the vertex order "
                "of every face, e.g. faces[:, ::-1]"
            )
        raise MeshOrientationError(
            f"the mesh encloses no volume ({volume:.3g} m^3 for an extent of {extent:.3g} m): "
            "it is flat or degenerate"
        )
    first = (vol @ s) / 4.0
    second = (
        np.einsum("i,ij,ik->jk", vol, a, a)
        + np.einsum("i,ij,ik->jk", vol, b, b)
        + np.einsum("i,ij,ik->jk", vol, c, c)
        + np.einsum("i,ij,ik->jk", vol, s, s)
    ) / 20.0
    mass = rho * volume
    com_rel = first / volume
    i_o = rho * (np.trace(second) * np.eye(3) - second)
    i_c = i_o - mass * (com_rel @ com_rel * np.eye(3) - np.outer(com_rel, com_rel))
    return MassProperties(mass, origin + com_rel, 0.5 * (i_c + i_c.T))


# ---------------------------------------------------------------------------
# Change of reference point and axes, composite bodies, principal axes
# ---------------------------------------------------------------------------


def parallel_axis(inertia_com: ArrayLike, mass: float, displacement: ArrayLike) -> FloatArray:
    """Parallel-axis (Steiner) theorem: inertia about a point ``p``.

    ``I_p = I_c + m (|d|^2 E - d d^T)`` with ``d = c - p`` (the sign of ``d``
    does not matter). Explained in :ref:`sec-rb-steiner`.

    Parameters
    ----------
    inertia_com : array_like, shape (3, 3)
        Inertia about the centre of mass, kg m^2 (physical).
    mass : float
        Mass, kg, > 0.
    displacement : array_like, shape (3,)
        ``d = c - p``, in the same axes, m.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about ``p``, same axes, kg m^2.

    Raises
    ------
    NonPhysicalInertiaError, NonSymmetricError, NonPositiveMassError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import parallel_axis
    >>> print(np.round(parallel_axis(np.diag([0.01, 0.01, 0.02]), 2.0, [0.0, 0.0, 0.1]).diagonal(), 6))
    [0.03 0.03 0.02]
    """
    i_c = check_physical_inertia(inertia_com, "inertia_com")
    m = positive(mass, "mass")
    d = as_vector(displacement, "displacement", 3)
    return i_c + m * (d @ d * np.eye(3) - np.outer(d, d))


def inertia_about_com(inertia_p: ArrayLike, mass: float, displacement: ArrayLike) -> FloatArray:
    """Inverse parallel-axis theorem: inertia about the COM from that about ``p``.

    ``I_c = I_p - m (|d|^2 E - d d^T)`` with ``d = c - p``. The result must be
    physical; if not, the inputs (usually ``d`` or ``m``) are inconsistent.
    Explained in :ref:`sec-rb-steiner`.

    Parameters
    ----------
    inertia_p : array_like, shape (3, 3)
        Symmetric inertia about ``p``, kg m^2.
    mass : float
        Mass, kg, > 0.
    displacement : array_like, shape (3,)
        ``d = c - p``, m.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        Inertia about the centre of mass, same axes, kg m^2.

    Raises
    ------
    NonPhysicalInertiaError
        If the resulting ``I_c`` is not physical.
    NonSymmetricError, NonPositiveMassError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import inertia_about_com
    >>> print(np.round(inertia_about_com(np.diag([0.03, 0.03, 0.02]), 2.0, [0.0, 0.0, 0.1]).diagonal(), 6))
    [0.01 0.01 0.02]
    """
    i_p = as_symmetric(inertia_p, "inertia_p", 3)
    m = positive(mass, "mass")
    d = as_vector(displacement, "displacement", 3)
    i_c = i_p - m * (d @ d * np.eye(3) - np.outer(d, d))
    try:
        return check_physical_inertia(i_c, "the inertia about the COM")
    except NonPhysicalInertiaError as exc:
        raise NonPhysicalInertiaError(
            f"{exc}. Removing m (|d|^2 E - d d^T) from inertia_p left a non-physical tensor: "
            "inertia_p, mass and displacement are inconsistent (is inertia_p really about p = c - d?)"
        ) from None


def rotate_inertia(inertia: ArrayLike, rotation: ArrayLike) -> FloatArray:
    """Express an inertia in rotated axes: ``^a I = ^a R_b  ^b I  ^a R_b^T``.

    Explained in :ref:`sec-rb-steiner`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Symmetric inertia in frame ``{b}``'s axes, kg m^2.
    rotation : array_like, shape (3, 3)
        ``^a R_b``: orientation of ``{b}`` seen from ``{a}``.

    Returns
    -------
    numpy.ndarray, shape (3, 3)
        The same inertia in ``{a}``'s axes (same reference point), kg m^2.

    Raises
    ------
    NotARotationError
        If ``rotation`` is not orthonormal with determinant +1.
    NonSymmetricError, ShapeError, NonFiniteError
        On a malformed inertia.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import rotate_inertia
    >>> Rz90 = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    >>> print(np.round(rotate_inertia(np.diag([1.0, 2.0, 3.0]), Rz90).diagonal(), 6))
    [2. 1. 3.]
    """
    i_b = as_symmetric(inertia, "inertia", 3)
    r = as_rotation(rotation, "rotation")
    out = r @ i_b @ r.T
    return 0.5 * (out + out.T)


def combine_bodies(parts: Sequence[MassProperties]) -> MassProperties:
    """Mass properties of a composite body from parts given in one frame.

    ``m = sum m_k``, ``c = sum m_k c_k / m``, ``I_c = sum (I_k + m_k (|d_k|^2 E
    - d_k d_k^T))`` with ``d_k = c_k - c``. Explained in :ref:`sec-rb-steiner`.

    Parameters
    ----------
    parts : sequence of MassProperties
        All expressed in the same frame ``{f}``.

    Returns
    -------
    MassProperties
        Of the composite, in ``{f}``.

    Raises
    ------
    ShapeError
        If ``parts`` is empty or contains something else than
        :class:`MassProperties`.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import MassProperties, combine_bodies
    >>> point = np.zeros((3, 3))
    >>> pair = combine_bodies([MassProperties(1.0, [-1.0, 0, 0], point), MassProperties(1.0, [1.0, 0, 0], point)])
    >>> print(pair.mass, np.round(pair.inertia_com.diagonal(), 6))
    2.0 [0. 2. 2.]
    """
    items = list(parts)
    if not items:
        raise ShapeError("parts must contain at least one MassProperties, got an empty sequence")
    for k, part in enumerate(items):
        if not isinstance(part, MassProperties):
            raise ShapeError(f"parts[{k}] must be a MassProperties, got {type(part).__name__}")
    masses = np.array([p.mass for p in items])
    coms = np.array([p.com for p in items])
    total = float(masses.sum())
    com = masses @ coms / total
    d = coms - com
    second = np.einsum("i,ij,ik->jk", masses, d, d)
    inertia = sum(p.inertia_com for p in items) + np.trace(second) * np.eye(3) - second
    return MassProperties(total, com, inertia)


def principal_axes(inertia: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Principal moments (ascending) and axes of a symmetric inertia.

    ``I = R diag(moments) R^T`` with the columns of ``R`` the principal axes
    in the input frame; ``det R = +1`` (a right-handed frame). Explained in
    :ref:`sec-rb-inertia-tensor`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Symmetric inertia, kg m^2.

    Returns
    -------
    moments : numpy.ndarray, shape (3,)
        Principal moments, ascending, kg m^2.
    rotation : numpy.ndarray, shape (3, 3)
        Rotation whose columns are the principal axes.

    Raises
    ------
    NonSymmetricError, ShapeError, NonFiniteError
        On a malformed inertia.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.inertia import principal_axes
    >>> moments, R = principal_axes([[2.0, -1.0, 0.0], [-1.0, 2.0, 0.0], [0.0, 0.0, 4.0]])
    >>> print(np.round(moments, 6), np.round(np.linalg.det(R), 6))
    [1. 3. 4.] 1.0
    """
    matrix = as_symmetric(inertia, "inertia", 3)
    moments, vectors = np.linalg.eigh(matrix)
    if np.linalg.det(vectors) < 0.0:
        vectors[:, 2] = -vectors[:, 2]
    return moments, vectors
