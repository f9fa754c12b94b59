"""The book reads as one book: the editorial conventions of ``../shared/EDITORIAL.md``.

Source checks (fast, no build) read every page of ``_toc.yml`` as a notebook
with jupytext:

- glue bookkeeping (``glue`` and lib.common's ``glue_number``, ``glue_text``,
  ``glue_figure``, also under their short names) sits in removed cells, not in
  foldable ``hide-input`` ones;
- every code line fits the 88-character column;
- no sentence about how the page was made ("the source of this chapter",
  "not read here", "not verified");
- the prose never types a figure number (captions and ``{numref}`` number them);
- one notation (the clashes listed on the notation page do not come back);
- each chapter's list of checkpoint exercises names exactly the exercises of
  its notebook.

Built-page checks (``book`` marker, on the fresh build of ``conftest.book_build``):
every image has real alt text, and figures and equations are numbered per
chapter, with every ``{numref}`` showing the number its caption shows.
"""

from __future__ import annotations

import ast
import functools
import re
from html.parser import HTMLParser
from pathlib import Path

import jupytext
import pytest

from conftest import ROOT, BookBuild, TocPage, toc_pages

#: Tags that keep a code cell's source off the page. A hide-input cell is only folded
#: away (the reader may unfold it), so bookkeeping does not belong there.
HIDDEN_TAGS = {"remove-input", "remove-cell"}
GLUE_CALL = re.compile(
    r"(?<![\w.])(?:glue|gnum|gtext|gfig|glue_number|glue_text|glue_figure)\(|myst_nb\.glue\("
)
COLUMN = 88

#: Sentences about how the page was written, not about robots.
META_TEXT = re.compile(
    r"source of this (?:chapter|lesson|page)"
    r"|(?:chapter|lesson|page)'s source"
    r"|\bsource (?:lesson|chapter|text)\b"
    r"|\b(?:was|were|been|is|are|not) (?:not )?read (?:here|for this)"
    r"|\bnot read\b"
    r"|\bnot (?:been )?verified\b"
    r"|\bunverified\b"
    r"|\bnot checked\b"
    r"|\bthis page (?:has|did) not\b"
    r"|\bas read by\b",
    re.IGNORECASE,
)
TYPED_FIGURE_NUMBER = re.compile(r"\b(?:[Ff]igure|[Ff]ig\.|[Tt]able|[Ee]quation|[Ee]q\.)\s*\(?\d")

PAGES = [p for p in toc_pages() if (ROOT / f"{p.docname}.md").is_file()]
CHAPTERS = [p for p in PAGES if p.is_chapter]
#: The exercise statements are read like pages by the notation checks: a student meets
#: their symbols too.
EXERCISE_SETS = [
    TocPage(docname=path.relative_to(ROOT).with_suffix("").as_posix(), title=None)
    for path in sorted((ROOT / "exercises").glob("*.md"))
]
MATH_SOURCES = PAGES + EXERCISE_SETS
NOTEBOOK_PAGES = [p for p in PAGES if "```{code-cell}" in (ROOT / f"{p.docname}.md").read_text()]


@functools.cache
def _notebook(page: TocPage):
    return jupytext.read(ROOT / f"{page.docname}.md")


def _markdown_prose(page: TocPage) -> list[tuple[int, str]]:
    """(cell number, text) of every Markdown cell, with fenced code and roles' targets removed."""
    out = []
    for i, cell in enumerate(_notebook(page).cells, start=1):
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"^(```|~~~).*?^\1", "", cell.source, flags=re.S | re.M)
        text = re.sub(r"\{[a-z:]+\}`[^`]*`", "ROLE", text)  # {ref}`...`, {cite:p}`...`
        text = re.sub(r"^:[a-z-]+:.*$", "", text, flags=re.M)  # directive options
        out.append((i, text))
    return out


def _prose_matches(page: TocPage, pattern: re.Pattern | str):
    """(cell number, prose text, match) for every match of ``pattern`` in a page's prose."""
    for i, text in _markdown_prose(page):
        for m in re.finditer(pattern, text):
            yield i, text, m


def _math(page: TocPage) -> str:
    """All inline and display maths of a page's Markdown cells, one snippet per line."""
    snippets = []
    for _, text in _markdown_prose(page):
        snippets += re.findall(r"\$\$(.+?)\$\$", text, flags=re.S)
        text = re.sub(r"\$\$.+?\$\$", "", text, flags=re.S)
        snippets += re.findall(r"(?<!\\)\$(.+?)(?<!\\)\$", text, flags=re.S)
    maths = "\n".join(s.replace("\n", " ") for s in snippets)
    # \mathcal G is a symbol of its own: spell it CALG so the patterns below,
    # which look for a bare letter, do not see the G.
    return _calligraphic(maths)


