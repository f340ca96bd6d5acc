"""«16/25»'s words, in one place: how a move, a number, a date, a skill is said on the host's
screens, in the printed protocol and on the command line, in the current locale.

Every text goes through ``facilitator.i18n`` (English message ids, Russian in
``translations/ru/*.po``); skills, eras and colours are named by ``i18n.skill_name``,
``era_name`` and ``color_name`` (re-exported here). The engine's numbers (a deferred card's
last round, the XP a share gives) are taken as the engine gives them, never recomputed.

==============================  =============================================================
``number(n)``                   ``2 500`` / ``2,500``, ``833,3``, ``−5`` (Babel, any int size)
``signed(n)``                   ``+2``, ``−1``, ``0``, ``+1 500``: a real minus sign (U+2212)
``format_date(value)``          ``17.05.2025`` (ru), ``May 17, 2025`` (en); ISO text or date
``format_datetime(value)``      ``17.05.2025 14:32``
``format_time(at)``             a move's ``at`` as local ``14:32``
``skill_short(key)``            ``Здр`` ``Инт`` ``Тв`` ``Ком`` ``Эн``: THE short skill names
``skill_changes(changes)``      ``интеллект +2, энергия −1`` (skills in the rulebook's order)
``move_name(move)``             ``Карта взята и сыграна``: what a move is, without its effects
``move_label(result)``          the few words of the protocol's round grid
``result_lines(result)``        what a move did, one line per player touched (the host's flash)
``change_parts(change)``        one player's changes as parts: ``+500 XP``, ``уровень 4`` ...
``gain_text(name, change)``     ``Борис +200 XP (уровень 3)``: another player's gain
``take_back_text(kind, ...)``   an undone / voided / reopened move, who and when
``pending_reasons(player)``     why free SP are due: ``новый уровень: 2 SP, карта: 1 SP``
``turn_order_text(code, p)``    why the turn order is what it is
``ranking_rule_text(rule)``     the team ranking rule of RULES.md 5
==============================  =============================================================
"""

from facilitator.i18n import color_name, era_name, get_locale, gettext as _, normalize, skill_name  # noqa: F401
from facilitator.rules.lyceum import SKILLS
from facilitator.formatting import (MINUS, N_, TAKE_BACK_KINDS, as_date, format_date, format_datetime,  # noqa: F401
                                   format_time, number, parse_time, signed, take_back_text)


# ----- skills --------------------------------------------------------------------------------------
SKILL_SHORT = {"health": N_("Hea"), "intellect": N_("Int"), "creativity": N_("Cre"),
               "communication": N_("Com"), "energy": N_("Ene")}


def skill_short(key):
    """A skill's short name for narrow columns (Здр, Инт, Тв, Ком, Эн): the one set used by the
    screens, the printed sheets and the command line."""
    return _(SKILL_SHORT[key]) if key in SKILL_SHORT else key


def skill_changes(changes):
    """``{"intellect": 1, "energy": -1}`` -> ``интеллект +1, энергия −1`` (canonical order)."""
    return ", ".join(f"{skill_name(s)} {signed(changes[s])}" for s in SKILLS if changes.get(s))


# ----- moves -----------------------------------------------------------------------------------------
def move_name(move):
    """What a move is, in words, without its effects (used for undone moves too)."""
    kind = move.type
    if kind == "draw":
        return {"play": _("Card drawn and played"), "defer": _("Card drawn and deferred"),
                "discard": _("Card drawn and discarded")}[move.decision]
    names = {
        "rest": _("Rest"),
        "share": _("Share experience"),
        "pass": _("Pass"),
        "play_deferred": _("Deferred card played"),
        "allocate": _("Free SP allocated"),
        "adjust": _("Host's correction"),
        "finish": _("Game finished"),
    }
    return names.get(kind, kind)


def move_label(result):
    """The few words the protocol's round grid shows for a player's own move."""
    move, card = result.move, result.card
    label = card.label if card is not None else ""
    if move.type == "draw":
        return {"play": label, "defer": _("{card} deferred", card=label),
                "discard": _("{card} discarded", card=label)}[move.decision]
    if move.type == "play_deferred":
        return _("{card} from deferred", card=label)
    if move.type == "adjust":
        changes = [signed(move.xp) + " XP"] if move.xp else []
        changes += [skill_changes(move.sp)] if move.sp and any(move.sp.values()) else []
        return _("correction: {changes}", changes=", ".join(changes))
    return {"rest": _("rest"), "share": _("shared experience"), "pass": _("turn passed")}.get(move.type, move.type)


def expired_label(card):
    """The round grid's words for a deferred card that expired."""
    return _("{card} expired", card=card.label)


def change_parts(change):
    """One player's changes from a move (``MoveResult.changes[name]``) as short parts:
    ``+500 XP``, ``уровень 4``, ``интеллект +2``, ``+2 SP к распределению``."""
    parts = []
    if change.get("xp"):
        parts.append(f"{signed(change['xp'])} XP")
    if change.get("levels"):
        parts.append(_("level {level}", level=change["levels"][-1]))
    skills = change.get("skills") or {}
    parts += [f"{skill_name(s)} {signed(skills[s])}" for s in SKILLS if skills.get(s)]
    if change.get("pending", 0) > 0:
        parts.append(_("+{sp} SP to allocate", sp=change["pending"]))
    return parts


def gain_text(name, change):
    """Another player's XP from a move, as the protocol's log details say it:
    ``Борис +200 XP (уровень 3)``."""
    text = _("{player} {xp} XP", player=name, xp=signed(change["xp"]))
    if change.get("levels"):
        text += " " + _("(level {levels})", levels=", ".join(str(v) for v in change["levels"]))
    return text


