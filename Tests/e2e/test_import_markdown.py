"""`import markdown` of a real vault (issue 13, item 12): Obsidian's string tags, nb's and other dated
file names, `created:`, the file's title, and a broken file skipped while the rest come in."""
import os
import re

import pytest


def vault(tmp_path, files):
    root = tmp_path / "vault"
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def front(entry):
    return entry.read_text().split("---\n")[1]


def by_name(diary):
    return {p.name: p for p in diary.entries()}


def test_tags_given_as_one_string_are_a_list(diary, tmp_path):
    root = vault(tmp_path, {
        "2024-03-10.md": '---\ntags: "reading, theory"\n---\nNotes.\n',
        "2024-03-11.md": "---\ntags: reading theory\n---\nMore.\n",
    })
    diary.ok("import", "markdown", root)
    entries = diary.entries()
    assert len(entries) == 2
    for e in entries:
        assert "tags: [reading, theory]" in front(e), e.read_text()


def test_dates_from_created_and_from_nb_and_time_file_names(diary, tmp_path):
    root = vault(tmp_path, {
        "20240310120000.md": "An nb note.\n",
        "2024-03-12T08-30.md": "Morning.\n",
        "meeting.md": "---\ncreated: 2024-02-01 14:45\n---\nThe meeting.\n",
    })
    r = diary.ok("import", "markdown", root)
    assert "modification time" not in r.err, r
    fronts = sorted(front(e) for e in diary.entries())
    assert any("date: 2024-03-10T12:00:00+01:00" in f for f in fronts), fronts
    assert any("date: 2024-03-12T08:30:00+01:00" in f for f in fronts), fronts
    assert any("date: 2024-02-01T14:45:00+01:00" in f for f in fronts), fronts


def test_the_file_name_is_the_title_and_gives_the_id_its_slug(diary, tmp_path):
    root = vault(tmp_path, {
        "Reading notes.md": "---\ndate: 2024-03-10 09:00\n---\nOn theory.\n",
        "2024-03-11 Lab meeting.md": "Agenda.\n",
        "2024-03-12.md": "A daily note has no title.\n",
        "own.md": "---\ntitle: Given title\ndate: 2024-03-13\n---\nx\n",
    })
    diary.ok("import", "markdown", root)
    names = sorted(by_name(diary))
    assert names == ["2024-03-10-0900-reading-notes.md", "2024-03-11-0000-lab-meeting.md",
                     "2024-03-12-0000.md", "2024-03-13-0000-given-title.md"], names
    assert "title: Reading notes" in front(by_name(diary)["2024-03-10-0900-reading-notes.md"])
    assert "title:" not in front(by_name(diary)["2024-03-12-0000.md"])


def test_a_broken_file_is_skipped_with_its_place_and_the_rest_imported(diary, tmp_path):
    root = vault(tmp_path, {
        "2024-03-10.md": "Good one.\n",
        "2024-03-11.md": "---\ntitle: [unclosed\n---\nBroken YAML.\n",
        "2024-03-12.md": "---\nmood: 99\n---\nOff the scale.\n",
        "2024-03-13.md": "Good two.\n",
    })
    (root / "2024-03-14.md").write_bytes(b"not utf-8 \xff\xfe\n")
    r = diary.ok("import", "markdown", root)
    assert len(diary.entries()) == 2, r
    assert re.search(r"2024-03-11\.md:\d+:\d+: warning: invalid YAML", r.err), r
    assert "2024-03-12.md" in r.err and "mood" in r.err, r
    assert "2024-03-14.md" in r.err, r
    assert r.err.count("skipped") >= 3, r
    assert "imported 2 entries" in r.err, r


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_file_is_skipped(diary, tmp_path):
    root = vault(tmp_path, {"2024-03-10.md": "Good.\n", "2024-03-11.md": "Locked.\n"})
    os.chmod(root / "2024-03-11.md", 0)
    r = diary.ok("import", "markdown", root)
    assert len(diary.entries()) == 1 and "2024-03-11.md" in r.err, r


def test_strict_stops_at_the_first_broken_file(diary, tmp_path):
    root = vault(tmp_path, {
        "2024-03-10.md": "Good one.\n",
        "2024-03-11.md": "---\ntitle: [unclosed\n---\nBroken YAML.\n",
    })
    r = diary.run("import", "markdown", root, "--strict")
    assert r.rc == 2 and re.search(r"2024-03-11\.md:\d+:\d+: error: invalid YAML", r.err), r
    assert diary.entries() == []
    assert diary.commits() == 1


def test_mood_is_checked_on_its_templates_scale(diary, tmp_path):
    """An emotion entry's mood 8 is on 1-10 (its template's scale), not off the diary's 1-5."""
    root = vault(tmp_path, {"2024-03-10.md": "---\ntemplate: emotion\nmood: 8\n---\nA hard day.\n"})
    r = diary.run("import", "markdown", root, "--strict")
    assert r.rc == 0, r
    [entry] = diary.entries()
    assert "mood: 8" in front(entry)
    bad = vault(tmp_path / "b", {"2024-03-11.md": "---\nmood: 8\n---\nNo template.\n"})
    r = diary.run("import", "markdown", bad, "--strict")
    assert r.rc == 2 and "mood" in r.err and "1–5" in r.err, r
    jl = tmp_path / "e.jsonl"
    jl.write_text('{"date": "2024-03-12T09:00:00+01:00", "body": "x\\n", "template": "emotion", "mood": 8}\n'
                  '{"date": "2024-03-13T09:00:00+01:00", "body": "y\\n", "template": "emotion", "mood": 11}\n')
    r = diary.run("import", "jsonl", jl)
    assert r.rc == 2 and "line 2" in r.err and "1–10" in r.err, r
    jl.write_text(jl.read_text().splitlines()[0] + "\n")
    diary.ok("import", "jsonl", jl)
    assert len(diary.entries()) == 2


def test_yaml_dates_stay_dates(diary, tmp_path):
    """Issue 13 item 12: a date in the front matter is written back as a YAML date, not a quoted string,
    so Obsidian, PyYAML and every YAML reader still see a date; text stays text."""
    import datetime
    import yaml
    root = vault(tmp_path, {
        "note.md": "---\ndate: 2024-03-10\ncreated: 2024-03-09T10:00:00\ndue: 2024-04-01\n"
                   "seen: 2024-04-01 10:30\n---\nBody.\n",
    })
    diary.ok("import", "markdown", root)
    [entry] = diary.entries()
    fm = yaml.safe_load(front(entry))
    assert fm["due"] == datetime.date(2024, 4, 1), front(entry)
    assert fm["created"] == datetime.datetime(2024, 3, 9, 10, 0), front(entry)
    assert "seen: 2024-04-01 10:30\n" in front(entry)
    assert diary.ok("check").rc == 0