def _calligraphic(maths: str) -> str:
    return re.sub(r"\\mathcal\s*\{?\s*([A-Za-z])\s*\}?", r"CAL\1", maths)


def _ids(pages: list[TocPage]) -> list[str]:
    return [p.docname for p in pages]


# --------------------------------------------------------------------------
# Reading flow
# --------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_glue_bookkeeping_is_hidden(page: TocPage) -> None:
    visible = []
    for i, cell in enumerate(_notebook(page).cells, start=1):
        tags = set(cell.metadata.get("tags", []))
        if cell.cell_type == "code" and not tags & HIDDEN_TAGS and GLUE_CALL.search(cell.source):
            first = next(line for line in cell.source.splitlines() if GLUE_CALL.search(line))
            visible.append(f"cell {i}: {first.strip()}")
    assert not visible, (
        f"{page.docname}: glue calls in visible code cells (move them to a cell tagged "
        "remove-input or remove-cell):\n" + "\n".join(visible)
    )


#: the glue calls of the pages (lib.common's and myst-nb's, and the pages' short names)
GLUE_FUNCTIONS = {"glue", "glue_number", "glue_text", "gnum", "gtext"}


def _literal_glues(source: str) -> list[str]:
    """The glue calls of ``source`` whose value is a number typed into the call."""
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))  # IPython magics
    found = []
    for node in ast.walk(ast.parse(code)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in GLUE_FUNCTIONS and len(node.args) >= 2):
            continue
        value = node.args[1]
        if isinstance(value, ast.UnaryOp):
            value = value.operand
        if isinstance(value, ast.Constant) and isinstance(value.value, (int, float)):
            found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("page", NOTEBOOK_PAGES, ids=_ids(NOTEBOOK_PAGES))
def test_no_glued_number_is_typed_into_its_glue_call(page: TocPage) -> None:
    """A glued number is the variable the computation used, never a number typed twice."""
    typed = [call for cell in _notebook(page).cells if cell.cell_type == "code"
             for call in _literal_glues(cell.source)]
    assert not typed, (f"{page.docname}: glue the variable the computation uses:\n"
                       + "\n".join(typed))


def test_the_literal_glue_scan_can_fail() -> None:
    assert _literal_glues('gnum("xx_a", 2.0); glue_number("xx_b", -1)\n%time f()') == [
        "gnum('xx_a', 2.0)", "glue_number('xx_b', -1)"]
    assert not _literal_glues('gnum("xx_a", N_MAX); gnum("xx_t", ops[-1] / ops[-2])')


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_code_lines_fit_the_column(page: TocPage) -> None:
    wide = []
    for i, cell in enumerate(_notebook(page).cells, start=1):
        if cell.cell_type == "code":
            lines = cell.source.splitlines()
        else:  # fenced code in the prose
            lines = [
                line
                for block in re.findall(r"^```[^\n{]*\n(.*?)^```", cell.source, flags=re.S | re.M)
                for line in block.splitlines()
            ]
        wide += [f"cell {i}: {len(line)} chars: {line[:60]}..." for line in lines if len(line) > COLUMN]
    assert not wide, f"{page.docname}: code lines wider than {COLUMN} characters:\n" + "\n".join(wide)


def _lists_inside_inline_maths(source: str) -> list[str]:
    """Lines that start a Markdown list item while an inline $...$ is still open.

    A wrapped formula whose next line starts with "+ " or "- " becomes a bullet, and the
    rest of the paragraph is rendered as broken maths.
    """
    text = re.sub(r"^(```|~~~).*?^\1", "", source, flags=re.S | re.M)
    text = re.sub(r"\$\$.+?\$\$", "", text, flags=re.S)
    found, dollars = [], 0
    for line in text.splitlines():
        if not line.strip():
            dollars = 0
            continue
        if dollars % 2 and re.match(r"\s*(?:[-+*]|\d+[.)])\s", line):
            found.append(line.strip()[:60])
        dollars += len(re.findall(r"(?<!\\)\$", line))
    return found


