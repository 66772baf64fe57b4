#!/usr/bin/env bash
# Writes NewCMMath-Regular-subset.otf: New Computer Modern Math (from the typst-assets crate
# the book already depends on) cut to the characters below, with the MATH table's size
# variants and assemblies for them, and two OpenType features (flac: flattened accents over
# capitals; dtls: dotless i and j under an accent). fontTools keeps the MATH table consistent
# with the renumbered glyphs, which no Rust subsetter does yet.
#
# Left out: `ssty`, the script-size designs of every letter, which would more than double
# the file. Chromium does not apply it (a superscript measures the same with and without
# it), so the book, tested there, looks as it did; a browser that applies it draws the
# regular letters scaled instead, as Chromium does.
#
# Run it when `pbm book` says the subset lacks a character a formula uses (it then ships
# the whole font). Needs Python 3 and network once: it installs fontTools into a venv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
font=$(cargo metadata --format-version 1 --manifest-path "$here/../Cargo.toml" \
  | python3 -c 'import json,sys; print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"]=="typst-assets"))' \
  | xargs dirname)/files/fonts/NewCMMath-Regular.otf
venv=${TMPDIR:-/tmp}/pbm-fonttools
[ -x "$venv/bin/pyftsubset" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q 'fonttools==4.69.1'; }
# Latin, Greek and digits in every style a formula uses (upright, bold, italic, bold
# italic), with the dotless letters; accents; then the operators, arrows and fences.
unicodes=U+0020-007E,U+00A0,U+00A7,U+00A8,U+00AC,U+00AF,U+00B0,U+00B1,U+00B4,U+00B7,U+00D7,
unicodes+=U+00F7,U+0131,U+0237,U+02C6,U+02C7,U+02D8-02DC,U+0300-0304,U+0306-0308,U+030A,U+030C,
unicodes+=U+0338,U+0391-03A1,U+03A3-03A9,U+03B1-03C9,U+03D1,U+03D5,U+03D6,U+03F0,U+03F1,U+03F4,
unicodes+=U+03F5,U+2016,U+2018,U+2019,U+201C,U+201D,U+2020,U+2021,U+2022,U+2026,U+2032-2037,
unicodes+=U+2057,U+2061-2064,U+20D6,U+20D7,U+20DB,U+20DC,U+20E1,U+2102,U+210E,U+210F,U+2113,
unicodes+=U+2115,U+211A,U+211D,U+2124,U+2190-2195,U+21A6,U+21C0,U+21D0-21D4,U+2200-2209,U+220B,
unicodes+=U+220F-221E,U+2220,U+2223-222E,U+2234,U+2235,U+223C,U+2243,U+2245,U+2248,U+2260-2265,
unicodes+=U+226A,U+226B,U+2282-2287,U+2295-2299,U+22A4,U+22A5,U+22C0-22C3,U+22C5,U+22EE-22F1,
unicodes+=U+2308-230B,U+27C2,U+27E6-27E9,U+27F5-27F9,U+27FC,U+1D400-1D49B,U+1D5B3,U+1D6A4-1D6A5,
unicodes+=U+1D6A8-1D755,U+1D7CE-1D7D7,U+1D7D9
"$venv/bin/pyftsubset" "$font" --unicodes="$unicodes" --layout-features=flac,dtls \
  --name-IDs='*' --output-file="$here/NewCMMath-Regular-subset.otf"
ls -l "$here/NewCMMath-Regular-subset.otf"
