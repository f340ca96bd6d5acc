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


class MalformedMoveError(MalformedError):
    """A record's move that is not a move of its format: the ``MalformedError`` of its field,
    with ``path`` where it sits in the record (``moves[9].reason``), and the move as RECORD.md
    §3 names it in its one line: its number (1-based, ``number``), its type and player as
    given (``label``: ``adjust by Вика``) and the field inside the move (``field``: ``reason``)."""

    def __init__(self, number, label, field, error):
        self.number = number
        self.label = label
        self.field = field
        self.error = error
        super().__init__(error.path, error.template, **error.params)

    def line(self):
        """``move 10 (adjust by Вика): reason is missing`` (``…: sp.luck: unknown skill 'luck'``)."""
        head = f"move {self.number} ({self.label})" if self.label else f"move {self.number}"
        return f"{head}: {field_phrase(self.field, self.message)}"


def field_phrase(field, message):
    """A field and what is wrong with it as one phrase: ``reason is missing``, ``xp must be a
    whole number``; a message that is not a predicate follows a colon (``sp.luck: unknown
    skill 'luck'``); no field, the message alone."""
    if not field:
        return message
    if message.startswith(("is ", "must ")):
        return f"{field} {message}"
    return f"{field}: {message}"


def move_label(raw, by=None):
    """How an error line names a record's move that could not be read (``adjust by Вика``),
    from the type and the player it gives, when they are short one-line texts. ``by``: the key
    naming who the move is by, for a type whose ``player`` is called otherwise (``{"deal":
    "active"}``)."""
    if not isinstance(raw, dict):
        return ""

    def text(value):
        return value if isinstance(value, str) and 0 < len(value) <= 100 and value.isprintable() else None

    kind = text(raw.get("type"))
    player = text(raw.get((by or {}).get(kind, "player")))
    if kind and player:
        return f"{kind} by {player}"
    return kind or (f"by {player}" if player else "")


def read_moves(raw_moves, read, by=None):
    """A record's moves, each read by ``read(move, path)``; the first that is not a move of the
    format raises ``MalformedMoveError`` naming it by number, type and player (``move_label``)."""
    out = []
    for i, raw in enumerate(raw_moves):
        try:
            out.append(read(raw, f"moves[{i}]"))
        except MalformedError as err:
            prefix = f"moves[{i}]"
            field = err.path[len(prefix):].lstrip(".") if (err.path or "").startswith(prefix) else (err.path or "")
            raise MalformedMoveError(i + 1, move_label(raw, by), field, err) from None
    return out


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