@pytest.mark.parametrize("page", PAGES + EXERCISE_SETS, ids=_ids(PAGES + EXERCISE_SETS))
def test_inline_maths_never_wraps_into_a_list_item(page: TocPage) -> None:
    broken = [
        f"cell {i}: {line}"
        for i, cell in enumerate(_notebook(page).cells, start=1)
        if cell.cell_type == "markdown"
        for line in _lists_inside_inline_maths(cell.source)
    ]
    assert not broken, (
        f"{page.docname}: a line inside inline maths starts like a list item (move the "
        "+ or - to the end of the line before):\n" + "\n".join(broken)
    )


def test_list_inside_maths_scan_can_fail() -> None:
    assert _lists_inside_inline_maths("is $a = b - c\n+ d$, and\n- a real item") == ["+ d$, and"]
    assert not _lists_inside_inline_maths("text $a$ and\n- an item with $b$\n- another")


# --------------------------------------------------------------------------
# Claims and numbering in the prose
# --------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_no_text_about_how_the_page_was_made(page: TocPage) -> None:
    found = [
        f"cell {i}: ...{text[max(m.start() - 50, 0) : m.end() + 30]!r}..."
        for i, text, m in _prose_matches(page, META_TEXT)
    ]
    assert not found, (
        f"{page.docname}: text about how the page was made; cite the claim, check it on the "
        "page, or mark it '(stated; see ...)':\n" + "\n".join(found)
    )


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_unchecked_claims_use_one_marker(page: TocPage) -> None:
    """The one quiet marker is "(stated; see {cite:p}`key`)" or "... (stated)"."""
    odd = [
        f"cell {i}: {m.group(0)!r}"
        for i, _, m in _prose_matches(page, r"\((?:stated|claimed|assumed|unchecked)[^)]*\)")
        if not re.fullmatch(r"\(stated(?:; see ROLE(?:, ROLE)*)?\)", m.group(0))
    ]
    assert not odd, f"{page.docname}: other forms of the 'stated' marker:\n" + "\n".join(odd)


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_prose_never_types_a_figure_or_equation_number(page: TocPage) -> None:
    typed = [
        f"cell {i}: {text[max(m.start() - 30, 0) : m.end() + 20]!r}"
        for i, text, m in _prose_matches(page, TYPED_FIGURE_NUMBER)
    ]
    assert not typed, (
        f"{page.docname}: a typed figure/table/equation number; use {{numref}} or {{eq}}:\n"
        + "\n".join(typed)
    )


# --------------------------------------------------------------------------
# Numbers in alt texts and captions are computed (book/_ext/glue_alt.py)
# --------------------------------------------------------------------------

#: A figure or table directive, fenced with backticks or colons.
FIGURE_DIRECTIVE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{(?P<name>glue:figure|figure|table|list-table|image)\}"
    r"[^\n]*\n(?P<body>.*?)^(?P=fence)\s*$",
    re.S | re.M,
)
#: A number standing alone: "0.3", "-4", "1e-2", "30" (not the 4 of RK4 or the 1 of A1).
NUMBER = re.compile(r"(?<![\w.])[-+−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")
#: What may quote a number: a glue role, a cross-reference, a citation, inline maths.
COMPUTED_OR_REFERENCE = re.compile(
    r"\{glue:text\}`[^`]*`|\{(?:numref|ref|eq|cite:p|cite:t|cite|doc)\}`[^`]*`"
    r"|\$\$.+?\$\$|(?<!\\)\$.+?(?<!\\)\$|`[^`]*`",
    re.S,
)


def _alt_texts_and_captions(page: TocPage) -> list[tuple[int, str]]:
    """(cell number, text) of every figure's alt text and caption, and every table title."""
    out = []
    for i, cell in enumerate(_notebook(page).cells, start=1):
        if cell.cell_type != "markdown":
            continue
        for m in FIGURE_DIRECTIVE.finditer(cell.source):
            title = cell.source[m.start() : cell.source.index("\n", m.start())]
            if m["name"] in ("table", "list-table"):
                out.append((i, title.split("}", 1)[1]))
            for line in m["body"].splitlines():
                if line.startswith(":alt:") or (line.strip() and not line.startswith(":")):
                    out.append((i, line.removeprefix(":alt:")))
    return out


