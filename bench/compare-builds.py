"""Two daybook builds against each other on a generated diary full of trouble (issue 19): `check`
cold and warm, `check --json`, `export json` and `export jsonl` must give the same bytes.

Usage: python3 bench/compare-builds.py OLD_BINARY NEW_BINARY   (exit status 1 when they differ)
"""
import os, random, shutil, subprocess, sys, tempfile
base, new = sys.argv[1], sys.argv[2]
root = tempfile.mkdtemp(prefix="daybook-compare-")
os.makedirs(root + "/home")
open(root + "/home/.gitconfig", "w").write("[user]\n\tname = T\n\temail = t@example.org\n")
d = root + "/diary"
env = dict(os.environ, HOME=root + "/home", DAYBOOK_DIR=d, DAYBOOK_NOW="2026-11-21T12:00:00+01:00", TZ="Europe/Vienna", NO_COLOR="1")
subprocess.run([base, "init", "-q", d], env=env, check=True)
open(d + "/codebook.yml", "w").write("codes:\n  trust: {}\n  care: {}\n")
rng = random.Random(7)
P = ["word", "\"q\"", "b\\s", "t\tt", "\x07", "\x1b", "\x00", "\u2028", "\u2029", "\U0001F642", "\u65e5", "e\u0301", "\r\n", "\n\n",
     "[[nowhere]]", "[[2026-01-01-0900-e0]]", "[x](missing.md)", "trust me", "care", "plain text run"]
for i in range(3000):
    m, day = 1 + i % 3, 1 + (i // 3) % 28
    ident = f"2026-{m:02d}-{day:02d}-{900 + i % 1000:04d}-e{i}"
    rel = f"entries/2026/{m:02d}/{ident}.md"
    body = "".join(rng.choice(P) + " " for _ in range(rng.randrange(0, 80)))
    front = [f"date: 2026-{m:02d}-{day:02d}T09:{i % 60:02d}:00+01:00", f"title: E{i}"]
    if rng.random() < 0.3:
        front += ["codes:", "  - code: trust", f"    quote: \"{rng.choice(['trust me', 'never there', 'care'])}\""]
        if rng.random() < 0.5: front += ["  - code: trust", "    quote: \"trust me\""]
    r = rng.randrange(40)
    if r == 0: text = body
    elif r == 1: text = "---\n" + "\n".join(front) + "\n" + body
    elif r == 2: text = "---\n" + "\n".join(front + ["x: [open"]) + "\n---\n" + body
    elif r == 3: text = "---\n" + "\n".join(front + ["mood: 9"]) + "\n---\n" + body
    else: text = "---\n" + "\n".join(front) + "\n---" + rng.choice(["", "  ", "\u00a0"]) + "\n" + body
    b = text.encode()
    if rng.random() < 0.02: b = b + b"\xff"
    os.makedirs(os.path.dirname(d + "/" + rel), exist_ok=True)
    open(d + "/" + rel, "wb").write(b)
def run(binary, *args):
    p = subprocess.run([binary, *args], env=env, capture_output=True)
    return p.returncode, p.stdout, p.stderr
results = {}
for name, b in (("base", base), ("new", new)):
    shutil.rmtree(d + "/.daybook", ignore_errors=True)
    cold = run(b, "check")
    warm = run(b, "check")
    js = run(b, "check", "--json")
    ej = run(b, "export", "json")
    el = run(b, "export", "jsonl")
    results[name] = (cold, warm, js, ej, el)
    print(name, "check lines", cold[1].count(b"\n"), "rc", cold[0], "export json bytes", len(ej[1]), "jsonl", len(el[1]))
labels = ["check cold", "check warm", "check --json", "export json", "export jsonl"]
same = True
for k, label in enumerate(labels):
    a, b = results["base"][k], results["new"][k]
    print(label, "identical" if a == b else "DIFFERENT")
    same = same and a == b
    if a != b:
        al, bl = a[1].splitlines(), b[1].splitlines()
        for x, y in zip(al, bl):
            if x != y: print(" base:", x[:200]); print(" new: ", y[:200]); break
        print(" rc", a[0], b[0], "lines", len(al), len(bl), "stderr equal", a[2] == b[2])
shutil.rmtree(root, ignore_errors=True)
sys.exit(0 if same else 1)
