"""The grader's own machinery: batch rows, determinism, atomic gradebook,
inline checks, comparison, Gradescope, and the 3.1 reference answers."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import zipfile
from contextlib import redirect_stdout

import numpy as np
import pytest
import sympy as sp

import grader.compare as cmp
from grader import cli, core, fileio, inline, runner
from grader.gradescope import make_bundle, results_json
from grader.spec import load_chapter, load_solutions
from lib.common import random_rotation
from lib.spatial import spatial_inertia
from grader_helpers import CHAPTER, REPO, SOLUTIONS_TEXT, small_limits

ref = load_solutions(CHAPTER)


def _opts(**kw):
    return core.GradeOptions(chapter=load_chapter(CHAPTER), limits=small_limits(), **kw)


# --------------------------------------------------------------------------
# Batch grading, nothing lost
# --------------------------------------------------------------------------

def test_batch_writes_a_row_for_every_file_even_unreadable(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "good.py").write_text(SOLUTIONS_TEXT)
    (folder / "broken.ipynb").write_text("{ this is not json")
    (folder / "binary.py").write_bytes(b"\xff\xfe\x00\x01" * 10)
    (folder / "notes.txt").write_text("my answers are in my head")
    (folder / "empty.md").write_text("")
    (folder / "wrongshape.ipynb").write_text(json.dumps({"cells": "nope"}))
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "good-checkpoint.py").write_text(SOLUTIONS_TEXT)
    out = tmp_path / "out"
    assert cli.main([str(folder), "--chapter", CHAPTER, "--out", str(out), "--quiet", "--timeout", "3"]) == 0
    rows = list(csv.DictReader((out / "gradebook.csv").open()))
    by_file = {r["submission"]: r for r in rows}
    assert sorted(by_file) == sorted(["good.py", "broken.ipynb", "binary.py", "notes.txt", "empty.md",
                                      "wrongshape.ipynb"])
    assert by_file["good.py"]["score"] == "29"
    for name in ("broken.ipynb", "binary.py", "notes.txt", "wrongshape.ipynb"):
        assert by_file[name]["score"] == "0"
        assert by_file[name]["status"] == "unreadable"
        assert by_file[name]["messages"]
    assert by_file["empty.md"]["status"] == "graded" and by_file["empty.md"]["score"] == "0"
    for name in by_file:
        assert (out / f"{name}.json").is_file()
    report = json.loads((out / "broken.ipynb.json").read_text())
    assert "not valid JSON" in report["messages"][0]


def test_regrading_gives_identical_reports(tmp_path):
    sub = tmp_path / "partial.py"
    sub.write_text(SOLUTIONS_TEXT + "\ndef inertia_between_points(inertia_a, mass, com, a, b):\n    return np.eye(3)\n"
                   "def is_physically_consistent(inertia):\n    return bool(np.all(np.linalg.eigvalsh(inertia) > 0))\n")
    first = core.grade_submission(sub, _opts())
    second = core.grade_submission(sub, _opts())
    assert first == second
    assert first["score"] == 26.0  # 29 - 2 (I_b) - 1 (consistency: 4 of 6 cases)
    other_seed = core.grade_submission(sub, _opts(seed=7))
    assert other_seed["seed"] == 7


def test_gradebook_is_replaced_atomically(tmp_path):
    target = tmp_path / "gradebook.csv"
    target.write_text("old")
    fileio.atomic_write(target, "new\n")
    assert target.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gradebook.csv"]  # no temp files left


def test_cli_single_file_and_python_m(tmp_path):
    sub = tmp_path / "alice.py"
    sub.write_text(SOLUTIONS_TEXT)
    out = tmp_path / "grades"
    proc = subprocess.run([sys.executable, "-m", "grader", str(sub), "--chapter", CHAPTER, "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "alice.py: 29 / 29" in proc.stdout
    report = json.loads((out / "alice.py.json").read_text())
    assert report["score"] == 29.0 and report["max_score"] == 29.0
    assert [e["score"] for e in report["exercises"]] == [3, 2, 3, 3, 2, 2, 2, 2, 2, 3, 2, 3]


def test_unknown_chapter_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main([str(tmp_path), "--chapter", "no_such_chapter"])
    assert exc.value.code == 2


def test_private_solutions_path_is_used_and_hidden(tmp_path):
    private = tmp_path / "private"
    private.mkdir()
    # A different "reference": every answer of 3.1.8 flipped.
    (private / f"{CHAPTER}.py").write_text(
        SOLUTIONS_TEXT + "\n_orig = axis_is_stable\ndef axis_is_stable(moments, k):\n    return not _orig(moments, k)\n")
    sub = tmp_path / "spy.py"
    sub.write_text(
        SOLUTIONS_TEXT
        + f"\ntry:\n    exec(open({str(private / (CHAPTER + '.py'))!r}).read())\nexcept Exception as e:\n"
        "    _err = type(e).__name__\nelse:\n    _err = 'READ'\n"
        "def inertia_between_points(inertia_a, mass, com, a, b):\n    raise RuntimeError(_err)\n"
    )
    report = core.grade_submission(sub, _opts(solutions=str(private)))
    by = {e["name"]: e for e in report["exercises"]}
    assert by["axis_is_stable"]["score"] == 0.0      # graded against the private reference
    assert "FileNotFoundError" in json.dumps(by["inertia_between_points"])
    assert report["score"] == 25.0


# --------------------------------------------------------------------------
# Comparison and conversion (one implementation)
# --------------------------------------------------------------------------

def test_compare_reports_expected_returned_and_tolerance():
    r = cmp.compare([1.0, 2.0], [1.0, 2.1], rtol=1e-9, atol=1e-12, public=True)
    assert not r.passed
    assert "expected" in r.message and "returned" in r.message and "tolerance" in r.message
    hidden = cmp.compare([1.0, 2.0], [1.0, 2.1], rtol=1e-9, atol=1e-12, public=False)
    assert "2." not in hidden.message  # hidden cases reveal neither inputs nor answers
    assert cmp.compare([1.0], [1.0 + 1e-13], rtol=1e-9, atol=1e-12, public=True).passed
    assert not cmp.compare([[1.0]], [1.0], rtol=0, atol=0, public=True).passed  # shape
    assert not cmp.compare(1.0, float("nan"), rtol=0, atol=1, public=True).passed
    assert not cmp.compare(True, 1.0, rtol=0, atol=0, public=True).passed
    assert not cmp.compare(1.0, True, rtol=0, atol=0, public=True).passed
    assert not cmp.compare(1.0, "1.0", rtol=0, atol=0, public=True).passed
    assert not cmp.compare([1.0, 2.0], [[1.0], 2.0], rtol=0, atol=0, public=True).passed


def test_exercise_score_partial_and_all_or_nothing():
    assert cmp.exercise_score(3, True, [True, False, True, True, False, True]) == 2.0
    assert cmp.exercise_score(2, False, [True, True, True, False]) == 0.0
    assert cmp.exercise_score(2, False, [True] * 4) == 2.0


def test_to_plain_rejects_what_is_not_numbers():
    assert runner.to_plain(np.eye(2)) == [[1.0, 0.0], [0.0, 1.0]]
    assert runner.to_plain(np.True_) is True
    assert runner.to_plain(sp.Matrix([[1, 2]])) == [[1.0, 2.0]]
    for bad in (None, "1", {"a": 1}, 1j, [[1, 2], [3]], sp.Symbol("x")):
        with pytest.raises(runner.AnswerError):
            runner.to_plain(bad)


def test_expressions_are_evaluated_by_symbol_name_not_parsed():
    x_pos = sp.Symbol("I_k", positive=True)
    x_plain = sp.Symbol("I_k")
    pts = [{"I_k": 2.0}]
    assert runner.evaluate_expression(x_pos**2, ["I_k"], pts) == runner.evaluate_expression(x_plain**2, ["I_k"], pts)
    with pytest.raises(runner.AnswerError, match="use only"):
        runner.evaluate_expression(sp.Symbol("y"), ["I_k"], pts)
    with pytest.raises(runner.AnswerError, match="SymPy expression"):
        runner.evaluate_expression("I_k**2", ["I_k"], pts)  # strings are never sympified


# --------------------------------------------------------------------------
# Inline check
# --------------------------------------------------------------------------

def test_inline_check_shows_public_cases_and_mentions_hidden_ones():
    buf = io.StringIO()
    with redirect_stdout(buf):
        inline.checker(CHAPTER)("inertia_between_points", ref.inertia_between_points)
    text = buf.getvalue()
    assert "2 of 2 public cases pass" in text
    assert "hidden case(s) are graded later" in text
    assert "all tests passed" not in text.lower()


def test_inline_check_on_wrong_and_stub_answers():
    res = inline.check_exercise(CHAPTER, "body_wrench", lambda *a: np.zeros(6))
    text = "\n".join(res.lines)
    assert res.passed == 0 and "expected" in text and "returned" in text and "tolerance" in text

    def stub(inertia):
        raise NotImplementedError

    res = inline.check_exercise(CHAPTER, "is_physically_consistent", stub)
    assert "not done yet" in "\n".join(res.lines)
    res = inline.check_exercise(CHAPTER, "Omega_k_squared", ref.Omega_k_squared)
    assert res.passed_public and "your expression" in "\n".join(res.lines)


def test_inline_and_grader_share_the_comparison():
    assert inline.cmp is core.cmp
    assert inline.runner.run_exercise is core.runner.run_exercise


# --------------------------------------------------------------------------
# Gradescope
# --------------------------------------------------------------------------

def test_gradescope_bundle_and_results(tmp_path):
    bundle = make_bundle(load_chapter(CHAPTER), tmp_path / "autograder.zip")
    with zipfile.ZipFile(bundle) as zf:
        names = set(zf.namelist())
        assert {"setup.sh", "run_autograder", "requirements.txt", f"solutions/{CHAPTER}.py",
                "grader/cli.py", "grader/runner.py", "lib/__init__.py"} <= names
        assert (zf.getinfo("run_autograder").external_attr >> 16) & 0o111
        run = zf.read("run_autograder").decode()
        assert 'AG="${GRADER_AUTOGRADER_DIR:-/autograder}"' in run and 'RESULTS="$AG/results/results.json"' in run
    sub = tmp_path / "s.py"
    sub.write_text(SOLUTIONS_TEXT)
    out = tmp_path / "results.json"
    assert cli.main([str(sub), "--chapter", CHAPTER, "--out", str(tmp_path / "o"), "--quiet",
                     "--gradescope-results", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["score"] == 29.0
    assert len(res["tests"]) == 12
    assert all({"name", "score", "max_score", "output"} <= set(t) for t in res["tests"])
    assert sum(t["max_score"] for t in res["tests"]) == 29.0


def test_results_json_from_report_is_plain():
    report = core.grade_submission(REPO / "exercises" / f"{CHAPTER}.md", _opts())
    res = results_json(report)
    assert res["score"] == 0.0 and json.loads(json.dumps(res)) == res


# --------------------------------------------------------------------------
# The 3.1 reference answers against independent computations
# --------------------------------------------------------------------------

RNG = np.random.default_rng(20261202)


def _skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def _point_inertia(m, r, about):
    """-sum m_i [r_i - about]^2 (kg m^2), straight from the definition."""
    return -sum(mi * _skew(ri - about) @ _skew(ri - about) for mi, ri in zip(m, r))


def test_reference_inertia_between_points_matches_point_mass_sums():
    m = RNG.uniform(0.1, 2, 5)
    r = RNG.normal(size=(5, 3))
    a, b = RNG.normal(size=3), RNG.normal(size=3)
    com = (m[:, None] * r).sum(0) / m.sum()
    got = ref.inertia_between_points(_point_inertia(m, r, a), m.sum(), com, a, b)
    # Sums of a few O(1) products: round-off ~1e-15, so 1e-12 is generous.
    np.testing.assert_allclose(got, _point_inertia(m, r, b), rtol=0, atol=1e-12)


def test_reference_mesh_inertia_is_the_box_closed_form_in_either_orientation():
    from lib.inertia import box_inertia, box_mesh

    verts, faces = box_mesh([0.2, 0.1, 0.3])
    verts = verts + [0.4, -0.3, 0.2]                     # origin outside the box
    expected = box_inertia(2700.0 * 0.006, [0.2, 0.1, 0.3])
    for f in (faces, faces[:, ::-1]):
        np.testing.assert_allclose(ref.mesh_inertia(verts, f.astype(float), 2700.0), expected, rtol=1e-12, atol=1e-14)


def test_reference_fix_flipped_product_restores_the_body():
    from lib.inertia import is_physically_consistent, pseudo_inertia

    m, c = 1.2, np.array([0.05, -0.08, 0.1])
    I_c = np.array([[0.02, 0.006, -0.004], [0.006, 0.03, 0.005], [-0.004, 0.005, 0.045]])
    assert is_physically_consistent(I_c)
    I_o = pseudo_inertia(m, c, I_c)
    I_o = np.trace(I_o[:3, :3]) * np.eye(3) - I_o[:3, :3]      # Sigma_o -> I_o
    true = np.r_[m, m * c, np.diag(I_o), I_o[0, 1], I_o[0, 2], I_o[1, 2]]
    for k in (7, 8, 9):
        bad = true.copy()
        bad[k] = -bad[k]
        I_bad = np.array([[bad[4], bad[7], bad[8]], [bad[7], bad[5], bad[9]], [bad[8], bad[9], bad[6]]])
        Pi = np.block([[np.trace(I_bad) / 2 * np.eye(3) - I_bad, bad[1:4, None]], [bad[None, 1:4], bad[:1, None]]])
        assert np.linalg.eigvalsh(Pi).min() < 0       # the flip is visible in Pi
        np.testing.assert_array_equal(ref.fix_flipped_product(bad), true)


def test_reference_steiner_block_is_the_cone_integrated_about_its_com():
    """3.1.9: the reference (apex integral moved by Steiner) against the integral taken about
    the COM directly, in SymPy, and against the flat limit."""
    m, r, h = sp.symbols("m r ell", positive=True)   # h: the cone's height ell
    z, s_, th = sp.symbols("z s theta", positive=True)
    rho = m / (sp.pi * r**2 * h / 3)
    zc = 3 * h / 4
    x, y, zz = s_ * sp.cos(th), s_ * sp.sin(th), z - zc

    def integral(f):
        return rho * sp.integrate(f * s_, (s_, 0, r * z / h), (th, 0, 2 * sp.pi), (z, 0, h))

    assert sp.simplify(integral(z) / m - zc) == 0
    direct = sp.diag(integral(y**2 + zz**2), integral(x**2 + zz**2), integral(x**2 + y**2))
    assert sp.simplify(ref.steiner_block - direct) == sp.zeros(3, 3)
    # squashed flat (h -> 0) the cone is a planar body: I_zz = I_xx + I_yy
    flat = ref.steiner_block.subs(h, 0)
    assert sp.simplify(flat[2, 2] - flat[0, 0] - flat[1, 1]) == 0


def test_reference_body_wrench_matches_point_mass_sum():
    # A rigid cloud of point masses; the origin of {o} is not its COM.
    m = RNG.uniform(0.2, 1.0, 6)
    r = RNG.normal(size=(6, 3))
    com = (m[:, None] * r).sum(0) / m.sum()
    w, wd, v, vd = (RNG.normal(size=3) for _ in range(4))
    moment = np.zeros(3)
    force = np.zeros(3)
    for mi, ri in zip(m, r):
        # acceleration of a body-fixed point expressed in the moving body frame
        a = vd + np.cross(w, v) + np.cross(wd, ri) + np.cross(w, np.cross(w, ri))
        force += mi * a
        moment += np.cross(ri, mi * a)
    # 3.1.5 gives the acceleration of the origin point itself: a_o = vd + w x v
    got = ref.body_wrench(m.sum(), _point_inertia(m, r, com), com, w, v, wd, vd + np.cross(w, v))
    np.testing.assert_allclose(got, np.concatenate([moment, force]), rtol=0, atol=1e-12)


def test_reference_consistency_and_stability():
    def G_of(mass, I_c, c):        # built by hand: lib refuses a non-physical I_c
        return np.block([[I_c - mass * _skew(c) @ _skew(c), mass * _skew(c)],
                         [-mass * _skew(c), mass * np.eye(3)]])

    R = random_rotation(RNG)
    c = np.array([0.1, -0.2, 0.3])
    assert ref.is_physically_consistent(G_of(2.0, R @ np.diag([1.0, 2.0, 2.9]) @ R.T, c))
    assert not ref.is_physically_consistent(G_of(2.0, R @ np.diag([1.0, 2.0, 3.1]) @ R.T, c))
    # diag(1, 1, 3) about the COM, COM 1 m along z, 2 kg: I_o = 3 1 passes the triangle
    # inequality and G is positive definite, but no body has it
    G = G_of(2.0, np.diag([1.0, 1.0, 3.0]), np.array([0.0, 0.0, 1.0]))
    assert np.linalg.eigvalsh(G).min() > 0 and not ref.is_physically_consistent(G)
    assert [ref.axis_is_stable([1.0, 2.0, 3.0], k) for k in range(3)] == [False, False, True]
    point = {sp.Symbol("I_k", positive=True): 2.0, sp.Symbol("I_a", positive=True): 1.0,
             sp.Symbol("I_b", positive=True): 3.0, sp.Symbol("Omega", positive=True): 1.0}
    value = float(ref.Omega_k_squared.subs({**point, sp.Symbol("L_r", real=True): 0.0}))
    assert value == pytest.approx(-1.0 / 3.0, rel=1e-15)  # no rotor: the intermediate axis is unstable
    # a rotor of momentum L_r = 1.5 stabilises it: (1 + 1.5)(-1 + 1.5) / 3
    value = float(ref.Omega_k_squared.subs({**point, sp.Symbol("L_r", real=True): 1.5}))
    assert value == pytest.approx(1.25 / 3.0, rel=1e-15)


def test_reference_world_torque_is_the_rate_of_world_angular_momentum():
    """3.1.6: R(t) = exp([W_p] t) R_0 exp([w_s] t); the torque is d/dt (I_w w_w), by central
    differences of the angular momentum along that motion."""
    from scipy.linalg import expm

    R0 = random_rotation(RNG)
    I_b = np.array([[0.2, 0.01, 0.0], [0.01, 0.3, 0.02], [0.0, 0.02, 0.4]])
    W_p, w_s = RNG.normal(size=3), RNG.normal(0.0, 5.0, 3)

    def L_w(t):
        R = expm(_skew(W_p) * t) @ R0 @ expm(_skew(w_s) * t)
        return R @ I_b @ R.T @ (W_p + R @ w_s)

    dt = 1e-5
    expected = (L_w(dt) - L_w(-dt)) / (2 * dt)
    got = ref.world_frame_torque(R0, I_b, W_p, w_s)
    # central differences: truncation ~ dt^2 times the third derivative ~ 1e-8 here,
    # round-off ~ 1e-16 / dt = 1e-11
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
    # a constant-rate answer (w_dot = 0) misses W_p x R w_s
    w = W_p + R0 @ w_s
    I_w = R0 @ I_b @ R0.T
    assert np.linalg.norm(np.cross(w, I_w @ w) - expected) > 1e-2 * np.linalg.norm(expected)


def test_dissipation_keeps_only_the_spin_about_the_largest_moment():
    """3.1.8's answer by simulation: a torque tau = k (L (L.w) - w |L|^2) keeps |L| and removes
    energy (w.tau <= 0); a spin about the smallest-moment axis ends about the largest one."""
    from lib.integrate import rk4

    I = np.diag([1.0, 2.0, 3.0])
    k = 0.5

    def rhs(t, w):
        L = I @ w
        tau = k * (L * (L @ w) - w * (L @ L))
        return np.linalg.solve(I, tau - np.cross(w, L))

    for axis in (0, 2):
        w0 = np.array([0.01, 0.01, 0.01])
        w0[axis] = 1.0
        _, ws = rk4(rhs, w0, 0.0, 0.01, 6000)
        L0, L1 = np.linalg.norm(I @ ws[0]), np.linalg.norm(I @ ws[-1])
        assert abs(L1 / L0 - 1) < 1e-6                          # |L| kept (RK4 error level)
        direction = np.abs(I @ ws[-1]) / L1
        assert direction[2] > 0.999, (axis, direction)          # ends about the largest moment


def test_reference_urdf_G_matches_direct_blocks():
    m, xyz, rpy = 1.3, np.array([0.1, -0.05, 0.2]), np.array([0.3, -0.4, 1.1])
    I_C = np.array([[0.02, 0.001, -0.002], [0.001, 0.03, 0.0015], [-0.002, 0.0015, 0.025]])
    got = ref.urdf_inertial_to_G(m, xyz, rpy, [I_C[0, 0], I_C[0, 1], I_C[0, 2], I_C[1, 1], I_C[1, 2], I_C[2, 2]])
    cr, sr, cp, sp_, cy, sy = np.cos(rpy[0]), np.sin(rpy[0]), np.cos(rpy[1]), np.sin(rpy[1]), np.cos(rpy[2]), np.sin(rpy[2])
    R = (np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]]) @ np.array([[cp, 0, sp_], [0, 1, 0], [-sp_, 0, cp]])
         @ np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]]))
    expected = spatial_inertia(m, R @ I_C @ R.T, xyz)
    # Products of O(1) numbers: 1e-12 absolute is round-off with margin.
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_reference_merged_urdf_G_is_the_composite_body():
    """3.1.10: the merged link's G equals the G of one body with the combined mass, COM and
    inertia (lib.inertia.combine_bodies), with every part rotated into the link's axes."""
    from lib.inertia import MassProperties, combine_bodies
    from lib.model_files import rpy_to_rotation

    mass = np.array([1.3, 0.4])
    xyz = np.array([[0.1, -0.05, 0.2], [-0.03, 0.02, 0.3]])
    rpy = np.array([[0.3, -0.4, 1.1], [1.0, 0.2, -0.5]])
    I_C = [np.array([[0.02, 0.001, -0.002], [0.001, 0.03, 0.0015], [-0.002, 0.0015, 0.025]]),
           np.array([[0.004, 0.0002, 0.0], [0.0002, 0.003, 0.0001], [0.0, 0.0001, 0.005]])]
    six = [[I[0, 0], I[0, 1], I[0, 2], I[1, 1], I[1, 2], I[2, 2]] for I in I_C]
    got = ref.urdf_inertial_to_G(mass, xyz, rpy, six)
    parts = [MassProperties(m, p, rpy_to_rotation(e) @ I @ rpy_to_rotation(e).T)
             for m, p, e, I in zip(mass, xyz, rpy, I_C)]
    body = combine_bodies(parts)
    # round-off of sums of O(1) products: 1e-12
    np.testing.assert_allclose(got, spatial_inertia(body.mass, body.inertia_com, body.com),
                               rtol=0, atol=1e-12)


