"""The referee: who dies and who wins a finished One Night game, and why.

Why this file is long: every rule of the win, each citing its source,
is one reading of the same table, and splitting them would scatter what a
judge must see together; the JSON shape is checked apart, at the door.

Pure: it takes the table at dawn (each seat's card, what a Doppelganger
copied or a Paranormal Investigator became, each seat's vote, the
artifacts) and returns a `Verdict`. No files, no clock; `wolfbox referee`
in the command line reads the JSON and prints the verdict. A game:

    {"players": [{"card": "werewolf", "vote": 2},
                 {"card": "doppelganger", "as": "hunter", "vote": 1},
                 {"card": "villager", "vote": 1}],
     "artifacts": {"3": "claw"}}

Seats are numbered from 1 in list order. "card" is the role id of the card
in front of the player at dawn; "as" what the Doppelganger copied (she must
have it) or what a Paranormal Investigator became (werewolf or tanner, if
anything); "vote" the seat the player pointed at; "artifacts" the token on
a seat's card, if any: claw, brand, cudgel, void, mute or shroud.

The rules are the source documents' (../shared/seeds: 000 the Daybreak
rulebook, 001 the Chinese rules sheet, 002 the German base game), as
collected in the rules facts; each rule below names its source. Where the
sources are silent the choice made here is stated where it is made.

Every sentence a person reads (errors and the verdict's reasons) goes
through `_()`. Role ids, artifact ids and team ids stay as they are typed.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ..errors import NotJson
from ..errors import RefereeError as RefereeError
from ..i18n import N_, _, ngettext
from ..jsontext import loads
from ..phone import seat_name
from ..schema import Misfit, at, convert
from .deck import MIN_PLAYERS
from .roles import ROLES, WEREWOLVES, Team, UnknownRole, role, role_name

# 000 "Artifacts": the six tokens, and the role each of the first three
# makes its holder ("Claw of the Werewolf: You are now a Werewolf", ...).
# Void, Mute and Shroud change nothing about who a player is.
ARTIFACTS: dict[str, str] = {
    "claw": N_("Claw of the Werewolf"),
    "brand": N_("Brand of the Villager"),
    "cudgel": N_("Cudgel of the Tanner"),
    "void": N_("Void of Nothingness"),
    "mute": N_("Mask of Muting"),
    "shroud": N_("Shroud of Shame"),
}
ARTIFACT_ROLE = {"claw": "werewolf", "brand": "villager", "cudgel": "tanner"}

# Who is a werewolf by card: wolfbox.onenight.roles.WEREWOLVES (000: "Werewolf" includes
# the Alpha Wolf, Mystic Wolf and Dream Wolf; the Minion is on their team, 001
# "狼人组(狼人、爪牙和变成的狼人)", but is not a werewolf).

# 000 "Paranormal Investigator": on seeing a Werewolf or the Tanner he stops
# and becomes that.
PI_BECOMES = ("werewolf", "tanner")

# Cards whose power counts at the vote; an artifact that changes the role
# takes it away (000 "Artifacts": "the Artifacts that change your role also
# take away any special power you might have at the end of the game").
_VOTE_POWERS = frozenset({"hunter", "tanner", "bodyguard", "prince", "cursed"})

TOP_KEYS = ("players", "artifacts")
PLAYER_KEYS = ("card", "as", "vote")
_EXAMPLE = '{"card": "werewolf", "vote": 2}'
_LONGEST_QUOTE = 40


# A seat that did not vote: on the phones a missing answer is no action,
# like a player who points at nobody (the JSON asks every seat for a vote).
NO_VOTE = 0


@dataclass(frozen=True)
class Player:
    card: str                    # role id of the card in front of the player at dawn
    vote: int                    # the seat pointed at (1-based); NO_VOTE: none (phones)
    became: str | None = None    # JSON "as": what a Doppelganger copied / a PI became


@dataclass(frozen=True)
class Game:
    players: tuple[Player, ...]
    artifacts: Mapping[int, str] = field(default_factory=dict)   # seat -> artifact id
    # The players' names by seat, where they gave one on a phone: the
    # verdict calls each seat by it ("Ann · 3"), else "Seat 3".
    names: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    dead: tuple[int, ...]        # in the order they die: the vote's in seat order, then shots
    winners: tuple[int, ...]     # every seat on a winning team, in seat order
    teams: tuple[str, ...]       # the teams that won: "village", "werewolf", "tanner"
    why: tuple[str, ...]         # one sentence a step, in the box's language

    def as_json(self) -> dict[str, list[Any]]:
        return {"dead": list(self.dead), "winners": list(self.winners),
                "teams": list(self.teams), "why": list(self.why)}

    def json_text(self) -> str:
        """The verdict as JSON for a person to read too: the seat lists on one
        line each, one reason a line."""
        def dump(value: object) -> str:
            return json.dumps(value, ensure_ascii=False)
        lines = [f"  {dump(key)}: {dump(value)}" for key, value in self.as_json().items()
                 if key != "why"]
        why = ",\n".join(f"    {dump(line)}" for line in self.why)
        lines.append(f'  "why": [\n{why}\n  ]' if self.why else '  "why": []')
        return "{\n" + ",\n".join(lines) + "\n}"


# ------------------------------------------------------------ reading a game
def _quote(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _LONGEST_QUOTE else text[:_LONGEST_QUOTE - 1] + "…"


def _role_id(text: str) -> str:
    """As the deck reads role ids: 'Alpha Wolf' and 'alpha-wolf' are alpha_wolf."""
    return text.strip().lower().replace("-", "_").replace(" ", "_")


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (json keeps the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RefereeError(_('the key "{key}" appears twice in one object').format(
                key=_quote(key)))
        out[key] = value
    return out


def read_game(text: str) -> Game:
    """A game from its JSON text; RefereeError names the first problem."""
    try:
        data = loads(text, object_pairs_hook=_no_repeats)
    except NotJson as e:                    # the hook's RefereeError passes through
        raise RefereeError(_("not JSON ({why}); give an object such as "
                             '{{"players": [{example}, ...]}}').format(
            why=e, example=_EXAMPLE)) from None
    return parse_game(data)


class _PlayerIn(msgspec.Struct, forbid_unknown_fields=True):
    """A seat as `referee` reads it: the shape; the rules come after."""
    card: str
    vote: int
    became: str | msgspec.UnsetType = msgspec.field(name="as", default=msgspec.UNSET)


class _GameIn(msgspec.Struct, forbid_unknown_fields=True):
    players: list[_PlayerIn]
    artifacts: dict[str, str] = msgspec.field(default_factory=dict)


def parse_game(data: object) -> Game:
    """A game from parsed JSON (its shape is in the module's docstring)."""
    try:
        given = convert(data, _GameIn)
    except Misfit as e:
        raise RefereeError(_misfit(e, data)) from None
    n = len(given.players)
    if n < MIN_PLAYERS:
        raise RefereeError(ngettext(
            "{count} player: the game needs at least {least}",
            "{count} players: the game needs at least {least}", n).format(
            count=n, least=MIN_PLAYERS))
    players = tuple(_player(seat, item, n) for seat, item in enumerate(given.players, 1))
    # A table has the cards that exist: two Werewolves, three Villagers, two
    # Masons, one of every other card (the rulebooks' components).
    for card, count in Counter(p.card for p in players).items():
        if count > ROLES[card].copies:
            raise RefereeError(ngettext(
                "{count} players have the {role} card, but the game has only {copies}",
                "{count} players have the {role} card, but the game has only {copies}",
                count).format(count=count, role=role_name(card), copies=ROLES[card].copies))
    return Game(players, _artifacts(given.artifacts, n))


def _misfit(e: Misfit, data: object) -> str:
    """What does not fit the game's shape, said for the table."""
    path = e.path
    listed = data.get("players") if isinstance(data, dict) else None
    n = len(listed) if isinstance(listed, list) else 0
    if not path:
        if e.kind == "unknown":
            return _("unknown key '{key}' (allowed: {allowed})").format(
                key=_quote(e.key), allowed=", ".join(TOP_KEYS))
        return _('the game must be a JSON object with "players" (and, if any, '
                 '"artifacts"), such as {{"players": [{example}, ...]}}').format(
            example=_EXAMPLE)
    if path[0] == "artifacts":
        return _('"artifacts" must be an object from seat to artifact, such as '
                 '{example}').format(example='{"3": "claw"}')
    if len(path) == 1:                     # "players" missing or not a list
        return _('"players" must be a list with one object a seat, in seat '
                 'order, such as {example}').format(example=_EXAMPLE)
    seat = path[1] + 1 if isinstance(path[1], int) else 0
    where = _("seat {seat}").format(seat=seat)
    field = e.key if len(path) == 2 else path[2]
    if len(path) == 2 and e.kind == "value":
        return _("{where}: each player must be an object such as {example}").format(
            where=where, example=_EXAMPLE)
    if e.kind == "unknown":
        return _("{where}: unknown key '{key}' (allowed: {allowed})").format(
            where=where, key=_quote(e.key), allowed=", ".join(PLAYER_KEYS))
    if field == "vote":
        if e.kind == "missing":
            return _('{where}: "vote" is missing: every player points at another '
                     "seat, 1 to {n}").format(where=where, n=n)
        vote = at(data, path)
        if isinstance(vote, str) and vote.strip().isascii() and vote.strip().isdigit():
            return _('{where}: "vote" is a number, written without quotes: '
                     '{number}, not "{number}"').format(where=where, number=vote.strip()[:6])
        return _('{where}: "vote" must be a seat number, 1 to {n}, not {value}').format(
            where=where, n=n, value=_quote(vote))
    if field == "as":
        return _('{where}: "as" must be a role id, such as "seer"').format(where=where)
    return _('{where}: "card" must be the role id of the card in front of '
             'the player at dawn, such as "werewolf"').format(where=where)


def _player(seat: int, item: _PlayerIn, n: int) -> Player:
    where = _("seat {seat}").format(seat=seat)
    card = _known_role(_role_id(item.card), where)
    became = _became(card, item, where)
    return Player(card, _vote(seat, item.vote, n, where), became)


def _known_role(role_id: str, where: str) -> str:
    try:
        return role(role_id).id
    except UnknownRole as e:
        raise RefereeError(f"{where}: {e}") from None


def _became(card: str, item: _PlayerIn, where: str) -> str | None:
    """The seat's "as": required for the Doppelganger, optional for the PI."""
    given = item.became
    if card == "doppelganger":
        if given is msgspec.UNSET:
            raise RefereeError(_('{where}: the doppelganger needs "as", the role id of the card '
                                 'she copied, such as "as": "seer"').format(where=where))
        copied = _known_role(_role_id(given), where)
        if copied == "doppelganger":
            # One Doppelganger card in the game (roles.py): she cannot see another.
            raise RefereeError(_('{where}: the doppelganger cannot have copied a doppelganger '
                                 '(the game has one); give the role she saw').format(
                where=where))
        return copied
    if card == "paranormal_investigator":
        if given is msgspec.UNSET:
            return None
        if _role_id(given) not in PI_BECOMES:
            raise RefereeError(_("{where}: a paranormal_investigator's \"as\" is what he "
                                 "became, werewolf or tanner, not '{given}' (leave it out if he "
                                 "became neither)").format(where=where, given=_quote(given)))
        return _role_id(given)
    if given is not msgspec.UNSET:
        raise RefereeError(_('{where}: "as" is only for the doppelganger (the role she copied) '
                             'and the paranormal_investigator (werewolf or tanner); this '
                             "seat's card is {card}").format(where=where, card=card))
    return None


def _vote(seat: int, vote: int, n: int, where: str) -> int:
    # 001 "必须投票且不能投自己": everyone must vote, and not for themselves.
    if not 1 <= vote <= n:
        raise RefereeError(_("{where}: votes for seat {vote}, but the seats are 1 to {n}").format(
            where=where, vote=vote, n=n))
    if vote == seat:
        raise RefereeError(_("{where}: votes for their own seat; every player points at "
                             "another player").format(where=where))
    return vote


def _artifacts(given: dict[str, str], n: int) -> dict[int, str]:
    out: dict[int, str] = {}
    for key, name in given.items():
        if not (key.isascii() and key.isdigit() and str(int(key)) == key):
            raise RefereeError(_("artifacts: '{key}' is not a seat number; the seats are 1 to "
                                 "{n}").format(key=_quote(key), n=n))
        seat = int(key)
        if not 1 <= seat <= n:
            raise RefereeError(_("artifacts: there is no seat {seat}; the seats are 1 to "
                                 "{n}").format(seat=seat, n=n))
        artifact = name.strip().lower()
        if artifact not in ARTIFACTS:
            near = difflib.get_close_matches(artifact, ARTIFACTS, n=1)
            allowed = ", ".join(ARTIFACTS)
            where = _("artifacts: seat {seat}").format(seat=seat)
            if near:
                raise RefereeError(_("{where}: unknown artifact '{name}' (did you mean "
                                     "'{near}'?); artifacts: {allowed}").format(
                    where=where, name=_quote(name), near=near[0], allowed=allowed))
            raise RefereeError(_("{where}: unknown artifact '{name}'; artifacts: "
                                 "{allowed}").format(where=where, name=_quote(name),
                                                     allowed=allowed))
        if artifact in out.values():           # 000: six tokens, one of each
            raise RefereeError(_("artifacts: the {name} is on two seats; there is one of "
                                 "each token").format(name=_(ARTIFACTS[artifact])))
        out[seat] = artifact
    return out


# ------------------------------------------------------------ the verdict
def effective_role(player: Player, artifact: str | None = None) -> str:
    """The role a seat plays at the vote, before the Cursed is settled.

    The card, or what the Doppelganger copied / the PI became (000, 001:
    the Doppelganger "becomes that role"); an artifact that changes the role
    overrides both (000 "Artifacts": "All Artifact tokens override the card
    they are placed on"), and with it goes the card's own power (a branded
    Hunter is a Villager and has no shot).
    """
    rid = player.became or player.card
    return ARTIFACT_ROLE.get(artifact or "", rid)


class _Table:
    """One game, with each seat's role, worked out step by step."""

    def __init__(self, game: Game) -> None:
        self.n = len(game.players)
        self.seats = range(1, self.n + 1)
        self.vote = {s: p.vote for s, p in zip(self.seats, game.players, strict=True)}
        self.role = {s: effective_role(p, game.artifacts.get(s))
                     for s, p in zip(self.seats, game.players, strict=True)}
        self.wolves = {s for s in self.seats if self.role[s] in WEREWOLVES}
        self.names = game.names

    def seat(self, seat: int) -> str:
        """A seat as the table reads it: "Ann · 3", or "Seat 3"."""
        return seat_name(seat, self.names)

    def label(self, seat: int) -> str:
        return _("{seat} ({role})").format(seat=self.seat(seat), role=role_name(self.role[seat]))

    def labels(self, seats: Iterable[int]) -> str:
        names = [self.label(s) for s in seats]
        if len(names) == 1:
            return names[0]
        # TRANSLATORS: a list of players: "{first}" is some of them separated by
        # ", " (also translated), "{last}" the last one.
        return _("{first} and {last}").format(first=_(", ").join(names[:-1]), last=names[-1])

    def team(self, seat: int) -> Team:
        if seat in self.wolves:
            return Team.WEREWOLF
        return ROLES[self.role[seat]].team   # never COPIED: a Doppelganger is what she copied


def judge(game: Game) -> Verdict:
    """Who dies and who wins, with a sentence for each step."""
    t = _Table(game)
    why: list[str] = []
    why += _artifact_steps(t, game)
    why += _cursed_steps(t)
    guards = [s for s in t.seats if t.role[s] == "bodyguard"]
    princes = [s for s in t.seats if t.role[s] == "prince"]
    # 000 "Bodyguard": "the player that the Bodyguard points to cannot be
    # killed"; 000 "Doppelganger and Daybreak": her "vote" protects. 001
    # "王子：不能被杀死": the Prince cannot be killed.
    protected = {t.vote[g] for g in guards if t.vote[g] in t.seats} | set(princes)
    for g in guards:
        if t.vote[g] not in t.seats:
            why.append(_("The Bodyguard, {guard}, pointed at nobody.").format(guard=t.seat(g)))
            continue
        why.append(_("The Bodyguard, {guard}, protects {seat}: that player cannot be "
                     "killed, and the Bodyguard's point is not a vote.").format(
            guard=t.seat(g), seat=t.label(t.vote[g])))
    for p in princes:
        why.append(_("The Prince, {seat}, cannot be killed.").format(seat=t.seat(p)))
    dead, steps = _vote_deaths(t, guards, protected)
    why += steps
    why += _hunter_steps(t, dead, protected)
    teams, winners, steps = _outcome(t, dead)
    why += steps
    return Verdict(tuple(dead), tuple(winners), tuple(teams), tuple(why))


def _artifact_steps(t: _Table, game: Game) -> list[str]:
    steps = []
    for seat in sorted(game.artifacts):
        artifact = game.artifacts[seat]
        if artifact not in ARTIFACT_ROLE:
            continue                  # Void, Mute, Shroud: no change of role (000)
        player = game.players[seat - 1]
        before = player.became or player.card
        after = ARTIFACT_ROLE[artifact]
        if before in _VOTE_POWERS and before != after:
            steps.append(_("The {artifact} on {seat}'s card makes that player a {role}; the "
                           "{card} card's power no longer counts.").format(
                artifact=_(ARTIFACTS[artifact]), seat=t.seat(seat), role=role_name(after),
                card=role_name(before)))
        else:
            steps.append(_("The {artifact} on {seat}'s card makes that player a {role}.").format(
                artifact=_(ARTIFACTS[artifact]), seat=t.seat(seat), role=role_name(after)))
    return steps


def _cursed_steps(t: _Table) -> list[str]:
    """001 "被诅咒者：平民，若狼人在投票时选择被诅咒者，则变身为狼人": the
    Cursed is a villager unless a werewolf votes for him; then he is one.
    A Cursed turned so is a werewolf whose vote can turn another Cursed (a
    Doppelganger that copied the Cursed), so this runs until nothing changes."""
    steps = []
    changed = True
    while changed:
        changed = False
        for seat in t.seats:
            if t.role[seat] != "cursed" or seat in t.wolves:
                continue
            voters = [w for w in sorted(t.wolves) if t.vote[w] == seat]
            if voters:
                t.wolves.add(seat)
                changed = True
                steps.append(ngettext(
                    "The Cursed, {seat}, got a vote from {voters}, a werewolf, so the "
                    "Cursed is now a werewolf.",
                    "The Cursed, {seat}, got votes from {voters}, werewolves, so the "
                    "Cursed is now a werewolf.", len(voters)).format(
                    seat=t.seat(seat), voters=t.labels(voters)))
    return steps


def _vote_deaths(t: _Table, guards: Sequence[int],
                 protected: set[int]) -> tuple[list[int], list[str]]:
    """001 "2票及以上的平票一起死", 002 "Der mit den meisten Stimmen stirbt. Bei
    Gleichstand sterben diejenigen mit den meisten Stimmen": the most votes
    die, all tied at the most; fewer than two votes kill nobody (001's
    circle). A protected seat is passed over and the next most-voted die, if
    they have two votes or more (000 "Bodyguard", 001 "王子"); with several
    protected seats at the top, all of them are passed over the same way."""
    tally = Counter(t.vote[s] for s in t.seats if s not in guards and t.vote[s] in t.seats)
    most = max(tally.values(), default=0)
    if most < 2:
        return [], [_("No player got two votes or more, so the vote kills nobody.")]
    top = sorted(s for s in t.seats if tally[s] == most)
    safe_top = [s for s in top if s in protected]
    open_votes = {s: tally[s] for s in t.seats if s not in protected}
    best = max(open_votes.values(), default=0)
    dead = sorted(s for s, v in open_votes.items() if v == best) if best >= 2 else []
    steps = []
    if not safe_top:
        steps.append(ngettext("The most votes ({votes}) went to {seats}, who dies.",
                              "The most votes ({votes} each) went to {seats}, who all die.",
                              len(dead)).format(votes=most, seats=t.labels(dead)))
        return dead, steps
    steps.append(ngettext("The most votes ({votes}) went to {seats}, who cannot be killed.",
                          "The most votes ({votes} each) went to {seats}, who cannot be killed.",
                          len(safe_top)).format(votes=most, seats=t.labels(safe_top)))
    if dead:
        steps.append(ngettext("So the next most-voted player dies: {seats}, with {votes} votes.",
                              "So the next most-voted players die: {seats}, with {votes} votes "
                              "each.", len(dead)).format(seats=t.labels(dead), votes=best))
    else:
        steps.append(_("Nobody else got two votes or more, so the vote kills nobody."))
    return dead, steps


def _hunter_steps(t: _Table, dead: list[int], protected: set[int]) -> list[str]:
    """001 "猎人：死的时候可以带走一个人", 002 "Stirbt der Jäger, nimmt er
    denjenigen in den Tod mit, ...": a dead Hunter's pick (his vote) dies too.

    Where the sources are silent: a protected seat survives the shot as well
    (the Bodyguard's and the Prince's "cannot be killed" is not limited to
    the vote; the rules facts read the Prince so); a Hunter killed by a
    Hunter's shot shoots in turn (he is a Hunter and died). Shots come after
    every vote death, in the order the Hunters died. `dead` grows in place."""
    steps = []
    i = 0
    while i < len(dead):
        hunter = dead[i]
        i += 1
        if t.role[hunter] != "hunter":
            continue
        target = t.vote[hunter]
        if target not in t.seats:
            steps.append(_("The Hunter, {hunter}, died and pointed at nobody.").format(
                hunter=t.seat(hunter)))
        elif target in dead:
            steps.append(_("The Hunter, {hunter}, died and points at {seat}, who is "
                           "already dead.").format(hunter=t.seat(hunter), seat=t.label(target)))
        elif target in protected:
            steps.append(_("The Hunter, {hunter}, died and points at {seat}, who cannot "
                           "be killed.").format(hunter=t.seat(hunter), seat=t.label(target)))
        else:
            dead.append(target)
            steps.append(_("The Hunter, {hunter}, died, so {seat} dies too.").format(
                hunter=t.seat(hunter), seat=t.label(target)))
    return steps


def _outcome(t: _Table, dead: Sequence[int]) -> tuple[list[str], list[int], list[str]]:
    """Which teams won, their seats, and why (001 "胜利条件"; 000 "Cudgel")."""
    village = [s for s in t.seats if t.team(s) is Team.VILLAGE]
    wolf_team = [s for s in t.seats if t.team(s) is Team.WEREWOLF]
    minions = [s for s in wolf_team if s not in t.wolves]
    tanners = [s for s in t.seats if t.team(s) is Team.TANNER]
    dead_wolves = [s for s in dead if s in t.wolves]
    dead_tanners = sorted(s for s in dead if s in tanners)
    steps: list[str] = []

    # Village (001 "村民：有狼人死亡...若无狼人，胜利条件只能是没有人死亡"): a
    # werewolf died; with no werewolf at the table, nobody died.
    if t.wolves:
        village_wins = bool(dead_wolves)
    else:
        village_wins = not dead
    if village:
        if t.wolves and village_wins:
            steps.append(_("The village wins because a werewolf died: {seats}.").format(
                seats=t.labels(sorted(dead_wolves))))
        elif t.wolves:
            steps.append(_("The village loses: no werewolf died."))
        elif village_wins:
            steps.append(_("The village wins: no player is a werewolf and nobody died."))
        else:
            steps.append(_("The village loses: no player is a werewolf, so nobody should "
                           "have died."))

    # Werewolf team (001 "狼人：没有狼人死亡。皮匠存活且没有狼人死亡"; the Minion
    # "和狼人同胜利(不管自己有没有死亡)。若没有狼人，则只要他和皮匠没有死就胜利").
    if t.wolves:
        wolves_win = not dead_wolves and not dead_tanners
    else:
        wolves_win = not any(s in dead for s in minions) and not dead_tanners
    if wolf_team:
        if t.wolves:
            if wolves_win:
                steps.append(_("The werewolf team wins: no werewolf died."))
                for m in (s for s in minions if s in dead):
                    steps.append(_("The Minion, {seat}, died but wins with the "
                                   "werewolves.").format(seat=t.seat(m)))
            elif dead_wolves:
                steps.append(_("The werewolf team loses: a werewolf died."))
            else:
                steps.append(_("The werewolf team loses: the Tanner died and no werewolf "
                               "did."))
        elif wolves_win and tanners:
            steps.append(_("The Minion wins: no player is a werewolf, and neither the Minion "
                           "nor the Tanner died."))
        elif wolves_win:
            steps.append(_("The Minion wins: no player is a werewolf, and the Minion is "
                           "alive."))
        elif dead_tanners:
            steps.append(_("The Minion loses: no player is a werewolf, and the Tanner died."))
        else:
            steps.append(_("The Minion loses: no player is a werewolf, and the Minion died."))

    # Tanner (001 "皮匠胜利条件：自己死亡就算是胜利"; 000 Cudgel: "You only win
    # if you die"): each Tanner wins by his own death, not another's.
    for s in tanners:
        if s in dead:
            steps.append(_("The Tanner, {seat}, died and wins.").format(seat=t.seat(s)))
        else:
            steps.append(_("The Tanner, {seat}, is alive and loses.").format(seat=t.seat(s)))

    # A team with nobody on it wins nothing: it has no seat to list.
    teams: list[str] = []
    winners: set[int] = set()
    if village_wins and village:
        teams.append(Team.VILLAGE.value)
        winners.update(village)
    if wolves_win and wolf_team:
        teams.append(Team.WEREWOLF.value)
        winners.update(wolf_team)
    if dead_tanners:
        teams.append(Team.TANNER.value)
        winners.update(dead_tanners)
    return teams, sorted(winners), steps
