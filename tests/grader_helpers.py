"""Shared helpers for tests/test_grader*.py (not a test module)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import jupytext

from conftest import JUPYTEXT_HEADER
from grader.sandbox import Limits

REPO = Path(__file__).resolve().parent.parent
SUBMISSIONS = Path(__file__).resolve().parent / "submissions"
CHAPTER = "rigid_body_dynamics"
SOLUTIONS_TEXT = (REPO / "solutions" / f"{CHAPTER}.py").read_text()


def stub_source(chapter: str = CHAPTER) -> str:
    """The untouched exercise notebook's code cells as one Python source."""
    nb = jupytext.read(REPO / "exercises" / f"{chapter}.md")
    return "\n\n".join(c.source for c in nb.cells if c.cell_type == "code") + "\n"


def small_limits() -> Limits:
    """Short limits so the hostile submissions finish quickly in tests."""
    return Limits(cell_timeout=8.0, exercise_timeout=3.0, startup_timeout=30.0, total_timeout=90.0,
                  memory_mb=1024, cpu_seconds=30, output_kb=16)


def parse_header(path: Path) -> dict:
    """Read the '# base:', '# expected-...' header of a tests/submissions file."""
    info = {"base": "none", "score": None, "exercises": {}, "feedback": []}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        m = re.match(r"#\s*base:\s*(\w+)", line)
        if m:
            info["base"] = m.group(1)
        m = re.match(r"#\s*expected-score:\s*([\d.]+)", line)
        if m:
            info["score"] = float(m.group(1))
        m = re.match(r"#\s*expected-exercise:\s*(\w+)=([\d.]+)", line)
        if m:
            info["exercises"][m.group(1)] = float(m.group(2))
        m = re.match(r"#\s*expected-feedback:\s*(\w+):\s*(.+)", line)
        if m:
            info["feedback"].append((m.group(1), m.group(2).strip()))
    return info


def build_submission(path: Path, out_dir: Path) -> Path:
    """base + tail, written as a .py submission in out_dir."""
    info = parse_header(path)
    base = {"solutions": SOLUTIONS_TEXT, "stubs": stub_source(), "none": ""}[info["base"]]
    target = out_dir / (path.stem + ".py")
    target.write_text(base + "\n\n" + path.read_text())
    return target


