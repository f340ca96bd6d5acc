"""``facilitator export``: from record files to files under ``<out>/<event>/`` whose names say the
event, the table and the time; a bad record stops it with the same one-line error as replay."""

import json
import re

import pytest
from openpyxl import load_workbook

from facilitator.cli import main

from .conftest import MOVES, record_data, write_record_file

STAMP = r"\d{4}-\d\d-\d\d_\d{4}"


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def records(tmp_path):
    one = write_record_file(tmp_path / "stol1.json", record_data("Стол 1"))
    two = write_record_file(tmp_path / "stol2.json", record_data("Стол 2", moves=MOVES[:22]))
    return one, two


def test_export_workbooks_of_two_tables(capsys, tmp_path, records):
    status, out, err = run(capsys, "export", *map(str, records), "--xlsx", "--out", str(tmp_path / "exports"),
                           "--event", "Турнир лицея")
    assert status == 0 and err == ""
    paths = out.splitlines()
    folder = tmp_path / "exports" / "Турнир-лицея"
    assert [p.rsplit("/", 1)[0] for p in paths] == [str(folder)] * 3
    names = [p.rsplit("/", 1)[1] for p in paths]
    assert re.fullmatch(rf"Турнир-лицея_Стол-1_протокол_{STAMP}\.xlsx", names[0])
    assert re.fullmatch(rf"Турнир-лицея_Стол-2_протокол_{STAMP}\.xlsx", names[1])
    assert re.fullmatch(rf"Турнир-лицея_итоги_{STAMP}\.xlsx", names[2])
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)
    table = load_workbook(paths[1])
    assert table["Подготовка"]["A2"].value.startswith("Предварительный")  # Стол 2 is mid-game
    event = load_workbook(paths[2])
    assert event.sheetnames[0] == "Сводка" and "Стол 2 · Журнал" in event.sheetnames


def test_export_everything_for_one_table_in_english(capsys, tmp_path, records):
    status, out, err = run(capsys, "export", str(records[0]), "--out", str(tmp_path), "--lang", "en")
    assert status == 0, err
    names = [p.rsplit("/", 1)[1] for p in out.splitlines()]
    kinds = [re.sub(rf"_{STAMP}", "", n) for n in names]
    assert kinds == ["event_Стол-1_protocol.xlsx", "event_Стол-1_protocol.pdf", "event_Стол-1_blank-protocol.pdf",
                     "event_results.xlsx", "event_results.pdf", "event_certificates.pdf"]
    for path in out.splitlines():
        data = open(path, "rb").read()
        assert data[:4] in (b"%PDF", b"PK\x03\x04")
    assert load_workbook(out.splitlines()[0]).sheetnames == ["Setup", "Rounds", "Log", "Results"]


def test_the_records_event_key_names_the_folder(capsys, tmp_path):
    data = record_data()
    data["event"] = "Кубок лицея"
    path = write_record_file(tmp_path / "r.json", data)
    status, out, _err = run(capsys, "export", str(path), "--xlsx", "--out", str(tmp_path / "x"))
    assert status == 0
    assert out.splitlines()[0].startswith(str(tmp_path / "x" / "Кубок-лицея" / "Кубок-лицея_Стол-1_"))


def test_tables_with_the_same_name_are_told_apart_by_their_file(capsys, tmp_path):
    a = write_record_file(tmp_path / "a.json", record_data("Стол 1"))
    b = write_record_file(tmp_path / "b.json", record_data("Стол 1"))
    status, out, err = run(capsys, "export", str(a), str(b), "--xlsx", "--out", str(tmp_path))
    assert status == 0, err
    names = out.splitlines()
    assert "_Стол-1-a_протокол_" in names[0] and "_Стол-1-b_протокол_" in names[1]


def test_a_second_export_in_the_same_minute_does_not_overwrite(capsys, tmp_path, records):
    first = run(capsys, "export", str(records[0]), "--xlsx", "--out", str(tmp_path))[1].splitlines()
    second = run(capsys, "export", str(records[0]), "--xlsx", "--out", str(tmp_path))[1].splitlines()
    assert len(set(first + second)) == 4


def test_a_record_that_breaks_the_rules_stops_the_export_with_replays_error(capsys, tmp_path, records):
    data = record_data()
    data["moves"][0] = {"type": "draw", "player": "Борис", "color": "red", "card": "L-R-01", "decision": "play"}
    bad = write_record_file(tmp_path / "bad.json", data)
    out_dir = tmp_path / "exports"
    status, out, err = run(capsys, "export", str(records[0]), str(bad), "--out", str(out_dir))
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"{bad}: move 1 (draw by Борис): not eligible: intellect 4 < 8")
    assert not out_dir.exists()  # nothing written
    replay_status, _out, replay_err = run(capsys, "replay", str(bad))
    assert (replay_status, replay_err) == (2, err)


@pytest.mark.parametrize("content, message", [
    ("{", "not valid JSON"),
    (json.dumps({"format": "lyceum-record/1"}), "table"),
])
def test_a_malformed_record_file_is_refused_in_one_line(capsys, tmp_path, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, "export", str(bad), "--out", str(tmp_path / "x"))
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_missing_file(capsys, tmp_path):
    status, _out, err = run(capsys, "export", str(tmp_path / "nope.json"))
    assert status == 2 and "cannot read the file" in err


def test_export_prints_the_events_date_given_or_kept_in_the_records(capsys, tmp_path, records):
    from io import BytesIO

    from pypdf import PdfReader
    status, out, err = run(capsys, "export", str(records[0]), "--pdf", "--out", str(tmp_path / "a"),
                           "--date", "2025-05-17")
    assert status == 0, err
    certificates = next(p for p in out.splitlines() if "дипломы" in p or "certificates" in p)
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(open(certificates, "rb").read())).pages)
    assert "17.05.2025" in text
    data = record_data("Стол 1")
    data["event_date"] = "2025-05-18"
    kept = write_record_file(tmp_path / "kept.json", data)
    status, out, err = run(capsys, "export", str(kept), "--pdf", "--out", str(tmp_path / "b"))
    assert status == 0, err
    protocol = out.splitlines()[0]
    assert "18.05.2025" in PdfReader(BytesIO(open(protocol, "rb").read())).pages[0].extract_text()


def test_export_refuses_a_date_that_is_not_one(capsys, records, tmp_path):
    with pytest.raises(SystemExit):
        main(["export", str(records[0]), "--out", str(tmp_path), "--date", "17.05.2025"])
    assert "YYYY-MM-DD" in capsys.readouterr().err
