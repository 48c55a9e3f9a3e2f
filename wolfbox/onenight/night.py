"""The night script: which calls a deck needs, in the order they happen.

The order of NIGHT_CALLS *is* the night order (the Daybreak rulebook's and
the combined wake chart's, Sentinel first); nothing else in the project
repeats it. Every call whose roles are in the deck is made, whether the card
is with a player or in the center, with the same timing: a skipped call or a
shorter gap would tell the table what lies in the center.

The texts are written whole, one sentence or more a message, so that a
translator never has to fit a fragment into a sentence made elsewhere.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..i18n import N_, _, sentences
from .presets import MAX_PLAYERS, PRESETS
from .roles import ROLES, WEREWOLF_CARDS, Box, role_name


@dataclass(frozen=True)
class Step:
    """One thing the narrator does: say `text`, wait `seconds`, say `after`."""
    id: str
    text: str
    seconds: float = 0.0
    after: str = ""


@dataclass(frozen=True)
class NightOptions:
    lone_wolf: bool = True                   # a lone werewolf may look at a center card (002)
    scale: float = 1.0                       # multiplies every role's action time
    action_seconds: Mapping[str, float] = field(default_factory=dict)   # per-role override
    phones: bool = False                     # the cards are on the players' phones, not the table


@dataclass(frozen=True)
class Table:
    """What the texts may depend on: the roles in play and the options."""
    roles: frozenset[str]
    options: NightOptions

    def has(self, *ids: str) -> bool:
        return any(i in self.roles for i in ids)


Text = str | Callable[[Table], str]


@dataclass(frozen=True)
class Call:
    id: str
    present: Callable[[Table], bool]
    wake: Text
    sleep: Text
    timed_by: str                            # the role whose action time the call gets


# The roles a Doppelganger copies and then acts as at once, during her own call,
# and those whose copy is called again later. Her call names those the deck
# holds, and no other: the deck is public, so the table learns nothing new,
# and a deck of three of them is not read a list of sixteen.
ACTS_AT_ONCE = ("sentinel", "alpha_wolf", "mystic_wolf", "seer", "apprentice_seer",
                "paranormal_investigator", "robber", "witch", "troublemaker",
                "village_idiot", "drunk")
WAKES_LATER = ("minion", "aura_seer", "insomniac", "revealer", "curator")


def _names(ids: Sequence[str]) -> str:
    """'the Seer, Robber or Witch' without the article, in the box's language."""
    names = [role_name(i) for i in ids]
    text = names[0]
    for name in names[1:-1]:
        # TRANSLATORS: a list of role names being built, one more added: "Seer, Robber".
        text = _("{names}, {name}").format(names=text, name=name)
    if len(names) > 1:
        # TRANSLATORS: the last role name of a list: "Seer, Robber or Witch".
        text = _("{names} or {name}").format(names=text, name=names[-1])
    return text


def _sentences(*texts: str) -> str:
    """Whole sentences, each translated on its own, said one after another."""
    return sentences(texts)


def _doppelganger_wake(t: Table) -> str:
    now = [r for r in ACTS_AT_ONCE if t.has(r)]
    later = [r for r in WAKES_LATER if t.has(r)]
    wolves, masons = t.has("werewolf", "alpha_wolf", "mystic_wolf"), t.has("mason")
    texts = [_("Doppelganger, open your eyes and look at another player's card. You are now "
               "that role.")]
    if now:
        # 000: a copy that acts now "does not wake up when the [role] is called".
        # TRANSLATORS: {now} is a list of role names, as "Seer, Robber or Drunk".
        texts.append(_("If you saw the {now}, do that role's action now; you will not wake "
                       "again when it is called.").format(now=_names(now)))
    if t.has("dream_wolf"):
        # 000: a Doppelganger-Dream Wolf does not wake with the werewolves, she shows a thumb.
        if wolves and masons:
            texts.append(_("If you saw a werewolf other than the Dream Wolf, or a Mason, you "
                           "will wake with them."))
        elif wolves:
            texts.append(_("If you saw a werewolf other than the Dream Wolf, you will wake "
                           "with them."))
    elif wolves and masons:
        texts.append(_("If you saw a werewolf or a Mason, you will wake with them."))
    elif wolves:
        texts.append(_("If you saw a werewolf, you will wake with them."))
    if masons and not wolves:
        texts.append(_("If you saw a Mason, you will wake with them."))
    if t.has("dream_wolf"):
        texts.append(_("If you saw the Dream Wolf, stick out your thumb when the werewolves "
                       "are called."))
    if later:
        # TRANSLATORS: {later} is a list of role names, as "Minion or Insomniac".
        texts.append(_("If you saw the {later}, you will be called again.").format(
            later=_names(later)))
    return _sentences(*texts)