def _literal_numbers(text: str) -> list[str]:
    return NUMBER.findall(COMPUTED_OR_REFERENCE.sub(" ", text))


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_alt_texts_and_captions_quote_only_glued_numbers(page: TocPage) -> None:
    """Every number a figure's alt text or caption quotes is computed: a glue role."""
    literal = [
        f"cell {i}: {numbers} in {text.strip()[:90]!r}"
        for i, text in _alt_texts_and_captions(page)
        if (numbers := _literal_numbers(text))
    ]
    assert not literal, (
        f"{page.docname}: numbers typed into alt texts or captions; glue them and quote "
        "them with {glue:text}`key:fmt` (book/_ext/glue_alt.py fills alt texts):\n"
        + "\n".join(literal)
    )


def test_literal_number_scan_can_fail() -> None:
    """The scan finds typed numbers and passes glued ones, references and names."""
    assert _literal_numbers("drift of about 1e-2 after 4 s at -4 N m") == ["1e-2", "4", "-4"]
    assert _literal_numbers("a 15 degree ramp, slope-2 line") == ["15", "2"]
    assert not _literal_numbers(
        "drift {glue:text}`cd_drift:.1e` m; RK4's A1 and l2, {numref}`fig-cd-3`, "
        "$n_d = 4$, `lib.models.planar_2r_arm` {cite:p}`hertz1882`"
    )


# --------------------------------------------------------------------------
# One notation (see book/appendix/notation.md)
# --------------------------------------------------------------------------

#: Each clash the notation page resolved, as a pattern in a page's maths, and the fix.
NOTATION_CLASHES = [
    (r"(?<![\\A-Za-z{])G(?![A-Za-z])", "plain G: spatial inertia is \\mathcal G, the Delassus "
     "matrix A, the contact Jacobian J"),
    (r"\\lambda_\{?[ntcijk123]\b", "lambda with a subscript: normal/friction forces are f_n, f_t, "
     "principal moments I_1..I_3; lambda is only a multiplier"),
    (r"\bm_d\b|m_\{d\}", "m_d: the number of pyramid edges is n_d"),
    (r"(?<![\\A-Za-z{])V_\{?[absf]\b", "plain V for a twist: write \\mathcal V"),
    (r"(?<![\\A-Za-z])E\^\{?T|[|\s]E\s*\\lambda|\\lambda\s*E\b", "E as a block of ones: H"),
    (r"(?<![\\A-Za-z{])h\s*\\beta|\\beta\s*h\b|\\phi\s*/\s*h\b|/\s*h\b",
     "h as a time step: \\Delta t"),
    (r"(?<![\\A-Za-z{_])T\s*=\s*\\t?frac\s*\{?1\}?\s*\{?2",
     "T for kinetic energy: K (T is a pose)"),
    (r"(?<![\\A-Za-z{_])T_\{?k\b", "T_k for tangential Jacobian rows: D_k"),
    (r"(?<![\\A-Za-z{_])S\s*\\tau", "S tau: S selects the actuated coordinates, "
     "theta = S q, so motor forces enter as S^T tau"),
    (r"\bm\s*\\times\s*n\b|\bn\s*[-+]\s*m(?![A-Za-z_])|\bm_\{?a\b|\\mathbb\s*R\^\{?m\b",
     "m as a count of constraints or actuators: counts are n_c and n_a (m is a mass)"),
    (r"\\nu\^\{?T|\\nu\s*\(J", "nu as a multiplier: the multiplier is lambda (nu is Poisson's ratio)"),
    (r"\\d?dot\s*e(?![A-Za-z])", "e as an error that has a rate: e is the restitution coefficient"),
    (r"(?<![\\A-Za-z{_])R\(\s*(?:z\b|-)", "R(z) for an integrator's factor per step: varrho "
     "(R is a rotation or a radius)"),
    (r"(?<![\\A-Za-z{_])T_\{?c\b", "T_c for the contact time: t_c (T is a pose)"),
    (r"(?<![\\A-Za-z{_])c_\{?T\b", "c_T beside the tangential impulse c_t: name the factor in words"),
    (r"-\s*b\s*(?:\\,)?\s*(?:\\dot|J)", "b as MuJoCo's damping: d_r (b is the LCP's vector)"),
    (r"\(\s*\\tau\s*,\s*\\zeta\s*\)|\\xi\s*\\tau", "tau as a time constant: t_r (tau is a "
     "joint force)"),
    (r"\\d?dot\s*r\b|\\delta\s*=\s*-\s*r\b", "r as a gap: phi"),
    (r"(?<![\\A-Za-z{_])W_\{?t[nt]\b",
     "W as the Delassus matrix: A (W is the Stewart platform's leg-wrench matrix)"),
    (r"(?<![\\A-Za-z{_])p\s*=\s*E_h|\\int_\\Gamma\s*p\s*\\,", "p for a pressure: p_h "
     "(p is a position)"),
    (r"\\pi\s*a\^2|(?<![\\A-Za-z{_])a\s*&?=\s*\\sqrt\{2R", "a for the patch radius: rho_max "
     "(a is an acceleration)"),
    (r"\\omega\s*'|\\omega\^\{?\\prime", "a prime for 'after': omega^+ as v^+"),
    (r"(?<![\\A-Za-z{_])P\s*=\s*\(\s*c_", "P for an impulse: c = (c_t, c_n) (P is the projection)"),
]


