"""Printable cards for the table: one page a game, in English, German and Chinese.

A card says what a table needs with the box in the middle: what each button
does in that game, the night in the order the box will call it for
tonight's deck, and what the phones do. The night is the box's own: it comes
from `wolfbox script --json` (the same calls, waits and thresholds the box
uses) and, for the timed game, from its turns (wolfbox.newd3.turns, with the
config file's [timed] windows), so a card cannot drift from the game; the
rest is the manual's text, written here in each language.

    python lint/table_cards.py --out build/cards              # tonight's decks
    python lint/table_cards.py --out DIR --game one_night -- --deck total_chaos --players 8

Without --fresh, `wolfbox script` reads the box's remembered deck and the
config file, as the box would tonight; the documentation site builds its
cards with --fresh (the defaults) so the site does not depend on the
machine that builds it. --pdf also prints each card to PDF with Chromium.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

GAMES = ("one_night", "dark_arts", "newd3")
LANGS = ("en", "de", "zh")
SLUG = {"one_night": "one-night", "dark_arts": "mayor", "newd3": "timed"}

TEXT: dict[str, dict[str, object]] = {
    "en": {
        "title": {"one_night": "One Night", "dark_arts": "Werewolf with a Mayor",
                  "newd3": "Timed Werewolf for nine"},
        "buttons": "The buttons",
        "night": "Tonight's night, in the box's order",
        "phones": "With phones",
        "first": "first night only",
        "wait": "s",
        "hands": "Hands a lynch needs",
        "living": "{n} living",
        "majority": "Votes to be out (more than half of the living)",
        "phases": {"discussion": "Discussion", "vote": "Vote", "coordination": "Wolves plan",
                   "actions": "Actions"},
        "clocks": "004's clocks (the day; the night on phones)",
        "setups": "The nine setups (one is dealt in secret)",
        "seat1": "Seat 1 faces the screen; the others follow clockwise.",
        "keys": {
            "one_night": [
                ("START", "start a round · pause / resume · back to the start"),
                ("VOTE", "one more player · end the night, then vote · vote now · ask the referee"),
                ("NEXT", "next deck · skip a line · one more minute · next page of rules"),
                ("BACK", "one player fewer · hold 2 s: end the round"),
                ("hold NEXT", "settings (language, volume, …) · hold VOTE: the other game"),
            ],
            "dark_arts": [
                ("START", "confirm (OK) · pause a night or a clock"),
                ("VOTE", "act on the seat (died, accuse, shot) · yes · one hand more"),
                ("NEXT / BACK", "move round the ring · BACK: change, one hand less"),
                ("hold VOTE", "undo the last entry · hold NEXT: the book"),
                ("hold BACK", "twice: end the game"),
            ],
            "newd3": [
                ("VOTE", "hold: see your card, read your message · choose a seat · mark"),
                ("NEXT / BACK", "move round the ring · NEXT by day: the setups still possible"),
                ("START", "move on (the kill) · pause the day · confirm the count"),
                ("hold VOTE", "by day: go to the vote now"),
                ("hold BACK", "twice: end the game early"),
            ],
        },
        "night_newd3": [
            "Every turn is called every night and keeps its whole time, whether its role "
            "was dealt or not, alive or dead; then every seat in turn reads its message "
            "(hold VOTE).",
        ],
        "phone_text": {
            "one_night": "With a phone at every seat the box deals the cards to the phones. "
                         "Hold the bar at the foot of the page to see your card. At every call "
                         "every phone gets a task of the same shape: the one called has real "
                         "choices, everyone else taps anything (it changes nothing). "
                         "Vote on the phone; the box settles who died and who won.",
            "dark_arts": "The box deals the cards to the phones; everyone reads theirs in a "
                         "30 s window with eyes open. At night every player's phone only says "
                         "to keep your eyes closed. The Mayor's phone is the console (accept its "
                         "code on the box with START). The hands go up on the phones.",
            "newd3": "The deal is one 30 s step; at night the Wolves plan on their phones, "
                     "then everyone acts at once and reads their message at once, all behind "
                     "the cover. The votes are taken on the phones.",
        },
        "join": "Join: hold START on the box for the QR code and the PIN, "
                "type the PIN and your name, tap your seat.",
    },
    "de": {
        "title": {"one_night": "Vollmondnacht", "dark_arts": "Werwolf mit Bürgermeister",
                  "newd3": "Werwolf mit Zeitlimit, zu neunt"},
        "buttons": "Die Knöpfe",
        "night": "Die Nacht heute, in der Reihenfolge der Box",
        "phones": "Mit Handys",
        "first": "nur in der ersten Nacht",
        "wait": "s",
        "hands": "Hände für einen Lynchmord",
        "living": "{n} Lebende",
        "majority": "Stimmen, um rauszufliegen (mehr als die Hälfte der Lebenden)",
        "phases": {"discussion": "Diskussion", "vote": "Abstimmung",
                   "coordination": "Die Wölfe planen", "actions": "Aktionen"},
        "clocks": "Die Uhren von 004 (der Tag; die Nacht mit Handys)",
        "setups": "Die neun Besetzungen (eine wird geheim ausgeteilt)",
        "seat1": "Spieler 1 sitzt vor dem Bildschirm, die anderen folgen im Uhrzeigersinn.",
        "keys": {
            "one_night": [
                ("START", "Runde starten · Pause / weiter · zurück zum Start"),
                ("VOTE", "ein Spieler mehr · Nacht beenden, dann abstimmen · sofort "
                         "abstimmen · auswerten lassen"),
                ("NEXT", "nächstes Deck · Satz überspringen · eine Minute mehr · "
                         "nächste Regelseite"),
                ("BACK", "ein Spieler weniger · 2 s halten: Runde abbrechen"),
                ("NEXT halten", "Optionen (Sprache, Lautstärke …) · VOTE halten: "
                                "das andere Spiel"),
            ],
            "dark_arts": [
                ("START", "bestätigen (OK) · Nacht oder Uhr anhalten"),
                ("VOTE", "am gewählten Spieler handeln (gestorben, anklagen, Schuss) · "
                         "ja · eine Hand mehr"),
                ("NEXT / BACK", "im Sitzkreis weiter · BACK: ändern, eine Hand weniger"),
                ("VOTE halten", "letzten Eintrag rückgängig · NEXT halten: die Chronik"),
                ("BACK halten", "zweimal: Spiel beenden"),
            ],
            "newd3": [
                ("VOTE", "halten: Karte ansehen, Nachricht lesen · Spieler wählen · markieren"),
                ("NEXT / BACK", "im Sitzkreis weiter · NEXT am Tag: die noch möglichen "
                                "Besetzungen"),
                ("START", "weiter (beim Töten) · den Tag anhalten · Zählung bestätigen"),
                ("VOTE halten", "am Tag: sofort abstimmen"),
                ("BACK halten", "zweimal: Spiel vorzeitig beenden"),
            ],
        },
        "night_newd3": [
            "Jede Runde wird jede Nacht gerufen und dauert ihre volle Zeit, ob die Rolle "
            "ausgeteilt ist oder nicht, lebendig oder tot; danach liest jeder Spieler der "
            "Reihe nach seine Nachricht (VOTE halten).",
        ],
        "phone_text": {
            "one_night": "Hat jeder Platz ein Handy, teilt die Box die Karten auf die Handys "
                         "aus. Den Balken unten gedrückt halten, um die eigene Karte zu sehen. "
                         "Bei jedem Ruf bekommt jedes Handy eine Aufgabe derselben Form: Wer "
                         "gerufen ist, wählt wirklich, alle anderen tippen irgendetwas (es "
                         "ändert nichts). Abgestimmt wird auf dem Handy; die Box wertet aus.",
            "dark_arts": "Die Box teilt die Karten auf die Handys aus; alle lesen ihre Karte "
                         "30 Sekunden lang mit offenen Augen. Nachts sagt jedes Spielerhandy "
                         "nur: Augen zu. Das Handy des Bürgermeisters ist die Konsole (seinen "
                         "Code auf der Box mit START annehmen). Die Hände gehen auf den "
                         "Handys hoch.",
            "newd3": "Das Austeilen ist ein Schritt von 30 s; nachts planen die Wölfe auf "
                     "ihren Handys, dann handeln alle gleichzeitig und lesen gleichzeitig "
                     "ihre Nachricht, alles hinter der Abdeckung. Abgestimmt wird auf den "
                     "Handys.",
        },
        "join": "Mitspielen: START an der Box halten für QR-Code und PIN, PIN und Namen "
                "eingeben, eigenen Platz antippen.",
    },
    "zh": {
        "title": {"one_night": "一夜终极狼人", "dark_arts": "镇长狼人杀",
                  "newd3": "九人限时狼人杀"},
        "buttons": "按钮",
        "night": "今晚的夜晚流程（按盒子的顺序）",
        "phones": "用手机玩",
        "first": "仅第一夜",
        "wait": "秒",
        "hands": "处决所需的举手数",
        "living": "存活{n}人",
        "majority": "出局所需票数（超过存活人数的一半）",
        "phases": {"discussion": "讨论", "vote": "投票", "coordination": "狼商议",
                   "actions": "行动"},
        "clocks": "004 的计时（白天；用手机时的夜晚）",
        "setups": "九种配置（秘密发其中一种）",
        "seat1": "面对屏幕的是1号玩家，其他人按顺时针依次编号。",
        "keys": {
            "one_night": [
                ("START", "开始一局 · 暂停 / 继续 · 回到开始屏幕"),
                ("VOTE", "多一名玩家 · 结束夜晚并投票 · 立即投票 · 请盒子判定"),
                ("NEXT", "下一套牌 · 跳过这句 · 加一分钟 · 下一页规则"),
                ("BACK", "少一名玩家 · 按住 2 秒：结束本局"),
                ("按住 NEXT", "设置（语言、音量……） · 按住 VOTE：换游戏"),
            ],
            "dark_arts": [
                ("START", "确认 · 暂停夜晚或计时"),
                ("VOTE", "对选中的座位操作（死亡、指控、开枪） · 是 · 加一票"),
                ("NEXT / BACK", "在座位环上移动 · BACK：修改、减一票"),
                ("按住 VOTE", "撤销上一步 · 按住 NEXT：记录"),
                ("按住 BACK", "两次：结束游戏"),
            ],
            "newd3": [
                ("VOTE", "按住：看牌、看消息 · 选择座位 · 标记"),
                ("NEXT / BACK", "在座位环上移动 · 白天按 NEXT：还可能的配置"),
                ("START", "往下走（杀人时） · 暂停白天 · 确认计票"),
                ("按住 VOTE", "白天：立即投票"),
                ("按住 BACK", "两次：提前结束游戏"),
            ],
        },
        "night_newd3": [
            "不管这个角色有没有发出、是死是活，每晚每个轮次都会叫到，并占满全部时间；"
            "之后每个人依次查看自己的消息（按住 VOTE）。",
        ],
        "phone_text": {
            "one_night": "每个座位都有手机时，盒子把牌发到手机上。按住页面底部的横条查看自己的"
                         "牌。每次唤醒，每部手机都会收到同样格式的任务：被唤醒的人有真正的选项，"
                         "其他人随便点一个（什么都不会改变）。在手机上投票，由盒子判定胜负。",
            "dark_arts": "盒子把牌发到手机上；大家睁眼，在 30 秒内看自己的牌。夜里每个玩家的"
                         "手机只提示闭眼。镇长的手机是控制台（在盒子上按 START 接受它的数字）。"
                         "大家在手机上举手。",
            "newd3": "发牌只需 30 秒的一步；夜里狼在手机上商议，然后所有人同时行动、同时看"
                     "消息，一切都藏在遮挡板后面。投票也在手机上。",
        },
        "join": "加入：在盒子上按住 START 显示二维码和 PIN，输入 PIN 和名字，点自己的座位。",
    },
}

STYLE = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Noto Sans", "WenQuanYi Micro Hei", sans-serif;
       font-size: 9.5pt; line-height: 1.3; color: #111; margin: 0 auto; max-width: 186mm; }
h1 { font-size: 17pt; margin: 0 0 1mm; }
h2 { font-size: 11pt; margin: 3mm 0 1mm; border-bottom: 1px solid #888; }
.deck { font-size: 10pt; margin: 0 0 1mm; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 1px solid #bbb; padding: 0.6mm 1.5mm; vertical-align: top; text-align: left; }
th { white-space: nowrap; }
ol { margin: 0; padding-left: 6mm; }
li { margin: 0 0 0.6mm; }
.wait { color: #555; white-space: nowrap; }
.first { font-style: italic; color: #555; }
.row { display: flex; flex-wrap: wrap; gap: 1mm 4mm; }
.START { color: #1b7a1b; } .VOTE { color: #b3141b; } .NEXT { color: #1846b3; }
.BACK { color: #9a7400; }
"""


