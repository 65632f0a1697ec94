"""grep's fast paths on the built binary (issue 19): a plain string is found as bytes (memmem), a
regular expression by PCRE2 over the whole file, files are read in batches on every core with the
word index choosing them. Each plain string is compared with a regular expression that matches
exactly the same text but cannot take the plain path (`nurs[e]` for `nurse`), with the index and
without, over entries with the string in the front matter only, across lines, at the file's end,
with CRLF and Unicode."""
import random

import pytest

WORDS = ["nurse", "Nurse", "nurses", "ward", "login", "failed", "café", "Grüße", "\u212aelvin", "the", "a.b", "mood", "title"]


def fill(diary, n=260):
    rng = random.Random(19)
    for i in range(n):
        day = 1 + i % 28
        nl = "\r\n" if i % 9 == 0 else "\n"
        title = " ".join(rng.choice(WORDS) for _ in range(3))
        front = ["---", f"title: {title}", f"date: 2026-10-{day:02d}T09:{i % 60:02d}:00+02:00",
                 f"tags: [{rng.choice(['nurse', 'memo'])}]", "mood: 3", "---"]
        body = [" ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 7))) for _ in range(rng.randrange(0, 9))]
        text = nl.join(front + body) + (nl if i % 7 else "")
        folder = diary.path / "entries" / "2026" / "10"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"2026-10-{day:02d}-{i:04d}-e.md").write_bytes(text.encode())


# (plain string, options) and a regular expression finding exactly the same text
SAME = [
    (["nurse"], ["nurs[e]"]),
    (["-c", "nurse"], ["-c", "nurs[e]"]),
    (["-l", "café"], ["-l", "caf[é]"]),
    (["--json", "Grüße"], ["--json", "Grü(?:ß)e"]),
    (["-c", "\u212aelvin"], ["-c", "\u212a(?:e)lvin"]),
    (["-F", "-C1", "a.b"], ["-C1", "a\\.b"]),
    (["-c", "mood"], ["-c", "moo[d]"]),
    (["--front-matter", "-c", "nurse"], ["--front-matter", "-c", "nurs[e]"]),
    (["-c", "title"], ["-c", "titl[e]"]),
    (["-F", "-c", "ward nurse"], ["-c", "ward[ ]nurse"]),
]


@pytest.mark.parametrize("plain,regex", SAME)
def test_a_plain_string_finds_what_the_same_regular_expression_finds(diary, plain, regex):
    fill(diary)
    results = set()
    for args in (plain, regex):
        for env in ({}, {"DAYBOOK_NO_INDEX": "1"}):
            r = diary.run("grep", *args, env=env)
            assert r.rc in (0, 1), r
            assert "warning" not in r.err, r
            results.add((r.rc, r.out))
    assert len(results) == 1, results
    assert "nurse" not in plain or results.pop()[0] == 0, "the string is in the diary"


def test_a_plain_string_spanning_lines_matches_no_line(diary):
    fill(diary)
    assert diary.run("grep", "-F", "ward\nnurse").rc == 1
    assert diary.run("grep", "-c", "ward").rc == 0