def test_reference_mjcf_fullinertia_reads_either_sign_convention():
    """3.1.11: the file with matrix entries and the file with +int rho xy dV give one answer."""
    from lib.model_files import mjcf_fullinertia_to_matrix, rpy_to_rotation

    I = np.array([[0.00686, -0.00274, 0.00219], [-0.00274, 0.00984, 0.00282],
                  [0.00219, 0.00282, 0.00986]])
    rpy = [0.1, 0.4, -0.7]
    as_entries = [I[0, 0], I[0, 1], I[0, 2], I[1, 1], I[1, 2], I[2, 2]]
    as_integrals = [I[0, 0], -I[0, 1], -I[0, 2], I[1, 1], -I[1, 2], I[2, 2]]
    a, b = ref.mjcf_fullinertia(rpy, as_entries), ref.mjcf_fullinertia(rpy, as_integrals)
    R = rpy_to_rotation(rpy)
    np.testing.assert_allclose(mjcf_fullinertia_to_matrix(a), R @ I @ R.T, rtol=0, atol=1e-15)
    np.testing.assert_allclose(b, a, rtol=0, atol=1e-15)


def test_output_folder_inside_the_submissions_folder_is_not_graded(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "a.py").write_text(SOLUTIONS_TEXT)
    for _ in range(2):  # the second run must not pick up the first run's reports
        assert cli.main([str(folder), "--chapter", CHAPTER, "--out", str(folder / "grades"), "--quiet"]) == 0
    rows = list(csv.DictReader((folder / "grades" / "gradebook.csv").open()))
    assert [r["submission"] for r in rows] == ["a.py"]
    assert (folder / "grades" / "gradebook.csv").stat().st_mode & 0o044  # readable like a normal file


