"""Chapter 3.11's page: the numbers its prose quotes are computed or read from lib, not retyped.

Issue 19 found model inputs glued as typed numbers (``gnum("cd_fb_rho", 2.0)``, the rod
density that ``lib.models.fourbar.fourbar_dynamics`` already holds): the prose would keep
quoting 2 kg/m if the model changed. A glue call whose value is a bare literal is such a
retyped input; the page reads model inputs from lib (its ``defaults`` helper) or names a
variable that its computation uses.
"""

from __future__ import annotations

import ast
from pathlib import Path

import jupytext

PAGE = Path(__file__).resolve().parents[1] / "book" / "dynamics" / "constrained-dynamics.md"
GLUE_FUNCTIONS = {"gnum", "glue", "glue_number"}


def _literal_glues(source: str) -> list[str]:
    """The glue calls of ``source`` whose value is a number typed into the call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in GLUE_FUNCTIONS and len(node.args) >= 2):
            continue
        value = node.args[1]
        if isinstance(value, ast.UnaryOp):
            value = value.operand
        if isinstance(value, ast.Constant) and isinstance(value.value, (int, float)):
            found.append(ast.unparse(node))
    return found


def test_no_glued_number_is_typed_into_the_glue_call():
    nb = jupytext.read(PAGE)
    typed = [call for cell in nb.cells if cell.cell_type == "code"
             for call in _literal_glues("\n".join(line for line in cell.source.splitlines()
                                                  if not line.lstrip().startswith(("%", "!"))))]
    assert not typed, "glue the variable the computation uses, or lib's default:\n" + "\n".join(typed)


def test_the_literal_glue_scan_can_fail():
    assert _literal_glues('gnum("cd_fb_rho", 2.0); gnum("x", -1); glue("y", 3e-3, display=False)') == [
        "gnum('cd_fb_rho', 2.0)", "gnum('x', -1)", "glue('y', 0.003, display=False)"]
    assert not _literal_glues('gnum("cd_fb_rho", defaults(f)["density"]); gnum("z", 100 * h4)')
