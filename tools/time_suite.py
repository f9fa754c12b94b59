"""Time the test suite by stage on a clean clone: install, book build, unit tests, browser tests.

Usage::

    python3 tools/time_suite.py [--keep DIR]

It clones this repository's committed HEAD into a temporary folder (with the
``shared`` folder linked beside it, as CI has it), then times

* **install**: ``make install-test`` (a fresh ``.venv``; uv, which installs the
  packages (Makefile), uses its download cache if this machine has one, so a
  first-ever install is slower);
* **the whole suite**: ``pytest -n 2`` as ``make test`` runs it, with a JUnit
  report, from which the per-stage times are read:

  - **build**: the one book build the suite shares (its own timer,
    ``book-build.json`` in pytest's run folder), made in the background while
    the unit tests run (tests/conftest.py);
  - **browser and book tests**: the tests marked ``browser`` or ``book``
    (they run after the unit tests, on both workers);
  - **unit tests**: everything else (spread over both workers).

The stage times of the tests are sums of the tests' own durations; the
suite's wall time is about half their total, because two workers run side by
side. Prints a Markdown table for README's "How fast it is".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: What ``--dist loadgroup`` appends to the node id of a test in an xdist group.
#: (JUnit writes a parametrised one as ``test[p]@group]``.)
GROUP_SUFFIX = re.compile(r"@[\w.-]+\]?$")


def _run(command: list[str], cwd: Path, env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True)
    return time.perf_counter() - start


def _marked(clone: Path, python: Path, expression: str) -> set[str]:
    """Node ids of the tests selected by a marker expression."""
    out = subprocess.run(
        [str(python), "-m", "pytest", "--collect-only", "-q", "-m", expression, "-p", "no:randomly"],
        cwd=clone, capture_output=True, text=True, check=False,
    ).stdout
    return {line.strip() for line in out.splitlines() if "::" in line}


def _durations(junit: Path) -> dict[str, float]:
    """Each test's time (set-up, call and tear-down) by "<module>::<test name>"
    (without the ``@<group>`` that an xdist group's tests carry)."""
    return {
        f"{case.get('classname')}::{GROUP_SUFFIX.sub('', case.get('name'))}": float(case.get("time", 0.0))
        for case in ET.parse(junit).getroot().iter("testcase")
    }


def _node_to_junit(nodeid: str) -> str:
    """``tests/test_x.py::test_y[p]`` as JUnit names it: ``tests.test_x::test_y[p]``
    (a test in a class: ``tests.test_x.TestC::test_y``)."""
    path, _, rest = nodeid.partition("::")
    module = path[:-3].replace("/", ".") if path.endswith(".py") else path
    function, bracket, params = rest.partition("[")
    *classes, name = function.split("::")
    return f"{'.'.join([module, *classes])}::{name}{bracket}{params}"


def _function(key: str) -> str:
    """The test function of a key, without its parameters."""
    return key.split("[", 1)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="clone into this folder and keep it")
    args = parser.parse_args()

    work = args.keep or Path(tempfile.mkdtemp(prefix="time-suite-"))
    clone = work / "main"
    if clone.exists():
        shutil.rmtree(clone)
    clone.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    shared = REPO.parent / "shared"
    if not (work / "shared").exists():
        (work / "shared").symlink_to(shared)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    load_before = os.getloadavg()[0]

    install = _run(["make", "install-test"], clone, env)
    python = clone / ".venv" / "bin" / "python"
    slow = {_node_to_junit(n) for n in _marked(clone, python, "book or browser")}
    junit = work / "junit.xml"
    basetemp_root = work / "pytest-tmp"
    suite = _run(
        [str(python), "-m", "pytest", "-n", "2", "-q", f"--junitxml={junit}",
         f"--basetemp={basetemp_root}"],
        clone, env,
    )
    durations = _durations(junit)
    slow_functions = {_function(key) for key in slow}
    browser = sum(t for key, t in durations.items() if _function(key) in slow_functions)
    unit = sum(durations.values()) - browser
    build_record = json.loads((basetemp_root / "book-build.json").read_text())
    load_after = os.getloadavg()[0]

    print()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone,
                          capture_output=True, text=True).stdout.strip()
    print(f"clean clone of {head}, load average {load_before:.1f} before and "
          f"{load_after:.1f} after, {os.cpu_count()} cores")
    print("| stage | measured |")
    print("| --- | --- |")
    print(f"| install (`make install-test`, package cache warm) | {install:.0f} s |")
    print(f"| book build inside the suite (chapters executed in parallel, beside the unit tests) "
          f"| {build_record['seconds']:.0f} s |")
    # The build runs in the background: a book test's time holds only what it waited for it.
    print(f"| book and browser tests (sum of test times, with any wait for the build) | {browser:.0f} s |")
    print(f"| unit tests (sum of test times, both workers) | {unit:.0f} s |")
    print(f"| whole suite, wall time (`pytest -n 2`, {len(durations)} tests) | {suite:.0f} s |")
    print(f"| install + suite | {install + suite:.0f} s |")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
