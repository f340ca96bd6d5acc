"""Alter Ego (3rd edition): the words of a table (moves, what they did, refusals) and its
protocol as a workbook (openpyxl) and a PDF (WeasyPrint).

The host's screens and the protocol say the same things in the same words, so both are made
here: ``move_line`` (what a move was), ``result_lines`` (what it did: the flash after a tap
and the protocol's log), ``error_text`` (an engine refusal, its numbers filled in, active and
card keys shown by their printed names). Everything goes through ``facilitator.i18n``
(English msgids; Finnish, the game's own language, in ``translations/fi/alterego.po``,
Russian in ``translations/ru/alterego.po``). Card and active names are printed as the pack
prints them (Finnish), whatever the language of the page.

==================================================================  ===============================
``table_protocol_xlsx(game, undone=None, event=None, event_date=None)``  the protocol workbook (bytes)
``table_protocol_pdf(game, undone=None, event=None, event_date=None)``   the same, printed (bytes)
``build_protocol(game, undone=None, event=None, event_date=None)``       both read this one object
==================================================================  ===============================

``game`` is the engine's ``Game`` of the table (finished: a final protocol; not yet: a
provisional one, marked so); the protocol replays its moves once to get each move's
``MoveResult``. ``undone`` lists the moves taken back as ``LoadedTable.undone_moves()`` gives
them (``(move dict, row)``: the row's ``kind`` undo / void / reopen, ``created_at``, ``author``).
Both functions accept ``locale=`` (``fi`` / ``en`` / ``ru``); without it they speak the current
locale. openpyxl and WeasyPrint are imported on first use.
"""

from dataclasses import dataclass, field
from datetime import datetime
from io import BytesIO

from facilitator import formatting as words
from facilitator.i18n import get_locale, use_locale
from facilitator.i18n import gettext as _


def N_(message):
    """Mark a message id where it is defined; it is translated where it is shown."""
    return message


RULESET = "alter-ego-3"

#: season number -> its name on the season card (RULES.md 1.4)
SEASON_NAMES = {1: N_("Winter"), 2: N_("Spring fatigue"), 3: N_("Summer season begins"),
                4: N_("Ropecon and freshmen")}

#: what a move type is called on the screens and in the protocol
MOVE_NAMES = {
    "draw": N_("Draw 2 cards"), "season": N_("Season card"), "play_event": N_("Event card"),
    "play_activity": N_("Activity"), "ability": N_("Ability"), "react": N_("Reaction"),
    "choose": N_("Choice"), "end_turn": N_("End of turn"), "adjust": N_("Correction"),
    "finish": N_("Game ended by the host"),
}

#: the choices the rules queue (RULES.md 3.6)
CHOICE_NAMES = {"discard_hobby": N_("hobby to discard"), "breakup": N_("break-up")}

#: why an active's anxiety changed (the ``cause`` of a gain or loss) when no card names it
CAUSES = {
    "nakkikone": None, "breakup": N_("break-up"), "pare": N_("Pare's joke"), "niksu": N_("Niksu comforts"),
    "idle": N_("idle"), "check": N_("end-of-turn check"), "season_3": N_("season 3 begins"),
    "season_4": N_("season 4 begins, no free time"), "lopputyo": None, "bile": None, "ei_rahaa": None,
    "tyokiireita": None, "hahmo_kuolee": None, "uusi_tyyli": None,
}

#: why an activity left its holder (``discarded`` events)
DISCARD_CAUSES = {
    "loppu": None, "tarkea_nakki": None, "ei_kiinnostusta": None, "lopputyo": N_("thesis completed"),
    "season_2b": N_("season change"), "season_2d": N_("no free time to come back"),
    "season_start": N_("season start"), "discard_hobby": N_("chosen by its owner"), "adjust": N_("correction"),
}

#: the end-of-turn check (RULES.md 3.5) in words, by outcome and reason
CHECK_REASONS = {
    "no_anxiety": N_("has activities, no anxiety to lose"),
    "burned_out_no_free_time": N_("burned out without free time: no relief"),
    "tane": N_("idle, but Tane is never anxious when idle"),
    "would_burn_out": N_("idle, but one more would burn it out ({anxiety} + 1 ≥ BO {bo})"),
}


# ----- names ------------------------------------------------------------------------------------
def active_name(pack, key):
    """An active as the pack prints it (``Pare``); its key when the pack has no such active."""
    card = pack.actives_by_key.get(key) if pack is not None and isinstance(key, str) else None
    return card.name if card is not None else str(key)