def result_lines(result):
    """What a move did, for the host: a line saying the move, then one line per player it
    touched, e.g. ``Аня: +500 XP, уровень 4, +2 SP к распределению``."""
    lines = []
    move = result.move
    if move.type == "draw" and result.card is not None:
        decision = {"play": _("played"), "defer": _("deferred"), "discard": _("discarded")}[move.decision]
        head = _("{player} drew «{title}» ({code}) and {decision}", player=move.player,
                 title=result.card.title, code=result.card.label, decision=decision)
        if result.deferred_until:
            head += " · " + _("it may be played until round {round}", round=result.deferred_until)
        lines.append(head)
    elif move.type == "play_deferred" and result.card is not None:
        lines.append(_("{player} played the deferred card «{title}»", player=move.player, title=result.card.title))
    elif move.type == "rest":
        lines.append(_("{player} rested", player=move.player))
    elif move.type == "share":
        lines.append(_("{player} shared experience: every other player gets {xp} XP", player=move.player,
                       xp=number(result.shared_xp)))
    elif move.type == "pass":
        lines.append(_("{player} passed", player=move.player))
    elif move.type == "finish":
        lines.append(_("The game is finished"))
    elif move.type == "allocate":
        lines.append(_("{player} allocated free SP", player=move.player))
    elif move.type == "adjust":
        lines.append(_("Adjustment for {player}: {reason}", player=move.player, reason=move.reason))
    for name, change in result.changes.items():
        parts = change_parts(change)
        if parts:
            lines.append(f"{name}: " + ", ".join(parts))
    for name, card in result.expired:
        lines.append(_("{player}'s deferred card «{title}» goes to the discard pile", player=name, title=card.title))
    return lines


# ----- pending SP, turn order, rankings -------------------------------------------------------------------
REASONS = {"level": "level-up", "card": "card", "rest": "rest", "share": "share"}


def pending_reasons(player):
    """Why a player's free SP are due: ``level-up: 2 SP, card: 1 SP`` (the SP each reason
    brings, never read as a level's number)."""
    totals = {}
    for reason, amount in player.pending_reasons:
        totals[reason] = totals.get(reason, 0) + amount
    return ", ".join(_("{reason}: {n} SP", reason=_(REASONS.get(r, r)), n=n) for r, n in totals.items())


def turn_order_text(code, params, sentence=False):
    """Why the player named goes first (``rules.turn_order_reason``'s code and numbers): a short
    line for the screens, or (``sentence=True``) the protocol's full sentence."""
    if sentence:
        texts = {
            "most_energy": N_("{player} goes first: the most energy ({energy})."),
            "younger": N_("{player} goes first: the most energy ({energy}); among the players tied on energy, "
                          "the youngest."),
            "seated_earlier": N_("{player} goes first: the most energy ({energy}); tied on energy and birth "
                                 "date, seated earliest."),
        }
    else:
        texts = {
            "most_energy": N_("{player} goes first: the most energy ({energy})"),
            "younger": N_("{player} goes first: the most energy ({energy}), and the youngest of those tied"),
            "seated_earlier": N_("{player} goes first: the most energy ({energy}), same birth date, seated earlier"),
        }
    return _(texts[code], **params)


def turn_order_rule():
    """How the turn order is decided (RULES.md 2), naming the engine's skill: the setup screen
    says it before the players are seated; ``turn_order_text`` says who it made first."""
    from facilitator.rules.lyceum.setup import TURN_ORDER_SKILL
    return _("Turn order: the most {skill} after the extra SP goes first; on a tie, the younger; then clockwise.",
             skill=skill_name(TURN_ORDER_SKILL))


def or_list(values):
    """``35, 40 or 45`` in the current language."""
    values = [str(v) for v in values]
    return values[0] if len(values) == 1 else _("{first} or {last}", first=", ".join(values[:-1]), last=values[-1])


def ranking_rule_text(rule):
    """The team ranking rule of RULES.md 5, in words."""
    if rule == "total":
        return _("Tables are ranked by the sum of their players' final XP, since every table "
                 "has the same number of players.")
    return _("Tables are ranked by the average final XP per player, since the tables have "
             "different numbers of players.")


def ranking_rule_short(rule):
    return _("by total") if rule == "total" else _("by average")


__all__ = ["MINUS", "N_", "number", "signed", "as_date", "format_date", "format_datetime", "parse_time",
           "format_time", "SKILL_SHORT", "skill_short", "skill_changes", "skill_name", "era_name", "color_name",
           "move_name", "move_label", "expired_label", "change_parts", "gain_text", "result_lines",
           "TAKE_BACK_KINDS", "take_back_text", "REASONS", "pending_reasons", "turn_order_text",
           "ranking_rule_text", "ranking_rule_short"]


# ----- the odds of a draw (issue 21) ---------------------------------------------------------------
def odds_parts(odds):
    """``{colour: (k, n)}`` -> ``["7 of 12 green", "3 of 10 yellow", "1 of 8 red"]``."""
    out = []
    for color, (k, n) in odds.items():
        if color == "green":
            out.append(_("{k} of {n} green", k=k, n=n))
        elif color == "yellow":
            out.append(_("{k} of {n} yellow", k=k, n=n))
        else:
            out.append(_("{k} of {n} red", k=k, n=n))
    return out


def odds_text(name, odds):
    """«Вика: 7 из 12 зелёных, 3 из 10 жёлтых, 1 из 8 красных»: of each colour's cards of the era
    in play, how many the player could play now."""
    return f"{name}: " + ", ".join(odds_parts(odds))
