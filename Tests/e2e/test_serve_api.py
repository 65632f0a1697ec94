"""Every route of `daybook serve` over HTTP, with the input a page sends and the input it must refuse.

Each test reads the files and the git history afterwards: a refused request changes nothing, an
accepted one writes what the CLI would write, with the CLI's commit message.
"""
import json
import os
import re
import subprocess

import pytest

from serving import Served

BODY = "The nurse showed me the tablet. The login failed again, and she restarted it.\n"


@pytest.fixture
def served(diary):
    diary.ok("new", "Login trouble", "-t", "fieldwork", "-m", BODY)
    diary.ok("code", "define", "frustration", "--color", "#d1242f")
    s = Served(diary)
    yield s
    s.stop()


def entry(diary):
    (path,) = diary.entries()
    return path


def call(served, method, path, value=None, raw=None):
    """A JSON request as app.js sends it; returns (status, decoded JSON or None)."""
    body = raw if raw is not None else (json.dumps(value) if value is not None else None)
    status, _, data = served.request(method, path, body=body, headers={"Content-Type": "application/json"})
    try:
        return status, json.loads(data)
    except ValueError:
        return status, None


def unchanged(diary, before_commits, before_files):
    assert diary.commits() == before_commits
    assert {p: p.read_bytes() for p in (diary.path / "entries").rglob("*") if p.is_file()} == before_files


def snapshot(diary):
    return diary.commits(), {p: p.read_bytes() for p in (diary.path / "entries").rglob("*") if p.is_file()}


def last_message(diary):
    return diary.git("log", "-1", "--format=%s").strip()


def test_entries_are_listed_and_read_with_their_version(served, diary):
    status, listed = call(served, "GET", "/api/entries")
    assert status == 200
    assert [e["title"] for e in listed] == ["Login trouble"]
    eid = entry(diary).stem
    status, one = call(served, "GET", f"/api/entries/{eid}")
    assert status == 200
    assert one["body"] == BODY and one["tags"] == ["fieldwork"]
    # The version is git's blob id of the file's bytes, so a page can tell a change on disk.
    blob = subprocess.run(["git", "hash-object", str(entry(diary))], capture_output=True, text=True).stdout.strip()
    assert one["version"] == blob
    assert call(served, "GET", f"/api/entries/{eid}/version")[1] == {"version": blob}
    assert call(served, "GET", "/api/entries/2019-01-01-0000-none")[0] == 404


def test_a_new_entry_is_written_and_committed_as_new_does(served, diary):
    status, made = call(served, "POST", "/api/entries", {"title": "Ward round", "body": "Quiet night.\n",
                                                         "tags": ["fieldwork", "night"]})
    assert status == 201, made
    text = (diary.path / made["path"]).read_text()
    assert "title: Ward round" in text and "Quiet night." in text and "night" in text
    assert last_message(diary) == "new: Ward round"


@pytest.mark.parametrize("raw", [
    "{", "[1, 2]", "\"text\"", "null", "{\"title\": 5}", "{\"tags\": \"fieldwork\"}",
    "{\"fields\": {\"mood\": {\"deep\": 1}}}", "[" * 100000, "{\"title\": \"\\ud800\"}",
])
def test_malformed_bodies_are_refused_and_nothing_is_written(served, diary, raw):
    before = snapshot(diary)
    status, answer = call(served, "POST", "/api/entries", raw=raw)
    assert status in (400, 422), (raw[:20], status)
    unchanged(diary, *before)
    # The server is still there.
    assert call(served, "GET", "/api/entries")[0] == 200


def test_fields_that_do_not_fit_the_template_are_refused_at_the_field(served, diary):
    before = snapshot(diary)
    status, answer = call(served, "POST", "/api/entries", {"template": "emotion", "title": "Bad",
                                                          "fields": {"mood": "99"}})
    assert status == 422
    assert "mood" in answer["fields"], answer
    unchanged(diary, *before)