def script(game: str, lang: str, args: list[str], fresh: bool) -> tuple[dict, str]:
    """`wolfbox script` for one game and language: its JSON and its first line."""
    wolfbox = [sys.executable, "-m", "wolfbox"]
    base = [*wolfbox, "script", "--mode", game, "--lang", lang, *args]
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as state:
        if fresh:
            env["XDG_STATE_HOME"] = state               # nothing remembered: the defaults
        data = subprocess.run([*base, "--json"], env=env, capture_output=True, text=True)
        text = subprocess.run(base, env=env, capture_output=True, text=True)
    for result in (data, text):
        if result.returncode != 0:
            raise SystemExit(result.stderr.strip() or f"wolfbox script failed for {game}")
    return json.loads(data.stdout), text.stdout


def timed_night(lang: str, args: list[str]) -> tuple[list[tuple[str, float]], str, float, int]:
    """The timed game's night as the box runs it (wolfbox.newd3.turns, with the
    windows of the config file's [timed] if --config names one): the calls
    with their windows, then one seat's message turn, its window, how many."""
    import wolfbox.lineup  # noqa: F401  (the games' config sections)
    from wolfbox.config import load
    from wolfbox.i18n import speaking
    from wolfbox.newd3 import section
    from wolfbox.newd3.turns import Kind, night_turns

    config = Path(args[args.index("--config") + 1]) if "--config" in args[:-1] else None
    times = section.of(load(config)).times()
    with speaking(lang):
        turns = night_turns(times)
    calls = [(t.wake, t.seconds) for t in turns if t.kind is not Kind.LOOK]
    looks = [t for t in turns if t.kind is Kind.LOOK]
    return calls, looks[0].wake, looks[0].seconds, len(looks)