def card_name(pack, key):
    """A card as the pack prints it (``Tärkeä nakki``)."""
    card = pack.cards_by_key.get(key) if pack is not None and isinstance(key, str) else None
    return card.name if card is not None else str(key)


def season_name(season):
    """A season by the name on its card (``Kevätväsymys``)."""
    return _(SEASON_NAMES[season]) if season in SEASON_NAMES else str(season)


def move_name(kind):
    return _(MOVE_NAMES[kind]) if kind in MOVE_NAMES else kind


def choice_name(kind):
    return _(CHOICE_NAMES[kind]) if kind in CHOICE_NAMES else kind


def activity_label(pack, game, activity_id):
    """``Pelikampanja (a3)``: an activity by its card's printed name and its id."""
    if game is not None:
        _holder, act = game.state.find_activity(activity_id)
        if act is not None:
            return f"{act.card.name} ({activity_id})"
    return str(activity_id)


def names(pack, keys):
    return ", ".join(active_name(pack, k) for k in keys)


# ----- refusals ------------------------------------------------------------------------------------
_ACTIVE_PARAMS = ("active", "target", "partner", "source", "holder", "given", "mover", "organizer")
_CARD_PARAMS = ("card",)
_LIST_PARAMS = ("options", "allowed")


def localized_params(params, pack):
    """An engine error's numbers with active and card keys as their printed names, a move type
    or a choice by its name."""
    from facilitator.rules.alterego.moves import MOVE_TYPES
    out = dict(params)
    for key, value in params.items():
        if not isinstance(value, str) or pack is None:
            continue
        if key == "activity" and params.get("activity_card") in pack.cards_by_key:
            # an activity by its card (the engine's ``activity_card``), not by an id the host never
            # sees; where the refusal names that card already, by the move that placed it
            card = params["activity_card"]
            out[key] = _("placed by move {n}", n=value[1:]) if params.get("card") == card else card_name(pack, card)
        elif key == "options" and params.get("options_cards"):
            out[key] = ", ".join(card_name(pack, c) for c in params["options_cards"].split(", "))
        elif key in _ACTIVE_PARAMS and value in pack.actives_by_key:
            out[key] = active_name(pack, value)
        elif key in _CARD_PARAMS and value in pack.cards_by_key:
            out[key] = card_name(pack, value)
        elif key == "cards":
            out[key] = " / ".join(card_name(pack, part) for part in value.split(" or "))
        elif key == "kind" and value in MOVE_TYPES:
            out[key] = move_name(value)
        elif key == "choice" and value in CHOICE_NAMES:
            out[key] = choice_name(value)
        elif key in _LIST_PARAMS and value and all(part in pack.actives_by_key for part in value.split(", ")):
            out[key] = names(pack, value.split(", "))  # the actives one may choose, by their names
    return out


def error_text(err, pack=None):
    """An engine refusal (``IllegalMoveError``, ``MalformedError``, ``SetupError``) in the current
    locale: its English template translated, then filled with its numbers. A malformed field
    keeps its path in front (``move.target: …``)."""
    from facilitator.rules.errors import ReplayError
    if isinstance(err, ReplayError):
        inner = error_text(err.error, pack)
        return _("move {number} ({move}): {error}", number=err.number, move=move_name(err.move.type), error=inner)
    template = getattr(err, "template", None)
    params = getattr(err, "params", None)
    if template is None or not isinstance(params, dict):
        return str(err)
    text = _(template, **localized_params(params, pack))
    path = getattr(err, "path", None)
    from facilitator.rules.errors import MalformedError
    if path and isinstance(err, MalformedError):
        return f"{path}: {text}"
    return text


