"""The results of an event (several tables), as data: team and individual rankings, winners.

The rankings are the engine's (``facilitator.rules.lyceum.standings``, RULES.md 5): tables by total
final XP when every table has as many players, else by average; equal scores share a place.
``build_event`` adds what the printed sheets need on top: the rule in words, each table's
protocol, and who gets a certificate.
"""

from dataclasses import dataclass
from datetime import datetime

from facilitator.games.lyceum import words
from facilitator.rules.lyceum import standings
from facilitator.games.lyceum.protocol import iso_date, as_protocol



@dataclass
class TeamRow:
    place: int
    table: str
    players: int
    total_xp: int
    average_xp: float
    final: bool
    names: list


@dataclass
class IndividualRow:
    place: int
    name: str
    table: str
    character: str
    xp: int
    bonus: int
    final_xp: int
    shared_place: bool  # another player has the same place


@dataclass
class Certificate:
    """One certificate page: a table's winner (``kind`` "player") or the winning table ("table")."""

    kind: str
    name: str  # the player's or the table's name
    table: str
    score: int | float
    place: int
    shared: bool  # the first place is shared
    members: list  # for a table: its players' names
    character: str = ""


@dataclass
class EventResults:
    event: str | None
    generated_at: datetime
    protocols: list
    rule: str  # "total" or "average"
    teams: list
    individuals: list
    event_date: str | None = None  # the event's day, ISO "YYYY-MM-DD" (None: no date printed)

    @property
    def final(self):
        return all(p.final for p in self.protocols)

    @property
    def unfinished(self):
        return [p.table for p in self.protocols if not p.final]

    @property
    def rule_text(self):
        return words.ranking_rule_text(self.rule)

    @property
    def rule_short(self):
        return words.ranking_rule_short(self.rule)

    def certificates(self):
        """Each table's winner(s), then the winning table(s) when there is more than one table."""
        out = []
        for protocol in self.protocols:
            winners = protocol.winners
            for r in winners:
                out.append(Certificate("player", r.name, protocol.table, r.final_xp, 1, len(winners) > 1, [],
                                       character=_character_name(protocol, r.name)))
        if len(self.protocols) > 1:
            top = [t for t in self.teams if t.place == 1]
            for t in top:
                score = t.total_xp if self.rule == "total" else t.average_xp
                out.append(Certificate("table", t.table, t.table, score, 1, len(top) > 1, list(t.names)))
        return out


def _character_name(protocol, name):
    for p in protocol.players:
        if p.name == name:
            return p.character_name
    return ""


def build_event(items, event=None, now=None, event_date=None):
    """``EventResults`` for the tables of one event: ``items`` are ``Game`` or ``Protocol`` objects
    (build protocols yourself to show undone moves). ``event_date``: the event's day, ISO
    ``YYYY-MM-DD`` (None: no date printed)."""
    now = now or datetime.now().astimezone()
    protocols = [as_protocol(item, event=event, now=now, event_date=event_date) for item in items]
    if event_date is None:  # protocols built beforehand may know the event's day
        event_date = next((p.event_date for p in protocols if p.event_date), None)
    names = [p.table for p in protocols]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"the tables of an event need distinct names; repeated: {', '.join(twice)}")
    result = standings([p.game for p in protocols])
    by_table = {p.table: p for p in protocols}
    teams = [TeamRow(place=t["place"], table=t["table"], players=t["players"], total_xp=t["total_xp"],
                     average_xp=t["average_xp"], final=by_table[t["table"]].final,
                     names=[r.name for r in by_table[t["table"]].results_by_place])
             for t in result["teams"]]
    result_of = {(p.table, r.name): r for p in protocols for r in p.results}
    place_count = {}
    for row in result["individuals"]:
        place_count[row["place"]] = place_count.get(row["place"], 0) + 1
    individuals = []
    for row in result["individuals"]:
        r = result_of[(row["table"], row["name"])]
        individuals.append(IndividualRow(
            place=row["place"], name=row["name"], table=row["table"],
            character=_character_name(by_table[row["table"]], row["name"]),
            xp=r.xp, bonus=r.bonus, final_xp=row["final_xp"],
            shared_place=place_count[row["place"]] > 1))
    rule = result["teams"][0]["ranked_by"] if result["teams"] else "total"
    return EventResults(event=event, generated_at=now, protocols=protocols, rule=rule, teams=teams,
                        individuals=individuals, event_date=iso_date(event_date))