def key_class(key: str) -> str:
    return next((b for b in ("START", "VOTE", "NEXT", "BACK") if b in key), "")


def card(game: str, lang: str, data: dict, text: str,
         timed: tuple[list[tuple[str, float]], str, float, int] | None = None) -> str:
    t = TEXT[lang]
    e = html.escape
    title = t["title"][game]                           # type: ignore[index]
    lines = text.splitlines()
    out = [f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">',
           f"<title>{e(title)}</title><style>{STYLE}</style></head><body>",
           f"<h1>{e(title)}</h1>", f'<p class="deck">{e(lines[0])}</p>',
           f"<p>{e(str(t['seat1']))}</p>", f"<h2>{e(str(t['buttons']))}</h2><table>"]
    for key, does in t["keys"][game]:                  # type: ignore[index]
        out.append(f'<tr><th class="{key_class(key)}">{e(key)}</th><td>{e(does)}</td></tr>')
    out.append(f"</table><h2>{e(str(t['night']))}</h2>")
    wait = str(t["wait"])
    if game == "one_night":
        out.append("<ol>")
        for step in data["steps"]:
            secs = f' <span class="wait">({step["seconds"]:g} {wait})</span>' \
                if step["seconds"] else ""
            out.append(f"<li>{e(step['text'])}{secs}</li>")
        out.append("</ol>")
    elif game == "dark_arts":
        out.append("<ol>")
        for step in data["night"]:
            secs = f' <span class="wait">({step["seconds"]:g} {wait})</span>' \
                if step["seconds"] else ""
            first = f' <span class="first">({e(str(t["first"]))})</span>' \
                if step["first_night_only"] else ""
            out.append(f"<li>{e(step['text'])}{secs}{first}</li>")
        out.append(f"</ol><h2>{e(str(t['hands']))}</h2><div class=\"row\">")
        for living, hands in data["thresholds"].items():
            out.append(f"<span>{e(str(t['living']).format(n=living))}: <b>{hands}</b></span>")
        out.append("</div>")
    else:
        out += [f"<p>{e(line)}</p>" for line in t["night_newd3"]]  # type: ignore[attr-defined]
        if timed is not None:
            calls, look, look_seconds, seats = timed
            out.append("<ol>")
            out += [f'<li>{e(call)} <span class="wait">({secs:g} {wait})</span></li>'
                    for call, secs in calls]
            out.append(f'<li>{e(look)} <span class="wait">({seats} × {look_seconds:g} {wait})'
                       "</span></li></ol>")
        phases = t["phases"]
        out.append(f'<div class="row"><span>{e(str(t["clocks"]))}:</span>')
        for phase in data["phases"]:
            name = phases.get(phase["id"], phase["id"])  # type: ignore[attr-defined]
            out.append(f"<span>{e(name)}: <b>{phase['seconds']} {wait}</b></span>")
        out.append("</div>")
        out.append(f"</ol><h2>{e(str(t['majority']))}</h2><div class=\"row\">")
        for living, votes in data["thresholds"].items():
            out.append(f"<span>{e(str(t['living']).format(n=living))}: <b>{votes}</b></span>")
        out.append(f"</div><h2>{e(str(t['setups']))}</h2><div class=\"row\">")
        setups = [line.strip() for line in lines if line.strip()[:3].rstrip(":：") in
                  data["setups"]]
        out += [f"<span>{e(line)}</span>" for line in setups]
        out.append("</div>")
    out.append(f"<h2>{e(str(t['phones']))}</h2>"
               f"<p>{e(t['phone_text'][game])}</p>"     # type: ignore[index]
               f"<p>{e(str(t['join']))}</p></body></html>")
    return "\n".join(out) + "\n"


