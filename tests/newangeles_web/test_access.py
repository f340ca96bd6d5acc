"""Who may open a New Angeles table's screens: the organizer, or a host with the table's link or
PIN (as the «16/25» screens); a table's generic address lands on its own game's screens."""

from facilitator import services
from facilitator.storage import session_scope
from tests.newangeles_web.helpers import engine, new_table, post, seated, setup_form


def test_a_stranger_is_refused_and_an_unknown_table_is_not_found(app, client, anon_client):
    table_id = seated(app, client)
    for url in (f"/na/table/{table_id}", f"/na/table/{table_id}/setup", f"/na/table/{table_id}/final",
                f"/na/table/{table_id}/deal?after=0", f"/na/table/{table_id}/finish"):
        assert anon_client.get(url).status_code == 403, url
    assert anon_client.post(f"/na/table/{table_id}/move/capital", data={"after": 0}).status_code in (400, 403)
    assert client.get("/na/table/999999").status_code == 404
    assert client.get("/na/table/99999999999999").status_code == 404


def test_a_host_with_the_pin_runs_the_table_and_the_generic_address_lands_here(app, client, anon_client):
    table_id = new_table(app, event=False)
    with session_scope(engine(app)) as s:
        pin = services.get_table(s, table_id).pin
    page = anon_client.get("/pin")
    import re
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    opened = anon_client.post("/pin", data={"pin": pin, "csrf_token": token})
    assert opened.status_code == 303
    # /table/<id> (the host link, the PIN) is sent on to this game's screens
    landed = anon_client.get(f"/table/{table_id}", follow_redirects=True)
    assert landed.request.path == f"/na/table/{table_id}/setup"
    assert post(anon_client, f"/na/table/{table_id}/setup", setup_form()).status == 303
    assert anon_client.get(f"/na/table/{table_id}").status_code == 200
    assert anon_client.get(f"/table/{table_id}/final").headers["Location"].endswith(f"/na/table/{table_id}/final")


def test_a_table_of_another_game_is_sent_to_its_own_screens(app, client):
    with session_scope(engine(app)) as s:
        pack_row = services.packs.ensure_sample(s, "lyceum-16-25")
        table_id = services.create_table(s, "Lyceum", pack_row).id
    response = client.get(f"/na/table/{table_id}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/table/{table_id}")
    assert not response.headers["Location"].startswith("/na/")
    # a move posted to this game's address for a table of another game is no move at all
    assert client.post(f"/na/table/{table_id}/move/capital", data={"after": 0}).status_code in (400, 404)
