"""What rules from a Python function cost against the same rules built in, in one run.

    python bench/from_options.py [N]

Kayles restated as a Python function (`Game.from_options`) against the shipped
`kayles`: nim-values G(0..N-1) (default N = 2000) on a fresh game each time (the
function called once per heap size), then again on the same game (options cached);
then a batch of misère checks. Medians of five runs.
"""

import statistics
import sys
import time

import sicher


def kayles_options(n):
    out = []
    for take in (1, 2):
        rest = n - take
        for left in range(0, rest // 2 + 1):
            out.append([left, rest - left])
    return out


def median_time(work, runs=5):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    builtin = sicher.Game("kayles")
    assert sicher.Game.from_options(kayles_options).nim_values(n) == builtin.nim_values(n)
    options_only = median_time(lambda: [kayles_options(h) for h in range(n)])
    fresh_custom = median_time(lambda: sicher.Game.from_options(kayles_options).nim_values(n))
    fresh_builtin = median_time(lambda: sicher.Game("kayles").nim_values(n))
    cached = sicher.Game.from_options(kayles_options)
    cached.nim_values(n)
    again_custom = median_time(lambda: cached.nim_values(n))
    again_builtin = median_time(lambda: builtin.nim_values(n))
    print(f"nim-values G(0..{n - 1}), median of 5:")
    print(f"  from_options, fresh game: {fresh_custom * 1e3:9.2f} ms "
          f"(the Python function alone, every heap once: {options_only * 1e3:.2f} ms)")
    print(f"  built in, fresh game:     {fresh_builtin * 1e3:9.2f} ms   ratio {fresh_custom / fresh_builtin:.1f}x")
    print(f"  from_options, cached:     {again_custom * 1e3:9.2f} ms")
    print(f"  built in, again:          {again_builtin * 1e3:9.2f} ms   ratio {again_custom / again_builtin:.1f}x")
    positions = [[a, b, c] for a in range(1, 25) for b in range(a, 25) for c in range(b, 25)]
    for misere in (False, True):
        custom = sicher.Game.from_options(kayles_options, misere=misere)
        game = sicher.Game("kayles", misere=misere)
        c = median_time(lambda: [custom.check(p).win for p in positions])
        b = median_time(lambda: [game.check(p).win for p in positions])
        play = "misère" if misere else "normal"
        print(f"  {len(positions)} checks, {play}: from_options {c * 1e3:.1f} ms, built in {b * 1e3:.1f} ms, ratio {c / b:.2f}x")


if __name__ == "__main__":
    main()
