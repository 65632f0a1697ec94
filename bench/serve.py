#!/usr/bin/env python3
"""Times `daybook serve` on a generated diary: the index page, an entry page, a code's page (issue 41:
every highlight of `trust`, about N/14 of them, so 5,000 at 70,000 entries), saving a stroke and an
edit (each with its commit) against `daybook new -m`, and the server's memory after a bounded loop of
requests on loopback (a stand-in for an hour of use).

Usage: bench/serve.py N [--bin PATH] [--requests R]
The times are as the client sees them (server time and loopback). The server keeps the entries it
walked until something under entries/ changes (inotify), so a page after an outside edit is timed
apart.
Generates a diary of N entries with bench/generate.py under bench/out/serve-N (kept for the next run),
uses the release binary when there is one, and prints a Markdown table.
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import time
import urllib.request

import scratch  # bench/scratch.py: the binary, a throwaway HOME and environment

ROOT = pathlib.Path(__file__).resolve().parents[1]


binary = scratch.binary


def timed(n, f):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("--bin")
    ap.add_argument("--requests", type=int, default=3000)
    args = ap.parse_args()
    exe = binary(args.bin)
    diary = ROOT / "bench/out" / f"serve-{args.n}"
    env = dict(os.environ, DAYBOOK_DIR=str(diary), NO_COLOR="1")
    if not (diary / "daybook.yml").exists():
        diary.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, ROOT / "bench/generate.py", str(args.n), str(diary)], check=True)
    if not (diary / ".git").exists():  # generated but not yet committed (a run stopped half-way)
        subprocess.run([exe, "init", str(diary)], check=True, env=env, capture_output=True)
        subprocess.run([exe, "check", "--fix"], env=env, capture_output=True)
    subprocess.run([exe, "ls", "--last", "1"], env=env, capture_output=True)  # a warm cache, as in use
    proc = subprocess.Popen([exe, "serve", "--port", "0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = proc.stdout.readline().strip()
    m = re.match(r"http://([^/]+)/\?token=(\w+)", address)
    base, token = "http://" + m.group(1), m.group(2)

    def req(method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        r = urllib.request.Request(base + path, data=data, method=method,
                                   headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        with urllib.request.urlopen(r, timeout=120) as resp:
            return resp.read()

    try:
        last = json.loads(subprocess.run([exe, "ls", "--last", "1", "--json"], env=env, capture_output=True, text=True).stdout)[0]
        eid = last["id"]
        rows = []
        req("GET", "/")  # the server's first walk, as when the page is first opened
        rows.append(("index page `/`", *timed(5, lambda: req("GET", "/")), "≤ 0.100 s"))
        rows.append(("entry page `/entries/ID`", *timed(10, lambda: req("GET", f"/entries/{eid}")), "≤ 0.050 s"))
        entry_file = diary / last["path"]
        # A code's page: every highlight of the code across the diary, with its context (issue 41).
        shown = re.search(r"(\d+) highlights?", req("GET", "/codes/trust").decode())
        rows.append((f"code page `/codes/trust` ({shown.group(1) if shown else '?'} highlights)",
                     *timed(5, lambda: req("GET", "/codes/trust")), "≤ 0.500 s for 5,000"))

        def touched(path):
            # An outside edit in place (the file's inode kept), then the page: the server walks again.
            def run():
                with open(entry_file, "r+") as f:
                    text = f.read()
                    f.seek(0)
                    f.write(text)
                t = time.perf_counter()
                req("GET", path)
                return time.perf_counter() - t
            times = [run() for _ in range(5)]
            return statistics.median(times), min(times)
        rows.append(("index page after an outside edit", *touched("/"), "≤ 0.100 s"))
        rows.append(("entry page after an outside edit", *touched(f"/entries/{eid}"), "≤ 0.050 s"))
        stroke = {"format": "daybook-strokes", "version": 1, "channels": ["x", "y", "t", "force"],
                  "strokes": [{"tool": "pen", "color": "#1f2328", "width": 2, "start": "2026-11-21T12:00:00.000+01:00",
                               "points": [[i, i, i * 8, 0.5] for i in range(50)]}]}
        rows.append(("save a stroke (with its commit)", *timed(5, lambda: req("POST", f"/api/entries/{eid}/strokes", stroke)), "≤ 0.300 s (issue 41)"))

        def edit():
            v = json.loads(req("GET", f"/api/entries/{eid}/version"))["version"]
            req("PUT", f"/api/entries/{eid}", {"version": v, "body": f"Edited at {time.time()}.\n"})
        rows.append(("save an edit (with its commit)", *timed(5, edit), "≤ new -m"))
        rows.append(("`daybook new -m` (CLI, for comparison)",
                     *timed(5, lambda: subprocess.run([exe, "new", "-q", "-m", "bench", "Bench"], env=env, capture_output=True)), ""))
        start = time.time()
        paths = ["/", f"/entries/{eid}", f"/api/entries/{eid}", f"/api/entries/{eid}/version", "/api/state", "/api/search?q=nurse"]
        for i in range(args.requests):
            req("GET", paths[i % len(paths)])
            if i % 100 == 99:
                req("POST", f"/api/entries/{eid}/strokes", stroke)
            if time.time() - start > 600:
                break
        hwm = next(int(line.split()[1]) for line in open(f"/proc/{proc.pid}/status") if line.startswith("VmHWM"))
        rss = next(int(line.split()[1]) for line in open(f"/proc/{proc.pid}/status") if line.startswith("VmRSS"))
        anon = next(int(line.split()[1]) for line in open(f"/proc/{proc.pid}/status") if line.startswith("RssAnon"))
        print(f"\n`daybook serve` on {args.n:,} entries ({exe})\n")
        print("| work | median | best | budget |\n|---|---|---|---|")
        for name, med, best, budget in rows:
            print(f"| {name} | {med:.3f} s | {best:.3f} s | {budget} |")
        print(f"| memory after {i + 1} requests in {time.time() - start:.0f} s | RSS {rss / 1024:.0f} MB ({anon / 1024:.0f} MB not file-backed) | peak {hwm / 1024:.0f} MB | ≤ 200 MB |")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
