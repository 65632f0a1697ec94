"""Generated front matters and bodies through the reading commands: short form of bench/fuzz.py (issue 20)."""
from conftest import bench_module

ENTRIES = 300  # bench/fuzz.py runs 10,000
HANG = 30  # s: a debug build on a loaded machine; bench/fuzz.py holds a release build to 5 s


def test_generated_entries_never_crash_hang_or_exceed_the_memory_budget(tmp_path, diary):
    bench = bench_module("fuzz")
    work = tmp_path / "fuzz"
    work.mkdir()
    problems, peaks = bench.fuzz(diary.bin, work, ENTRIES, seed=11, batch=100, hang=HANG)
    assert problems == [], problems[:10]
    assert len(peaks) == 3 * 8, peaks  # every command of every batch ran
    peak = max(peaks)
    assert peak[0] <= bench.BUDGET_MB, f"{peak[2]} took {peak[0]:.0f} MB"
