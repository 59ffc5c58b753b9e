"""Input a hostile (or careless) caller gives: arrays of the wrong type, tables changed
under an open `Table`, heaps too large to list, domains too large for the memory."""

import os
import shutil

import numpy as np
import pytest

import sicher


@pytest.fixture(scope="module")
def nim_table(tmp_path_factory):
    path = tmp_path_factory.mktemp("t") / "n.table"
    return sicher.Game("nim").write_table(path, heaps=3, max=7)


def test_probe_many_refuses_arrays_of_anything_but_integers(nim_table):
    table = nim_table
    for bad in [
        np.array([[3.7, 4.2, 5.9]]),
        np.array([[3.0, 4.0, 5.0]]),
        np.array([[np.nan, 1.0]]),
        np.array([[3 + 0j, 4]]),
        np.array([["3", "4"]]),
        np.array([[True, False]]),
        np.array([[3, 4]], dtype=object),
        np.array([[3, 4]], dtype="datetime64[s]"),
    ]:
        with pytest.raises(TypeError, match="integers"):
            table.probe_many(bad)
    with pytest.raises(TypeError):
        table.probe_many("3 4 5")
    with pytest.raises(TypeError):
        table.probe_many([[3.7, 4.2]])
    with pytest.raises(TypeError, match="bool"):
        table.probe_many([[True, 1]])
    with pytest.raises(TypeError, match="bool"):
        table.probe([True, 2])


def test_probe_many_never_wraps_large_unsigned_values(nim_table):
    table = nim_table
    huge = np.array([[2**63, 1], [2**64 - 1, 0]], dtype=np.uint64)
    with pytest.raises(sicher.Error, match="row 0") as caught:
        table.probe_many(huge)
    assert "-" not in str(caught.value).split("outside")[0], caught.value
    assert "9223372036854775808" in str(caught.value)
    # uint64 within range is answered as any other integer type.
    rows = np.array([[1, 2, 3], [1, 2, 0], [7, 7, 7]])
    expected = table.probe_many(rows)
    for dtype in [np.uint64, np.uint32, np.int8, np.uint8, ">i8", "<u8"]:
        assert (table.probe_many(rows.astype(dtype)) == expected).all(), dtype
    assert expected.tolist() == [False, True, True]


@pytest.mark.parametrize("change", ["written over", "truncated"])
def test_a_memory_mapped_table_changed_while_open(tmp_path, sicher_bin, change):
    import subprocess

    path = tmp_path / "k.table"
    other = tmp_path / "other.table"
    for game, out in [("kayles", path), ("dawson-kayles", other)]:
        subprocess.run(
            [sicher_bin, "table", game, "--total", "30", "--uncompressed", "-o", out],
            check=True, capture_output=True,
        )
    table = sicher.Table(path)
    rows = np.array([[a, b] for a in range(16) for b in range(15)])
    answers = table.probe_many(rows)
    if change == "written over":
        # `cp` writes over the file in place: same inode, other bytes.
        shutil.copyfile(other, path)
    else:
        os.truncate(path, 4096)
    with pytest.raises(sicher.DamagedTableError, match="changed after it was opened"):
        table.probe_many(rows)
    with pytest.raises(sicher.DamagedTableError, match="changed after it was opened"):
        table.probe([3, 4])
    # Opened again, the file is read as it is now.
    if change == "written over":
        assert (sicher.Table(path).probe_many(rows) != answers).any()
    else:
        with pytest.raises(sicher.DamagedTableError):
            sicher.Table(path)


def test_moves_of_a_huge_heap_are_refused():
    with pytest.raises(sicher.ResourceError, match="too many to list"):
        sicher.Game("nim").moves([10**12])
    with pytest.raises(sicher.ResourceError, match="too many to list"):
        sicher.Game("wythoff").moves([10**9, 10**9])
    assert len(sicher.Game("nim").moves([1000])) == 1000


def test_write_table_checks_the_memory_as_the_binary_does(tmp_path):
    with pytest.raises(sicher.ResourceError, match="only .* is available"):
        sicher.Game("kayles").write_table(tmp_path / "k.table", total=200)
    assert os.listdir(tmp_path) == []
