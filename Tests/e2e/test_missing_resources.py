"""A binary copied without its resource folder says the built-in templates are missing and where it
looked, instead of "no `daily` template" (issue 39)."""
import shutil


def test_a_copied_binary_names_the_missing_resources(diary, tmp_path):
    diary.init()
    alone = tmp_path / "bin" / "daybook"
    alone.parent.mkdir()
    shutil.copy(diary.bin, alone)
    diary.bin = str(alone)
    r = diary.run("new", "--template", "daily", "--no-edit", "Morning")
    assert r.rc == 2, r
    assert "built-in templates are missing" in r.err and str(alone.parent / "daybook_DaybookCore.resources") in r.err, r
    assert diary.entries() == [], "nothing was written"
    r = diary.run("template", "ls")
    assert r.rc == 2 and "built-in templates are missing" in r.err, r