def _werewolves_wake(t: Table) -> str:
    if t.has("dream_wolf") and t.has("doppelganger"):
        texts = [_("Werewolves, except the Dream Wolf, open your eyes and look for the other "
                   "werewolves."),
                 _("Dream Wolf, and a Doppelganger who saw the Dream Wolf, keep your eyes "
                   "closed and stick out your thumb.")]
    elif t.has("dream_wolf"):
        texts = [_("Werewolves, except the Dream Wolf, open your eyes and look for the other "
                   "werewolves."),
                 _("Dream Wolf, keep your eyes closed and stick out your thumb.")]
    else:
        texts = [_("Werewolves, open your eyes and look for the other werewolves.")]
    # The Dream Wolf is a werewolf (000), so a wolf who sees a thumb is not alone.
    if t.options.lone_wolf and t.has("dream_wolf") and t.has("alpha_wolf"):
        texts.append(_("If you are the only werewolf awake and see no thumb, you may look at "
                       "one center card, the center werewolf card included."))
    elif t.options.lone_wolf and t.has("dream_wolf"):
        texts.append(_("If you are the only werewolf awake and see no thumb, you may look at "
                       "one of the center cards."))
    elif t.options.lone_wolf and t.has("alpha_wolf"):
        texts.append(_("If you are the only werewolf awake, you may look at one center card, "
                       "the center werewolf card included."))
    elif t.options.lone_wolf:
        texts.append(_("If you are the only werewolf awake, you may look at one of the center "
                       "cards."))
    elif t.has("alpha_wolf"):
        texts.append(_("Leave the center werewolf card where it lies."))
    return _sentences(*texts)


def _werewolves_sleep(t: Table) -> str:
    if t.has("dream_wolf") and t.has("doppelganger"):
        return _("Dream Wolf, and a Doppelganger who saw the Dream Wolf, put your thumb away. "
                 "Werewolves, close your eyes.")
    if t.has("dream_wolf"):
        return _("Dream Wolf, put your thumb away. Werewolves, close your eyes.")
    return _("Werewolves, close your eyes.")


def _minion_wake(t: Table) -> str:
    if t.has("dream_wolf"):
        return _("Minion, open your eyes. Werewolves, and the Dream Wolf too, stick out a "
                 "thumb so the Minion can see you.")
    return _("Minion, open your eyes. Werewolves, stick out a thumb so the Minion can see you.")


def _doppel_minion_wake(t: Table) -> str:
    if t.has("dream_wolf"):
        return _("Doppelganger, if you saw the Minion, open your eyes. Werewolves, and the "
                 "Dream Wolf too, stick out a thumb so the Doppelganger can see you.")
    return _("Doppelganger, if you saw the Minion, open your eyes. Werewolves, stick out a "
             "thumb so the Doppelganger can see you.")


def _village_idiot_wake(t: Table) -> str:
    if t.has("sentinel"):              # 000: shielded cards are not moved
        return _("Village Idiot, open your eyes. You may move every other player's card one "
                 "place to the left, or one place to the right. Shielded cards stay where "
                 "they are.")
    return _("Village Idiot, open your eyes. You may move every other player's card one "
             "place to the left, or one place to the right.")


def _masons_wake(t: Table) -> str:
    if t.has("doppelganger"):          # a Doppelganger-Mason makes three
        return _("Masons, open your eyes and look for the other Masons.")
    return _("Masons, open your eyes and look for the other Mason.")


def _wake_up(t: Table) -> str:
    if t.options.phones:
        # No card lies on the table to touch, and no eyes were closed; the
        # same line whatever was dealt.
        text = _("Everyone, look up from your phone: it is morning in the village.")
        if t.has("curator"):
            return _sentences(text, _("Everyone, hold your phone's cover now and read it, "
                                      "secretly: it tells you if an artifact token lies on "
                                      "your card."))
        return text
    text = _("Everyone, reach out and touch your own card. Now open your eyes: it is morning "
             "in the village.")
    if t.has("curator"):
        # 000: a player with an artifact looks at it secretly as soon as the night is over.
        text = _sentences(text, _("If there is an artifact token on your card, look at it now, "
                                  "secretly."))
    return text


