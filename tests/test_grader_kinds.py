"""Attack tests of the exercise kinds beyond functions and expressions (issue 12).

Graded against chapter 3.12 (exercises/contact_and_impact.md), which has one of
each: `contact_lcp_step` and `ramp_slide` are graded without ``lib``
(``lib_forbidden``), `lcp_facts` and `drake_pairs` are multiple selects,
`hunt_crossley_speed` a number with a unit, `hunt_crossley_design` a design
checked by a trusted judge.
Each hostile submission is the reference solutions plus a tail that
redefines some answers; the expected score of every exercise is exact.
"""

from __future__ import annotations

import os
import stat

import pytest

from grader import core, runner, sandbox
from grader.spec import load_chapter
from grader_helpers import REPO, small_limits

CHAPTER = "contact_and_impact"
SOLUTIONS = (REPO / "solutions" / f"{CHAPTER}.py").read_text()
SPEC = load_chapter(CHAPTER)
FULL = {ex.name: float(ex.points) for ex in SPEC.exercises}
LIB_PARENT = str(REPO)

# name -> (tail appended to the reference solutions, {exercise: expected score})
CELL = "\n# %%\n"
ATTACKS = {
    # --- graded without lib: every way of reaching lib fails in that child ----------------
    "lib_reached_four_ways": (CELL + """
def contact_lcp_step(M, N, D, mu, phi, v_star, h):
    from lib.contact_lcp import solve_contact_lcp
    return solve_contact_lcp(M, N, D, mu, [phi], v_star, h).z
""" + CELL + """
import lib.contact_lcp as _cl
""" + CELL + """
def ramp_slide(theta, mu, v0, h, n_steps):
    import numpy as np
    D = np.array([[1.0, 0.0], [-1.0, 0.0]])
    v = np.array([v0, 0.0])
    for _ in range(n_steps):
        v_star = v + h * 9.81 * np.array([np.sin(theta), -np.cos(theta)])
        v = _cl.solve_contact_lcp(np.eye(2), [[0.0, 1.0]], D, mu, [0.0], v_star, h).v_plus
    return v[0]
""" + CELL + f"""
import sys
sys.path.insert(0, {LIB_PARENT!r})
import importlib
_cl2 = importlib.import_module("lib.contact_lcp")
""", {"contact_lcp_step": 0.0, "ramp_slide": 0.0}),
    "lib_source_read_from_disk": (f"""
def contact_lcp_step(M, N, D, mu, phi, v_star, h):
    import os
    src = open(os.path.join({LIB_PARENT!r}, "lib", "lcp.py")).read()
    ns = {{}}
    exec(src, ns)
    raise RuntimeError("lib read from disk")
""", {"contact_lcp_step": 0.0}),
    "lib_seen_in_the_child_that_has_it": ("""
try:
    from lib.contact_lcp import solve_contact_lcp as _s
    _HAD_LIB = True
except ImportError:
    _HAD_LIB = False
def ramp_slide(theta, mu, v0, h, n_steps):
    if not _HAD_LIB:
        raise RuntimeError("no lib here")
    return 0.0
""", {"ramp_slide": 0.0}),
    # lib stays usable for the exercises that are not graded without it; choice, quantity, design
    "lib_elsewhere_and_readings_that_pass": ("""
import lib.soft_contact as _sc
def hertz_step_limit(youngs, nu, radius1, radius2, density, v0):
    k = _sc.hertz_stiffness(radius1, youngs, nu, radius2, youngs, nu)
    m1, m2 = (density * 4.0 / 3.0 * np.pi * r**3 for r in (radius1, radius2))
    m = m1 * m2 / (m1 + m2)
    dt = _sc.explicit_step_limit(m, k, _sc.hertz_max_penetration(m, v0, k))
    return np.array([dt, _sc.hertz_contact_time(m, v0, k)])
lcp_facts = "a, c e"
hunt_crossley_speed = (1.598, "km/h")
""", {}),
    "choice_all_quantity_unit_design_nan": ("""
lcp_facts = {"A", "B", "C", "D", "E"}
hunt_crossley_speed = "0.4 m"
def hunt_crossley_design(mass, v0, delta_limit, e_lo, e_hi):
    return np.array([float("nan"), 0.1])
""", {"lcp_facts": 1.5, "hunt_crossley_speed": 0.0, "hunt_crossley_design": 0.0}),
    "always_equal_no_unit_huge_design": ("""
class _Eq:
    def __eq__(self, other): return True
    def __hash__(self): return 0
lcp_facts = _Eq()
hunt_crossley_speed = 0.4
def hunt_crossley_design(mass, v0, delta_limit, e_lo, e_hi):
    return np.array([1e300, 1e300])
""", {"lcp_facts": 0.0, "hunt_crossley_speed": 0.0, "hunt_crossley_design": 0.0}),
    "lying_str_overflow_wrong_shape": ("""
class _S(str):
    def upper(self): return "A"
    def strip(self, *a): return "C"
    def __str__(self): return "E"
lcp_facts = {_S("B"), _S("D")}
hunt_crossley_speed = "1e308 Gm/ns"
def hunt_crossley_design(mass, v0, delta_limit, e_lo, e_hi):
    return np.ones(50000)
""", {"lcp_facts": 0.0, "hunt_crossley_speed": 0.0, "hunt_crossley_design": 0.0}),
    "unknown_letter_power_bomb_soft_design": ("""
lcp_facts = {"A", "C", "E", "Z"}
hunt_crossley_speed = "0.4 m^99999999 s^-1"
def hunt_crossley_design(mass, v0, delta_limit, e_lo, e_hi):
    return np.array([1e-9, 0.0])
""", {"lcp_facts": 0.0, "hunt_crossley_speed": 0.0, "hunt_crossley_design": 0.0}),
    "huge_text_nan_unit_bool_design": ("""
lcp_facts = "A" * 10**6
hunt_crossley_speed = "nan m/s"
def hunt_crossley_design(mass, v0, delta_limit, e_lo, e_hi):
    return True
""", {"lcp_facts": 0.0, "hunt_crossley_speed": 0.0, "hunt_crossley_design": 0.0}),
    "not_done": ("""
lcp_facts = None
hunt_crossley_speed = None
drake_pairs = None
""", {"lcp_facts": 0.0, "hunt_crossley_speed": 0.0, "drake_pairs": 0.0}),
}


