"""The book as one PDF (``make pdf``, ``tools/build_pdf.py``).

In ``make test`` (and CI) the PDF is printed from this run's fresh book build
(``book_build``: the singlehtml build reuses its execution cache, so no
chapter runs twice). ``make test-pdf`` builds the PDF with ``make pdf`` and
points ``BOOK_PDF`` at it. Every built page's download
menu links it. The text is read with PDFium (pypdfium2, a C library: the
whole book in seconds), the fonts and content streams with pypdf: a sane
number of pages, every chapter's heading and the notation and bibliography
pages in the text, no unresolved reference (``??``), no missing glyph (a
character drawn with glyph 0, ``.notdef``, the box a font shows for a
character it lacks) and no replacement character. ``test_glyph_check_*`` show
that the glyph check catches a ``.notdef``. The tests that read the book's PDF
form one xdist group (conftest.py), so it is printed and read once per run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import pypdfium2
from pypdf import PdfReader

from conftest import ROOT, BookBuild, chapter_registry

sys.path.insert(0, str(ROOT / "tools"))
import build_pdf  # noqa: E402

#: A sane length for the book: each chapter is tens of A4 pages; the API
#: appendix adds more. Fewer means pages are missing; more, a layout gone wrong.
MIN_PAGES, MAX_PAGES = 150, 1500
#: Headings of the appendix pages the PDF must hold besides the chapters.
APPENDIX_HEADINGS = ("Notation", "Bibliography")


@pytest.fixture(scope="module")
def book_pdf(request: pytest.FixtureRequest) -> Path:
    if os.environ.get("BOOK_PDF"):
        pdf = Path(os.environ["BOOK_PDF"]).resolve()
        assert pdf.is_file(), f"BOOK_PDF={pdf} does not exist (make pdf writes it)"
        return pdf
    book_build: BookBuild = request.getfixturevalue("book_build")
    assert book_build.returncode == 0, book_build.report()
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_pdf.py"),
                    "--path-output", str(book_build.output)], cwd=ROOT, check=True)
    pdf = book_build.html_dir / build_pdf.PDF_NAME
    assert pdf.is_file(), f"{pdf} was not written"
    return pdf


def page_texts(pdf: Path) -> list[str]:
    """The text of each page, as PDFium (pypdfium2) extracts it, lines ending in ``\\n``."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        texts = []
        for page in document:
            textpage = page.get_textpage()
            texts.append(textpage.get_text_bounded().replace("\r\n", "\n"))
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()


@pytest.fixture(scope="module")
def pdf_text(book_pdf: Path) -> list[str]:
    return page_texts(book_pdf)


def flat(text: str) -> str:
    """Text with line breaks and runs of spaces as one space, hyphenation undone."""
    return " ".join(re.sub(r"-\n(?=[a-z])", "", text).split())