# ----- what a move was --------------------------------------------------------------------------
def move_line(move, pack, number=None):
    """One line saying what a move was (not yet what it did): ``Aino: Hahmo kuolee → Tommi``."""
    m = move.to_dict() if hasattr(move, "to_dict") else dict(move)
    kind = m.get("type")
    who = m.get("player")
    a = lambda key: active_name(pack, m.get(key))  # noqa: E731
    if kind == "draw":
        text = _("{player} draws 2 cards", player=who)
    elif kind == "season":
        text = _("{player} draws the season card", player=who)
    elif kind == "play_activity":
        if m.get("partner"):
            text = _("{player} plays {card} onto {target}, partner {partner}", player=who,
                     card=card_name(pack, m.get("card")), target=a("target"), partner=a("partner"))
        else:
            text = _("{player} plays {card} onto {target}", player=who, card=card_name(pack, m.get("card")),
                     target=a("target"))
    elif kind == "play_event":
        text = _("{player} plays {card}", player=who, card=card_name(pack, m.get("card")))
        parts = []
        if m.get("target"):
            parts.append(a("target"))
        if m.get("hobby"):
            parts.append(_("hobby {id}", id=m["hobby"]))
        if m.get("chore"):
            parts.append(_("chore {card}", card=card_name(pack, m["chore"])))
        if m.get("active"):
            parts.append(a("active"))
        if m.get("activity"):
            parts.append(m["activity"])
        if "participants" in m:
            parts.append(_("participants: {names}", names=names(pack, m.get("participants") or ())
                           or _("nobody")))
        if parts:
            text += " → " + ", ".join(parts)
    elif kind == "ability":
        text = _("{player}: {active} uses the ability", player=who, active=a("active"))
        if m.get("targets"):
            text += " → " + names(pack, m["targets"])
        if m.get("from"):
            text += " → " + a("from")
    elif kind == "react":
        text = _("{player} reacts to move {to} with {card}", player=who, to=m.get("to"),
                 card=card_name(pack, m.get("card")))
        if m.get("target"):
            text += " → " + a("target")
        if m.get("faction"):
            text += " → " + _("{player}'s faction", player=m["faction"])
    elif kind == "choose":
        if m.get("choice") == "discard_hobby":
            text = _("{player}: {active} discards the hobby {activity}", player=who, active=a("active"),
                     activity=m.get("activity"))
        else:
            text = _("{player}: after the break-up {active} moves to {faction}'s faction", player=who,
                     active=a("active"), faction=m.get("faction"))
    elif kind == "end_turn":
        text = _("{player} ends the turn", player=who)
    elif kind == "adjust":
        text = _("Correction: {reason}", reason=m.get("reason") or "")
    elif kind == "finish":
        text = _("The host ends the game") + (f": {m['reason']}" if m.get("reason") else "")
    else:
        text = str(kind)
    return f"#{number} {text}" if number is not None else text


def change_text(change, pack):
    """One change of an ``adjust`` in words (the host reads it before confirming)."""
    a = lambda key: active_name(pack, change.get(key))  # noqa: E731
    if "anxiety" in change:
        return _("{active}: temporary anxiety {delta}", active=a("active"), delta=words.signed(change["anxiety"]))
    if "hand" in change:
        return _("{player}: hand {delta}", player=change.get("player"), delta=words.signed(change["hand"]))
    if "owner" in change:
        return _("{active} goes to {player}'s faction", active=a("active"), player=change.get("owner"))
    if "away" in change:
        return _("{active} is away", active=a("active")) if change["away"] else \
            _("{active} is back", active=a("active"))
    if "add" in change:
        text = _("{card} added onto {active}", card=card_name(pack, change.get("add")), active=a("active"))
        if change.get("partner"):
            text += " · " + _("partner {partner}", partner=a("partner"))
        return text
    if "remove" in change:
        return _("activity {id} removed", id=change.get("remove"))
    if "paused" in change:
        return _("activity {id} paused", id=change.get("activity")) if change["paused"] else \
            _("activity {id} back from its break", id=change.get("activity"))
    return str(change)


# ----- what a move did --------------------------------------------------------------------------
def _cause(cause, pack):
    """The cause of a gain or loss in words: a card by its printed name, else a phrase."""
    if cause is None:
        return ""
    if pack is not None:
        for card in pack.cards:
            if card.effect == cause:
                return card.name
    label = CAUSES.get(cause)
    return _(label) if label else str(cause)


def _discard_cause(cause, pack):
    label = DISCARD_CAUSES.get(cause)
    if label:
        return _(label)
    return _cause(cause, pack)


def _hands(hands):
    return ", ".join(f"{p} {n}" for p, n in hands.items())


