#!/usr/bin/env python3
"""Outside edits racing `daybook tag add` and `daybook append`: 0 edits may be lost (issue 20,
item 2; issue 38).

A thread edits the entry in a loop (read, append a unique word, write: in place, by a rename, or
through `open(…, 'a')`, in turn) and a second one appends a line now and then through
`open(…, 'a')`, as a script or an editor does, while `tag add` and `append` run in turn again and
again. Afterwards every word the threads wrote must be in the entry file or in some commit of it. Usage: bench/race.py [TRIALS] (default 1000);
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
    # The two outside writers take turns with each other (an in-place write of what one read would
    # drop the other's line: their race, not daybook's), never with daybook.
    turns = threading.Lock()

    def edit():
        n = 0
        while not stop.is_set():
            stop.wait(random.uniform(0, 0.04))  # an edit now and then, so most commands get through
            n += 1
            word = f"outside{n:06d}x"
            with turns:
                if n % 3 == 2:
                    with open(entry, "a") as f:
                        f.write(word + "\n")
                    words.append(word)
                    continue
                try:
                    text = entry.read_text()
                except (FileNotFoundError, UnicodeDecodeError):
                    continue
                if not text.endswith("\n"):
                    continue  # read in the middle of our own in-place write: not a whole file
                new = text + word + "\n"
                if n % 3 == 1:
                    with open(entry, "w") as f:
                        f.write(new)
                else:
                    side = entry.with_name(".race-side")
                    side.write_text(new)
                    os.replace(side, entry)
                words.append(word)

    def append():
        n = 0
        while not stop.is_set():
            stop.wait(random.uniform(0, 0.08))
            n += 1
            word = f"appended{n:06d}x"
            with turns:
                with open(entry, "a") as f:
                    f.write(word + "\n")
                words.append(word)

    threads = [threading.Thread(target=edit), threading.Thread(target=append)]
    for t in threads:
        t.start()
    exits = {}
    try:
        for i in range(trials):
            r = run("tag", "add", "last", f"t{i}") if i % 2 == 0 else run("append", "last", "-m", f"daybook line {i}")
            exits[r.returncode] = exits.get(r.returncode, 0) + 1
    finally:
        stop.set()
        for t in threads:
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
    print(f"{trials} tag adds and appends racing {written} outside edits (a third of them appends): exits {exits}, lost edits {len(lost)}; "
          f"reads from the cache {'agree' if agrees else 'DISAGREE'} with reads of the files")
    sys.exit(1 if lost or not agrees else 0)


if __name__ == "__main__":
    main()
