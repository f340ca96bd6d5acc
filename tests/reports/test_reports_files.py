"""Export file names and writing (facilitator.reports.files): one folder per event, names that say
the event, the table, what the file is and when it was made."""

from datetime import datetime

import pytest

from facilitator.i18n import use_locale
from facilitator.reports.files import export_folder, export_name, slug, write_export

WHEN = datetime(2025, 5, 17, 14, 32)


@pytest.mark.parametrize("text, expected", [
    ("Стол 3", "Стол-3"),
    ("  Турнир лицея  ", "Турнир-лицея"),
    ("Финал: стол/1?", "Финал-стол-1"),
    ("a\\b*c<d>e|f\"g", "a-b-c-d-e-f-g"),
    ("..hidden", "hidden"),
    ("Ёжик — «лучший»", "Ёжик-лучший"),
    ("", "export"),
    ("???", "export"),
    ("x" * 100, "x" * 60),
])
def test_slug_keeps_letters_of_any_script_and_drops_what_file_systems_refuse(text, expected):
    assert slug(text) == expected


def test_a_tables_file_name_says_event_table_kind_and_time():
    with use_locale("ru"):
        assert export_name("protocol", "pdf", event="Турнир лицея", table="Стол 3", when=WHEN) == \
            "Турнир-лицея_Стол-3_протокол_2025-05-17_1432.pdf"
        assert export_name("results", "xlsx", event="Турнир лицея", when=WHEN) == "Турнир-лицея_итоги_2025-05-17_1432.xlsx"
        assert export_name("certificates", ".pdf", when=WHEN) == "мероприятие_дипломы_2025-05-17_1432.pdf"
    with use_locale("en"):
        assert export_name("blank", "pdf", event="Cup", table="T1", when=WHEN) == "Cup_T1_blank-protocol_2025-05-17_1432.pdf"


def test_files_go_to_the_events_folder_and_never_overwrite(tmp_path):
    with use_locale("ru"):
        first = write_export(b"one", tmp_path, "protocol", "pdf", event="Турнир", table="Стол 1", when=WHEN)
        second = write_export(b"two", tmp_path, "protocol", "pdf", event="Турнир", table="Стол 1", when=WHEN)
    assert first.parent == second.parent == export_folder(tmp_path, "Турнир") == tmp_path / "Турнир"
    assert first.name == "Турнир_Стол-1_протокол_2025-05-17_1432.pdf"
    assert second.name == "Турнир_Стол-1_протокол_2025-05-17_1432-2.pdf"
    assert (first.read_bytes(), second.read_bytes()) == (b"one", b"two")
    assert sorted(p.name for p in first.parent.iterdir()) == sorted([first.name, second.name])  # no temp files