def test_an_edit_with_an_old_version_is_refused_and_a_current_one_changes_only_what_changed(served, diary):
    eid = entry(diary).stem
    _, one = call(served, "GET", f"/api/entries/{eid}")
    before = snapshot(diary)
    status, answer = call(served, "PUT", f"/api/entries/{eid}", {"version": "0" * 40, "title": "Other"})
    assert status == 409 and answer["version"] == one["version"]
    unchanged(diary, *before)
    original = entry(diary).read_text()
    status, answer = call(served, "PUT", f"/api/entries/{eid}", {"version": one["version"], "title": "Login trouble, again"})
    assert status == 200 and answer["changed"] is True
    after = entry(diary).read_text()
    diff = [(a, b) for a, b in zip(original.splitlines(), after.splitlines()) if a != b]
    assert diff == [("title: Login trouble", "title: Login trouble, again")]
    assert last_message(diary) == "edit: Login trouble, again"
    assert call(served, "PUT", f"/api/entries/{eid}", {"title": "No version"})[0] == 400


def test_coding_a_quote_then_its_memo_then_removing_it(served, diary):
    eid = entry(diary).stem
    status, answer = call(served, "POST", f"/api/entries/{eid}/codings",
                          {"code": "frustration", "selected": "login failed", "index": 1})
    assert status == 201, answer
    assert re.search(r'quote: "?login failed"?\n', entry(diary).read_text())
    assert last_message(diary) == 'code add: frustration on Login trouble: "login failed"'
    commits = diary.commits()
    # The same coding again changes nothing and makes no commit.
    assert call(served, "POST", f"/api/entries/{eid}/codings", {"code": "frustration", "quote": "login failed"})[0] == 200
    assert diary.commits() == commits
    status, _ = call(served, "PATCH", f"/api/entries/{eid}/codings", {"code": "frustration", "quote": "login failed",
                                                                     "memo": "third time"})
    assert status == 200 and re.search(r'memo: "?third time"?\n', entry(diary).read_text())
    status, answer = call(served, "DELETE", f"/api/entries/{eid}/codings", {"code": "frustration", "quote": "login failed"})
    assert status == 200 and answer == {"removed": 1}
    assert "login failed" not in entry(diary).read_text().split("---")[1]


def test_a_quote_that_is_not_in_the_entry_and_a_memo_for_no_coding_are_refused(served, diary):
    eid = entry(diary).stem
    before = snapshot(diary)
    status, answer = call(served, "POST", f"/api/entries/{eid}/codings", {"code": "frustration", "quote": "not there"})
    assert status == 422 and "not there" in answer["error"]
    status, _ = call(served, "PATCH", f"/api/entries/{eid}/codings", {"code": "frustration", "quote": "login failed", "memo": "m"})
    assert status == 422
    assert call(served, "POST", f"/api/entries/{eid}/codings", {"quote": "login failed"})[0] == 400
    unchanged(diary, *before)


def test_a_strict_codebook_refuses_a_new_code(served, diary):
    config = diary.path / "daybook.yml"
    config.write_text(config.read_text().replace("codebook: {strict: false}", "") + "codebook:\n  strict: true\n")
    diary.git("commit", "-qam", "strict")
    before = snapshot(diary)
    status, answer = call(served, "POST", f"/api/entries/{entry(diary).stem}/codings", {"code": "frustation", "quote": "login failed"})
    assert status == 422 and "frustration" in answer["error"]  # the close name is offered
    unchanged(diary, *before)


def stroke(**point):
    p = {"x": 10, "y": 20, "t": 0, "force": 0.5}
    p.update(point)
    return {"format": "daybook-strokes", "version": 1, "channels": ["x", "y", "t", "force"], "strokes": [
        {"tool": "pen", "color": "#1f2328", "width": 2, "start": "2026-11-21T10:00:00.000+01:00",
         "points": [[p["x"], p["y"], p["t"], p["force"]], [30, 40, 16, 0.6]]}]}


@pytest.mark.parametrize("bad", [
    json.dumps(stroke(force=2)), json.dumps(stroke()).replace("0.5", "NaN"), json.dumps(stroke(x="a")),
    json.dumps({"format": "daybook-strokes", "version": 1, "strokes": []}), "{", "",
])
def test_strokes_that_do_not_fit_the_format_are_refused_and_nothing_is_written(served, diary, bad):
    before = snapshot(diary)
    status, _ = call(served, "POST", f"/api/entries/{entry(diary).stem}/strokes", raw=bad)
    assert status in (400, 422), bad
    unchanged(diary, *before)


