#!/usr/bin/env python3
"""kill -9 at random points of every mutating command, then the next command (issue 20).

Each trial runs one of new, tag add, code add, tag rename, import, rm, undo and sync (to a local
bare remote) with a unique word, or one of the commands that change many entries at once (issue 38:
`tag rename` and `code rename` over MANY entries, `import` of MANY entries, `rm` of MANY), kills it
with SIGKILL after a random delay (or lets it finish), then runs the next command, a `new`, and
`check --fix` (after every trial, or every CHECK_EVERY-th in the short form), each under a
watchdog: a command that takes longer than WATCHDOG seconds fails the run, naming it and the
command killed before it. After the next command, HEAD (and the files) must hold all or none of
a many-entry command's change: never some entries renamed, imported or removed and others not.
At the end every word written by a command that exited 0 must be in the diary's files or its
history, and `check` must find the diary sound.
Usage: bench/kill.py [TRIALS [SEED]] (default 1000, 1); the binary is $DAYBOOK_BIN, else
.build/debug/daybook. Tests/e2e/test_kill.py runs a short form.
"""
import json
import os
import pathlib
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

import scratch  # bench/scratch.py: the binary, a throwaway HOME and environment

ROOT = pathlib.Path(__file__).resolve().parents[1]
WATCHDOG = 60
COMMANDS = ["new", "tag add", "code add", "tag rename", "import", "rm", "undo", "sync",
            "tag rename many", "code rename many", "import many", "rm many"]
MANY = 12  # entries a many-entry command changes


def head_count(d, env, word):
    """How many entry files of HEAD hold `word` (as a whole word), and how many in the folder."""
    head = subprocess.run(["git", "grep", "-l", "-w", "-F", word, "HEAD", "--", "entries"], cwd=d,
                          capture_output=True, text=True, env=env).stdout.split()
    whole = re.compile(r"(?<!\w)" + re.escape(word) + r"(?!\w)")
    files = [p for p in (d / "entries").rglob("*.md") if whole.search(p.read_text(errors="replace"))]
    return len(head), len(files)


def many_import(tmp, name, word, count=MANY):
    src = tmp / f"{name}.json"
    src.write_text(json.dumps({"entries": [{"date": "2026-10-%02d" % (1 + k % 28), "time": "10:%02d" % k,
                                            "title": f"Many {word} {k}", "body": f"many {word} words\n",
                                            "tags": [], "starred": False} for k in range(count)]}))
    return src