@pytest.mark.parametrize("page", MATH_SOURCES, ids=_ids(MATH_SOURCES))
def test_notation_clashes_stay_resolved(page: TocPage) -> None:
    maths = _math(page)
    found = [
        f"{why}: ...{maths[max(m.start() - 25, 0) : m.end() + 15]}..."
        for pattern, why in NOTATION_CLASHES
        for m in re.finditer(pattern, maths)
    ]
    assert not found, f"{page.docname}: notation clashes:\n" + "\n".join(found)


NOTATION_PAGE = next(p for p in PAGES if p.docname == "book/appendix/notation")
GREEK = set(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta "
    "Theta Lambda Xi Pi Sigma Phi Psi Omega".split()
)
#: Symbols every reader knows without a table: the number pi and Landau's O.
UNIVERSAL_SYMBOLS = {"\\pi", "O"}


def _symbols(maths: str) -> set[str]:
    """Greek letters and capital Latin letters used as symbols (not subscripts, not words)."""
    maths = re.sub(r"\\(?:text|mathrm|operatorname|mathbb|begin|end)\s*\{[^}]*\}", " ", maths)
    maths = re.sub(r"\\\{[A-Za-z]+\\\}", " ", maths)  # frame names such as {C}
    maths = re.sub(r"_\{[^}\n]*\}|_[A-Za-z]", " ", maths)  # subscripts: I_C, I_{CL}
    greek = {"\\" + g for g in re.findall(r"\\([A-Za-z]+)", maths) if g in GREEK}
    capitals = set(re.findall(r"(?<![\\A-Za-z])([A-Z])(?![A-Za-z])", re.sub(r"\\[A-Za-z]+", " ", maths)))
    return greek | capitals


def test_symbol_scan_can_fail() -> None:
    assert _symbols(r"\Omega_k^2 = \Omega^2 (I_k - I_a) + T_{ab} + \{C\} + I_C") == {
        "\\Omega", "I", "T"}


#: Symbols that a page may only use if the notation page lists them (a pattern for the
#: page's maths, matched in the notation page's maths too): the lower-case letters and
#: subscripted symbols whose meaning the chapters had let drift.
LISTED_SYMBOLS = {
    "m": r"(?<![\\A-Za-z{_])m(?![A-Za-z])",
    "n": r"(?<![\\A-Za-z{_])n(?![A-Za-z_])",
    "n_c": r"\bn_\{?c\b",
    "n_a": r"\bn_\{?a\b",
    "n_d": r"\bn_\{?d\b",
    "e": r"(?<![\\A-Za-z{_])e(?![A-Za-z^_])",
    "f": r"(?<![\\A-Za-z{_])f(?![A-Za-z_])",
    "a": r"(?<![\\A-Za-z{_])a(?![A-Za-z_])",
    "a_u": r"\ba_\{?u\b",
    "J_c": r"(?<![\\A-Za-z])J_\{?c\b",
    "J_d": r"(?<![\\A-Za-z])J_\{?d\b",
    "J_e": r"(?<![\\A-Za-z])J_\{?e\b",
    "lambda_d": r"\\lambda_\{?d\b",
    "gamma_c": r"\\gamma_\{?c\b",
    "theta": r"\\theta(?![A-Za-z_])",
    "t_c": r"(?<![\\A-Za-z])t_\{?c\b",
    "t_r": r"(?<![\\A-Za-z])t_\{?r\b",
    "k_r": r"(?<![\\A-Za-z])k_\{?r\b",
    "d_r": r"(?<![\\A-Za-z])d_\{?r\b",
    "mu_r": r"\\mu_\{?r\b",
    "mu_s": r"\\mu_\{?s\b",
    "mu_k": r"\\mu_\{?k\b",
    "r_c": r"(?<![\\A-Za-z])r_\{?c\b",
    "p_h": r"(?<![\\A-Za-z])p_\{?h\b",
    "n-hat": r"\\hat\s*\{?n\b",
    "A-hat": r"\\hat\s*\{?A\b",
    "rho_max": r"\\rho_\{?\\max",
    "delta_max": r"\\delta_\{?\\max",
    "n_i": r"(?<![\\A-Za-z])n_\{?i\b",
    "l_i": r"(?<![\\A-Za-z])l_\{?i\b",
    "omega^+": r"\\omega\^\{?\+",
}
#: A symbol whose whole subscript is a name: k_\text{eff}, J_{\text{full}}, a_\text{ref}
#: (not a frame label built from a name, as T_{\mathrm{pa}(i)\,i}).
NAMED_SUBSCRIPT = re.compile(
    r"(\\[A-Za-z]+|(?<![\\A-Za-z])[A-Za-z])\s*_\s*"
    r"(?:\{\s*\\(?:text|mathrm)\s*\{([^}]*)\}\s*\}|\\(?:text|mathrm)\s*\{([^}]*)\})"
)