def test_a_stroke_is_added_read_back_and_erased(served, diary):
    eid = entry(diary).stem
    assert call(served, "GET", f"/api/entries/{eid}/strokes")[1]["strokes"] == []
    status, answer = call(served, "POST", f"/api/entries/{eid}/strokes", stroke())
    assert status == 201 and answer == {"added": 1}
    strokes = call(served, "GET", f"/api/entries/{eid}/strokes")[1]["strokes"]
    assert strokes[0]["points"][0][:2] == [10, 20] and strokes[0]["points"][0][3] == 0.5
    assert call(served, "DELETE", f"/api/entries/{eid}/strokes/0")[0] == 400
    assert call(served, "DELETE", f"/api/entries/{eid}/strokes/x")[0] == 400
    assert call(served, "DELETE", f"/api/entries/{eid}/strokes/1")[0] == 200
    assert call(served, "GET", f"/api/entries/{eid}/strokes")[1]["strokes"] == []


def test_search_is_fixed_text_without_case(served):
    status, found = call(served, "GET", "/api/search?q=LOGIN%20FAILED")
    assert status == 200 and len(found) == 1 and "login failed" in found[0]["lines"][0]["text"]
    # Regular-expression characters are text: no error, no match everywhere.
    assert call(served, "GET", "/api/search?q=.*")[1] == []
    assert call(served, "GET", "/api/search?q=(")[1] == []
    assert call(served, "GET", "/api/search?q=")[1] == []


def test_search_gives_the_newest_matches_first_and_stops_at_a_page(served, diary):
    """Search as you type reads no further than the page shows: with a word in more entries than
    that, the newest come first and the list ends at 50, as the CLI's own grep finds them."""
    for day in range(1, 61):
        entry_text = f"---\ntitle: Round {day}\ndate: 2019-03-{(day - 1) % 28 + 1:02d}T{(day - 1) // 28 + 8:02d}:00:00+01:00\n---\nThe tablet again.\n"
        folder = diary.path / "entries" / "2019" / "03"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"2019-03-{(day - 1) % 28 + 1:02d}-{(day - 1) // 28 + 8:02d}00-round-{day}.md").write_text(entry_text)
    status, found = call(served, "GET", "/api/search?q=tablet")
    assert status == 200
    every = diary.ok("grep", "-i", "-l", "tablet").out.split()
    ids = [os.path.basename(p)[:-3] for p in every]
    assert len(ids) == 61 and len(found) == 50
    assert [f["id"] for f in found] == sorted(ids, reverse=True)[:50]
    assert not found[0]["id"].startswith("2019-")  # the newest: the entry of the fixture, written today


def test_the_state_changes_when_the_cli_commits(served, diary):
    _, before = call(served, "GET", "/api/state")
    diary.ok("new", "From the shell", "-m", "x")
    _, after = call(served, "GET", "/api/state")
    assert after != before


def test_raw_html_in_an_entry_is_shown_as_text(diary):
    diary.ok("new", "Scripted", "-m", "<script>alert(1)</script> <img src=x onerror=alert(2)>\n")
    eid = diary.entries()[0].stem
    s = Served(diary)
    try:
        page = s.request("GET", f"/entries/{eid}")[2].decode()
        assert "<script>alert(1)" not in page and "onerror=alert" not in page.replace("onerror=alert(2)&gt;", "")
        assert "&lt;script&gt;alert(1)" in page
    finally:
        s.stop()
    s = Served(diary, "--unsafe-html")
    try:
        assert "<script>alert(1)</script>" in s.request("GET", f"/entries/{eid}")[2].decode()
    finally:
        s.stop()


def test_pages_render_for_the_index_an_entry_its_form_and_a_template(served, diary):
    eid = entry(diary).stem
    status, headers, page = served.request("GET", "/?tag=fieldwork")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b"Login trouble" in page
    assert b"Login trouble" not in served.request("GET", "/?tag=other")[2]
    page = served.request("GET", f"/entries/{eid}")[2].decode()
    assert "login failed again" in page and "frustration" in page
    form = served.request("GET", f"/entries/{eid}/edit")[2].decode()
    assert "<textarea" in form and "The nurse showed me the tablet." in form
    form = served.request("GET", "/new?template=emotion")[2].decode()
    assert 'type="range"' in form
    assert served.request("GET", "/new?template=no-such-template")[0] in (404, 422)
    assert served.request("GET", "/no/such/page")[0] == 404