def test_hiding_an_ancestor_of_lib_does_not_break_the_sandbox(tmp_path):
    """A submission kept in the repository root (so its folder, the repo, is hidden) still runs."""
    sub = tmp_path / "s.py"
    sub.write_text(SOLUTIONS_TEXT + "\nimport lib\n")
    report = core.grade_submission(sub, _opts(hide=[str(REPO), str(REPO.parent)]))
    assert report["status"] == "graded" and report["score"] == 29.0, report["messages"]


def test_a_checkout_under_tmp_stays_visible_in_the_sandbox(tmp_path, monkeypatch):
    """CI may clone the repository under /tmp, which the sandbox replaces by a
    private /tmp: the kept folders (here a copy of lib under tmp_path) must be
    mounted on top of that private /tmp, not hidden by it."""
    import os
    import shutil

    from grader import sandbox

    assert str(tmp_path).startswith("/tmp/")  # the case this test is about
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO / "lib", checkout / "lib", ignore=shutil.ignore_patterns("__pycache__"))
    real = sandbox.python_paths()
    real_lib = next(p for p in real["keep"] if p.endswith(os.sep + "lib") and os.path.isfile(os.path.join(p, "errors.py")))
    moved_lib = os.path.realpath(checkout / "lib")

    def python_paths_in_tmp(with_lib=True):
        return {
            "sys_path": [p for p in real["sys_path"] if p != os.path.dirname(real_lib)] + [os.path.dirname(moved_lib)],
            "keep": sorted((set(real["keep"]) - {real_lib}) | {moved_lib}),
            "python": real["python"],
            "lib_dir": moved_lib,
        }

    monkeypatch.setattr(sandbox, "python_paths", python_paths_in_tmp)
    sub = tmp_path / "s.py"
    # One cell (no "# %%" markers): if lib cannot be imported from the copy in
    # /tmp, the cell fails and the whole submission scores 0. (The child grading
    # the exercises done without lib refuses the import, saying so.)
    one_cell = "\n".join(line for line in SOLUTIONS_TEXT.splitlines() if not line.startswith("# %%"))
    sub.write_text("try:\n    import lib\nexcept ModuleNotFoundError as exc:\n"
                   "    assert 'graded without lib' in str(exc), exc\nelse:\n"
                   f"    assert lib.__file__.startswith({moved_lib!r}), lib.__file__\n" + one_cell)
    report = core.grade_submission(sub, _opts())
    assert report["status"] == "graded" and report["score"] == 29.0, report["messages"]


