"""«16/25»'s standings as text for ``facilitator replay`` (teams and individuals)."""

from facilitator.games.lyceum.words import skill_short
from facilitator.i18n import era_name
from facilitator.i18n import gettext as _
from facilitator.rules.lyceum import SKILLS
from facilitator.standings_text import fixed as _fixed, table as _table

def standings_text(result):
    """Each table, then (for several tables) the team and the individual rankings."""
    out = []
    for t in result["tables"]:
        state = _("the game is finished") if t["finished"] else _("the game is on, the results are provisional")
        out.append(_("{table}: round {round}, era «{era}», {state}", table=t["table"], round=t["round"],
                     era=era_name(t["era"]), state=state))
        headers = [_("Place"), _("Player"), _("Character"), _("XP"), _("Lv.")] + [skill_short(s) for s in SKILLS] + [
            _("Image"), _("Bonus"), _("Final")]
        rows = []
        for p in sorted(t["players"], key=lambda p: p["place"]):
            image = "—" if p["declared"] is None else \
                f"{p['declared']} {_('yes') if p['declaration_met'] else _('no')}"
            rows.append([p["place"], p["name"], p["character"], p["xp"], p["level"]]
                        + [p["skills"][s] for s in SKILLS] + [image, p["bonus"], p["final_xp"]])
        out.append(_table(headers, rows, right={0, 3, 4, 5, 6, 7, 8, 9, 11, 12}))
        out.append(_("The table's total XP: {total}, per player on average: {average}", total=t["total_xp"],
                     average=_fixed(t["average_xp"])))
        out.append("")
    if len(result["tables"]) > 1:
        rule = result["teams"][0]["ranked_by"]
        rule_text = (_("by the sum of XP (every table has as many players)") if rule == "total"
                     else _("by the average XP per player (tables have different numbers of players)"))
        out.append(_("Team ranking, {rule}:", rule=rule_text))
        out.append(_table([_("Place"), _("Table"), _("Seated"), _("Sum"), _("Average")],
                          [[r["place"], r["table"], r["players"], r["total_xp"], _fixed(r["average_xp"])]
                           for r in result["teams"]], right={0, 2, 3, 4}))
        out.append("")
        out.append(_("Individual ranking:"))
        out.append(_table([_("Place"), _("Player"), _("Table"), _("Final")],
                          [[r["place"], r["name"], r["table"], r["final_xp"]] for r in result["individuals"]],
                          right={0, 3}))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
