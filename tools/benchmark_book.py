#!/usr/bin/env python
"""How long the book takes to build, and each chapter to execute.

Prints:

1. the cold full build time (an empty output folder: every notebook executes),
   with the chapters executed one at a time and ``--jobs`` at a time
   (``tools/build_book.py``), side by side in one run;
2. the cached rebuild time with no change (same folder, execution cache hit);
3. each chapter's execution time, from the build log ("Executed notebook in X
   seconds") and from the jupyter-cache records that myst-nb writes
   (``execution_seconds``).

Usage: ``.venv/bin/python tools/benchmark_book.py [--jobs N] [--output DIR] [--keep]``
(``make benchmark``). The default output folder is ``_build/benchmark``; it is
removed afterwards unless ``--keep`` is given or the build failed. Timing is wall-clock on this
machine; run it on an otherwise idle machine and compare runs, not machines.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD_BOOK = ROOT / "tools" / "build_book.py"
EXECUTED = re.compile(r"^(?P<path>\S+?\.(?:md|ipynb)): Executed notebook in (?P<seconds>[0-9.]+) seconds")
FAILED = re.compile(r"^(?P<path>\S+?\.(?:md|ipynb)): WARNING: Executing notebook failed")
CACHED = re.compile(r"^(?P<path>\S+?\.(?:md|ipynb)): Using cached notebook")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def build(output: Path, jobs: int = 1) -> tuple[float, int, str]:
    command = [sys.executable, str(BUILD_BOOK), "--jobs", str(jobs), "build", str(ROOT), "--warningiserror", "--keep-going", "--path-output", str(output)]
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # kernels use inline
    env["NO_COLOR"] = "1"
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return time.perf_counter() - start, proc.returncode, ANSI.sub("", proc.stdout)


def relative(path: str) -> str:
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path


def chapter_times(log: str) -> dict[str, str]:
    times: dict[str, str] = {}
    for line in log.splitlines():
        if match := EXECUTED.match(line):
            times[relative(match["path"])] = f"{float(match['seconds']):8.2f} s"
        elif match := FAILED.match(line):
            times[relative(match["path"])] = "  FAILED (see the build log)"
        elif match := CACHED.match(line):
            times.setdefault(relative(match["path"]), "  (cache: same code as another page)")
    return times


def cache_times(output: Path) -> dict[str, float]:
    from jupyter_cache import get_cache

    cache_path = output / "_build" / ".jupyter_cache"
    if not cache_path.exists():
        return {}
    records = get_cache(str(cache_path)).list_cache_records()
    return {relative(r.uri): float((r.data or {}).get("execution_seconds") or 0.0) for r in records}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "_build" / "benchmark")
    parser.add_argument("--keep", action="store_true", help="keep the output folder")
    parser.add_argument("--jobs", type=int, default=2, help="chapters at once in the parallel build")
    args = parser.parse_args()
    output = args.output.resolve()
    if output.exists():
        shutil.rmtree(output)
    output.mkdir(parents=True)

    serial, serial_rc, serial_log = build(output, jobs=1)
    (output / "serial-build.log").write_text(serial_log)
    shutil.rmtree(output)
    output.mkdir(parents=True)
    cold, cold_rc, cold_log = build(output, jobs=args.jobs)
    (output / "cold-build.log").write_text(cold_log)
    warm, warm_rc, warm_log = build(output, jobs=args.jobs)
    (output / "cached-build.log").write_text(warm_log)

    print(f"cold full build, one chapter at a time: {serial:7.1f} s  (exit {serial_rc})")
    print(f"cold full build, --jobs {args.jobs}:              {cold:7.1f} s  (exit {cold_rc}, "
          f"{serial / cold:.2f}x faster)")
    print(f"cached rebuild, no change:           {warm:7.1f} s  (exit {warm_rc})")
    reexecuted = [relative(m["path"]) for m in map(EXECUTED.match, warm_log.splitlines()) if m]
    print(f"notebooks re-executed by the cached rebuild: {reexecuted or 'none'}")
    if "lib/ changed: cleared the execution cache" in warm_log:
        print("  (lib/ changed between the two builds, so the cache was cleared: rerun when idle)")
    print()
    print("chapter execution time (the one-at-a-time build's log):")
    for path, seconds in chapter_times(serial_log).items():
        print(f"  {seconds}  {path}")
    records = cache_times(output)
    if records:
        print("jupyter-cache records after both builds (execution_seconds):")
        for path, seconds in sorted(records.items()):
            print(f"  {seconds:8.2f} s  {path}")
    if serial_rc or cold_rc or warm_rc:
        print(f"\nthe build reported problems: see {output}/cold-build.log", file=sys.stderr)
    failed = serial_rc or cold_rc or warm_rc
    if not args.keep and not failed:
        shutil.rmtree(output)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
