"""Two writers of one table (Python threads, Python and the binary) and failed writes:
one of them is refused with one exception, the other's table is right, and no finished
work is ever deleted (the same call resumes it)."""

import json
import os
import subprocess
import threading
import time

import pytest

import sicher
from brute import octal_moves, positions_total, solver


def finished_tiers(work):
    """Tiers a work directory's manifest records as finished (0 when none yet)."""
    try:
        with open(work / "manifest.json") as f:
            manifest = json.load(f)
    except (FileNotFoundError, json.JSONDecodeError):
        return 0
    done = manifest.get("tiers_done")
    return 0 if done is None else done + 1


def check_kayles(table, total):
    """The table is misère Kayles' for `total` (a sample against the brute force)."""
    win = solver(octal_moves("0.77"), True)
    domain = positions_total(total)
    assert table.entries == len(domain)
    # Small positions only: the brute force of large ones takes minutes.
    small = [p for p in domain if sum(p) <= 24]
    sample = small[:: max(1, len(small) // 3000)]
    assert list(table.probe_many(sample)) == [win(p) for p in sample]


def test_two_threads_writing_one_table(tmp_path):
    path = tmp_path / "k.table"
    results = []
    start = threading.Barrier(2)

    def write():
        start.wait()
        try:
            results.append(sicher.Game("kayles", misere=True).write_table(path, total=34))
        except Exception as e:  # noqa: BLE001 - the test sorts them below
            results.append(e)

    threads = [threading.Thread(target=write) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    tables = [r for r in results if isinstance(r, sicher.Table)]
    errors = [r for r in results if not isinstance(r, sicher.Table)]
    assert len(tables) >= 1, errors
    # The loser is told the file exists (the winner was done) or the directory is in
    # use: one clear exception, never FileNotFoundError, never "throw the work away".
    for e in errors:
        assert isinstance(e, (FileExistsError, sicher.Error)), repr(e)
        assert "throw" not in str(e), e
        if not isinstance(e, FileExistsError):
            assert "in use by another writer" in str(e), e
    check_kayles(sicher.Table(path), 34)
    assert sorted(os.listdir(tmp_path)) == ["k.table"]


def test_python_refused_while_the_binary_writes_keeps_its_work(tmp_path, sicher_bin):
    path = tmp_path / "k.table"
    work = tmp_path / "k.table.work"
    env = dict(os.environ, SICHER_CHECKPOINT_SECONDS="0")
    binary = subprocess.Popen(
        [sicher_bin, "table", "kayles", "--misere", "--total", "52", "-o", path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while finished_tiers(work) < 3 and binary.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        if binary.poll() is not None:
            pytest.skip("the binary finished before Python could race it")
        with pytest.raises(sicher.Error, match="in use by another writer"):
            sicher.Game("kayles", misere=True).write_table(path, total=52)
        # The binary's work is still there, and it finishes its table.
        assert work.is_dir() and finished_tiers(work) >= 3
    finally:
        out, err = binary.communicate(timeout=300)
    assert binary.returncode == 0, err
    check_kayles(sicher.Table(path), 52)
    assert sorted(os.listdir(tmp_path)) == ["k.table"]


def test_the_binary_refused_while_python_writes(tmp_path, sicher_bin):
    path = tmp_path / "k.table"
    work = tmp_path / "k.table.work"
    result = {}

    def write():
        try:
            result["table"] = sicher.Game("kayles", misere=True).write_table(path, total=52)
        except Exception as e:  # noqa: BLE001
            result["error"] = e

    writer = threading.Thread(target=write)
    writer.start()
    deadline = time.monotonic() + 60
    while not (work / "manifest.json").exists() and writer.is_alive():
        assert time.monotonic() < deadline
        time.sleep(0.005)
    if not writer.is_alive():
        pytest.skip("Python finished before the binary could race it")
    run = subprocess.run(
        [sicher_bin, "table", "kayles", "--misere", "--total", "52", "-o", path],
        capture_output=True, text=True,
    )
    writer.join()
    assert "error" not in result, result.get("error")
    # The binary was refused (or, having waited out Python, found the table written).
    assert run.returncode == 2, run.stderr
    assert "in use by another writer" in run.stderr or "exists" in run.stderr, run.stderr
    check_kayles(result["table"], 52)


def test_a_failed_write_keeps_its_work_and_the_same_call_resumes(tmp_path):
    path = tmp_path / "k.table"
    work = tmp_path / "k.table.work"
    game = sicher.Game("kayles", misere=True)
    # The output appears while the labelling runs: the write fails at the very end.
    done = threading.Event()

    def squat():
        while not (work / "manifest.json").exists() and not done.is_set():
            time.sleep(0.001)
        path.write_bytes(b"someone else's file")

    squatter = threading.Thread(target=squat)
    squatter.start()
    try:
        with pytest.raises(FileExistsError):
            game.write_table(path, total=40)
    finally:
        done.set()
        squatter.join()
    assert work.is_dir() and finished_tiers(work) > 0
    path.unlink()
    table = game.write_table(path, total=40)
    check_kayles(table, 40)
    assert sorted(os.listdir(tmp_path)) == ["k.table"]
