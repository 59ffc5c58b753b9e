"""Partizan games from Python (issue 33): `Game(..., left=..., right=...)` and the spec
strings, `.outcome_class`, `.check(to_move=...)`, `.winning_moves`/`.moves` for a
player, `.canonical`, each against the brute force of brute.py; bad input is a clear
`sicher.Error`, never a crash."""

import itertools
import random

import pytest

import sicher
from brute import canon, octal_moves, partizan_class, partizan_wins, subtraction_moves

GAMES = [
    ("partizan-subtraction:1,3/2,3", subtraction_moves([1, 3]), subtraction_moves([2, 3])),
    ("partizan-subtraction:2,3/1,4", subtraction_moves([2, 3]), subtraction_moves([1, 4])),
    ("partizan-octal:0.7/0.07", octal_moves("0.7"), octal_moves("0.07")),
    ("partizan-octal:0.37/0.6", octal_moves("0.37"), octal_moves("0.6")),
]


def positions(max_heap, heaps=3):
    seen = set()
    for k in range(heaps + 1):
        for p in itertools.combinations_with_replacement(range(max_heap + 1), k):
            seen.add(canon(p))
    return sorted(seen)


@pytest.mark.parametrize("spec,left,right", GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize("misere", [False, True])
def test_classes_and_verdicts_agree_with_the_brute_force(spec, left, right, misere):
    game = sicher.Game(spec, misere=misere)
    assert game.partizan and game.misere == misere
    for position in positions(6):
        expected = partizan_class(left, right, position, misere)
        assert game.outcome_class(position) == expected, (spec, misere, position)
        for to_move, left_to_move in (("left", True), ("right", False)):
            answer = game.check(position, to_move=to_move)
            win = partizan_wins(left, right, position, left_to_move, misere)
            assert answer.win == win, (spec, position, to_move)
            assert answer.label == ("safe" if win else "unsafe")
            assert answer.to_move == to_move
            assert answer.outcome_class == expected
            mover, other = (left, right) if left_to_move else (right, left)
            children = mover(canon(position))
            assert set(game.moves(position, to_move=to_move)) == children
            winning = {
                c for c in children if not partizan_wins(left, right, c, not left_to_move, misere)
            }
            assert set(game.winning_moves(position, to_move=to_move)) == winning
            if win and children:
                assert answer.move in winning, (spec, position, to_move)
            else:
                assert answer.move is None


def test_a_partizan_answer_says_whose_turn_it_is_in_its_repr():
    game = sicher.Game("partizan-subtraction:1,3/2,3")
    for to_move in ("left", "right"):
        answer = game.check([4], to_move=to_move)
        text = repr(answer)
        assert f'to_move="{to_move}"' in text, text
        assert f'outcome_class="{answer.outcome_class}"' in text, text
    # An impartial answer keeps its repr: no player to name.
    assert "to_move" not in repr(sicher.Game("kayles").check([3, 4]))


def test_remoteness_is_the_definitions():
    left, right = subtraction_moves([1, 3]), subtraction_moves([2, 3])

    def value(p, left_to_move):
        # Winner hurries, loser holds out: (win, moves until the end).
        children = (left if left_to_move else right)(p)
        if not children:
            return (False, 0)
        results = [value(c, not left_to_move) for c in children]
        wins = [r for w, r in results if not w]
        if wins:
            return (True, min(wins) + 1)
        return (False, max(r for _, r in results) + 1)

    game = sicher.Game("partizan-subtraction:1,3/2,3")
    for position in positions(9, heaps=2):
        for to_move, flag in (("left", True), ("right", False)):
            win, rem = value(position, flag)
            answer = game.check(position, to_move=to_move, remoteness=True)
            assert (answer.win, answer.remoteness) == (win, rem), (position, to_move)


def test_left_and_right_keywords_build_the_same_game_as_the_spec():
    by_spec = sicher.Game("partizan-subtraction:1,3/2,3")
    by_keywords = sicher.Game("partizan-subtraction", left=[1, 3], right=[2, 3])
    short = sicher.Game("subtraction", left=(3, 1), right=[2, 3])
    octal = sicher.Game("partizan-octal", left="0.7", right="0.07")
    assert by_keywords.spec == by_spec.spec == short.spec
    assert octal.spec == sicher.Game("partizan-octal:0.7/0.07").spec
    for n in range(20):
        assert by_keywords.outcome_class([n]) == by_spec.outcome_class([n])
    families = sicher.Game("partizan-subtraction", left="squares", right=[1, 2])
    assert families.outcome_class([4]) == sicher.Game(
        "partizan-subtraction:squares/1,2"
    ).outcome_class([4])


def test_canonical_forms_match_cgsuite_and_the_classes():
    game = sicher.Game("partizan-subtraction:1,3/2,3")
    # CGSuite's own tests: PartizanSubtraction([1,3],[2,3]) at heap 6.
    assert game.canonical(6) == "{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}"
    assert game.canonical(0) == "0"
    # A form that is a number says the class: positive L, negative R, zero P; a
    # nimber *k (k > 0) is N.
    rng = random.Random(7)
    for spec, left, right in GAMES:
        game = sicher.Game(spec)
        for n in range(12):
            form = game.canonical(n)
            expected = partizan_class(left, right, (n,))
            if form.lstrip("-").isdigit():
                value = int(form)
                assert expected == ("L" if value > 0 else "R" if value < 0 else "P"), (spec, n)
            elif form.startswith("*"):
                assert expected == "N", (spec, n, form)
        # A sum's form, by the position.
        a, b = rng.randrange(6), rng.randrange(6)
        assert isinstance(game.canonical([a, b]), str)
    # Impartial games' forms are nimbers: Nim's heap of 5 is *5.
    assert sicher.Game("nim").canonical(5) == "*5"
    assert sicher.Game("kayles").canonical([1, 2]) == "*3"


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: sicher.Game("partizan-subtraction:1,3/2,3").check([6]), "to_move"),
        (lambda: sicher.Game("partizan-subtraction:1,3/2,3").check([6], to_move="up"), "left"),
        (lambda: sicher.Game("partizan-subtraction:1,3/2,3").winning_moves([6]), "to_move"),
        (lambda: sicher.Game("partizan-subtraction:1,3/2,3").nim_values(5), "impartial"),
        (lambda: sicher.Game("partizan-subtraction:1,3/2,3").solution(), "impartial"),
        (lambda: sicher.Game("partizan-subtraction:1,3/2,3").picture(5), "impartial"),
        (lambda: sicher.Game("partizan-subtraction", left=[1, 3]), "right="),
        (lambda: sicher.Game("partizan-subtraction", left=[1.5], right=[2]), "whole number"),
        (lambda: sicher.Game("partizan-subtraction", left=[], right=[2]), "at least one"),
        (lambda: sicher.Game("partizan-subtraction", left=[-1], right=[2]), "-1"),
        (lambda: sicher.Game("partizan-subtraction", left=3, right=[2]), "list"),
        (lambda: sicher.Game("partizan-subtraction:1/2", left=[1], right=[2]), "alone"),
        (lambda: sicher.Game("partizan-subtraction:1,3"), "slash"),
        (lambda: sicher.Game("partizan-octal", left="0.9", right="0.7"), "Left"),
        (lambda: sicher.Game("nim").check([3], to_move="left"), "partizan"),
        (lambda: sicher.Game("partizan-octal:0.7/0.07", misere=True).canonical(3), "normal play"),
    ],
)
def test_bad_input_is_one_clear_error(call, words):
    with pytest.raises(sicher.Error) as caught:
        call()
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)
