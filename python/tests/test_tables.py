"""Tables written from Python and read by the binary, written by the binary and read
from Python, and batch probing with numpy."""

import json
import os
import subprocess

import numpy as np
import pytest

import sicher
from brute import nim_moves, octal_moves, positions, positions_total, solver


def lines(positions_):
    return "".join(" ".join(map(str, p)) + "\n" for p in positions_)


def test_python_table_read_by_the_binary(tmp_path, sicher_bin):
    path = tmp_path / "kayles.table"
    table = sicher.Game("kayles", misere=True).write_table(path, total=14)
    assert table.entries == len(positions_total(14)) and table.misere and not table.remoteness
    assert table.domain == "--total 14"
    domain = positions_total(14)
    run = subprocess.run(
        [sicher_bin, "check", "--table", path, "--json", "--no-move"],
        input=lines(domain), capture_output=True, text=True, check=True,
    )
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    win = solver(octal_moves("0.77"), True)
    assert [a["win"] for a in answers] == [win(p) for p in domain]
    assert [a["win"] for a in answers] == [table.probe(p) for p in domain]
    info = subprocess.run([sicher_bin, "info", path, "--verify", "--json"],
                          capture_output=True, text=True, check=True)
    assert json.loads(info.stdout)["entries"] == table.entries


def test_binary_table_read_from_python(tmp_path, sicher_bin):
    path = tmp_path / "nim.table"
    subprocess.run(
        [sicher_bin, "table", "nim", "--heaps", "3", "--max", "7", "--remoteness", "-o", path],
        capture_output=True, check=True,
    )
    table = sicher.Table(path)
    assert table.remoteness and not table.misere and len(table) == 120
    game = sicher.Game("nim")
    win = solver(nim_moves(), False)
    domain = positions(3, 7)
    remoteness = table.probe_many(domain)
    assert remoteness.dtype == np.uint32
    for p, r in zip(domain, remoteness):
        assert table.probe(p) == r
        assert (r % 2 == 1) == win(p)
        assert game.check(p, remoteness=True).remoteness == r
    assert table.game.spec == "nim"


def test_remoteness_table_from_python(tmp_path):
    game = sicher.Game("dawson-kayles")
    table = game.write_table(tmp_path / "d.table", total=12, remoteness=True)
    assert table.remoteness
    win = solver(octal_moves("0.07"), False)
    domain = positions_total(12)
    values = table.probe_many(domain)
    assert [bool(r % 2) for r in values] == [win(p) for p in domain]
    assert [game.check(p, remoteness=True).remoteness for p in domain[:80]] == list(values[:80])


def test_heaps_domain(tmp_path):
    table = sicher.Game("nim", misere=True).write_table(tmp_path / "n.table", heaps=3, max=5)
    win = solver(nim_moves(), True)
    for p in positions(3, 5):
        assert table.probe(p) == win(p)
    assert not table.covers([6]) and table.covers([5, 5, 5]) and not table.covers([1, 1, 1, 1])


def test_numpy_batches(tmp_path):
    game = sicher.Game("kayles", misere=True)
    table = game.write_table(tmp_path / "k.table", total=20)
    win = solver(octal_moves("0.77"), True)
    rng = np.random.default_rng(7)
    batch = rng.integers(0, 6, size=(200_000, 5))
    batch = batch[batch.sum(axis=1) <= 20]
    assert batch.dtype == np.int64
    answers = table.probe_many(batch)
    assert answers.dtype == np.bool_ and answers.shape == (len(batch),)
    # Against the brute force, row by row (zeros are absent heaps, order is free).
    for row, answer in zip(batch[:3000], answers[:3000]):
        assert answer == win(tuple(sorted(int(h) for h in row if h)))
    # Other integer types, a non-contiguous view, a list of lists of any lengths.
    assert (table.probe_many(batch.astype(np.int32)) == answers).all()
    assert (table.probe_many(batch.astype(np.uint16)) == answers).all()
    assert (table.probe_many(np.asfortranarray(batch)) == answers).all()
    assert (table.probe_many(batch[::2]) == answers[::2]).all()
    ragged = [[int(h) for h in row if h] for row in batch[:500]]
    assert (table.probe_many(ragged) == answers[:500]).all()
    assert table.probe_many(np.zeros((3, 0), dtype=np.int64)).tolist() == [win(())] * 3
    assert table.probe_many(np.zeros((0, 4), dtype=np.int64)).shape == (0,)


def test_batch_errors(tmp_path):
    table = sicher.Game("nim").write_table(tmp_path / "n.table", heaps=2, max=4)
    with pytest.raises(sicher.Error, match="row 1"):
        table.probe_many(np.array([[1, 2], [5, 1]]))
    with pytest.raises(sicher.Error, match="row 2"):
        table.probe_many(np.array([[1, 2], [0, 1], [-1, 1]]))
    with pytest.raises(sicher.Error):
        table.probe_many(np.array([1, 2, 3]))
    with pytest.raises(sicher.Error, match="outside"):
        table.probe([1, 1, 1])


def test_table_files_are_whole(tmp_path):
    path = tmp_path / "k.table"
    sicher.Game("kayles").write_table(path, total=10)
    with pytest.raises(FileExistsError):
        sicher.Game("kayles").write_table(path, total=10)
    sicher.Game("kayles").write_table(path, total=11, overwrite=True)
    assert sicher.Table(path).domain == "--total 11"
    assert sorted(os.listdir(tmp_path)) == ["k.table"]