def event_line(e, pack):
    """One engine event (``MoveResult.events``) in words, or None for events the move's own line
    already says."""
    code = e.get("code")
    a = lambda key: active_name(pack, e.get(key))  # noqa: E731
    if code == "gain":
        cause = _cause(e.get("cause"), pack)
        if e.get("cancelled"):
            return _("{active}: +{amount} anxiety cancelled by Taktinen teko ({cause})", active=a("active"),
                     amount=e["amount"], cause=cause)
        if e.get("reduced"):
            return _("{active}: +{amount} − 1 (Imaami) = +{applied} anxiety ({cause}) → T {t}", active=a("active"),
                     amount=e["amount"], applied=e["applied"], cause=cause, t=e["anxiety_temp"])
        return _("{active}: +{amount} anxiety ({cause}) → T {t}", active=a("active"), amount=e["amount"],
                 cause=cause, t=e["anxiety_temp"])
    if code == "loss":
        cause = _cause(e.get("cause"), pack)
        if e["applied"] < e["amount"]:
            return _("{active}: −{amount} anxiety ({cause}), {applied} to lose → T {t}", active=a("active"),
                     amount=e["amount"], applied=e["applied"], cause=cause, t=e["anxiety_temp"])
        return _("{active}: −{amount} anxiety ({cause}) → T {t}", active=a("active"), amount=e["amount"],
                 cause=cause, t=e["anxiety_temp"])
    if code == "unaffected_away":
        return _("{active} is away: no change ({cause})", active=a("active"), cause=_cause(e.get("cause"), pack))
    if code == "hand":
        if e.get("cause") == "hand_limit":
            return _("{player}: hand cut to {after}", player=e["player"], after=e["after"])
        return _("{player}: hand {before} → {after}", player=e["player"], before=e["before"], after=e["after"])
    if code == "placed":
        if e.get("partner"):
            return _("{card} ({id}) onto {active}, partner {partner}", card=card_name(pack, e["card"]), id=e["id"],
                     active=a("active"), partner=a("partner"))
        return _("{card} ({id}) onto {active}", card=card_name(pack, e["card"]), id=e["id"], active=a("active"))
    if code == "discarded":
        return _("{card} ({id}) of {active} discarded ({cause})", card=card_name(pack, e["card"]), id=e["id"],
                 active=a("active"), cause=_discard_cause(e.get("cause"), pack))
    if code == "breakup":
        return _("Break-up: {holder} and {partner}", holder=a("holder"), partner=a("partner"))
    if code == "choice_queued":
        return choice_text(e, pack, None)
    if code == "paused":
        return _("{card} ({id}) of {active} is on a break", card=card_name(pack, e["card"]), id=e["id"],
                 active=a("active"))
    if code == "unpaused":
        return _("{card} ({id}) of {active} is back from its break", card=card_name(pack, e["card"]), id=e["id"],
                 active=a("active"))
    if code == "moved":
        return _("{active} moves from {before}'s faction to {after}'s", active=a("active"), before=e["before"],
                 after=e["after"])
    if code == "season_card":
        return _("Season {season} ends", season=e["season"])
    if code == "game_ended":
        if e.get("ended_by") == "season":
            return _("The 4th season card: the game ends")
        return None
    if code == "hands_discarded":
        return _("Hands noted and discarded: {hands}", hands=_hands(e["hands"]))
    if code == "returned":
        return _("{active} is back from the countryside (T 0)", active=a("active"))
    if code == "no_free_time":
        return None  # the discard that follows says it
    if code == "season_start":
        return _("Season {season} begins: {name}", season=e["season"], name=season_name(e["season"]))
    if code == "spared":
        return _("{active} keeps its hobbies (athletic hobby in force)", active=a("active"))
    if code == "hands_dealt":
        return _("Hands: {hands}", hands=_hands(e["hands"]))
    if code == "p6_lifted":
        return _("{active} may receive any number of activities this turn", active=a("active"))
    if code == "joined":
        return _("{active} joins {player}'s faction", active=a("active"), player=e["player"])
    if code == "away":
        return _("{active} is away until the season changes", active=a("active"))
    if code == "party":
        return _("Party of {organizer}: {participants}; {guests} from other factions", organizer=a("organizer"),
                 participants=names(pack, e.get("participants") or ()) or _("nobody"), guests=e["guests"])
    if code == "check":
        return check_text(e, pack)
    if code == "turn_started":
        return _("Turn {turn}: {player}", turn=e["turn"], player=e["player"])
    if code == "adjusted":
        if e.get("kind") == "anxiety":
            return _("{active}: temporary anxiety {delta} → T {t}", active=a("active"),
                     delta=words.signed(e["delta"]), t=e["anxiety_temp"])
        return _("{active} is away", active=a("active")) if e.get("away") else \
            _("{active} is back", active=a("active"))
    return None  # event, ability, answered, reaction, season_changed: the move's line says it


