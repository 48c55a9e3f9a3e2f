"""The manual: a README of one screen, and the site built from docs/.

The site is built as CI builds it (`mkdocs build --strict`: a broken link or
anchor, or a page left out of the nav, fails it), and every picture of the
box's screen it shows is the one `wolfbox screenshot` draws today, in the
picture's language: a screen changed without `make screenshots` fails here.
The phones' pictures are taken by the browser tests (`make screenshots`);
each one the site shows must be one of theirs."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SHOTS = DOCS / "screenshots"
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def shown(kind: str) -> dict[Path, list[Path]]:
    """Every picture under docs/screenshots/ a page shows or links to,
    with the pages that do."""
    found: dict[Path, list[Path]] = {}
    for page in pages():
        for url in LINK.findall(page.read_text()):
            target = (page.parent / url.split("#")[0]).resolve()
            if target.suffix == ".png" and target.is_relative_to(SHOTS):
                if (target.parent.name == "phones") == (kind == "phones"):
                    found.setdefault(target, []).append(page)
    return found


def test_the_readme_is_one_screen_and_links_into_the_manual() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    for url in LINK.findall(readme) + re.findall(r'src="([^"]+)"', readme):
        if "://" not in url:
            assert (ROOT / url.split("#")[0]).exists(), url
    linked = {(ROOT / u.split("#")[0]).resolve() for u in LINK.findall(readme)}
    for part in ("play", "build", "develop"):
        assert any(p.is_relative_to(DOCS / part) for p in linked), part


def test_the_readmes_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme[readme.index("## Quick start"):]
    quick = quick[:quick.index("\n## ", 1)]
    assert re.search(r"^make test\b", quick, re.M)
    assert re.search(r"^make test\b", (ROOT / ".ci/run").read_text(), re.M)


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="MkDocs is not installed: `make docs` installs it")
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict",
         "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    site = tmp_path / "site"
    for lang in ("", "de/", "zh/"):
        assert (site / lang / "play/buttons.html").is_file()
        # The pin table in every language's nav, as a page of its own (not
        # folded into the Build heading as a section's index page).
        nav = (site / lang / "build/wiring.html").read_text()
        assert re.search(r'href="[./]*hardware/README\.html" class="md-nav__link[^"]*">\s*'
                         r'<span class="md-ellipsis">\s*Pins and lights', nav), lang
    # Opened from the disk (README: build/site/index.html), every link of
    # every page lands on a file: a link to a folder shows a browser's
    # directory listing there, and a link from the root (/de/) leaves the site.
    broken: set[str] = set()
    pages = [p for p in site.rglob("*.html") if p.name != "404.html"]   # a server's page
    assert len(pages) > 60
    for page in pages:
        for href in re.findall(r'<a [^>]*href="([^"]*)"', page.read_text()):
            target = href.split("#", 1)[0]
            if not target or re.match(r"[a-z]+:", target):
                continue
            if target.startswith("/") or not (page.parent / target).is_file():
                broken.add(f"{page.relative_to(site)} -> {href}")
    assert not broken, sorted(broken)[:10]


def test_every_box_screen_the_site_shows_is_drawn_so_today(tmp_path: Path) -> None:
    import pygame

    pictures = shown("box")
    assert len(pictures) > 50                         # the manual shows the box
    langs = {p.parent.name if p.parent != SHOTS else "en" for p in pictures}
    assert langs == {"en", "de", "zh"}
    pygame.init()
    for lang in sorted(langs):
        out = tmp_path / lang
        result = subprocess.run(
            [sys.executable, "-m", "wolfbox", "screenshot", "--lang", lang,
             "--out", str(out), "--size", "480x320"],
            cwd=ROOT, capture_output=True, text=True, timeout=600,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                 "XDG_STATE_HOME": str(tmp_path / "state")})     # nothing remembered
        assert result.returncode == 0, result.stderr
        for picture, where in pictures.items():
            if (picture.parent.name if picture.parent != SHOTS else "en") != lang:
                continue
            fresh = out / picture.name
            assert fresh.exists(), f"{picture} (shown by {where[0]}) is no screen of the box's"
            old = pygame.image.load(str(picture))
            new = pygame.image.load(str(fresh))
            assert old.get_size() == new.get_size() and \
                pygame.image.tobytes(old, "RGB") == pygame.image.tobytes(new, "RGB"), \
                f"{picture.relative_to(ROOT)} is not the screen the box draws now: make screenshots"


def test_every_phone_picture_the_site_shows_is_one_the_browser_tests_take() -> None:
    pictures = shown("phones")
    assert pictures
    taken = []           # the names the tests give their pictures, {lang} and all
    for source in (ROOT / "tests").glob("*browser.py"):
        for name in re.findall(r"""["']([\w{}-]+\.png)["']""", source.read_text()):
            parts = re.split(r"\{\w+\}", name)
            taken.append(re.compile(r"[\w-]+".join(map(re.escape, parts))))
    assert taken
    for picture, where in pictures.items():
        assert picture.exists(), f"{picture} (shown by {where[0]}) is missing"
        assert any(t.fullmatch(picture.name) for t in taken), \
            f"{picture.name} (shown by {where[0]}) is taken by no test"


# The how-to-play pages, in the table's language too.
HOW_TO_PLAY = ("buttons", "one-night", "mayor", "timed", "phones", "cards")


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_how_to_play_pages_are_in_the_tables_language_with_its_screens(lang: str) -> None:
    """Every how-to-play page has its German and Chinese page, in the nav's
    place of the English one (mkdocs-static-i18n's suffix), and each
    picture of the box or a phone it shows is the one taken in that language."""
    for name in HOW_TO_PLAY:
        page = DOCS / "play" / f"{name}.{lang}.md"
        assert page.exists(), page
        text = page.read_text()
        assert text.startswith("# ") and len(text) > 500, page
        pictures = [(page.parent / u).resolve() for u in IMAGE.findall(text)]
        for picture in pictures:
            assert picture.exists(), picture
            if picture.is_relative_to(SHOTS / "phones"):
                assert picture.name.startswith(f"{lang}-"), (page.name, picture.name)
            elif picture.is_relative_to(SHOTS):
                assert picture.parent == SHOTS / lang, (page.name, picture)
        if name != "cards":
            assert pictures, page
    # the words of the page are the language's, not the English page's
    english = (DOCS / "play/buttons.md").read_text().split("\n\n")
    translated = (DOCS / f"play/buttons.{lang}.md").read_text()
    assert not any(par in translated for par in english if len(par) > 80)


def load_cards():
    sys.path.insert(0, str(ROOT / "lint"))
    import table_cards
    return table_cards


def script_json(*args: str) -> dict:
    result = subprocess.run([sys.executable, "-m", "wolfbox", "script", "--json", *args],
                            capture_output=True, text=True, timeout=600,
                            env={**os.environ, "XDG_STATE_HOME": "/nonexistent/wolfbox"})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


HAN = r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef\u201c\u201d]"


