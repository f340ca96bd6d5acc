"""Alter Ego's move forms queued by the tablet's outbox are read as the screen's POST reads them
(``forms.move_data`` and the engine): the same moves recorded, the same refused with the same
words, the game's names of cards and actives in them (issue 18). A Bile nobody comes to is a
party, on every tablet."""

from tests.queued_forms import both_ways, queue

from .helpers import THREE, seated

MOVE = "/ae/table/{}/move/"


def test_every_kind_of_form_is_read_the_same_with_and_without_javascript(app, host):
    tables = seated(app, host, THREE, first="Aino", name="Ilman"), seated(app, host, THREE, first="Aino", name="Kanssa")
    cases = [
        ("draw", {"player": "Bertta"}, ("refused", 422)),  # not her turn
        ("adjust", {"changes": "{not json", "reason": "korjaus"}, ("refused", 400)),
        ("react", {"player": "Bertta", "card": "ei_rahaa", "to": "first"}, ("refused", 400)),
        ("draw", {"player": "Aino"}, ("recorded",)),
        # the Bile with no guests: a party nobody attends is the card's main use
        ("play_event", {"player": "Aino", "card": "bile", "target": "meira"}, ("recorded",)),
    ]
    for kind, fields, expected in cases:
        outcome = both_ways(app, host, tables, MOVE + kind, fields)
        assert outcome[:len(expected)] == expected, (kind, fields, outcome)
    assert outcome[1] == {"type": "play_event", "player": "Aino", "card": "bile", "target": "meira", "participants": []}


def test_a_refused_queued_form_names_the_actives_by_their_names(app, host, table):
    # Aino cannot use the ability of Bertta's Tommi: the reason names him as the deck prints him
    assert queue(host, table, f"/ae/table/{table}/move/draw", {"player": "Aino"}, 0).status_code == 200
    answer = queue(host, table, f"/ae/table/{table}/move/ability", {"player": "Aino", "active": "tommi"}, 1)
    refused = answer.get_json()["refused"]
    assert answer.status_code == 207 and refused["code"] != "malformed", refused
    assert "tommi" not in refused["message"] and "Tommi" in refused["message"], refused["message"]
