"""Exercises graded with and without ``lib`` run in two children at the same time.

A chapter with ``lib_forbidden`` exercises needs a second sandboxed child
(``lib`` absent). Started one after the other, the two children doubled
the time a student waits for such a chapter; started together they cost
about one child's time when a core is free. The test proves they overlap
without measuring time: each run waits at a barrier that only opens when
both children have been started.
"""

from __future__ import annotations

import threading

import pytest

from grader import core, sandbox
from grader.spec import load_chapter
from grader_helpers import REPO, small_limits

CHAPTER = "contact_and_impact"


def _opts():
    return core.GradeOptions(chapter=CHAPTER, limits=small_limits())


def test_the_chapter_has_both_groups():
    spec = load_chapter(CHAPTER)
    assert any(ex.lib_forbidden for ex in spec.exercises)
    assert any(not ex.lib_forbidden for ex in spec.exercises)


def test_children_with_and_without_lib_overlap(monkeypatch, tmp_path):
    barrier = threading.Barrier(2, timeout=60)  # the timeout only keeps a sequential grader from hanging
    seen = []
    real = sandbox.run_child

    def run_child(payload, **kwargs):
        seen.append(kwargs["with_lib"])
        barrier.wait()  # raises BrokenBarrierError if the other child is never started meanwhile
        return real(payload, **kwargs)

    monkeypatch.setattr(sandbox, "run_child", run_child)
    sub = tmp_path / "hw.py"
    sub.write_text((REPO / "solutions" / f"{CHAPTER}.py").read_text())
    report = core.grade_submission(sub, _opts())
    assert sorted(seen) == [False, True]
    assert report["score"] == load_chapter(CHAPTER).max_score, core.format_report(report)


def test_a_grader_fault_in_the_second_child_is_raised_not_scored_zero(monkeypatch, tmp_path):
    real = sandbox.run_child

    def run_child(payload, **kwargs):
        if not kwargs["with_lib"]:
            raise RuntimeError("grader fault in the lib-free run")
        return real(payload, **kwargs)

    monkeypatch.setattr(sandbox, "run_child", run_child)
    sub = tmp_path / "hw.py"
    sub.write_text("x = 1\n")
    with pytest.raises(RuntimeError, match="grader fault in the lib-free run"):
        core.grade_submission(sub, _opts())