def _call(id: str, roles: Sequence[str], wake: Text, sleep: Text,
          timed_by: str | None = None) -> Call:
    needs = tuple(roles)
    return Call(id, lambda t: t.has(*needs), wake, sleep, timed_by or needs[-1])


_DOPPELGANGER_SLEEP = N_("Doppelganger, close your eyes.")
_DOPPELGANGER_THUMBS_AWAY = N_("Thumbs away. Doppelganger, close your eyes.")


def _copy_call(role: str, wake: Text, sleep: Text = _DOPPELGANGER_SLEEP) -> Call:
    """The Doppelganger's own call for a role she may have copied: made
    whenever both cards are in the game (000), just after that role's and
    timed like it, so neither its place nor its length tells what she took."""
    needs = ("doppelganger", role)
    return Call(f"doppelganger_{role}", lambda t: all(r in t.roles for r in needs),
                wake, sleep, role)


# The texts are English, marked with N_(); a night script translates them
# (and the functions build theirs with _()) when it is made.
NIGHT_CALLS: tuple[Call, ...] = (
    _call("sentinel", ["sentinel"],
          N_("Sentinel, open your eyes. You may put your shield on any other player's card."),
          N_("Sentinel, close your eyes.")),
    _call("doppelganger", ["doppelganger"], _doppelganger_wake, _DOPPELGANGER_SLEEP),
    _copy_call("minion", _doppel_minion_wake, _DOPPELGANGER_THUMBS_AWAY),
    Call("werewolves", lambda t: t.has("werewolf", "alpha_wolf", "mystic_wolf"),
         _werewolves_wake, _werewolves_sleep, timed_by="werewolf"),
    _call("alpha_wolf", ["alpha_wolf"],
          N_("Alpha Wolf, open your eyes. Swap the center werewolf card with the card of a "
             "player who is not a werewolf, without looking at either."),
          N_("Alpha Wolf, close your eyes.")),
    _call("mystic_wolf", ["mystic_wolf"],
          N_("Mystic Wolf, open your eyes. You may look at one other player's card."),
          N_("Mystic Wolf, close your eyes.")),
    _call("minion", ["minion"], _minion_wake, N_("Thumbs away. Minion, close your eyes.")),
    _call("masons", ["mason"], _masons_wake, N_("Masons, close your eyes.")),
    _call("seer", ["seer"],
          N_("Seer, open your eyes. You may look at another player's card, or at two of the "
             "center cards."), N_("Seer, close your eyes.")),
    _call("apprentice_seer", ["apprentice_seer"],
          N_("Apprentice Seer, open your eyes. You may look at one of the center cards."),
          N_("Apprentice Seer, close your eyes.")),
    _call("paranormal_investigator", ["paranormal_investigator"],
          N_("Paranormal Investigator, open your eyes. You may look at up to two other "
             "players' cards, one at a time. If you see a werewolf or the Tanner, stop: you "
             "are now that role."), N_("Paranormal Investigator, close your eyes.")),
    _call("robber", ["robber"],
          N_("Robber, open your eyes. You may swap your card with another player's card, "
             "then look at the card you now have."), N_("Robber, close your eyes.")),
    _call("witch", ["witch"],
          N_("Witch, open your eyes. You may look at one of the center cards. If you do, you "
             "must swap it with any player's card, your own included."),
          N_("Witch, close your eyes.")),
    _call("troublemaker", ["troublemaker"],
          N_("Troublemaker, open your eyes. You may swap the cards of two other players "
             "without looking at them."), N_("Troublemaker, close your eyes.")),
    _call("village_idiot", ["village_idiot"], _village_idiot_wake,
          N_("Village Idiot, close your eyes.")),
    _call("aura_seer", ["aura_seer"],
          N_("Aura Seer, open your eyes. Everyone who looked at or moved a card tonight, "
             "stick out a thumb."), N_("Thumbs away. Aura Seer, close your eyes.")),
    _copy_call("aura_seer",
               N_("Doppelganger, if you saw the Aura Seer, open your eyes. Everyone who "
                  "looked at or moved a card tonight, stick out a thumb."),
               _DOPPELGANGER_THUMBS_AWAY),
    _call("drunk", ["drunk"],
          N_("Drunk, open your eyes and swap your card with one of the center cards, without "
             "looking at it."), N_("Drunk, close your eyes.")),
    _call("insomniac", ["insomniac"],
          N_("Insomniac, open your eyes and look at your own card."),
          N_("Insomniac, close your eyes.")),
    _copy_call("insomniac",
               N_("Doppelganger, if you saw the Insomniac, open your eyes and look at your "
                  "own card.")),
    _call("revealer", ["revealer"],
          N_("Revealer, open your eyes. You may turn another player's card face up. If it is "
             "a werewolf or the Tanner, turn it face down again."),
          N_("Revealer, close your eyes.")),
    _copy_call("revealer",
               N_("Doppelganger, if you saw the Revealer, open your eyes. You may turn "
                  "another player's card face up. If it is a werewolf or the Tanner, turn it "
                  "face down again.")),
    _call("curator", ["curator"],
          N_("Curator, open your eyes. You may place an artifact token face down on any "
             "player's card, your own included, but not on a shielded card."),
          N_("Curator, close your eyes.")),
    _copy_call("curator",
               N_("Doppelganger, if you saw the Curator, open your eyes. You may place an "
                  "artifact token face down on any player's card that has no shield and no "
                  "token.")),
)

