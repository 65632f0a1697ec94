#!/usr/bin/env python3
"""How a mutation and the reading commands after it treat the entry cache (issue 19): times
`new -m x` (or `tag add last T`) followed at once by `ls --last 10`, twice more `ls --last 10`, and
one after the racy window (2.5 s later), and counts which of them wrote `.daybook/cache/entries.bin`
(its inode and modification time changed).

Usage: bench/cache_after_mutation.py BINARY DIARY [ROUNDS]   (on a copy of a generated diary: it
commits into it). The environment is bench/run.sh's: DAYBOOK_NOW, TZ, NO_COLOR, HOME."""
import os
import statistics
import subprocess
import sys
import time


def main():
    binary, diary = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    env = dict(os.environ, DAYBOOK_DIR=diary)
    cache = os.path.join(diary, ".daybook", "cache", "entries.bin")

    def stamp():
        try:
            st = os.stat(cache)
            return (st.st_ino, st.st_mtime_ns)
        except FileNotFoundError:
            return None

    def run(*args):
        before = stamp()
        t = time.perf_counter()
        p = subprocess.run([binary, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        took = time.perf_counter() - t
        if p.returncode != 0:
            sys.exit(f"{' '.join(args)}: {p.stderr}")
        return took, stamp() != before

    run("ls", "--last", "10")  # the cache as this binary writes it
    time.sleep(2.5)
    run("ls", "--last", "10")
    steps = ["mutation", "ls at once", "ls again", "ls after 2.5 s"]
    for mutation in (["new", "-m", "x"], ["tag", "add", "last", "benchtag"]):
        times = {s: [] for s in steps}
        writes = {s: 0 for s in steps}
        for k in range(rounds):
            args = mutation if mutation[0] == "new" else mutation[:3] + [f"benchtag{os.getpid()}x{k}"]
            for s, a in zip(steps, [args, ["ls", "--last", "10"], ["ls", "--last", "10"], None]):
                if a is None:
                    time.sleep(2.5)
                    a = ["ls", "--last", "10"]
                took, wrote = run(*a)
                times[s].append(took)
                writes[s] += wrote
            time.sleep(2.5)
        print(f"## {' '.join(mutation)} ({rounds} rounds)")
        print("| step | median s | min s | max s | wrote entries.bin |")
        print("|---|---|---|---|---|")
        for s in steps:
            print(f"| {s} | {statistics.median(times[s]):.3f} | {min(times[s]):.3f} | {max(times[s]):.3f} | {writes[s]} of {rounds} |")
        print()


if __name__ == "__main__":
    main()
