#!/usr/bin/env bash
# The benchmark of SPEC §6: daybook's commands on generated diaries of 10,000 and 100,000 entries,
# warm (cache built) and cold (cache removed), against ripgrep over the same files, jrnl 4.x on the
# same entries, and `git add FILE && git commit`. Prints a table of medians, ratios and peak memory.
#
# Usage: bench/run.sh [N ...]        (default: 10000 100000; results also in bench/out/results.md)
#        BENCH_JRNL=0 bench/run.sh N   leaves jrnl out (it needs minutes at 100,000 entries)
#        bench/run.sh 10000 100000 1000000, then bench/growth.py: how each row grows with N. Above
#        100,000 entries `export html` and jrnl are left out (tens of minutes each).
# Needs: hyperfine, ripgrep, /usr/bin/time (Debian: hyperfine ripgrep time), jrnl (pip install jrnl==4.*).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-10000 100000}")
[ $# -gt 0 ] || sizes=(10000 100000)
out=bench/out; mkdir -p "$out"
command -v hyperfine >/dev/null && command -v rg >/dev/null && [ -x /usr/bin/time ] || {
  echo "bench: needs hyperfine, ripgrep and time: apt-get install hyperfine ripgrep time" >&2; exit 2; }
swift build -c release >/dev/null
bin=$PWD/.build/release/daybook
export DAYBOOK_NOW=2026-11-21T12:00:00+01:00 TZ=Europe/Vienna NO_COLOR=1 EDITOR=true
export HOME=$PWD/$out/home; mkdir -p "$HOME"
printf '[user]\n\tname = Bench\n\temail = bench@example.org\n' > "$HOME/.gitconfig"
report=$out/results.md
echo "| entries | command | median s | budget s | ratio | peak MB |" > "$report"
echo "|---|---|---|---|---|---|" >> "$report"

median() { # hyperfine JSON -> median seconds
  python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$1"; }
peak() { # peak resident memory in MB of one run of a shell command
  /usr/bin/time -v bash -c "$1" 2>&1 >/dev/null | awk -F: '/Maximum resident/ {printf "%.0f", $2/1024}'; }
row() { # n name budget runs 'shell command' [MB read: the name gets the MB/s]
  local n=$1 name=$2 budget=$3 runs=$4 cmd=$5 mb=${6:-}
  if ! hyperfine --shell=bash --warmup $(( runs > 1 ? 1 : 0 )) --runs "$runs" -i --export-json "$out/h.json" "$cmd" >/dev/null 2>&1; then
    echo "| $n | $name | failed | $budget | | |" >> "$report"; return
  fi
  local m; m=$(median "$out/h.json")
  if [ -n "$mb" ]; then name="$name ($mb MB of entries: $(python3 -c "print('%.0f' % ($mb / $m))") MB/s, budget 100 MB/s)"; fi
  local ratio=""; [ "$budget" != "-" ] && ratio=$(python3 -c "print('%.2f' % ($m / $budget))")
  echo "| $n | $name | $m | $budget | $ratio | $(peak "$cmd") |" >> "$report"
  echo "$n $name $m s" >&2
}

for n in "${sizes[@]}"; do
  d=$out/diary-$n
  if [ ! -d "$d" ]; then
    if [ "$n" -le 100000 ]; then python3 bench/generate.py "$n" "$d" --jrnl "$out/jrnl-$n.txt"; else python3 bench/generate.py "$n" "$d"; fi
    "$bin" init -q "$d"
  fi
  export DAYBOOK_DIR=$PWD/$d
  # Cold: the first command after a clone, without the cache, against ripgrep reading the same files.
  # Five rounds, each ripgrep and then daybook with its cache removed, so that both meet this VM in
  # the same state (its speed moves by a fifth over minutes); the medians of both.
  rg -c login "$d/entries" >/dev/null # the same warm page cache for daybook and for ripgrep
  read -r cold_time rg_time < <(python3 - "$bin" "$d" <<'COLD'
import shutil, statistics, subprocess, sys, time
bin, d = sys.argv[1], sys.argv[2]
cold, rg = [], []
for _ in range(5):
    t = time.perf_counter(); subprocess.run(["rg", "-c", "login", d + "/entries"], stdout=subprocess.DEVNULL); rg.append(time.perf_counter() - t)
    shutil.rmtree(d + "/.daybook", ignore_errors=True)
    t = time.perf_counter(); subprocess.run([bin, "ls", "--last", "10"], stdout=subprocess.DEVNULL, check=True); cold.append(time.perf_counter() - t)
print("%.3f %.3f" % (statistics.median(cold), statistics.median(rg)))
COLD
)
  echo "| $n | first command, cache cold (ls --last 10; median of 5, alternated with rg) | $cold_time | $(python3 -c "print('%.3f' % (2 * $rg_time))") (rg x 2) | $(python3 -c "print('%.2f' % ($cold_time / (2 * $rg_time)))") | |" >> "$report"
  echo "$n cold $cold_time s, rg $rg_time s" >&2
  row "$n" "ls --last 10" 0.25 5 "$bin ls --last 10"
  row "$n" "tag ls" 0.25 5 "$bin tag ls"
  row "$n" "stats" 0.25 5 "$bin stats"
  row "$n" "streak" 0.25 5 "$bin streak"
  row "$n" "code ls" 0.25 3 "$bin code ls"
  # A word of the long tail (in about one entry in 200), and one in nearly every entry: the
  # second can be no faster than reading every file, so ripgrep's time is its yardstick.
  row "$n" "grep word (rare: pharmacist)" 0.25 5 "$bin grep -c pharmacist"
  row "$n" "rg word (rare, reference)" - 3 "rg -c pharmacist $d/entries"
  row "$n" "grep word (common: nurse)" 0.25 3 "$bin grep -c nurse"
  row "$n" "rg word (common, reference)" - 3 "rg -c nurse $d/entries"
  # The budget for a regular expression is ripgrep's time for the same one over the same files.
  hyperfine --shell=bash --warmup 1 --runs 3 -i --export-json "$out/rg.json" "rg -c 'log+in\\s+fail' $d/entries >/dev/null" >/dev/null 2>&1
  row "$n" "grep regex" "$(median "$out/rg.json")" 3 "$bin grep -c 'log+in\\s+fail'"
  row "$n" "rg regex (reference)" - 3 "rg -c 'log+in\\s+fail' $d/entries"
  # Links: `show` resolves one entry's links; --backlinks reads every body once, so its
  # yardstick is ripgrep reading the same files (twice, as for the cold start).
  row "$n" "show last (links resolved)" 0.25 5 "$bin show last"
  # ENTRY by a whole id (one lstat where `new` files it) and by a unique prefix of it (the names of
  # the month folders recorded with their stamps, .daybook/cache/names.bin), with the lightest
  # command that takes an ENTRY: `show --raw` prints the file's bytes.
  id=$(find "$d/entries" -name '*.md' -print -quit); id=$(basename "$id" .md)
  row "$n" "show --raw ID (ENTRY by whole id)" 0.05 10 "$bin show --raw $id >/dev/null"
  row "$n" "show --raw PREFIX (ENTRY by unique id prefix: ${id:0:15})" 0.05 10 "$bin show --raw ${id:0:15} >/dev/null"
  row "$n" "links last --backlinks" "$(python3 -c "print('%.3f' % (2 * $rg_time))")" 3 "$bin links last --backlinks"
  row "$n" "new -m (with its commit)" 0.15 5 "$bin new -q -m 'benchmark entry' Bench"
  # A tag on the newest entry: a new tag each run, so each run changes the file and commits.
  row "$n" "tag add last (with its commit)" 0.15 5 "$bin tag add last bench\$RANDOM\$RANDOM"
  # The other mutations that find ENTRY within their change (one walk): a new code each run, and
  # a paragraph appended to the same entry.
  row "$n" "code add last (with its commit)" 0.15 5 "$bin code add -q last bench\$RANDOM\$RANDOM --quote 'benchmark entry'"
  row "$n" "append last -m (with its commit)" 0.15 5 "$bin append -q last -m 'benchmark line'"
  [ "$n" -le 100000 ] && row "$n" "export html" 60 1 "rm -rf $out/site-$n; $bin export html -o $out/site-$n"
  # export pdf (issue 44): the last 1,000 entries within 20 s and 300 MB, and the pages per second
  # of a year of the diary.
  row "$n" "export pdf --last 1000" 20 1 "$bin export pdf --last 1000 -o $out/last-$n.pdf"
  if [ "$n" -le 100000 ]; then
    t0=$(date +%s.%N); "$bin" export pdf --from 2025-11-21 -o "$out/year-$n.pdf" >/dev/null 2>&1 || true; t1=$(date +%s.%N)
    pages=$(pdfinfo "$out/year-$n.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
    [ -z "$pages" ] || echo "| $n | export pdf --from 2025-11-21 ($pages pages: $(python3 -c "print('%.0f' % ($pages / ($t1 - $t0)))") pages/s) | $(python3 -c "print('%.3f' % ($t1 - $t0))") | - | | |" >> "$report"
  fi
  # The commands that read every body (issue 19): at least 100 MB/s of entry files, so the budget
  # in seconds is the entries' size over 100 MB/s.
  mb=$(find "$d/entries" -name '*.md' -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1e6}')
  row "$n" "export json" "$(python3 -c "print('%.3f' % ($mb / 100))")" 3 "$bin export json -o $out/export-$n.json" "$mb"
  row "$n" "check" "$(python3 -c "print('%.3f' % ($mb / 100))")" 3 "$bin check >/dev/null" "$mb"
  if [ "$n" -le 100000 ] && [ "${BENCH_JRNL:-1}" = 1 ] && command -v jrnl >/dev/null; then
    cfg=$HOME/.config/jrnl; mkdir -p "$cfg"
    cat > "$cfg/jrnl.yaml" <<JRNL
colors: {body: none, date: none, tags: none, title: none}
default_hour: 9
default_minute: 0
editor: ''
encrypt: false
highlight: false
indent_character: '|'
journals:
  default:
    journal: $PWD/$out/jrnl-$n.txt
linewrap: 79
tagsymbols: '#@'
template: false
timeformat: '%Y-%m-%d %H:%M'
version: v4.2
JRNL
    row "$n" "jrnl --tags (peer)" - 1 "jrnl --tags"
  fi
  row "$n" "git add + commit one file (reference)" - 5 "cd $d && echo x >> bench-note.txt && git add bench-note.txt && git commit -qm bench"
done
cat "$report"
