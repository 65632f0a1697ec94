"""Capture as fast as a thought (issue 43): dates as people say them, one-line entries."""
import re

import pytest


def front(path):
    text = path.read_text()
    head = text.split("---\n")[1]
    return dict(line.split(": ", 1) for line in head.splitlines() if ": " in line), text


# The clock is Saturday 2026-11-21 12:00 in Vienna (conftest's NOW).
@pytest.mark.parametrize("when,date", [
    ("yesterday 5pm", "2026-11-20T17:00:00+01:00"),
    ("yesterday at 5pm", "2026-11-20T17:00:00+01:00"),
    ("5pm", "2026-11-21T17:00:00+01:00"),
    ("now", "2026-11-21T12:00:00+01:00"),
    ("noon", "2026-11-21T12:00:00+01:00"),
    ("3 hours ago", "2026-11-21T09:00:00+01:00"),
    ("last friday 09:00", "2026-11-20T09:00:00+01:00"),
    ("last friday at 9am", "2026-11-20T09:00:00+01:00"),
    ("tomorrow 8:00", "2026-11-22T08:00:00+01:00"),
    ("june 9 2013", "2013-06-09T12:00:00+02:00"),
])
def test_new_date_as_people_say_it(diary, when, date):
    out = diary.ok("new", "Dated", "-m", "x", "--date", when).out.strip()
    fields, _ = front(diary.path.parent / out)
    assert fields["date"] == date


def test_filters_take_the_same_phrases(diary):
    diary.ok("new", "Morning", "-m", "x", "--date", "yesterday 9am")
    diary.ok("new", "Evening", "-m", "x", "--date", "yesterday 6pm")
    titles = diary.ok("ls", "--from", "yesterday at 5pm", "--json").json()
    assert [t["title"] for t in titles] == ["Evening"]
    titles = diary.ok("ls", "--to", "yesterday noon", "--json").json()
    assert [t["title"] for t in titles] == ["Morning"]


def test_a_date_that_is_no_date_is_refused_saying_what_is_read(diary):
    r = diary.run("new", "X", "-m", "x", "--date", "yesterday at 25pm")
    assert r.rc != 0 and diary.entries() == []
    assert "yesterday at 25pm" in r.err and "yesterday 5pm" in r.err and "English" in r.err


def test_quick_entry_takes_date_title_and_body(diary):
    r = diary.ok("new", "--quick", "yesterday 5pm: Met the nurse. She said #tablet is slow.")
    fields, text = front(diary.path.parent / r.out.strip())
    assert fields["title"] == "Met the nurse"
    assert fields["date"] == "2026-11-20T17:00:00+01:00"
    assert text.rstrip().endswith("She said #tablet is slow.")
    assert "dated 2026-11-20T17:00:00+01:00" in r.err
    assert [t["title"] for t in diary.ok("ls", "-t", "tablet", "--json").json()] == ["Met the nurse"]
    assert diary.git("log", "-1", "--format=%s").strip() == "new: Met the nurse"


@pytest.mark.parametrize("text,title,body,date", [
    # jrnl's own examples.
    ("2013-11-30 15:42: Project Started.", "Project Started", "", "2013-11-30T15:42:00+01:00"),
    ("26/06/2099: Planet? Earth. Year? 2099.", "Planet?", "Earth. Year? 2099.", "2099-06-26T12:00:00+02:00"),
    ("3/7/2014 4:37pm: Second entry of journal.", "Second entry of journal", "", "2014-03-07T16:37:00+01:00"),
    ("Monday: entry on a monday", "entry on a monday", "", "2026-11-16T12:00:00+01:00"),
    # A colon that ends no date is part of the title; no date prefix is now.
    ("Note: call Anna. About the forms.", "Note: call Anna", "About the forms.", "2026-11-21T12:00:00+01:00"),
    ("2019-02-29: Test.", "2019-02-29: Test", "", "2026-11-21T12:00:00+01:00"),
    ("Bought milk", "Bought milk", "", "2026-11-21T12:00:00+01:00"),
    ("Is it 5:30 already?! Late again.", "Is it 5:30 already?!", "Late again.", "2026-11-21T12:00:00+01:00"),
])
def test_quick_forms(diary, text, title, body, date):
    r = diary.ok("new", "--quick", text)
    fields, whole = front(diary.path.parent / r.out.strip())
    assert fields["title"].strip("'\"") == title
    assert fields["date"] == date
    assert whole.split("---\n", 2)[2].strip() == body


