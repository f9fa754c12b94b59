"""Hostile and broken submissions get exactly the score their answers earn.

Every file in tests/submissions/ declares its expected score in its header
(see tests/submissions/README.md). All of them are graded in one batch, with
both cores and small limits, through the same code path as ``grade FOLDER``,
in both sandbox modes a root grader can end up in:

* ``namespace``: mount/PID/network namespaces (``grade`` in-process, from the
  repository's environment);
* ``setuid``: what Gradescope gets (no CAP_SYS_ADMIN, so no namespaces): the
  Gradescope bundle is installed with a world-readable Python (setup.sh), and
  its grader runs under ``setpriv --bounding-set=-sys_admin`` so that
  ``--sandbox auto`` finds ``unshare`` refused and falls back to the uid drop.
  Only file permissions protect the solutions then, so, as in a Gradescope
  container, the run happens in a mount namespace where this machine's other
  copies of the repository (/work, /root, /home, /tmp, /srv) are not visible.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from grader import cli, core
from grader_helpers import (CHAPTER, MYST_HEADER, RAW_CONTROLS, REPO, SHADOW_MODULE, SHADOWS, SOLUTIONS_TEXT, SPECIALS,
                            SUBMISSIONS, build_specials, build_submission, install_bundle, parse_header, small_limits)

FIXTURES = sorted(SUBMISSIONS.glob("*.txt"))
MODES = ["namespace", "setuid"]
#: World-readable Python (>= 3.10) for the setuid mode's venv: pyenv's live under /root (0700).
SETUID_PYTHON = "/usr/bin/python3"
#: Where other copies of the repository may be on this machine (hidden for the setuid run).
OTHER_COPIES = ["/work", "/root", "/home", "/tmp", "/srv"]


def _grade_namespace(folder, out):
    """``grade`` in-process, ``--sandbox auto``: namespaces (as root) or a user namespace; returns stdout."""
    import contextlib

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = cli.main([str(folder), "--chapter", CHAPTER, "--out", str(out), "--jobs", "2",
                         "--timeout", "5", "--total-timeout", "90"])
    assert code == 0
    return printed.getvalue()


def _grade_setuid(root: Path, folder: Path, out: Path):
    """Install the Gradescope bundle under ``root`` and grade ``folder`` as Gradescope would (setuid mode)."""
    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("unshare"):
        pytest.skip("the setuid mode is exercised when the suite runs as root with setpriv and unshare")
    if not os.path.exists(SETUID_PYTHON):
        pytest.skip(f"no world-readable {SETUID_PYTHON} for the sandbox user")
    env = install_bundle(root, SETUID_PYTHON)
    ag = root / "autograder"
    subprocess.run(["chmod", "-R", "go-rwx", str(ag / "source")], check=True)  # as run_autograder does
    hide = " ".join(d for d in OTHER_COPIES if os.path.isdir(d))
    script = (f"set -e; for d in {hide}; do mount -t tmpfs -o mode=1777,size=256m tmpfs $d; done; "
              'exec setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin "$@"')
    cmd = ["unshare", "--mount", "--propagation", "private", "--", "bash", "-c", script, "grade-setuid",
           str(ag / "venv" / "bin" / "python"), "-m", "grader", str(folder), "--chapter", CHAPTER,
           "--out", str(out), "--jobs", "2", "--timeout", "5", "--total-timeout", "90"]
    env["PYTHONPATH"] = f"{root / 'public'}:{ag / 'source'}"
    # Run inside the submissions folder: `-m` puts it first on the import path, and the
    # class holds numpy.py, jupytext.py and yaml.py (SHADOWS) that must not be imported.
    proc = subprocess.run(cmd, env=env, cwd=folder, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


#: Each mode's class is graded once, on one worker (an xdist group: conftest.py).
@pytest.fixture(scope="module", params=[pytest.param(m, marks=pytest.mark.xdist_group(f"graded-{m}"))
                                        for m in MODES])
def graded(request, tmp_path_factory):
    mode = request.param
    solutions_before = (REPO / "solutions" / f"{CHAPTER}.py").read_bytes()
    if mode == "namespace":
        folder = tmp_path_factory.mktemp("class")
        out = tmp_path_factory.mktemp("grades")
        for p in FIXTURES:
            build_submission(p, folder)
        build_specials(folder)
        printed = _grade_namespace(folder, out)
        root = None
    else:
        # Outside /tmp (hidden while grading) and readable by the sandbox user where it must be.
        root = Path(tempfile.mkdtemp(prefix="grader-setuid-", dir="/var/tmp"))
        request.addfinalizer(lambda: shutil.rmtree(root, ignore_errors=True))
        os.chmod(root, 0o755)
        folder = root / "class"
        folder.mkdir(mode=0o700)
        out = root / "grades"
        for p in FIXTURES:
            build_submission(p, folder)
        build_specials(folder)
        printed = _grade_setuid(root, folder, out)
    reports = {json.loads(p.read_text())["submission"]: json.loads(p.read_text())
               for p in out.glob("*.json")}
    # Not root: the in-process run gets the user-namespace variant of the namespace mode.
    # (unreadable rows never start a sandbox: they have no "sandbox")
    assert {r["sandbox"] for r in reports.values() if "sandbox" in r} == {mode if os.geteuid() == 0 else "userns"}
    return {"out": out, "folder": folder, "reports": reports, "solutions_before": solutions_before,
            "mode": mode, "root": root, "printed": printed}


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


@pytest.mark.parametrize("special", SPECIALS, ids=[sp.id for sp in SPECIALS])
def test_hostile_file_gets_exactly_its_row(graded, special):
    """Files that are not a .py tail (notebooks, MyST, FIFOs, links, odd names): exact status and score."""
    report = graded["reports"][special.report_key]
    detail = core.format_report(report)
    assert report["status"] == special.status, detail
    assert report["score"] == special.score, detail
    text = json.dumps(report, ensure_ascii=False)
    for part in special.contains:
        assert part in text, detail
    for part in special.absent:
        assert part not in text, detail


def test_gradebook_has_one_row_per_file_and_is_not_forged(graded):
    lines = (graded["out"] / "gradebook.csv").read_text().splitlines()
    assert len(lines) == 1 + len(FIXTURES) + len(SPECIALS)
    assert not any(",x,29" in line or line.startswith("x,") for line in lines)
    # One report per row (none overwritten), and only the grader's own files in the output folder.
    reports = [p for p in graded["out"].iterdir() if p.name != "gradebook.csv"]
    assert len(reports) == len(FIXTURES) + len(SPECIALS)
    assert all(p.suffix == ".json" for p in reports)
    assert len(graded["reports"]) == len(FIXTURES) + len(SPECIALS)


def test_no_control_characters_reach_the_terminal_or_the_gradebook(graded):
    """A file name and output with ESC, CR, NUL, CSI and a bidi override are shown escaped."""
    printed = graded["printed"]
    gradebook = (graded["out"] / "gradebook.csv").read_text(encoding="utf-8")
    assert "fake 18 of 18" in printed and "fake 18 of 18" in gradebook
    assert "\\x1b[2K\\rfake 18 of 18\\x9b31m\\u202e.py: 0 / 29" in printed
    for raw in RAW_CONTROLS:
        assert raw not in printed, repr(raw)
        assert raw not in gradebook.replace("\r\n", "\n"), repr(raw)
    assert not any(raw in p.name for p in graded["out"].iterdir() for raw in RAW_CONTROLS)
    for path in graded["out"].glob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert "\x9b" not in text and "\u202e" not in text, path.name


def test_no_submission_was_imported_by_the_grader(graded):
    assert not (graded["folder"] / "IMPORTED_BY_GRADER").exists()


def test_python_m_grader_inside_the_submissions_folder_imports_nothing_from_it(tmp_path):
    """``python -m grader .`` run in the class folder (namespace/userns mode; setuid: the graded fixture)."""
    import sys

    folder = tmp_path / "class"
    folder.mkdir()
    for name in SHADOWS:
        (folder / name).write_text(SHADOW_MODULE)
    (folder / "answer.md").write_text(MYST_HEADER + "```{code-cell} ipython3\n" + SOLUTIONS_TEXT + "\n```\n")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-m", "grader", ".", "--chapter", CHAPTER, "--out", str(tmp_path / "out"),
                           "--jobs", "2", "--quiet"], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert not (folder / "IMPORTED_BY_GRADER").exists()
    rows = {r["submission"]: r for r in csv.DictReader(io.StringIO((tmp_path / "out" / "gradebook.csv").read_text()))}
    assert rows["answer.md"]["status"] == "graded" and rows["answer.md"]["score"] == "29"
    assert {rows[n]["status"] for n in SHADOWS} == {"graded"} and {rows[n]["score"] for n in SHADOWS} == {"0"}


def test_solutions_untouched_and_no_fake_results(graded):
    assert (REPO / "solutions" / f"{CHAPTER}.py").read_bytes() == graded["solutions_before"]
    if graded["root"] is not None:  # the bundle's copy, the one the setuid run could reach
        bundled = graded["root"] / "autograder" / "source" / "solutions" / f"{CHAPTER}.py"
        assert bundled.read_bytes() == graded["solutions_before"]
    fake = '"output": "perfect"'
    for folder in (REPO / "solutions", REPO / "grades", REPO, Path("/autograder/results")):
        for stray in ("results.json", "gradebook.csv", "student.json"):
            path = folder / stray
            assert not path.exists() or fake not in path.read_text() and ",x,29" not in path.read_text()


def test_lib_file_leads_nowhere(graded):
    """Following ``lib.__file__`` leads to a folder that holds ``lib`` and nothing else of the repository.

    In the namespace mode it is the repository with everything but ``lib`` (and
    the venv, if the environment lives inside the repository) hidden; in the
    setuid mode (Gradescope) the public copy of ``lib``. Either way no solutions,
    tests, grader specs or .git; wherever the Python environment lives.
    """
    report = graded["reports"]["read_solutions_libfile.py"]
    stable = next(e for e in report["exercises"] if e["name"] == "axis_is_stable")
    m = re.search(r"repo listing: (\[[^\]]*\])", stable["feedback"])
    assert m, stable
    listing = ast.literal_eval(m.group(1))
    assert "lib" in listing, listing
    assert set(listing) <= {"lib", ".venv"}, listing
    assert report["score"] == 0.0


def _outcome(report):
    """Everything a student or the gradebook sees of a report, except its name."""
    return (report["status"], report["score"], report["messages"],
            [(e["name"], e["score"], e["feedback"], e["cases"]) for e in report["exercises"]])


def test_forging_thread_scores_the_same_every_time(tmp_path):
    """A cell that defines every answer and starts a thread forging protocol messages (issue 19.9).

    It scored 0, 0 and 5 alone and 0, 3 and 6 in batches while the forged
    messages raced the runner's. Graded code now runs in one thread of one
    process: the thread is never started, the genuine answers are graded, and
    the report is identical alone and in a batch of two workers.
    """
    sub = build_submission(SUBMISSIONS / "forge_from_a_thread.txt", tmp_path)
    opts = core.GradeOptions(chapter=CHAPTER, limits=small_limits())
    alone = [_outcome(core.grade_submission(sub, opts)) for _ in range(3)]
    folder = tmp_path / "batch"
    folder.mkdir()
    for i in range(4):
        (folder / f"s{i}.py").write_text(sub.read_text())
    batch = [_outcome(r) for r in cli.grade_paths(sorted(folder.iterdir()), opts, 2, root=folder)]
    assert all(o == alone[0] for o in alone + batch), [o[:3] for o in alone + batch]
    status, score, messages, _ = alone[0]
    assert status == "graded" and score == parse_header(SUBMISSIONS / "forge_from_a_thread.txt")["score"]
    assert any("could not start a thread" in m for m in messages), messages


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
        "def inertia_between_points(inertia_a, mass, com, a, b):\n"
        "    raise RuntimeError(f'uid={os.getuid()} euid={os.geteuid()} cwd={os.getcwd()} net=' + str(_net()))\n"
        "def _net():\n"
        "    import socket\n"
        "    try:\n"
        "        socket.create_connection(('1.1.1.1', 53), timeout=1); return 'open'\n"
        "    except OSError:\n"
        "        return 'closed'\n"
    )
    report = core.grade_submission(sub, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    text = json.dumps(next(e for e in report["exercises"] if e["name"] == "inertia_between_points"))
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
