#!/bin/sh
# Rebuilds DejaVuSans-subset.ttf, the font embedded in the binary for picture text.
# Needs Debian's fonts-dejavu-core (2.37) and fontTools (pip install fonttools).
# The subset keeps Latin-1, a few punctuation marks, sub- and superscript digits,
# arrows and the comparison signs; hinting is dropped (ab_glyph ignores it).
set -eu
cd "$(dirname "$0")"
pyftsubset /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
  --unicodes="U+0020-007E,U+00A0-00FF,U+2013-2014,U+2018-201F,U+2026,U+2070-2079,U+2080-2089,U+2190-2193,U+2212,U+221E,U+2260,U+2264-2265,U+2295" \
  --no-hinting --layout-features='kern' --legacy-kern --drop-tables+=MATH,FFTM \
  --output-file=DejaVuSans-subset.ttf