def _named_subscripts(maths: str) -> set[str]:
    return {f"{base}_{(braced or bare).strip()}"
            for base, braced, bare in NAMED_SUBSCRIPT.findall(maths)}


def _unlisted(maths: str, notation: str) -> list[str]:
    """The symbols of ``maths`` that the notation page's maths ``notation`` does not list."""
    missing = sorted(_symbols(maths) - _symbols(notation) - UNIVERSAL_SYMBOLS)
    missing += sorted(_named_subscripts(maths) - _named_subscripts(notation))
    missing += [name for name, pattern in LISTED_SYMBOLS.items()
                if re.search(pattern, maths) and not re.search(pattern, notation)]
    return missing


@pytest.mark.parametrize("page", MATH_SOURCES, ids=_ids(MATH_SOURCES))
def test_every_symbol_is_on_the_notation_page(page: TocPage) -> None:
    """The notation page is the contract: each Greek or capital letter a page uses is listed,
    and so is each named subscript and each symbol of LISTED_SYMBOLS."""
    missing = _unlisted(_math(page), _math(NOTATION_PAGE))
    assert not missing, (
        f"{page.docname}: symbols not on book/appendix/notation.md (add them with the section "
        f"that introduces them, or use a listed symbol): {missing}"
    )


def test_unlisted_symbols_are_caught() -> None:
    """A planted symbol that the notation page does not list is reported, of each kind."""
    notation = _math(NOTATION_PAGE)
    planted = r"\Theta + k_\text{foo} + J_{\text{bar}}\,q + M\ddot q + T_{\mathrm{pa}(i)\,i}"
    assert _unlisted(planted, notation) == ["\\Theta", "J_bar", "k_foo"]
    # a listed lower-case or subscripted symbol the notation page lost is reported too
    for name in ("J_c", "t_c", "mu_r", "n_c", "e"):
        sample = {"J_c": "J_c\\ddot q", "t_c": "t_c = 1", "mu_r": "\\mu_r f_n",
                  "n_c": "n - n_c", "e": "v^{+} = -e v^{-}"}[name]
        lost = re.sub(LISTED_SYMBOLS[name], "X", notation)
        assert name in _unlisted(sample, lost), name
        assert name not in _unlisted(sample, notation), name


def _labels() -> dict[str, str]:
    """Every MyST section label of the book and the page that defines it."""
    return {
        label: path.relative_to(ROOT).with_suffix("").as_posix()
        for path in (ROOT / "book").rglob("*.md")
        for label in re.findall(r"^\((sec-[\w-]+)\)=", path.read_text(), re.M)
    }


def test_notation_rows_point_at_the_pages_that_use_them() -> None:
    """Each row's symbol appears in the maths of every page its row cites."""
    labels = _labels()
    pages = {p.docname: p for p in PAGES}
    wrong = []
    for row in re.findall(r"^\| (\$.*)$", (ROOT / "book/appendix/notation.md").read_text(), re.M):
        cells = [c.strip() for c in row.split(" | ")]
        symbol = re.match(r"\$([^$]+)\$", cells[0])[1]
        # The base letter of the row's first symbol: T of T_{ab}, q of "q, \dot q".
        head = _calligraphic(re.split(r"\s*(?:=|\\in|\(|,|_|\^)", symbol)[0].strip())
        head = re.sub(r"^\\(?:dot|ddot|hat|bar)\s*", "", head)
        for label in re.findall(r"\{ref\}`([^`]+)`", cells[-1]):
            if label not in labels:
                wrong.append(f"{symbol}: no section labelled {label}")
            elif not re.search(rf"(?<![A-Za-z\\]){re.escape(head)}(?![A-Za-z])",
                               _math(pages[labels[label]])):
                wrong.append(f"{symbol}: {head!r} does not appear on {labels[label]} ({label})")
    assert not wrong, "notation page rows that do not match the chapters:\n" + "\n".join(wrong)


