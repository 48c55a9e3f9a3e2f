"""MkDocs hooks (mkdocs.yml's `hooks:`): the site's links to the repository.

The pages in docs/ link to the repository's own files by their real paths
(`../../hardware/README.md`), so the links also work where the repository
is read as files, on a forge or in an editor. The site carries the few of
those files that are documentation for a maker (the pin table, the bill of
materials, the wiring picture) at the same paths under its root, and the
links to them are rewritten to point there (and their own links into
docs/ to the pages' places in the site). A link to any other file that
exists outside docs/ (a source file) becomes its path in code, since the
site has no copy of it to show; a link to a file that does not exist is
left as written, so `mkdocs build --strict` reports it as broken.

The printable cards for the table (lint/table_cards.py, from `wolfbox
script` with the box's defaults) are made once a build and carried at
cards/{game}-{lang}.html.
"""

from __future__ import annotations

import posixpath
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent

# Repository files the site shows, at the same path under the site's root.
CARRIED = ("hardware/README.md", "hardware/BOM.md", "hardware/wiring.svg",
           "hardware/audio-wiring.svg")

_cards: dict[str, str] = {}


def cards() -> dict[str, str]:
    """The cards for the default decks, by their path in the site (made once:
    the hooks run for every language's build)."""
    if not _cards:
        sys.path.insert(0, str(ROOT / "lint"))
        from table_cards import GAMES, LANGS, make

        with tempfile.TemporaryDirectory() as out:
            for path in make(Path(out), list(GAMES), list(LANGS), [], fresh=True):
                _cards[f"cards/{path.name}"] = path.read_text()
    return _cards


LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s#]+)(#[^)\s]*)?\)")


# After mkdocs-static-i18n's (-100), which drops pages from outside docs/.
@event_priority(-200)
def on_files(files: Files, config: Any) -> Files:
    for path in CARRIED:
        if files.get_file_from_path(path) is None:
            carried = File.generated(config, path, abs_src_path=str(ROOT / path))
            if posixpath.basename(path) == "README.md":
                # Not a section's index (navigation.indexes would fold the
                # pin table into the Build heading, out of every nav's list):
                # a page of its own, hardware/README.html.
                carried.name = "README"
            files.append(carried)
    for path, content in cards().items():
        if files.get_file_from_path(path) is None:
            files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    source = Path(page.file.abs_src_path).parent
    site_dir = posixpath.dirname(page.file.src_uri)
    docs = Path(config["docs_dir"]).resolve()

    def relink(match: re.Match[str]) -> str:
        bang, label, url, fragment = match.groups()
        if "://" in url or url.startswith(("/", "mailto:")):
            return match.group(0)
        target = (source / url).resolve()
        if target.is_relative_to(docs) and not source.is_relative_to(docs):
            # A carried file's link into the manual (BOM.md to a page):
            # the page's place in the site, from where the site carries it.
            new = posixpath.relpath(target.relative_to(docs).as_posix(), site_dir or ".")
            return f"{bang}[{label}]({new}{fragment or ''})"
        if target.is_relative_to(docs) or not target.is_relative_to(ROOT):
            return match.group(0)
        path = target.relative_to(ROOT).as_posix()
        if path in CARRIED:
            new = posixpath.relpath(path, site_dir or ".")
            return f"{bang}[{label}]({new}{fragment or ''})"
        if target.exists():
            return f"`{path}`" if label in (path, url) or bang else f"{label} (`{path}`)"
        return match.group(0)

    return LINK.sub(relink, markdown)