def test_quick_refuses_what_would_give_its_parts_twice(diary):
    for extra in (["A title"], ["-m", "body"], ["--date", "today"]):
        r = diary.run("new", "--quick", "yesterday: Words.", *extra)
        assert r.rc == 2, r
        assert "--quick" in r.err
    assert diary.ok("new", "--quick", "Words.", "--date", "monday").out
    assert diary.run("new", "--quick", "   ").rc != 0
    assert len(diary.entries()) == 1


def test_a_bare_title_with_a_date_and_sentences_stays_a_title(diary):
    out = diary.ok("new", "Monday: plan. Call Anna.", "-m", "x").out.strip()
    fields, _ = front(diary.path.parent / out)
    assert "Monday: plan. Call Anna." in fields["title"]
    assert fields["date"] == "2026-11-21T12:00:00+01:00"


def test_star_unstar_and_ls_starred(diary):
    a = diary.path.parent / diary.ok("new", "Visit", "-m", "x", "--date", "yesterday").out.strip()
    diary.ok("new", "Other", "-m", "y")
    before = a.read_text()
    r = diary.ok("star", "yesterday")
    assert "starred Visit" in r.err
    after = a.read_text()
    # One line added before the closing fence; nothing else changed.
    assert after.replace("starred: true\n", "", 1) == before
    assert diary.git("log", "-1", "--format=%s").strip() == "star: Visit"
    assert [e["title"] for e in diary.ok("ls", "--starred", "--json").json()] == ["Visit"]
    # Starring again changes nothing and says so (exit 1, no commit).
    n = diary.commits()
    r = diary.run("star", "yesterday")
    assert r.rc == 1 and "starred already" in r.err and diary.commits() == n
    diary.ok("unstar", "yesterday")
    assert a.read_text() == before
    assert diary.run("ls", "--starred", "--json").rc == 1  # nothing matches
    assert diary.run("unstar", "yesterday").rc == 1
    # A hand-written `starred: false` is not a favourite; star replaces its line.
    a.write_text(before.replace("---\n", "---\nstarred: false\n", 1))
    assert diary.run("ls", "--starred", "--json").rc == 1  # nothing matches
    diary.ok("star", "yesterday")
    assert a.read_text().count("starred") == 1 and "starred: true" in a.read_text()
    assert diary.run("star", "no-such-entry").rc == 2


def test_jrnl_import_stars_show_in_ls_starred(diary, tmp_path):
    import json
    f = tmp_path / "j.json"
    f.write_text(json.dumps({"tags": {}, "entries": [
        {"title": "Fav", "body": "b", "date": "2026-11-01", "time": "10:00", "tags": [], "starred": True},
        {"title": "Plain", "body": "b", "date": "2026-11-02", "time": "10:00", "tags": [], "starred": False}]}))
    diary.ok("import", "jrnl", f)
    assert [e["title"] for e in diary.ok("ls", "--starred", "--json").json()] == ["Fav"]


def make_week(diary):
    for i, day in enumerate(["6 days ago", "5 days ago", "4 days ago", "3 days ago", "2 days ago", "yesterday", "today"]):
        diary.ok("new", f"Day {i}", "-m", f"Body of day {i}.\n\nSecond paragraph {i}.", "--date", day + " 9am")


