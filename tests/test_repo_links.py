"""The repository's address is written once (``_config.yml``), and the links use it."""

from __future__ import annotations

import importlib.util
import re
from types import SimpleNamespace

import pytest
import yaml

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("repo_links", ROOT / "book" / "_ext" / "repo_links.py")
repo_links = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(repo_links)


def _config(url: str, branch: str = "main", hub: str | None = None) -> SimpleNamespace:
    options = {"repository_url": url, "repository_branch": branch}
    if hub:
        options["launch_buttons"] = {"binderhub_url": hub}
    return SimpleNamespace(html_theme_options=options)


def test_links_follow_the_configured_repository() -> None:
    config = _config("https://github.com/my-course/dynamics-fork", branch="fall-2027")
    assert repo_links.repo_file_url(config, "exercises/a b.md") == (
        "https://github.com/my-course/dynamics-fork/blob/fall-2027/exercises/a%20b.md"
    )
    assert repo_links.binder_file_url(config, "exercises/x.md") == (
        "https://mybinder.org/v2/gh/my-course/dynamics-fork/fall-2027?urlpath=lab/tree/exercises/x.md"
    )
    hub = _config("https://github.com/a/b", hub="https://binder.example.edu/")
    assert repo_links.binder_file_url(hub, "x.md").startswith("https://binder.example.edu/v2/gh/a/b/main?")


@pytest.mark.parametrize("url", ["", "https://gitlab.com/a/b", "https://github.com/only-owner"])
def test_an_unusable_address_is_a_clear_error(url: str) -> None:
    with pytest.raises(ValueError, match="repository.url in _config.yml"):
        repo_links.repo_file_url(_config(url), "README.md")


def test_the_address_is_written_only_in_config() -> None:
    """Chapters, the landing page and the README use the roles or name no address."""
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    slug = re.sub(r"^https://github\.com/", "", url)
    offenders = [
        str(path.relative_to(ROOT))
        for path in [*ROOT.glob("book/**/*.md"), ROOT / "README.md", *ROOT.glob("exercises/*.md")]
        if slug in path.read_text()
    ]
    assert not offenders, f"{slug} is written out in {offenders}; use {{repo-file}}/{{binder-file}}"


#: A relative Markdown link from a page to a file of the repository.
RELATIVE_LINK = re.compile(r"\]\((?P<path>(?:\.\./)+[^)#\s]+)\)")


def test_relative_links_to_repository_files_exist() -> None:
    """The links JupyterLab opens locally point at files that exist."""
    links = [
        (page, match["path"])
        for page in ROOT.glob("book/**/*.md")
        for match in RELATIVE_LINK.finditer(page.read_text())
    ]
    assert any("exercises/" in path for _, path in links), "no chapter links its exercises"
    missing = [
        f"{page.relative_to(ROOT)}: {path}"
        for page, path in links
        if not (page.parent / path).resolve().is_file()
    ]
    assert not missing, f"relative links to missing files: {missing}"


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_exercise_links_become_web_and_binder_links(book_build) -> None:
    """In the HTML book the relative link to a notebook is its web address plus a Binder link."""
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"].rstrip("/")
    slug = re.sub(r"^https://github\.com/", "", url)
    html = (book_build.html_dir / "book" / "dynamics" / "constrained-dynamics.html").read_text()
    web = f'href="{url}/blob/main/exercises/constrained_dynamics.md"'
    binder = f'href="https://mybinder.org/v2/gh/{slug}/main?urlpath=lab/tree/exercises/constrained_dynamics.md"'
    assert web in html and binder in html
    assert html.index(binder) - html.index(web) < 400, "the Binder link does not follow the file link"
    assert "../../exercises/" not in html
