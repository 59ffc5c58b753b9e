"""Batch probing against the binary's own batch path, in one run.

    python bench/probe_many.py TABLE SICHER_BINARY [N]

TABLE: a `--total 60` misère Kayles table (`sicher table kayles --total 60 --misere
-o TABLE`). N random positions of the domain (default 1,000,000) are probed with
`Table.probe_many` (a numpy array) and with `sicher check --table TABLE --no-move`
reading them from stdin; each is timed five times and the medians printed.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import sicher


def random_positions(n, total, width, seed=1):
    rng = np.random.default_rng(seed)
    rows = []
    have = 0
    while have < n:
        batch = rng.integers(0, total // 4 + 1, size=(2 * n, width), dtype=np.int64)
        batch = batch[batch.sum(axis=1) <= total]
        rows.append(batch)
        have += len(batch)
    return np.concatenate(rows)[:n]


def main():
    table_path, binary = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    table = sicher.Table(table_path)
    positions = random_positions(n, 60, 12)
    text = "\n".join(" ".join(str(h) for h in row if h) for row in positions.tolist()) + "\n"
    python_times, binary_times = [], []
    with tempfile.TemporaryDirectory() as scratch:
        lines = os.path.join(scratch, "positions.txt")
        with open(lines, "w") as f:
            f.write(text)
        answers = table.probe_many(positions)
        for _ in range(5):
            started = time.perf_counter()
            again = table.probe_many(positions)
            python_times.append(time.perf_counter() - started)
            assert (again == answers).all()
            with open(lines) as stdin:
                started = time.perf_counter()
                out = subprocess.run(
                    [binary, "check", "--table", table_path, "--no-move"],
                    stdin=stdin, stdout=subprocess.PIPE, check=True,
                ).stdout
                binary_times.append(time.perf_counter() - started)
    safe = out.count(b": safe")
    assert safe == int(answers.sum()), (safe, int(answers.sum()))
    p, b = statistics.median(python_times), statistics.median(binary_times)
    print(f"{n} positions, {int(answers.sum())} safe")
    print(f"probe_many:           median {p:.4f} s, {n / p / 1e6:.2f} M positions/s")
    print(f"sicher check --table: median {b:.4f} s, {n / b / 1e6:.2f} M positions/s (whole process)")
    print(f"ratio probe_many / binary rate: {b / p:.1f}x")


if __name__ == "__main__":
    main()
