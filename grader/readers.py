"""Readers for the files JupyterLab's export menu writes (trusted process, text only).

JupyterLab opens ``exercises/<chapter>.md`` through jupytext, which keeps no
``language_info`` in the file. Its *File → Save and Export Notebook As* menu
then runs nbconvert on that notebook, and two of its entries write formats
that are not the MyST notebook the student opened:

* **Markdown** (nbconvert's markdown exporter): every code cell becomes a
  plain fence, ```` ```python ```` when the notebook knows its language and a
  bare ```` ``` ```` when it does not (the jupytext case); outputs are indented
  by four spaces. :func:`label_bare_fences` names the bare fences ``python``
  so that jupytext's plain-Markdown reader takes them as code cells; a fence
  with another language (```` ```xml ```` in a statement) stays Markdown.
* **Executable Script** (nbconvert's script exporter): a ``.py`` file whose
  cells start at ``# In[ ]:`` / ``# In[3]:`` lines, Markdown cells written as
  ``#`` comments (:func:`script_cells`). Without ``language_info`` (the
  jupytext case) it writes a ``.txt`` file with the code cells run together
  and no boundaries; that is refused with :func:`unsupported_message`, which
  says what to hand in instead.

Nothing here runs or imports student text; these functions only split it.
"""

from __future__ import annotations

import re

#: nbconvert's script exporter writes this line above every code cell.
SCRIPT_MARKER = re.compile(r"^# In\[[ 0-9]*\]:\s*$")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")


def has_script_markers(text: str) -> bool:
    """Whether ``text`` is nbconvert's script export (a ``# In[ ]:`` line)."""
    return any(SCRIPT_MARKER.match(line) for line in text.splitlines())


def _comment_to_markdown(lines: list[str]) -> str:
    return "\n".join(re.sub(r"^# ?", "", line) for line in lines).strip("\n")


def script_cells(text: str) -> list[tuple[str, str]]:
    """[(cell type, source)] of nbconvert's script export, one code cell per ``# In[ ]:``.

    The comment lines after a cell's code (the Markdown cells that followed it
    in the notebook, ``# ## Exercise 3.1.2 · ...``) become a Markdown cell, so
    feedback names the exercise heading above a cell; so does the comment
    block before the first marker (after the ``#!`` and ``# coding`` lines).
    Moving comments out of a code cell changes nothing that runs.
    """
    chunks, current = [], []
    for line in text.splitlines():
        if SCRIPT_MARKER.match(line):
            chunks.append(current)
            current = []
        else:
            current.append(line)
    chunks.append(current)

    cells = []
    head = [x for x in chunks[0] if not (x.startswith("#!") or re.match(r"^#.*coding[:=]", x))]
    if any(x.strip() for x in head):
        if all(not x.strip() or x.startswith("#") for x in head):
            cells.append(("markdown", _comment_to_markdown(head)))
        else:
            cells.append(("code", "\n".join(head)))
    for chunk in chunks[1:]:
        end = len(chunk)
        while end > 0 and (not chunk[end - 1].strip() or chunk[end - 1].startswith("#")):
            end -= 1
        code, trailing = chunk[:end], chunk[end:]
        cells.append(("code", "\n".join(code).strip("\n")))
        if any(x.strip() for x in trailing):
            cells.append(("markdown", _comment_to_markdown(trailing)))
    return cells


def label_bare_fences(text: str) -> str:
    """``text`` with every bare opening code fence (```` ``` ```` alone) written ```` ```python ````.

    Fences are tracked as CommonMark does (backticks or tildes, up to three
    spaces of indentation, closed by a fence of the same character at least as
    long), so a closing fence or a fence inside another block is left alone.
    """
    out, opener = [], None
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if opener is None:
            if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
                opener = m.group(2)
                if not m.group(3).strip():
                    line = f"{m.group(1)}{m.group(2)}python"
        elif m and m.group(2)[0] == opener[0] and len(m.group(2)) >= len(opener) and not m.group(3).strip():
            opener = None
        out.append(line)
    return "\n".join(out)


#: What to hand in, for every message that refuses a file.
HAND_IN = ("hand in the exercise notebook itself: the .md file you worked in (JupyterLab: "
           "right-click it in the file browser, Download), or File → Save and Export Notebook As → "
           "Notebook (.ipynb)")


def unsupported_message(suffix: str) -> str:
    """The student's message for a file type the grader does not read."""
    if suffix == ".txt":
        return ("a .txt file is not graded: JupyterLab's 'Export Notebook As → Executable Script' "
                "writes one for this notebook, and it has lost the cells (one failing line would "
                f"cost every answer after it); {HAND_IN}")
    if suffix in (".html", ".pdf", ".tex", ".rst", ".asciidoc"):
        return (f"a {suffix} export holds no gradable code; {HAND_IN}")
    return f"unsupported file type {suffix or '(none)'}; {HAND_IN}"
