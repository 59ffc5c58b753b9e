"""Shared fixtures: the `sicher` binary (built by `cargo build --release` at the
repository's root), for the tests that check tables across the two."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def find_binary():
    named = os.environ.get("SICHER_BIN")
    if named:
        return pathlib.Path(named)
    built = ROOT / "target" / "release" / "sicher"
    if built.is_file():
        return built
    found = shutil.which("sicher")
    return pathlib.Path(found) if found else None


@pytest.fixture(scope="session")
def sicher_bin():
    binary = find_binary()
    if binary is None or not binary.is_file():
        pytest.skip(
            "the sicher binary is not built: run `cargo build --release` at the repository's "
            "root (or set SICHER_BIN) to check tables across Python and the binary"
        )
    return binary
