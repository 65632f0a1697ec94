"""InkML that the trace grammar does not allow is refused with its place (issue 13, item 14): points
written without commas were read as one point, the rest dropped silently, exit 0."""
import json

INK = """<ink xmlns="http://www.w3.org/2003/InkML">
  <trace>0 0'3'4"1"1"0"0</trace>
</ink>
"""


def test_points_without_commas_are_refused_with_the_place(diary, tmp_path):
    diary.ok("new", "-m", "A sketch.", "Sketch")
    f = tmp_path / "bad.inkml"
    f.write_text(INK)
    before = diary.commits()
    r = diary.run("ink", "add", "last", f)
    assert r.rc == 2, r
    assert f"{f}:2" in r.err, r
    assert "point 1, character 5" in r.err and "more values" in r.err, r
    assert diary.commits() == before
    assert not list(diary.path.rglob("*.strokes.json")) and not list(diary.path.rglob("*.ink*")), "strokes were written"


def test_the_same_points_with_commas_are_four_points(diary, tmp_path):
    diary.ok("new", "-m", "A sketch.", "Sketch")
    f = tmp_path / "good.inkml"
    f.write_text(INK.replace("""0 0'3'4"1"1"0"0""", """0 0,'3'4,"1"1,"0"0"""))
    diary.ok("ink", "add", "last", f)
    [strokes] = diary.path.rglob("*.strokes.json")
    assert json.loads(strokes.read_text())["strokes"][0]["points"] == [[0, 0], [3, 4], [7, 9], [11, 14]]


def test_extra_values_under_a_declared_format_are_refused(diary, tmp_path):
    diary.ok("new", "-m", "A sketch.", "Sketch")
    f = tmp_path / "declared.inkml"
    f.write_text('<ink><traceFormat><channel name="X"/><channel name="Y"/></traceFormat>\n'
                 '<trace>1 2 3, 4 5 6</trace></ink>\n')
    r = diary.run("ink", "add", "last", f)
    assert r.rc == 2 and "point 1, character 5" in r.err, r


def test_a_plain_extra_value_without_a_format_is_left_out_with_a_warning(diary, tmp_path):
    # No <traceFormat>: the channels are not known, so a plain third value is an undeclared
    # channel (as the acceptance suite's InkML has); a difference-encoded one is a missing comma.
    diary.ok("new", "-m", "A sketch.", "Sketch")
    f = tmp_path / "default.inkml"
    f.write_text("<ink><trace>100 100 0, 101 102 5</trace></ink>\n")
    r = diary.ok("ink", "add", "last", f)
    assert "left out" in r.err, r
    [strokes] = diary.path.rglob("*.strokes.json")
    assert json.loads(strokes.read_text())["strokes"][0]["points"] == [[100, 100], [101, 102]]
