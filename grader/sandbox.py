"""Start the student's process in a sandbox and read what it sends back.

Modes (``--sandbox``):

``namespace``  (root) fresh mount, network and PID namespaces (``unshare``);
               every top-level directory except the system ones is hidden
               behind an empty read-only tmpfs, only the Python installation,
               the venv and the public ``lib`` package are mounted back
               (read-only); solutions, private solutions, the output and
               submissions folders are hidden; then the process drops to an
               unprivileged uid with ``no_new_privs``. Killing the namespace's
               first process kills everything the submission started.
``userns``     (not root) the same inside an unprivileged user namespace
               (``unshare --map-root-user``); no uid change is possible there.
``setuid``     (root, namespaces unavailable, e.g. some Docker set-ups) only
               the privilege drop: the hidden paths must not be readable by
               other users (the grader refuses otherwise).
``none``       no isolation at all; only for trusted code, prints a warning.

``auto`` picks the first that works, in that order (``none`` never).
Resource limits in every mode: address space, CPU seconds, file size,
number of processes, no core files, open files; plus wall-clock limits and a
cap on the bytes read from the process's output.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

_HERE = Path(__file__).resolve().parent
RUNNER_SOURCE = (_HERE / "runner.py").read_text()
JAIL_SOURCE = (_HERE / "_jail.py").read_text()

#: First uid used for sandboxed processes; one uid per grading slot so that
#: RLIMIT_NPROC of one submission never blocks another.
SANDBOX_UID_BASE = 61000
SANDBOX_UID_SLOTS = 999  # 61000-61998: gid 61999 is the Gradescope lib group (setup.sh)


class SandboxUnavailable(RuntimeError):
    """No isolation mode works here; the message says what to do."""


@dataclass
class Limits:
    """Per-child resource limits (see README, "Limits")."""

    cell_timeout: float = 10.0      # wall seconds per notebook cell
    exercise_timeout: float = 10.0  # wall seconds per exercise (all its cases)
    startup_timeout: float = 30.0   # wall seconds until the runner is ready
    total_timeout: float = 120.0    # wall seconds for one submission, all restarts
    memory_mb: int = 1024           # RLIMIT_AS
    cpu_seconds: int = 60           # RLIMIT_CPU per child
    file_mb: int = 16               # RLIMIT_FSIZE
    nproc: int = 32                 # RLIMIT_NPROC (per sandbox uid; no new task can start anyway, _jail.py)
    output_kb: int = 32             # printed output kept for the report
    result_mb: int = 16             # bytes accepted on the result channel
    tmp_mb: int = 64                # size of the private /tmp


@dataclass
class ChildOutcome:
    events: list = field(default_factory=list)   # the "ev" of every accepted message, in order
    status: str = "done"            # done | timeout | crashed | too_much_data | protocol | failed_to_start
    phase: tuple = ("startup",)     # where it stopped: ("startup",) ("cell", i) ("exercise", k)
    returncode: int | None = None
    output: str = ""
    output_bytes: int = 0
    detail: str = ""


def _run_quiet(cmd):
    try:
        return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


_MODE_CACHE: dict = {}


def _unshare_cmd(user_ns: bool) -> list[str]:
    exe = shutil.which("unshare") or "/usr/bin/unshare"
    cmd = [exe]
    if user_ns:
        cmd += ["--user", "--map-root-user"]
    return cmd + ["--mount", "--net", "--pid", "--fork", "--kill-child", "--mount-proc", "--propagation", "private"]


def detect_mode(requested: str = "auto") -> str:
    """Resolve ``auto`` to a working sandbox mode; raise SandboxUnavailable."""
    if requested in _MODE_CACHE:
        return _MODE_CACHE[requested]
    root = os.geteuid() == 0
    mode = None
    if requested == "none":
        print("WARNING: grading WITHOUT a sandbox (--sandbox none): submissions can read "
              "the solutions and anything else this user can read.", file=sys.stderr)
        mode = "none"
    elif requested in ("auto", "namespace") and root and _run_quiet(_unshare_cmd(False) + ["true"]):
        mode = "namespace"
    elif (requested == "userns" or (requested == "auto" and not root)) and _run_quiet(_unshare_cmd(True) + ["true"]):
        mode = "userns"
    elif requested in ("auto", "setuid") and root:
        mode = "setuid"
    if mode is None:
        raise SandboxUnavailable(
            f"sandbox mode {requested!r} is not available (running as uid {os.geteuid()}). "
            "Grade as root (namespaces or uid drop), enable unprivileged user namespaces, "
            "or pass --sandbox none for trusted code only."
        )
    _MODE_CACHE[requested] = mode
    return mode


_uid_lock = threading.Lock()
_uids_in_use: set = set()


#: Lock files that reserve a sandbox uid across processes. Two grader processes
#: on one machine (two courses, two test workers, --jobs in separate runs) must
#: never share a uid: ending a child kills every process of its uid.
_UID_LOCK_DIR = os.path.join(tempfile.gettempdir(), f"grader-sandbox-uids-{os.geteuid()}")
_uid_lock_fds: dict = {}


def _uid_lock_dir() -> str | None:
    """The lock folder, if it is ours and private (never follow another user's)."""
    try:
        os.mkdir(_UID_LOCK_DIR, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(_UID_LOCK_DIR)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
        return None
    return _UID_LOCK_DIR


def _reserve_across_processes(uid: int) -> bool:
    folder = _uid_lock_dir()
    if folder is None:
        return True  # no private lock folder: uniqueness within this process only
    try:
        fd = os.open(os.path.join(folder, str(uid)),
                     os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False  # another grader process holds this uid
    _uid_lock_fds[uid] = fd
    return True


def _acquire_uid() -> int:
    with _uid_lock:
        for i in range(SANDBOX_UID_SLOTS):
            uid = SANDBOX_UID_BASE + (os.getpid() * 7 + i) % SANDBOX_UID_SLOTS
            if uid not in _uids_in_use and _reserve_across_processes(uid):
                _uids_in_use.add(uid)
                return uid
    raise RuntimeError("no free sandbox uid")


def _release_uid(uid: int) -> None:
    with _uid_lock:
        _uids_in_use.discard(uid)
        fd = _uid_lock_fds.pop(uid, None)
        if fd is not None:
            os.close(fd)  # closing releases the lock


def _reachable_by_others(path: str, uid: int) -> bool:
    """Could ``uid`` (not the owner, no groups) read ``path``? False if a folder above it bars the way."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return False
    if st.st_uid == uid:
        return True
    if st.st_mode & (stat.S_IROTH | stat.S_IXOTH if stat.S_ISDIR(st.st_mode) else stat.S_IROTH) == 0:
        return False
    parent = os.path.dirname(real)
    while True:
        try:
            pst = os.stat(parent)
        except OSError:
            return False
        if pst.st_uid != uid and not pst.st_mode & stat.S_IXOTH:
            return False  # others cannot pass this folder
        if parent == os.path.dirname(parent):
            return True
        parent = os.path.dirname(parent)


def _check_hidden_by_permissions(paths, uid):
    """In setuid mode: refuse if the sandbox uid could read a hidden path.

    A path is protected when it is not readable by other users *or* a folder
    above it cannot be entered by them (``chmod o-rwx`` on the submissions
    folder protects every student folder inside it, whatever their own modes).
    """
    for p in paths:
        if _reachable_by_others(p, uid):
            raise SandboxUnavailable(
                f"--sandbox setuid: {p} is readable by other users; "
                f"run `chmod -R o-rwx {p}` first (or use a machine where unshare works)"
            )


def python_paths(with_lib: bool = True) -> dict:
    """What the child needs to import numpy, scipy, sympy and lib (and nothing else).

    Real paths throughout (a venv or a folder may be a symlink into a hidden
    directory): the base interpreter runs the child with ``-I -S`` and gets
    the venv's site-packages and the folder holding ``lib`` on ``sys.path``.
    ``with_lib=False`` (exercises graded without ``lib``): the folder is
    neither mounted back nor on ``sys.path``; ``lib_dir`` says where it is.
    """
    import sysconfig

    import lib  # the public package

    real = os.path.realpath
    lib_dir = real(os.path.dirname(lib.__file__))
    site = []
    for key in ("purelib", "platlib"):
        path = real(sysconfig.get_paths()[key])
        if path not in site and os.path.isdir(path):
            site.append(path)
    # Of the venv, only the packages graded code may import are mounted back (namespace modes):
    # removing the child's import guard finds nothing more (README, "What a submission may import").
    packages = [os.path.join(path, entry) for path in site for entry in sorted(os.listdir(path))
                if _allowed_entry(entry)]
    if not with_lib:
        keep = sorted({real(sys.base_prefix), *packages})
        return {"sys_path": list(site), "keep": keep, "python": real(sys.executable), "lib_dir": lib_dir}
    keep = sorted({real(sys.base_prefix), lib_dir, *packages})
    return {"sys_path": site + [os.path.dirname(lib_dir)], "keep": keep, "python": real(sys.executable),
            "lib_dir": lib_dir}


def _allowed_entry(entry: str) -> bool:
    """A site-packages entry of an allowed package: ``numpy``, ``numpy.libs``, ``scipy-1.17.1.dist-info`` ..."""
    from . import runner

    top = entry.split("-", 1)[0].split(".", 1)[0]
    return top in runner.ALLOWED_PACKAGES or top in runner.ALLOWED_DEPENDENCIES


def lib_groups(mode: str, lib_dir: str, with_lib: bool) -> list[int]:
    """Supplementary groups of the setuid child: the group that may read ``lib``, or none.

    Without namespaces nothing but permissions keeps ``lib`` from a child.
    When ``lib`` is readable only by its owner and group (``chmod -R o-rwx``,
    as Gradescope's setup.sh leaves it), a child that may use it gets that
    group; a child grading an exercise without ``lib`` does not, and cannot
    read it. A world-readable ``lib`` cannot be hidden from one child, so
    grading such an exercise is refused, saying what to change.
    """
    if mode != "setuid":
        return []
    st = os.stat(lib_dir)
    world = bool(st.st_mode & stat.S_IROTH)
    if with_lib:
        return [] if world else [st.st_gid]
    if world:
        raise SandboxUnavailable(
            f"--sandbox setuid: {lib_dir} is readable by every user, so it cannot be hidden from the "
            "exercises graded without lib; run `chgrp -R <a free gid> {lib_dir} && chmod -R g+rX,o-rwx "
            f"{lib_dir}` (Gradescope's setup.sh does this)"
        )
    return []


def _count_processes(uid: int) -> int:
    """Processes and threads of ``uid`` now (what RLIMIT_NPROC counts)."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as fh:
                fields = dict(line.split(":", 1) for line in fh if ":" in line)
            if int(fields["Uid"].split()[0]) == uid:
                count += int(fields.get("Threads", "1"))
        except (OSError, ValueError, KeyError):
            continue
    return count


def build_command(mode: str, limits: Limits, hide: list[str], workdir: str, uid: int | None,
                  with_lib: bool = True):
    paths = python_paths(with_lib)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": workdir,
        "LANG": "C.UTF-8",
        "TMPDIR": workdir if mode in ("namespace", "userns") else workdir,
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
    }
    rl = {
        "RLIMIT_AS": limits.memory_mb * 1024 * 1024,
        "RLIMIT_CPU": int(limits.cpu_seconds),
        "RLIMIT_FSIZE": limits.file_mb * 1024 * 1024,
        "RLIMIT_CORE": 0,
        "RLIMIT_NOFILE": 256,
    }
    if uid is not None:
        rl["RLIMIT_NPROC"] = limits.nproc
    elif mode == "userns":
        # The count is per real user (the instructor's own processes too).
        rl["RLIMIT_NPROC"] = _count_processes(os.getuid()) + 2 * limits.nproc
    runner_argv = [paths["python"], "-I", "-S", "-c", RUNNER_SOURCE]
    cfg = {
        "namespace": mode in ("namespace", "userns"),
        "hide_top": True,
        "keep": paths["keep"],
        "hide": hide,
        "uid": uid,
        "gid": uid,
        "groups": lib_groups(mode, paths["lib_dir"], with_lib) if uid is not None else [],
        "workdir": workdir,
        "limits": rl,
        "tmp_mb": limits.tmp_mb,
        "env": env,
        # One thread of one process (a seccomp filter): what the submission writes to the result
        # channel, forged messages included, comes in program order on every run (README,
        # "Security model"). Not RLIMIT_NPROC 1: the previous child of this uid may still be exiting.
        "one_task": mode != "none",
    }
    if mode in ("namespace", "userns"):
        prefix = _unshare_cmd(mode == "userns")
    else:
        prefix = []
    return prefix, paths, cfg, runner_argv


class _Reader:
    """Collect the child's output (capped) and result lines (capped)."""

    def __init__(self, out_cap: int, result_cap: int, token: str):
        self.tag = token.encode() + b" "
        self.out = bytearray()
        self.out_bytes = 0
        self.out_cap = out_cap
        self.result_buf = bytearray()
        self.result_bytes = 0
        self.result_cap = result_cap
        self.lines: list = []

    def feed_out(self, data: bytes):
        self.out_bytes += len(data)
        room = self.out_cap - len(self.out)
        if room > 0:
            self.out += data[:room]

    def feed_result(self, data: bytes) -> bool:
        self.result_bytes += len(data)
        if self.result_bytes > self.result_cap:
            return False
        self.result_buf += data
        while True:
            nl = self.result_buf.find(b"\n")
            if nl < 0:
                break
            line = bytes(self.result_buf[:nl])
            del self.result_buf[: nl + 1]
            start = line.rfind(self.tag)
            if start < 0:
                continue  # not written by the runner: ignored
            body = line[start + len(self.tag):]
            if body.count(b"[") + body.count(b"{") > MAX_NESTING_BRACKETS and _too_deep(body):
                self.lines.append(ProtocolError("a message nested too deeply"))
                continue
            try:
                msg = json.loads(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError, MemoryError) as exc:
                # It carries the token: sent from inside the child, and it is not ours.
                self.lines.append(ProtocolError(f"a message that is not valid JSON ({type(exc).__name__})"))
                continue
            self.lines.append(msg if isinstance(msg, dict) else ProtocolError("a message that is not an object"))
        return True


#: Deepest nesting of JSON arrays/objects accepted from the child (results are at most 2-D arrays).
MAX_NESTING = 16
MAX_NESTING_BRACKETS = 64


def _too_deep(body: bytes) -> bool:
    """True if ``body`` (JSON text) nests arrays/objects deeper than :data:`MAX_NESTING`.

    Counts brackets outside strings in one pass, so the parser never recurses
    on what a submission sent.
    """
    depth, in_string, escaped = 0, False, False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class ProtocolError(Exception):
    """The child sent something the protocol does not allow: the submission's fault.

    Only code running inside the child can send a message with the token
    (the runner's own messages always validate), so the grader kills the
    child, scores what was earned before and says why.
    """


def run_child(payload: dict, *, mode: str, limits: Limits, hide: list[str], deadline: float,
              on_event, with_lib: bool = True) -> ChildOutcome:
    """Run one child on ``payload``; call ``on_event(msg)`` for each protocol message.

    ``on_event`` is the trusted side's state machine: it returns
    ``(phase, deadline)`` -- where the child is now (``("cell", i)``,
    ``("exercise", k)``, ``("done",)``) and the ``time.monotonic()`` instant by
    which the next message must arrive (None: keep the current one) -- or
    raises :class:`ProtocolError`; then the child is killed and the outcome's
    status is ``protocol`` (``detail`` says why). Deadlines are the caller's,
    on its own clock; nothing the child sends moves them except by advancing
    the state machine. Returns how the child ended.
    """
    uid = _acquire_uid() if mode in ("namespace", "setuid") else None
    tmp_root = None
    try:
        if mode in ("namespace", "userns"):
            workdir = "/tmp/work"
        else:
            tmp_root = tempfile.mkdtemp(prefix="grader-")
            os.chmod(tmp_root, 0o711)
            workdir = os.path.join(tmp_root, "work")
        if mode == "setuid":
            _check_hidden_by_permissions(hide, uid)
        prefix, paths, cfg, runner_argv = build_command(mode, limits, hide, workdir, uid, with_lib)
        rfd, wfd = os.pipe()
        runner_argv = runner_argv + [str(wfd)]
        cfg["argv"] = runner_argv
        token = secrets.token_hex(16)
        payload = dict(payload, sys_path=paths["sys_path"], token=token)
        cmd = prefix + [paths["python"], "-I", "-S", "-c", JAIL_SOURCE, json.dumps(cfg)]
        if mode == "none":
            cmd = runner_argv
        try:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=(wfd,),
                start_new_session=True,
                env=cfg["env"] if mode == "none" else {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                cwd="/" if mode != "none" else None,
            )
        except OSError as exc:
            os.close(rfd)
            os.close(wfd)
            return ChildOutcome(status="failed_to_start", detail=str(exc))
        os.close(wfd)
        return _drive(proc, rfd, payload, token, limits, deadline, on_event, uid if mode == "setuid" else None)
    finally:
        if uid is not None:
            _release_uid(uid)
        if tmp_root:
            shutil.rmtree(tmp_root, ignore_errors=True)


def _kill(proc, uid):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if uid is not None:
        # setuid mode: kill every process of the sandbox uid (escaped forks too).
        try:
            subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                            "kill", "-9", "-1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=10)
        except (OSError, subprocess.SubprocessError):
            pass


class _Channels:
    """The child's two pipes, read without blocking: the result channel and its stdout+stderr."""

    def __init__(self, rfd: int, out_fd: int):
        self.sel = selectors.DefaultSelector()
        os.set_blocking(rfd, False)
        os.set_blocking(out_fd, False)
        self.sel.register(rfd, selectors.EVENT_READ, "result")
        self.sel.register(out_fd, selectors.EVENT_READ, "out")
        self.open = 2

    def read_ready(self, reader: _Reader, timeout: float, results: bool = True) -> tuple[list, bool]:
        """Wait up to ``timeout`` s, then read one chunk from every pipe that has data.

        Printed output goes to ``reader.feed_out``; result bytes to
        ``reader.feed_result`` (dropped when ``results`` is False). A pipe at
        its end is closed. Returns the select's events and whether the result
        channel went over its cap (reading stops there).
        """
        events = self.sel.select(timeout=timeout)
        for key, _ in events:
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self.sel.unregister(key.fd)
                self.open -= 1
                continue
            if key.data == "out":
                reader.feed_out(chunk)
            elif results and not reader.feed_result(chunk):
                return events, True
        return events, False

    def drain_output(self, reader: _Reader, seconds: float) -> None:
        """Read the last output of a child that has said ``done``, until its pipes close (at most ``seconds``)."""
        end = time.monotonic() + seconds
        while self.open > 0 and time.monotonic() < end:
            self.read_ready(reader, 0.05, results=False)

    def close(self) -> None:
        self.sel.close()


def _send_payload(proc, payload: dict) -> None:
    """Write the payload to the child's stdin from a thread (a child that reads nothing cannot block us)."""
    data = json.dumps(payload).encode()

    def feed():
        try:
            proc.stdin.write(data)
            proc.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    threading.Thread(target=feed, daemon=True).start()


def _handle_messages(reader: _Reader, on_event, outcome: ChildOutcome, phase_deadline: float):
    """Pass the complete messages to ``on_event``; ``(finished, phase deadline)``.

    Finished when the child said ``done`` or broke the protocol (``outcome``
    says which); the deadline is the one the last accepted message set.
    """
    pending, reader.lines = reader.lines, []
    for msg in pending:
        try:
            if isinstance(msg, ProtocolError):
                raise msg
            phase, nxt = on_event(msg)
        except ProtocolError as exc:
            outcome.status = "protocol"
            outcome.detail = str(exc)
            return True, phase_deadline
        outcome.events.append(msg.get("ev"))
        outcome.phase = phase
        if nxt is not None:
            phase_deadline = nxt
        if phase == ("done",):
            outcome.status = "done"
            return True, phase_deadline
    return False, phase_deadline


def _child_gone(proc, channels: _Channels, events: list) -> bool:
    """The process ended (or closed every channel) and nothing is left to read in its pipes."""
    if channels.open == 0 or (proc.poll() is not None and not events):
        # The process may have written its last messages and exited after
        # this round's select timed out: its data is then still in the
        # pipes. Read on until they are empty before calling it a crash.
        return not (channels.open and channels.sel.select(timeout=0))
    return False


def _follow_child(proc, channels: _Channels, reader: _Reader, limits: Limits, deadline: float, on_event,
                  outcome: ChildOutcome) -> None:
    """Read the child until it is done, breaks a rule or a limit, or ends; ``outcome.status`` says which."""
    phase_deadline = time.monotonic() + limits.startup_timeout
    while True:
        now = time.monotonic()
        limit = min(phase_deadline, deadline)
        if now >= limit:
            outcome.status = "timeout"
            return
        events, overflow = channels.read_ready(reader, min(0.2, limit - now))
        if overflow:
            outcome.status = "too_much_data"
            return
        finished, phase_deadline = _handle_messages(reader, on_event, outcome, phase_deadline)
        if finished:
            return
        if _child_gone(proc, channels, events):
            # The process ended (or closed every channel) without "done".
            outcome.status = "crashed"
            return


def _drive(proc, rfd, payload, token, limits, deadline, on_event, kill_uid) -> ChildOutcome:
    """Send the payload, follow the child's messages and output, then end it; how it ended."""
    # The results, plus room for the per-cell messages (a notebook of many cells is not "too much data").
    cap = limits.result_mb * 1024 * 1024 + 512 * (len(payload.get("cells", ())) + len(payload.get("exercises", ())))
    reader = _Reader(limits.output_kb * 1024, cap, token)
    outcome = ChildOutcome()
    _send_payload(proc, payload)
    channels = _Channels(rfd, proc.stdout.fileno())
    try:
        _follow_child(proc, channels, reader, limits, deadline, on_event, outcome)
    finally:
        if outcome.status == "done":
            # The runner exits right after "done": collect its last output.
            channels.drain_output(reader, 2.0)
        _kill(proc, kill_uid)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        channels.close()
        os.close(rfd)
        proc.stdout.close()
    outcome.returncode = proc.returncode
    outcome.output = reader.out.decode("utf-8", "replace")
    outcome.output_bytes = reader.out_bytes
    return outcome


def describe_returncode(code) -> str:
    if code is None:
        return "did not finish"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hints = {"SIGKILL": " (killed: time, memory or process limit)", "SIGXCPU": " (CPU time limit)",
                 "SIGSEGV": " (crashed)", "SIGXFSZ": " (file size limit)"}
        return f"was ended by {name}{hints.get(name, '')}"
    return f"exited with status {code}"
