"""Text that is safe to print, to write as UTF-8 and to put into a spreadsheet.

Every string the grader writes (the progress lines, the reports, the
gradebook) goes through :func:`safe_text` (reports: :func:`scrub`), and what
it prints on one line through :func:`printable`: a file name, a message or
an answer cannot move the instructor's cursor, fake a score or fail to
encode.
"""

from __future__ import annotations

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
