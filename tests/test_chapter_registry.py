"""book/chapters.yml is the one place that holds a chapter's facts; the rest agrees with it.

A new chapter is one registry entry plus its own files: these tests name every
place that must follow (the table of contents, the page's title and prefixes,
the exercise set's four files and its title, the README's tables).
"""

from __future__ import annotations

import re

import pytest

from conftest import ROOT, chapter_registry, toc_pages
from grader.spec import chapter_names, load_chapter

REGISTRY = chapter_registry()
CHAPTERS = REGISTRY["chapters"]
PAGES = [(entry, None) for entry in CHAPTERS] + [
    (companion, entry) for entry in CHAPTERS for companion in entry.get("companions", [])
]
#: How a page names what it labels and glues: MyST targets, equation labels, figure names, glue keys.
LABEL = re.compile(r"^\(([\w-]+)\)=|^:label:\s*(\S+)|^:name:\s*(\S+)|\$\$\s*\(([\w-]+)\)\s*$", re.M)
GLUE_KEY = re.compile(r"\b(?:glue|glue_number|glue_text|glue_figure|gnum|gtext|gfig)\(\s*[\"']([A-Za-z0-9_]+)[\"']")


def _ids(pages) -> list[str]:
    return [entry["page"].rsplit("/", 1)[-1] for entry, _ in pages]


def test_every_entry_has_the_required_fields() -> None:
    for entry in CHAPTERS:
        assert {"number", "title", "page", "prefix", "exercises"} <= entry.keys(), entry
        for companion in entry.get("companions", []):
            assert {"title", "page", "prefix"} <= companion.keys(), companion


def test_prefixes_and_sets_are_unique() -> None:
    prefixes = [entry["prefix"] for entry, _ in PAGES]
    assert len(set(prefixes)) == len(prefixes), prefixes
    sets = [entry["exercises"] for entry in CHAPTERS]
    assert len(set(sets)) == len(sets), sets


def test_table_of_contents_lists_the_chapters_in_order() -> None:
    """Each chapter is a toc chapter, in registry order, with its companions as its sections."""
    toc = [p for p in toc_pages() if p.in_topic_folder]
    expected = [
        (page, is_section)
        for entry in CHAPTERS
        for page, is_section in [(entry["page"], False)]
        + [(c["page"], True) for c in entry.get("companions", [])]
    ]
    assert [(p.docname, p.is_section) for p in toc] == expected


@pytest.mark.parametrize(("entry", "chapter"), PAGES, ids=_ids(PAGES))
def test_page_title_starts_with_number_and_title(entry: dict, chapter: dict | None) -> None:
    text = (ROOT / f"{entry['page']}.md").read_text()
    heading = re.search(r"^# (.+)$", text, re.M)[1]
    numbered = chapter is None and re.fullmatch(r"\d+(?:\.\d+)*", entry["number"])
    expected = f"{entry['number']} {entry['title']}" if numbered else entry["title"]
    assert heading.startswith(expected), f"{entry['page']}: title {heading!r}, registry {expected!r}"


@pytest.mark.parametrize(("entry", "chapter"), PAGES, ids=_ids(PAGES))
def test_labels_and_glue_names_use_the_page_prefix(entry: dict, chapter: dict | None) -> None:
    text = (ROOT / f"{entry['page']}.md").read_text()
    prefix = entry["prefix"]
    labels = [next(g for g in m.groups() if g) for m in LABEL.finditer(text)]
    glued = GLUE_KEY.findall(text)
    assert labels and glued, f"{entry['page']}: no labels or glue names found (is the scan broken?)"
    wrong = [x for x in labels if not re.match(rf"(?:sec|eq|fig|tab)-{prefix}(?:-|$)", x)]
    wrong += [x for x in glued if not x.startswith(f"{prefix}_")]
    assert not wrong, f"{entry['page']}: names without the prefix {prefix!r}: {wrong}"


def test_exercise_sets_are_the_grader_chapters() -> None:
    assert sorted(entry["exercises"] for entry in CHAPTERS) == chapter_names()


@pytest.mark.parametrize("entry", CHAPTERS, ids=[e["exercises"] for e in CHAPTERS])
def test_exercise_set_files_and_title(entry: dict) -> None:
    name = entry["exercises"]
    for path in (f"exercises/{name}.md", f"solutions/{name}.py", f"grader/chapters/{name}.py",
                 f"grader/chapters/{name}_public.json"):
        assert (ROOT / path).is_file(), f"{path} is missing"
    assert load_chapter(name).title == f"{entry['number']} {entry['title']}"
    notebook = (ROOT / f"exercises/{name}.md").read_text()
    assert re.search(rf"^# Checkpoint exercises {re.escape(entry['number'])} · ", notebook, re.M)
    page = (ROOT / f"{entry['page']}.md").read_text()
    assert f"exercises/{name}.md" in page, f"{entry['page']} does not link its exercise notebook"


def readme_page_rows() -> list[str]:
    """The README's table of pages, as the registry says it should read."""
    rows = []
    for entry in CHAPTERS:
        numbered = re.fullmatch(r"\d+(?:\.\d+)*", entry["number"])
        name = f"{entry['number']} {entry['title']}" if numbered else entry["title"]
        rows.append(f"| {name} | `{entry['page']}.md` | `exercises/{entry['exercises']}.md` |")
        for companion in entry.get("companions", []):
            rows.append(f"| {companion['title']} | `{companion['page']}.md` | with {entry['number']} |")
    return rows


def test_readme_tables_follow_the_registry() -> None:
    readme = (ROOT / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| ") and "`book/dynamics/" in line]
    assert table == readme_page_rows()
    sets = re.search(r"^Chapters: (.+?)\.$", readme, re.M | re.S)[1]
    assert re.findall(r"`(\w+)`", sets) == [entry["exercises"] for entry in CHAPTERS]


def landing_page_chapters(intro: str) -> list[str]:
    """The bold lead words of the bullets under the landing page's "What the book covers"."""
    section = re.search(r"^## What the book covers\n(.*?)^## ", intro, re.M | re.S)
    assert section, "book/intro.md has no section 'What the book covers'"
    return re.findall(r"^- \*\*(.+?)\*\*", section[1], re.M)


def test_landing_page_describes_every_chapter_in_order() -> None:
    leads = landing_page_chapters((ROOT / "book" / "intro.md").read_text())
    expected = [
        f"{entry['number']} {entry['title']}" if entry["number"][0].isdigit()
        else entry["title"] for entry in CHAPTERS
    ]
    assert [lead.rstrip(".") for lead in leads] == expected


def test_landing_page_check_sees_a_missing_chapter() -> None:
    intro = (ROOT / "book" / "intro.md").read_text()
    leads = landing_page_chapters(intro)
    dropped = re.sub(r"^- \*\*3\.4 .*?(?=^- \*\*)", "", intro, count=1, flags=re.M | re.S)
    assert len(landing_page_chapters(dropped)) == len(leads) - 1
