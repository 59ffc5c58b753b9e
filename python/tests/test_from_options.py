"""Game.from_options: rules from a Python function against the same rules built in."""

import pytest

import sicher
from brute import positions_total


def kayles_options(n):
    """Kayles restated: take one or two adjacent pins from a row of n, leaving up to two
    rows (zeros are empty rows)."""
    out = []
    for take in (1, 2):
        rest = n - take
        for left in range(0, rest // 2 + 1):
            out.append([left, rest - left])
    return out


@pytest.mark.parametrize("misere", [False, True])
def test_restated_kayles_answers_as_kayles(misere):
    custom = sicher.Game.from_options(kayles_options, name="kayles again", misere=misere)
    builtin = sicher.Game("kayles", misere=misere)
    assert custom.misere == misere and custom.name == "kayles again"
    for position in positions_total(12):
        a, b = custom.check(position), builtin.check(position)
        assert a.win == b.win, position
        if position and sum(position) <= 9:
            assert custom.winning_moves(position) == builtin.winning_moves(position)
            assert custom.moves(position) == builtin.moves(position)
    assert custom.check([4, 5, 6], remoteness=True).remoteness == builtin.check(
        [4, 5, 6], remoteness=True
    ).remoteness


def test_restated_kayles_theory_and_tables(tmp_path):
    custom = sicher.Game.from_options(kayles_options, name="kayles again")
    builtin = sicher.Game("kayles")
    assert custom.nim_values(300) == builtin.nim_values(300)
    solution = custom.solution(400)
    assert (solution.preperiod, solution.period) == (71, 12)
    table = custom.write_table(tmp_path / "custom.table", total=14)
    reference = builtin.write_table(tmp_path / "builtin.table", total=14)
    domain = positions_total(14)
    assert (table.probe_many(domain) == reference.probe_many(domain)).all()
    misere = sicher.Game.from_options(kayles_options, misere=True)
    assert misere.quotient(20).order == sicher.Game("kayles", misere=True).quotient(20).order


def test_called_once_per_heap_size():
    calls = []

    def options(n):
        calls.append(n)
        return [[n - 1]] if n else []

    game = sicher.Game.from_options(options, name="one at a time")
    for position in ([5], [3, 4], [5, 5], [2]):
        game.check(position)
        game.moves(position)
    assert sorted(calls) == sorted(set(calls))
    assert game.name == "one at a time"
    # Any iterables will do: generators, tuples, ranges.
    lazy = sicher.Game.from_options(lambda n: ((m,) for m in range(n)), name="nim")
    assert lazy.nim_values(20) == list(range(20))


class Refused(Exception):
    pass


def test_exceptions_reach_the_caller_as_themselves():
    def options(n):
        if n == 7:
            raise Refused(f"no options for {n}")
        return [[n - 1]] if n else []

    game = sicher.Game.from_options(options, name="refuses seven")
    assert not game.check([6]).win
    with pytest.raises(Refused, match="no options for 7"):
        game.check([9])
    # Again: the failure stays, and so does the exception.
    with pytest.raises(Refused):
        game.nim_values(10)
    assert game.nim_values(7) == [0, 1, 0, 1, 0, 1, 0]

    def generator(n):
        yield [n - 1] if n else []
        if n == 3:
            raise KeyError("from inside a generator")

    with pytest.raises(KeyError):
        sicher.Game.from_options(generator).check([4])
    # Every call that reads the rules, moves() included.
    with pytest.raises(Refused):
        sicher.Game.from_options(options).moves([8])
    with pytest.raises(Refused):
        sicher.Game.from_options(options).picture(8)


def test_bad_options_are_bad_input():
    with pytest.raises(sicher.Error, match="heap 3"):
        sicher.Game.from_options(lambda n: [[n]] if n == 3 else []).check([3])
    with pytest.raises(sicher.Error):
        sicher.Game.from_options(lambda n: [[-1]] if n else []).check([2])
    with pytest.raises(sicher.Error):
        sicher.Game.from_options(lambda n: 5).check([2])
    with pytest.raises(sicher.Error):
        sicher.Game.from_options(lambda n: [["x"]] if n else []).check([2])
    with pytest.raises(TypeError):
        sicher.Game.from_options(42)
