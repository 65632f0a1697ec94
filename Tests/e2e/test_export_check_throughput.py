"""`export json`, `export jsonl` and `check` read every body on every core (issue 19): on the built
binary, more entries than one chunk, with bodies full of what JSON escapes, give JSON that Python
reads back to the very bodies of the files, in date order, and the problems of `check` by path,
the same from a cold cache and a warm one."""
import json
import random
import re

FENCE = re.compile(r"---[ \t\r]*\n")
PIECES = ["word", "\"quoted\"", "back\\slash", "tab\there", "bell\x07", "esc\x1b", "nul\x00",
          "line\u2028sep", "para\u2029sep", "\U0001F642", "\u65e5\u672c", "e\u0301", "\r\n", "\n\n",
          "[[nowhere]]", "[x](missing.md)", "plain text run of some length"]


def write_entries(diary, n=700, seed=19):
    rng = random.Random(seed)
    written = {}
    for i in range(n):
        month, day = 1 + i % 3, 1 + (i // 3) % 28
        ident = f"2026-{month:02d}-{day:02d}-{900 + i % 1000:04d}-e{i}"
        rel = f"entries/2026/{month:02d}/{ident}.md"
        body = "".join(rng.choice(PIECES) + " " for _ in range(rng.randrange(0, 80)))
        text = f"---\ndate: 2026-{month:02d}-{day:02d}T09:{i % 60:02d}:00+01:00\ntitle: Entry {i}\n---\n{body}"
        path = diary.path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
        written[rel] = body
    # Two files that do not parse: no front matter, and bytes that are not UTF-8.
    (diary.path / "entries/2026/01/2026-01-02-0900-bad.md").write_text("no front matter\n")
    (diary.path / "entries/2026/02/2026-02-02-0900-latin1.md").write_bytes(b"---\ndate: 2026-02-02T09:00:00+01:00\n---\ncaf\xe9\n")
    return written


def test_export_json_and_jsonl_give_back_every_body_in_date_order(diary, tmp_path):
    bodies = write_entries(diary)
    out = tmp_path / "all.json"
    # The two files that do not parse are named and left out: exit 1, or 0 when asked (issue 39).
    left = diary.run("export", "json", "-o", out)
    assert left.rc == 1 and "left out 2 entries" in left.err, left
    diary.ok("export", "json", "-o", out, "--skip-invalid")
    doc = json.loads(out.read_text(encoding="utf-8"))
    entries = doc["entries"]
    assert len(entries) == len(bodies)
    assert {e["path"]: e["body"] for e in entries} == bodies
    assert [e["date"] for e in entries] == sorted(e["date"] for e in entries)
    # stdout gives the same bytes as the file, and JSON Lines the same entries, a line each.
    assert diary.ok("export", "json", "--skip-invalid").out == out.read_text(encoding="utf-8")
    # One entry a line: split at "\n" only (U+2028 and U+2029 stay in the text, as ever).
    lines = [json.loads(line) for line in diary.ok("export", "jsonl", "--skip-invalid").out.split("\n") if line]
    assert lines == entries
    # The first writer's form: pretty, two spaces a level, nothing but the needed escapes.
    raw = out.read_text(encoding="utf-8")
    assert "\u2028" in raw and "\U0001F642" in raw and "\\u0007" in raw and "\\u0000" in raw
    assert raw.startswith('{\n  "diary": {\n    "name": ') and raw.endswith("\n  ]\n}\n")
    assert "\n    {\n      \"id\": " in raw


def test_check_tells_the_same_problems_cold_and_warm_in_path_order(diary):
    write_entries(diary)
    cache = diary.path / ".daybook" / "cache"
    cold = diary.run("check")
    assert cold.rc == 1, cold
    assert cache.is_dir()
    warm = diary.run("check")
    assert (warm.out, warm.rc) == (cold.out, cold.rc)
    lines = cold.out.splitlines()
    assert any("2026-01-02-0900-bad.md" in l and "no front matter" in l for l in lines)
    assert any("2026-02-02-0900-latin1.md" in l and "not UTF-8" in l for l in lines)
    # Entry problems come first, by path; the uncommitted files after them.
    links = [l.split(":")[0] for l in lines if "leads to nothing" in l]
    assert len(links) > 100
    assert links == sorted(links)
    first_uncommitted = next(i for i, l in enumerate(lines) if "not committed yet" in l)
    assert all("not committed yet" in l for l in lines[first_uncommitted:])
    assert diary.run("check", "--json").jsonl() == diary.run("check", "--json").jsonl()
