"""The engine's two kinds of error (ARCHITECTURE.md decision 3).

``MalformedError``: the input is not a well-formed pack, record or move (a bad field,
an unknown skill, text where a number belongs). It carries the path of the bad field.

``IllegalMoveError``: a well-formed move that the rules do not allow now. It carries the
RULES.md section it breaks (``rule``), a stable ``code`` and the numbers (``params``), so a
screen can say the same thing in Russian. ``message`` is the English sentence.

Both keep the English template apart from its parameters so the web layer can translate
the template and fill in the same numbers.
"""


class RulesError(Exception):
    """Base class of every error the engine raises on bad input."""

    def __init__(self, template, /, **params):
        self.template = template
        self.params = params
        super().__init__(self.message)

    @property
    def message(self):
        return self.template.format(**self.params)

    def __str__(self):
        return self.message


class MalformedError(RulesError):
    """Input that is not of the format: ``path`` names the bad field (``moves[3].sp``)."""

    def __init__(self, path, template, /, **params):
        self.path = path
        super().__init__(template, **params)

    def __str__(self):
        return f"{self.path}: {self.message}" if self.path else self.message


class IllegalMoveError(RulesError):
    """A move the rules refuse; ``rule`` is the RULES.md section, ``code`` a stable key."""

    def __init__(self, rule, code, template, /, **params):
        self.rule = rule
        self.code = code
        super().__init__(template, **params)


class SetupError(RulesError):
    """A table setup (players, characters, extra SP, declarations) that breaks RULES.md 2."""

    def __init__(self, path, code, template, /, **params):
        self.path = path
        self.code = code
        self.rule = "2"
        super().__init__(template, **params)

    def __str__(self):
        return f"{self.path}: {self.message}" if self.path else self.message


class Problem:
    """One thing wrong with a content pack: where (item, code, index, field) and what."""

    __slots__ = ("item", "index", "code", "field", "message")

    def __init__(self, item, index, code, field, message):
        self.item = item  # "pack", "levels", "character" or "card"
        self.index = index  # position in its list, or None
        self.code = code  # the character's or card's code, when known
        self.field = field  # the field's name, e.g. "gains" or "skills.energy"
        self.message = message

    def where(self):
        if self.item in ("card", "character"):
            label = self.code if self.code else f"#{(self.index or 0) + 1}"
            head = f"{self.item} {label}"
        else:
            head = self.item
        return f"{head}: {self.field}" if self.field else head

    def __str__(self):
        return f"{self.where()}: {self.message}"

    def __repr__(self):
        return f"Problem({str(self)!r})"


class PackError(Exception):
    """A content pack refused as a whole; ``problems`` lists every problem found."""

    def __init__(self, problems):
        self.problems = list(problems)
        lines = "\n".join(f"- {p}" for p in self.problems)
        super().__init__(f"content pack refused, {len(self.problems)} problem(s):\n{lines}")


class ReplayError(Exception):
    """A move of a record that the rules refuse: which move (1-based), and why."""

    def __init__(self, number, move, error):
        self.number = number
        self.move = move
        self.error = error
        super().__init__(f"move {number} ({move.describe()}): {error.message}")
