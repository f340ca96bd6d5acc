"""ARCHITECTURE.md decision 5: the services are the only code that touches storage. The views
(``facilitator/web``) parse a request, call a service and render; none imports the storage
package or SQLAlchemy, directly or through a name."""

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "facilitator" / "web"
FORBIDDEN = ("sqlalchemy", "sqlmodel", "facilitator.storage")


def imports_of(path):
    """Every module a file imports, relative imports resolved against ``facilitator.web``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = "facilitator.web".split(".")[: 2 - node.level + 1] if node.level <= 2 else []
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, node.lineno))
            found += [(f"{module}.{a.name}", node.lineno) for a in node.names]
    return found


def test_no_view_imports_storage_or_sqlalchemy():
    leaks = [f"{path.name}:{line}: {module}" for path in sorted(WEB.glob("*.py"))
             for module, line in imports_of(path) if module.startswith(FORBIDDEN)]
    assert leaks == []


def test_the_check_would_see_a_storage_import(tmp_path):
    """The check above can fail: a view importing storage is caught, relative or absolute."""
    view = tmp_path / "view.py"
    view.write_text("from ..storage.models import GameTable\nimport sqlalchemy\n", encoding="utf-8")
    modules = [m for m, _ in imports_of(view)]
    assert "facilitator.storage.models" in modules and "sqlalchemy" in modules
