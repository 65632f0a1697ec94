#!/usr/bin/env python3
"""Generated front matters and bodies through check, ls and show (issue 20).

Entries mix deep nesting (YAML and Markdown), aliases, wrong types, control characters, huge
values and long lists (tags, codings). They are written in batches into one diary; after each
batch `check`, `ls`, `ls --where` with a backtracking pattern, `grep`, `stats` and `show` of a few
of them run with a 5 s watchdog. A crash (a signal, or an exit other than 0, 1 and 2) or a hang
fails the run; the peak memory (max RSS) of every command is measured (SPEC §6: ≤ 200 MB).
Usage: bench/fuzz.py [ENTRIES [SEED]] (default 10000, 1); the binary is $DAYBOOK_BIN, else
.build/debug/daybook. Tests/e2e/test_fuzz.py runs a short form.
"""
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import scratch  # bench/scratch.py: the binary, a throwaway HOME and environment

ROOT = pathlib.Path(__file__).resolve().parents[1]
HANG = 5
BUDGET_MB = 200


def scalar(rnd):
    return rnd.choice([
        "x", "42", "-1.5e308", "true", "null", "~", "2026-11-21", "'quoted'", '"a\\tb"', "[]", "{}",
        "0000-01-01T00:00:00Z", "2026-13-45T25:61:60+99:00", "&a x", "*a", "*nope", "!!binary aGVsbG8=",
        "|\n  block", "".join(chr(rnd.randrange(0, 32)) for _ in range(3)), "é" * rnd.randrange(1, 5),
        "a" * rnd.choice([1, 100, 10000, 200000]), "\u202e\u0000\ufeff",
    ])


def nested(rnd, depth):
    opens = [rnd.choice(["[", "{k: "]) for _ in range(depth)]
    return "".join(opens) + scalar(rnd) + "".join("]" if o == "[" else "}" for o in reversed(opens))


def front(rnd):
    lines = []
    if rnd.random() < 0.9:
        lines.append("date: " + rnd.choice(["2026-11-21T10:00:00+01:00", "2026-11-21", scalar(rnd), "[1, 2]"]))
    keys = ["title", "tags", "mood", "codes", "template", "energy", "f", "a"]
    for _ in range(rnd.randrange(0, 8)):
        k = rnd.choice(keys)
        kind = rnd.random()
        if kind < 0.3:
            v = scalar(rnd)
        elif kind < 0.5:
            v = nested(rnd, rnd.choice([2, 10, 100, 1000]))
        elif kind < 0.6:
            v = "&a [" + ", ".join(["x"] * 10) + "]\nb: &b [" + ", ".join(["*a"] * 10) + "]\nc: [" + ", ".join(["*b"] * 10) + "]"
        elif kind < 0.8 and k == "codes":
            v = "[{code: " + scalar(rnd) + ", quote: " + scalar(rnd) + ", memo: " + nested(rnd, 2) + "}]"
        elif kind < 0.82:  # long lists: each tag or coding once took a search of all before it
            n = rnd.choice([100, 2000])
            v = "[" + ", ".join(f"t{j}" if k != "codes" else "{code: c%d, quote: text}" % j for j in range(n)) + "]"
        else:
            v = "[" + ", ".join(scalar(rnd) for _ in range(rnd.randrange(0, 5))) + "]"
        lines.append(f"{k}: {v}")
    return "\n".join(lines)


def body(rnd):
    return rnd.choice([
        "text #tag\n", "> " * rnd.choice([10, 100, 5000]) + "x\n", "- " * rnd.choice([10, 1000, 3000]) + "y\n",
        "#" * 3000 + " *" * 3000 + "\n", "*a " * 3000 + "\n", "~~" * 3000 + "\n",
        "[" * 5000 + "z" + "]" * 5000 + "\n", "*" * 10000 + "\n", "".join(chr(rnd.randrange(0, 0x250)) for _ in range(300)),
        "```\n" + "x\n" * 1000, "| a |\n|---|\n" + "| b |\n" * 2000, "",
    ])


