"""The lesson's exercises (CF) cannot be answered by transcribing or by one lib call (issue 19.11).

CF.4 used to search the lesson's displayed pyramid errors, CF.7's closed form sat in
the docstring of lib.contact_sim.effective_restitution_no_tension, CF.8's debugging
task was skipped by one lib.models.ball_drop.simulate_penalty_drop call, and CF.10's
number could be read off lib's impulse simulation (now a SymPy expression in h_0, e).
Each test grades a submission that does exactly that, or makes a typical mistake, and
requires it to lose the exercise's points while the other exercises keep theirs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from grader import core
from grader.spec import load_chapter, load_solutions
from grader_helpers import REPO, small_limits
from lib import contact_sim
from lib.models.ball_drop import simulate_penalty_drop

CHAPTER = "contact_and_friction"
SPEC = load_chapter(CHAPTER)
SOL = load_solutions(CHAPTER)
REFERENCE = (REPO / "solutions" / f"{CHAPTER}.py").read_text()

#: CF.8 skipped with lib: the scheme of the exercise is lib's drop with the ball thrown at
#: the floor from zero height and gravity switched off (g must be positive: 1e-12 m/s^2).
LIB_REBOUND = '''
def rebound_ratio(k, zeta, mass, v0, dt):
    from lib.models.ball_drop import simulate_penalty_drop
    return simulate_penalty_drop(k, dt, zeta, mass=mass, h0=0.0, g=1e-12, v_start=-v0,
                                 t_end=20.0 / (k / mass) ** 0.5).restitution
'''

#: CF.7 transcribed from the docstring of lib.contact_sim.effective_restitution_no_tension
DOCSTRING_CF7 = '''
_zs = sp.Symbol("zeta", positive=True)
_s = sp.sqrt(1 - _zs**2)
_theta = sp.pi - sp.atan2(2 * _zs * _s, 1 - 2 * _zs**2)
liftoff_depth = sp.exp(-_zs * _theta / _s) * sp.Abs(sp.cos(_theta) - _zs * sp.sin(_theta) / _s)
'''

#: CF.4 answered with the lesson's displayed errors of the inscribed and circumscribed
#: pyramids (what the old CF.4 asked), with the inscribed scale
LESSON_CF4 = '''
def scaled_pyramid(tol):
    k = 3
    while max(1 - np.cos(np.pi / k), 1 / np.cos(np.pi / k) - 1) >= tol:
        k += 1
    return np.array([k, 1.0])
'''

#: typical mistakes
BUGGY_CF8 = '''
def rebound_ratio(k, zeta, mass, v0, dt):      # the function as handed out
    d = 2.0 * zeta * np.sqrt(k * mass)
    x, v = 0.0, -v0
    for _ in range(1_000_000):
        f_n = -k * x + d * v if x < 0.0 else 0.0
        x = x + dt * v
        v = v + dt * f_n / mass
        if x >= 0.0:
            return v / v0
    raise RuntimeError("the ball never left the floor")
'''
TWO_BUGS_FIXED_CF8 = '''
def rebound_ratio(k, zeta, mass, v0, dt):      # sign and order fixed, the clip forgotten
    d = 2.0 * zeta * np.sqrt(k * mass)
    x, v = 0.0, -v0
    for _ in range(1_000_000):
        f_n = -k * x - d * v if x < 0.0 else 0.0
        v = v + dt * f_n / mass
        x = x + dt * v
        if x >= 0.0:
            return v / v0
    raise RuntimeError("the ball never left the floor")
'''
PEAK_CF7 = '''
_zs = sp.Symbol("zeta", positive=True)
liftoff_depth = sp.exp(-_zs * sp.acos(_zs) / sp.sqrt(1 - _zs**2))   # the peak, not the lift-off
'''
RATE_NOT_HEIGHT_CF10 = '''
h_0, e = sp.symbols("h_0 e", positive=True)
zeno_distance = h_0 * (1 + e) / (1 - e)      # heights scale with e, not e^2
'''
MIDPOINT_CF4 = '''
def scaled_pyramid(tol):          # halfway between inscribed and circumscribed
    k = 3
    while True:
        c = np.cos(np.pi / k)
        s = 0.5 * (1 + 1 / c)
        if max(s - 1, 1 - s * c) < tol:
            return np.array([k, s])
        k += 1
'''


def _grade(*overrides: str) -> dict:
    """Scores per exercise name of the reference solutions with `overrides` appended."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        sub = Path(folder) / "student.py"
        sub.write_text(REFERENCE + "\n\n" + "\n\n".join(overrides))
        report = core.grade_submission(sub, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    return {ex["name"]: (ex["score"], ex["feedback"]) for ex in report["exercises"]}


def _cases(name):
    ex = next(e for e in SPEC.exercises if e.name == name)
    return ex, list(ex.public) + list(ex.hidden(np.random.default_rng([SPEC.seed, 1])))


def test_the_skips_would_answer_the_old_exercises():
    """The test below is not empty: the lib call reproduces the CF.8 reference on every case
    (to the exercise's rtol, 1e-6), and the docstring's expression is lib's closed form."""
    ex, cases = _cases("rebound_ratio")
    for case in cases:
        k, zeta, mass, v0, dt = (case[a] for a in ex.args)
        via_lib = simulate_penalty_drop(k, dt, zeta, mass=mass, h0=0.0, g=1e-12, v_start=-v0,
                                        t_end=20.0 / math.sqrt(k / mass)).restitution
        assert via_lib == pytest.approx(SOL.rebound_ratio(k, zeta, mass, v0, dt), rel=1e-6)
    names = {"sp": sp}
    exec(DOCSTRING_CF7, names)
    (zeta,) = names["liftoff_depth"].free_symbols
    for z in (0.05, 0.3, 0.8):
        # the same formula evaluated twice: round-off
        assert float(names["liftoff_depth"].subs(zeta, z)) == pytest.approx(
            contact_sim.effective_restitution_no_tension(z), rel=1e-12)


def test_skipping_with_lib_or_transcribing_scores_nothing():
    scores = _grade(LIB_REBOUND, DOCSTRING_CF7, LESSON_CF4)
    assert scores["rebound_ratio"][0] == 0.0, scores["rebound_ratio"]
    assert "graded without lib" in scores["rebound_ratio"][1]
    assert scores["liftoff_depth"][0] == 0.0, scores["liftoff_depth"]
    assert scores["scaled_pyramid"][0] == 0.0, scores["scaled_pyramid"]
    # the rest of the submission keeps its marks
    others = {name: s for name, (s, _) in scores.items()
              if name not in {"rebound_ratio", "liftoff_depth", "scaled_pyramid"}}
    assert others == {ex.name: ex.points for ex in SPEC.exercises if ex.name in others}


def test_typical_mistakes_lose_points():
    scores = _grade(BUGGY_CF8, PEAK_CF7, MIDPOINT_CF4, RATE_NOT_HEIGHT_CF10)
    assert scores["zeno_distance"][0] == 0.0, scores["zeno_distance"]
    assert scores["rebound_ratio"][0] == 0.0, scores["rebound_ratio"]
    assert scores["liftoff_depth"][0] == 0.0, scores["liftoff_depth"]
    assert scores["scaled_pyramid"][0] == 0.0, scores["scaled_pyramid"]
    scores = _grade(TWO_BUGS_FIXED_CF8)
    assert scores["rebound_ratio"][0] < 3.0, scores["rebound_ratio"]


def test_cf8_and_the_lib_free_exercises_are_graded_without_lib():
    """CF.6, CF.7, CF.8 and CF.13 run where lib cannot be imported."""
    forbidden = {ex.name for ex in SPEC.exercises if ex.lib_forbidden}
    assert forbidden == {"rod_implicit_step", "liftoff_depth", "rebound_ratio", "max_press_force"}