def test_attachments_are_served_from_the_entry_folder_only(served, diary):
    eid = entry(diary).stem
    folder = entry(diary).with_suffix("")
    folder.mkdir()
    (folder / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    (folder / "notes.html").write_text("<script>alert(1)</script>")
    os.symlink(diary.path / "daybook.yml", folder / "config.png")
    status, headers, data = served.request("GET", f"/entries/{eid}/photo.png")
    assert status == 200 and headers["Content-Type"] == "image/png" and data.startswith(b"\x89PNG")
    status, headers, _ = served.request("GET", f"/entries/{eid}/notes.html")
    assert status == 200 and headers["Content-Disposition"] == "attachment"
    assert headers["Content-Type"] == "application/octet-stream"
    for name in ("config.png", "..%2F..%2F..%2Fdaybook.yml", ".git", "%2Fetc%2Fpasswd"):
        status, _, data = served.request("GET", f"/entries/{eid}/{name}")
        assert status in ((403,) if name == "config.png" else (400, 404)), name
        assert b"timezone" not in data and b"root:" not in data


def test_an_attachment_folder_that_links_out_of_the_diary_is_not_followed(served, diary, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes(b"\x89PNG secret")
    os.symlink(outside, entry(diary).with_suffix(""))
    status, _, data = served.request("GET", f"/entries/{entry(diary).stem}/secret.png")
    assert status == 403 and b"secret" not in data and b"is a symbolic link" in data


def test_a_broken_daybook_yml_is_named_with_its_line_until_it_is_fixed(served, diary):
    config = diary.path / "daybook.yml"
    good = config.read_text()
    config.write_text(good + "moood: 3\n")
    status, _, body = served.request("GET", "/api/entries")
    assert status == 422
    assert f"daybook.yml:{len(good.splitlines()) + 1}:" in body.decode() and "moood" in body.decode()
    config.write_text(good)
    assert served.request("GET", "/api/entries")[0] == 200


def test_changes_made_outside_are_seen_at_the_next_request(served, diary):
    """The server keeps the entries it walked; an edit in place, a new month folder and a removal
    made by another program show at the next request all the same."""
    titles = lambda: [e["title"] for e in call(served, "GET", "/api/entries")[1]]
    assert titles() == ["Login trouble"]
    path = entry(diary)
    with open(path, "r+") as f:  # in place, as an editor that keeps the inode writes
        text = f.read()
        f.seek(0)
        f.write(text.replace("title: Login trouble", "title: Login bother"))
    assert titles() == ["Login bother"]
    month = diary.path / "entries" / "2019" / "03"
    month.mkdir(parents=True)
    assert b"2019" not in served.request("GET", "/")[2]
    (month / "2019-03-01-0900-old-note.md").write_text("---\ntitle: Old note\ndate: 2019-03-01T09:00:00+01:00\n---\nx\n")
    assert titles() == ["Old note", "Login bother"]
    assert b"Old note" in served.request("GET", "/")[2]
    (month / "2019-03-01-0900-old-note.md").unlink()
    assert titles() == ["Login bother"]


def test_a_link_to_another_entry_leads_to_its_page_in_the_app(served, diary):
    first = entry(diary).stem
    diary.ok("new", "Follow-up", "-m", f"As in [the login]({first}.md).\n")
    second = next(p.stem for p in diary.entries() if p.stem != first)
    page = served.request("GET", f"/entries/{second}")[2].decode()
    assert f'href="/entries/{first}">the login<' in page


def test_entries_saved_a_minute_apart_get_their_own_times(diary, tmp_path):
    """The server asks the clock at each request (issue 41): it was started before both saves."""
    clock = tmp_path / "clock"
    clock.write_text("2026-11-21T12:00:00+01:00\n")
    saved_env = dict(diary.env)
    diary.env.update({"DAYBOOK_NOW": "", "DAYBOOK_NOW_FILE": str(clock)})
    s = Served(diary)
    try:
        clock.write_text("2026-11-21T12:05:00+01:00\n")
        first = call(s, "POST", "/api/entries", {"title": "First", "body": "One.\n"})
        clock.write_text("2026-11-21T12:06:00+01:00\n")
        second = call(s, "POST", "/api/entries", {"title": "Second", "body": "Two.\n"})
    finally:
        s.stop()
        diary.env.clear()
        diary.env.update(saved_env)
    assert first[0] == 201 and second[0] == 201
    assert first[1]["id"].startswith("2026-11-21-1205") and second[1]["id"].startswith("2026-11-21-1206")
    assert "date: 2026-11-21T12:06:00+01:00" in (diary.path / second[1]["path"]).read_text()


def test_a_server_left_running_writes_the_time_of_each_request(diary, tmp_path):
    """Issue 41: five entries saved minutes apart with an empty "When" all got the server's start
    time (`…-0553`, `-2`, `-3`), every `coded:` too, and "today" and "yesterday" were the start
    day's. Here the server starts on the 21st; the clock then moves on while it runs."""
    clock = tmp_path / "clock"
    clock.write_text("2026-11-21T05:53:00+01:00\n")
    saved_env = dict(diary.env)
    diary.env.update({"DAYBOOK_NOW": "", "DAYBOOK_NOW_FILE": str(clock)})
    s = Served(diary)
    try:
        clock.write_text("2026-11-22T09:15:00+01:00\n")
        first = call(s, "POST", "/api/entries", {"title": "Ward", "date": "", "body": "The nurse.\n"})
        clock.write_text("2026-11-22T09:16:00+01:00\n")
        second = call(s, "POST", "/api/entries", {"title": "Ward", "date": " ", "body": "The doctor.\n"})
        coded = call(s, "POST", f"/api/entries/{first[1]['id']}/codings", {"code": "care", "quote": "nurse"})
        clock.write_text("2026-11-23T08:00:00+01:00\n")
        third = call(s, "POST", "/api/entries", {"title": "Evening", "date": "yesterday 18:30", "body": "Late.\n"})
        fourth = call(s, "POST", "/api/entries", {"title": "Morning", "date": "today 07:45", "body": "Early.\n"})
        yesterday = s.request("GET", "/?on=yesterday")[2].decode()
        today = s.request("GET", "/?from=today")[2].decode()
    finally:
        s.stop()
        diary.env.clear()
        diary.env.update(saved_env)
    assert [r[0] for r in (first, second, coded, third, fourth)] == [201, 201, 201, 201, 201], (first, second, coded, third, fourth)
    assert first[1]["id"] == "2026-11-22-0915-ward" and second[1]["id"] == "2026-11-22-0916-ward"
    assert "date: 2026-11-22T09:16:00+01:00\n" in (diary.path / second[1]["path"]).read_text()
    assert "2026-11-22T09:16:00+01:00" in (diary.path / first[1]["path"]).read_text().split("codes:", 1)[1]
    assert third[1]["id"] == "2026-11-22-1830-evening" and fourth[1]["id"] == "2026-11-23-0745-morning"
    assert "Evening" in yesterday and "Ward" in yesterday and "Morning" not in yesterday and "3 entries" in yesterday
    assert "Morning" in today and "Evening" not in today and "Ward" not in today and "1 entry" in today


def test_a_form_saved_after_the_cli_changed_the_entry_keeps_the_cli_change(served, diary):
    """The page loaded the entry, `tag add` committed a tag, the form saves a new title: both stay."""
    eid = entry(diary).stem
    _, one = call(served, "GET", f"/api/entries/{eid}")
    diary.ok("tag", "add", eid, "fromcli")
    status, answer = call(served, "PUT", f"/api/entries/{eid}", {"version": one["version"], "title": "Login trouble, again",
                                                                "tags": ["fieldwork"]})
    assert status == 200 and answer["kept"] == ["`tags`"], answer
    text = entry(diary).read_text()
    assert "title: Login trouble, again" in text and "fromcli" in text
    assert diary.git("show", f"HEAD:{entry(diary).relative_to(diary.path)}") == text
    # A change to the same key on both sides is refused, saying what would be lost.
    _, two = call(served, "GET", f"/api/entries/{eid}")
    diary.ok("append", eid, "-m", "From the shell.")
    before = snapshot(diary)
    status, answer = call(served, "PUT", f"/api/entries/{eid}", {"version": two["version"], "body": two["body"] + "From the page.\n"})
    assert status == 409 and "the body" in answer["error"]
    unchanged(diary, *before)
