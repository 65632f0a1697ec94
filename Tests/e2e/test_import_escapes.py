"""An import never reads or writes outside what it was given: every escape attempt is refused, nothing imported."""
import json
import os
import zipfile


def dayone_export(tmp, photo, text="At the lake. ![](dayone-moment://P1)"):
    """A Day One journal with one photo record, a photos/ folder beside it, and a file outside to steal."""
    export = tmp / "export"
    (export / "photos").mkdir(parents=True)
    (export / "photos" / "good.jpeg").write_bytes(b"\xff\xd8real photo")
    (tmp / "Z").mkdir()
    (tmp / "Z" / "evil.jpeg").write_bytes(b"secret outside the export")
    journal = export / "Journal.json"
    journal.write_text(json.dumps({"entries": [
        {"creationDate": "2026-03-01T09:00:00Z", "text": text, "photos": [photo]}]}))
    return journal


def assert_refused(diary, r, *words):
    assert r.rc == 2, r
    assert "Journal.json" in r.err and "entries[0].photos[0]" in r.err, r
    for w in words:
        assert w in r.err, r
    assert "nothing was imported" in r.err, r
    assert diary.entries() == [], "an entry was written"
    assert diary.commits() == 1, "the import committed"


def test_dotdot_in_md5_is_refused_and_nothing_leaves_the_diary(diary, tmp_path):
    before = sorted(p.name for p in tmp_path.iterdir())
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": "../../Z/evil", "type": "jpeg"})
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "md5", "../../Z/evil")
    # No file was copied next to the diary or anywhere in it.
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before + ["export", "Z"])
    assert not list(diary.path.rglob("evil*"))
    # --dry-run reads and checks the same way.
    r = diary.run("import", "dayone", journal, "--dry-run")
    assert r.rc == 2 and "md5" in r.err, r


def test_deep_dotdot_would_write_beside_the_diary(diary, tmp_path):
    # From entries/2026/03/ID/ five levels up is beside the diary: the copy would land on Z/evil.jpeg.
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": "../../../../../Z/evil", "type": "jpeg"})
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "md5")
    assert sorted(p.name for p in (tmp_path / "Z").iterdir()) == ["evil.jpeg"]
    assert (tmp_path / "Z" / "evil.jpeg").read_bytes() == b"secret outside the export"


def test_absolute_path_in_md5_is_refused(diary, tmp_path):
    secret = tmp_path / "Z" / "evil"
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": str(secret), "type": "jpeg"})
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "md5", "absolute")


def test_absolute_path_in_type_is_refused(diary, tmp_path):
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": "good", "type": "/etc/passwd"})
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "type")


def test_nul_in_md5_is_refused(diary, tmp_path):
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": "good.jpeg\u0000", "type": "jpeg"})
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "md5", "NUL")


def test_slash_in_identifier_is_refused(diary, tmp_path):
    journal = dayone_export(tmp_path, {"identifier": "../P1", "md5": "good", "type": "jpeg"})
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "identifier")


def test_symlink_in_the_export_pointing_outside_is_refused(diary, tmp_path):
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": "stolen", "type": "jpeg"})
    os.symlink(tmp_path / "Z" / "evil.jpeg", journal.parent / "photos" / "stolen.jpeg")
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "outside the export")
    assert not [p for p in diary.path.rglob("*") if p.is_file() and b"secret" in p.read_bytes()]


def test_symlinked_photos_folder_pointing_outside_is_refused(diary, tmp_path):
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": "evil", "type": "jpeg"})
    os.rename(journal.parent / "photos", tmp_path / "elsewhere")
    os.symlink(tmp_path / "Z", journal.parent / "photos")
    r = diary.run("import", "dayone", journal)
    assert_refused(diary, r, "outside the export")


def test_a_good_photo_and_a_link_inside_the_export_still_import(diary, tmp_path):
    journal = dayone_export(tmp_path, {"identifier": "P1", "md5": "linked", "type": "jpeg"})
    os.symlink("good.jpeg", journal.parent / "photos" / "linked.jpeg")
    r = diary.ok("import", "dayone", journal)
    [entry] = diary.entries()
    copied = entry.with_suffix("") / "linked.jpeg"
    assert copied.read_bytes() == b"\xff\xd8real photo"
    assert "linked.jpeg" in entry.read_text()


def test_zip_with_a_bad_md5_is_refused(diary, tmp_path):
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("Journal.json", json.dumps({"entries": [
            {"creationDate": "2026-03-01T09:00:00Z", "text": "x",
             "photos": [{"identifier": "P1", "md5": "../../../../etc/hostname", "type": "jpeg"}]}]}))
        z.writestr("photos/a.jpeg", b"a")
    r = diary.run("import", "dayone", archive)
    assert r.rc == 2 and "entries[0].photos[0]" in r.err and "md5" in r.err, r
    assert diary.entries() == []


def test_markdown_folder_with_a_link_leading_outside_is_refused(diary, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "2026-03-01.md").write_text("A day.\n")
    (tmp_path / "private.md").write_text("Not for the diary.\n")
    os.symlink(tmp_path / "private.md", notes / "2026-03-02.md")
    r = diary.run("import", "markdown", notes)
    assert r.rc == 2 and "2026-03-02.md" in r.err and "outside" in r.err, r
    assert diary.entries() == []
    assert diary.commits() == 1


def test_template_name_that_is_a_path_is_refused(diary, tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps({"date": "2026-03-01T09:00:00+01:00", "body": "x\n", "template": "../../../etc/passwd"}) + "\n")
    r = diary.run("import", "jsonl", f)
    assert r.rc == 2 and "line 1" in r.err and "template" in r.err, r
    assert diary.entries() == []
    notes = tmp_path / "md"
    notes.mkdir()
    (notes / "2026-03-01.md").write_text("---\ntemplate: /etc/passwd\n---\nx\n")
    r = diary.run("import", "markdown", notes)
    assert r.rc == 2 and "2026-03-01.md" in r.err and "template" in r.err, r
    assert diary.entries() == []