def check_text(e, pack):
    """The end-of-turn check of one active (RULES.md 3.5) in words."""
    who = active_name(pack, e.get("active"))
    outcome = e.get("outcome")
    if outcome == "away":
        return _("Check {active}: away, skipped", active=who)
    if outcome == "relief":
        return _("Check {active}: has activities and anxiety: −{amount}", active=who, amount=e["amount"])
    if outcome == "idle_gain":
        return _("Check {active}: no activities: +1", active=who)
    reason = CHECK_REASONS.get(e.get("reason"))
    text = _(reason, **{k: e[k] for k in ("anxiety", "bo") if k in e}) if reason else str(e.get("reason"))
    return _("Check {active}: {what}", active=who, what=text)


def choice_text(choice, pack, game=None):
    """A pending choice (as the standings list it) in words."""
    if choice.get("choice") == "discard_hobby":
        options = ", ".join(activity_label(pack, game, i) for i in choice.get("options") or ()) or _("none")
        return _("{player} chooses which hobby {active} discards ({options})", player=choice["player"],
                 active=active_name(pack, choice.get("active")), options=options)
    return _("{player} chooses who of {partners} moves to another faction", player=choice["player"],
             partners=names(pack, choice.get("partners") or ()) or _("nobody"))


def _fold_checks(lines_events, pack):
    """A check line and the gain or loss it caused, said as one line."""
    out = []
    skip = set()
    events = lines_events
    for i, e in enumerate(events):
        if i in skip:
            continue
        if e.get("code") == "check" and e.get("outcome") in ("relief", "idle_gain"):
            nxt = events[i + 1] if i + 1 < len(events) else None
            if nxt is not None and nxt.get("active") == e.get("active") and nxt.get("code") in ("gain", "loss") \
                    and nxt.get("cause") in ("check", "idle"):
                skip.add(i + 1)
                out.append(_("{check} → T {t}", check=check_text(e, pack), t=nxt.get("anxiety_temp", "")) +
                           (" (" + _("Imaami: 1 less") + ")" if nxt.get("reduced") else "") +
                           (" (" + _("cancelled by Taktinen teko") + ")" if nxt.get("cancelled") else ""))
                continue
        line = event_line(e, pack)
        if line:
            out.append(line)
    return out


def diff_lines(result, pack):
    """What a move changed, read from the state before and after it (a reaction resolves its
    trigger again: its events retell the trigger, its differences say what the reaction did)."""
    out = []
    for key, changes in result.actives.items():
        name = active_name(pack, key)
        if "anxiety_temp" in changes:
            before, after = changes["anxiety_temp"]
            out.append(_("{active}: T {before} → {after}", active=name, before=before, after=after))
        if "owner" in changes:
            before, after = changes["owner"]
            if before is not None:
                out.append(_("{active} moves from {before}'s faction to {after}'s", active=name, before=before,
                             after=after))
        if "away" in changes:
            out.append(_("{active} is away", active=name) if changes["away"][1] else _("{active} is back", active=name))
    for row in result.placed:
        out.append(_("{card} ({id}) onto {active}", card=card_name(pack, row["card"]), id=row["id"],
                     active=active_name(pack, row["active"])))
    for row in result.discarded:
        out.append(_("{card} ({id}) of {active} discarded", card=card_name(pack, row["card"]), id=row["id"],
                     active=active_name(pack, row["active"])))
    for row in result.paused:
        out.append(_("{card} ({id}) of {active} is on a break", card=card_name(pack, row["card"]), id=row["id"],
                     active=active_name(pack, row["active"])))
    for row in result.unpaused:
        out.append(_("{card} ({id}) of {active} is back from its break", card=card_name(pack, row["card"]),
                     id=row["id"], active=active_name(pack, row["active"])))
    for player, (before, after) in result.hands.items():
        out.append(_("{player}: hand {before} → {after}", player=player, before=before, after=after))
    for choice in result.queued:
        out.append(choice_text(choice, pack))
    return out


def influence_lines(result, pack):
    """Influence that changed, per active."""
    out = []
    for key, changes in result.actives.items():
        if "influence" in changes:
            before, after = changes["influence"]
            out.append(_("{active}: influence {before} → {after}", active=active_name(pack, key), before=before,
                         after=after))
    return out


