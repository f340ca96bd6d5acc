"""Importing a content pack, for every game: the refusal that lists every problem at once, each
where it is (``ImportProblem``), as ``PackImportError``. Each game reads its own files
(«16/25»: ``games/lyceum/importing.py`` and ``excel.py``; Alter Ego: ``games/alterego/excel.py``)."""

from dataclasses import dataclass, field as dataclass_field


@dataclass(frozen=True)
class ImportProblem:
    """One thing wrong with an imported pack, and where it is.

    ``where`` is what the user reads before the colon (``Карты!E14`` or ``карта L-G-01,
    потери``); ``sheet``/``cell``/``row`` locate it in a workbook, ``item``/``index``/
    ``code``/``field`` in the pack (as in the engine's ``Problem``), when known."""

    where: str
    message: str
    key: str
    params: dict = dataclass_field(default_factory=dict)
    sheet: str | None = None
    cell: str | None = None
    row: int | None = None
    item: str | None = None
    index: int | None = None
    code: str | None = None
    field: str | None = None

    def __str__(self):
        return f"{self.where}: {self.message}" if self.where else self.message


class PackImportError(ValueError):
    """A pack refused as a whole; ``problems`` lists every ``ImportProblem`` found."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def lines(self):
        """Every problem as one line of text (``Карты!K14: ...``)."""
        return [str(p) for p in self.problems]
