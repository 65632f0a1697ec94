"""An ENTRY that could be an entry whose front matter does not parse is refused, never another entry
(issue 39): `title: Newest: broken` typed by hand in the newest entry made `show last` print the one
before it, and `edit last`, `tag add last`, `append last` change that older entry."""
import pytest

BROKEN_LINE = 2


@pytest.fixture
def broken(diary, tmp_path):
    diary.ok("new", "Older", "-m", "The older entry.", "--date", "2026-11-20 09:00")
    diary.ok("new", "Newest", "-m", "The newest entry.", "--date", "2026-11-21 10:00")
    newest = next(p for p in diary.entries() if "newest" in p.name)
    text = newest.read_text()
    newest.write_text(text.replace("title: Newest\n", "title: Newest: broken\n"))
    older = next(p for p in diary.entries() if "older" in p.name)
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "sketch.inkml").write_text(
        '<ink xmlns="http://www.w3.org/2003/InkML"><trace>10 10, 20 20, 30 25</trace></ink>\n')
    return newest, older


COMMANDS = [
    ["show", "{ref}"],
    ["show", "--raw", "{ref}"],
    ["edit", "{ref}"],
    ["tag", "add", "{ref}", "fromcli"],
    ["tag", "rm", "{ref}", "fieldwork"],
    ["append", "{ref}", "-m", "appended words"],
    ["attach", "{ref}", "{tmp}/photo.png"],
    ["code", "add", "{ref}", "trust", "--quote", "older"],
    ["code", "rm", "{ref}", "trust"],
    ["ink", "add", "{ref}", "{tmp}/sketch.inkml"],
    ["ink", "ls", "{ref}"],
    ["ink", "render", "{ref}", "-o", "{tmp}/out.svg"],
    ["links", "{ref}"],
    ["log", "{ref}"],
    ["rm", "{ref}"],
]


@pytest.mark.parametrize("ref", ["last", "2026-11-21", "today"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]).replace("{ref}", "ENTRY"))
def test_a_reference_that_may_be_a_broken_entry_stops(diary, broken, tmp_path, command, ref):
    newest, older = broken
    before = {p: p.read_bytes() for p in diary.entries()}
    commits = diary.commits()
    args = [a.format(ref=ref, tmp=tmp_path) for a in command]
    r = diary.run(*args, env={"DAYBOOK_NOW": "2026-11-21T18:00:00+00:00", "EDITOR": "true", "VISUAL": "true"})
    assert r.rc != 0, r
    assert f"{newest.name}:{BROKEN_LINE}:" in r.err, r
    assert "does not parse" in r.err, r
    assert "The older entry." not in r.out, r
    assert {p: p.read_bytes() for p in diary.entries()} == before, "no entry was changed"
    # The outside edit may be committed as such, but no command of daybook's ran on an entry.
    added = diary.commits() - commits
    messages = diary.git("log", "--format=%s", f"-{added}").splitlines() if added else []
    assert all(m.startswith("edit outside daybook") for m in messages), messages

def test_the_entry_before_is_still_reached_by_its_own_name(diary, broken):
    _, older = broken
    r = diary.ok("show", "--raw", older.stem)
    assert "The older entry." in r.out
    # A day with no broken entry is answered as before.
    assert "The older entry." in diary.ok("show", "--raw", "2026-11-20").out


def test_a_broken_entry_older_than_the_newest_does_not_stop_last(diary):
    diary.ok("new", "Old", "-m", "old words", "--date", "2026-11-01 09:00")
    diary.ok("new", "New", "-m", "new words", "--date", "2026-11-21 10:00")
    old = next(p for p in diary.entries() if "-old" in p.name)
    old.write_text(old.read_text().replace("title: Old\n", "title: Old: broken\n"))
    assert "new words" in diary.ok("show", "--raw", "last").out


def test_a_broken_entry_whose_name_has_no_date_stops_last(diary):
    diary.ok("new", "Dated", "-m", "dated words", "--date", "2026-11-21 10:00")
    (diary.path / "entries/2026/11/notes.md").write_text("---\ntitle: [unclosed\n---\nwords\n")
    r = diary.run("show", "last")
    assert r.rc == 2 and "notes.md" in r.err and "does not parse" in r.err, r
