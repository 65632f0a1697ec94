"""No route of `daybook serve` reads through a symbolic link, and no commit daybook makes adds one
(issue 41). Each link leads to a file outside the diary that stands for /etc/passwd: a route that
followed it would answer its bytes; each must refuse with 403 and name the link, and nothing of the
outside file may appear in any answer nor in any commit."""
import json
import os
import shutil
import subprocess

import pytest

from serving import Served

SECRET = b"root:x:0:0:SECRET-OUTSIDE:/root:/bin/bash\n"


@pytest.fixture
def outside(tmp_path):
    path = tmp_path / "passwd"
    path.write_bytes(SECRET)
    return path


@pytest.fixture
def served(diary):
    diary.ok("new", "Ward visit", "-m", "The nurse showed me the tablet.\n")
    s = Served(diary)
    yield s
    s.stop()


def the_entry(diary):
    (path,) = diary.entries()
    return path


def refused(served, method, path, body=None, link="", headers=None):
    h = {"Content-Type": "application/json"} if body is not None else {}
    status, _, data = served.request(method, path, body=body, headers=h)
    assert status == 403, (method, path, status, data)
    assert SECRET not in data and b"SECRET-OUTSIDE" not in data
    text = data.decode()
    assert "is a symbolic link" in text and link in text, text
    return text


def test_a_stroke_file_linked_out_of_the_diary_is_refused_not_served(served, diary, outside):
    entry = the_entry(diary)
    os.symlink(outside, entry.with_suffix(".strokes.json"))
    eid = entry.stem
    refused(served, "GET", f"/api/entries/{eid}/strokes", link=entry.stem + ".strokes.json")
    stroke = {"format": "daybook-strokes", "version": 1, "channels": ["x", "y", "t"],
              "strokes": [{"tool": "pen", "color": "#000000", "width": 2, "points": [[1, 2, 0], [3, 4, 8]]}]}
    before = diary.commits()
    status, _, data = served.request("POST", f"/api/entries/{eid}/strokes", body=json.dumps(stroke),
                                     headers={"Content-Type": "application/json"})
    assert status == 403 and b"is a symbolic link" in data and SECRET not in data
    assert outside.read_bytes() == SECRET  # not written through either
    # The entry itself still opens; its ink is not the outside file's.
    status, _, page = served.request("GET", f"/entries/{eid}")
    assert status == 200 and b"SECRET-OUTSIDE" not in page
    assert diary.commits() == before


def test_an_entry_reached_through_a_linked_month_folder_is_refused_on_every_route(served, diary, outside, tmp_path):
    entry = the_entry(diary)
    eid = entry.stem
    month = entry.parent
    moved = tmp_path / "elsewhere-month"
    shutil.move(str(month), moved)
    (moved / entry.name).write_text((moved / entry.name).read_text().replace("The nurse", "SECRET-OUTSIDE nurse"))
    os.symlink(moved, month)
    for path in (f"/entries/{eid}", f"/api/entries/{eid}", f"/api/entries/{eid}/version",
                 f"/api/entries/{eid}/strokes", f"/entries/{eid}/edit"):
        refused(served, "GET", path, link="entries/2026/11")
    version = "0" * 40
    refused(served, "PUT", f"/api/entries/{eid}", body=json.dumps({"version": version, "body": "x\n"}), link="entries/2026/11")
    refused(served, "POST", f"/api/entries/{eid}/codings", body=json.dumps({"code": "a", "quote": "nurse"}), link="entries/2026/11")


def test_a_linked_attachment_codebook_and_template_are_refused(served, diary, outside):
    entry = the_entry(diary)
    folder = entry.with_suffix("")
    folder.mkdir()
    os.symlink(outside, folder / "photo.png")
    refused(served, "GET", f"/entries/{entry.stem}/photo.png", link="photo.png")
    os.symlink(outside, diary.path / "codebook.yml")
    refused(served, "GET", "/api/codebook", link="codebook.yml")
    (diary.path / "templates").mkdir(exist_ok=True)
    os.symlink(outside, diary.path / "templates" / "visit.md")
    refused(served, "GET", "/new?template=visit", link="templates/visit.md")


def tree_modes(diary):
    return {line.split("\t", 1)[1]: line.split()[0] for line in diary.git("ls-tree", "-r", "HEAD").splitlines()}


def test_no_commit_of_daybook_adds_a_link_made_outside_and_it_says_so(diary, outside):
    """The defect: "edit outside daybook" committed the links (mode 120000), so they travelled to
    every clone. Now the CLI's commit (and so the server's, the same Change) leaves them out and warns
    on stderr, naming each, as `check` names links."""
    diary.ok("new", "Ward visit", "-m", "The nurse.\n")
    entry = the_entry(diary)
    os.symlink(outside, entry.with_suffix(".strokes.json"))
    folder = entry.with_suffix("")
    folder.mkdir()
    (folder / "photo.png").write_bytes(b"\x89PNG fake")
    os.symlink(outside, folder / "passwd.png")
    entry.write_text(entry.read_text().replace("The nurse.", "The nurse, by hand."))
    r = diary.ok("tag", "add", "last", "fieldwork")
    modes = tree_modes(diary)
    assert "120000" not in modes.values(), modes
    assert entry.with_suffix(".strokes.json").name not in " ".join(modes)
    assert any(p.endswith("photo.png") for p in modes) and not any(p.endswith("passwd.png") for p in modes)
    for name in (entry.stem + ".strokes.json", "passwd.png"):
        assert any(name in line and "symbolic link, left out of the commit" in line for line in r.err.splitlines()), r.err
    log = diary.git("log", "--format=%B", "-2")
    assert "edit outside daybook" in log and "strokes.json" not in log and "passwd.png" not in log
    assert "by hand" in diary.git("show", "HEAD~1:" + str(entry.relative_to(diary.path)))
    # `check` names the links too.
    r = diary.run("check")
    assert r.rc != 0 and "strokes.json" in r.out + r.err


def test_the_web_app_commits_no_link_either(served, diary, outside):
    entry = the_entry(diary)
    os.symlink(outside, entry.parent / "stray.md")
    stroke = {"format": "daybook-strokes", "version": 1, "channels": ["x", "y", "t"],
              "strokes": [{"tool": "pen", "color": "#000000", "width": 2, "points": [[1, 2, 0], [3, 4, 8]]}]}
    status, _, _ = served.request("POST", f"/api/entries/{entry.stem}/strokes", body=json.dumps(stroke),
                                  headers={"Content-Type": "application/json"})
    assert status == 201
    modes = tree_modes(diary)
    assert "120000" not in modes.values() and not any(p.endswith("stray.md") for p in modes)
    assert any(p.endswith(".strokes.json") for p in modes)
