"""`--where` compares dates and times of day (issue 47 item 6), on a generated semester's timetable."""
import datetime


def semester(diary):
    """Lectures on Mondays 09:15 in odd ISO weeks, labs on Thursdays 14:00 every week, none in the
    Christmas holidays; an exam on 2026-12-10 noted ahead of time. Returns what was written."""
    written = []
    day = datetime.date(2026, 11, 2)
    while day <= datetime.date(2027, 1, 15):
        holiday = datetime.date(2026, 12, 21) <= day <= datetime.date(2027, 1, 6)
        week = day.isocalendar()[1]
        if not holiday and ((day.weekday() == 0 and week % 2 == 1) or day.weekday() == 3):
            kind, start = ("lecture", "09:15") if day.weekday() == 0 else ("lab", "14:00")
            diary.ok("new", f"{kind} {day}", "--set", f"on={day}", "--set", f"start={start}", "--set", f"kind={kind}",
                     "--date", "2026-11-01 08:00", "-m", "x")
            written.append((kind, day, start))
        day += datetime.timedelta(days=1)
    diary.ok("new", "Exam", "--set", "on=2026-12-10", "--set", "start=9:00", "--date", "2026-11-20 10:00", "-m", "x")
    return written


def titles(diary, *wheres):
    r = diary.run("ls", *[a for w in wheres for a in ("--where", w)], "--columns", "title", "--json")
    assert r.rc in (0, 1), r  # 1: nothing matched
    return sorted(e["title"] for e in r.json())


def test_where_compares_dates_and_times_on_a_semester(diary):
    written = semester(diary)
    assert len(written) > 10
    ahead = sorted(f"{k} {d}" for k, d, _ in written if d >= datetime.date(2026, 11, 28)) + ["Exam"]
    assert titles(diary, "on>=2026-11-28") == sorted(ahead)
    mornings = sorted(f"{k} {d}" for k, d, s in written if s < "12:00") + ["Exam"]
    assert titles(diary, "start<12:00") == sorted(mornings)
    december_labs = sorted(f"lab {d}" for k, d, _ in written if k == "lab" and d.month == 12)
    assert titles(diary, "on>=2026-12-01", "on<2027-01-01", "start>=14:00") == december_labs
    assert not titles(diary, "on>=2026-12-21", "on<=2027-01-06"), "nothing in the holidays"
    assert titles(diary, "date<09:00") == sorted(f"{k} {d}" for k, d, _ in written), "the entries' own time, 08:00"
    r = diary.run("ls", "--where", "start<25:00")
    assert r.rc == 2 and "--where `start<25:00`: cannot read `25:00` after `<`" in r.err
