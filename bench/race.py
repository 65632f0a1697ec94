#!/usr/bin/env python3
"""An outside edit racing `daybook tag add`: 0 edits may be lost (issue 20, item 2).

A thread edits the entry in a loop (read, append a unique word, write: in place or by a rename,
alternately) while `tag add` runs again and again. Afterwards every word the thread wrote must
be in the entry file or in some commit of it. Usage: bench/race.py [TRIALS] (default 1000);
the binary is $DAYBOOK_BIN, else .build/debug/daybook. Tests/e2e runs a short form.
"""
import os
import random
import pathlib
import subprocess
import sys
import tempfile
import threading

import scratch  # bench/scratch.py: the binary, a throwaway HOME and environment

ROOT = pathlib.Path(__file__).resolve().parents[1]


def race(binary, tmp, trials):
    """Runs `trials` tag adds against the editing thread; returns (lost words, exits by code, words
    written, whether reads from the entry cache agree with reads of the files afterwards)."""
    tmp = pathlib.Path(tmp)
    d = tmp / "diary"
    env = scratch.environment(tmp, d)
    run = lambda *a: subprocess.run([binary, *a], capture_output=True, text=True, env=env)
    assert run("init", str(d)).returncode == 0
    assert run("new", "-m", "start", "Race").returncode == 0
    entry = next((d / "entries").rglob("*.md"))
    words, stop = [], threading.Event()

    def edit():
        n = 0
        while not stop.is_set():
            stop.wait(random.uniform(0, 0.04))  # an edit now and then, so most tag adds get through
            n += 1
            word = f"outside{n:06d}x"
            try:
                text = entry.read_text()
            except (FileNotFoundError, UnicodeDecodeError):
                continue
            if not text.endswith("\n"):
                continue  # read in the middle of our own in-place write: not a whole file
            new = text + word + "\n"
            if n % 2:
                with open(entry, "w") as f:
                    f.write(new)
            else:
                side = entry.with_name(".race-side")
                side.write_text(new)
                os.replace(side, entry)
            words.append(word)

    t = threading.Thread(target=edit)
    t.start()
    exits = {}
    try:
        for i in range(trials):
            r = run("tag", "add", "last", f"t{i}")
            exits[r.returncode] = exits.get(r.returncode, 0) + 1
    finally:
        stop.set()
        t.join()
    run("check", "--fix")  # commits what the thread wrote last
    rel = str(entry.relative_to(d))
    history = subprocess.run(["git", "log", "-p", "--format=", "--", rel], cwd=d, capture_output=True,
                             text=True, env=env).stdout + entry.read_text()
    lost = [w for w in words if w not in history]
    return lost, exits, len(words), scratch.cache_agrees(binary, d, env)


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    binary = os.environ.get("DAYBOOK_BIN") or str(ROOT / ".build/debug/daybook")
    with tempfile.TemporaryDirectory() as tmp:
        lost, exits, written, agrees = race(binary, tmp, trials)
    print(f"{trials} tag adds racing {written} outside edits: exits {exits}, lost edits {len(lost)}; "
          f"reads from the cache {'agree' if agrees else 'DISAGREE'} with reads of the files")
    sys.exit(1 if lost or not agrees else 0)


if __name__ == "__main__":
    main()
