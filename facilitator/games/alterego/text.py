"""Alter Ego's standings as text for ``facilitator replay`` (each table on its own)."""

from facilitator.formatting import number  # noqa: F401
from facilitator.i18n import gettext as _
from facilitator.standings_text import fixed as _fixed, table as _table  # noqa: F401

# ----- Alter Ego ---------------------------------------------------------------------------------------
SEASONS = {"winter": "winter", "spring": "spring fatigue", "summer": "summer season begins",
           "ropecon": "Ropecon and freshmen"}


def standings_text(result):
    """Each table: where the game is, the players by influence, then every active."""
    out = []
    for t in result["tables"]:
        if t["finished"]:
            state = _("the game is over (the fourth season card)") if t["ended_by"] == "season" \
                else _("the game was ended by the host")
        else:
            state = _("turn {turn} of {player} ({step}), the influence is live", turn=t["turn"], player=t["current"],
                      step=_(t["step"]))
        out.append(_("{table}: season {season} ({name}), {state}", table=t["table"], season=t["season"],
                     name=_(SEASONS.get(t["season_key"], t["season_key"])), state=state))
        out.append(_table([_("Place"), _("Player"), _("Influence"), _("Hand"), _("Actives")],
                          [[p["place"], p["name"], p["influence"], p["hand"], ", ".join(p["actives"])]
                           for p in sorted(t["players"], key=lambda p: p["place"])], right={0, 2, 3}))
        out.append("")
        out.append(_table([_("Active"), _("Owner"), "T", "P", "A", "BO", "U", _("Influence"), _("State")],
                          [[a["key"], a["owner"], a["anxiety_temp"], a["anxiety_perm"], a["anxiety"], a["bo"],
                            a["free_time_unused"], a["influence"],
                            ", ".join(w for w, on in ((_("burned out"), a["burned_out"]), (_("away"), a["away"]))
                                      if on) or "—"]
                           for a in t["actives"]], right={2, 3, 4, 5, 6, 7}))
        if t["pending"]:
            out.append(_("Choices waiting: {choices}", choices=", ".join(
                f"{c['choice']} ({c['player']})" for c in t["pending"])))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