def make(out: Path, games: list[str], langs: list[str], args: list[str],
         fresh: bool) -> list[Path]:
    """Write `{game}-{lang}.html` for each game and language; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    wanted = [(game, lang) for game in games for lang in langs]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:   # a process each
        answers = list(pool.map(lambda gl: script(*gl, args, fresh), wanted))
    written = []
    for (game, lang), (data, text) in zip(wanted, answers, strict=True):
        path = out / f"{SLUG[game]}-{lang}.html"
        timed = timed_night(lang, args) if game == "newd3" else None
        path.write_text(card(game, lang, data, text, timed))
        written.append(path)
    return written


def to_pdf(paths: list[Path]) -> list[Path]:
    """Each card printed by Chromium (Playwright, Debian's chromium)."""
    from playwright.sync_api import sync_playwright

    pdfs = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        for path in paths:
            page.goto(path.resolve().as_uri())
            pdf = path.with_suffix(".pdf")
            page.pdf(path=str(pdf), format="A4", prefer_css_page_size=True)
            pdfs.append(pdf)
        browser.close()
    return pdfs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, metavar="DIR")
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--lang", choices=LANGS, action="append")
    parser.add_argument("--fresh", action="store_true",
                        help="the defaults, not the box's remembered deck")
    parser.add_argument("--pdf", action="store_true", help="also print each card to PDF")
    parser.add_argument("script_args", nargs="*", metavar="-- ARGS",
                        help="passed to `wolfbox script` (e.g. --deck, --players, --roles)")
    ns = parser.parse_args(argv)
    paths = make(ns.out, ns.game or list(GAMES), ns.lang or list(LANGS), ns.script_args,
                 ns.fresh)
    if ns.pdf:
        paths += to_pdf(paths)
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
