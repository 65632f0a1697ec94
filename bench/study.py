#!/usr/bin/env python3
"""Times `daybook study stats` over N participant diaries of M entries each against `daybook stats`
over one diary of N×M entries (issue 17: 50 × 2,000 no slower than one of 100,000), on a warm cache,
with each command's peak memory; also times the first `study sync` (N local clones).

Usage: bench/study.py N M [--bin PATH] [--runs R]
Generates the diaries with bench/generate.py under bench/out/study-NxM (kept for the next run),
uses the release binary when there is one, and prints a Markdown table.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

import scratch  # bench/scratch.py: the binary, a throwaway HOME and environment

ROOT = pathlib.Path(__file__).resolve().parents[1]


def timed(cmd, env, cwd=None):
    """Seconds and peak resident memory (MB) of one run; fails loudly on an unexpected exit status."""
    started = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - started
    err = p.stderr.read().decode()
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{' '.join(map(str, cmd))}: exit {code}\n{err}")
    return elapsed, usage.ru_maxrss / 1024


def make_diary(exe, env, n, path, seed):
    if (path / "daybook.yml").exists():
        return
    subprocess.run([sys.executable, ROOT / "bench/generate.py", str(n), str(path), "--seed", str(seed)], check=True)
    subprocess.run([exe, "init", str(path)], check=True, env=env, capture_output=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, help="participants")
    ap.add_argument("m", type=int, help="entries per participant")
    ap.add_argument("--bin")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    exe = str(pathlib.Path(scratch.binary(args.bin)).resolve())
    out = ROOT / "bench/out" / f"study-{args.n}x{args.m}"
    out.mkdir(parents=True, exist_ok=True)
    env = scratch.environment(out, out / "one")
    make_diary(exe, env, args.n * args.m, out / "one", 2026)
    ids = [f"p{i:02d}" for i in range(1, args.n + 1)]
    for i, pid in enumerate(ids):
        make_diary(exe, env, args.m, out / "diaries" / pid, 3000 + i)
    study = out / "study"
    study.mkdir(exist_ok=True)
    (study / "study.yml").write_text("name: Benchmark study\nparticipants:\n" + "".join(
        f"  {pid}:\n    diary: ../diaries/{pid}\n    attributes: {{site: {'Leeds' if i % 2 else 'York'}, condition: {'a' if i % 3 else 'b'}}}\n"
        for i, pid in enumerate(ids)))
    shutil.rmtree(study / "participants", ignore_errors=True)
    sync, _ = timed([exe, "study", "sync"], env, cwd=study)

    cases = [
        ("stats (one diary)", [exe, "stats"], None),
        ("study stats", [exe, "study", "stats"], study),
        ("study stats --group site", [exe, "study", "stats", "--group", "site"], study),
        ("study streak", [exe, "study", "streak"], study),
        ("study code stats", [exe, "study", "code", "stats"], study),
    ]
    rows = []
    for name, cmd, cwd in cases:
        cold, _ = timed(cmd, env, cwd)  # fills the caches
        runs = [timed(cmd, env, cwd) for _ in range(args.runs)]
        rows.append((name, cold, statistics.median(t for t, _ in runs), max(m for _, m in runs)))
    print(f"daybook {exe}; {args.n} diaries × {args.m} entries against one diary of {args.n * args.m}; median of {args.runs} warm runs\n")
    print(f"`study sync` (first, {args.n} local clones): {sync:.2f} s\n")
    print("| command | first run (cache cold) | warm (median) | peak memory |")
    print("|---|---|---|---|")
    for name, cold, warm, mem in rows:
        print(f"| {name} | {cold:.3f} s | {warm:.3f} s | {mem:.0f} MB |")
    ratio = rows[1][2] / rows[0][2]
    print(f"\nstudy stats / stats: {ratio:.2f}×")


if __name__ == "__main__":
    main()
