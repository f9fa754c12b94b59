"""Hydroelastic (pressure-field) contact: the sphere on a rigid plane, and Drake's pair table.

A compliant body carries a pressure field ``p`` that is zero on its surface
and grows inwards. Against a rigid plane the contact surface is the part of
the plane inside the body, and the force is ``F = int p dA`` over it. For a
sphere of radius ``R`` with ``p = E_h (1 - r / R)`` (``r`` the distance from
the centre, ``E_h`` the hydroelastic modulus, Pa) pressed ``delta`` into the
plane, this module gives the closed form, a quadrature and the patch radius.
It also encodes which geometry pairs Drake turns into a contact patch, a point
contact or an exception. Explained in chapter 3.12 and its Drake page.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validation import FloatArray, as_any_array, positive
from .errors import NonPositiveValueError, OutOfRangeError

__all__ = [
    "sphere_pressure",
    "sphere_plane_patch_radius",
    "sphere_plane_force",
    "sphere_plane_force_quadrature",
    "DRAKE_TABLE_VERSION",
    "DrakePairOutcome",
    "drake_pair_outcome",
]


def _depths(R: float, delta: ArrayLike) -> tuple[float, FloatArray]:
    radius = positive(R, "radius R")
    depth = as_any_array(delta, "penetration delta")
    if np.any(depth < 0.0):
        raise OutOfRangeError(f"penetration delta must be >= 0 (0 is first touch), got {depth!r}")
    if np.any(depth > radius):
        raise OutOfRangeError(
            f"penetration delta = {float(np.max(depth))!r} m goes beyond the sphere's centre (R = {radius} m); "
            "the sphere-plane model holds for 0 <= delta <= R"
        )
    return radius, depth


def sphere_pressure(E_h: float, R: float, r: ArrayLike) -> FloatArray:
    """Pressure field ``p = E_h (1 - r / R)`` of a compliant sphere, Pa.

    Zero on the surface, ``E_h`` at the centre. Explained in
    :ref:`sec-ci-hydro`.

    Parameters
    ----------
    E_h : float
        Hydroelastic modulus, Pa (not Young's modulus).
    R : float
        Radius, m.
    r : array_like
        Distance from the centre, ``0 <= r <= R``, m.

    Examples
    --------
    >>> sphere_pressure(1e5, 0.05, [0.0, 0.025, 0.05])
    array([100000.,  50000.,      0.])
    """
    E = positive(E_h, "hydroelastic modulus E_h")
    radius = positive(R, "radius R")
    rr = as_any_array(r, "r")
    if np.any(rr < 0.0) or np.any(rr > radius):
        raise OutOfRangeError(f"r must lie inside the sphere, 0 <= r <= R = {radius}, got {rr!r}")
    return E * (1.0 - rr / radius)


def sphere_plane_patch_radius(R: float, delta: ArrayLike) -> FloatArray:
    """Radius ``a = sqrt(2 R delta - delta^2)`` of the contact patch of a sphere cut by a plane, m.

    Explained in :ref:`sec-ci-hydro`.

    Examples
    --------
    >>> np.round(sphere_plane_patch_radius(0.05, [0.0, 0.004, 0.05]), 6)
    array([0.      , 0.019596, 0.05    ])
    """
    radius, depth = _depths(R, delta)
    return np.sqrt(np.maximum(2.0 * radius * depth - depth * depth, 0.0))


def sphere_plane_force(E_h: float, R: float, delta: ArrayLike) -> FloatArray:
    """Closed-form hydroelastic force ``F = pi E_h delta^2 (1 - 2 delta / (3 R))`` of a sphere on a rigid plane, N.

    Follows from ``F = 2 pi E_h int_{R - delta}^{R} (1 - r/R) r dr`` (the
    substitution ``rho d rho = r dr`` on the patch). Explained in
    :ref:`sec-ci-hydro`.

    Parameters
    ----------
    E_h : float
        Hydroelastic modulus, Pa.
    R : float
        Sphere radius, m.
    delta : array_like
        Penetration of the plane into the sphere, ``0 <= delta <= R``, m.

    Raises
    ------
    OutOfRangeError
        For ``delta < 0`` or ``delta > R`` (past the centre).

    Examples
    --------
    >>> np.round(sphere_plane_force(1e5, 0.05, [0.001, 0.004]), 6)
    array([0.30997 , 4.758466])
    """
    E = positive(E_h, "hydroelastic modulus E_h")
    radius, depth = _depths(R, delta)
    return np.pi * E * depth**2 * (1.0 - 2.0 * depth / (3.0 * radius))


def sphere_plane_force_quadrature(E_h: float, R: float, delta: float, n: int = 64) -> float:
    """The same force by Gauss-Legendre quadrature of ``int_0^a p(rho) 2 pi rho d rho`` over the patch, N.

    An independent check on :func:`sphere_plane_force` that integrates the
    pressure on the plane directly (``r = sqrt((R - delta)^2 + rho^2)``).
    Explained in :ref:`sec-ci-hydro`.

    Examples
    --------
    >>> round(sphere_plane_force_quadrature(1e5, 0.05, 0.004), 6)
    4.758466
    """
    E = positive(E_h, "hydroelastic modulus E_h")
    radius, depth = _depths(R, delta)
    if np.ndim(depth) != 0:
        raise OutOfRangeError("sphere_plane_force_quadrature takes one penetration delta (a scalar)")
    if int(n) != n or n < 1:
        raise NonPositiveValueError(f"the number of quadrature points n must be a positive integer, got {n!r}")
    a = float(np.sqrt(max(2.0 * radius * depth - depth * depth, 0.0)))
    nodes, weights = np.polynomial.legendre.leggauss(int(n))
    rho = 0.5 * a * (nodes + 1.0)
    r = np.sqrt((radius - depth) ** 2 + rho**2)
    return float(0.5 * a * np.sum(weights * E * (1.0 - r / radius) * 2.0 * np.pi * rho))


#: The Drake release whose behaviour :func:`drake_pair_outcome` encodes (checked against the engine by the tests).
DRAKE_TABLE_VERSION = "1.51.1"

_REPRESENTATIONS = {
    "c": "compliant", "compliant": "compliant",
    "r": "rigid", "rigid": "rigid",
    "u": "undefined", "undefined": "undefined", "none": "undefined",
}
_MODELS = {
    "hydroelastic": "hydroelastic", "khydroelastic": "hydroelastic",
    "hydroelastic_with_fallback": "hydroelastic_with_fallback",
    "khydroelasticwithfallback": "hydroelastic_with_fallback",
    "point": "point", "kpoint": "point",
}
_SHAPES = ("sphere", "box", "capsule", "cylinder", "ellipsoid", "convex", "mesh", "halfspace")


@dataclass(frozen=True)
class DrakePairOutcome:
    """What Drake does with one colliding geometry pair (see :func:`drake_pair_outcome`).

    Attributes
    ----------
    result : str
        ``"patch"`` (hydroelastic contact surface), ``"point"`` (point
        contact) or ``"raises"`` (evaluating contact throws an exception).
    reason : str
        One sentence on why.
    """

    result: str
    reason: str


def _choice(value: str, table: dict[str, str], name: str) -> str:
    key = str(value).strip().lower()
    if key not in table:
        options = sorted(set(table.values()))
        raise OutOfRangeError(f"{name} must be one of {options} (or their short forms), got {value!r}")
    return table[key]


def drake_pair_outcome(
    representation_a: str,
    representation_b: str,
    contact_model: str = "hydroelastic_with_fallback",
    shape_a: str = "sphere",
    shape_b: str = "box",
) -> DrakePairOutcome:
    """Drake's contact outcome for an overlapping, unfiltered geometry pair.

    Representations: ``"compliant"`` (C), ``"rigid"`` (R) or ``"undefined"``
    (U, no hydroelastic properties). Contact models: ``"hydroelastic"``
    (strict ``kHydroelastic``), ``"hydroelastic_with_fallback"`` (Drake's
    default) and ``"point"``. The table is the behaviour of Drake
    :data:`DRAKE_TABLE_VERSION`, checked against the engine by the tests:

    - C+R and C+C give a patch in both hydroelastic models;
    - R+R, C+U, R+U and U+U raise in the strict model and fall back to a
      point contact otherwise (U+U raises in the strict model although the
      user guide says such pairs are ignored);
    - ``kPoint`` gives a point contact whatever the properties;
    - shape restrictions: a compliant half-space with a compliant mesh or
      convex gives no patch; two half-spaces have no point contact either, so
      every model raises.

    Explained in :ref:`sec-drake-pair-table`.

    Parameters
    ----------
    representation_a, representation_b : str
        ``"compliant"``/``"C"``, ``"rigid"``/``"R"`` or ``"undefined"``/``"U"``.
    contact_model : str, optional
        ``"hydroelastic"``, ``"hydroelastic_with_fallback"`` or ``"point"``
        (Drake's ``kHydroelastic``... names are accepted too).
    shape_a, shape_b : str, optional
        One of sphere, box, capsule, cylinder, ellipsoid, convex, mesh, halfspace.

    Returns
    -------
    DrakePairOutcome

    Examples
    --------
    >>> drake_pair_outcome("C", "R").result
    'patch'
    >>> drake_pair_outcome("U", "U", "hydroelastic").result
    'raises'
    >>> drake_pair_outcome("R", "R", "kHydroelasticWithFallback").result
    'point'
    """
    a = _choice(representation_a, _REPRESENTATIONS, "representation_a")
    b = _choice(representation_b, _REPRESENTATIONS, "representation_b")
    model = _choice(contact_model, _MODELS, "contact_model")
    shapes = []
    for value, name in ((shape_a, "shape_a"), (shape_b, "shape_b")):
        shape = str(value).strip().lower().replace("_", "").replace("-", "")
        if shape not in _SHAPES:
            raise OutOfRangeError(f"{name} must be one of {list(_SHAPES)}, got {value!r}")
        shapes.append(shape)

    if shapes == ["halfspace", "halfspace"]:
        return DrakePairOutcome(
            "raises", "two half-spaces have no finite penetration: neither a patch nor a point contact exists"
        )
    if model == "point":
        return DrakePairOutcome("point", "kPoint asks for point contact; hydroelastic properties are ignored")

    pair = {a, b}
    if "undefined" in pair:
        why = "at least one geometry has no hydroelastic representation (U)"
        supported = False
    elif pair == {"rigid"}:
        why = "two rigid-hydroelastic geometries (R+R) have no pressure field between them"
        supported = False
    elif pair == {"compliant"} and "halfspace" in shapes and ({"mesh", "convex"} & set(shapes)):
        why = "a compliant half-space cannot form a patch with a compliant mesh or convex"
        supported = False
    else:
        why = "a compliant geometry meets a rigid or compliant one (C+R or C+C)"
        supported = True

    if supported:
        return DrakePairOutcome("patch", why)
    if model == "hydroelastic":
        return DrakePairOutcome("raises", why + "; strict kHydroelastic throws")
    return DrakePairOutcome("point", why + "; kHydroelasticWithFallback uses point contact")