CLOSE_EYES = Step("close_eyes", N_("Night falls. Everyone, close your eyes."), seconds=2.0)
WAKE_UP_ID = "wake_up"

# With the cards on the phones nobody closes their eyes: nobody could tap
# with them closed. Every player keeps their eyes on their own phone all
# night (as in the timed game), and every call is made in the same words,
# whatever was dealt; the phone shows the same rule (PHONE_RULE).
PHONE_RULE = N_("Eyes on your own phone all night: hold its cover to read it, and keep your "
                "screen to yourself.")
PHONE_NIGHT_FALLS = Step("close_eyes", N_("Night falls. Everyone, eyes on your own phone "
                                          "until morning: hold its cover to read it, and keep "
                                          "your screen to yourself."), seconds=2.0)


def _phone_wake(call: str) -> str:
    # TRANSLATORS: a call of the night on phones; {call} is the call's title, as
    # "Seer" or "Doppelganger Minion". Said to everyone: every phone gets a task.
    return _("{call}: everyone, answer on your phone.").format(call=step_title(call))


def _phone_sleep(call: str) -> str:
    # TRANSLATORS: the end of a call of the night on phones; {call} as "Seer".
    return _("{call}: time is up.").format(call=step_title(call))


# What the screen calls each step, for the night's title ("Night · Seer").
_STEP_TITLES = {
    "close_eyes": N_("Close Eyes"),
    "sentinel": N_("Sentinel"),
    "doppelganger": N_("Doppelganger"),
    "doppelganger_minion": N_("Doppelganger Minion"),
    "werewolves": N_("Werewolves"),
    "alpha_wolf": N_("Alpha Wolf"),
    "mystic_wolf": N_("Mystic Wolf"),
    "minion": N_("Minion"),
    "masons": N_("Masons"),
    "seer": N_("Seer"),
    "apprentice_seer": N_("Apprentice Seer"),
    "paranormal_investigator": N_("Paranormal Investigator"),
    "robber": N_("Robber"),
    "witch": N_("Witch"),
    "troublemaker": N_("Troublemaker"),
    "village_idiot": N_("Village Idiot"),
    "aura_seer": N_("Aura Seer"),
    "doppelganger_aura_seer": N_("Doppelganger Aura Seer"),
    "drunk": N_("Drunk"),
    "insomniac": N_("Insomniac"),
    "doppelganger_insomniac": N_("Doppelganger Insomniac"),
    "revealer": N_("Revealer"),
    "doppelganger_revealer": N_("Doppelganger Revealer"),
    "curator": N_("Curator"),
    "doppelganger_curator": N_("Doppelganger Curator"),
    "wake_up": N_("Wake Up"),
}


def step_title(step_id: str, phones: bool = False) -> str:
    """A step's short title for the screen, in the box's language. On
    phones nobody closes their eyes at nightfall."""
    if phones and step_id == CLOSE_EYES.id:
        return _("Eyes on Your Phone")
    return _(_STEP_TITLES[step_id])


def _text(text: Text, table: Table) -> str:
    """A call's text for this table, in the box's language."""
    return text(table) if callable(text) else _(text)


def _translated(step: Step) -> Step:
    return dataclasses.replace(step, text=_(step.text), after=_(step.after))


def night_script(deck: Sequence[str], options: NightOptions | None = None) -> list[Step]:
    """The steps of one night for `deck` (role ids, already checked)."""
    options = options or NightOptions()
    table = Table(frozenset(deck), options)
    steps = [_translated(PHONE_NIGHT_FALLS if options.phones else CLOSE_EYES)]
    for call in NIGHT_CALLS:
        if call.present(table):
            base = options.action_seconds.get(call.timed_by,
                                              ROLES[call.timed_by].action_seconds)
            if options.phones:
                wake, sleep = _phone_wake(call.id), _phone_sleep(call.id)
            else:
                wake, sleep = _text(call.wake, table), _text(call.sleep, table)
            steps.append(Step(call.id, wake, round(base * options.scale, 3), sleep))
    steps.append(Step(WAKE_UP_ID, _wake_up(table)))
    return steps