def did_lines(result, pack):
    """What a move did, line by line (without the move's own line)."""
    if result.move.type == "react":
        lines = diff_lines(result, pack)
    else:
        lines = _fold_checks(result.events, pack)
    return lines + influence_lines(result, pack)


def result_lines(result, pack):
    """The host's "what changed" after a move: the move, then what it did."""
    return [move_line(result.move, pack, result.number)] + did_lines(result, pack)


# ----- the protocol, as data ----------------------------------------------------------------
@dataclass
class LogRow:
    number: int
    turn: int
    season: int
    player: str
    kind: str
    move: str
    did: list
    at: str | None = None
    note: str | None = None


@dataclass
class UndoneRow:
    move: str
    kind: str
    at: str
    by: str


@dataclass
class Protocol:
    table: str
    event: str | None
    event_date: str | None
    made_at: datetime
    finished: bool
    ended_by: str | None
    standing: dict
    setup: list  # per player: name, born, actives (names), seat, turn order
    first: str
    first_reason: str
    log: list = field(default_factory=list)
    seasons: list = field(default_factory=list)  # (season, lines): each season change and its start effects
    checks: list = field(default_factory=list)  # (turn, player, lines): every end-of-turn check
    undone: list = field(default_factory=list)
    actives: list = field(default_factory=list)  # final rows per active
    players: list = field(default_factory=list)  # final rows per player, by place
    pack_title: str = ""

    @property
    def status(self):
        return status_text(self.finished, self.ended_by)


def status_text(finished, ended_by):
    """Whether a table's result is final, and what ended the game (the protocol, a player's sheet)."""
    if not finished:
        return _("Provisional: the game is not finished")
    if ended_by == "host":
        return _("Final: the host ended the game")
    return _("Final: the 4th season card ended the game")


TAKE_BACK = {"undo": N_("undone by the host"), "void": N_("voided by the organizer"),
             "reopen": N_("reopened by the organizer")}


def first_reason(pack, setup):
    """Why the first player is who they are (RULES.md 2.3), as the setup screen says it."""
    from facilitator.rules.alterego import propose_first
    proposed = propose_first(pack, setup)
    if proposed == setup.first:
        seat = next(p for p in setup.players if p.name == setup.first)
        if seat.born:
            return _("{player} is the oldest (born {born})", player=setup.first, born=words.format_date(seat.born))
        return _("{player} sits first", player=setup.first)
    return _("{player} was chosen to start (Kalle or Tommi, the game's authors, start when they play)",
             player=setup.first)


def _results(game):
    """Every move's ``MoveResult``, by replaying the game's moves once."""
    from facilitator.rules.alterego import Game
    fresh = Game(game.pack, game.setup, game.table)
    return [fresh.apply(m) for m in game.moves]


def _undone_rows(undone, pack):
    rows = []
    for entry in undone or ():
        if isinstance(entry, dict) and "move" in entry:
            move, kind, at, by = entry["move"], entry.get("kind") or "undo", entry.get("undone_at"), \
                entry.get("undone_by", entry.get("by"))
        else:
            move, row = entry
            kind, at, by = getattr(row, "kind", None) or "undo", getattr(row, "created_at", None), \
                getattr(row, "author", None)
        if isinstance(at, datetime):
            at = words.format_datetime(at.astimezone() if at.tzinfo else at)
        elif at:
            at = words.format_datetime(at)
        rows.append(UndoneRow(move=move_line(move, pack), kind=_(TAKE_BACK.get(kind, TAKE_BACK["undo"])),
                              at=at or "", by=_(AUTHORS[by]) if by in AUTHORS else by or ""))
    return rows


#: who wrote a log row, as the log stores it (``MoveRow.author``: None is the host's screen), in words
AUTHORS = {"api": N_("a program, through the API"), "organizer": N_("the organizer"),
           "import": N_("an imported record")}


def _pack_title(pack):
    """The deck's name in the protocol, as the organizer's pages name it (the shipped deck's in
    the current language)."""
    from facilitator import games
    from facilitator.rules.alterego.ruleset import RULESET
    return games.get(RULESET.key).pack_title(pack.id, pack.title)