def run(binary, env, args, problems, peaks, hang=HANG):
    """Runs one command under the watchdog; records a crash or hang, and its time and max RSS."""
    # The peak is measured by GNU time, which forks the command from its own small process: a
    # child spawned (vfork or fork) straight from a large Python process has that process's peak
    # counted in its own ru_maxrss at exec (Linux keeps the high-water mark of the replaced memory),
    # so after a long test session every command seemed to take what pytest took.
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as rss:
        wrap = ["/usr/bin/time", "-f", "%M", "-o", rss.name] if os.path.exists("/usr/bin/time") else []
        p = subprocess.Popen([*wrap, binary, *args], stdout=subprocess.DEVNULL, stderr=err, env=env, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        hung = threading.Event()
        timer = threading.Timer(hang, lambda: (hung.set(), os.killpg(p.pid, signal.SIGKILL)))
        started = time.monotonic()
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        elapsed = time.monotonic() - started
        p.returncode = code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        message = err.read()[-300:]
        measured = rss.read().strip().splitlines()
        # GNU time says "Command terminated by signal N" before the figure, and exits 128 + N.
        kb = int(measured[-1]) if wrap and measured and measured[-1].isdigit() else usage.ru_maxrss
    peaks.append((kb / 1024, elapsed, " ".join(args)))
    if hung.is_set():
        problems.append(f"hang over {hang} s: {' '.join(args)}")
    elif code < 0 or code > 2:
        problems.append(f"crash (exit {code}): {' '.join(args)}: {message!r}")


def fuzz(binary, tmp, count, seed=1, batch=100, hang=HANG):
    """Writes `count` generated entries, `batch` to a diary; returns (problems, [(MB, s, command)]).
    A debug build on a loaded machine (the short form in CI) may need a longer `hang`."""
    rnd = random.Random(seed)
    tmp = pathlib.Path(tmp)
    problems, peaks = [], []
    for start in range(0, count, batch):
        # A diary per batch: the watchdog times a command over one batch's entries, so a slow
        # entry shows, and the diary does not grow to gigabytes of generated values.
        d = tmp / "diary"
        env = scratch.environment(tmp, d)
        subprocess.run([binary, "init", str(d)], check=True, capture_output=True, env=env)
        folder = d / "entries/2026" / ("%02d" % (1 + (start // batch) % 12))
        folder.mkdir(parents=True, exist_ok=True)
        names, before = [], len(problems)
        for i in range(start, min(start + batch, count)):
            name = f"2026-11-21-{i % 10000:04d}-f{i}"
            names.append(name)
            (folder / (name + ".md")).write_bytes(("---\n" + front(rnd) + "\n---\n" + body(rnd)).encode("utf-8", "surrogatepass"))
        for args in (["check"], ["ls"], ["ls", "--where", "f~(a+)+$"], ["grep", "tag"], ["stats"],
                     *[["show", n] for n in rnd.sample(names, min(3, len(names)))]):
            run(binary, env, args, problems, peaks, hang)
        if len(problems) > before:  # the batch that failed is kept for a look
            kept = tmp.parent / f"fuzz-failed-{seed}-{start}"
            shutil.copytree(folder, kept, dirs_exist_ok=True)
            problems.append(f"  its entries: {kept}")
        shutil.rmtree(d)
    return problems, peaks


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    binary = os.environ.get("DAYBOOK_BIN") or str(ROOT / ".build/debug/daybook")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        problems, peaks = fuzz(binary, tmp, count, seed)
    peak, slow = max(peaks), max(peaks, key=lambda p: p[1])
    print(f"{count} generated entries, {len(peaks)} commands in {time.monotonic() - started:.0f} s: "
          f"{len(problems)} crashes or hangs; peak memory {peak[0]:.0f} MB ({peak[2]}; budget {BUDGET_MB}); "
          f"slowest command {slow[1]:.2f} s ({slow[2]})")
    for p in problems[:20]:
        print("  " + p)
    sys.exit(1 if problems or peak[0] > BUDGET_MB else 0)


if __name__ == "__main__":
    main()
