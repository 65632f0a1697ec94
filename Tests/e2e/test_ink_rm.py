"""The eraser on the command line and each stroke listed (issue 18, "Pen strokes"): `ink ls ENTRY`
numbers the strokes, `ink rm ENTRY N…|--all` takes them out in one commit that `undo` takes back."""
import json

from conftest import ROOT

SKETCH = ROOT / "examples" / "sketch.inkml"


def with_strokes(diary):
    diary.init()
    diary.ok("new", "Sketch", "-m", "x", "--ink", SKETCH)
    return json.loads(next(diary.path.rglob("*.strokes.json")).read_text())["strokes"]


def test_ink_ls_entry_numbers_each_stroke(diary):
    strokes = with_strokes(diary)
    rows = diary.ok("ink", "ls", "last").out.splitlines()
    assert rows[0].split() == ["stroke", "tool", "colour", "width", "points", "time", "code"]
    assert [r.split()[0] for r in rows[1:]] == [str(i + 1) for i in range(len(strokes))]
    listed = diary.ok("ink", "ls", "last", "--json").json()
    assert [s["points"] for s in listed] == [len(s["points"]) for s in strokes]
    assert listed[0]["number"] == 1 and listed[0]["tool"] == strokes[0].get("tool", "pen")


def test_ink_rm_removes_the_named_strokes_in_one_commit(diary):
    strokes = with_strokes(diary)
    assert len(strokes) >= 3
    commits = diary.commits()
    r = diary.ok("ink", "rm", "last", "1", "3")
    assert f"removed 2 strokes" in r.err and f"({len(strokes) - 2} left)" in r.err
    after = json.loads(next(diary.path.rglob("*.strokes.json")).read_text())["strokes"]
    assert after == [s for i, s in enumerate(strokes) if i not in (0, 2)]
    assert diary.commits() == commits + 1
    assert "ink: -2 strokes on Sketch" in diary.git("log", "-1", "--format=%s")
    diary.ok("undo")
    assert json.loads(next(diary.path.rglob("*.strokes.json")).read_text())["strokes"] == strokes


def test_ink_rm_all_removes_the_file_and_bad_numbers_remove_nothing(diary):
    strokes = with_strokes(diary)
    before = next(diary.path.rglob("*.strokes.json")).read_bytes()
    for bad in (["1", str(len(strokes) + 1)], ["0"], ["2-1"], ["x"], [], ["1", "--all"]):
        r = diary.run("ink", "rm", "last", *bad)
        assert r.rc == 2, (bad, r)
    assert next(diary.path.rglob("*.strokes.json")).read_bytes() == before
    diary.ok("ink", "rm", "last", f"1-{len(strokes)}")
    assert list(diary.path.rglob("*.strokes.json")) == []
    assert diary.run("ink", "ls", "last").rc == 1
    assert diary.run("ink", "rm", "last", "--all").rc != 0
