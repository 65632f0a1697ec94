"""kill -9 at random points of every mutating command: short form of bench/kill.py (issue 20)."""
from conftest import bench_module

TRIALS = 200  # a few hundred in CI, with `check --fix` after every tenth


def test_kills_leave_a_usable_diary_and_every_word(tmp_path, diary):
    bench = bench_module("kill")
    work = tmp_path / "kill"
    work.mkdir()
    r = bench.trials(diary.bin, work, TRIALS, seed=7, check_every=10)  # bench/kill.py runs 1,000
    assert r["hangs"] == [], f"hung over {bench.WATCHDOG} s after: {r['hangs']}"
    assert r["unusable"] == [], f"the next command failed after a kill of: {r['unusable']}"
    # tag rename, code rename, import and rm of many entries: HEAD holds all of one or none (issue 38).
    assert r["partial"] == [], f"a killed command left HEAD half changed: {r['partial']}"
    assert r["lost"] == [], f"{len(r['lost'])} words of commands that exited 0 are lost: {r['lost'][:5]}"
    assert r["check"] == 0, r["check_output"]
    assert r["cache_agrees"], "ls, tag ls, code ls or stats read from the cache differ from a read of the files"
    assert r["killed"] > 0 and r["finished"] > 0, r