def test_identity_is_not_e_outside_the_elasticity_pages() -> None:
    """E is Young's modulus (3.12, Drake page); nowhere else is E a symbol."""
    for page in PAGES:
        if page.docname.endswith(
            ("contact-and-impact", "drake-hydroelastic-troubleshooting", "appendix/notation")
        ):
            continue
        hits = re.findall(r".{0,25}(?<![\\A-Za-z{])E(?![A-Za-z]).{0,15}", _math(page))
        assert not hits, f"{page.docname}: E in the maths (the identity is \\mathbf 1): {hits}"


def test_notation_clash_patterns_can_fail() -> None:
    """Each pattern above catches the clash it names (so the notation test is not vacuous)."""
    samples = [
        r"A = G M^{-1} G^{T}",
        r"\lambda_n \ge 0",
        r"m_d = 4",
        r"V_b = (\omega, v)",
        r"D v + E\lambda \ge 0",
        r"b = N v + \phi/h",
        r"T = \tfrac12 \omega^{T} I \omega",
        r"N_k = (r_x, 0, 1),\ T_k = (-r_y, 1, 0)",
        r"M\ddot q + h = S\tau",
        r"J \in \mathbb R^{m\times n},\ n - m",
        r"L = \tfrac12 a^{T}Ma - \nu^{T}(Ja - \gamma)",
        r"\ddot e + 2\alpha\dot e + \beta^2 e = 0",
        r"R(z) = 1 + z + z^2/2",
        r"T_c = c\,\delta_{\max}/v_0",
        r"c_T = 2\int_0^1",
        r"a_\text{ref} = -b\dot r - k_r r",
        r"(\tau, \zeta)",
        r"\delta = -r",
        r"|W_{tn}| < \mu W_{tt}",
        r"p = E_h(1 - r/R)",
        r"\pi a^2",
        r"\omega' = \omega",
        r"P = (c_t, c_n)",
    ]
    for (pattern, why), sample in zip(NOTATION_CLASHES, samples, strict=True):
        assert re.search(pattern, sample), why
    for clean in (r"\mathcal G_b", r"\Gamma(2/5)", r"\mathcal V_b", r"f_n", r"n_d",
                  r"\phi/\Delta t", r"M\ddot q + h = \tau", r"K = \tfrac12 v^{T} M v",
                  r"T_{ab} = (R_{ab}, p_{ab})", r"D_k", r"S^{T}\tau", r"I_{T}",
                  r"J \in \mathbb R^{n_c\times n},\ n - n_c", r"\lambda^{T}(Ja - \gamma)",
                  r"e^{-\beta t}", r"\nu_1", r"R(\varphi)\,r", r"R(\theta)p_k", r"t_c",
                  r"T_{CL}", r"-d_r\,J_e v - k_r\,\phi", r"(t_r, \zeta)", r"\delta = -\phi",
                  r"|A_{tn}| < \mu A_{tt}", r"p_h = E_h(1 - r/R)", r"\pi\rho_{\max}^2",
                  r"\omega^{+} r_c", r"c = (c_t, c_n)", r"\ddot\Phi", r"m(a_c - g)"):
        clean = _calligraphic(clean)
        assert not any(re.search(p, clean) for p, _ in NOTATION_CLASHES), clean


# --------------------------------------------------------------------------
# Exercise lists
# --------------------------------------------------------------------------


def _exercise_names(notebook: Path) -> list[str]:
    return re.findall(r"^## Exercise [^`\n]*`([A-Za-z_][A-Za-z0-9_]*)`", notebook.read_text(), re.M)


