#!/usr/bin/env bash
# Start-up and the cost of one file (issue 45): daybook beside git and ripgrep, side by side, each
# row measured by hyperfine without a shell (-N) after warm-up runs, medians in milliseconds.
#
#   1. start-up: `daybook --version` and `daybook help` beside `git --version` (budget: 3x git);
#   2. a small diary (2,000 entries): `ls --last 10`, `tag ls`, `stats` beside `rg -c WORD` over the
#      same files (budget: no slower than rg);
#   3. one core (`taskset -c 0`) at N entries (default 100,000): regex `grep` beside ripgrep's same
#      search (budget 1x) and the cold first command beside `rg -c` (budget 1.2x); then the same two
#      on every core, for comparison.
#
# Usage: bench/startup.sh [BIN [N]]   BIN defaults to .build/release/daybook (build it first, e.g.
#        scripts/install, which builds the release binary with the Swift runtime linked in, as a
#        user gets it). Results: bench/out/startup.md.
# Needs: hyperfine, ripgrep, git (Debian: hyperfine ripgrep git).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-.build/release/daybook}")
big=${2:-100000}
out=bench/out; mkdir -p "$out"
command -v hyperfine >/dev/null && command -v rg >/dev/null || {
  echo "bench: needs hyperfine and ripgrep: apt-get install hyperfine ripgrep" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench: no daybook at $bin (scripts/install builds it)" >&2; exit 2; }
export DAYBOOK_NOW=2026-11-21T12:00:00+01:00 TZ=Europe/Vienna NO_COLOR=1 EDITOR=true
export HOME=$PWD/$out/home; mkdir -p "$HOME"
printf '[user]\n\tname = Bench\n\temail = bench@example.org\n' > "$HOME/.gitconfig"
report=$out/startup.md

ms() { # median of a hyperfine JSON, in ms
  python3 -c 'import json,sys; print("%.1f" % (1000 * json.load(open(sys.argv[1]))["results"][0]["median"]))' "$1"; }
time_of() { # runs 'argv...' -> median ms (no shell; stdout to /dev/null)
  local runs=$1; shift
  hyperfine -N --warmup 3 --runs "$runs" -i --export-json "$out/s.json" "$*" >/dev/null 2>&1
  ms "$out/s.json"; }
row() { # name daybook-ms reference-name reference-ms budget-factor
  local ratio; ratio=$(python3 -c "print('%.2f' % ($2 / $4))")
  local ok; ok=$(python3 -c "print('yes' if $2 <= $5 * $4 else 'no')")
  echo "| $1 | $2 | $3 | $4 | $ratio | ${5}x | $ok |" >> "$report"
  echo "$1: $2 ms, $3 $4 ms (x$ratio, budget ${5}x)" >&2; }

{
  echo "# daybook start-up, $(date -u +%F), $(nproc) cores, $(basename "$bin") $(stat -c %s "$bin") bytes"
  echo
  echo "| daybook | ms | beside | ms | ratio | budget | within |"
  echo "|---|---|---|---|---|---|---|"
} > "$report"

git_ms=$(time_of 50 git --version)
row "--version" "$(time_of 50 "$bin" --version)" "git --version" "$git_ms" 3
row "help" "$(time_of 50 "$bin" help)" "git --version" "$git_ms" 3
row "(rg --version)" "$(time_of 50 rg --version)" "git --version" "$git_ms" 3

small=$out/diary-2000
if [ ! -d "$small" ]; then python3 bench/generate.py 2000 "$small"; "$bin" init -q "$small"; fi
export DAYBOOK_DIR=$PWD/$small
"$bin" ls --last 1 >/dev/null # the cache built, as after any first command
rg_small=$(time_of 30 rg -c nurse "$small/entries")
row "ls --last 10 (2,000 entries)" "$(time_of 30 "$bin" ls --last 10)" "rg -c nurse" "$rg_small" 1
row "tag ls (2,000 entries)" "$(time_of 30 "$bin" tag ls)" "rg -c nurse" "$rg_small" 1
row "stats (2,000 entries)" "$(time_of 30 "$bin" stats)" "rg -c nurse" "$rg_small" 1

large=$out/diary-$big
if [ ! -d "$large" ]; then python3 bench/generate.py "$big" "$large"; "$bin" init -q "$large"; fi
export DAYBOOK_DIR=$PWD/$large
"$bin" ls --last 1 >/dev/null
for cores in "taskset -c 0" ""; do
  label=${cores:+one core}; label=${label:-$(nproc) cores}
  rg_re=$(time_of 5 $cores rg -c 'log+in\s+fail' "$large/entries")
  row "grep regex ($big entries, $label)" "$(time_of 5 $cores "$bin" grep -c 'log+in\s+fail')" "rg -c same" "$rg_re" 1
  # Cold: the cache removed before each run (hyperfine's --prepare), against rg -c over the files.
  rg_c=$(time_of 5 $cores rg -c login "$large/entries")
  hyperfine -N --runs 5 -i --prepare "rm -rf $large/.daybook" --export-json "$out/s.json" \
    "$cores $bin ls --last 10" >/dev/null 2>&1
  row "first command, cache cold ($big entries, $label)" "$(ms "$out/s.json")" "rg -c login" "$rg_c" 1.2
done
echo >&2; cat "$report"
