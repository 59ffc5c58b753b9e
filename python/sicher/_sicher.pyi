"""Type stubs of sicher's native module (re-exported by the ``sicher`` package)."""

from collections.abc import Callable, Iterable, Sequence
from os import PathLike
from pathlib import Path
from typing import final

import numpy as np
import numpy.typing as npt

__version__: str

#: A position: heap sizes in any order (zeros are empty heaps), or a string such as "3 4 5".
Heaps = Iterable[int] | str
#: A position as sicher returns it: heap sizes, ascending, no zeros.
Position = tuple[int, ...]
StrPath = str | PathLike[str]

class Error(ValueError):
    """Bad input: an unknown game, a malformed spec, a negative heap, a position outside
    a table, a request the rules cannot answer."""

class DamagedTableError(Error):
    """A table or quotient file that is damaged, truncated, of another format version,
    or written for another game."""

class ResourceError(Error):
    """Work refused because it would not fit: memory, sizes, counts, or a budget that
    ran out."""

@final
class Answer:
    """Who wins a position, and how."""

    @property
    def position(self) -> list[int]:
        """The position asked about, heaps ascending."""
    @property
    def win(self) -> bool:
        """True when the player to move wins (the position is safe)."""
    @property
    def label(self) -> str:
        """``"safe"`` (the player to move wins) or ``"unsafe"``."""
    @property
    def move(self) -> Position | None:
        """The position after a winning move (the fastest when the remoteness is known),
        a tuple as ``winning_moves`` gives them, or None."""
    @property
    def remoteness(self) -> int | None:
        """Moves (of both players) until the game ends under best play, when known."""
    @property
    def source(self) -> str:
        """Which source answered: "grundy", "quotient", "closed-form", "table" or
        "search" (partizan games: "outcome-period", "canonical-forms", "search")."""
    @property
    def to_move(self) -> str | None:
        """The player to move in a partizan game, "left" or "right"; None otherwise."""
    @property
    def outcome_class(self) -> str:
        """The position's outcome class: "L", "R", "N" or "P"."""
    def __bool__(self) -> bool: ...

@final
class Solution:
    """A one-heap ruleset's complete solution, or how far the search for one got."""

    @property
    def solved(self) -> bool:
        """True when the solution covers every heap size (a proved period or a closed
        form)."""
    @property
    def preperiod(self) -> int | None:
        """Where the period starts, if one showed up."""
    @property
    def period(self) -> int | None:
        """The period's length, if one showed up."""
    @property
    def saltus(self) -> int | None:
        """What each period adds to the values: 0 for ordinary periodicity (None when
        no period showed up)."""
    @property
    def values(self) -> list[int] | list[bool]:
        """Normal play: the nim-values of the pre-period then one period. Misère play:
        whether a lone heap of each size is safe, same layout."""
    @property
    def proved_at(self) -> int | None:
        """The heap size up to which the values proved the period, if proved."""
    @property
    def computed(self) -> int:
        """Heap sizes computed: ``0..computed``."""
    @property
    def closed_form(self) -> str | None:
        """A closed form replacing the sequence (Nim), if any."""

@final
class Quotient:
    """The misère quotient of a ruleset's heaps."""

    @property
    def order(self) -> int:
        """Number of elements."""
    @property
    def presentation(self) -> str:
        """The presentation, e.g. ``"a, b | a^2 = 1, b^3 = b"``."""
    @property
    def p_portion(self) -> list[str]:
        """The elements (as words in the generators) whose positions are unsafe."""
    @property
    def final(self) -> bool:
        """Always False: no periodicity theorem is applied to make it final."""
    @property
    def heap_elements(self) -> list[str]:
        """The element of each heap 1..=covered, as a word."""
    @property
    def covered(self) -> int:
        """Heaps 1..=covered are covered: exact for every sum of them."""
    @property
    def requested(self) -> int:
        """The largest heap asked for."""
    @property
    def complete(self) -> bool:
        """True when the construction reached the heap asked for."""
    @property
    def stop_reason(self) -> str | None:
        """Why the construction stopped early, if it did."""

@final
class Picture:
    """A PNG picture: Jupyter shows it; ``.save(path)`` writes it."""

    @property
    def png(self) -> bytes:
        """The PNG file's bytes."""
    @property
    def width(self) -> int:
        """Width in pixels."""
    @property
    def height(self) -> int:
        """Height in pixels."""
    @property
    def title(self) -> str:
        """What it shows, in words."""
    @property
    def display_width(self) -> int:
        """Pixels across a notebook shows it (at least 480 unless asked)."""
    def _repr_png_(self) -> bytes: ...
    def _repr_mimebundle_(
        self, include: object = None, exclude: object = None
    ) -> dict[str, bytes | str]: ...
    def save(
        self, path: StrPath, force: bool | None = None, overwrite: bool | None = None
    ) -> None:
        """Writes the PNG (whole or not at all; an existing file is replaced only with
        ``force=True``; ``overwrite=`` is its deprecated old name)."""

