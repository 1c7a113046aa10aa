#!/usr/bin/env sh
# Regenerates the vendored typeface subsets in style/fonts/ (they are committed; the build
# does not run this). Inter 4 from Debian's fonts-inter, regular and bold, cut to Latin-1,
# the Turkish letters (Ğğ İı Şş) and the punctuation, arrows and ₺ the site shows, with
# kerning, ligatures, tabular figures and Turkish locale forms kept.
#   apt-get install fonts-inter && pip install fonttools brotli && scripts/subset-font.sh
set -eu
cd "$(dirname "$0")/.."
for pair in Regular:400 Bold:700; do
  pyftsubset "/usr/share/fonts/opentype/inter/Inter-${pair%%:*}.otf" \
    --unicodes="U+0020-007E,U+00A0-00FF,U+011E-011F,U+0130-0131,U+015E-015F,U+2013-2014,U+2018-2019,U+201C-201D,U+2022,U+2026,U+20BA,U+2190-2193,U+2212,U+2009,U+202F" \
    --layout-features="kern,liga,calt,tnum,case,locl" --desubroutinize \
    --flavor=woff2 --output-file="style/fonts/inter-${pair##*:}.woff2"
done
