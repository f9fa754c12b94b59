"""Timing ``lib``'s tree algorithms against Pinocchio, on the same states.

The one implementation of the timing that ``tools/benchmark_dynamics.py``,
``tools/benchmark_rnea.py`` and chapter 3.5 share: :func:`random_states`
draws states of a tree (unit quaternions for free joints),
:func:`best_times` times several functions alternately and keeps each one's
best wall-clock and CPU time, and :func:`batched_against_pinocchio` times
``lib``'s batched RNEA and ABA against Pinocchio called in a Python loop
over the same states, after checking that the two agree. Pinocchio
(``pin``) is imported when a function runs, so ``lib`` does not depend on
it.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

import numpy as np

from .._validation import (
    FloatArray,
    as_function,
    as_generator,
    instance_of,
    positive_int,
)
from ..errors import OutOfRangeError, ShapeError
from ..kinematic_tree import KinematicTree, rnea
from ..tree_dynamics import aba
from .pinocchio_tree import (
    from_pinocchio_forces,
    pinocchio_configuration,
    pinocchio_velocity,
)
from .robots import ROBOTS, load_robot, robot_urdf_path

__all__ = ["random_states", "best_times", "batched_against_pinocchio"]


def random_states(
    model: KinematicTree, n: int, rng: np.random.Generator
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``n`` random states ``(q, v, a)`` of a tree.

    Joint coordinates uniform in ``[-pi, pi]`` (a free joint's position
    too), a free joint's quaternion uniform on the unit sphere, velocities
    and accelerations standard normal. Explained in :ref:`sec-ab-benchmark`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    n : int
        Number of states (>= 1).
    rng : numpy.random.Generator
        The random source (``np.random.default_rng(seed)``).

    Returns
    -------
    q : numpy.ndarray, shape (n, nq)
    v, a : numpy.ndarray, shape (n, nv)

    Raises
    ------
    ShapeError
        If ``model`` is not a tree, ``n`` not a whole number or ``rng`` not
        a generator.
    NonPositiveValueError
        If ``n < 1``.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.models.benchmark import random_states
    >>> from lib.models.robots import load_robot
    >>> q, v, a = random_states(load_robot("solo12"), 3, np.random.default_rng(0))
    >>> q.shape, v.shape, np.round(np.linalg.norm(q[:, 3:7], axis=1), 12)
    ((3, 19), (3, 18), array([1., 1., 1.]))
    """
    instance_of(model, KinematicTree, "model")
    n = positive_int(n, "n")
    rng = as_generator(rng, "rng")
    q = rng.uniform(-np.pi, np.pi, (n, model.nq))
    for i, kind in enumerate(model.joint_types):
        if kind == "free":
            s = model.q_slices[i]
            quat = rng.normal(size=(n, 4))
            norm = np.linalg.norm(quat, axis=1, keepdims=True)
            q[:, s.start + 3 : s.stop] = quat / norm
    return q, rng.normal(size=(n, model.nv)), rng.normal(size=(n, model.nv))


def best_times(
    functions: Sequence[Callable[[], object]], repeat: int
) -> tuple[FloatArray, FloatArray]:
    """Best wall-clock and CPU time of each function, the functions timed alternately.

    Each round calls every function once, in order, and times it with
    ``time.perf_counter`` (wall clock) and ``time.process_time`` (the CPU
    time of this process, the steadier of the two on a machine shared with
    other work); after ``repeat`` rounds the smallest time of each is kept,
    the one least disturbed by other processes. Timing alternately exposes
    the functions to the same load. Explained in :ref:`sec-ab-benchmark`.

    Parameters
    ----------
    functions : sequence of callables
        Functions of no argument; each call is one measurement.
    repeat : int
        Number of rounds (>= 1).

    Returns
    -------
    wall, cpu : numpy.ndarray, shape (len(functions),)
        Best times per call, s.

    Raises
    ------
    ShapeError
        If ``functions`` is empty or holds something that is not callable,
        or ``repeat`` is not a whole number.
    NonPositiveValueError
        If ``repeat < 1``.

    Examples
    --------
    >>> from lib.models.benchmark import best_times
    >>> calls = []
    >>> first, second = (lambda: calls.append("a")), (lambda: calls.append("b"))
    >>> wall, cpu = best_times([first, second], 2)
    >>> calls, wall.shape, bool((wall >= 0).all())
    (['a', 'b', 'a', 'b'], (2,), True)
    """
    if (isinstance(functions, str) or not hasattr(functions, "__len__")
            or not len(functions)):
        raise ShapeError(
            f"functions must be a non-empty list of functions, got {functions!r}"
        )
    functions = [as_function(f, f"functions[{k}]")
                 for k, f in enumerate(functions)]
    repeat = positive_int(repeat, "repeat")
    wall = np.full(len(functions), np.inf)
    cpu = np.full(len(functions), np.inf)
    for _ in range(repeat):
        for k, run in enumerate(functions):
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall[k] = min(wall[k], time.perf_counter() - start)
            cpu[k] = min(cpu[k], time.process_time() - start_cpu)
    return wall, cpu


