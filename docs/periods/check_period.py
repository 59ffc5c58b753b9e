"""Independent check of a period proof by the octal periodicity theorem (Guy and Smith):
if G(n + p) = G(n) for all n0 <= n < 2*n0 + p + t (t the largest number of tokens a move
removes, every move leaving at most two heaps), then G(n + p) = G(n) for every n >= n0.
Reads an 'n G(n)' b-file; prints the least pre-period for p and whether the window holds."""
import sys
path, p, t = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
g = [int(line.split()[1]) for line in open(path)]
L = len(g)
# least n0 with g[n+p] == g[n] for all n0 <= n < L - p
n0 = L - p
while n0 > 0 and g[n0 - 1 + p] == g[n0 - 1]:
    n0 -= 1
need = 2 * max(n0, 1) + p + t  # the window n0 <= n < need, compared with n + p
ok = need + p <= L and all(g[n + p] == g[n] for n in range(n0, need))
print(f"{path}: {L} values, period {p} holds from n0 = {n0}; theorem window n < {need} (values to {need + p - 1}) {'HOLDS' if ok else 'NOT covered'}")
# smaller periods: none may hold over the same stretch with the theorem's window
for q in range(1, p):
    m0 = L - q
    while m0 > 0 and g[m0 - 1 + q] == g[m0 - 1]:
        m0 -= 1
    if 2 * max(m0, 1) + 2 * q + t <= L:
        print(f"  smaller period {q} from {m0} also proved!")
