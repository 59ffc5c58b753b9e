"""Answers, moves and theory against the brute force of brute.py."""

import pytest

import sicher
from brute import (
    canon,
    grundy,
    grundy_moves,
    nim_moves,
    octal_moves,
    positions,
    positions_total,
    solver,
    subtraction_moves,
    wythoff_moves,
)

GAMES = [
    ("kayles", octal_moves("0.77"), positions_total(12)),
    ("dawson-kayles", octal_moves("0.07"), positions_total(12)),
    ("octal:0.137", octal_moves("0.137"), positions_total(11)),
    ("subtraction:1,3,4", subtraction_moves([1, 3, 4]), positions(3, 9)),
    ("nim", nim_moves(), positions(3, 6)),
    ("grundy", grundy_moves(), positions_total(13)),
    ("wythoff", wythoff_moves, positions(2, 12)),
]


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("name,moves,domain", GAMES, ids=[g[0] for g in GAMES])
def test_check_agrees_with_brute_force(name, moves, domain, misere):
    game = sicher.Game(name, misere=misere)
    win = solver(moves, misere)
    for position in domain:
        answer = game.check(position)
        expected = win(position)
        assert answer.win == expected, (name, misere, position)
        assert answer.label == ("safe" if expected else "unsafe")
        assert bool(answer) == expected
        assert tuple(answer.position) == canon(position)
        if expected and moves(position):
            assert answer.move is not None
            child = tuple(answer.move)
            assert child in moves(position), (position, child)
            assert not win(child), (position, child)
        else:
            assert answer.move is None


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("name,moves,domain", GAMES[:4], ids=[g[0] for g in GAMES[:4]])
def test_moves_and_winning_moves(name, moves, domain, misere):
    game = sicher.Game(name, misere=misere)
    win = solver(moves, misere)
    for position in domain[:150]:
        children = moves(position)
        assert set(game.moves(position)) == children
        assert game.moves(position) == sorted(children)
        assert set(game.winning_moves(position)) == {c for c in children if not win(c)}


@pytest.mark.parametrize("misere", [False, True])
def test_remoteness_parity_and_fastest_move(misere):
    game = sicher.Game("kayles", misere=misere)
    win = solver(octal_moves("0.77"), misere)
    for position in positions_total(9):
        answer = game.check(position, remoteness=True)
        assert answer.remoteness is not None
        # Normal play: safe exactly when the remoteness is odd; misère: when even.
        assert answer.win == ((answer.remoteness % 2 == 1) != misere)
        assert answer.win == win(position)
        if answer.move is not None:
            after = game.check(answer.move, remoteness=True)
            assert after.remoteness == answer.remoteness - 1


def test_source_names():
    assert sicher.Game("kayles").check([3, 4, 5]).source == "grundy"
    assert sicher.Game("kayles", misere=True).check([3, 4, 5]).source == "quotient"
    assert sicher.Game("wythoff").check([3, 5]).source == "closed-form"
    assert sicher.Game("kayles", misere=True).check([3, 4, 5], remoteness=True).source == "search"


def test_positions_in_any_form():
    game = sicher.Game("nim")
    assert game.check("3 4 5").win
    assert game.check((5, 0, 4, 3)).position == [3, 4, 5]
    assert not game.check([]).win
    assert sicher.Game("nim", misere=True).check([]).win


@pytest.mark.parametrize(
    "name,moves", [("kayles", octal_moves("0.77")), ("dawson-kayles", octal_moves("0.07")),
                   ("subtraction:1,3,4", subtraction_moves([1, 3, 4])), ("grundy", grundy_moves())]
)
def test_nim_values(name, moves):
    assert sicher.Game(name).nim_values(60) == grundy(moves, 60)


def test_solution():
    kayles = sicher.Game("kayles").solution(400)
    assert kayles.solved
    assert (kayles.preperiod, kayles.period, kayles.saltus) == (71, 12, 0)
    values = grundy(octal_moves("0.77"), 120)
    assert kayles.values == values[: 71 + 12]
    for n in range(71, 120):
        assert values[n] == kayles.values[71 + (n - 71) % 12]
    misere = sicher.Game("subtraction:1,3,4", misere=True).solution(200)
    assert misere.solved and misere.saltus == 0
    win = solver(subtraction_moves([1, 3, 4]), True)
    n0, p = misere.preperiod, misere.period
    for n in range(60):
        expected = misere.values[n if n < n0 + p else n0 + (n - n0) % p]
        assert win((n,) if n else ()) == expected
    unsolved = sicher.Game("grundy").solution(100)
    assert not unsolved.solved


def test_arithmetic_periodicity():
    # Lasker's Nim: G(n + 4) = G(n) + 4 from n = 1 (apparent; no theorem proves it).
    lasker = sicher.Game("lasker-nim").solution()
    assert (lasker.preperiod, lasker.period, lasker.saltus) == (1, 4, 4)
    values = sicher.Game("lasker-nim").nim_values(40)
    for n in range(1, 36):
        assert values[n + 4] == values[n] + 4
    # All-but subtraction games: proved.
    all_but = sicher.Game("subtraction:all-but:1,2").solution()
    assert all_but.solved and (all_but.period, all_but.saltus) == (3, 1)


def test_quotient():
    q = sicher.Game("kayles", misere=True).quotient(20)
    assert q.complete and q.covered == 20 and not q.final
    assert q.order > 1 and "|" in q.presentation
    assert len(q.heap_elements) == 20
    # Heap 1 is `a`, an element of order two whose lone heap loses to the player to move.
    assert "a" in q.p_portion
    assert sicher.Game("nim", misere=True).quotient(10).complete


def test_game_attributes():
    game = sicher.Game("kayles", misere=True)
    assert game.spec == "octal:0.77" and game.misere and game.name == "kayles"
    assert "kayles" in repr(game)
    assert sicher.Game("kayles").misere is False
