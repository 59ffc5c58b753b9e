"""sicher: a solver for impartial heap games.

Nim, octal and hexadecimal take-and-break games (Kayles, Dawson's Kayles, ...),
subtraction games, Grundy's game, Wythoff's game and Moore's Nim, under normal and
misère play. A position is *safe* when the player to move wins, *unsafe* when the
player to move loses against best play.

>>> import sicher
>>> kayles = sicher.Game("kayles", misere=True)
>>> kayles.check([3, 4, 5]).win
True
"""

from ._sicher import (
    Answer,
    DamagedTableError,
    Error,
    Game,
    Picture,
    Quotient,
    ResourceError,
    Solution,
    Table,
    __version__,
)

__all__ = [
    "Answer",
    "DamagedTableError",
    "Error",
    "Game",
    "Picture",
    "Quotient",
    "ResourceError",
    "Solution",
    "Table",
    "__version__",
]