@pytest.mark.parametrize("page", CHAPTERS, ids=_ids(CHAPTERS))
def test_chapter_lists_the_exercises_of_its_notebook(page: TocPage) -> None:
    text = (ROOT / f"{page.docname}.md").read_text()
    section = text[text.index("Checkpoint exercises") :] if "Checkpoint exercises" in text else ""
    linked = re.search(r"exercises/([a-z_]+\.md)", section)
    assert linked, f"{page.docname}: no checkpoint-exercise section linking exercises/<file>.md"
    names = _exercise_names(ROOT / "exercises" / linked.group(1))
    assert names, f"exercises/{linked.group(1)} has no '## Exercise ... `name`' headings"
    listed = re.findall(
        r"^\s*(?:\d+\.|[-*])\s+(?:\*\*[\w.]+\*\*\s+)?(?:\*\*)?`([A-Za-z_][A-Za-z0-9_]*)`", section, re.M
    )
    assert listed == names, (
        f"{page.docname}: the chapter lists {listed}, the notebook has {names}"
    )


# --------------------------------------------------------------------------
# The built pages
# --------------------------------------------------------------------------


class _PageParser(HTMLParser):
    """Collect images, equation numbers, caption numbers and numbered references."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []
        self.eqnos: list[str] = []
        self.captions: list[tuple[str | None, str]] = []  # (figure id, "Fig. 3")
        self.numrefs: list[tuple[str, str]] = []  # (href, "Fig. 3")
        self._figure_ids: list[str | None] = []
        self._capture: str | None = None
        self._href: str = ""
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "img":
            self.images.append(a)
        elif tag in ("figure", "div", "table") and (
            tag == "figure" or "figure" in classes or tag == "table"
        ):
            self._figure_ids.append(a.get("id"))
        if tag == "span" and "eqno" in classes:
            self._capture, self._text = "eqno", ""
        elif tag == "span" and "caption-number" in classes:
            self._capture, self._text = "caption", ""
        elif tag == "span" and "std-numref" in classes:
            self._capture, self._text = "numref", ""
        elif tag == "a":
            self._href = a.get("href") or ""

    def handle_data(self, data: str) -> None:
        if self._capture:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._capture:
            text = self._text.strip()
            if self._capture == "eqno":
                self.eqnos.append(text)
            elif self._capture == "caption":
                fig_id = next((i for i in reversed(self._figure_ids) if i), None)
                self.captions.append((fig_id, text))
            else:
                self.numrefs.append((self._href, text))
            self._capture = None


def _parse(path: Path) -> _PageParser:
    parser = _PageParser()
    parser.feed(path.read_text())
    return parser


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_every_image_has_alt_text(book_build: BookBuild, toc_page: TocPage) -> None:
    page = _parse(book_build.html_dir / toc_page.html)
    bad = [
        img.get("src")
        for img in page.images
        if not (img.get("alt") or "").strip()
        or re.search(r"\.(png|svg|jpe?g|gif)$|^_images|/_images/", img.get("alt") or "")
    ]
    assert not bad, f"{toc_page.docname}: images without real alt text: {bad}"


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_numbers_restart_on_every_page(book_build: BookBuild, toc_page: TocPage) -> None:
    page = _parse(book_build.html_dir / toc_page.html)
    # the span holds "(n)" and a "#" permalink: read the number only
    equations = [int(re.search(r"\d+", n).group()) for n in page.eqnos if re.search(r"\d", n)]
    assert equations == list(range(1, len(equations) + 1)), (
        f"{toc_page.docname}: equation numbers {equations}"
    )
    for kind in ("Fig.", "Table"):
        numbers = [int(t.split()[-1].rstrip(".")) for _, t in page.captions if t.startswith(kind)]
        assert numbers == list(range(1, len(numbers) + 1)), (
            f"{toc_page.docname}: {kind} numbers {numbers}"
        )


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_numbered_references_show_the_caption_number(book_build: BookBuild) -> None:
    """A {numref} to a figure shows the number printed under that figure (any page)."""
    captions: dict[str, str] = {}
    parsed = {}
    for page in toc_pages():
        path = book_build.html_dir / page.html
        parsed[page.html] = _parse(path)
        for fig_id, text in parsed[page.html].captions:
            if fig_id:
                captions[f"{page.html}#{fig_id}"] = text.rstrip(".")
    wrong = []
    for html, page in parsed.items():
        for href, text in page.numrefs:
            target = href if "#" in href and not href.startswith("#") else f"{html}{href}"
            target = str(Path(html).parent / target) if not href.startswith("#") else target
            target = re.sub(r"[^/]+/\.\./", "", target)
            if target in captions and captions[target] not in text:
                wrong.append(f"{html}: reference {text!r} to {target} captioned {captions[target]!r}")
    assert not wrong, "\n".join(wrong)