def test_no_chinese_paragraph_breaks_its_line_between_two_characters() -> None:
    """Markdown joins a paragraph's lines with a space, which Chinese does not
    put between words: a line break between two Han characters or their
    punctuation shows as a stray gap on the page ("发 一张")."""
    gaps = []
    for page in sorted(DOCS.rglob("*.zh.md")):
        lines = page.read_text(encoding="utf-8").split("\n")
        for n, (line, after) in enumerate(zip(lines, lines[1:], strict=False), 1):
            nxt = after.lstrip()
            if re.search(HAN + "$", line) and re.match(HAN, nxt) \
                    and not line.lstrip().startswith(("|", "#", "```")):
                gaps.append(f"{page.relative_to(ROOT)}:{n}")
    assert gaps == []


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_a_card_gives_tonights_night_in_the_boxs_order(tmp_path: Path, lang: str) -> None:
    """The card's night is the box's own calls for the deck, in its order,
    in the card's language; the Mayor's has every threshold."""
    import html

    cards = load_cards()
    deck = ["--deck", "total_chaos_mixed", "--players", "10"]
    [path] = cards.make(tmp_path, ["one_night"], [lang], deck, fresh=True)
    page = html.unescape(path.read_text())
    calls = [step["text"] for step in script_json("--lang", lang, *deck)["steps"]]
    assert len(calls) > 10
    at = [page.index(call) for call in calls]
    assert at == sorted(at)                           # in the box's order
    assert page.count("<li>") == len(calls)
    [path] = cards.make(tmp_path, ["dark_arts"], [lang], ["--players", "12"], fresh=True)
    page = html.unescape(path.read_text())
    mayor = script_json("--mode", "dark_arts", "--lang", lang, "--players", "12")
    at = [page.index(step["text"]) for step in mayor["night"]]
    assert at == sorted(at)
    for living, hands in mayor["thresholds"].items():
        assert f"{cards.TEXT[lang]['living'].format(n=living)}: <b>{hands}</b>" in page


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="no Debian chromium")
def test_every_card_prints_on_one_page(tmp_path: Path) -> None:
    """The default cards and the longest One Night deck, in every language:
    one A4 page each, as Chromium prints them."""
    cards = load_cards()
    paths = cards.make(tmp_path, list(cards.GAMES), list(cards.LANGS), [], fresh=True)
    paths += cards.make(tmp_path / "big", ["one_night"], list(cards.LANGS),
                        ["--deck", "total_chaos_mixed", "--players", "10"], fresh=True)
    for pdf in cards.to_pdf(paths):
        pages = re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes())
        assert len(pages) == 1, pdf.name


def test_a_card_for_a_deck_the_box_refuses_says_why_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "lint/table_cards.py"), "--out", str(tmp_path), "--fresh",
         "--game", "one_night", "--lang", "en", "--", "--deck", "nonsense"],
        capture_output=True, text=True, timeout=600)
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1 and "nonsense" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_the_timed_cards_night_is_the_boxs_turns(tmp_path: Path, lang: str) -> None:
    """Every turn of the timed game's night, in the box's words and order,
    with the windows of the config file's [timed]."""
    import html

    from wolfbox.i18n import speaking
    from wolfbox.newd3.turns import Kind, Times, night_turns

    config = tmp_path / "box.toml"
    config.write_text("[timed]\naction_seconds = 20\n")
    cards = load_cards()
    [path] = cards.make(tmp_path, ["newd3"], [lang], ["--config", str(config)], fresh=True)
    page = html.unescape(re.sub(r"<[^>]+>", "", path.read_text()))
    with speaking(lang):
        turns = [t for t in night_turns(Times(action=20.0)) if t.kind is not Kind.LOOK]
    wait = cards.TEXT[lang]["wait"]
    at = [page.index(f"{turn.wake} ({turn.seconds:g} {wait})") for turn in turns]
    assert at == sorted(at) and len(at) == 10