def install_bundle(root: Path, python: str, chapter: str = CHAPTER) -> dict:
    """Unpack the Gradescope bundle under ``root`` as Gradescope does and run its setup.sh.

    ``python`` stands in for the image's ``python3`` (setup.sh makes a fresh
    venv with it; pip's cache makes repeated runs quick). Returns the
    environment that points setup.sh and run_autograder at ``root``.

    Here pip installs without byte-compiling (``PIP_COMPILE=0``): compiling
    every file of scipy and sympy took about 12 of the 22 CPU seconds of an
    install, for three installs per suite, and grading uses a few hundred of
    those thousands of modules. setup.sh's last line (numpy, scipy, sympy,
    jupytext) and the first grading, both as root, write the bytecode of what
    grading imports, as on Gradescope, where nothing sets
    ``PYTHONDONTWRITEBYTECODE`` (so it is not passed on from the suite's
    environment); the sandbox user only reads it. Graded this way, the
    attack class gets the same score for every file and exercise as from a
    fully compiled install.
    """
    from grader.gradescope import make_bundle
    from grader.spec import load_chapter

    ag = root / "autograder"
    (ag / "source").mkdir(parents=True)
    (ag / "submission").mkdir()
    with zipfile.ZipFile(make_bundle(load_chapter(chapter), root / "autograder.zip")) as zf:
        zf.extractall(ag / "source")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")}
    env.update(GRADER_AUTOGRADER_DIR=str(ag), GRADER_PUBLIC_DIR=str(root / "public"), GRADER_PYTHON=python,
               GRADER_SKIP_APT="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    # PIP_COMPILE=0, not PIP_NO_COMPILE=1: pip reads either variable as the value of its
    # `compile` setting, so PIP_NO_COMPILE=1 would turn compiling on.
    proc = subprocess.run(["bash", str(ag / "source" / "setup.sh")], env=dict(env, PIP_COMPILE="0"),
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return env


# --------------------------------------------------------------------------
# Hostile files that are not a .py tail (tests/submissions/*.txt cannot hold them)
# --------------------------------------------------------------------------

@dataclass
class Special:
    """One hostile entry of the attack suite's class folder and its exact expected row."""

    id: str                          # test id
    path: str                        # where it goes, relative to the class folder
    make: Callable[[Path], None]     # creates it at that path
    status: str                      # expected status
    score: float                     # expected score
    key: str | None = None           # the report's `submission` (default: path)
    contains: list = field(default_factory=list)   # text that must be in the report (messages/feedback)
    absent: list = field(default_factory=list)     # text that must not be in it

    @property
    def report_key(self) -> str:
        return self.key or self.path


SPECIALS: list[Special] = []


def build_specials(folder: Path) -> None:
    for sp in SPECIALS:
        target = folder / sp.path
        target.parent.mkdir(parents=True, exist_ok=True)
        sp.make(target)


def _nested_notebook(path: Path) -> None:
    path.write_text('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}")


SPECIALS.append(Special("nested_notebook", "nested_notebook.ipynb", _nested_notebook, "unreadable", 0.0,
                        contains=["nested far too deeply"]))


def _many_empty_cells(path: Path) -> None:
    """150 000 empty code cells (just under 5 MB), then the solutions in one cell."""
    empty = '{"cell_type":"code","source":""},'
    last = json.dumps({"cell_type": "code", "source": SOLUTIONS_TEXT})
    path.write_text('{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[' + empty * 150_000 + last + "]}")


SPECIALS.append(Special("many_empty_cells", "many_empty_cells.ipynb", _many_empty_cells, "graded", 29.0,
                        absent=["too much data", "GRADER ERROR", "skipped"]))


def _many_pass_cells(path: Path) -> None:
    """60 000 cells that each run (``pass``), then the solutions: not "too much data"."""
    cell = '{"cell_type":"code","source":"pass"},'
    last = json.dumps({"cell_type": "code", "source": SOLUTIONS_TEXT})
    path.write_text('{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[' + cell * 60_000 + last + "]}")


SPECIALS.append(Special("many_pass_cells", "many_pass_cells.ipynb", _many_pass_cells, "graded", 29.0,
                        absent=["too much data", "GRADER ERROR", "skipped"]))


#: 600 bytes of YAML that expand to 9**9 strings: a "billion laughs".
YAML_BOMB = "\n".join(['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
                      + [f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]"
                         for p, c in zip("abcdefgh", "bcdefghi")])
MYST_HEADER = JUPYTEXT_HEADER  # a MyST notebook's header, as the tests' tiny books write it


def _myst(code: str, options: str = "") -> str:
    return f"# Answers\n\n```{{code-cell}} ipython3\n{options}{code}\n```\n"


def _yaml_bomb_front_matter(path: Path) -> None:
    path.write_text("---\n" + YAML_BOMB + "\n---\n" + _myst(SOLUTIONS_TEXT))


def _yaml_bomb_cell_options(path: Path) -> None:
    path.write_text(MYST_HEADER + _myst(SOLUTIONS_TEXT, "---\n" + YAML_BOMB + "\n---\n"))


def _pandoc_div(path: Path) -> None:
    path.write_text("# My answers\n\n::: note\nA Pandoc-style div.\n:::\n\n```python\n" + SOLUTIONS_TEXT + "\n```\n")


def _header_asks_for_pandoc(path: Path) -> None:
    path.write_text(MYST_HEADER.replace("format_name: myst", "format_name: pandoc") + _myst(SOLUTIONS_TEXT))


SPECIALS.append(Special("yaml_bomb_front_matter", "yaml_bomb_front_matter.md", _yaml_bomb_front_matter,
                        "graded", 29.0))
SPECIALS.append(Special("yaml_bomb_cell_options", "yaml_bomb_cell_options.md", _yaml_bomb_cell_options,
                        "unreadable", 0.0, contains=["YAML aliases (*name) are not accepted"]))
SPECIALS.append(Special("pandoc_div_in_plain_markdown", "pandoc_div.md", _pandoc_div, "graded", 29.0,
                        absent=["could not be read", "was not found"]))
SPECIALS.append(Special("myst_header_asks_for_pandoc", "header_pandoc.md", _header_asks_for_pandoc,
                        "graded", 29.0, absent=["could not be read", "was not found"]))


def _solutions(path: Path) -> None:
    path.write_text(SOLUTIONS_TEXT)


def _stubs(path: Path) -> None:
    path.write_text(stub_source())


#: 80 CJK characters: a 243-byte file name (the limit is 255).
LONG_NAME = "\u5b66" * 40 + "\u751f" * 40 + ".py"
SPECIALS.append(Special("long_cjk_name", LONG_NAME, _solutions, "graded", 29.0))
# Two students whose reports would both be zed__hw.py.json: neither is overwritten.
SPECIALS.append(Special("folder_zed_hw", "zed/hw.py", _solutions, "graded", 29.0))
SPECIALS.append(Special("file_zed__hw", "zed__hw.py", _stubs, "graded", 0.0))
SPECIALS.append(Special("fifo", "fifo.py", lambda p: os.mkfifo(p), "unreadable", 0.0,
                        contains=["FIFO"]))
SPECIALS.append(Special("link_to_dev_stdin", "stdin.py", lambda p: p.symlink_to("/dev/stdin"), "unreadable", 0.0,
                        contains=["symbolic link"]))
SPECIALS.append(Special("link_to_etc_passwd", "passwd.py", lambda p: p.symlink_to("/etc/passwd"), "unreadable",
                        0.0, contains=["symbolic link"]))


#: A student's module named like a library the grader imports: never imported by the trusted process.
SHADOW_MODULE = (
    "import os\n"
    "open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'IMPORTED_BY_GRADER'), 'w').write('x')\n"
    "raise ImportError('a submission was imported by the grader')\n"
)
SHADOWS = ("numpy.py", "jupytext.py", "yaml.py")
for _name in SHADOWS:
    SPECIALS.append(Special(f"shadow_{_name[:-3]}", _name, lambda p: p.write_text(SHADOW_MODULE), "graded", 0.0))


#: A file name and printed output that try to rewrite the instructor's progress line.
ESCAPE_NAME = "\x1b[2K\rfake 18 of 18\x9b31m\u202e.py"
ESCAPE_OUTPUT = (
    "import sys\n"
    "print('\\x1b[2J\\x1b[H all 18 / 18 \\r\\x00\\x9b0m')\n"
    "def inertia_between_points(inertia_a, mass, com, a, b):\n"
    "    raise ValueError('\\x1b[32mPASSED\\x1b[0m \\r\\x00 \\x9b2K')\n"
)
SPECIALS.append(Special("escape_sequences_in_name_and_output", ESCAPE_NAME, lambda p: p.write_text(ESCAPE_OUTPUT),
                        "graded", 0.0, key="\x1b[2K\rfake 18 of 18\\x9b31m\\u202e.py",
                        contains=["PASSED"]))
#: What must never reach the terminal or the gradebook raw.
RAW_CONTROLS = ("\x1b", "\x00", "\x9b", "\u202e", "\r")
