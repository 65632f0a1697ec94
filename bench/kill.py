#!/usr/bin/env python3
"""kill -9 at random points of every mutating command, then the next command (issue 20).

Each trial runs one of new, tag add, code add, tag rename, import, rm, undo and sync (to a local
bare remote) with a unique word, kills it with SIGKILL after a random delay (or lets it finish),
then runs `check` and a `new` under a watchdog: a command that takes longer than WATCHDOG seconds
fails the run, naming it. At the end every word written by a command that exited 0 must be in the
diary's files or its history. Usage: bench/kill.py [TRIALS] (default 1000); the binary is
$DAYBOOK_BIN, else .build/debug/daybook. Tests/e2e/test_kill.py runs a short form.
"""
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
WATCHDOG = 20
COMMANDS = ["new", "tag add", "code add", "tag rename", "import", "rm", "undo", "sync"]


def trials(binary, tmp, count, seed=1):
    """Runs `count` kill trials; returns a dict of counts, hangs (command lines) and lost words."""
    rnd = random.Random(seed)
    tmp = pathlib.Path(tmp)
    home = tmp / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.org\n[init]\n\tdefaultBranch = main\n")
    d = tmp / "diary"
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DAYBOOK_DIR": str(d),
           "DAYBOOK_NOW": "2026-11-21T12:00:00+01:00", "NO_COLOR": "1", "LANG": "C.UTF-8", "TZ": "Europe/Vienna",
           "GIT_CONFIG_NOSYSTEM": "1", "EDITOR": "false"}
    hangs, unusable = [], []

    def run(*args, timeout=WATCHDOG):
        try:
            return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, env=env,
                                  timeout=timeout, stdin=subprocess.DEVNULL).returncode
        except subprocess.TimeoutExpired:
            hangs.append(" ".join(map(str, args)))
            return None

    assert run("init", d) == 0
    remote = tmp / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, env=env)
    assert run("new", "-m", "seed words", "Seed") == 0
    assert run("tag", "add", "last", "seedtag") == 0
    assert run("sync", "--set-remote", remote) == 0
    started = time.monotonic()
    assert run("tag", "add", "last", "timing") == 0
    # Kills land anywhere from the start to a little past a typical command's end (a loaded
    # machine makes commands slower), so some commands finish and most are cut somewhere inside.
    span = 1.5 * (time.monotonic() - started)
    kept, tags = [], ["seedtag"]
    stats = {"killed": 0, "finished": 0, "trials": 0}
    for i in range(count):
        word = f"w{seed}x{i:05d}z"
        cmd = COMMANDS[i % len(COMMANDS)] if count >= len(COMMANDS) else rnd.choice(COMMANDS)
        if cmd == "new":
            args = ["new", "-m", f"body {word}", f"Title {word}"]
        elif cmd == "tag add":
            args = ["tag", "add", "last", word]
        elif cmd == "code add":
            args = ["code", "add", "last", word]
        elif cmd == "tag rename":
            args = ["tag", "rename", tags[-1], word]
        elif cmd == "import":
            src = tmp / f"import{i}.json"
            src.write_text(json.dumps({"entries": [{"date": "2026-11-%02d" % (1 + i % 20), "time": "09:00",
                                                    "title": f"Imported {word}", "body": f"imported {word}\n",
                                                    "tags": [], "starred": False}]}))
            args = ["import", "jrnl", src]
        elif cmd == "rm":
            args = ["rm", "last"]
        elif cmd == "undo":
            args = ["undo"]
        else:
            args = ["sync"]
        p = subprocess.Popen([binary, *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, env=env)
        time.sleep(rnd.uniform(0, span))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            stats["killed"] += 1
        rc = p.wait()
        stats["trials"] += 1
        if rc == 0:
            stats["finished"] += 1
            if cmd in ("new", "tag add", "code add", "tag rename", "import"):
                kept.append(word)
            if cmd in ("tag add", "tag rename"):
                tags.append(word)
        # The next command: the diary must be usable, and nothing may hang.
        if run("check", "--fix") is None:
            continue
        if run("new", "-m", f"probe {word}", "Probe") != 0:
            unusable.append(" ".join(map(str, args)))
    history = subprocess.run(["git", "log", "--all", "-p", "--format=%B"], cwd=d, capture_output=True,
                             text=True, env=env).stdout
    files = "".join(p.read_text(errors="replace") for p in d.rglob("*") if p.is_file() and ".git" not in p.parts)
    lost = [w for w in kept if w not in history and w not in files]
    return {**stats, "hangs": hangs, "unusable": unusable, "lost": lost, "kept": len(kept)}


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    binary = os.environ.get("DAYBOOK_BIN") or str(ROOT / ".build/debug/daybook")
    with tempfile.TemporaryDirectory() as tmp:
        r = trials(binary, tmp, count)
    print(f"{r['trials']} trials: {r['killed']} killed, {r['finished']} exited 0; words to keep {r['kept']}, "
          f"lost {len(r['lost'])}; hangs {r['hangs']}; unusable after {r['unusable']}")
    sys.exit(1 if r["lost"] or r["hangs"] or r["unusable"] else 0)


if __name__ == "__main__":
    main()