def trials(binary, tmp, count, seed=1, check_every=1):
    """Runs `count` kill trials; returns a dict of counts, hangs (command lines) and lost words."""
    rnd = random.Random(seed)
    tmp = pathlib.Path(tmp)
    d = tmp / "diary"
    env = scratch.environment(tmp, d)
    hangs, unusable = [], []
    after = ["(start)"]  # the command killed (or finished) before the one that runs now

    def run(*args, timeout=WATCHDOG):
        try:
            return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, env=env,
                                  timeout=timeout, stdin=subprocess.DEVNULL).returncode
        except subprocess.TimeoutExpired:
            hangs.append(f"{' '.join(map(str, args))} (after {after[0]})")
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
    # MANY entries with a tag and a code the many-entry commands rename (names that grep finds
    # whole), and MANY entries to remove.
    assert run("import", "jrnl", many_import(tmp, "many-seed", "manyseed")) == 0
    many = {"tag": "mtag0x", "code": "mcode0x", "import": []}
    seeded = sorted((d / "entries").rglob("*.md"), key=lambda p: p.name)
    seeded = [p for p in seeded if "manyseed" in p.read_text()]
    for p in seeded:
        ref = p.stem
        assert run("tag", "add", ref, many["tag"]) == 0 and run("code", "add", ref, many["code"], "--quote", "many") == 0
    started = time.monotonic()
    assert run("tag", "rename", many["tag"], "mtag1x") == 0
    many["tag"] = "mtag1x"
    many_span = 1.5 * (time.monotonic() - started)
    kept, tags = [], ["seedtag"]
    stats = {"killed": 0, "finished": 0, "trials": 0, "partial": []}
    for i in range(count):
        word = f"w{seed}x{i:05d}z"
        cmd = COMMANDS[i % len(COMMANDS)] if count >= len(COMMANDS) else rnd.choice(COMMANDS)
        if cmd == "rm many" and not many["import"]:
            cmd = "import many"  # nothing imported to remove yet
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
        elif cmd == "tag rename many":
            args = ["tag", "rename", many["tag"], f"mtag{i}x"]
        elif cmd == "code rename many":
            args = ["code", "rename", many["code"], f"mcode{i}x"]
        elif cmd == "import many":
            args = ["import", "jrnl", many_import(tmp, f"many{i}", f"mimp{i}x")]
        elif cmd == "rm many":
            # The entries of the last import of many.
            target = many["import"][-1]
            refs = [p.stem for p in (d / "entries").rglob("*.md") if target in p.read_text(errors="replace").split()]
            args = ["rm", "-"]
        else:
            args = ["sync"]
        p = subprocess.Popen([binary, *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.PIPE if cmd == "rm many" else subprocess.DEVNULL, env=env)
        if cmd == "rm many":
            try:
                p.stdin.write("\n".join(refs).encode() + b"\n")
                p.stdin.close()
            except BrokenPipeError:
                pass
        time.sleep(rnd.uniform(0, many_span if cmd.endswith(" many") else span))
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
        after[0] = f"{' '.join(map(str, args))}, {'killed' if rc < 0 else f'exit {rc}'}"
        # The next command: the diary must be usable, and nothing may hang.
        if run("new", "-m", f"probe {word}", "Probe") != 0:
            unusable.append(after[0])
        # A many-entry command: HEAD, and the files, hold all of it or none (issue 38).
        if cmd.endswith(" many"):
            if cmd == "tag rename many":
                old, new, whole = many["tag"], f"mtag{i}x", len(seeded)
            elif cmd == "code rename many":
                old, new, whole = many["code"], f"mcode{i}x", len(seeded)
            elif cmd == "import many":
                old, new, whole = None, f"mimp{i}x", MANY
            else:
                old, new, whole = target, None, len(refs)
            counts = {w: head_count(d, env, w) for w in (old, new) if w}
            if cmd == "rm many":
                done = counts[old] == (0, 0)
                ok = done or counts[old] == (whole, whole)
            else:
                done = counts[new] == (whole, whole) and (old is None or counts[old] == (0, 0))
                ok = done or (counts[new] == (0, 0) and (old is None or counts[old] == (whole, whole)))
            if not ok:
                stats["partial"].append(f"{after[0]}: {counts} of {whole}")
            elif done:
                if cmd == "tag rename many":
                    many["tag"] = new
                elif cmd == "code rename many":
                    many["code"] = new
                elif cmd == "import many":
                    many["import"].append(new)
                else:
                    many["import"].pop()
        if (i + 1) % check_every == 0 and run("check", "--fix") is None:
            continue
    run("check", "--fix")
    final = subprocess.run([binary, "check"], capture_output=True, text=True, env=env, timeout=WATCHDOG)
    stats["check"] = final.returncode  # 0: the diary is sound once check --fix has run
    stats["check_output"] = (final.stdout + final.stderr)[-2000:]
    # What the reading commands give from the cache and its journal, as the kills left them, must
    # be what they give from the files alone.
    stats["cache_agrees"] = scratch.cache_agrees(binary, d, env, timeout=WATCHDOG)
    history = subprocess.run(["git", "log", "--all", "-p", "--format=%B"], cwd=d, capture_output=True,
                             text=True, env=env).stdout
    files = "".join(p.read_text(errors="replace") for p in d.rglob("*") if p.is_file() and ".git" not in p.parts)
    lost = [w for w in kept if w not in history and w not in files]
    return {**stats, "hangs": hangs, "unusable": unusable, "lost": lost, "kept": len(kept)}


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    binary = os.environ.get("DAYBOOK_BIN") or str(ROOT / ".build/debug/daybook")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        r = trials(binary, tmp, count, seed)
    print(f"{r['trials']} trials over {', '.join(COMMANDS)} in {time.monotonic() - started:.0f} s: "
          f"{r['killed']} killed, {r['finished']} exited 0; words to keep {r['kept']}, lost {len(r['lost'])}; "
          f"hangs over {WATCHDOG} s {r['hangs']}; unusable after {r['unusable']}; half-done many-entry changes "
          f"{r['partial']}; final check exit {r['check']}; "
          f"reads from the cache {'agree' if r['cache_agrees'] else 'DISAGREE'} with reads of the files")
    if r["check"] != 0:
        print(r["check_output"])
    sys.exit(1 if r["lost"] or r["hangs"] or r["unusable"] or r["partial"] or r["check"] != 0 or not r["cache_agrees"] else 0)


if __name__ == "__main__":
    main()
