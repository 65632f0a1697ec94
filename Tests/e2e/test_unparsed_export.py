"""Exports and grep never silently leave out an entry whose front matter does not parse (issue 39):
`export zip`, the backup, holds every file of the diary byte for byte; every other format writes the
rest, names each entry left out and exits 1 (0 with --skip-invalid); grep searches such an entry's text."""
import os
import zipfile

import pytest


@pytest.fixture
def broken(diary):
    diary.ok("new", "Kept", "-m", "A kept entry about the ward.", "--date", "2026-11-19 09:00", "-t", "ward")
    diary.ok("new", "Broken", "-m", "A zorblatt in the broken entry.", "--date", "2026-11-20 09:00")
    path = next(p for p in diary.entries() if "broken" in p.name)
    path.write_text(path.read_text().replace("title: Broken\n", "title: Broken: by hand\n"))
    (diary.path / "prompts.md").write_text("What surprised you today?\n")
    (path.parent / (path.stem + ".strokes.json")).write_text('{"version": 1, "strokes": []}\n')
    return path


def diary_files(root):
    out = {}
    for folder, dirs, names in os.walk(root):
        rel = os.path.relpath(folder, root)
        if rel == ".":
            dirs[:] = [d for d in dirs if d not in (".git", ".daybook")]
        for n in names:
            p = os.path.join(folder, n)
            out[os.path.normpath(os.path.relpath(p, root))] = open(p, "rb").read()
    return out


def test_zip_holds_every_file_of_the_diary_byte_for_byte(diary, broken, tmp_path):
    r = diary.ok("export", "zip", "-o", tmp_path / "backup.zip")
    assert "do not parse" in r.err or "does not parse" in r.err, r
    with zipfile.ZipFile(tmp_path / "backup.zip") as z:
        held = {n: z.read(n) for n in z.namelist() if not n.startswith("html/")}
    assert held == diary_files(diary.path)
    assert broken.read_bytes() == held[os.path.relpath(broken, diary.path)]


@pytest.mark.parametrize("fmt", ["markdown", "json", "jsonl", "csv", "jrnl", "html", "qdpx"])
def test_every_other_format_names_what_it_left_out_and_fails(diary, broken, tmp_path, fmt):
    out = tmp_path / f"out-{fmt}"
    r = diary.run("export", fmt, "-o", out)
    assert r.rc == 1, r
    assert f"{broken.name}:2:" in r.err and "left out 1 entry" in r.err, r
    assert out.exists(), "the rest is written"
    r = diary.run("export", fmt, "-o", tmp_path / f"again-{fmt}", "--skip-invalid")
    assert r.rc == 0, r
    assert f"{broken.name}:2:" in r.err, "still named"


def test_a_redacted_zip_cannot_hold_an_entry_it_cannot_read(diary, broken, tmp_path):
    (tmp_path / "names.yml").write_text("names:\n  Zorblatt: P1\n")
    r = diary.run("export", "zip", "-o", tmp_path / "r.zip", "--redact", tmp_path / "names.yml")
    assert r.rc == 1 and broken.name in r.err, r


def test_grep_searches_the_text_of_an_entry_that_does_not_parse(diary, broken):
    for mode in ("all", "chosen"):
        r = diary.ok("grep", "zorblatt", "-i", env={"DAYBOOK_GREP_READ": mode})
        assert broken.name in r.out and "zorblatt" in r.out.lower(), (mode, r)
        assert r.err.count(f"{broken.name}:2:") == 1, ("the problem is said once", mode, r)
    # A filter cannot tell whether such an entry passes: it is not searched then.
    r = diary.run("grep", "zorblatt", "-i", "--tag", "ward")
    assert r.rc == 1 and broken.name not in r.out, r


def test_grep_reads_a_file_whose_front_matter_is_never_closed(diary):
    diary.ok("new", "Fine", "-m", "fine words")
    folder = diary.entries()[0].parent
    (folder / "2026-11-20-0800-unclosed.md").write_text("---\ntitle: [oops\nthe quokka line\n")
    r = diary.ok("grep", "quokka")
    assert "unclosed.md:3:" in r.out, r