def test_same_file_name_in_two_student_folders_stays_apart(tmp_path):
    folder = tmp_path / "subs"
    (folder / "alice").mkdir(parents=True)
    (folder / "bob").mkdir()
    (folder / "alice" / "hw.py").write_text(SOLUTIONS_TEXT)
    (folder / "bob" / "hw.py").write_text("x = 1\n")
    (folder / "carol.py").write_text("x = 1\n")
    out = tmp_path / "grades"
    assert cli.main([str(folder), "--chapter", CHAPTER, "--out", str(out), "--quiet"]) == 0
    rows = {r["submission"]: r for r in csv.DictReader((out / "gradebook.csv").open())}
    assert set(rows) == {"alice/hw.py", "bob/hw.py", "carol.py"}
    assert [rows[k]["student"] for k in ("alice/hw.py", "bob/hw.py", "carol.py")] == ["alice", "bob", "carol"]
    assert float(rows["alice/hw.py"]["score"]) == 29.0 and float(rows["bob/hw.py"]["score"]) == 0.0
    report = json.loads((out / "alice__hw.py.json").read_text())
    assert report["student"] == "alice" and report["score"] == 29.0


def test_a_sandbox_uid_is_never_shared_between_grader_processes() -> None:
    """Ending a child kills every process of its uid, so two graders must not share one."""
    from grader import sandbox

    uid = sandbox._acquire_uid()
    try:
        probe = (
            "import sys; sys.path.insert(0, sys.argv[1]); from grader import sandbox; "
            "print(sandbox._reserve_across_processes(int(sys.argv[2])), "
            "sandbox._reserve_across_processes(int(sys.argv[3])))"
        )
        other = uid + 1 if uid + 1 < sandbox.SANDBOX_UID_BASE + sandbox.SANDBOX_UID_SLOTS else uid - 1
        out = subprocess.run([sys.executable, "-c", probe, str(REPO), str(uid), str(other)],
                             capture_output=True, text=True, check=True).stdout.split()
        assert out == ["False", "True"], out  # ours is taken, a free one is not
    finally:
        sandbox._release_uid(uid)
    out = subprocess.run([sys.executable, "-c", probe, str(REPO), str(uid), str(uid)],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "True", out  # released: free again


# --------------------------------------------------------------------------
# The data path: one Chapter, one name per submission, a typed report, no import loop
# --------------------------------------------------------------------------

def _check_typed(value, hint, where):
    """``value`` has the type ``hint`` (a TypedDict of the report, a list of one, a Literal, a plain type)."""
    import typing

    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        assert value in typing.get_args(hint), (where, value)
    elif origin in (list, typing.List):
        assert isinstance(value, list), (where, value)
        for i, item in enumerate(value):
            _check_typed(item, typing.get_args(hint)[0], f"{where}[{i}]")
    elif isinstance(hint, type) and issubclass(hint, dict):  # a TypedDict
        assert isinstance(value, dict), (where, value)
        keys = set(value)
        assert hint.__required_keys__ <= keys, (where, sorted(hint.__required_keys__ - keys))
        assert keys <= hint.__required_keys__ | hint.__optional_keys__, (where, sorted(keys - set(typing.get_type_hints(hint))))
        for key, sub in typing.get_type_hints(hint).items():
            if key in value:
                _check_typed(value[key], sub, f"{where}.{key}")
    elif hint is float:
        assert isinstance(value, (int, float)) and not isinstance(value, bool), (where, value)
    else:
        assert isinstance(value, hint) and (hint is bool or not isinstance(value, bool)), (where, value)


def test_same_file_name_in_two_folders_is_told_apart_on_the_progress_lines(tmp_path, capsys, monkeypatch):
    """The progress line and the report name a file as the gradebook does; the chapter is loaded once."""
    from grader import spec
    from grader.report import Report

    folder = tmp_path / "subs"
    (folder / "alice").mkdir(parents=True)
    (folder / "bob").mkdir()
    (folder / "alice" / "hw.py").write_text(SOLUTIONS_TEXT)
    (folder / "bob" / "hw.py").write_text("x = 1\n")
    (folder / "bob" / "notes.txt").write_text("not a submission type")
    loads = []
    real_load = spec.load_chapter

    def counted(name):
        loads.append(name)
        return real_load(name)

    for module in (spec, core, cli):
        monkeypatch.setattr(module, "load_chapter", counted)
    out = tmp_path / "grades"
    assert cli.main([str(folder), "--chapter", CHAPTER, "--out", str(out), "--jobs", "2"]) == 0
    assert loads == [CHAPTER]  # by the command line, once; every step after it gets the Chapter
    printed = capsys.readouterr().out.splitlines()
    heads = [line for line in printed if not line.startswith(" ")][:-1]  # the last line is the summary
    assert sorted(heads) == ["alice/hw.py: 29 / 29", "bob/hw.py: 0 / 29", "bob/notes.txt: 0 / 29  [unreadable]"]
    reports = {name: json.loads((out / name).read_text())
               for name in ("alice__hw.py.json", "bob__hw.py.json", "bob__notes.txt.json")}
    assert [(r["submission"], r["student"]) for r in reports.values()] == [
        ("alice/hw.py", "alice"), ("bob/hw.py", "bob"), ("bob/notes.txt", "bob")]
    # Every report, and the row of a grader failure, has the fields of the typed report and no others.
    opts = core.GradeOptions(chapter=load_chapter(CHAPTER))
    failed = cli._failed_report(folder / "bob" / "hw.py", opts, "GRADER ERROR: a test", folder)
    assert (failed["submission"], failed["student"], failed["seed"]) == ("bob/hw.py", "bob", opts.chapter.seed)
    for name, report in [*reports.items(), ("failed", failed)]:
        _check_typed(report, Report, name)
    assert "your_expression" in str(reports["alice__hw.py.json"]["exercises"])  # the optional field is checked too
    assert "sandbox" in reports["bob__hw.py.json"] and "sandbox" not in reports["bob__notes.txt.json"]


def test_grade_options_hold_the_chapter_itself():
    chapter = load_chapter(CHAPTER)
    assert core.GradeOptions(chapter=chapter).chapter is chapter
    assert core.GradeOptions(chapter=CHAPTER).chapter is chapter  # a name is loaded once, here
    assert core.GradeOptions(chapter=chapter).seed_used == chapter.seed
    assert core.GradeOptions(chapter=chapter, seed=7).seed_used == 7
    with pytest.raises(KeyError):
        core.GradeOptions(chapter="no_such_chapter")


def test_submission_identity_is_the_path_inside_the_graded_folder(tmp_path):
    assert core.submission_identity(tmp_path / "alice" / "hw.py", tmp_path) == ("alice/hw.py", "alice")
    assert core.submission_identity(tmp_path / "carol.py", tmp_path) == ("carol.py", "carol")
    assert core.submission_identity(tmp_path / "alice" / "hw.py") == ("hw.py", "hw")  # one file graded
    report = core.new_report(tmp_path / "bob" / "hw.py", load_chapter(CHAPTER), 5, tmp_path)
    assert (report["submission"], report["student"], report["seed"]) == ("bob/hw.py", "bob", 5)


def test_every_report_field_is_documented():
    """Each field of the typed report has a ``#:`` comment in grader/report.py and a line in the README."""
    import ast
    import typing

    from grader import report as report_module

    source = (REPO / "grader" / "report.py").read_text()
    lines = source.splitlines()
    documented, bases = {}, {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            bases[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]
            for item in node.body:
                if isinstance(item, ast.AnnAssign):
                    above = lines[item.lineno - 2].strip()
                    documented[(node.name, item.target.id)] = above.startswith("#:") and len(above) > 4
    for cls in (report_module.Report, report_module.ExerciseEntry, report_module.CaseEntry):
        owners = [cls.__name__, *bases[cls.__name__]]  # a TypedDict's optional fields come from its base
        for name in typing.get_type_hints(cls):
            assert any(documented.get((owner, name)) for owner in owners), \
                f"{cls.__name__}.{name} has no #: comment in grader/report.py"
    readme = (REPO / "grader" / "README.md").read_text()
    section = readme.split("### Report fields", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    for cls in (report_module.Report, report_module.ExerciseEntry, report_module.CaseEntry):
        for name in typing.get_type_hints(cls):
            assert f"`{name}`" in section, f"README's 'Report fields' does not list `{name}`"


def _grader_import_graph() -> dict:
    """{module: grader modules it imports anywhere in its source (function bodies too)}, from the ast."""
    from _tree import imported_names, modules

    files = {m.name: m for m in modules("grader", root=REPO)}
    graph = {}
    for name, module in files.items():
        deps = imported_names(name, module.source, module.is_package)
        parent = name.rsplit(".", 1)[0]
        if parent in files and parent != "grader":
            deps.add(parent)  # importing grader.chapters.x imports the package grader.chapters first
        graph[name] = {d for d in deps if d in files and d != name and d != "grader"}
    return graph


#: Programs, not modules: they run when imported (``python -m grader``; the jail's source is run by the sandbox).
SCRIPTS = {"grader.__main__", "grader._jail"}


def test_grader_modules_import_without_a_cycle():
    graph = _grader_import_graph()
    assert {"grader.core", "grader.cli", "grader.publicdata", "grader.fileio", "grader.report"} <= set(graph)
    assert "grader.cli" not in graph["grader.publicdata"] and "grader.fileio" in graph["grader.publicdata"]
    order, state = [], {}

    def visit(module, path):
        if state.get(module) == "done":
            return
        assert state.get(module) != "open", "import loop: " + " -> ".join(path + [module])
        state[module] = "open"
        for dep in sorted(graph[module]):
            visit(dep, path + [module])
        state[module] = "done"
        order.append(module)

    for module in sorted(graph):
        visit(module, [])
    # In a fresh interpreter, importing the modules in that order (dependencies first) loads no
    # grader module the graph above does not know of: the ast saw every import.
    probe = (
        "import importlib, json, sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "graph = json.loads(sys.argv[1])\n"
        "seen = set()\n"
        "for name in json.loads(sys.argv[2]):\n"
        "    importlib.import_module(name)\n"
        "    new = {m for m in sys.modules if m.startswith('grader.')} - seen - {name}\n"
        "    assert new <= set(graph[name]) | {'grader'}, (name, sorted(new - set(graph[name])))\n"
        "    seen |= new | {name}\n"
        "print('ok', len(seen))\n"
    )
    closure = {}
    for module in order:  # the transitive dependencies of each module
        closure[module] = set(graph[module]).union(*(closure[d] for d in graph[module]))
    proc = subprocess.run([sys.executable, "-c", probe, json.dumps({k: sorted(v) for k, v in closure.items()}),
                           json.dumps([m for m in order if m not in SCRIPTS])],
                          capture_output=True, text=True, timeout=300, cwd=str(REPO))
    assert proc.returncode == 0 and proc.stdout.startswith("ok"), proc.stderr[-2000:]
