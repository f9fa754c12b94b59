"""A box resting on its four bottom corners: chapter 3.12's worked contact example.

The generalized velocity is the twist ``(omega, v)`` of the centre of mass,
world-aligned with ``z`` up; the rows it returns feed the solvers of
:mod:`lib.contact_lcp`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_vector, positive
from ..errors import OutOfRangeError
from ..inertia import box_inertia
from ..spatial import spatial_inertia

__all__ = ["box_on_corners"]


def box_on_corners(
    mass: float, half_extents: ArrayLike, com_offset: ArrayLike = (0.0, 0.0)
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """A box resting on its four bottom corners: mass matrix and normal Jacobian rows.

    Generalized velocity ``(omega, v)`` of the centre of mass, world-aligned
    (z up). The inertia is that of a uniform box about its centre; the centre
    of mass may be shifted horizontally by ``com_offset`` (a weight inside the
    box). Corner ``k`` sits at ``r_k = (+-a, +-b, -c) - (x_o, y_o, 0)`` from the
    centre of mass, in the order (+,+), (-,+), (-,-), (+,-); its normal row is
    ``[(r_k x e_z)^T, e_z^T]``. Explained in :ref:`sec-ci-box`.

    Parameters
    ----------
    mass : float
        Mass, kg.
    half_extents : array_like, shape (3,)
        Half edge lengths ``(a, b, c)``, m.
    com_offset : array_like, shape (2,), optional
        Horizontal offset of the centre of mass from the box centre, m.

    Returns
    -------
    M : numpy.ndarray, shape (6, 6)
    N : numpy.ndarray, shape (4, 6)
    corners : numpy.ndarray, shape (4, 3)
        Corner positions relative to the centre of mass, m.

    Examples
    --------
    >>> M, N, r = box_on_corners(1.0, [0.2, 0.1, 0.05])
    >>> int(np.linalg.matrix_rank(N))
    3
    """
    m = positive(mass, "mass")
    a, b, c = (positive(x, f"half_extents[{i}]") for i, x in enumerate(as_vector(half_extents, "half_extents", 3)))
    off = as_vector(com_offset, "com_offset", 2)
    if abs(off[0]) >= a or abs(off[1]) >= b:
        raise OutOfRangeError(
            f"com_offset {off!r} must keep the centre of mass above the support (|x| < {a}, |y| < {b})"
        )
    M = spatial_inertia(m, box_inertia(m, [2.0 * a, 2.0 * b, 2.0 * c]))  # (angular, linear) at the COM
    signs = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=float)
    corners = np.column_stack([signs[:, 0] * a - off[0], signs[:, 1] * b - off[1], np.full(4, -c)])
    ez = np.array([0.0, 0.0, 1.0])
    N = np.hstack([np.cross(corners, ez), np.tile(ez, (4, 1))])
    return M, N, corners
