"""Grade one submission: read it (text only), run it sandboxed, score it here.

The trusted side of the grader. The submission's code runs only in the
sandboxed child (:mod:`grader.sandbox`, :mod:`grader.runner`); this module
sends it case *inputs*, receives plain JSON values, and compares them with
the expected answers it computed from the reference solutions
(:mod:`grader.compare`). Nothing from the child is unpickled, evaluated or
parsed as code.
"""

from __future__ import annotations

import json
import os
import re
import stat
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from . import compare as cmp
from . import readers, runner, sandbox
from .report import CaseEntry, ExerciseEntry, Report
from .sandbox import Limits
from .spec import Chapter, load_chapter, load_solutions, solutions_path

GRADER_VERSION = "1.0"
MAX_SUBMISSION_BYTES = 5 * 1024 * 1024
SUPPORTED = (".ipynb", ".py", ".md")


class SubmissionError(Exception):
    """The submission file cannot be read; the message is for the student."""


# --------------------------------------------------------------------------
# Text that is safe to print, write as UTF-8 and put into a spreadsheet
# --------------------------------------------------------------------------

#: Characters a terminal or a spreadsheet would act on or hide, shown escaped wherever the grader
#: writes text: DEL, the C1 controls (U+0080-U+009F, e.g. CSI U+009B), bidirectional overrides
#: and isolates, line/paragraph separators.
_INVISIBLE = {c: f"\\x{c:02x}" for c in range(0x7F, 0xA0)}
_INVISIBLE.update({c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                               *range(0x2066, 0x206A), 0x2028, 0x2029, 0xFEFF)})
#: And for one-line display (terminal, spreadsheet cells): every C0 control, NUL, ESC and CR included.
_C0 = {c: f"\\x{c:02x}" for c in range(32)} | {9: "\\t", 10: "\\n", 13: "\\r"}


def printable(text) -> str:
    """``text`` on one line with every control character shown escaped (``\\x1b``, ``\\r``, ``\\x00``).

    What the grader prints on the instructor's terminal: a file name or a
    message cannot move the cursor, clear the line or fake a score.
    """
    return safe_text(text).translate(_C0)


def safe_text(text) -> str:
    """``text`` with lone surrogates made visible, so it always encodes as UTF-8.

    C1 controls, DEL and bidirectional overrides are shown escaped too
    (JSON would keep them raw); C0 controls are left to JSON's own escapes
    and to :func:`printable`.

    A file name that is not UTF-8 (``os.fsdecode`` keeps its bytes as
    surrogates, e.g. ``caf\\udce9.py`` from a latin-1 zip) becomes
    ``caf\\xe9.py``; any other lone surrogate (``'\\ud800'`` in a message
    or an answer) becomes ``\\ud800``. Valid text is returned unchanged.
    """
    text = str(text)
    try:
        text.encode("utf-8")
        return text.translate(_INVISIBLE)
    except UnicodeEncodeError:
        pass
    try:  # file names: the original bytes, undecodable ones as \xNN
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text.translate(_INVISIBLE)


def scrub(value):
    """A copy of a report (dicts, lists, strings, numbers) with every string :func:`safe_text`."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, dict):
        return {safe_text(k) if isinstance(k, str) else k: scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(v) for v in value]
    return value


# --------------------------------------------------------------------------
# Reading submissions (text only; nothing is executed here)
# --------------------------------------------------------------------------

def _scan(line: str, state: dict) -> None:
    """Advance ``state`` (bracket depth, open string, backslash continuation) over one line."""
    i, n = 0, len(line)
    state["continued"] = False
    while i < n:
        quote = state["quote"]
        if quote:
            if line.startswith(quote, i):
                state["quote"] = None
                i += len(quote)
            elif line[i] == "\\":
                i += 2
            else:
                i += 1
            continue
        ch = line[i]
        if ch == "#":
            break
        if ch in "\"'":
            q = line[i:i + 3] if line[i:i + 3] in ('"""', "\'\'\'") else ch
            state["quote"] = q
            i += len(q)
            continue
        if ch in "([{":
            state["depth"] += 1
        elif ch in ")]}":
            state["depth"] = max(0, state["depth"] - 1)
        elif ch == "\\" and i == n - 1:
            state["continued"] = True
        i += 1
    if state["quote"] in ("'", '"'):
        if line.endswith("\\"):
            state["continued"] = True
        else:
            state["quote"] = None  # an unterminated string ends with its line


def _clean(source: str) -> str:
    """Comment out IPython magics and shell escapes (they are not Python), as IPython finds them.

    Only a line that *starts a statement* and begins with ``%`` or ``!`` is a
    magic: never a continuation line inside brackets, after a backslash or
    inside a triple-quoted string, so PEP 8's "break before the operator"
    (``(a`` / ``!= b)``, ``[(k + 1)`` / ``% 3]``) stays code.
    """
    lines = []
    state = {"depth": 0, "quote": None, "continued": False}
    for line in source.splitlines():
        stripped = line.lstrip()
        starts_statement = state["depth"] == 0 and state["quote"] is None and not state["continued"]
        if starts_statement and stripped.startswith(("%", "!")):
            line = line[: len(line) - len(stripped)] + "pass  # notebook magic removed: " + stripped[:60]
            state["continued"] = False
        else:
            _scan(line, state)
        lines.append(line)
    return "\n".join(lines) + "\n"