def _relative(ours: FloatArray, theirs: FloatArray) -> float:
    return float(np.max(np.abs(ours - theirs)) / max(np.max(np.abs(theirs)), 1.0))


def batched_against_pinocchio(
    name: str, sizes: Sequence[int], repeat: int, seed: int = 0
) -> list[dict]:
    """Per-state time of ``lib``'s batched RNEA and ABA against Pinocchio's.

    For each batch size ``N`` of ``sizes``: ``N`` random states of the robot
    (:func:`random_states`, seeded ``seed + N``); ``lib``'s
    :func:`lib.kinematic_tree.rnea` and :func:`lib.tree_dynamics.aba` called
    once on the whole batch (validation included) and ``pin.rnea`` and
    ``pin.aba`` called in a Python loop over the ``N`` states (converted to
    Pinocchio's order beforehand, outside the timing), timed alternately by
    :func:`best_times`. Before timing, the two libraries must agree on the
    states to 1e-10 (relative to the largest entry, at least 1). Explained
    in :ref:`sec-ab-benchmark`.

    Parameters
    ----------
    name : str
        A robot of :data:`lib.models.robots.ROBOTS`.
    sizes : sequence of int
        Batch sizes ``N`` (each >= 1).
    repeat : int
        Rounds of :func:`best_times` (>= 1).
    seed : int, optional
        Base seed of the random states.

    Returns
    -------
    list of dict
        One row per size and routine (``"rnea"``, then ``"aba"``): ``robot``,
        ``nv``, ``routine``, ``N``, the per-state times ``lib_wall``,
        ``pin_wall``, ``lib_cpu``, ``pin_cpu`` (s) and ``error``, the
        relative difference of the two results.

    Raises
    ------
    OutOfRangeError
        If ``name`` is not a robot of :data:`lib.models.robots.ROBOTS`.
    ShapeError
        If a size, ``repeat`` or ``seed`` is not a whole number.
    NonPositiveValueError
        If a size or ``repeat`` is below 1.
    AssertionError
        If the libraries disagree (a broken conversion, not bad input).

    Examples
    --------
    >>> from lib.models.benchmark import batched_against_pinocchio
    >>> rows = batched_against_pinocchio("ur5", [2], 1)
    >>> [(r["routine"], r["N"], r["error"] < 1e-10) for r in rows]
    [('rnea', 2, True), ('aba', 2, True)]
    """
    import pinocchio as pin

    if not isinstance(name, str) or name not in ROBOTS:
        raise OutOfRangeError(
            f"name must be one of {sorted(ROBOTS)}, got {name!r}")
    if isinstance(sizes, str) or not hasattr(sizes, "__iter__"):
        raise ShapeError(f"sizes must be a list of whole numbers, got {sizes!r}")
    sizes = [positive_int(n, "sizes") for n in sizes]
    repeat = positive_int(repeat, "repeat")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ShapeError(f"seed must be a whole number, got {seed!r}")
    model = load_robot(name)
    root = [pin.JointModelFreeFlyer()] if "free" in model.joint_types else []
    pin_model = pin.buildModelFromUrdf(str(robot_urdf_path(name)), *root)
    data = pin_model.createData()
    g = pin_model.gravity.linear.copy()
    rows = []
    for n in sizes:
        q, v, a = random_states(model, n, np.random.default_rng(int(seed) + n))
        qp = pinocchio_configuration(model, pin_model, q)
        vp, ap = (pinocchio_velocity(model, pin_model, x) for x in (v, a))
        tau = rnea(model, q, v, a, g)  # a batch
        tp = pinocchio_velocity(model, pin_model, tau)
        # the two libraries agree before they are timed
        tau_pin = np.array(
            [pin.rnea(pin_model, data, qp[k], vp[k], ap[k]) for k in range(n)])
        qdd_pin = np.array(
            [pin.aba(pin_model, data, qp[k], vp[k], tp[k]) for k in range(n)])
        qdd = pinocchio_velocity(model, pin_model, aba(model, q, v, tau, g))
        errors = (
            _relative(tau, from_pinocchio_forces(model, pin_model, tau_pin)),
            _relative(qdd, qdd_pin),
        )
        assert max(errors) < 1e-10, f"lib and Pinocchio disagree: {errors}"

        def pin_rnea():
            for k in range(n):
                pin.rnea(pin_model, data, qp[k], vp[k], ap[k])

        def pin_aba():
            for k in range(n):
                pin.aba(pin_model, data, qp[k], vp[k], tp[k])

        for label, run_lib, run_pin, error in (
            ("rnea", lambda: rnea(model, q, v, a, g), pin_rnea, errors[0]),
            ("aba", lambda: aba(model, q, v, tau, g), pin_aba, errors[1]),
        ):
            wall, cpu = best_times([run_lib, run_pin], repeat)
            rows.append({
                "robot": name, "nv": model.nv, "routine": label, "N": n,
                "lib_wall": wall[0] / n, "pin_wall": wall[1] / n,
                "lib_cpu": cpu[0] / n, "pin_cpu": cpu[1] / n, "error": error,
            })
    return rows
