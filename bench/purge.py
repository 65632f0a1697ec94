#!/usr/bin/env python3
"""Times `daybook purge` on a diary whose history has one commit per entry.

    python3 bench/purge.py [--entries 5000] [--bin PATH]

The history is made with `git fast-import` (the benchmark's own tool; daybook never runs git):
after `daybook init`, one commit per entry, spread over months, each adding one entry file. Then
the entry in the middle of the history is purged, so half the commits are rewritten, and the
script prints the time, the commits rewritten and the objects deleted, and checks the result with
`git fsck --strict`.
"""
import argparse
import subprocess
import tempfile
import time
import pathlib

import scratch


def history(n):
    """A fast-import stream: n commits on main after the init commit, one entry each."""
    out = []
    for i in range(n):
        month = 1 + (i * 12) // n
        day = 1 + i % 28
        eid = f"2026-{month:02d}-{day:02d}-{i // 28 % 24:02d}{i % 60:02d}-entry-{i}"
        text = f"---\ntitle: Entry {i}\ndate: 2026-{month:02d}-{day:02d}T08:00:00+01:00\n---\nwords of entry {i}\n".encode()
        when = 1790000000 + i * 600
        out.append(b"commit refs/heads/main\n")
        out.append(f"committer T <t@example.org> {when} +0100\n".encode())
        msg = f"new: Entry {i}\n".encode()
        out.append(b"data %d\n%s" % (len(msg), msg))
        if i == 0:
            out.append(b"from refs/heads/main^0\n")
        out.append(f"M 100644 inline entries/2026/{month:02d}/{eid}.md\n".encode())
        out.append(b"data %d\n%s\n" % (len(text), text))
    return b"".join(out), [f"2026-{1 + (i * 12) // n:02d}" for i in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=5000)
    ap.add_argument("--bin")
    args = ap.parse_args()
    binary = scratch.binary(args.bin)
    with tempfile.TemporaryDirectory() as tmp:
        diary = pathlib.Path(tmp) / "diary"
        env = scratch.environment(tmp, diary)
        subprocess.run([binary, "init", str(diary), "-q"], env=env, check=True)
        stream, _ = history(args.entries)
        subprocess.run(["git", "fast-import", "--quiet"], input=stream, cwd=diary, env=env, check=True)
        subprocess.run(["git", "reset", "-q", "--hard"], cwd=diary, env=env, check=True)
        middle = args.entries // 2
        target = next(diary.glob(f"entries/*/*/*-entry-{middle}.md"))
        start = time.perf_counter()
        r = subprocess.run([binary, "purge", target.stem, "--yes"], env=env, capture_output=True, text=True)
        took = time.perf_counter() - start
        assert r.returncode == 0, r.stderr
        subprocess.run(["git", "fsck", "--strict", "--no-progress"], cwd=diary, env=env, check=True)
        print(f"purge of 1 entry in the middle of {args.entries} commits: {took:.2f} s")
        print(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "")


if __name__ == "__main__":
    main()
