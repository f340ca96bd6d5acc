"""Plain sentences for the host: what a move changed, why SP are pending, why the turn order
is what it is. The words live in ``facilitator.games.lyceum.words`` (shared with the printed protocol and
the command line); this module keeps the names the views import."""

from facilitator.games.lyceum.words import REASONS, pending_reasons, result_lines, signed, turn_order_text

__all__ = ["REASONS", "pending_reasons", "result_lines", "signed", "turn_order_text"]
