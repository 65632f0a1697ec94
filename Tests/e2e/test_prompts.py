"""{{prompt}} on the built binary: one prompt a day from prompts.md (or the built-ins), and check's warnings."""
import datetime
import re

EPOCH = datetime.date(1970, 1, 1)


def prompt_of(diary, day, *extra):
    before = set(diary.entries())
    diary.ok("new", "--template", "daily", "--no-edit", *extra, env={"DAYBOOK_NOW": f"{day.isoformat()}T09:00:00+01:00"})
    (path,) = set(diary.entries()) - before
    m = re.search(r"^## A question for today\n> (.+)$", path.read_text(), re.M)
    assert m, path.read_text()
    return m.group(1)


def first_day_of_cycle(n, near=datetime.date(2026, 11, 23)):
    return near - datetime.timedelta(days=(near - EPOCH).days % n)


def test_built_in_prompts_one_a_day(diary):
    day = datetime.date(2026, 11, 23)
    days = [day + datetime.timedelta(days=k) for k in range(4)]
    prompts = [prompt_of(diary, d) for d in days]
    assert len(set(prompts)) == 4, prompts
    assert all(p.endswith("?") for p in prompts), prompts
    # Later the same day: the same prompt.
    diary.ok("new", "--template", "daily", "--no-edit", "Evening", env={"DAYBOOK_NOW": "2026-11-23T22:30:00+01:00"})
    evening = [p for p in diary.entries() if p.name.endswith("evening.md")]
    assert evening and f"> {prompts[0]}\n" in evening[0].read_text()


def test_prompts_md_rotates_without_repeats(diary):
    (diary.path / "prompts.md").write_text("# My prompts\n\n- Alpha?\n- Beta?\n\n## daily\n- Gamma?\n\n## memo\n- Only for memos?\n")
    start = first_day_of_cycle(3)
    first = [prompt_of(diary, start + datetime.timedelta(days=k)) for k in range(3)]
    assert sorted(first) == ["Alpha?", "Beta?", "Gamma?"], first
    second = [prompt_of(diary, start + datetime.timedelta(days=3 + k)) for k in range(3)]
    assert sorted(second) == ["Alpha?", "Beta?", "Gamma?"], second
    assert first[-1] != second[0]
    # Another machine (another clone, no state) agrees on the day's prompt.
    assert prompt_of(diary, start) == first[0]


def test_check_warns_about_a_heading_naming_no_template(diary):
    (diary.path / "prompts.md").write_text("- Alpha?\n\n## dailly\n- Lost?\n")
    r = diary.run("check")
    assert r.rc == 1 and "prompts.md:3: warning: `## dailly` names no template" in r.out, r
    # The prompts under it are not used; the general one is.
    assert prompt_of(diary, datetime.date(2026, 11, 23)) == "Alpha?"


def test_a_prompts_md_that_is_not_utf8_is_a_warning_not_a_crash(diary):
    (diary.path / "prompts.md").write_bytes(b"- Alpha?\n- Caf\xe9?\n")
    r = diary.run("check")
    assert r.rc == 1 and "prompts.md:2:6: warning: the file is not UTF-8 (byte 0xE9)" in r.out, r
    # `new` still works, with the built-in prompts.
    assert prompt_of(diary, datetime.date(2026, 11, 23)) not in ("Alpha?",)
