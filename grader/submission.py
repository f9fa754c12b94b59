"""Reading a submission as text: its cells, as the student sees them (nothing is executed here).

The trusted process reads a submission with bounded cost (:func:`read_limited`:
regular files only, no links, at most a limit of bytes), splits it into cells
(:func:`notebook_cells`: ``.ipynb`` JSON, MyST or plain Markdown through
jupytext with YAML aliases refused, percent-format and exported scripts),
names each cell as JupyterLab shows it (:func:`labelled_code_cells`) and
comments out IPython magics (:func:`_clean`). :func:`bound_names` and
:func:`first_refused_import` read what a cell defines and where an import
stops it (``ast`` only), for the feedback's "why is this name missing" and
for the inline check.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

from . import readers, runner

MAX_SUBMISSION_BYTES = 5 * 1024 * 1024
SUPPORTED = (".ipynb", ".py", ".md")


class SubmissionError(Exception):
    """The submission file cannot be read; the message is for the student."""


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
# What a cell binds, and where an import stops it (ast only, never run)
# --------------------------------------------------------------------------

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
