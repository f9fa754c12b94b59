"""A planar two-link arm of uniform rods touching a wall: chapter 3.12's worked example.

The arm is the uniform-rod chain of :mod:`lib.models.planar_chain` with two
links and no gravity; its mass matrix and tip Jacobian feed the effective
mass of :mod:`lib.contact_lcp`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_vector, positive
from .planar_chain import planar_chain_dynamics, planar_chain_tip

__all__ = ["planar_2r_arm"]


def planar_2r_arm(
    q: ArrayLike, lengths: ArrayLike = (0.5, 0.5), masses: ArrayLike = (2.0, 2.0)
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Mass matrix, tip Jacobian and tip position of a planar two-link arm of uniform rods.

    Joint 1 at the origin, both joints about ``z``; link ``i`` is a uniform
    rod of length ``l_i`` and mass ``m_i`` (centre at ``l_i / 2``, inertia
    ``m_i l_i^2 / 12``). Explained in :ref:`sec-ci-arm`.

    Parameters
    ----------
    q : array_like, shape (2,)
        Joint angles, rad (``q2`` relative to link 1).
    lengths, masses : array_like, shape (2,)
        Link lengths (m) and masses (kg).

    Returns
    -------
    M : numpy.ndarray, shape (2, 2)
        Mass matrix, kg m^2.
    J : numpy.ndarray, shape (2, 2)
        Tip velocity (x, y) in the base frame per joint rate, m/rad.
    tip : numpy.ndarray, shape (2,)
        Tip position in the base frame, m.

    Examples
    --------
    >>> M, J, tip = planar_2r_arm([0.0, 0.0], [1.0, 1.0], [1.0, 1.0])
    >>> np.round(M, 6)
    array([[2.666667, 0.833333],
           [0.833333, 0.333333]])
    """
    # The same uniform-rod chain as chapter 3.11's: one implementation.
    q_arr = as_vector(q, "q", 2)
    L = as_vector(lengths, "lengths", 2)
    m = as_vector(masses, "masses", 2)
    for name, values in (("lengths", L), ("masses", m)):
        for i, value in enumerate(values):
            positive(value, f"{name}[{i}]")
    M, _ = planar_chain_dynamics(q_arr, np.zeros(2), L, m, gravity=0.0)
    tip, J, _ = planar_chain_tip(q_arr, np.zeros(2), L)
    return M, J, tip
