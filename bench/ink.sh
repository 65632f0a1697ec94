#!/bin/sh
# Benchmark: `daybook ink render` of a 1,000,000-point stroke file (SPEC §6: ≤ 1 s, ≤ 200 MB).
# Usage: bench/ink.sh [POINTS]   (builds the release binary first; needs python3 and /usr/bin/time)
set -eu
points=${1:-1000000}
root=$(cd "$(dirname "$0")/.." && pwd)
swift build -c release --product daybook --package-path "$root" >/dev/null
bin="$root/.build/release/daybook"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" DAYBOOK_DIR="$work/diary" DAYBOOK_NOW=2026-11-21T12:00:00+01:00 GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
printf '[user]\n\tname = Bench\n\temail = bench@example.org\n' > "$HOME/.gitconfig"
"$bin" init "$DAYBOOK_DIR" -q
entry=$("$bin" new "Dense sketch" -m "A page of handwriting." -q)

# 1,000 strokes of 1,000 points with all six channels: a pen wandering over an A4 canvas, with
# realistic float noise so numbers are not all short integers.
python3 - "$points" "$work/page.strokes.json" <<'PY'
import math, random, sys
n, out = int(sys.argv[1]), sys.argv[2]
random.seed(6)
per = 1000
with open(out, "w") as f:
    f.write('{\n  "format": "daybook-strokes",\n  "version": 1,\n  "canvas": {"width": 595, "height": 842, "unit": "pt"},\n')
    f.write('  "channels": ["x", "y", "t", "force", "azimuth", "altitude"],\n  "strokes": [\n')
    strokes = max(1, n // per)
    for s in range(strokes):
        x, y = random.uniform(20, 575), random.uniform(20, 822)
        pts = []
        for i in range(per):
            x = min(590, max(5, x + math.cos(i / 9 + s) * 1.3 + random.uniform(-0.2, 0.2)))
            y = min(837, max(5, y + math.sin(i / 7 + s) * 1.1 + random.uniform(-0.2, 0.2)))
            pts.append("[%.2f, %.2f, %d, %.3f, %.3f, %.3f]" % (x, y, i * 4, 0.2 + 0.6 * abs(math.sin(i / 50)), 1.2, 0.9 + 0.5 * abs(math.cos(i / 80))))
        f.write('{"tool": "pen", "color": "#1f2328", "width": 1.5, "points": [' + ", ".join(pts) + "]}" + (",\n" if s < strokes - 1 else "\n"))
    f.write("  ]\n}\n")
PY
ls -l "$work/page.strokes.json" | awk '{printf "stroke file: %.1f MB\n", $5 / 1048576}'

measure() {
    /usr/bin/time -v "$@" 2> "$work/time" > /dev/null
    awk -F': ' '/Elapsed \(wall clock\)/ {w = $2} /Maximum resident set size/ {m = $2} END {printf "%s s, %.0f MB peak\n", w, m / 1024}' "$work/time"
}

printf 'ink add (%s points):     ' "$points"; measure "$bin" ink add last "$work/page.strokes.json" -q
printf 'ink render (%s points):  ' "$points"; measure "$bin" ink render last -o "$work/page.svg" -q
printf 'ink ls:                       '; measure "$bin" ink ls
ls -l "$work/page.svg" | awk '{printf "svg: %.1f MB\n", $5 / 1048576}'