#: The tokens of a content stream that matter for the glyph check (pypdf reads the
#: pages' fonts and inflates the streams; this scans them, in C, for these tokens).
_TOKENS = re.compile(
    rb"(?P<lit>\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\))"  # a literal string (one level of nesting)
    rb"|<<|>>"
    rb"|(?P<hex><[0-9A-Fa-f\s]*>)"  # a hex string
    rb"|(?P<font>/[^\s/\[\]()<>{}%]+)\s+[-+.\d]+\s+Tf(?![^\s/\[\]()<>{}%])"
    rb"|(?P<open>\[)"
    rb"|(?P<show>(?<![^\s\]>)])(?:Tj|TJ|'|\")(?![^\s/\[\]()<>{}%]))"
)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _string_bytes(token: bytes) -> bytes:
    """The bytes of a content stream's string token, ``<hex>`` or ``(literal)``."""
    if token.startswith(b"<"):
        digits = re.sub(rb"\s", b"", token[1:-1])
        return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode())
    body = re.sub(rb"\\\r?\n", b"", token[1:-1])  # a backslash at a line's end continues it

    def unescape(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        return bytes([int(code, 8) & 0xFF]) if code[:1].isdigit() else _ESCAPES.get(code, code)

    return re.sub(rb"\\([0-7]{1,3}|.)", unescape, body, flags=re.S)


def notdef_glyphs(reader: PdfReader) -> list[str]:
    """Where a page draws glyph 0 (``.notdef``) of a composite (Type0, 2-byte) font."""
    found = []
    for number, page in enumerate(reader.pages, start=1):
        fonts = page.get("/Resources", {}).get("/Font", {})
        contents = page.get_contents()
        if contents is None:
            continue
        composite = {name for name, ref in fonts.items() if ref.get_object().get("/Subtype") == "/Type0"}
        font = None
        strings: list[bytes] = []
        for m in _TOKENS.finditer(contents.get_data()):
            kind = m.lastgroup
            if kind == "font":
                font = m.group("font").decode("latin-1")
            elif kind in ("lit", "hex"):
                strings.append(m.group(0))
            elif kind == "open":
                strings = []
            elif kind == "show":
                shown = strings if m.group(0) == b"TJ" else strings[-1:]
                strings = []
                if font in composite:
                    for s in shown:
                        data = _string_bytes(s)
                        if any(data[i:i + 2] == b"\0\0" for i in range(0, len(data) - 1, 2)):
                            found.append(f"page {number}, font {fonts[font].get_object().get('/BaseFont')}")
    return found


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("pdf")
def test_every_page_links_the_pdf(book_pdf: Path) -> None:
    """The download menu of each built page links the PDF (relative, so a copied book keeps it)."""
    html_dir = book_pdf.parent
    problems = []
    for page in sorted(html_dir.glob("book/**/*.html")):
        hrefs = re.findall(r'href="([^"]*' + re.escape(book_pdf.name) + ')"', page.read_text(encoding="utf-8"))
        if not hrefs:
            problems.append(f"{page.relative_to(html_dir)}: no link to {book_pdf.name}")
        elif any((page.parent / href).resolve() != book_pdf for href in hrefs):
            problems.append(f"{page.relative_to(html_dir)}: {hrefs} is not {book_pdf}")
    assert not problems, "\n".join(problems)


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("pdf")
def test_pdf_has_a_sane_number_of_pages(book_pdf: Path) -> None:
    pages = len(PdfReader(book_pdf).pages)
    assert MIN_PAGES <= pages <= MAX_PAGES, f"{book_pdf}: {pages} pages, expected {MIN_PAGES}-{MAX_PAGES}"


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("pdf")
def test_pdf_holds_every_chapter_and_the_appendix(pdf_text: list[str]) -> None:
    text = flat("\n".join(pdf_text))
    missing = []
    for chapter in chapter_registry()["chapters"]:
        title = flat(chapter["title"])
        numbered = re.fullmatch(r"\d+(\.\d+)*", chapter["number"])
        heading = f"{chapter['number']} {title}" if numbered else title
        if heading not in text:
            missing.append(heading)
    missing += [h for h in APPENDIX_HEADINGS if h not in text]
    assert not missing, f"headings not in the PDF's text: {missing}"


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("pdf")
def test_pdf_has_no_unresolved_reference_or_missing_glyph(book_pdf: Path, pdf_text: list[str]) -> None:
    unresolved = [f"page {i}: ...{t[max(0, t.index('??') - 60):t.index('??') + 20]!r}..."
                  for i, t in enumerate(pdf_text, start=1) if "??" in t]
    replacement = [f"page {i}" for i, t in enumerate(pdf_text, start=1) if "\ufffd" in t]
    notdef = notdef_glyphs(PdfReader(book_pdf))
    assert not unresolved, "unresolved references ('??'):\n" + "\n".join(unresolved[:10])
    assert not replacement, f"U+FFFD (a character that could not be shown) on {replacement[:10]}"
    assert not notdef, f"missing glyphs (.notdef drawn): {notdef[:10]}"


def _print_html(browser, tmp_path: Path, body: str) -> Path:
    page_file = tmp_path / "page.html"
    page_file.write_text(f'<!DOCTYPE html><html lang="en"><body><p>{body}</p></body></html>', encoding="utf-8")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        pdf = tmp_path / "page.pdf"
        page.pdf(path=str(pdf))
    finally:
        context.close()
    return pdf


@pytest.mark.browser
def test_glyph_check_passes_text_every_font_has(browser, tmp_path: Path) -> None:
    pdf = _print_html(browser, tmp_path, "Newton and Euler: F = m a, 3.12")
    assert notdef_glyphs(PdfReader(pdf)) == []
    assert "Newton and Euler" in page_texts(pdf)[0]


@pytest.mark.browser
def test_glyph_check_catches_a_character_no_font_has(browser, tmp_path: Path) -> None:
    # Private-use code points: no installed font draws them, Chromium draws .notdef.
    pdf = _print_html(browser, tmp_path, "a box: \ue000\ue001")
    assert notdef_glyphs(PdfReader(pdf)), "a .notdef glyph was not found"