def build_protocol(game, undone=None, event=None, event_date=None, now=None):
    """The protocol of one Alter Ego table as data (the workbook and the PDF render it)."""
    from facilitator.rules.alterego import table_standing
    pack = game.pack
    standing = table_standing(game)
    setup = []
    order = list(game.order)
    for seat, p in enumerate(game.setup.players, start=1):
        setup.append({"seat": seat, "name": p.name, "born": words.format_date(p.born) if p.born else "",
                      "turn": order.index(p.name) + 1,
                      "actives": [active_name(pack, k) for k in p.actives],
                      "keys": list(p.actives)})
    proto = Protocol(table=game.table, event=event, event_date=event_date,
                     made_at=now or datetime.now().astimezone(), finished=game.finished, ended_by=game.ended_by,
                     standing=standing, setup=setup, first=game.setup.first,
                     first_reason=first_reason(pack, game.setup), pack_title=_pack_title(pack))
    turn, season, current = 1, 1, game.order[0]
    for result in _results(game):
        move = result.move
        proto.log.append(LogRow(number=result.number, turn=turn, season=season, player=move.player or "",
                                kind=move_name(move.type), move=move_line(move, pack), did=did_lines(result, pack),
                                at=words.format_time(move.at) if move.at else None, note=move.note))
        if result.season_change:
            lines = []
            for e in result.season_change:
                line = event_line(e, pack)
                if line:
                    lines.append(line)
            to = None if result.finished else result.season
            if proto.seasons and move.type == "react" and (proto.seasons[-1]["to"], season) == (to, to):
                # a reaction to the season card re-states its start effects: one row, as they stand now
                proto.seasons[-1]["lines"] = lines
            else:
                proto.seasons.append({"number": result.number, "turn": turn, "from": season, "to": to,
                                      "lines": lines})
        if result.checks:
            proto.checks.append({"number": result.number, "turn": turn, "player": current,
                                 "lines": _fold_checks([e for e in result.events
                                                        if e["code"] == "check" or e.get("cause") in
                                                        ("check", "idle")], pack)})
        turn, season, current = result.turn, result.season, result.current
    proto.undone = _undone_rows(undone, pack)
    for row in standing["actives"]:
        proto.actives.append({
            "key": row["key"], "name": active_name(pack, row["key"]), "owner": row["owner"],
            "va": row["va"], "bo": row["bo"], "u": row["free_time_unused"], "t": row["anxiety_temp"],
            "p": row["anxiety_perm"], "a": row["anxiety"], "burned_out": row["burned_out"], "away": row["away"],
            "activities": ", ".join(f"{card_name(pack, x['card'])} ({x['id']})" +
                                    (" [" + _("paused") + "]" if x["paused"] else
                                     "" if x["in_force"] else " [" + _("not in force") + "]")
                                    for x in row["activities"]),
            "base": row["influence_base"], "influence": row["influence"]})
    proto.players = sorted(standing["players"], key=lambda r: (r["place"], order.index(r["name"])))
    return proto


# ----- the workbook ----------------------------------------------------------------------------
def _sheet_title(msgid):
    text = _(msgid)
    for ch in "[]:*?/\\":
        text = text.replace(ch, " ")
    return text[:31]


def table_protocol_xlsx(game, undone=None, event=None, event_date=None, now=None, locale=None):
    """One Alter Ego table's protocol as an .xlsx workbook (bytes): setup, every move with
    what it did, the season changes with their start effects, the anxiety checks, the final
    influence per active and per player, and the moves taken back."""
    if locale is not None:
        with use_locale(locale):
            return table_protocol_xlsx(game, undone, event, event_date, now)
    from openpyxl import Workbook

    p = build_protocol(game, undone=undone, event=event, event_date=event_date, now=now)
    wb = Workbook(write_only=True)
    add_protocol_sheets(wb, p, _sheet_title)
    buf = BytesIO()
    wb.save(buf)
    return buf.getvalue()


