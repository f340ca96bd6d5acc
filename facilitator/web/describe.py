"""Plain sentences for the host: what a move changed, why SP are pending, why the turn order
is what it is. All text goes through the translation layer."""

from ..i18n import gettext as _
from ..i18n import skill_name

REASONS = {"level": "level-up", "card": "card", "rest": "rest", "share": "share"}


def signed(n):
    return f"+{n}" if n > 0 else str(n)


def result_lines(result):
    """One line per player the move touched, e.g. ``Аня: +500 XP, level 4, +2 SP to allocate``."""
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
                       xp=result.shared_xp))
    elif move.type == "pass":
        lines.append(_("{player} passed", player=move.player))
    elif move.type == "finish":
        lines.append(_("The game is finished"))
    elif move.type == "allocate":
        lines.append(_("{player} allocated free SP", player=move.player))
    elif move.type == "adjust":
        lines.append(_("Adjustment for {player}: {reason}", player=move.player, reason=move.reason))
    for name, change in result.changes.items():
        parts = []
        if change.get("xp"):
            parts.append(f"{signed(change['xp'])} XP")
        if change.get("levels"):
            parts.append(_("level {level}", level=change["levels"][-1]))
        for skill, delta in (change.get("skills") or {}).items():
            parts.append(f"{skill_name(skill)} {signed(delta)}")
        if change.get("pending", 0) > 0:
            parts.append(_("+{sp} SP to allocate", sp=change["pending"]))
        if parts:
            lines.append(f"{name}: " + ", ".join(parts))
    for name, card in result.expired:
        lines.append(_("{player}'s deferred card «{title}» goes to the discard pile", player=name, title=card.title))
    return lines


def pending_reasons(player):
    """Why a player's free SP are due: ``level-up 2, card 1``."""
    totals = {}
    for reason, amount in player.pending_reasons:
        totals[reason] = totals.get(reason, 0) + amount
    return ", ".join(f"{_(REASONS[r])} {n}" for r, n in totals.items())


def turn_order_text(code, params):
    texts = {
        "most_energy": _("{player} goes first: the most energy ({energy})", **params),
        "younger": _("{player} goes first: the most energy ({energy}), and the youngest of those tied", **params),
        "seated_earlier": _("{player} goes first: the most energy ({energy}), same birth date, seated earlier",
                            **params),
    }
    return texts[code]
