"""The first thing a new user does: make a diary, write an entry, find it in git."""
import stat


def test_first_entry_is_one_commit_in_a_private_diary(diary):
    before = diary.commits()
    r = diary.ok("new", "First entry", "-m", "Hello, diary.")
    path = diary.path.parent / r.out.strip()  # printed relative to the working folder
    assert path.read_text().endswith("Hello, diary.\n")
    assert diary.commits() == before + 1
    assert diary.git("log", "-1", "--format=%s").strip() == "new: First entry"
    assert stat.S_IMODE(diary.path.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