def add_protocol_sheets(wb, p, sheet_title):
    """The protocol ``p``'s sheets added to the write-only workbook ``wb`` (a table's own
    workbook, or the event workbook): ``sheet_title(msgid)`` names each sheet."""
    from openpyxl.styles import Alignment, Font

    from facilitator.reports.cells import write_only_cell

    bold = Font(bold=True)
    wrap = Alignment(wrap_text=True, vertical="top")

    def header(ws, values):
        cells = []
        for v in values:
            c = write_only_cell(ws, v)
            c.font = bold
            cells.append(c)
        ws.append(cells)

    def text_row(ws, values):
        cells = []
        for v in values:
            c = write_only_cell(ws, v)  # a name like "=1+1" is the name, never a formula
            if isinstance(v, str) and "\n" in v:
                c.alignment = wrap
            cells.append(c)
        ws.append(cells)

    ws = wb.create_sheet(sheet_title(N_("Setup")))
    ws.column_dimensions["A"].width = 24
    ws.column_dimensions["B"].width = 40
    header(ws, [_("Alter Ego protocol")])
    text_row(ws, [_("Table"), p.table])
    text_row(ws, [_("Event"), p.event or ""])
    text_row(ws, [_("Date"), words.format_date(p.event_date) if p.event_date else ""])
    text_row(ws, [_("Pack"), p.pack_title])
    text_row(ws, [_("Status"), p.status])
    text_row(ws, [_("Made at"), words.format_datetime(p.made_at)])
    text_row(ws, [_("First player"), f"{p.first}: {p.first_reason}"])
    ws.append([])
    header(ws, [_("Seat"), _("Player"), _("Born"), _("Turn order"), _("Actives")])
    for row in p.setup:
        text_row(ws, [row["seat"], row["name"], row["born"], row["turn"], ", ".join(row["actives"])])

    ws = wb.create_sheet(sheet_title(N_("Move log")))
    for col, width in zip("ABCDEFGH", (6, 7, 8, 14, 16, 44, 70, 8)):
        ws.column_dimensions[col].width = width
    header(ws, ["#", _("Turn number"), _("Season"), _("Player"), _("Move"), _("What it was"), _("What it did"),
                _("Time")])
    for r in p.log:
        text_row(ws, [r.number, r.turn, r.season, r.player, r.kind, r.move, "\n".join(r.did), r.at or ""])

    ws = wb.create_sheet(sheet_title(N_("Seasons")))
    ws.column_dimensions["C"].width = 90
    header(ws, ["#", _("Turn number"), _("Season change and start effects")])
    for s in p.seasons:
        text_row(ws, [s["number"], s["turn"], "\n".join(s["lines"])])

    ws = wb.create_sheet(sheet_title(N_("Anxiety checks")))
    ws.column_dimensions["D"].width = 80
    header(ws, ["#", _("Turn number"), _("Player"), _("End-of-turn check")])
    for c in p.checks:
        text_row(ws, [c["number"], c["turn"], c["player"], "\n".join(c["lines"])])

    ws = wb.create_sheet(sheet_title(N_("Influence")))
    ws.column_dimensions["B"].width = 16
    ws.column_dimensions["L"].width = 60
    header(ws, [_("Place"), _("Player"), _("Influence"), _("Hand")])
    for row in p.players:
        text_row(ws, [row["place"], row["name"], row["influence"], row["hand"]])
    ws.append([])
    header(ws, [_("Active"), _("Faction"), "VA", "U", "T", "P", "A", "BO", _("Burned out"), _("Away"),
                _("Base influence"), _("Activities"), _("Influence")])
    for a in p.actives:
        text_row(ws, [a["name"], a["owner"], a["va"], a["u"], a["t"], a["p"], a["a"], a["bo"],
                      _("yes") if a["burned_out"] else "", _("yes") if a["away"] else "", a["base"],
                      a["activities"], a["influence"]])

    ws = wb.create_sheet(sheet_title(N_("Undone moves")))
    ws.column_dimensions["A"].width = 60
    header(ws, [_("Move"), _("How"), _("When"), _("Who")])
    for u in p.undone:
        text_row(ws, [u.move, u.kind, u.at, u.by])


# ----- the PDF -----------------------------------------------------------------------------------
def protocol_html(protocol):
    from facilitator.reports.pdf import render_html
    return render_html("alterego_protocol.html", p=protocol, season_name=season_name, locale=get_locale())


def table_protocol_pdf(game, undone=None, event=None, event_date=None, now=None, locale=None):
    """One Alter Ego table's protocol as PDF bytes (A4, DejaVu Sans), the same content as the
    workbook."""
    if locale is not None:
        with use_locale(locale):
            return table_protocol_pdf(game, undone, event, event_date, now)
    from facilitator.reports.pdf import html_to_pdf
    p = build_protocol(game, undone=undone, event=event, event_date=event_date, now=now)
    return html_to_pdf(protocol_html(p))


__all__ = ["table_protocol_xlsx", "table_protocol_pdf", "build_protocol", "add_protocol_sheets", "Protocol", "result_lines",
           "move_line", "error_text", "event_line", "season_name", "move_name", "choice_text", "change_text",
           "active_name", "card_name", "first_reason", "status_text"]
