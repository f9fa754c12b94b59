"""Hostile and broken submissions get exactly the score their answers earn.

Every file in tests/submissions/ declares its expected score in its header
(see tests/submissions/README.md). All of them are graded in one batch, with
both cores and small limits, through the same code path as ``grade FOLDER``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from grader import cli, core
from grader_helpers import CHAPTER, REPO, SUBMISSIONS, build_submission, parse_header, small_limits

FIXTURES = sorted(SUBMISSIONS.glob("*.txt"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    out = tmp_path_factory.mktemp("grades")
    for p in FIXTURES:
        build_submission(p, folder)
    solutions_before = (REPO / "solutions" / f"{CHAPTER}.py").read_bytes()
    code = cli.main([str(folder), "--chapter", CHAPTER, "--out", str(out), "--jobs", "2", "--quiet",
                     "--timeout", "5", "--total-timeout", "90"])
    assert code == 0
    reports = {json.loads(p.read_text())["submission"]: json.loads(p.read_text())
               for p in out.glob("*.json")}
    return {"out": out, "folder": folder, "reports": reports, "solutions_before": solutions_before}


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_submission_gets_exactly_its_score(graded, fixture):
    info = parse_header(fixture)
    report = graded["reports"][fixture.stem + ".py"]
    by_name = {e["name"]: e for e in report["exercises"]}
    detail = core.format_report(report)
    # Scores are sums of exact halves; compare exactly.
    assert report["score"] == info["score"], detail
    for name, score in info["exercises"].items():
        assert by_name[name]["score"] == score, detail
    for name, text in info["feedback"]:
        assert text in json.dumps(by_name[name]), detail


def test_gradebook_has_one_row_per_file_and_is_not_forged(graded):
    lines = (graded["out"] / "gradebook.csv").read_text().splitlines()
    assert len(lines) == 1 + len(FIXTURES)
    assert not any(",x,18" in line or line.startswith("x,") for line in lines)
    # Only the grader's own files are in the output folder.
    names = sorted(p.name for p in graded["out"].iterdir())
    assert names == sorted(["gradebook.csv"] + [p.stem + ".py.json" for p in FIXTURES])


def test_solutions_untouched_and_no_fake_results(graded):
    assert (REPO / "solutions" / f"{CHAPTER}.py").read_bytes() == graded["solutions_before"]
    fake = '"output": "perfect"'
    for folder in (REPO / "solutions", REPO / "grades", REPO, Path("/autograder/results")):
        for stray in ("results.json", "gradebook.csv", "student.json"):
            path = folder / stray
            assert not path.exists() or fake not in path.read_text() and ",x,18" not in path.read_text()


def test_lib_file_leads_nowhere(graded):
    report = graded["reports"]["read_solutions_libfile.py"]
    stable = next(e for e in report["exercises"] if e["name"] == "axis_is_stable")
    # The repository seen from the submission holds only lib and the venv.
    assert "repo listing: ['.venv', 'lib']" in json.dumps(stable)


def test_crash_messages_are_clear(graded):
    rep = graded["reports"]["infinite_loop.py"]
    ex = next(e for e in rep["exercises"] if e["name"] == "world_frame_torque")
    assert "time limit" in ex["feedback"], ex
    rep = graded["reports"]["memory_bomb.py"]
    ex = next(e for e in rep["exercises"] if e["name"] == "axis_is_stable")
    assert "memory" in ex["feedback"].lower(), ex
    rep = graded["reports"]["syntax_error.py"]
    assert any("syntax error" in m for m in rep["messages"]), rep["messages"]
    rep = graded["reports"]["infinite_loop_top_level.py"]
    assert any("Cell 2 was skipped" in m and "time limit" in m for m in rep["messages"]), rep["messages"]
    rep = graded["reports"]["print_megabytes.py"]
    assert any("only the first" in m for m in rep["messages"]), rep["messages"]
    assert len(rep["output"]) <= 32 * 1024


def test_sandbox_drops_privileges(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("privilege drop is tested when the suite runs as root")
    sub = tmp_path / "whoami.py"
    sub.write_text(
        "import os\n"
        "def inertia_about_origin(masses, points):\n"
        "    raise RuntimeError(f'uid={os.getuid()} euid={os.geteuid()} cwd={os.getcwd()} net=' + str(_net()))\n"
        "def _net():\n"
        "    import socket\n"
        "    try:\n"
        "        socket.create_connection(('1.1.1.1', 53), timeout=1); return 'open'\n"
        "    except OSError:\n"
        "        return 'closed'\n"
    )
    report = core.grade_submission(sub, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    text = json.dumps(report["exercises"][0])
    assert "uid=0 " not in text and "euid=0 " not in text
    assert "cwd=/tmp/work" in text
    assert "net=closed" in text


@pytest.mark.parametrize("mode", ["namespace", "userns"])
def test_nothing_is_written_outside_the_sandbox(tmp_path, mode):
    """Even as a root-mapped user (userns as root), writes stay inside the sandbox."""
    if os.geteuid() != 0:
        pytest.skip("both modes are exercised when the suite runs as root")
    tag = f"grader_escape_{os.getpid()}_{mode}"
    targets = [f"/{tag}", f"/etc/{tag}", f"/usr/{tag}", f"/var/tmp/{tag}", str(REPO / tag),
               str(REPO / "solutions" / tag), str(tmp_path / tag)]
    sub = tmp_path / "writer.py"
    sub.write_text(
        "import os\n"
        f"for t in {targets!r}:\n"
        "    try:\n"
        "        os.makedirs(t, exist_ok=True)\n"
        "        open(os.path.join(t, 'x'), 'w').write('escaped')\n"
        "    except Exception:\n"
        "        pass\n"
    )
    opts = core.GradeOptions(chapter=CHAPTER, sandbox=mode, limits=small_limits())
    report = core.grade_submission(sub, opts)
    assert report["status"] == "graded" and report["score"] == 0.0
    leaked = [t for t in targets if os.path.exists(t)]
    for t in leaked:  # clean up before failing
        import shutil
        shutil.rmtree(t, ignore_errors=True)
    assert leaked == []