@final
class Table:
    """An endgame table written by sicher, memory-mapped."""

    def __init__(self, path: StrPath) -> None: ...
    @property
    def path(self) -> Path:
        """The file the table was opened from."""
    @property
    def game(self) -> Game:
        """The game the table was written for."""
    @property
    def remoteness(self) -> bool:
        """True when the table stores remotenesses."""
    @property
    def misere(self) -> bool:
        """True for misère play."""
    @property
    def domain(self) -> str:
        """The domain as the command line's flags, e.g. "--total 60"."""
    @property
    def entries(self) -> int:
        """Number of positions the table holds."""
    def __len__(self) -> int: ...
    def covers(self, heaps: Heaps) -> bool:
        """True when the position lies in the table's domain."""
    def probe(self, heaps: Heaps) -> bool | int:
        """Safe (True) or unsafe from an outcome table; the remoteness from a remoteness
        table; the nim-value from a nim-value table."""
    def probe_many(
        self, positions: npt.ArrayLike | Sequence[Sequence[int]]
    ) -> npt.NDArray[np.bool_] | npt.NDArray[np.uint32] | npt.NDArray[np.uint64]:
        """Many positions at once (a 2-D integer array, one row a position, zeros for
        absent heaps, or a list of positions): a bool array (safe) from an outcome
        table, uint32 remotenesses from a remoteness table, uint64 nim-values from a
        nim-value table."""

@final
class Game:
    """A game: its rules and convention (normal or misère play)."""

    def __init__(
        self,
        spec: str,
        misere: bool | None = None,
        *,
        left: Iterable[int] | str | None = None,
        right: Iterable[int] | str | None = None,
    ) -> None:
        """A game from a shipped name, a spec or a description file; a partizan one from
        its spec ("partizan-subtraction:1,3/2,3") or the kind of rules with each
        player's (``Game("partizan-subtraction", left=[1, 3], right=[2, 3])``)."""
    @staticmethod
    def from_options(
        fn: Callable[[int], Iterable[Iterable[int]]],
        name: str | None = None,
        misere: bool = False,
    ) -> Game:
        """A one-heap ruleset from a callable: ``fn(n)`` gives the options of a lone heap
        of size n, each an iterable of heap sizes smaller than n (zeros are dropped).
        It is called once per heap size, as far as a call needs; an exception it raises
        reaches the caller as itself. ``name`` defaults to the function's name."""
    @property
    def name(self) -> str: ...
    @property
    def spec(self) -> str: ...
    @property
    def misere(self) -> bool: ...
    @property
    def start(self) -> Position | None: ...
    @property
    def partizan(self) -> bool:
        """True when each player has moves of their own."""
    def outcome_class(self, heaps: Heaps) -> str:
        """"L", "R", "N" or "P"."""
    def canonical(self, heaps: int | Heaps) -> str:
        """The canonical form of a heap (or a position's sum) in CGSuite's notation."""
    def check(
        self, heaps: Heaps, remoteness: bool = False, to_move: str | None = None
    ) -> Answer:
        """Who wins the position with best play, and how (a partizan game names the
        player to move: ``to_move="left"`` or ``"right"``)."""
    def winning_moves(self, heaps: Heaps, to_move: str | None = None) -> list[Position]:
        """Every winning move: the positions after them, sorted."""
    def moves(self, heaps: Heaps, to_move: str | None = None) -> list[Position]:
        """Every legal move: the positions one move away, each once, sorted."""
    def nim_values(self, n: int) -> list[int]:
        """G(0), ..., G(n-1) of a lone heap (normal play)."""
    def solution(self, max: int | None = None) -> Solution:
        """The complete solution of a one-heap ruleset (heaps 0..=max computed at most)."""
    def quotient(self, n: int) -> Quotient:
        """The misère quotient for every sum of heaps up to n."""
    def write_table(
        self,
        path: StrPath,
        total: int | None = None,
        heaps: int | None = None,
        max: int | None = None,
        remoteness: bool = False,
        force: bool | None = None,
        force_memory: bool = False,
        overwrite: bool | None = None,
    ) -> Table:
        """Labels every position of a domain (``total=T``, or ``heaps=K, max=N``) and
        writes its table; returns it, open."""
    def picture(
        self,
        max: int,
        remoteness: bool = False,
        scale: int = 1,
        display_width: int | None = None,
    ) -> Picture:
        """The map of every two-heap position (a, b), 0 <= a, b <= max."""
    def plot(self, max: int, width: int | None = None, height: int | None = None) -> Picture:
        """The plot of the per-heap series G(0..=max) with its period."""

