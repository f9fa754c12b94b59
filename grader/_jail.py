"""Stage between the grader and the student's process: isolate, drop privileges, exec.

Its source is passed to ``python -I -S -c`` (standard library only). It runs
either inside fresh mount/network/PID namespaces made by ``unshare`` (as root,
or as the mapped root of a user namespace) or directly (``setuid`` mode). The
configuration is one JSON argument:

``hide_top``    hide every top-level directory except the system ones
``keep``        directories made visible again (read-only): the venv, the
                Python installation, the public ``lib`` package
``hide``        further paths to hide (solutions, private solutions, output
                folder, submissions folder), applied last
``uid``/``gid`` the unprivileged ids to run as (``None``: keep)
``limits``      resource limits, ``workdir``, ``tmp_mb``
``argv``/``env`` the runner command line and its environment
``one_task``    forbid new threads and processes (a seccomp filter, :func:`forbid_new_tasks`)

Then it ``execve``s the runner. Nothing secret passes through here.
"""

import ctypes
import json
import os
import resource
import sys

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18

#: Top-level directories that stay visible (system files only).
SYSTEM_TOP = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc"}


def main():
    cfg = json.loads(sys.argv[1])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]

    def mount(src, target, fstype, flags, data=None):
        rc = libc.mount(
            src.encode() if src else None,
            target.encode(),
            fstype.encode() if fstype else None,
            flags,
            data.encode() if data else None,
        )
        if rc != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"mount {target}: {os.strerror(err)}")

    if cfg.get("namespace"):
        mount(None, "/", None, MS_REC | MS_PRIVATE)
        keep = [os.path.realpath(p) for p in cfg.get("keep", []) if os.path.isdir(p)]
        keep_fds = [(p, os.open(p, os.O_PATH | os.O_DIRECTORY)) for p in keep]
        hidden_tops = []
        tmp_opts = f"size={int(cfg.get('tmp_mb', 64))}m,mode=1777"
        if cfg.get("hide_top"):
            for entry in sorted(os.listdir("/")):
                full = "/" + entry
                if entry in SYSTEM_TOP or os.path.islink(full) or not os.path.isdir(full):
                    continue
                # /tmp becomes the private, writable /tmp here and now, so that
                # kept directories below it (a checkout in /tmp) are mounted on top.
                opts = tmp_opts if full == "/tmp" else "size=1m,mode=755"
                mount("tmpfs", full, "tmpfs", MS_NOSUID | MS_NODEV, opts)
                hidden_tops.append(full)
        for p, fd in keep_fds:
            os.makedirs(p, exist_ok=True)
            mount(f"/proc/self/fd/{fd}", p, None, MS_BIND | MS_REC)
            mount(None, p, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID)
            os.close(fd)
        for full in hidden_tops:
            if full != "/tmp":
                mount(None, full, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, "size=1m,mode=755")
        for p in cfg.get("hide", []):
            p = os.path.realpath(p)
            if any(k == p or k.startswith(p.rstrip("/") + "/") for k in keep):
                continue  # an ancestor of what must stay visible (covered by hide_top)
            if os.path.isdir(p) and not os.path.islink(p):
                mount("tmpfs", p, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=16k,mode=755")
            elif os.path.exists(p):
                mount("/dev/null", p, None, MS_BIND)
        # The root file system itself read-only in this namespace: nothing can
        # create new top-level entries (e.g. /autograder) even as a mapped root.
        mount(None, "/", None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID)
        if "/tmp" not in hidden_tops:
            mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, tmp_opts)
        if os.path.isdir("/dev/shm"):
            mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=1777")

    workdir = cfg["workdir"]
    os.makedirs(workdir, exist_ok=True)
    uid, gid = cfg.get("uid"), cfg.get("gid")
    if uid is not None:
        os.chown(workdir, uid, gid)
        os.chmod(workdir, 0o700)
    os.chdir(workdir)

    limits = cfg.get("limits", {})
    for name, value in limits.items():
        res = getattr(resource, name)
        resource.setrlimit(res, (value, value))

    if uid is not None:
        os.setgroups([int(g) for g in cfg.get("groups") or []])  # only lib's group, when allowed
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        if os.getuid() != uid or os.geteuid() != uid:
            raise SystemExit("could not drop privileges")
    PR_SET_NO_NEW_PRIVS = 38
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    if cfg.get("one_task"):
        forbid_new_tasks(libc)
    os.execve(cfg["argv"][0], cfg["argv"], cfg["env"])


#: (AUDIT_ARCH, syscall numbers that start a thread or a process): clone, fork, vfork, clone3.
_NEW_TASK_SYSCALLS = {"x86_64": (0xC000003E, (56, 57, 58, 435)), "aarch64": (0xC00000B7, (220, 435))}


def forbid_new_tasks(libc):
    """A seccomp filter: every syscall that starts a thread or a process fails with EAGAIN.

    The runner and the submission then run in one thread of one process in every mode
    (RLIMIT_NPROC cannot do it: in the ``userns`` mode the count is the instructor's, and
    elsewhere the previous child of the same uid may still be exiting), so everything the
    submission writes to the result channel comes in program order. On another
    architecture, or where the kernel refuses the filter, nothing is installed.
    """
    import platform
    import struct

    arch = _NEW_TASK_SYSCALLS.get(platform.machine())
    if arch is None:
        return
    audit_arch, numbers = arch
    ld_w_abs, jeq_k, ret_k = 0x20, 0x15, 0x06
    allow, eagain = 0x7FFF0000, 0x00050000 | 11
    n = len(numbers)
    prog = [(ld_w_abs, 0, 0, 4), (jeq_k, 0, n + 1, audit_arch), (ld_w_abs, 0, 0, 0)]
    prog += [(jeq_k, n - i, 0, nr) for i, nr in enumerate(numbers)]
    prog += [(ret_k, 0, 0, allow), (ret_k, 0, 0, eagain)]
    raw = b"".join(struct.pack("HBBI", *ins) for ins in prog)
    buf = ctypes.create_string_buffer(raw, len(raw))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(prog), ctypes.cast(buf, ctypes.c_void_p))
    PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0)


main()
