/* Independent brute force of octal nim-values: digits d0.d1d2..., bit 1 removes a whole
   heap of t, bit 2 leaves one smaller heap, bit 4 leaves two non-empty heaps. Prints
   "n G(n)" lines. Usage: brute CODE N  (CODE like 4.364). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  const char *code = argv[1]; long N = atol(argv[2]);
  int d[32]; int k = 0;
  for (const char *c = code; *c; c++) { if (*c == '.') continue; d[k++] = *c - '0'; }
  /* code "4.364": d[0]=4 (t=0), d[1]=3 (t=1) ... ; code ".6" is written "0.6" */
  unsigned short *g = calloc(N, sizeof *g);
  unsigned char *seen = calloc(1 << 16, 1);
  for (long n = 0; n < N; n++) {
    memset(seen, 0, 4096);
    for (int t = 0; t < k; t++) {
      if (t > n) break;
      if ((d[t] & 1) && n == t) seen[0] = 1;
      if ((d[t] & 2) && n > t) seen[g[n - t]] = 1;
      if ((d[t] & 4) && n - t >= 2)
        for (long a = 1; a <= (n - t) / 2; a++) seen[g[a] ^ g[n - t - a]] = 1;
    }
    int m = 0; while (seen[m]) m++;
    if (m >= 4096) { fprintf(stderr, "value too large\n"); return 1; }
    g[n] = m;
    printf("%ld %d\n", n, m);
  }
  return 0;
}
