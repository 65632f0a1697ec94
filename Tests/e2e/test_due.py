"""Schedules and `daybook due` (issue 18, "Schedules, prompts and reminders")."""

NOW = {"DAYBOOK_NOW": "2026-11-23T12:00:00+01:00"}


def scheduled(diary, rules):
    diary.init()
    with open(diary.path / "daybook.yml", "a") as f:
        f.write("schedule:\n" + rules)


def test_due_says_what_is_owed_since_when_and_exits_1_when_overdue(diary):
    scheduled(diary, "  daily: {every: weekdays, from: 2026-11-16}\n  memo: {after: {tag: fieldwork, within: 24h}}\n")
    for d in ("2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"):
        diary.ok("new", "--template", "daily", "--no-edit", "--date", f"{d} 20:00", "Log", "-m", "x", env=NOW)
    r = diary.run("due", env=NOW)
    assert r.rc == 1, r
    lines = r.out.splitlines()
    assert lines[0].startswith("daily") and "overdue since 2026-11-20 (1 day missed)" in lines[0] and "due today" in lines[0]
    assert "kept 4/5 (80 %)" in lines[0]
    assert lines[1].startswith("memo") and "nothing owed" in lines[1]
    # Friday is written: today is still due, nothing overdue (exit 0).
    diary.ok("new", "--template", "daily", "--no-edit", "--date", "2026-11-20 21:00", "Log", "-m", "x", env=NOW)
    r = diary.ok("due", env=NOW)
    assert "due today" in r.out and "overdue" not in r.out
    # A fieldwork session owes a memo within a day.
    diary.ok("new", "Clinic", "-t", "fieldwork", "--date", "2026-11-21 22:00", "-m", "x", env=NOW)
    r = diary.run("due", "--json", env=NOW)
    assert r.rc == 1
    memo = [o for o in r.json() if o["template"] == "memo"][0]
    assert memo["overdue"] is True and memo["after"][0]["by"] == "2026-11-22T22:00:00+01:00"
    assert "after 2026-11-21-2200-clinic" in diary.run("due", env=NOW).out
    diary.ok("new", "--template", "memo", "--no-edit", "--date", "2026-11-22 09:00", "Memo", "-m", "x", env=NOW)
    assert diary.ok("due", env=NOW).rc == 0


def test_a_bad_rule_is_an_error_with_its_line(diary):
    scheduled(diary, "  daily: weekdays\n  planning: {nth: sixth monday}\n")
    lines = (diary.path / "daybook.yml").read_text().splitlines()
    line = next(i + 1 for i, l in enumerate(lines) if "sixth" in l)
    r = diary.run("due")
    assert r.rc == 2, r
    assert f"daybook.yml:{line}:" in r.err and "nth must be" in r.err, r.err
    # Issue 43: a command that does not need the schedule warns with the same line and goes on.
    r = diary.run("ls")
    assert r.rc == 1, r  # nothing to list, not an error
    assert f"daybook.yml:{line}:" in r.err and "warning" in r.err and "nth must be" in r.err, r.err


def test_a_schedule_for_a_template_that_does_not_exist_is_named(diary):
    scheduled(diary, "  dialy: weekdays\n")
    r = diary.run("due", env=NOW)
    assert "there is no template `dialy`" in r.err and "daybook.yml:" in r.err


def test_no_schedule_owes_nothing(diary):
    diary.init()
    r = diary.ok("due")
    assert "no schedule" in r.err
    assert diary.ok("due", "--json").json() == []


def test_streak_and_stats_report_adherence_per_template(diary):
    # Planning on the first Monday of each month (2 November was one); weekly reviews on Fridays.
    scheduled(diary, "  planning: {nth: first monday, from: 2026-09-01}\n  weekly-review: {every: [fri], from: 2026-11-01}\n")
    for d in ("2026-09-07", "2026-10-05", "2026-11-02"):
        diary.ok("new", "--template", "planning", "--no-edit", "--date", f"{d} 09:00", "Plan", "--set", "horizon=month", "-m", "x", env=NOW)
    for d in ("2026-11-06", "2026-11-20"):
        diary.ok("new", "--template", "weekly-review", "--no-edit", "--date", f"{d} 17:00", "Review", "-m", "x", env=NOW)
    # Three owed Mondays kept in a row: the streak runs across the months between them.
    s = diary.ok("streak", "--template", "planning", "--json", env=NOW).json()
    assert s["goal"] == "schedule of planning" and s["current"]["days"] == 3 and s["today_met"] is True
    # Fridays 6, 13 and 20 November: the 13th was missed, so the current run is the 20th alone.
    s = diary.ok("streak", "--template", "weekly-review", "--json", env=NOW).json()
    assert s["current"] == {"days": 1, "start": "2026-11-20", "end": "2026-11-20"}
    assert s["adherence"] == {"days": 30, "owed": 3, "kept": 2}
    text = diary.ok("streak", "--template", "weekly-review", env=NOW).out
    assert "schedule of weekly-review" in text and "kept     2 of 3 days owed in the last 30 (66 %)" in text
    # stats: from the first entry selected (7 September) to today.
    st = diary.ok("stats", "--json", env=NOW).json()
    assert st["schedule"] == [{"template": "planning", "owed": 3, "kept": 3}, {"template": "weekly-review", "owed": 3, "kept": 2}]
    assert "planning 3/3 (100 %), weekly-review 2/3 (66 %)" in diary.ok("stats", env=NOW).out
