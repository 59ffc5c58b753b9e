"""Each error type: bad input, damaged tables, refused resources, files."""

import os

import pytest

import sicher


def test_hierarchy():
    assert issubclass(sicher.Error, ValueError)
    assert issubclass(sicher.DamagedTableError, sicher.Error)
    assert issubclass(sicher.ResourceError, sicher.Error)


def test_bad_input():
    with pytest.raises(sicher.Error, match="unknown game"):
        sicher.Game("no-such-game")
    with pytest.raises(sicher.Error):
        sicher.Game("octal:0.9")
    with pytest.raises(sicher.Error, match="-1"):
        sicher.Game("nim").check([3, -1])
    with pytest.raises(sicher.Error):
        sicher.Game("nim").check([2**64])
    with pytest.raises(sicher.Error):
        sicher.Game("nim").check("3 x 5")
    with pytest.raises(TypeError):
        sicher.Game("nim").check([1.5])
    with pytest.raises(sicher.Error, match="normal play"):
        sicher.Game("kayles", misere=True).nim_values(10)
    with pytest.raises(sicher.Error, match="domain"):
        sicher.Game("nim").write_table("unused.table")
    with pytest.raises(sicher.Error, match="splits"):
        sicher.Game("kayles").write_table("unused.table", heaps=3, max=5)
    assert not os.path.exists("unused.table")


def test_damaged_table(tmp_path):
    path = tmp_path / "k.table"
    sicher.Game("kayles", misere=True).write_table(path, total=30)
    data = bytearray(path.read_bytes())
    truncated = tmp_path / "truncated.table"
    truncated.write_bytes(bytes(data[: len(data) - 10]))
    with pytest.raises(sicher.DamagedTableError):
        sicher.Table(truncated)
    # A flipped bit in the body: found when its block is first read.
    flipped = tmp_path / "flipped.table"
    data[-5] ^= 0x10
    flipped.write_bytes(bytes(data))
    with pytest.raises(sicher.DamagedTableError):
        table = sicher.Table(flipped)
        table.probe_many([[h] for h in range(1, 31)] + [[a, b] for a in range(1, 15) for b in range(a, 15)])
    garbage = tmp_path / "garbage.table"
    garbage.write_bytes(b"not a table at all" * 10)
    with pytest.raises(sicher.DamagedTableError):
        sicher.Table(garbage)


def test_refused_resources():
    with pytest.raises(sicher.ResourceError, match="fewer heap sizes"):
        sicher.Game("nim").picture(10**9)
    with pytest.raises(sicher.ResourceError):
        sicher.Game("kayles").write_table("unused.table", total=100_000)
    assert not os.path.exists("unused.table")


def test_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        sicher.Table(tmp_path / "missing.table")
    with pytest.raises(sicher.Error, match="directory"):
        sicher.Table(tmp_path)
    with pytest.raises(OSError):
        sicher.Game("kayles").picture(5).save(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OSError):
        sicher.Game("kayles").write_table(blocker / "k.table", total=5)
