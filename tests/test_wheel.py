"""Installable as a package (issue 11, item 11): a wheel built from the repository, installed
non-editable somewhere else, serves pages and prints PDFs on its own — it carries the templates,
the static files, the fonts, the catalogs, the packs and the migrations — and writes what it
generates under the working directory, never inside the installed package."""

import os
import shutil
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.server]

PROBE = textwrap.dedent("""
    import json, os, pathlib, sys
    import facilitator
    from facilitator.web import create_app
    from facilitator import services
    site = pathlib.Path(facilitator.__file__).resolve().parent
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite:///" + os.path.abspath("wheel.db"),
                      "PROTOCOL_WAIT_SECONDS": 120})
    client = app.test_client()
    pages = {url: client.get(url).status_code for url in ("/", "/pin", "/static/app.css", "/static/outbox.js",
                                                          "/static/fonts/DejaVuSans.ttf", "/favicon.ico",
                                                          "/ae/static/alterego.css", "/na/static/newangeles.js")}
    engine = app.extensions["facilitator.engine"]
    from facilitator.rules.lyceum.simulate import random_game
    from facilitator.rules.lyceum.ruleset import sample_pack
    record, _ = random_game(sample_pack(), seed=5, players=3)
    with services.db.session_scope(engine) as s:
        table = services.import_record(s, record.to_dict())
        secret = services.access.start_session(s)
        table_id = table.id
    with client.session_transaction() as sess:
        sess["organizer"] = secret
    pdf = client.get(f"/table/{table_id}/protocol.pdf")
    xlsx = client.get(f"/table/{table_id}/protocol.xlsx")
    with services.db.session_scope(engine) as s:
        packs = sorted(r.ruleset for r in services.packs.list_packs(s))
    services.exports.shutdown()
    print(json.dumps({"package": str(site), "pages": pages, "pdf": [pdf.status_code, pdf.data[:5].decode("latin-1")],
                      "xlsx": [xlsx.status_code, xlsx.data[:2].decode("latin-1")], "packs": packs,
                      "russian": "Новый стол" in client.get("/?lang=ru").get_data(as_text=True)}))
""")


def _no_isolation():
    """Build with the test environment's own setuptools when it is one ``[build-system]`` asks
    for (the test extra installs it): pip then makes no isolated build environment, which is
    most of the build's time. An older one (a venv made before): pip's isolated build."""
    try:
        major = int(metadata.version("setuptools").split(".")[0])
        metadata.version("wheel")
    except (metadata.PackageNotFoundError, ValueError):
        return []
    return ["--no-build-isolation"] if major >= 68 else []


def test_a_wheel_installed_elsewhere_serves_pages_and_prints_pdfs(tmp_path):
    wheels, site, work, source = tmp_path / "wheels", tmp_path / "site", tmp_path / "work", tmp_path / "source"
    work.mkdir()
    # built from a copy of the sources (the build leaves its scratch folders where it builds)
    shutil.copytree(ROOT / "facilitator", source / "facilitator", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(wheels), "-q",
                            *_no_isolation()],
                           capture_output=True, text=True, env=env, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(wheels.glob("facilitator-*.whl"))
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(site), str(wheel),
                                "-q"], capture_output=True, text=True, env=env, timeout=300)
    assert installed.returncode == 0, installed.stderr[-2000:]
    run_env = dict(env, PYTHONPATH=str(site), FACILITATOR_INSTANCE=str(work / "instance"))
    run_env.pop("FACILITATOR_EXPORTS", None)
    probe = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=work, env=run_env,
                           timeout=300)
    assert probe.returncode == 0, probe.stderr[-3000:]
    import json
    report = json.loads(probe.stdout.strip().splitlines()[-1])
    assert Path(report["package"]).is_relative_to(site)  # the installed copy, not the repository
    assert report["pages"] == {"/": 200, "/pin": 200, "/static/app.css": 200, "/static/outbox.js": 200,
                               "/static/fonts/DejaVuSans.ttf": 200, "/favicon.ico": 301,
                               "/ae/static/alterego.css": 200, "/na/static/newangeles.js": 200}
    assert report["pdf"] == [200, "%PDF-"] and report["xlsx"] == [200, "PK"]
    assert report["packs"] == ["alter-ego-3", "lyceum-16-25", "new-angeles"]
    assert report["russian"]
    # generated files went under the working directory, nothing into the installed package
    assert list((work / "exports").rglob("*.pdf")) and list((work / "exports").rglob("*.xlsx"))
    assert not [p for p in site.rglob("*") if p.suffix in (".pdf", ".xlsx", ".db")]