def center_wolf_card(deck: Sequence[str]) -> str:
    """The card an Alpha Wolf deck lays across the center. Any werewolf card
    will do (000); a plain Werewolf when there is one, so the roles a
    scenario lists are the ones dealt."""
    wolves = sorted(r for r in set(deck) if r in WEREWOLF_CARDS)
    return "werewolf" if "werewolf" in wolves else wolves[0]


def setup_notes(deck: Sequence[str], phones: bool = False) -> list[str]:
    """What this deck needs on the table beyond dealing the cards. With the
    cards on the phones the box holds the cards and the tokens: the table
    needs only the phones' rule."""
    if phones:
        return [_(PHONE_RULE)]
    roles = set(deck)
    notes = []
    if "alpha_wolf" in roles:
        # TRANSLATORS: {card} is a role name, as "Werewolf" or "Dream Wolf".
        notes.append(_("Lay a {card} card face down across the center: the center werewolf "
                       "card.").format(card=role_name(center_wolf_card(deck))))
    if "sentinel" in roles:
        notes.append(_("Put the shield token beside the center cards."))
    if "curator" in roles:
        notes.append(_("Shuffle the artifact tokens face down beside the center cards."))
    return notes


def morning_notes(deck: Sequence[str]) -> list[str]:
    """What the table keeps to from dawn on, for this deck."""
    # 001: after dawn nobody looks at a card; each plays the card in front of them.
    notes = [_("From dawn on nobody looks at any card: your role is the card in front of "
               "you now, even if you do not know it.")]
    if "curator" in deck:
        # 000: an artifact is looked at at once, secretly, and never shown.
        notes.append(_("Whoever has an artifact token on their card looks at it secretly at "
                       "once and may not show it; they may say anything about it."))
    if "revealer" in deck:
        notes.append(_("A card the Revealer turned face up stays face up."))
    return notes


def setup_text(deck: Sequence[str]) -> list[str]:
    """What the table does before START, for this deck, in order."""
    alpha = "alpha_wolf" in deck
    players = len(deck) - (4 if alpha else 3)
    if alpha:
        deal = _("Shuffle the other {cards} cards, deal one to each of the {players} players "
                 "and put 3 face down in the center.")
    else:
        deal = _("Shuffle the {cards} cards, deal one to each of the {players} players and "
                 "put 3 face down in the center.")
    deal = deal.format(cards=len(deck) - (1 if alpha else 0), players=players)
    notes = setup_notes(deck)
    return notes[:1] + [deal] + notes[1:] if alpha else [deal] + notes


def all_lines(options: NightOptions | None = None) -> list[str]:
    """Every line a night can say with these options, but for the
    Doppelganger's call of a deck no preset deals, in night order.

    The texts depend on the deck through a few features (Dream Wolf, Alpha
    Wolf, Doppelganger, Curator, Sentinel), so decks covering each
    combination of them cover every line but one (a test checks random
    decks): the Doppelganger's call names the deck's roles, so there is one
    for every mix of them. Those of every preset at every table size are
    here; another deck's is rendered when the table chooses it.
    """
    options = options or NightOptions()
    everything = [r for r in ROLES for _copy in range(ROLES[r].copies)]
    base = [r for r in everything if ROLES[r].box is Box.BASE]
    decks: list[list[str]] = []
    for pool in (base, everything):
        for chosen in itertools.product((False, True), repeat=len(FEATURES)):
            deck = [r for r in pool if r not in FEATURES]
            deck += [r for r, on in zip(FEATURES, chosen, strict=True) if on and r in pool]
            decks.append(deck)
    for preset in PRESETS.values():
        decks += [preset.deck(n) for n in preset.players() if n <= MAX_PLAYERS]
    out: list[str] = []
    for deck in decks:
        for phones in (False, True):          # the cards on the table, or on the phones
            for step in night_script(deck, dataclasses.replace(options, phones=phones)):
                out += [step.text] + ([step.after] if step.after else [])
    return list(dict.fromkeys(out))


# The roles whose presence changes the wording of other calls.
FEATURES = ("dream_wolf", "alpha_wolf", "doppelganger", "curator", "sentinel")
