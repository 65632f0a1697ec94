#!/usr/bin/env python3
"""How each benchmark row grows with the diary: reads the table bench/run.sh wrote (several sizes,
e.g. `bench/run.sh 10000 100000 1000000`) and prints, per command, the median at each size, the
factor from one size to the next (10 when the cost is proportional to the diary, 1 when it does
not depend on it), and the peak memory at each size.

Usage: bench/growth.py [bench/out/results.md]
"""
import re
import sys


def number(cell):
    m = re.match(r"\s*([0-9.]+)", cell)
    return float(m.group(1)) if m else None


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "bench/out/results.md"
    rows = {}  # command -> {n: (median, peak)}
    order = []
    for line in open(path, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 6 or not cells[0].isdigit():
            continue
        n, median, peak = int(cells[0]), number(cells[2]), number(cells[5])
        # A row's name may carry its own throughput (`export json (289.5 MB of entries: 103 MB/s, …)`).
        command = re.sub(r" \([0-9.]+ MB of entries.*\)$", "", cells[1])
        if median is None:
            continue
        if command not in rows:
            rows[command] = {}
            order.append(command)
        rows[command][n] = (median, peak)
    sizes = sorted({n for r in rows.values() for n in r})
    if not sizes:
        sys.exit(f"growth: no rows in {path}")

    def size(n):
        return f"{n // 1000}k" if n < 1_000_000 else f"{n // 1_000_000}M"

    head = ["command"] + [f"{size(n)} s" for n in sizes]
    head += [f"× {size(a)}→{size(b)}" for a, b in zip(sizes, sizes[1:])]
    head += [f"{size(n)} MB" for n in sizes]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for command in order:
        r = rows[command]
        cells = [command] + [f"{r[n][0]:.3f}" if n in r else "" for n in sizes]
        for a, b in zip(sizes, sizes[1:]):
            cells.append(f"{r[b][0] / r[a][0]:.1f}" if a in r and b in r and r[a][0] > 0 else "")
        cells += [f"{r[n][1]:.0f}" if n in r and r[n][1] is not None else "" for n in sizes]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
