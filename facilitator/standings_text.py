"""Standings as readable text for ``facilitator replay``, one formatter per game, in the current
language (through the catalogs, like the screens: Russian for «16/25», Finnish for Alter Ego,
English for New Angeles by default)."""

from .i18n import era_name
from .i18n import gettext as _
from .rules.lyceum import SKILLS
from .words import number, skill_short


def _table(headers, rows, right=()):
    """A plain-text table with columns padded to their widest cell."""
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]])


def _fixed(value, digits=1):
    """A number with a point and ``digits`` decimals, as the tables print averages."""
    return f"{value:.{digits}f}"


# ----- «16/25» ------------------------------------------------------------------------------------
def lyceum(result):
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


# ----- Alter Ego ---------------------------------------------------------------------------------------
SEASONS = {"winter": "winter", "spring": "spring fatigue", "summer": "summer season begins",
           "ropecon": "Ropecon and freshmen"}


def alterego(result):
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


# ----- New Angeles -------------------------------------------------------------------------------------
def newangeles(result):
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


FORMATTERS = {"lyceum-16-25": lyceum, "alter-ego-3": alterego, "new-angeles": newangeles}


def format_standings(result, ruleset="lyceum-16-25"):
    return FORMATTERS[ruleset](result)
