"""Long calls release the GIL and stop on Ctrl-C, leaving nothing behind."""

import os
import signal
import threading
import time

import pytest

import sicher


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signals reach the main thread only")
def test_ctrl_c_stops_a_table_and_leaves_nothing(tmp_path):
    game = sicher.Game("kayles", misere=True)
    started = time.monotonic()
    interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        game.write_table(tmp_path / "k.table", total=75)
    assert time.monotonic() - started < 10
    assert os.listdir(tmp_path) == []
    # The game still works.
    assert game.write_table(tmp_path / "small.table", total=10).entries > 0


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signals reach the main thread only")
def test_ctrl_c_stops_a_search():
    game = sicher.Game("kayles", misere=True)
    started = time.monotonic()
    interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        game.check([10, 11, 12, 13, 14, 15, 16], remoteness=True)
    assert time.monotonic() - started < 10
    assert game.check([3, 4, 5], remoteness=True).remoteness == 10


def test_long_calls_release_the_gil(tmp_path):
    game = sicher.Game("kayles", misere=True)
    done = threading.Event()
    ticks = 0

    def work():
        game.write_table(tmp_path / "k.table", total=45)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks > 10
