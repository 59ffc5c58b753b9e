"""A brute-force solver written in Python, independent of sicher: the rules of a few
games as move generators, and the recursion sicher(p) = any move to an unsafe child."""

from functools import lru_cache
from itertools import combinations_with_replacement


def canon(heaps):
    return tuple(sorted(h for h in heaps if h > 0))


def octal_moves(code):
    """Moves of an octal game: code "0.77" -> digit d_k for taking k tokens: bit 1 takes
    a whole heap, bit 2 leaves one heap, bit 4 leaves two heaps."""
    digits = [int(c) for c in code.split(".")[1]]

    def heap_options(h):
        out = set()
        for k, d in enumerate(digits, start=1):
            if k > h:
                break
            rest = h - k
            if d & 1 and rest == 0:
                out.add(())
            if d & 2 and rest > 0:
                out.add((rest,))
            if d & 4 and rest >= 2:
                for a in range(1, rest // 2 + 1):
                    out.add((a, rest - a))
        return out

    return one_heap(heap_options)


def subtraction_moves(subtract):
    return one_heap(lambda h: {(h - s,) if h > s else () for s in subtract if s <= h})


def nim_moves():
    return one_heap(lambda h: {(r,) if r else () for r in range(h)})


def grundy_moves():
    # Split a heap into two unequal non-empty heaps.
    return one_heap(lambda h: {(a, h - a) for a in range(1, (h + 1) // 2) if a != h - a})


def one_heap(heap_options):
    """Moves of a position for rules that change one heap at a time."""

    def moves(position):
        out = set()
        for i, h in enumerate(position):
            if i > 0 and position[i - 1] == h:
                continue
            rest = position[:i] + position[i + 1 :]
            for option in heap_options(h):
                out.add(canon(rest + tuple(option)))
        return out

    return moves


def wythoff_moves(position):
    padded = (list(position) + [0, 0])[:2]
    a, b = padded
    out = set()
    for k in range(1, a + 1):
        out.add(canon((a - k, b)))
    for k in range(1, b + 1):
        out.add(canon((a, b - k)))
    for k in range(1, min(a, b) + 1):
        out.add(canon((a - k, b - k)))
    return out


def solver(moves, misere):
    @lru_cache(maxsize=None)
    def win(position):
        children = moves(position)
        if not children:
            return misere
        return any(not win(c) for c in children)

    return win


def grundy(heap_options_moves, n):
    """G(0..n-1) by the mex rule from the moves of a lone heap."""
    values = []
    for h in range(n):
        seen = set()
        for child in heap_options_moves((h,) if h else ()):
            x = 0
            for c in child:
                x ^= values[c]
            seen.add(x)
        g = 0
        while g in seen:
            g += 1
        values.append(g)
    return values


def positions(most_heaps, max_heap):
    """Every position of at most `most_heaps` heaps of at most `max_heap`."""
    out = []
    for k in range(most_heaps + 1):
        for heaps in combinations_with_replacement(range(1, max_heap + 1), k):
            out.append(heaps)
    return out


def positions_total(total):
    """Every position of at most `total` tokens."""
    out = [()]

    def extend(prefix, smallest, left):
        for h in range(smallest, left + 1):
            p = prefix + (h,)
            out.append(p)
            extend(p, h, left - h)

    extend((), 1, total)
    return out


def partizan_wins(left_moves, right_moves, position, left_to_move, misere=False):
    """The seeds' sicher(s, p) for partizan rules, literally: the player to move wins
    when some move of theirs leaves the other player losing; a player with no move
    loses (misère: wins)."""

    @lru_cache(maxsize=None)
    def wins(p, left):
        children = (left_moves if left else right_moves)(p)
        if not children:
            return misere
        return any(not wins(c, not left) for c in children)

    return wins(canon(position), left_to_move)


def partizan_class(left_moves, right_moves, position, misere=False):
    """The outcome class: L, R, N or P, from both players' verdicts."""
    left = partizan_wins(left_moves, right_moves, position, True, misere)
    right = partizan_wins(left_moves, right_moves, position, False, misere)
    return {(True, False): "L", (False, True): "R", (True, True): "N", (False, False): "P"}[
        (left, right)
    ]
