"""``facilitator pack``: the organizer's deck from the command line.

* ``pack template OUT.xlsx``: the Excel template, filled with the sample deck as the example;
* ``pack import IN.xlsx|IN.json``: validate a deck and store it in the library (a new version
  when the code exists and the content changed), then print its summary and warnings; a
  deck with problems is refused as a whole, every problem on stderr, exit status 2;
* ``pack export KEY[@VERSION] OUT.xlsx|OUT.json``: write a stored pack back out;
* ``pack list``: the stored packs, newest version of each.

Output is in the current locale (Russian by default, ``--lang en`` for English).
"""

import sys
from pathlib import Path

from facilitator.i18n import LOCALES, gettext, use_locale
from facilitator.rules.lyceum.ruleset import RULESET
from facilitator.services.db import engine_for, session_scope, startup
from facilitator.games.lyceum.excel import pack_to_workbook, template_workbook
from facilitator.games.lyceum.importing import PackImportError, load_pack_bytes, pack_to_json
from facilitator.services.packs import ensure_sample, get_row, list_packs, pack_of, store_pack
from facilitator.games.lyceum.summary import format_summary, pack_summary

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


def register(subparsers):
    parser = subparsers.add_parser("pack", help="content packs: Excel template, import, export, list")
    parser.add_argument("--lang", choices=LOCALES, default=None, help="language of the output (default: ru)")
    sub = parser.add_subparsers(dest="pack_command", required=True)

    p = sub.add_parser("template", help="write the Excel template (filled with the sample deck)")
    p.add_argument("out", metavar="OUT.xlsx")
    p.set_defaults(func=_localized(cmd_template))

    p = sub.add_parser("import", help="validate a deck and store it in the library")
    p.add_argument("file", metavar="IN.xlsx|IN.json")
    p.add_argument("--id", dest="pack_id", default=None, help="store under this pack code instead of the file's")
    p.add_argument("--title", default=None, help="use this title instead of the file's")
    p.set_defaults(func=_localized(cmd_import))

    p = sub.add_parser("export", help="write a stored pack as a workbook or as lyceum-pack/1 JSON")
    p.add_argument("pack", metavar="KEY[@VERSION]")
    p.add_argument("out", metavar="OUT.xlsx|OUT.json")
    p.set_defaults(func=_localized(cmd_export))

    p = sub.add_parser("list", help="list the stored packs (newest version of each)")
    p.set_defaults(func=_localized(cmd_list))


def _localized(command):
    def run(args):
        with use_locale(args.lang or "ru"):
            return command(args)
    return run


def _fail(message):
    print(message, file=sys.stderr)
    return 2


def _engine():
    engine = engine_for()
    startup(engine, shipped=False)
    return engine


def _with_sample(session):
    """Put the shipped sample pack in the library if it is not there yet. (Only then:
    ``ensure_sample`` stores a new version whenever the newest differs, which would undo an
    organizer's own version of the pack coded ``sample``.)"""
    if get_row(session, "sample", ruleset=RULESET.key) is None:
        ensure_sample(session, RULESET.key)


def cmd_template(args):
    Path(args.out).write_bytes(template_workbook())
    print(gettext("Template written: {path}", path=args.out))
    return 0


def read_pack_file(path, pack_id=None, title=None):
    """The ``ContentPack`` in a workbook or JSON file; raises ``PackImportError`` or ``OSError``."""
    return load_pack_bytes(Path(path).read_bytes(), Path(path).name, pack_id=pack_id, title=title)


def cmd_import(args):
    try:
        pack = read_pack_file(args.file, args.pack_id, args.title)
    except OSError as err:
        return _fail(gettext("{path}: cannot read the file: {error}", path=args.file, error=err.strerror or err))
    except PackImportError as err:
        lines = [gettext("{path}: the pack is refused, nothing was stored. Problems: {count}",
                         path=args.file, count=len(err.problems))]
        lines += [str(p) for p in err.problems]
        return _fail("\n".join(lines))
    with session_scope(_engine()) as session:
        before = get_row(session, pack.id, ruleset=RULESET.key)
        row = store_pack(session, pack)
        key, version = row.key, row.version
    if before is not None and before.version == version:
        print(gettext("Pack {key} is unchanged: version {version} is already in the library", key=key,
                      version=version))
    else:
        print(gettext("Stored pack {key}, version {version}: «{title}»", key=key, version=version,
                      title=pack.title))
    print("\n".join(format_summary(pack_summary(pack))))
    return 0


def parse_pack_ref(text):
    """``KEY`` or ``KEY@VERSION`` -> ``(key, version or None)``."""
    key, sep, version = text.rpartition("@")
    if sep and version.isdigit():
        return key, int(version)
    return text, None


def cmd_export(args):
    key, version = parse_pack_ref(args.pack)
    suffix = Path(args.out).suffix.lower()
    if suffix not in WORKBOOK_SUFFIXES + (".json",):
        return _fail(gettext("{path}: the file name must end in .xlsx or .json", path=args.out))
    with session_scope(_engine()) as session:
        _with_sample(session)
        row = get_row(session, key, version, ruleset=RULESET.key)
        if row is None:
            return _fail(gettext("There is no pack {pack} in the library", pack=args.pack))
        pack, version = pack_of(row), row.version
    if suffix == ".json":
        Path(args.out).write_text(pack_to_json(pack), encoding="utf-8")
    else:
        Path(args.out).write_bytes(pack_to_workbook(pack))
    print(gettext("Pack {key}, version {version} written: {path}", key=key, version=version, path=args.out))
    return 0


def cmd_list(args):
    with session_scope(_engine()) as session:
        _with_sample(session)
        rows = [(r.key, r.version, r.title, r.created_at) for r in list_packs(session, RULESET.key)]
    headers = [gettext("Pack code"), gettext("Version"), gettext("Title"), gettext("Stored")]
    cells = [headers] + [[key, str(version), title, created.strftime("%Y-%m-%d %H:%M") if created else ""]
                         for key, version, title, created in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for r in cells:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 0