_KIND = {stat.S_IFDIR: "a folder", stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFCHR: "a character device",
         stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket", stat.S_IFLNK: "a symbolic link"}


def _not_regular(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    kind = _KIND.get(stat.S_IFMT(mode), "not a regular file")
    return f"it is {kind}, not a regular file; only regular files inside the submissions folder are graded"


def read_limited(path, root=None, limit: int | None = None) -> bytes:
    """The bytes of a *regular* file, at most ``limit`` (raises :class:`SubmissionError`).

    Never follows a symbolic link (the file's own name, and, when ``root`` is
    given, every folder between ``root`` and the file), never opens a FIFO,
    device or socket (``lstat`` first; ``O_NONBLOCK`` so that a FIFO swapped in
    meanwhile cannot block; ``fstat`` of what was opened), and reads at most
    ``limit + 1`` bytes whatever the file claims its size is.
    """
    path = Path(path)
    limit = MAX_SUBMISSION_BYTES if limit is None else int(limit)
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise SubmissionError(f"the file could not be read: {exc.strerror or exc}") from None
    why = _not_regular(st.st_mode)
    if why:
        if stat.S_ISLNK(st.st_mode):
            try:
                why += f" (it points to {os.readlink(path)})"
            except OSError:
                pass
        raise SubmissionError(why)
    if st.st_size > limit:
        raise SubmissionError(f"the file is {st.st_size} bytes; the limit is {limit}")
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    dir_flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        if root is not None:
            parts = path.relative_to(root).parts
            dir_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                for part in parts[:-1]:
                    nxt = os.open(part, dir_flags, dir_fd=dir_fd)
                    os.close(dir_fd)
                    dir_fd = nxt
                fd = os.open(parts[-1], flags, dir_fd=dir_fd)
            finally:
                os.close(dir_fd)
        else:
            fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno in (40, 20):  # ELOOP, ENOTDIR: a link was swapped in
            raise SubmissionError("it is (or lies behind) a symbolic link; only regular files "
                                  "inside the submissions folder are graded") from None
        raise SubmissionError(f"the file could not be read: {exc.strerror or exc}") from None
    try:
        why = _not_regular(os.fstat(fd).st_mode)
        if why:
            raise SubmissionError(why)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except BlockingIOError:
        raise SubmissionError("the file could not be read (it would block)") from None
    except OSError as exc:
        raise SubmissionError(f"the file could not be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise SubmissionError(f"the file is larger than the limit of {limit} bytes")
    return b"".join(chunks)


#: Longest exercise heading quoted in a cell's name.
MAX_HEADING = 60


def heading_of(markdown: str) -> str | None:
    """The last Markdown heading in ``markdown``, shortened for a cell's name.

    ``## Exercise 3.1.2 · `body_wrench` · 2 points`` gives ``Exercise 3.1.2``
    (the part before the first ``·``); any other heading its text.
    """
    found = None
    for line in markdown.splitlines():
        m = re.match(r"\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m and m.group(1).strip():
            found = m.group(1)
    if found is None:
        return None
    text = found.split("\u00b7")[0].replace("`", "").strip() or found.strip()
    text = "".join(ch if ch.isprintable() else " " for ch in text).replace('"', "'")
    return text if len(text) <= MAX_HEADING else text[: MAX_HEADING - 3] + "..."


def cell_label(number: int, heading: str | None) -> str:
    """How feedback names a cell: ``cell 5 under "Exercise 3.1.1"`` (all cells counted, from 1)."""
    return f'cell {number} under "{heading}"' if heading else f"cell {number}"


def _percent_cells(text: str) -> list[tuple[str, str]]:
    """[(cell type, source)] of a percent-format ``.py``: one cell per ``# %%`` block.

    Text before the first marker is a cell of its own when it is not blank
    (as jupytext shows it; its ``# ---`` header is metadata); ``# %% [markdown]`` blocks are Markdown cells
    (their ``# `` comment prefix removed).
    """
    cells, kind, current = [], "code", []

    def close():
        src = "\n".join(current)
        if kind == "markdown":
            src = "\n".join(re.sub(r"^# ?", "", line) for line in current)
        cells.append((kind, src))

    lines = text.splitlines()
    if lines and lines[0].rstrip() == "# ---" and "# ---" in (x.rstrip() for x in lines[1:]):
        # jupytext's header (metadata, not a cell)
        end = next(i for i, x in enumerate(lines) if i > 0 and x.rstrip() == "# ---")
        lines = lines[end + 1:]
    first = True
    for line in lines:
        if line.startswith("# %%"):
            if not first or "\n".join(current).strip():
                close()
            first = False
            kind = "markdown" if re.match(r"# %%.*\[(markdown|md)\]", line) else "code"
            current = []
        else:
            current.append(line)
    if not first or "\n".join(current).strip():
        close()
    return cells


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _without_front_matter(text: str) -> str:
    """MyST text without its YAML front matter (``---`` ... ``---`` at the top).

    Grading needs none of it, and it is where a submission could ask jupytext
    for another format (``format_name: pandoc`` runs Pandoc on the text) or
    hide a YAML alias bomb. The lines are kept blank, so line numbers stay.
    """
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or lines[first].rstrip() != "---":
        return text
    for end in range(first + 1, len(lines)):
        if lines[end].rstrip() in ("---", "..."):
            return "\n" * end + "\n".join(lines[end + 1:])
    return text


_YAML_BOUNDED = False


def _bound_jupytext_yaml() -> None:
    """Make jupytext's YAML parsing of cell options bounded in cost (no aliases).

    A few hundred bytes of YAML anchors and aliases (a "billion laughs") expand
    to billions of nodes; jupytext parses code-cell options (``---`` blocks,
    ``:key: value`` lines) with ``yaml.safe_load``. The modules of jupytext
    that read YAML get a loader that refuses aliases; deep nesting ends in a
    RecursionError, caught by the caller. Only the trusted process's reading
    of submissions uses jupytext.
    """
    global _YAML_BOUNDED
    if _YAML_BOUNDED:
        return
    import types

    import yaml

    class NoAliasLoader(yaml.SafeLoader):
        def compose_node(self, parent, index):
            if self.check_event(yaml.AliasEvent):
                raise yaml.constructor.ConstructorError(
                    None, None, "YAML aliases (*name) are not accepted in a submission", self.peek_event().start_mark)
            return super().compose_node(parent, index)

    class BoundedYaml(types.ModuleType):
        def __getattr__(self, name):
            return getattr(yaml, name)

    proxy = BoundedYaml("yaml")
    proxy.safe_load = lambda stream: yaml.load(stream, Loader=NoAliasLoader)
    proxy.safe_load_all = lambda stream: yaml.load_all(stream, Loader=NoAliasLoader)
    import importlib

    for name in ("jupytext.myst", "jupytext.header", "jupytext.formats", "jupytext.jupytext",
                 "jupytext.cell_reader", "jupytext.cell_metadata"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if getattr(module, "yaml", None) is yaml:
            module.yaml = proxy
    _YAML_BOUNDED = True


def notebook_cells(text: str, suffix: str) -> list[tuple[str, str]]:
    """Every cell of a submission, in order, as the student sees it: [(cell type, source)].

    Raises :class:`SubmissionError` (the message is for the student).
    """
    if suffix == ".ipynb":
        try:
            nb = json.loads(text)
        except ValueError as exc:
            raise SubmissionError(f"the notebook is not valid JSON ({exc}); re-download it from Jupyter") from None
        except RecursionError:
            raise SubmissionError("the notebook's JSON is nested far too deeply to be a notebook; "
                                  "re-download it from Jupyter") from None
        cells = nb.get("cells") if isinstance(nb, dict) else None
        if not isinstance(cells, list):
            raise SubmissionError("the notebook has no list of cells (is it an .ipynb file?)")
        out = []
        for cell in cells:
            kind = cell.get("cell_type") if isinstance(cell, dict) else None
            src = cell.get("source", "") if isinstance(cell, dict) else ""
            if isinstance(src, list):
                src = "".join(s for s in src if isinstance(s, str))
            out.append((kind if isinstance(kind, str) else "unknown", src if isinstance(src, str) else ""))
        return out
    if suffix == ".md":
        text = _without_front_matter(text)
        try:
            import jupytext

            _bound_jupytext_yaml()
            nb = jupytext.reads(text, fmt="md:myst")
            cells = [(c.cell_type, c.source) for c in nb.cells]
            if not any(kind == "code" for kind, _ in cells):
                # plain Markdown with ```python (or bare ```) fences instead of
                # {code-cell}, as JupyterLab's Markdown export writes it; named
                # explicitly, so that a `:::` line is never taken for Pandoc's format
                nb = jupytext.reads(readers.label_bare_fences(text), fmt="md:markdown")
                cells = [(c.cell_type, c.source) for c in nb.cells]
        except RecursionError:
            raise SubmissionError("the MyST notebook is nested far too deeply to be read") from None
        except Exception as exc:  # jupytext only parses text
            raise SubmissionError(f"the MyST notebook could not be read: {_short(str(exc), 300)}") from None
        return cells
    if any(line.startswith("# %%") for line in text.splitlines()):
        return _percent_cells(text)
    if readers.has_script_markers(text):  # JupyterLab's "Executable Script" export
        return readers.script_cells(text)
    return [("code", text)]


def labelled_code_cells(cells: list[tuple[str, str]]) -> list[list]:
    """``[[number, source, label], ...]`` for the code cells of :func:`notebook_cells`.

    ``number`` counts every cell (Markdown included) from 1, as JupyterLab
    lists them; ``label`` adds the heading above the cell (:func:`cell_label`).
    Blank code cells are left out (they keep their number).
    """
    out, heading = [], None
    for number, (kind, src) in enumerate(cells, start=1):
        if kind == "markdown":
            heading = heading_of(src) or heading
        elif kind == "code" and src.strip():  # a blank cell defines nothing: not run
            out.append([number, src, cell_label(number, heading)])
    return out


def read_submission(path: Path, root=None) -> tuple[list[list], str]:
    """Code cells ``[[number, source, label], ...]`` and the module name to run them as.

    Cells are numbered as the student sees them: every cell of the notebook
    (Markdown included) from 1; in a ``.py`` file every ``# %%`` block (a
    file without markers is one cell). ``label`` names the cell with the
    heading above it, e.g. ``cell 5 under "Exercise 3.1.1"``.
    ``root``: the graded folder; no folder between it and the file may be a link.
    """
    path = Path(path)
    raw = read_limited(path, root)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED:
        raise SubmissionError(readers.unsupported_message(suffix))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        if suffix == ".ipynb" or b"\x00" in raw:
            raise SubmissionError("the file is not UTF-8 text") from None
        text = raw.decode("latin-1")  # an editor's legacy encoding: keep going
    cells = labelled_code_cells(notebook_cells(text, suffix))
    module = "submission" if suffix == ".py" else "__main__"
    return [[number, _clean(src), label] for number, src, label in cells], module


# --------------------------------------------------------------------------
# Expected answers (trusted: computed from the reference solutions)
# --------------------------------------------------------------------------

@dataclass
class ExpectedCase:
    public: bool
    inputs: object
    expected: object


_EXPECTED_CACHE: dict = {}
_EXPECTED_LOCK = threading.Lock()


def expected_cases(chapter: Chapter, solutions=None, seed: int | None = None) -> dict:
    """{exercise name: [ExpectedCase, ...]}; cached per (chapter, solutions, seed)."""
    seed = chapter.seed if seed is None else int(seed)
    key = (chapter.name, str(solutions_path(chapter.name, solutions).resolve()), seed)
    with _EXPECTED_LOCK:
        if key in _EXPECTED_CACHE:
            return _EXPECTED_CACHE[key]
        reference = load_solutions(chapter.name, solutions)
        namespace = vars(reference)
        out = {}
        for ex in chapter.exercises:
            cases = ex.case_inputs(seed)
            desc = ex.child_description([inp for _, inp in cases])
            res = runner.run_exercise(desc, namespace)
            values = []
            for (public, inp), case in zip(cases, res["cases"]):
                if not case["ok"]:
                    raise RuntimeError(f"reference solution fails on {ex.name}: {case['error']}")
                values.append(ExpectedCase(public, inp, case["value"]))
                if ex.kind == "design":
                    ok, why = judge_design(ex, inp, case["value"])
                    if not ok:
                        raise RuntimeError(f"reference design fails the judge of {ex.name}: {why}")
            out[ex.name] = values
        _EXPECTED_CACHE[key] = out
        return out


# --------------------------------------------------------------------------
# Grading
# --------------------------------------------------------------------------

@dataclass
class GradeOptions:
    """How to grade: the same for every submission of a batch.

    ``chapter`` is the :class:`~grader.spec.Chapter` itself; a chapter *name*
    is accepted for convenience and loaded here, once, so that nothing
    downstream loads the chapter again.
    """

    chapter: Chapter
    solutions: str | None = None
    seed: int | None = None
    sandbox: str = "auto"
    limits: Limits = field(default_factory=Limits)
    hide: list = field(default_factory=list)   # extra paths hidden from the child

    def __post_init__(self):
        if isinstance(self.chapter, str):
            self.chapter = load_chapter(self.chapter)

    @property
    def seed_used(self) -> int:
        """The seed of the hidden cases: ``seed``, or the chapter's."""
        return self.chapter.seed if self.seed is None else int(self.seed)


def submission_identity(path, root=None) -> tuple[str, str]:
    """A submission's ``submission`` and ``student``, as the gradebook, the report and the progress line name it.

    ``submission`` is the path relative to the graded folder ``root``, so that
    two students' ``hw.ipynb`` in ``alice/`` and ``bob/`` stay apart; ``student``
    is the first folder of that path (one folder per student, as LMS exports
    lay them out) or, for files directly in the folder (or a single file
    graded, ``root`` None), the file's stem.
    Names that are not UTF-8 are shown with ``\\xNN`` escapes (:func:`safe_text`).
    """
    path = Path(path)
    try:
        rel = path.relative_to(root) if root is not None else Path(path.name)
    except ValueError:  # not inside root (read_limited refuses it): named by the file alone
        rel = Path(path.name)
    student = rel.parts[0] if len(rel.parts) > 1 else rel.stem
    return safe_text(rel.as_posix()), safe_text(student)


def new_report(path, chapter: Chapter, seed: int, root=None, status: str = "graded") -> Report:
    """A report with no exercise graded yet; ``submission``/``student`` set here, once."""
    submission, student = submission_identity(path, root)
    return {
        "submission": submission,
        "student": student,
        "chapter": chapter.name,
        "grader_version": GRADER_VERSION,
        "seed": seed,
        "status": status,
        "score": 0.0,
        "max_score": chapter.max_score,
        "exercises": [],
        "messages": [],
        "output": "",
    }


def _hidden_paths(opts: GradeOptions, submission: Path, root=None) -> list[str]:
    """What the child must not see. The same for every file of a batch: the graded folder
    (``root``) is hidden as a whole, never a folder found by resolving a submission's path."""
    from .spec import CHAPTERS_DIR, DEFAULT_SOLUTIONS_DIR, REPO_ROOT

    graded = Path(root).absolute() if root is not None else Path(submission).absolute().parent
    paths = {str(DEFAULT_SOLUTIONS_DIR), str(CHAPTERS_DIR), str(REPO_ROOT / "tests"),
             str(REPO_ROOT / ".git"), str(graded)}
    sol = solutions_path(opts.chapter.name, opts.solutions).resolve()
    paths.add(str(sol.parent))
    paths.update(str(Path(p).resolve()) for p in opts.hide)
    return sorted(paths)


NOT_GRADED_ERROR = "not graded: grader error (not the submission's fault; see the messages)"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def grader_error_message(outcome: sandbox.ChildOutcome, mode) -> str:
    """What went wrong and what to fix, when the sandboxed Python did not start."""
    why = (_last_line(outcome.detail) or _last_line(outcome.output)
           or sandbox.describe_returncode(outcome.returncode))
    if outcome.status == "timeout":
        why = f"it was not ready within the start-up time limit ({why})"
    try:
        paths = sandbox.python_paths()
        python, keep = paths["python"], " ".join(paths["keep"])
    except Exception:  # the environment itself is broken
        python, keep = "(unknown)", "(unknown)"
    if mode == "setuid":
        fix = (f"the sandbox user must be able to read and run {python} and the packages "
               f"({keep}): e.g. `chmod -R a+rX` them and `chmod o+x` every folder above them")
    elif mode in ("namespace", "userns"):
        fix = f"check that `unshare` works here and that {python} runs with numpy installed"
    else:
        fix = f"check that {python} runs with numpy installed"
    return (f"GRADER ERROR (not the student's fault, this is not a grade): the sandboxed Python "
            f"did not start ({mode} sandbox): {why}. To fix: {fix}; then grade this submission again.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cell_note(label: str, err: str) -> str:
    """A note about a cell that failed: its message names the cell already, or gets the name."""
    return _capital(err) if err.startswith(label) else f"{_capital(label)}: {err}"


def _crash_message(outcome: sandbox.ChildOutcome, what: str, limits: sandbox.Limits) -> str:
    if outcome.status == "timeout":
        return f"{what} did not finish within the time limit (infinite loop or far too slow?)"
    if outcome.status == "too_much_data":
        return f"{what} sent far too much data back (the result is too large)"
    if outcome.status == "protocol":
        return (f"{what} interfered with the grader's channel: it sent {outcome.detail} "
                "(only the grader's runner may write there)")
    if outcome.status == "failed_to_start":
        return f"the grader could not start Python for {what}: {outcome.detail}"
    code = outcome.returncode
    if code is not None and code < 0:
        return (f"{what} ended Python abruptly: {sandbox.describe_returncode(code)} "
                f"(memory limit {limits.memory_mb} MB, CPU limit {limits.cpu_seconds} s)")
    return (f"{what} ended Python abruptly ({sandbox.describe_returncode(code)}; "
            "os._exit, closing the grader's channel, or running out of memory?)")


def grade_submission(path, opts: GradeOptions, root=None) -> Report:
    """Grade one file; always returns a report (never raises for bad submissions).

    ``root``: the folder being graded (the file must lie inside it, behind no
    symbolic link); the report names the file by its path inside ``root``
    (:func:`submission_identity`). Every string in the report is :func:`safe_text`.
    """
    path = Path(path)
    chapter = opts.chapter
    expected = expected_cases(chapter, opts.solutions, opts.seed)
    report = new_report(path, chapter, opts.seed_used, root)
    cells, module = _read_for_grading(path, root, report)
    results: dict[int, dict] = {}
    if cells is not None:
        _run_submission(path, root, cells, module, expected, opts, report, results)
    _score_all(chapter, expected, results, report)
    return cast(Report, scrub(report))


def _read_for_grading(path: Path, root, report: Report):
    """The submission's code cells and module name, or ``(None, None)`` with the report ``unreadable``."""
    try:
        cells, module = read_submission(path, root)
    except SubmissionError as exc:
        report["status"] = "unreadable"
        report["messages"].append(f"The submission could not be read: {exc}")
        return None, None
    if not any(c[1].strip() for c in cells):
        report["messages"].append("The submission has no code (no code cells found).")
    return cells, module


def _run_submission(path: Path, root, cells, module, expected, opts: GradeOptions, report: Report,
                    results: dict) -> None:
    """Run the cells and every exercise's cases in the sandbox; the children's results go into ``results``."""
    chapter = opts.chapter
    report["sandbox"] = sandbox.detect_mode(opts.sandbox)
    hide = _hidden_paths(opts, path, root)
    descriptions = [[k, ex.child_description([c.inputs for c in expected[ex.name]])]
                    for k, ex in enumerate(chapter.exercises)]
    timeouts = {k: ex.timeout for k, ex in enumerate(chapter.exercises) if ex.timeout}
    _run_groups(chapter, cells, module, descriptions, opts, hide, results, report, timeouts)


def _score_all(chapter: Chapter, expected, results: dict, report: Report) -> None:
    """Score every exercise from the children's results (here, in the trusted process)."""
    total = 0.0
    for k, ex in enumerate(chapter.exercises):
        entry = _score_exercise(k, ex, expected[ex.name], results.get(k), report["status"])
        total += entry["score"]
        report["exercises"].append(entry)
    report["score"] = round(total, 4)


class _Protocol:
    """The trusted side's view of one child: which message may come next, and by when.

    The runner sends, in this order: ``ready``; per cell ``cell i`` and
    ``cell_done i``; per exercise ``start k`` and ``result k``; ``done``.
    Anything else -- a message out of order, an index that is not the
    expected one, a field of the wrong type, a malformed result -- raises
    :class:`sandbox.ProtocolError` (the submission's fault: only code inside
    the child can send a message with the token). Deadlines are set here, on
    this process's clock, when a phase begins; a message can only end the
    current phase, never extend it.
    """

    def __init__(self, cells, descriptions, start, limits, timeouts, labels, report, results, failures=None):
        self.steps = [("ready", None)]
        self.steps += [step for c in cells for step in (("cell", c[0]), ("cell_done", c[0]))]
        self.steps += [step for k in range(start, len(descriptions)) for step in (("start", k), ("result", k))]
        self.steps.append(("done", None))
        self.pos = 0
        self.phase = ("startup",)
        self.descriptions = descriptions
        self.limits = limits
        self.timeouts = timeouts
        self.labels = labels
        self.report = report
        self.results = results
        self.failures = failures if failures is not None else []

    def __call__(self, msg):
        now = time.monotonic()
        ev, want = self.steps[self.pos] if self.pos < len(self.steps) else ("nothing", None)
        if msg.get("ev") != ev:
            got = msg.get("ev")
            got = got if isinstance(got, str) and len(got) < 20 else "?"
            raise sandbox.ProtocolError(f"a message out of order (expected '{ev}', got '{got}')")
        index = msg.get("i" if ev in ("cell", "cell_done") else "k")
        if want is not None and (type(index) is not int or index != want):
            raise sandbox.ProtocolError(f"a '{ev}' message for the wrong cell or exercise")
        self.pos += 1
        limits = self.limits
        if ev == "ready":
            return self.phase, now + limits.cell_timeout
        if ev == "cell":
            self.phase = ("cell", want)
            return self.phase, now + limits.cell_timeout
        if ev == "cell_done":
            err = msg.get("error")
            if err is not None and not isinstance(err, str):
                raise sandbox.ProtocolError("a cell message whose error is not text")
            kind, line, module = msg.get("kind"), msg.get("line"), msg.get("module")
            if (kind not in (None, "lib", "import", "name") or not (line is None or type(line) is int)
                    or not (module is None or isinstance(module, str))):
                raise sandbox.ProtocolError("a malformed cell message")
            if err:
                label = self.labels.get(want, f"cell {want}")
                note = _cell_note(label, err[:400])
                if note not in self.report["messages"]:
                    self.report["messages"].append(note)
                if not any(f["label"] == label for f in self.failures):
                    self.failures.append({"number": want, "label": label, "line": line, "kind": kind,
                                          "module": (module or "")[:100], "error": err[:400]})
            return self.phase, now + limits.cell_timeout
        if ev == "start":
            self.phase = ("exercise", want)
            own = self.timeouts.get(want) or 0.0
            return self.phase, now + max(limits.exercise_timeout, own)
        if ev == "result":
            self.results[want] = _validated_result(msg, self.descriptions[want][1])
            return self.phase, now + limits.exercise_timeout
        self.phase = ("done",)
        return self.phase, None


def _plain_value(value, depth=0) -> bool:
    """A returned value as the runner sends it: bool, number, or nested lists of numbers."""
    if isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, list) and depth < 8:
        return all(_plain_value(v, depth + 1) for v in value)
    return False


def _validated_result(msg, desc) -> dict:
    """The child's result for one exercise, checked field by field (raises ProtocolError)."""
    n = len(desc["points"]) if desc["kind"] == "expression" else len(desc["cases"])
    cases = msg.get("cases")
    bad = sandbox.ProtocolError(f"a malformed result for `{desc['name']}`")
    if not isinstance(cases, list) or len(cases) != n:
        raise bad
    for case in cases:
        if not isinstance(case, dict) or not isinstance(case.get("ok"), bool):
            raise bad
        if case["ok"] and not _plain_value(case.get("value")):
            raise bad
        if not case["ok"] and not isinstance(case.get("error"), str):
            raise bad
        if case.get("kind") not in (None, "lib", "import", "name") or not isinstance(case.get("name", ""), str):
            raise bad
    for key in ("render", "missing"):
        if msg.get(key) is not None and not isinstance(msg.get(key), str):
            raise bad
    return {"cases": cases, "render": msg.get("render"), "missing": msg.get("missing")}


LIB_FREE_NOTE = "While grading the exercises done without lib (lib cannot be imported there): "


def _run_groups(chapter, cells, module, descriptions, opts, hide, results, report, timeouts):
    """Run the exercises that may use ``lib`` in one child, those graded without it in another.

    A ``lib_forbidden`` exercise is graded in a child where ``lib`` is not
    there at all (not mounted, not on ``sys.path``; in setuid mode not
    readable), so a call of the library routine it asks to rebuild fails
    there whatever the submission does. That child runs every cell again;
    its notes (e.g. a cell that imports lib) are added once, marked. The two
    children run at the same time (each its own sandbox uid and limits), so
    a chapter with lib-free exercises takes about as long as one without on
    a machine with a free core; they share nothing but the read-only inputs.
    """
    groups = [(True, [k for k, ex in enumerate(chapter.exercises) if not ex.lib_forbidden]),
              (False, [k for k, ex in enumerate(chapter.exercises) if ex.lib_forbidden])]
    groups = [(with_lib, ks) for with_lib, ks in groups if ks]
    runs = []
    for n, (with_lib, ks) in enumerate(groups):
        own_report = report if n == 0 else dict(report, messages=[], output="")
        runs.append({"with_lib": with_lib, "ks": ks, "report": own_report, "results": {}, "failures": [],
                     "descriptions": [[j, descriptions[k][1]] for j, k in enumerate(ks)],
                     "timeouts": {j: timeouts[k] for j, k in enumerate(ks) if k in timeouts}})

    def run(r):
        try:
            _run_all(cells, module, r["descriptions"], opts, hide, r["results"], r["report"], r["timeouts"],
                     with_lib=r["with_lib"], failures=r["failures"])
        except BaseException as exc:  # a grader fault: raised again in the caller's thread below
            r["raised"] = exc

    threads = [threading.Thread(target=run, args=(r,), daemon=True) for r in runs[1:]]
    for t in threads:
        t.start()
    if runs:
        run(runs[0])
    for t in threads:
        t.join()
    for r in runs:
        if "raised" in r:
            raise r["raised"]
    for r in runs[1:]:
        side = r["report"]
        if side["status"] == "error":
            report["status"] = "error"
            report.setdefault("error_detail", side.get("error_detail", ""))
        for msg in side["messages"]:
            if msg not in report["messages"]:
                report["messages"].append(msg if msg.startswith("GRADER ERROR") else LIB_FREE_NOTE + msg)
    sources = {c[0]: c[1] for c in cells}
    for r in runs:
        failures = [dict(f, source=sources.get(f["number"], "")) for f in r["failures"]]
        for j, k in enumerate(r["ks"]):
            if j in r["results"]:
                results[k] = dict(r["results"][j], cell_failures=failures)


BUDGET_USED = "not graded: the submission used up its total time budget"


@dataclass
class _Attempts:
    """One group's runs of the child so far: where the next run starts and what it leaves out."""

    cells: list                 # the non-blank code cells [[number, source, label], ...]
    labels: dict                # cell number -> label, blank cells included
    deadline: float             # time.monotonic() by which every run must have ended
    start: int = 0              # the first exercise (index into the descriptions) not yet run
    skip: dict = field(default_factory=dict)     # cell number -> why it is left out
    outputs: list = field(default_factory=list)  # what the first runs printed (at most 3)
    failures: list = field(default_factory=list)  # cells that stopped early: [{label, line, kind, ...}]
    count: int = 0              # runs started
    started_once: bool = False  # the runner has reported ``ready`` at least once


def _run_all(cells, module, descriptions, opts, hide, results, report, timeouts=None, with_lib=True,
             failures=None):
    """Run the child until every exercise has a result, restarting it after a crash.

    A cell that crashes the child is skipped in the next run; an exercise that
    crashes it gets its crash as result and the next run starts after it. The
    total time budget and a bound on the number of runs end the loop.
    ``failures`` (a list) receives every cell that stopped early, in order.
    """
    limits = opts.limits
    attempts = _Attempts(cells=[c for c in cells if c[1].strip()],  # a blank cell defines nothing: not sent
                         labels={c[0]: c[2] for c in cells},
                         deadline=time.monotonic() + limits.total_timeout)
    while attempts.start < len(descriptions):
        attempts.count += 1
        if _out_of_runs(attempts, len(descriptions)):
            _fill_remaining(results, attempts.start, len(descriptions), BUDGET_USED)
            break
        outcome = _run_once(attempts, module, descriptions, opts, hide, results, report, timeouts or {}, with_lib)
        _keep_output(attempts, outcome, report, limits)
        if outcome.status == "done":
            break
        attempts.started_once = attempts.started_once or "ready" in outcome.events
        if _skip_what_crashed(attempts, outcome, descriptions, results, report, limits):
            continue
        _give_up(attempts, outcome, len(descriptions), results, report, limits)
        break
    # Results that arrived after the restart point (a child that finished some
    # exercises before a later one crashed) are kept by the setdefault of _fill_remaining.
    report["output"] = "".join(attempts.outputs)[: limits.output_kb * 1024]
    if failures is not None:
        failures.extend(attempts.failures)


def _out_of_runs(attempts: _Attempts, n_exercises: int) -> bool:
    """More runs than cells and exercises could need, or the total time is used up."""
    return attempts.count > len(attempts.cells) + n_exercises + 2 or time.monotonic() >= attempts.deadline


def _fill_remaining(results: dict, start: int, stop: int, error: str) -> None:
    """Exercises ``start`` .. ``stop - 1`` without a result get ``error`` as theirs."""
    for k in range(start, stop):
        results.setdefault(k, {"error": error})


def _run_once(attempts: _Attempts, module, descriptions, opts, hide, results, report, timeouts, with_lib):
    """One run of the child: the cells not skipped, then the exercises from ``attempts.start`` on."""
    run_cells = [c for c in attempts.cells if c[0] not in attempts.skip]
    payload = {"cells": run_cells, "exercises": descriptions[attempts.start:], "module": module,
               "without_lib": not with_lib}
    protocol = _Protocol(run_cells, descriptions, attempts.start, opts.limits, timeouts, attempts.labels,
                         report, results, attempts.failures)
    return sandbox.run_child(payload, mode=report["sandbox"], limits=opts.limits, hide=hide, with_lib=with_lib,
                             deadline=attempts.deadline, on_event=protocol)


def _keep_output(attempts: _Attempts, outcome, report, limits) -> None:
    """Keep what the run printed (the first three runs) and note output that was cut."""
    if outcome.output and len(attempts.outputs) < 3:
        attempts.outputs.append(outcome.output)
    if outcome.output_bytes > limits.output_kb * 1024:
        note = (f"The submission printed {outcome.output_bytes} bytes; "
                f"only the first {limits.output_kb} KB were kept.")
        if note not in report["messages"]:
            report["messages"].append(note)


def _skip_what_crashed(attempts: _Attempts, outcome, descriptions, results, report, limits) -> bool:
    """After a crash in a cell or an exercise: leave it out of the next run (True), else False."""
    phase = outcome.phase
    if phase[0] == "cell":
        i = phase[1]
        label = attempts.labels.get(i, f"cell {i}")
        msg = _crash_message(outcome, label, limits)
        attempts.skip[i] = msg
        attempts.failures.append({"number": i, "label": label, "line": None, "kind": None, "module": None,
                                  "error": f"it was skipped: {msg}"})
        report["messages"].append(f"{_capital(label)} was skipped: {msg}.")
        return True
    if phase[0] == "exercise":
        k = phase[1]
        name = descriptions[k][1]["name"]
        results.setdefault(k, {"error": _crash_message(outcome, f"`{name}`", limits)})
        attempts.start = max(attempts.start, k + 1)
        # Exercises the child finished before crashing keep their results.
        while attempts.start in results:
            attempts.start += 1
        return True
    return False


def _give_up(attempts: _Attempts, outcome, n_exercises: int, results, report, limits) -> None:
    """The child ended before any cell or exercise: a grader error, or nothing more can be graded."""
    if not attempts.started_once and time.monotonic() < attempts.deadline:
        # The runner never started: the sandbox or the environment is at
        # fault, not the submission. Say so to the instructor.
        report["status"] = "error"
        report["messages"].append(grader_error_message(outcome, report.get("sandbox")))
        report["error_detail"] = (outcome.detail or outcome.output or "")[-4000:]
        _fill_remaining(results, attempts.start, n_exercises, NOT_GRADED_ERROR)
        return
    # Crashed before running any cell (or out of total time): nothing more can be graded.
    if time.monotonic() >= attempts.deadline:
        msg = BUDGET_USED
    else:
        msg = _crash_message(outcome, "your code", limits)
    _fill_remaining(results, attempts.start, n_exercises, msg)
    report["messages"].append(f"The submission could not be run: {msg}.")


def _failed_cases(cases, message: str) -> list[CaseEntry]:
    """Every case failed with the same ``message`` (not run, or the exercise's error)."""
    return [{"public": c.public, "passed": False, "message": message} for c in cases]


def _score_exercise(k, ex, cases, result, status) -> ExerciseEntry:
    """The report's entry for exercise ``ex``: its cases judged, its score and feedback."""
    entry: ExerciseEntry = {
        "number": ex.number,
        "name": ex.name,
        "points": float(ex.points),
        "partial": ex.partial,
        "score": 0.0,
        "feedback": "",
        "cases": [],
    }
    n = len(cases)
    if status == "error":
        entry["feedback"] = NOT_GRADED_ERROR
        entry["cases"] = _failed_cases(cases, "not run")
        return entry
    if status == "unreadable" or result is None:
        entry["feedback"] = "not graded: the submission could not be read" if status == "unreadable" else "not graded"
        entry["cases"] = _failed_cases(cases, "not run")
        return entry
    if "error" in result and result.get("cases") is None:
        msg = str(result["error"])[:600]
        entry["feedback"] = msg
        entry["cases"] = _failed_cases(cases, msg)
        return entry
    got = result.get("cases")
    if not isinstance(got, list) or len(got) != n:
        entry["feedback"] = "the submission's process sent malformed results"
        entry["cases"] = _failed_cases(cases, "malformed")
        return entry
    passed = []
    hidden_i = 0
    public_i = 0
    missing_names = {ex.name} if isinstance(result.get("missing"), str) else set()
    if ex.kind in ("choice", "quantity"):
        hidden_i = -1  # one answer, no public case: labelled "your answer"
    for case, ret in zip(cases, got):
        if case.public:
            public_i += 1
            label = f"public case {public_i}"
        elif hidden_i < 0:
            label = "your answer"
        else:
            hidden_i += 1
            label = f"hidden case {hidden_i}"
        if not isinstance(ret, dict):
            res = cmp.CaseResult(False, "malformed result")
        elif ret.get("ok") is True and "value" in ret:
            res = judge_case(ex, case.expected, case.inputs, ret["value"], case.public)
        else:
            err = ret.get("error")
            message = str(err)[:600] if isinstance(err, str) else "failed"
            res = cmp.CaseResult(False, message)
            if ret.get("kind") == "name" and isinstance(ret.get("name"), str):
                missing_names.add(ret["name"])
        for r in (res if isinstance(res, list) else [res]):
            passed.append(r.passed)
            entry["cases"].append({"public": case.public, "passed": r.passed, "message": f"{label}: {r.message}"})
    entry["score"] = cmp.exercise_score(ex.points, ex.partial, passed)
    rendered = result.get("render")
    if isinstance(rendered, str):
        entry["your_expression"] = rendered[:400]
    missing = result.get("missing")
    n = len(passed)
    npass = sum(passed)
    summary = f"{npass} of {n} cases passed"
    if isinstance(missing, str):
        summary = missing[:300]
    elif npass < n:
        first_fail = next(c["message"] for c in entry["cases"] if not c["passed"])
        summary += f"; first failure: {first_fail}"
    if not ex.partial and npass < n and npass > 0:
        summary += " (all cases must pass for the points)"
    cause = _missing_cause(missing_names, result.get("cell_failures") or []) if npass < n else None
    if cause:
        summary = _capital(cause) + ". " + summary  # the first thing the student reads: why a name is missing
    entry["feedback"] = summary
    return entry


def _missing_cause(names: set, failures: list) -> str | None:
    """The first cell that stopped before defining one of ``names``, as :func:`runner.cause_text`, or None."""
    for f in failures if names else ():
        if names & bound_names(f.get("source", ""), f.get("line")):
            return runner.cause_text(f["label"], f["line"], f["kind"], f["module"], f["error"])
    return None


#: Longest cell the feedback's cause analysis parses (longer ones are not named as a cause).
MAX_PARSED_CELL = 200_000


def _statements(source: str):
    """The top-level statements of a cell, or [] (not Python, too long, too deep)."""
    import ast

    if len(source) > MAX_PARSED_CELL:
        return []
    try:
        return ast.parse(source).body
    except Exception:  # SyntaxError, RecursionError, MemoryError on hostile text
        return []


def _stored(node, out: set) -> None:
    """Names a statement binds at module level (not inside functions, classes or lambdas)."""
    import ast

    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        out.add(node.name)
        return
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        out.update((a.asname or a.name.partition(".")[0]) for a in node.names if a.name != "*")
        return
    if isinstance(node, ast.Lambda):
        return
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        out.add(node.id)
    for child in ast.iter_child_nodes(node):
        _stored(child, out)


def bound_names(source: str, from_line: int | None = None, before_line: int | None = None) -> set:
    """Names the cell ``source`` binds in the statements that end at or after ``from_line`` (None: all),
    or, with ``before_line``, in those that end before it."""
    out: set = set()
    for stmt in _statements(source):
        end = getattr(stmt, "end_lineno", None) or stmt.lineno
        if (end < before_line) if before_line is not None else (from_line is None or end >= from_line):
            try:
                _stored(stmt, out)
            except RecursionError:
                return out
    return out


def first_refused_import(source: str, with_lib: bool = True):
    """``(line, module)`` of a cell's first top-level import that graded code cannot make, or None.

    Where the grader's child stops that cell (:class:`runner.ImportGuard`);
    the inline check uses it to run an answer as it will be graded.
    """
    import ast

    for stmt in _statements(source):
        if isinstance(stmt, ast.Import):
            modules = [a.name for a in stmt.names]
        elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
            modules = [stmt.module]
        else:
            continue
        for module in modules:
            if not runner.import_allowed(module, with_lib):
                return stmt.lineno, module
    return None


#: A hidden design case that fails: its inputs and requirements are not shown (README, "Security model").
HIDDEN_DESIGN_FAILED = ("the design does not meet the requirements of this hidden case "
                        "(inputs and requirements of hidden cases are not shown)")


def judge_design(ex, inputs, value) -> tuple[bool, str]:
    """Run a design exercise's trusted judge on plain data; never raises."""
    if not cmp.is_plain(value) or isinstance(value, bool):
        return False, "the design could not be read as numbers"
    try:
        ok, why = ex.judge(inputs, value)
    except Exception as exc:  # a design the judge cannot even simulate fails, it is not a grader error
        return False, f"the design could not be checked ({type(exc).__name__}: {str(exc)[:200]})"
    return bool(ok), str(why)[:600]


def judge_case(ex, expected, inputs, value, public: bool):
    """One case's result(s): a CaseResult, or a list of them (a multiple select with partial credit)."""
    if ex.kind == "choice":
        return cmp.compare_choice(expected, value, options=list(ex.options), multi=ex.multi, partial=ex.partial)
    if ex.kind == "quantity":
        return cmp.compare_quantity(expected, value, rtol=ex.rtol, atol=ex.atol)
    if ex.kind == "design":
        ok, why = judge_design(ex, inputs, value)
        if not public:  # the judge's words name the case's inputs and limits: never shown for a hidden case
            return cmp.CaseResult(ok, "passed" if ok else HIDDEN_DESIGN_FAILED)
        return cmp.CaseResult(ok, why if ok or why else "the design does not meet the requirements")
    return cmp.compare(expected, value, rtol=ex.rtol, atol=ex.atol, public=public)


def format_report(report: Report) -> str:
    """Human-readable feedback for one submission."""
    p = printable
    lines = [f"{p(report['submission'])}: {report['score']:g} / {report['max_score']:g}"
             + ("" if report["status"] == "graded" else f"  [{p(report['status'])}]")]
    for msg in report["messages"]:
        lines.append(f"  note: {p(msg)}")
    for ex in report["exercises"]:
        # A public case's message shows arrays over several lines: each on a line of its own
        # (printable() would show the line breaks as a literal \n).
        first, *more = str(ex["feedback"]).split("\n")
        lines.append(f"  Exercise {p(ex['number'])} {p(ex['name'])}: {ex['score']:g} / {ex['points']:g} "
                     f"-- {p(first)}")
        lines.extend(f"    {p(line)}" for line in more)
    return "\n".join(lines)
