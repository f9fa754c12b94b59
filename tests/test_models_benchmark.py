"""lib.models.benchmark: the random states, the alternating timer and the side-by-side run.

Times are not asserted (no wall-clock limits in tests); what is checked is what the
timing rests on: the states are valid, every function is timed in every round, in
order, and the run compares the two libraries before it reports.
"""

from __future__ import annotations

import numpy as np
import pytest

from lib.errors import NonPositiveValueError, OutOfRangeError, ShapeError
from lib.kinematic_tree import rnea
from lib.models.benchmark import batched_against_pinocchio, best_times, random_states
from lib.models.robots import load_robot
from lib.tree_dynamics import aba


def test_random_states_have_unit_quaternions_and_the_tree_shapes():
    talos = load_robot("talos")
    q, v, a = random_states(talos, 50, np.random.default_rng(1))
    assert q.shape == (50, talos.nq) and v.shape == a.shape == (50, talos.nv)
    # normalised by one division: round-off of a 4-vector norm
    np.testing.assert_allclose(np.linalg.norm(q[:, 3:7], axis=1), 1.0, rtol=1e-14)
    # the joint angles cover [-pi, pi] and nothing beyond
    assert np.abs(q[:, 7:]).max() <= np.pi and np.abs(q[:, 7:]).max() > 3.0
    # the same seed gives the same states
    again = random_states(talos, 50, np.random.default_rng(1))
    assert all(np.array_equal(x, y) for x, y in zip((q, v, a), again))


def test_best_times_runs_every_function_every_round_in_order():
    calls = []
    wall, cpu = best_times([lambda: calls.append(0), lambda: calls.append(1)], 3)
    assert calls == [0, 1] * 3
    assert wall.shape == cpu.shape == (2,) and np.all(wall >= 0) and np.all(cpu >= 0)


def test_best_times_keeps_the_smallest_of_the_rounds(monkeypatch):
    """Each function keeps its smallest time over the rounds, measured on a
    simulated clock (no real time is measured): function 0 lasts 5, 2, 3
    ticks in its three rounds, function 1 lasts 1, 4, 1."""
    from lib.models import benchmark

    durations = iter([5.0, 1.0, 2.0, 4.0, 3.0, 1.0])  # rounds alternate 0, 1
    clock = {"now": 0.0}

    def advance():
        clock["now"] += next(durations)

    monkeypatch.setattr(benchmark.time, "perf_counter", lambda: clock["now"])
    monkeypatch.setattr(benchmark.time, "process_time", lambda: clock["now"])
    wall, cpu = best_times([advance, advance], 3)
    assert wall.tolist() == [2.0, 1.0]
    assert cpu.tolist() == [2.0, 1.0]


def test_batched_run_checks_agreement_and_reports_per_state_times():
    rows = batched_against_pinocchio("solo12", [1, 3], 1, seed=5)
    assert [(r["routine"], r["N"]) for r in rows] == [
        ("rnea", 1), ("aba", 1), ("rnea", 3), ("aba", 3)]
    # the page and the tool quote these as round-off: lib and Pinocchio agree
    assert max(r["error"] for r in rows) < 1e-10
    assert all(r["lib_cpu"] > 0 and r["pin_wall"] > 0 for r in rows)


def test_the_states_it_times_are_consistent():
    """ABA inverts the RNEA on the states the run draws: they are valid states."""
    solo = load_robot("solo12")
    q, v, a = random_states(solo, 20, np.random.default_rng(7))
    # 18 velocities, round-off of the three passes against the RNEA
    np.testing.assert_allclose(aba(solo, q, v, rnea(solo, q, v, a)), a,
                               rtol=1e-9, atol=1e-9)


def test_bad_input():
    ur5 = load_robot("ur5")
    with pytest.raises(NonPositiveValueError, match="n"):
        random_states(ur5, 0, np.random.default_rng(0))
    with pytest.raises(ShapeError, match="rng"):
        random_states(ur5, 2, 3)
    with pytest.raises(ShapeError, match="functions"):
        best_times([], 2)
    with pytest.raises(ShapeError, match=r"functions\[1\]"):
        best_times([print, "not a function"], 2)
    with pytest.raises(OutOfRangeError, match="name"):
        batched_against_pinocchio("r2d2", [1], 1)
    with pytest.raises(NonPositiveValueError, match="sizes"):
        batched_against_pinocchio("ur5", [0], 1)
