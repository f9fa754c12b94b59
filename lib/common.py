"""Helpers shared by the chapters, the exercises' specs and the tests.

What every chapter used to define for itself lives here once, the way d2l
keeps its chapters' repeated helpers in its library: the book's value of
gravity, one relative error, random test inputs (rotations, mass matrices,
physical inertias) and the glue calls that put computed numbers into the
prose. Nothing here is physics a reader must learn; the algorithms live in
the other modules of :mod:`lib`, which may import this one (it imports none
of them at module level).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import FloatArray, as_array, as_generator, nonnegative, positive_int

__all__ = [
    "GRAVITY",
    "relerr",
    "random_rotation",
    "random_spd",
    "random_inertia",
    "glue_number",
    "glue_text",
    "glue_figure",
]

#: The book's value of the gravitational acceleration, m/s^2: standard gravity
#: (9.80665 m/s^2) to three significant figures, the value the source texts
#: and most robotics courses use. Every chapter, exercise and test uses this one
#: value, so the numbers in the prose agree between chapters.
GRAVITY = 9.81


def relerr(a: ArrayLike, b: ArrayLike, floor: float = 0.0) -> float:
    """Largest entry of ``|a - b|`` divided by ``max(largest |b|, floor)``.

    With the default ``floor = 0`` this is the relative error of ``a``
    against the reference ``b``; a ``floor`` of 1 turns it into an absolute
    error where the reference is small (entries near zero, where a relative
    error says nothing).

    Parameters
    ----------
    a, b : array_like, same shape
        The value checked and the reference.
    floor : float, optional
        Smallest denominator (>= 0).

    Returns
    -------
    float

    Raises
    ------
    ShapeError
        If ``a`` and ``b`` have different shapes.

    Examples
    --------
    >>> relerr([1.0, 2.0 + 2e-12], [1.0, 2.0]) < 1.1e-12
    True
    >>> relerr([1e-9], [0.0], floor=1.0)
    1e-09
    """
    b_arr = as_array(b, "b", np.shape(b))
    a_arr = as_array(a, "a", b_arr.shape)
    denominator = max(float(np.max(np.abs(b_arr), initial=0.0)), nonnegative(floor, "floor"))
    difference = float(np.max(np.abs(a_arr - b_arr), initial=0.0))
    if denominator == 0.0:
        return 0.0 if difference == 0.0 else float("inf")
    return difference / denominator


def random_rotation(rng: np.random.Generator) -> FloatArray:
    """A uniformly distributed rotation matrix, from a random unit quaternion.

    Uses four normal draws of ``rng``: ``(w, v)`` normalised, then
    ``R = (w^2 - v.v) 1 + 2 v v^T + 2 w [v]``.

    Examples
    --------
    >>> R = random_rotation(np.random.default_rng(1))
    >>> bool(np.allclose(R.T @ R, np.eye(3)) and np.isclose(np.linalg.det(R), 1.0))
    True
    """
    q = as_generator(rng).normal(size=4)
    q /= np.linalg.norm(q)
    w, v = q[0], q[1:]
    v_cross = np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])
    return (w * w - v @ v) * np.eye(3) + 2.0 * np.outer(v, v) + 2.0 * w * v_cross


def random_spd(rng: np.random.Generator, n: int) -> FloatArray:
    """A random symmetric positive definite ``n x n`` matrix (a test 'mass matrix').

    ``B B^T + n 1`` with ``B`` standard normal: its smallest eigenvalue is at
    least ``n``, so it is well conditioned.

    Examples
    --------
    >>> M = random_spd(np.random.default_rng(0), 3)
    >>> bool(np.allclose(M, M.T) and np.linalg.eigvalsh(M)[0] >= 3.0)
    True
    """
    n = positive_int(n, "n")
    B = as_generator(rng).normal(size=(n, n))
    return B @ B.T + n * np.eye(n)


def random_inertia(rng: np.random.Generator, n_points: int = 6) -> FloatArray:
    """A random physical inertia about the centre of mass: that of ``n_points`` point masses.

    Masses uniform in [0.1, 1) kg, positions standard normal (m); physical
    by construction (see :func:`lib.inertia.point_mass_properties`).

    Examples
    --------
    >>> from lib.inertia import is_physically_consistent
    >>> bool(is_physically_consistent(random_inertia(np.random.default_rng(2))))
    True
    """
    from .inertia import point_mass_properties

    n_points = positive_int(n_points, "n_points")
    as_generator(rng)
    body = point_mass_properties(rng.uniform(0.1, 1.0, n_points), rng.normal(size=(n_points, 3)))
    return body.inertia_com


def glue_number(name: str, value: float) -> None:
    """Glue a number under ``name`` as a plain float, not displayed: the prose formats it."""
    from myst_nb import glue

    glue(name, float(value), display=False)


def glue_text(name: str, text: str) -> None:
    """Glue a short text (a formatted number with its unit, a word) under ``name``, not displayed."""
    from myst_nb import glue

    glue(name, str(text), display=False)


def glue_figure(name: str, fig) -> None:
    """Glue a Matplotlib figure under ``name`` for a figure directive of the page, then close it.

    The figure may be pyplot-free (:func:`lib.figures.page.static_figure`). In
    a kernel that draws inline, the picture is glued as PNG even before the
    page's first pyplot figure: matplotlib-inline teaches IPython to render
    figures only once its backend module is loaded, and pyplot loads it
    lazily, so it is loaded here.
    """
    import matplotlib
    import matplotlib.pyplot as plt
    from myst_nb import glue

    if matplotlib.get_backend() in ("inline", "module://matplotlib_inline.backend_inline"):
        import matplotlib_inline.backend_inline  # noqa: F401  (loading it configures IPython)
    glue(name, fig, display=False)
    plt.close(fig)
