"""Links to files of the repository, built from one address in ``_config.yml``.

The repository's address is written once, under ``repository:`` in
``_config.yml`` (Jupyter Book passes it on as ``html_theme_options``); the
launch buttons use it, and so do these two roles, so a course that forks the
book changes one line:

- ``{repo-file}`exercises/rigid_body_dynamics.md``` links to the file on the
  repository's web page, shown as the path in code font;
- ``{binder-file}`exercises/rigid_body_dynamics.md``` opens that file in
  JupyterLab on Binder (text "open it on Binder"); ``{binder-file}`Binder
  <exercises/x.md>``` chooses the text.

A chapter links to an exercise notebook with a plain relative Markdown link,
``[`exercises/x.md`](../../exercises/x.md)``. In JupyterLab (and on Binder)
that link opens the local file in the running server; in the HTML book, where
the notebook is not a page, :class:`RepositoryFileLinks` turns it into the
file's address on the repository's web page followed by "(open it on
Binder)". A Binder link inside a running Binder would start a second server.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxRole

EXPLICIT = re.compile(r"^(?P<text>.+?)\s*<(?P<path>[^<>]+)>$", re.S)


def _repository(config) -> tuple[str, str, str]:
    """(owner/name, web address, branch) from the theme options Jupyter Book sets."""
    options = getattr(config, "html_theme_options", {}) or {}
    url = (options.get("repository_url") or "").rstrip("/")
    branch = options.get("repository_branch") or "main"
    match = re.match(r"https?://github\.com/([^/]+/[^/]+)$", url)
    if not match:
        raise ValueError(
            f"repository.url in _config.yml must be https://github.com/<owner>/<name>, got {url!r}"
        )
    return match.group(1), url, branch


def repo_file_url(config, path: str) -> str:
    """Address of ``path`` on the repository's web page."""
    _, url, branch = _repository(config)
    return f"{url}/blob/{branch}/{quote(path.lstrip('/'))}"


def binder_file_url(config, path: str) -> str:
    """Binder address that opens ``path`` in JupyterLab."""
    slug, _, branch = _repository(config)
    options = getattr(config, "html_theme_options", {}) or {}
    hub = (options.get("launch_buttons", {}) or {}).get("binderhub_url") or "https://mybinder.org"
    return f"{hub.rstrip('/')}/v2/gh/{slug}/{branch}?urlpath=lab/tree/{quote(path.lstrip('/'))}"


class _FileRole(SphinxRole):
    default_text = ""
    literal = False

    def url(self, path: str) -> str:
        raise NotImplementedError

    def run(self):
        match = EXPLICIT.match(self.text)
        text, path = (match["text"], match["path"]) if match else (self.default_text, self.text)
        text = text or path
        try:
            refuri = self.url(path)
        except ValueError as error:
            message = self.inliner.reporter.error(str(error), line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        child = nodes.literal(text, text) if self.literal and not match else nodes.Text(text)
        return [nodes.reference(self.rawtext, "", child, refuri=refuri)], []


class RepoFileRole(_FileRole):
    literal = True

    def url(self, path: str) -> str:
        return repo_file_url(self.config, path)


class BinderFileRole(_FileRole):
    default_text = "open it on Binder"

    def url(self, path: str) -> str:
        return binder_file_url(self.config, path)


class RepositoryFileLinks(SphinxPostTransform):
    """Markdown links to repository files that are not book pages → web + Binder links.

    Runs before MyST's own resolver (priority 9), which would otherwise warn
    "Unknown source document" for a notebook outside the table of contents.
    """

    default_priority = 8

    def run(self, **kwargs) -> None:
        srcdir = Path(self.env.srcdir)
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst" or node.get("refdomain") != "doc":
                continue
            docname = node["reftarget"]
            if docname in self.env.all_docs:
                continue
            files = [srcdir / f"{docname}{suffix}" for suffix in self.config.source_suffix]
            if not any(f.is_file() for f in files):
                continue  # a real missing page: let MyST warn
            path = next(f for f in files if f.is_file()).relative_to(srcdir).as_posix()
            if node.children and isinstance(node[0], nodes.inline) and node[0].children:
                text = [child.deepcopy() for child in node[0].children]  # [text](...)
            else:
                text = [nodes.literal(path, path)]  # <...> autolink: show the path
            web = nodes.reference("", "", *text, refuri=repo_file_url(self.config, path))
            binder = nodes.reference("", "open it on Binder",
                                     refuri=binder_file_url(self.config, path))
            node.replace_self([web, nodes.Text(" ("), binder, nodes.Text(")")])


def setup(app: Sphinx) -> dict[str, object]:
    app.add_role("repo-file", RepoFileRole())
    app.add_role("binder-file", BinderFileRole())
    app.add_post_transform(RepositoryFileLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
