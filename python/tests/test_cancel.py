"""Ctrl-C stops every long call through the library's cancellation, leaving no work
running behind it; a game whose function was interrupted (or raised) stays usable; a
function that asks its own game is refused, not deadlocked."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import sicher

main_thread_only = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="signals reach the main thread only",
)


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def native_threads():
    return len(os.listdir("/proc/self/task"))


def slow_nim():
    """A from_options game whose function takes a millisecond, counting its calls."""
    calls = []

    def options(n):
        calls.append(n)
        time.sleep(0.001)
        return [[m] for m in range(n)]

    return sicher.Game.from_options(options, name="slow nim"), calls


@main_thread_only
@pytest.mark.parametrize("call", ["nim_values", "quotient", "plot", "solution"])
def test_ctrl_c_stops_the_work_and_nothing_runs_on(call):
    game, calls = slow_nim()
    if call == "quotient":
        game = sicher.Game.from_options(game_options(calls), name="slow", misere=True)
    threads = native_threads()
    started = time.monotonic()
    interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        if call == "nim_values":
            game.nim_values(100_000)
        elif call == "quotient":
            game.quotient(60_000)
        elif call == "plot":
            game.plot(100_000)
        else:
            game.solution(100_000)
    assert time.monotonic() - started < 5
    asked = len(calls)
    time.sleep(0.3)
    # The function is not called again once the call returned: no work goes on.
    assert len(calls) == asked
    assert native_threads() <= threads
    # The game still works, its function asked again where it stopped.
    assert game.check([3, 4]).win is not None


def game_options(calls):
    def options(n):
        calls.append(n)
        time.sleep(0.001)
        return [[m] for m in range(n)]

    return options


@main_thread_only
def test_ctrl_c_stops_a_large_batch(tmp_path):
    table = sicher.Game("nim").write_table(tmp_path / "n.table", heaps=2, max=99)
    rows = np.random.default_rng(1).integers(0, 100, size=(30_000_000, 2))
    started = time.monotonic()
    interrupt_after(0.2)
    with pytest.raises(KeyboardInterrupt):
        for _ in range(20):
            table.probe_many(rows)
    assert time.monotonic() - started < 3
    assert table.probe_many(rows[:5]).shape == (5,)


@main_thread_only
def test_a_function_interrupted_once_leaves_the_game_usable():
    interrupted = []

    def options(n):
        if n == 6 and not interrupted:
            interrupted.append(n)
            raise KeyboardInterrupt
        return [[m] for m in range(n)]

    game = sicher.Game.from_options(options, name="nim")
    with pytest.raises(KeyboardInterrupt):
        game.check([6, 2])
    # Not sticky: the function is asked again, and answers.
    assert game.check([6, 2]).win
    assert game.nim_values(8) == list(range(8))


def test_an_exception_once_is_not_raised_again():
    failed = []

    def options(n):
        if n == 5 and not failed:
            failed.append(n)
            raise ValueError("not yet")
        return [[m] for m in range(n)]

    game = sicher.Game.from_options(options, name="nim")
    with pytest.raises(ValueError, match="not yet"):
        game.moves([5])
    assert len(game.moves([5])) == 5
    assert game.nim_values(6) == list(range(6))


def test_a_function_asking_its_own_game_is_refused_not_deadlocked():
    holder = {}

    def options(n):
        if n == 4:
            holder["game"].moves([2])
        return [[m] for m in range(n)]

    game = sicher.Game.from_options(options, name="asks itself")
    holder["game"] = game
    result = {}

    def run():
        for call in (lambda: game.check([5]), lambda: game.nim_values(6), lambda: game.moves([5])):
            try:
                call()
                result.setdefault("answers", []).append(True)
            except Exception as e:  # noqa: BLE001
                result.setdefault("errors", []).append(e)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "deadlocked"
    errors = result.get("errors", [])
    assert len(errors) == 3, result
    for e in errors:
        assert isinstance(e, sicher.Error) and "its own game" in str(e), repr(e)
    # Another game may be asked from inside a function.
    other = sicher.Game("nim")
    inner = sicher.Game.from_options(
        lambda n: [[m] for m in range(n)] if other.check([n]) is not None else []
    )
    assert inner.check([3, 3]).win is False


def test_from_options_messages():
    with pytest.raises(sicher.Error) as caught:
        sicher.Game.from_options(lambda n: 5).check([2])
    assert "an int" in str(caught.value) and "a int" not in str(caught.value)
    with pytest.raises(sicher.Error) as caught:
        sicher.Game.from_options(lambda n: [[10**21]] if n else []).check([2])
    assert "1000000000000000000000" not in str(caught.value)
    assert "2^63" in str(caught.value)
    with pytest.raises(sicher.Error, match="a float") as caught:
        sicher.Game.from_options(lambda n: [[1.5]] if n else []).check([2])


@main_thread_only
def test_ctrl_c_stops_a_partizan_search_and_the_game_goes_on():
    # A splitting partizan code in misere play: no period is proved, no canonical
    # forms apply, and the search of these heaps takes far longer than 0.3 s.
    game = sicher.Game("partizan-octal:0.77/0.07", misere=True)
    threads = native_threads()
    started = time.monotonic()
    interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        game.outcome_class([20, 21, 22, 23])
    assert time.monotonic() - started < 5
    # The timer's thread ends after its signal; no thread of the call is left behind.
    time.sleep(0.3)
    assert native_threads() <= threads
    # The game still answers, as a fresh one does.
    assert game.outcome_class([5, 6]) == sicher.Game(
        "partizan-octal:0.77/0.07", misere=True
    ).outcome_class([5, 6])
