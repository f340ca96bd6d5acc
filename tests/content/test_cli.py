"""``facilitator pack``: template, import (validate, store, summarize; refuse as a whole with
exit status 2), export and list, against a database in a temporary instance folder."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from facilitator.cli import main
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.games.lyceum.excel import pack_to_workbook, workbook_to_pack
from facilitator.games.lyceum.importing import json_to_pack, pack_to_json
from facilitator.storage.db import dispose_all

from .helpers import edited, odd_pack, sample_workbook


@pytest.fixture(autouse=True)
def instance(tmp_path, monkeypatch):
    """Every command runs against the SQLite file of a fresh instance folder."""
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    yield tmp_path / "instance"
    dispose_all()


def run(capsys, *argv):
    status = main(["pack", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def listed(capsys):
    status, out, _ = run(capsys, "list")
    assert status == 0
    return [line.split()[:2] for line in out.splitlines()[1:]]


def test_template_writes_the_workbook_filled_with_the_sample_deck(capsys, tmp_path):
    out_file = tmp_path / "шаблон.xlsx"
    status, out, err = run(capsys, "template", out_file)
    assert (status, err) == (0, "")
    assert out.strip() == f"Шаблон записан: {out_file}"
    assert workbook_to_pack(out_file.read_bytes()).cards == sample_pack().cards


def test_import_stores_the_pack_and_prints_key_version_and_summary(capsys, tmp_path):
    deck = tmp_path / "deck.xlsx"
    deck.write_bytes(pack_to_workbook(odd_pack()))
    status, out, err = run(capsys, "import", deck)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Набор odd-пакет сохранён, версия 1: «Странный набор «тест» — ✓»"
    assert lines[1] == "Персонажей: 2, карт: 7, уровней: 4"
    assert "Предупреждения (набор принят):" in lines
    assert any("персонажей всего 2" in line for line in lines)
    assert ["odd-пакет", "1"] in listed(capsys)


def test_importing_the_same_deck_again_adds_no_version_and_a_change_adds_one(capsys, tmp_path):
    deck = tmp_path / "deck.xlsx"
    deck.write_bytes(sample_workbook())
    assert run(capsys, "import", deck)[0] == 0
    status, out, _ = run(capsys, "import", deck)
    assert out.splitlines()[0] == "Набор sample не изменился: версия 1 уже есть в приложении"
    deck.write_bytes(edited(sample_workbook(), [("Карты", "D2", "Олимпиада по физике")]))
    status, out, _ = run(capsys, "import", deck)
    assert out.splitlines()[0] == "Набор sample сохранён, версия 2: «Пример колоды (не оригинальная игра)»"
    assert listed(capsys) == [["sample", "2"]]


def test_a_refused_import_prints_every_problem_on_stderr_exits_2_and_stores_nothing(capsys, tmp_path, instance):
    good = tmp_path / "good.xlsx"
    good.write_bytes(sample_workbook())
    run(capsys, "import", good)
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(edited(sample_workbook(), [("Карты", "D3", "Новое"), ("Карты", "O11", 2),
                                               ("Персонажи", "B2", None)]))
    status, out, err = run(capsys, "import", bad)
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        f"{bad}: набор не принят, ничего не сохранено. Ошибок: 2",
        "Персонажи!B2: не заполнено поле «Имя»",
        "Карты!O11: жёлтая карта должна стоить ровно 1 SP, указано 2",
    ]
    assert listed(capsys) == [["sample", "1"]]
    status, out, _ = run(capsys, "export", "sample", tmp_path / "after.json")
    assert json_to_pack((tmp_path / "after.json").read_text("utf-8")) == sample_pack()


def test_a_refused_json_import_names_the_card_and_field(capsys, tmp_path):
    data = sample_pack().to_dict()
    data["cards"][9]["losses"] = {"energy": 2}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    status, out, err = run(capsys, "import", bad)
    assert (status, out) == (2, "")
    assert err.splitlines()[1:] == ["карта L-Y-01, потери: жёлтая карта должна стоить ровно 1 SP, указано 2"]
    assert listed(capsys) == [["sample", "1"]]  # only the sample the list puts there itself


def test_import_json_under_another_code(capsys, tmp_path):
    src = tmp_path / "pack.json"
    src.write_text(pack_to_json(sample_pack()), encoding="utf-8")
    status, out, _ = run(capsys, "import", src, "--id", "lyceum-2025", "--title", "Лицей 2025")
    assert status == 0
    assert out.splitlines()[0] == "Набор lyceum-2025 сохранён, версия 1: «Лицей 2025»"


def test_export_writes_any_stored_version_as_workbook_or_json(capsys, tmp_path):
    deck = tmp_path / "deck.xlsx"
    deck.write_bytes(sample_workbook())
    run(capsys, "import", deck)
    deck.write_bytes(edited(sample_workbook(), [("Карты", "D2", "Олимпиада по физике")]))
    run(capsys, "import", deck)
    status, out, _ = run(capsys, "export", "sample@1", tmp_path / "v1.json")
    assert status == 0 and out.strip() == f"Набор sample, версия 1, записан: {tmp_path / 'v1.json'}"
    assert json_to_pack((tmp_path / "v1.json").read_text("utf-8")) == sample_pack()
    run(capsys, "export", "sample", tmp_path / "latest.xlsx")
    latest = workbook_to_pack((tmp_path / "latest.xlsx").read_bytes())
    assert latest.cards_by_code["L-G-01"].title == "Олимпиада по физике"


@pytest.mark.parametrize("ref, out_name, message", [
    ("nothing", "x.json", "Набора nothing в приложении нет"),
    ("sample@9", "x.json", "Набора sample@9 в приложении нет"),
    ("sample", "x.csv", "x.csv: имя файла должно оканчиваться на .xlsx или .json"),
])
def test_export_refuses_an_unknown_pack_or_file_type(capsys, tmp_path, ref, out_name, message):
    status, out, err = run(capsys, "export", ref, tmp_path / out_name)
    assert (status, out) == (2, "")
    assert err.strip().endswith(message)
    assert not (tmp_path / out_name).exists()


def test_import_of_a_missing_file_exits_2(capsys, tmp_path):
    status, out, err = run(capsys, "import", tmp_path / "nope.xlsx")
    assert (status, out) == (2, "")
    assert "не удаётся прочитать файл" in err


def test_the_output_can_be_in_english(capsys, tmp_path):
    deck = tmp_path / "deck.json"
    deck.write_text(pack_to_json(sample_pack()), encoding="utf-8")
    status = main(["pack", "--lang", "en", "import", str(deck)])
    out = capsys.readouterr().out
    assert status == 0
    assert out.splitlines()[:2] == ["Stored pack sample, version 1: «Пример колоды (не оригинальная игра)»",
                                    "Characters: 10, cards: 81, levels: 9"]


def test_the_installed_command_refuses_a_bad_deck_with_status_2(tmp_path):
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(edited(sample_workbook(), [("Карты", "O11", 2)]))
    env = dict(os.environ, FACILITATOR_INSTANCE=str(tmp_path / "sub"))
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-m", "facilitator", "pack", "import", str(bad)],
                          capture_output=True, text=True, env=env, cwd=Path(__file__).parent)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Карты!O11: жёлтая карта должна стоить ровно 1 SP, указано 2" in done.stderr.splitlines()
