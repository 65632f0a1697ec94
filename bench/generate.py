#!/usr/bin/env python3
"""Writes a deterministic daybook diary of N entries for the benchmark (same N and seed, same bytes).

Usage: bench/generate.py N DIR [--seed S] [--jrnl FILE]

Entries spread over the years before 2026-11-21, about 4 KB each (100,000 entries is about 400 MB),
with words drawn from a Zipf-distributed vocabulary, tags (some nested), moods, a custom numeric field, inline #tags, codings with quotes taken from
the body, and a stroke file beside one entry in a hundred. With --jrnl it also writes the same
entries as a jrnl plain-text journal, so jrnl can be timed on the same content.
"""
import argparse, bisect, datetime, itertools, json, os, random

WORDS = ("the nurse tablet login paper chart ward shift trolley badge reader interview memo field "
         "note observe patient system failed again restarted wrote values trusts more later she he "
         "they we our team meeting consent form method bias role theory infrastructure breakdown "
         "visible work around procedure doctor night morning evening coffee corridor screen password "
         "update network slow fast quiet busy handover medication record data entry sync laptop").split()
TAGS = ["fieldwork", "interview", "memo", "reading", "planning", "method", "theory", "review",
        "project/alpha", "project/beta", "project/gamma", "ethics", "sketch", "observation"]
CODES = ["frustration", "relief", "trust", "workaround", "resistance", "care", "time-pressure"]
CODEBOOK = """codes:
  emotions:
    color: "#8250df"
    codes:
      frustration: {color: "#d1242f"}
      relief: {color: "#1a7f37"}
  trust: {color: "#0969da"}
  workaround: {color: "#bf8700"}
  resistance: {}
  care: {}
  time-pressure: {}
"""


# Prose as people write it: half of the words from the small everyday set above (almost every entry
# has "nurse"), half from a long tail of 30,000 made-up words drawn by Zipf's law, as in real text.
# Words placed at fixed ranks give the benchmark searches of known rarity: "pharmacist" (rank 2,000)
# is in about one entry in 200.
PROBES = {1999: "pharmacist", 199: "triage"}


def vocabulary(size=30000):
    rng = random.Random(7)
    onsets, vowels, codas = "b c d f g h k l m n p r s t v w z br tr st pl gr sh ch".split(), "a e i o u ea io ou".split(), ["", "", "n", "r", "s", "t", "l", "m"]
    seen, out = set(WORDS) | set(PROBES.values()), []
    while len(out) < size:
        w = "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.randint(2, 4))) + rng.choice(codas)
        if w not in seen:
            seen.add(w)
            out.append(w)
    for rank, w in PROBES.items():
        out[rank] = w
    return out


TAIL = vocabulary()
TAIL_CUMULATIVE = list(itertools.accumulate(1 / (r + 1) for r in range(len(TAIL))))


def word(rng):
    if rng.random() < 0.5:
        return rng.choice(WORDS)
    return TAIL[bisect.bisect(TAIL_CUMULATIVE, rng.random() * TAIL_CUMULATIVE[-1])]


def sentence(rng):
    n = rng.randint(6, 16)
    s = " ".join(word(rng) for _ in range(n))
    return s[0].upper() + s[1:] + "."


def paragraph(rng):
    return " ".join(sentence(rng) for _ in range(rng.randint(3, 7)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("dir")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jrnl")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    root = a.dir
    os.makedirs(os.path.join(root, "entries"), exist_ok=True)
    with open(os.path.join(root, "daybook.yml"), "w") as f:
        f.write("name: Benchmark diary\ntimezone: Europe/Vienna\nmood: {min: 1, max: 5}\n")
    with open(os.path.join(root, "codebook.yml"), "w") as f:
        f.write(CODEBOOK)
    with open(os.path.join(root, ".gitignore"), "w") as f:
        f.write(".daybook/\n*.daybook-tmp\n")
    end = datetime.datetime(2026, 11, 21, 12, 0)
    # About ten entries a day (a team diary study), going back as far as N needs.
    span_minutes = max(a.n * 144, 1)
    start = end - datetime.timedelta(minutes=span_minutes)
    jrnl = open(a.jrnl, "w") if a.jrnl else None
    times = sorted(start + datetime.timedelta(minutes=rng.randrange(span_minutes)) for _ in range(a.n))
    used = set()
    for i, t in enumerate(times):
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 5))).capitalize()
        slug = "-".join(title.lower().split())[:40].strip("-")
        ident = f"{t:%Y-%m-%d-%H%M}-{slug}"
        while ident in used:
            ident += "-2"
        used.add(ident)
        offset = "+02:00" if 4 <= t.month <= 9 else "+01:00"
        tags = rng.sample(TAGS, rng.randint(0, 3))
        paras = [paragraph(rng) for _ in range(rng.randint(4, 8))]
        if rng.random() < 0.3:
            paras[-1] += " #" + rng.choice(["todo", "idea", "followup"])
        body = "\n\n".join(paras) + "\n"
        fm = [f"title: {title}", f"date: {t:%Y-%m-%dT%H:%M:00}{offset}"]
        if tags:
            fm.append("tags: [" + ", ".join(tags) + "]")
        if rng.random() < 0.7:
            fm.append(f"mood: {rng.randint(1, 5)}")
        if rng.random() < 0.5:
            fm.append(f"energy: {rng.randint(0, 10)}")
        if rng.random() < 0.25:
            words = paras[0].split()
            k = rng.randint(0, max(0, len(words) - 4))
            quote = " ".join(words[k:k + 4]).rstrip(".")
            fm.append("codes:")
            fm.append(f"  - {rng.choice(CODES)}")
            fm.append(f"  - code: {rng.choice(CODES)}")
            fm.append(f"    quote: \"{quote}\"")
            fm.append(f"    coder: {rng.choice(['mp', 'ak'])}")
        folder = os.path.join(root, "entries", f"{t:%Y}", f"{t:%m}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, ident + ".md"), "w") as f:
            f.write("---\n" + "\n".join(fm) + "\n---\n" + body)
        if i % 100 == 0:
            points = ", ".join(f"[{x}, {100 + (x * 7) % 50}, {x * 4}, 0.{rng.randint(1, 9)}]" for x in range(0, 200, 5))
            stroke = json.dumps({"tool": "pen", "color": "#1f2328", "width": 2})[:-1] + f', "points": [{points}]}}'
            with open(os.path.join(folder, ident + ".strokes.json"), "w") as f:
                f.write('{"format": "daybook-strokes", "version": 1,\n"canvas": {"width": 400, "height": 300, "unit": "pt"},\n'
                        '"channels": ["x", "y", "t", "force"],\n"strokes": [\n' + stroke + "\n]\n}\n")
        if jrnl:
            jtags = " ".join("@" + x.replace("/", "-") for x in tags)
            jrnl.write(f"[{t:%Y-%m-%d %H:%M}] {title}. {jtags}\n{body}\n")
    if jrnl:
        jrnl.close()


if __name__ == "__main__":
    main()
