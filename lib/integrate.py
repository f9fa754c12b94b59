"""Fixed-step classical Runge-Kutta (RK4) integration of ``dy/dt = f(t, y)``.

The state ``y`` may be any float array (a vector, or a stack of vectors for
many initial conditions at once); ``f`` must return an array of the same shape.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from ._validation import FloatArray, as_array, positive
from .errors import NonFiniteError, ShapeError

__all__ = ["rk4_step", "rk4"]

RHS = Callable[[float, FloatArray], ArrayLike]


def _as_state(y: ArrayLike, name: str) -> FloatArray:
    shape = np.shape(y)
    if len(shape) == 0 or 0 in shape:
        raise ShapeError(f"{name} must be a non-empty array (the state), got shape {shape}")
    return as_array(y, name, shape)


def _evaluate(f: RHS, t: float, y: FloatArray) -> FloatArray:
    out = np.asarray(f(t, y), dtype=float)
    if out.shape != y.shape:
        raise ShapeError(
            f"f(t, y) must return an array of the state's shape {y.shape}, got shape {out.shape}"
        )
    if not np.all(np.isfinite(out)):
        raise NonFiniteError(
            f"f(t, y) returned NaN or infinity at t = {t:.6g}; the solution may have blown up "
            "(try a smaller step h)"
        )
    return out


def rk4_step(f: RHS, t: float, y: ArrayLike, h: float) -> FloatArray:
    """One classical RK4 step from ``(t, y)`` to ``t + h``.

    ``k1 = f(t, y)``, ``k2 = f(t + h/2, y + h k1/2)``, ``k3 = f(t + h/2, y +
    h k2/2)``, ``k4 = f(t + h, y + h k3)``, ``y+ = y + h (k1 + 2 k2 + 2 k3 +
    k4)/6``; the local error is ``O(h^5)``, the global error ``O(h^4)``.
    Explained in :ref:`sec-rb-integration`.

    Parameters
    ----------
    f : callable
        ``f(t, y) -> dy/dt`` with the shape of ``y``.
    t : float
        Current time, s.
    y : array_like
        Current state (any non-empty shape).
    h : float
        Step, s, > 0.

    Returns
    -------
    numpy.ndarray
        State at ``t + h``.

    Raises
    ------
    NonPositiveMassError
        If ``h <= 0``.
    ShapeError, NonFiniteError
        If ``y`` or ``f``'s result is malformed or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.integrate import rk4_step
    >>> print(np.round(rk4_step(lambda t, y: -y, 0.0, np.array([1.0]), 0.1), 8))  # exp(-0.1) = 0.90483742
    [0.90483750]
    """
    if not callable(f):
        raise ShapeError(f"f must be a function f(t, y), got {type(f).__name__}")
    state = _as_state(y, "y")
    step = positive(h, "h")
    t0 = float(as_array(t, "t", ()))
    k1 = _evaluate(f, t0, state)
    k2 = _evaluate(f, t0 + 0.5 * step, state + 0.5 * step * k1)
    k3 = _evaluate(f, t0 + 0.5 * step, state + 0.5 * step * k2)
    k4 = _evaluate(f, t0 + step, state + step * k3)
    return state + step / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


def rk4(f: RHS, y0: ArrayLike, t0: float, h: float, n_steps: int) -> tuple[FloatArray, FloatArray]:
    """Integrate ``dy/dt = f(t, y)`` with ``n_steps`` fixed RK4 steps.

    Explained in :ref:`sec-rb-integration`.

    Parameters
    ----------
    f : callable
        ``f(t, y) -> dy/dt`` with the shape of ``y``.
    y0 : array_like
        Initial state (any non-empty shape; a stack ``(n, 3)`` integrates
        ``n`` trajectories at once if ``f`` is vectorised).
    t0 : float
        Initial time, s.
    h : float
        Step, s, > 0.
    n_steps : int
        Number of steps, >= 1.

    Returns
    -------
    times : numpy.ndarray, shape (n_steps + 1,)
        ``t0 + k h``, s.
    states : numpy.ndarray, shape (n_steps + 1, *y0.shape)
        The states at those times (``states[0] = y0``).

    Raises
    ------
    NonPositiveMassError
        If ``h <= 0``.
    ShapeError, NonFiniteError
        On a bad ``n_steps``, a malformed state or a non-finite derivative.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.integrate import rk4
    >>> times, states = rk4(lambda t, y: np.array([y[1], -y[0]]), [1.0, 0.0], 0.0, 0.01, 100)
    >>> print(round(times[-1], 6), np.round(states[-1], 6), np.round([np.cos(1.0), -np.sin(1.0)], 6))
    1.0 [ 0.540302 -0.841471] [ 0.540302 -0.841471]
    """
    if not callable(f):
        raise ShapeError(f"f must be a function f(t, y), got {type(f).__name__}")
    state = _as_state(y0, "y0")
    step = positive(h, "h")
    if isinstance(n_steps, bool) or not isinstance(n_steps, (int, np.integer)) or n_steps < 1:
        raise ShapeError(f"n_steps must be an integer >= 1, got {n_steps!r}")
    start = float(as_array(t0, "t0", ()))
    times = start + step * np.arange(int(n_steps) + 1)
    states = np.empty((int(n_steps) + 1,) + state.shape)
    states[0] = state
    for k in range(int(n_steps)):
        t = times[k]
        y = states[k]
        k1 = _evaluate(f, t, y)
        k2 = _evaluate(f, t + 0.5 * step, y + 0.5 * step * k1)
        k3 = _evaluate(f, t + 0.5 * step, y + 0.5 * step * k2)
        k4 = _evaluate(f, t + step, y + step * k3)
        states[k + 1] = y + step / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    return times, states
