"""Issue 11: one submission never costs the batch, and the gradebook is safe to open.

- names and contents that are not valid UTF-8 (file names from old zip tools,
  lone surrogates in answers, messages and printed bytes) still give every row;
- symbolic links, FIFOs, devices and oversize files are ``unreadable`` rows,
  never opened as submissions (no link is followed, nothing blocks);
- gradebook cells that a spreadsheet would read as formulas are neutralised;
- a grader failure is ``status=error``, exit status 3 and, on Gradescope,
  "tell your instructor" -- never a student's ordinary 0.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import subprocess
import sys

import pytest

from grader import cli, core, sandbox
from grader.gradescope import GRADER_FAILED
from grader.spec import load_chapter
from grader_helpers import CHAPTER, REPO, SOLUTIONS_TEXT

ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")


def _grade(folder, out, *extra, encoding="utf-8", timeout=300):
    """``python -m grader FOLDER`` in a subprocess (a hang fails the test instead of blocking it)."""
    env = dict(ENV, PYTHONIOENCODING=encoding)
    return subprocess.run([sys.executable, "-m", "grader", str(folder), "--chapter", CHAPTER, "--out", str(out),
                           "--timeout", "5", "--jobs", "2", *extra],
                          capture_output=True, timeout=timeout, env=env, cwd=REPO)


def _rows(out):
    with open(out / "gradebook.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


# --------------------------------------------------------------------------
# 1. Names, answers, messages and printed bytes that are not UTF-8
# --------------------------------------------------------------------------

SURROGATE_ANSWERS = r'''
import sys
sys.stdout.buffer.write(b"printed bytes \xff\xfe\x80 end\n")
sys.stdout.flush()
print("a lone surrogate printed:", "\ud800".encode("utf-8", "surrogatepass"))

def inertia_between_points(inertia_a, mass, com, a, b):
    raise ValueError("\ud800 \udce9 in a message")

def body_wrench(*args):
    return "\ud800"

class Weird(Exception):
    def __str__(self):
        return "\udcff weird"

def steiner_block_helper():
    pass

import sympy as _sp
steiner_block = _sp.Symbol("\ud800x")

def is_physically_consistent(inertia):
    raise Weird()
'''


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_every_row_is_written_whatever_the_names_and_answers(tmp_path, encoding):
    folder = tmp_path / "subs"
    folder.mkdir()
    raw = os.fsencode(folder)
    # A latin-1 file name, as old zip tools write them (not valid UTF-8).
    with open(raw + b"/caf\xe9.py", "wb") as fh:
        fh.write(SOLUTIONS_TEXT.encode())
    os.mkdir(raw + b"/\xff\xfestudent")
    with open(raw + b"/\xff\xfestudent/hw\xe9.py", "wb") as fh:
        fh.write(SOLUTIONS_TEXT.encode())
    (folder / "surrogates.py").write_text(SOLUTIONS_TEXT + SURROGATE_ANSWERS)
    (folder / "raise_at_top.py").write_text('raise RuntimeError("\\ud800 at the top")\n')
    (folder / "good.py").write_text(SOLUTIONS_TEXT)
    out = tmp_path / "out"
    proc = _grade(folder, out, encoding=encoding)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    rows = {r["submission"]: r for r in _rows(out)}
    assert set(rows) == {"caf\\xe9.py", "\\xff\\xfestudent/hw\\xe9.py", "surrogates.py", "raise_at_top.py",
                         "good.py"}, rows.keys()
    assert rows["caf\\xe9.py"]["score"] == "29" and rows["caf\\xe9.py"]["student"] == "caf\\xe9"
    assert rows["\\xff\\xfestudent/hw\\xe9.py"]["student"] == "\\xff\\xfestudent"
    assert rows["good.py"]["score"] == "29"
    # 29 - inertia_between_points (2) - body_wrench (2) - steiner_block (2) - is_physically_consistent (3)
    assert float(rows["surrogates.py"]["score"]) == 20.0
    assert rows["raise_at_top.py"]["status"] == "graded" and "\\ud800 at the top" in rows["raise_at_top.py"]["messages"]
    report = json.loads((out / "surrogates.py.json").read_text(encoding="utf-8"))
    text = json.dumps(report, ensure_ascii=False)
    text.encode("utf-8")  # strict: no lone surrogate left anywhere
    by_name = {e["name"]: e for e in report["exercises"]}
    assert "\\ud800 \\udce9 in a message" in by_name["inertia_between_points"]["feedback"]
    assert by_name["steiner_block"]["your_expression"] == "\\ud800x"
    assert "printed bytes" in report["output"]
    # The report's name shows the byte escaped, with a hash that keeps it apart from a file named caf\xe9.py.
    assert len([p for p in out.iterdir() if p.name.startswith("caf\\xe9.py~") and p.suffix == ".json"]) == 1
    # Progress was printed for every submission.
    stdout = proc.stdout.decode(encoding)
    assert len(re.findall(r"^.+: [\d.]+ / 29", stdout, re.M)) == 5, stdout


def test_safe_text():
    assert core.safe_text("plain é") == "plain é"
    assert core.safe_text(os.fsdecode(b"caf\xe9.py")) == "caf\\xe9.py"
    assert core.safe_text("a\ud800b") == "a\\ud800b"
    assert core.scrub({"k\udcff": ["\ud800", 1.5, None]}) == {"k\\xff": ["\\ud800", 1.5, None]}


# --------------------------------------------------------------------------
# 2. Links, FIFOs, devices, oversize files
# --------------------------------------------------------------------------

def test_links_fifos_devices_and_oversize_files_are_unreadable_rows(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "good.py").write_text(SOLUTIONS_TEXT)
    # A link named like a submission that points at the reference solutions.
    (folder / "link_to_solutions.py").symlink_to(REPO / "solutions" / f"{CHAPTER}.py")
    (folder / "link_to_zero.py").symlink_to("/dev/zero")
    (folder / "link_to_stdin.ipynb").symlink_to("/dev/stdin")
    (folder / "link_to_shadow.md").symlink_to("/etc/shadow")
    # A student folder that is a link to the solutions folder.
    (folder / "mallory").symlink_to(REPO / "solutions", target_is_directory=True)
    os.mkfifo(folder / "fifo.py")
    (folder / "oversize.py").write_bytes(b"x = 1\n" + b"#" * core.MAX_SUBMISSION_BYTES)
    expected_unreadable = {"link_to_solutions.py": "symbolic link", "link_to_zero.py": "symbolic link",
                           "link_to_stdin.ipynb": "symbolic link", "link_to_shadow.md": "symbolic link",
                           "mallory": "symbolic link", "fifo.py": "FIFO", "oversize.py": "limit"}
    if os.geteuid() == 0:
        os.mknod(folder / "device.py", stat.S_IFCHR | 0o644, os.makedev(1, 5))  # like /dev/zero
        expected_unreadable["device.py"] = "character device"
    out = tmp_path / "out"
    proc = _grade(folder, out, "--quiet", timeout=180)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    rows = {r["submission"]: r for r in _rows(out)}
    assert set(rows) == {"good.py", *expected_unreadable}
    assert rows["good.py"]["score"] == "29" and rows["good.py"]["status"] == "graded"
    for name, reason in expected_unreadable.items():
        row = rows[name]
        assert row["status"] == "unreadable" and row["score"] == "0", row
        assert reason in row["messages"], row
    assert "regular file" in rows["link_to_solutions.py"]["messages"]


def test_read_limited_reads_at_most_limit_plus_one_bytes(tmp_path, monkeypatch):
    target = tmp_path / "sub.py"
    target.write_bytes(b"a" * 100)
    assert core.read_limited(target, limit=100) == b"a" * 100
    reads = []
    real_read = os.read

    def counting_read(fd, n):
        reads.append(n)
        return real_read(fd, n)

    # A file that grows after lstat (or lies about its size): still at most limit + 1 bytes.
    monkeypatch.setattr(os, "read", counting_read)
    monkeypatch.setattr(os, "lstat", lambda p, **kw: os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 10, 0, 0, 0)))
    with pytest.raises(core.SubmissionError, match="larger than the limit"):
        core.read_limited(target, limit=50)
    assert sum(reads) <= 51


def test_a_folder_on_the_way_that_is_a_link_is_not_followed(tmp_path):
    folder = tmp_path / "subs"
    (folder / "alice").mkdir(parents=True)
    sub = folder / "alice" / "hw.py"
    sub.write_text("x = 1\n")
    assert core.read_limited(sub, root=folder) == b"x = 1\n"
    # Swap the folder for a link after listing: the read refuses.
    (folder / "alice").rename(folder / "real")
    (folder / "alice").symlink_to(folder / "real", target_is_directory=True)
    with pytest.raises(core.SubmissionError, match="symbolic link"):
        core.read_limited(sub, root=folder)


# --------------------------------------------------------------------------
# 3. Spreadsheet formula injection
# --------------------------------------------------------------------------

def test_gradebook_neutralises_formulas_and_keeps_numbers(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    names = ["=HYPERLINK(\"evil\",\"y\").py", "+1.py", "-1.py", "@SUM(A1).py", "\tTAB.py", "\rCR.py"]
    for name in names:
        (folder / name).write_text(SOLUTIONS_TEXT)
    (folder / "=cmd|' -c calc'!A0").mkdir()
    (folder / "=cmd|' -c calc'!A0" / "hw.py").write_text("x = 1\n")
    out = tmp_path / "out"
    assert cli.main([str(folder), "--chapter", CHAPTER, "--out", str(out), "--quiet", "--timeout", "5"]) == 0
    rows = _rows(out)
    assert len(rows) == len(names) + 1
    for row in rows:
        for key in ("submission", "student", "status", "messages"):
            assert not row[key].startswith(cli.FORMULA_START), row
        for key, value in row.items():
            if key in ("score", "max_score") or key.startswith("3."):
                float(value)  # a plain number, no apostrophe
    subs = {r["submission"] for r in rows}
    assert {"'" + n for n in names[:-1]} | {"'\\rCR.py", "'=cmd|' -c calc'!A0/hw.py"} == subs
    assert {r["score"] for r in rows if r["submission"] != "'=cmd|' -c calc'!A0/hw.py"} == {"29"}

    chapter = load_chapter(CHAPTER)
    report = {"submission": "a.py", "student": "a", "status": "graded", "score": 1.5, "max_score": 29.0,
              "exercises": [], "messages": ["-2+3 looks like a formula", "second"]}
    row = next(csv.DictReader(io.StringIO(cli.gradebook_csv([report], chapter))))
    assert row["messages"] == "'-2+3 looks like a formula | second"
    assert row["score"] == "1.5" and row["max_score"] == "29"


# --------------------------------------------------------------------------
# 5. A grader failure is not a grade
# --------------------------------------------------------------------------

@pytest.fixture
def broken_sandbox_python(monkeypatch):
    real = sandbox.python_paths

    def broken(with_lib: bool = True):
        paths = real(with_lib)
        return dict(paths, python="/nonexistent/bin/python3")

    monkeypatch.setattr(sandbox, "python_paths", broken)


def test_sandbox_python_that_cannot_start_is_a_grader_error(tmp_path, broken_sandbox_python, capsys):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "a.py").write_text(SOLUTIONS_TEXT)
    (folder / "b.py").write_text("x = 1\n")
    (folder / "notes.txt").write_text("unreadable as before")
    out = tmp_path / "out"
    code = cli.main([str(folder), "--chapter", CHAPTER, "--out", str(out), "--quiet", "--timeout", "5"])
    assert code == cli.EXIT_GRADER_ERROR != 0
    err = capsys.readouterr().err
    assert "GRADER ERROR" in err and "2 of 3 submission(s) were NOT graded" in err
    rows = {r["submission"]: r for r in _rows(out)}
    for name in ("a.py", "b.py"):
        row = rows[name]
        assert row["status"] == "error" and row["score"] == "0"
        assert "not the student's fault" in row["messages"] and "To fix:" in row["messages"]
        assert "/nonexistent/bin/python3" in row["messages"]
        assert "Traceback" not in row["messages"]
        report = json.loads((out / f"{name}.json").read_text())
        assert all(e["feedback"] == core.NOT_GRADED_ERROR for e in report["exercises"])
    assert rows["notes.txt"]["status"] == "unreadable"


def test_grader_error_on_gradescope_says_tell_your_instructor(tmp_path, broken_sandbox_python):
    sub = tmp_path / "s.py"
    sub.write_text(SOLUTIONS_TEXT)
    results = tmp_path / "results.json"
    code = cli.main([str(sub), "--chapter", CHAPTER, "--out", str(tmp_path / "o"), "--quiet",
                     "--gradescope-results", str(results)])
    assert code == cli.EXIT_GRADER_ERROR
    res = json.loads(results.read_text())
    assert res["output"] == GRADER_FAILED and "tell your instructor" in res["output"]
    assert res["tests"] == [] and "Traceback" not in results.read_text()


def test_reference_solutions_that_fail_are_a_grader_error(tmp_path):
    private = tmp_path / "private"
    private.mkdir()
    (private / f"{CHAPTER}.py").write_text(SOLUTIONS_TEXT + "\ndef inertia_between_points(I_a, m, c, a, b):\n    raise ValueError('bug')\n")
    sub = tmp_path / "s.py"
    sub.write_text(SOLUTIONS_TEXT)
    out = tmp_path / "o"
    code = cli.main([str(sub), "--chapter", CHAPTER, "--out", str(out), "--quiet", "--solutions", str(private)])
    assert code == cli.EXIT_GRADER_ERROR
    row = _rows(out)[0]
    assert row["status"] == "error" and "reference solution fails on inertia_between_points" in row["messages"]
