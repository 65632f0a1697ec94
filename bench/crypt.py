#!/usr/bin/env python3
"""`sync` to an encrypted remote against a plain one (issue 16): the time to push 100 new entries,
and the time of the first push of a whole diary.

Two identical diaries (bench/generate.py, same seed) sync to two bare repositories on this machine,
one plain, one marked `--encrypt`. Each round adds the same new entries to both (generated files,
committed by a `daybook new` that is not timed), then times `daybook sync` on each, alternating
which goes first. Usage: bench/crypt.py [--base N] [--add N] [--rounds N] [--first N]; the binary
is $DAYBOOK_BIN, else the release build, else the debug build.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import scratch  # bench/scratch.py: the binary, a throwaway HOME and environment

HERE = pathlib.Path(__file__).resolve().parent


def generate(n, folder, seed):
    subprocess.run([sys.executable, str(HERE / "generate.py"), str(n), str(folder), "--seed", str(seed)], check=True)


def timed(binary, env, *args):
    start = time.perf_counter()
    p = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, env=env)
    took = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"daybook {' '.join(map(str, args))} failed: {p.stderr}")
    return took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", type=int, default=1000, help="entries in the diaries before the rounds")
    ap.add_argument("--add", type=int, default=100, help="new entries per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--first", type=int, default=0, help="also time the first push of a diary of N entries")
    a = ap.parse_args()
    binary = scratch.binary(os.environ.get("DAYBOOK_BIN"))
    print(f"binary: {binary}")
    with tempfile.TemporaryDirectory(prefix="daybook-crypt-") as tmp:
        tmp = pathlib.Path(tmp)
        diaries = {"plain": tmp / "plain", "encrypted": tmp / "encrypted"}
        env = {}
        for kind, d in diaries.items():
            (tmp / f"home-{kind}").mkdir()
            env[kind] = {**scratch.environment(tmp / f"home-{kind}", d), "XDG_CONFIG_HOME": str(tmp / "config")}
        subprocess.run([binary, "key", "new"], env=env["encrypted"], check=True, capture_output=True)
        first = {}
        for kind, d in diaries.items():
            generate(a.base, d, 1)
            subprocess.run([binary, "init", "-q", str(d)], env=env[kind], check=True)
            bare = tmp / f"{kind}.git"
            subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
            extra = []
            if kind == "encrypted":
                subprocess.run([binary, "key", "add", "me"], env=env[kind], check=True, capture_output=True)
                extra = ["--encrypt"]
            first[kind] = timed(binary, env[kind], "sync", "--set-remote", bare, *extra)
        print(f"first push of {a.base} entries: plain {first['plain']:.2f} s, encrypted {first['encrypted']:.2f} s")
        times = {k: [] for k in diaries}
        for r in range(a.rounds):
            new = tmp / f"new-{r}"
            generate(a.add, new, 100 + r)
            for kind, d in diaries.items():
                for f in (new / "entries").rglob("*"):
                    if f.is_file():
                        target = d / "entries" / f.relative_to(new / "entries")
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(f, target)
                subprocess.run([binary, "new", "-m", "round", f"Round {r}"], env=env[kind], check=True, capture_output=True)
            order = list(diaries) if r % 2 == 0 else list(reversed(diaries))
            for kind in order:
                times[kind].append(timed(binary, env[kind], "sync"))
        for kind, ts in times.items():
            print(f"sync of {a.add} new entries, {kind}: median {statistics.median(ts):.3f} s "
                  f"(runs: {', '.join(f'{t:.3f}' for t in ts)})")
        ratio = statistics.median(times["encrypted"]) / statistics.median(times["plain"])
        print(f"encrypted / plain: {ratio:.2f} (budget 2.00)")
        if a.first:
            for kind in diaries:
                d = tmp / f"first-{kind}"
                generate(a.first, d, 7)
                subprocess.run([binary, "init", "-q", str(d)], env={**env[kind], "DAYBOOK_DIR": str(d)}, check=True)
                bare = tmp / f"first-{kind}.git"
                subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
                e = {**env[kind], "DAYBOOK_DIR": str(d)}
                extra = []
                if kind == "encrypted":
                    subprocess.run([binary, "key", "add", "me"], env=e, check=True, capture_output=True)
                    extra = ["--encrypt"]
                took = timed(binary, e, "sync", "--set-remote", bare, *extra)
                size = sum(f.stat().st_size for f in bare.rglob("*") if f.is_file())
                print(f"first push of {a.first} entries, {kind}: {took:.2f} s, remote {size / 1e6:.0f} MB")
                shutil.rmtree(d)


if __name__ == "__main__":
    main()
