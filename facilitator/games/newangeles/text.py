"""New Angeles' standings as text for ``facilitator replay``."""

from facilitator.formatting import number  # noqa: F401
from facilitator.i18n import gettext as _
from facilitator.standings_text import fixed as _fixed, table as _table  # noqa: F401


def standings_text(result):
    """Each table: the round, threat, how it ended, the players' capital and who won."""
    out = []
    for t in result["tables"]:
        ended = {None: _("the game is on"), "threat": _("the city was taken over (threat {threat})",
                                                         threat=t["threat"]),
                 "rounds": _("the game ended after the last demand round")}[t["ended_by"]]
        out.append(_("{table}: {round}, threat {threat} of {max}, {state}", table=t["table"],
                     round=t["round"]["label"], threat=t["threat"], max=t["threat_max"], state=ended))
        rows = []
        for p in t["players"]:
            result_word = {"won": _("won"), "lost": _("lost"), None: "—"}[p["result"]]
            rows.append([p["name"], p["corp"], number(p["capital"]), len(p["assets"]), p["rival"] or "—", result_word])
        out.append(_table([_("Player"), _("Corporation"), _("Capital"), _("Assets"), _("Rival"), _("Result")], rows,
                          right={2, 3}))
        if t["finished"]:
            out.append(_("Winners: {names}", names=", ".join(t["winners"]) or "—"))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