def test_show_last_prints_each_entry_whole_oldest_first(diary):
    make_week(diary)
    out = diary.ok("show", "--last", "3").out
    assert [l for l in out.splitlines() if l.startswith("Day ")] == ["Day 4", "Day 5", "Day 6"]
    for i in (4, 5, 6):
        assert f"Body of day {i}." in out and f"Second paragraph {i}." in out
    assert "Day 3" not in out
    # Each entry is separated from the next by a blank line after its body.
    assert "Second paragraph 4.\n\nDay 5\n" in out


def test_show_from_yesterday_and_json(diary):
    make_week(diary)
    titles = [e["title"] for e in diary.ok("show", "--from", "yesterday", "--json").json()]
    assert titles == ["Day 5", "Day 6"]
    assert all("body" in e for e in diary.ok("show", "--from", "yesterday", "--json").json())
    # One ENTRY is the object it always was.
    assert diary.ok("show", "last", "--json").json()["title"] == "Day 6"
    # Several named: in the order named.
    two = diary.ok("show", "last", "yesterday", "--json").json()
    assert [e["title"] for e in two] == ["Day 6", "Day 5"]
    raw = diary.ok("show", "last", "yesterday", "--raw").out
    assert raw.count("---\ntitle:") == 2


def test_show_refuses_what_it_cannot_do(diary):
    make_week(diary)
    assert diary.run("show").rc == 2
    assert diary.run("show", "last", "--last", "2").rc == 2
    assert diary.run("show", "--last", "2", "--html").rc == 2
    r = diary.run("show", "--from", "tomorrow")
    assert r.rc == 1 and r.out == ""


def test_show_of_several_names_the_unreadable_one_and_fails(diary):
    make_week(diary)
    broken = diary.entries()[0]
    broken.write_text("---\ntitle: [unclosed\n---\nbody\n")
    r = diary.run("show", broken, "last")
    assert r.rc == 2, r
    assert "Day 6" in r.out
    assert broken.name in r.err and "not shown" in r.err


def test_mood_on_a_templates_own_scale_says_it_everywhere(diary):
    import csv
    import io
    diary.ok("new", "Evening", "--template", "emotion", "--set", "mood=7", "-m", "Calm.")
    diary.ok("new", "Plain", "--mood", "4", "-m", "x")
    md = diary.ok("export", "markdown").out
    assert "mood 7/10" in md and "7/5" not in md and "mood 4/5" in md
    assert "mood 7/10" in diary.ok("show", "--on", "today", "--template", "emotion").out
    rows = {r["title"]: r for r in csv.DictReader(io.StringIO(diary.ok("export", "csv").out))}
    assert (rows["Evening"]["mood"], rows["Evening"]["mood_scale"]) == ("7", "1-10")
    assert (rows["Plain"]["mood"], rows["Plain"]["mood_scale"]) == ("4", "1-5")
    assert "on the diary's scale 1–5" in diary.ok("stats").out
    assert diary.ok("stats", "--json").json()["mood"]["scale"] == "1-5"
    assert "mood_scale,1-5" in diary.ok("stats", "--csv").out


def test_a_typo_in_the_schedule_warns_where_it_is_not_needed(diary):
    with open(diary.path / "daybook.yml", "a") as f:
        f.write("schedule:\n  daily: {evry: weekdays}\n")
    # new and append write, with a warning naming daybook.yml and its line.
    r = diary.ok("new", "Still writes", "-m", "x")
    assert "warning" in r.err and "daybook.yml:" in r.err and "evry" in r.err
    diary.ok("append", "-m", "a note")
    assert len(diary.entries()) == 2
    assert diary.ok("ls").out.count("\n") == 2
    # The commands that need the schedule refuse, naming it.
    r = diary.run("due")
    assert r.rc == 2 and "daybook.yml:" in r.err and "evry" in r.err
    r = diary.run("check")
    assert r.rc != 0 and "evry" in r.out
