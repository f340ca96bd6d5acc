"""The rules engines: pure Python, standard library only (ARCHITECTURE.md decisions 1 and 12).

Each game's engine is a package of its own (``lyceum``, ``alterego``, ``newangeles``); this
package holds only what every game shares: the two kinds of error, the bounds of a text, the
replay error of a record and competition places. The registry (``registry``) finds each game's
engine by its key or by a file's ``format``.
"""

from .errors import IllegalMoveError, MalformedError, PackError, Problem, ReplayError, RulesError, SetupError
from .places import places

__all__ = ["IllegalMoveError", "MalformedError", "PackError", "Problem", "RulesError", "SetupError",
           "places", "ReplayError"]