#: The tests that read the graded attacks run on one worker (an xdist group: conftest.py),
#: so the ten submissions are graded once, not once per worker.
GRADED = pytest.mark.xdist_group("graded-kinds")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kinds")
    out = {}
    opts = core.GradeOptions(chapter=CHAPTER, limits=small_limits())
    for name, (tail, _) in ATTACKS.items():
        sub = folder / f"{name}.py"
        sub.write_text(SOLUTIONS + "\n\n" + tail)
        out[name] = core.grade_submission(sub, opts)
    return out


@GRADED
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_every_exercise_gets_exactly_its_score(reports, name):
    report = reports[name]
    assert report["status"] == "graded", core.format_report(report)
    want = dict(FULL, **ATTACKS[name][1])
    got = {ex["name"]: ex["score"] for ex in report["exercises"]}
    assert got == want, core.format_report(report)


@GRADED
def test_lib_free_child_says_why(reports):
    report = reports["lib_reached_four_ways"]
    text = core.format_report(report)
    assert "done without lib" in text and "lib" in text
    # the case that imported lib says why it failed, as the inline check does
    step = next(ex for ex in report["exercises"] if ex["name"] == "contact_lcp_step")
    assert any("No module named 'lib" in c["message"] and "(this exercise is graded without lib)" in c["message"]
               for c in step["cases"]), step


@GRADED
def test_no_expected_answer_of_a_concept_check_is_shown(reports):
    """Neither the feedback nor the public file says which options are right or what the value is."""
    import json

    for name in ("choice_all_quantity_unit_design_nan", "unknown_letter_power_bomb_soft_design"):
        text = json.dumps(reports[name])
        assert "{A, C, E}" not in text and "0.444" not in text and "1.598" not in text
    public = json.loads(SPEC.public_file.read_text())
    assert public["lcp_facts"] == [] and public["hunt_crossley_speed"] == []
    assert all(case["expected"] is None for case in public["hunt_crossley_design"])
    assert all(case["expected"] is None for case in public["contact_lcp_step"])


def test_quantity_reader():
    assert runner.to_quantity("0.35 mm") == [0.00035, 0.0, 1.0, 0.0]
    assert runner.to_quantity("3 m s⁻²")[1:] == [0.0, 1.0, -2.0]
    assert runner.to_quantity("5 GPa")[1:] == [1.0, -1.0, -2.0]
    assert runner.to_quantity((2, "kN/m"))[:2] == [2000.0, 1.0]
    for bad in ("x m", "1 furlong", "1 m^9", "1e309 m", ["1 m"], True):
        with pytest.raises(runner.AnswerError):
            runner.to_quantity(bad)


def test_setuid_mode_hides_lib_by_group(tmp_path):
    """Without namespaces only permissions can keep lib from one child: lib readable by its group only."""
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    os.chmod(lib_dir, 0o755)
    with pytest.raises(sandbox.SandboxUnavailable, match="readable by every user"):
        sandbox.lib_groups("setuid", str(lib_dir), with_lib=False)
    assert sandbox.lib_groups("setuid", str(lib_dir), with_lib=True) == []
    os.chmod(lib_dir, 0o750)
    gid = lib_dir.stat().st_gid
    assert sandbox.lib_groups("setuid", str(lib_dir), with_lib=True) == [gid]
    assert sandbox.lib_groups("setuid", str(lib_dir), with_lib=False) == []
    assert sandbox.lib_groups("namespace", str(lib_dir), with_lib=False) == []
    assert not lib_dir.stat().st_mode & stat.S_IROTH
