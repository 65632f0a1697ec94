"""A follow-up asked only when it applies (`when:`), issue 47 item 1.

A diary study's smoking questionnaire answered in a real terminal (tmux) and through the web form
(HTTP, and Chromium for the fields shown and hidden as answers change): the branch taken and not
taken are told apart in the file, by `stats` and by the exports; `check` names an answer to a
question that did not apply; a broken condition names the template's line.
"""
import csv
import io
import json
import shutil
import subprocess
import time

import pytest

from serving import Served

SMOKING = """---
description: a diary study's evening questions
fields:
  smoked:
    type: bool
    required: true
    prompt: Did you smoke today?
  cigarettes:
    type: number
    min: 1
    required: true
    prompt: How many cigarettes?
    when: smoked == true
  place:
    type: choice
    options: [home, work, bar]
    prompt: Where mostly?
    when: smoked and cigarettes >= 5
  craving:
    type: scale
    min: 1
    max: 5
    prompt: How strong was the craving?
    when: not smoked
---
Notes.
"""


@pytest.fixture
def smoking(diary):
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates" / "smoking.md").write_text(SMOKING)
    return diary


def entry_text(diary, title):
    paths = [p for p in diary.entries() if title in p.name]
    assert len(paths) == 1, paths
    return paths[0].read_text()


class Tmux:
    def __init__(self, socket, env, *command):
        self.env = env
        self.cmd = ["tmux", "-S", str(socket), "-f", "/dev/null"]
        subprocess.run([*self.cmd, "new-session", "-d", "-x", "120", "-y", "30", *command], env=env, check=True)

    def screen(self):
        return subprocess.run([*self.cmd, "capture-pane", "-p"], env=self.env, capture_output=True, text=True).stdout

    def answer(self, question, text):
        self.wait_for(lambda: question in self.screen(), question)
        subprocess.run([*self.cmd, "send-keys", "-t", "0", "-l", text], env=self.env, check=True)
        subprocess.run([*self.cmd, "send-keys", "-t", "0", "Enter"], env=self.env, check=True)

    def wait_for(self, pred, what, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pred():
                return
            time.sleep(0.1)
        pytest.fail(f"waited {timeout}s for {what}; screen:\n{self.screen()}")

    def kill(self):
        subprocess.run([*self.cmd, "kill-server"], env=self.env, capture_output=True)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup installs it)")
def test_prompts_in_a_terminal_take_the_branch_and_skip_it(smoking, tmp_path):
    diary = smoking
    env = dict(diary.env, TERM="xterm")
    done = tmp_path / "done"
    for title, answers in [("Yes day", [("Did you smoke today?", "yes"), ("How many cigarettes?", "lots"),
                                        ("How many cigarettes?", "12"), ("Where mostly?", "Bar")]),
                           ("No day", [("Did you smoke today?", "no"), ("How strong was the craving?", "4")])]:
        done.unlink(missing_ok=True)
        command = f"cd {diary.path} && {diary.bin} new '{title}' --template smoking -m 'Evening.'; echo $? > {done}"
        tmux = Tmux(tmp_path / f"{title[0]}.sock", env, "sh", "-c", command + "; sleep 30")
        try:
            for question, text in answers:
                tmux.answer(question, text)
            tmux.wait_for(done.exists, "daybook to end")
            screen = tmux.screen()
        finally:
            tmux.kill()
        assert done.read_text().strip() == "0", screen
        if title == "No day":
            # The follow-ups of "yes" were never put to the participant.
            assert "How many cigarettes?" not in screen and "Where mostly?" not in screen, screen
        else:
            assert "`lots` is not a number" in screen and "How strong was the craving?" not in screen, screen
    yes, no = entry_text(diary, "yes-day"), entry_text(diary, "no-day")
    assert "smoked: true\ncigarettes: 12\nplace: bar\n" in yes and "craving" not in yes
    assert "smoked: false\ncraving: 4\n" in no and "cigarettes" not in no and "place" not in no


def test_stats_and_exports_tell_not_asked_from_not_answered(smoking):
    diary = smoking
    diary.ok("new", "A", "--template", "smoking", "--set", "smoked=no", "-m", "x")
    diary.ok("new", "B", "--template", "smoking", "--set", "smoked=yes", "--set", "cigarettes=3", "-m", "x")
    diary.ok("new", "C", "--template", "smoking", "--set", "smoked=yes", "--set", "cigarettes=8", "--set", "place=work", "-m", "x")
    # place: answered in C, not asked in A (no) nor in B (fewer than five); craving asked in A only, left empty.
    place = diary.ok("stats", "--field", "place", "--json").json()["field"]
    assert (place["entries"], place["not_answered"], place["not_asked"]) == (1, 0, 2)
    craving = diary.ok("stats", "--field", "craving", "--json").json()["field"]
    assert (craving["entries"], craving["not_answered"], craving["not_asked"]) == (0, 1, 2)
    assert "not answered 1, not asked 2" in diary.ok("stats", "--field", "craving").out
    rows = dict(line.split(",", 1) for line in diary.ok("stats", "--field", "craving", "--csv").out.splitlines())
    assert rows["craving_not_answered"] == "1" and rows["craving_not_asked"] == "2"

    table = list(csv.DictReader(io.StringIO(diary.ok("export", "csv").out)))
    by_title = {r["title"]: r for r in table}
    assert by_title["A"]["not_asked"] == "cigarettes;place" and by_title["A"]["craving"] == ""
    assert by_title["B"]["not_asked"] == "place;craving" and by_title["B"]["place"] == ""
    assert by_title["C"]["not_asked"] == "craving" and by_title["C"]["place"] == "work"
    entries = {e["title"]: e for e in diary.ok("export", "jsonl").jsonl()}
    assert entries["A"]["not_asked"] == ["cigarettes", "place"] and "craving" not in entries["A"]["fields"]
    assert entries["C"]["not_asked"] == ["craving"]
    whole = {e["title"]: e for e in json.loads(diary.ok("export", "json").out)["entries"]}
    assert whole["B"]["not_asked"] == ["place", "craving"]


def test_new_refuses_a_value_for_a_question_that_does_not_apply(smoking):
    r = smoking.run("new", "X", "--template", "smoking", "--set", "smoked=no", "--set", "cigarettes=4", "-m", "x")
    assert r.rc != 0
    assert "--set cigarettes=4: field `cigarettes`: it is not asked, as `when: smoked == true` does not hold (template smoking)" in r.err
    assert not list(smoking.entries())
    # A required follow-up that does not apply is not missing.
    smoking.ok("new", "Y", "--template", "smoking", "--set", "smoked=no", "-m", "x")


def test_check_names_an_answer_to_a_question_that_did_not_apply(smoking):
    diary = smoking
    diary.ok("new", "Hand edited", "--template", "smoking", "--set", "smoked=no", "-m", "x")
    path = next(p for p in diary.entries() if "hand-edited" in p.name)
    text = path.read_text().replace("smoked: false\n", "smoked: false\ncigarettes: 3\n")
    path.write_text(text)
    r = diary.run("check")
    assert r.rc == 1
    line = text.splitlines().index("cigarettes: 3") + 1
    assert (f"{path.relative_to(diary.path)}:{line}: error: field `cigarettes`: answered (`3`), but it is not asked, "
            "as `when: smoked == true` does not hold (template smoking)") in r.out + r.err


def test_a_broken_condition_names_the_template_line(smoking):
    bad = SMOKING.replace("when: smoked and cigarettes >= 5", "when: smoked and cigarets >= 5")
    (smoking.path / "templates" / "smoking.md").write_text(bad)
    r = smoking.run("new", "X", "--template", "smoking", "--set", "smoked=no", "-m", "x")
    assert r.rc != 0
    line = bad.splitlines().index("    when: smoked and cigarets >= 5") + 1
    assert f"templates/smoking.md:{line}:" in r.err
    assert "`cigarets` is not a field asked before this one (earlier fields: smoked, cigarettes)" in r.err
    assert "smoking.md" in smoking.run("check").out + smoking.run("check").err


def test_the_web_form_asks_which_fields_apply_and_never_writes_a_hidden_one(smoking):
    diary = smoking
    served = Served(diary)
    try:
        def post(path, body):
            status, _, data = served.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
            return status, json.loads(data)
        assert post("/api/templates/smoking/not-asked", {"fields": {"smoked": "false"}}) == (200, {"not_asked": ["cigarettes", "place"]})
        assert post("/api/templates/smoking/not-asked", {"fields": {"smoked": "true", "cigarettes": "9"}}) == (200, {"not_asked": ["craving"]})
        page = served.request("GET", "/new?template=smoking")[2].decode()
        assert 'data-conditions="smoking"' in page
        # A form whose hidden follow-up still holds an answer: it is neither checked nor written.
        status, data = post("/api/entries", {"template": "smoking", "title": "Web no", "body": "x",
                                             "fields": {"smoked": "false", "cigarettes": "lots", "place": "bar", "craving": "2"}})
        assert status == 201, data
        text = entry_text(diary, "web-no")
        assert "smoked: false\ncraving: 2\n" in text and "cigarettes" not in text and "place" not in text
        # Asked and missing is still refused.
        status, data = post("/api/entries", {"template": "smoking", "title": "Web yes", "body": "x", "fields": {"smoked": "true"}})
        assert status == 422 and data["fields"] == {"cigarettes": "required, but missing"}, data
        # An edit that turns the branch off removes the answers that no longer apply.
        diary.ok("new", "Edited", "--template", "smoking", "--set", "smoked=yes", "--set", "cigarettes=6", "--set", "place=home", "-m", "x")
        eid = next(p.stem for p in diary.entries() if "edited" in p.name)
        version = json.loads(served.request("GET", f"/api/entries/{eid}")[2])["version"]
        status, _, data = served.request("PUT", f"/api/entries/{eid}", body=json.dumps({
            "version": version, "fields": {"smoked": "false", "cigarettes": "6", "place": "home", "craving": ""}}).encode(),
            headers={"Content-Type": "application/json"})
        assert status == 200, data
        text = entry_text(diary, "edited")
        assert "smoked: false\n" in text and "cigarettes" not in text and "place" not in text
        assert diary.ok("check").rc == 0
    finally:
        served.stop()


def test_every_invalid_answer_is_reported_at_once(smoking):
    """Issue 47 item 2: `--set` and `check` list every value that does not fit, not only the first."""
    diary = smoking
    r = diary.run("new", "X", "--template", "smoking", "--set", "smoked=perhaps", "--set", "craving=9", "-m", "x")
    assert r.rc == 2 and not list(diary.entries())
    assert "daybook: error: 2 fields do not fit template smoking; nothing saved:\n" in r.err, r.err
    assert "  --set smoked=perhaps: field `smoked`: `perhaps` is not yes or no (template smoking)\n" in r.err
    assert "  --set craving=9: field `craving`: 9 is off the scale 1–5 (template smoking)\n" in r.err
    r = diary.run("new", "X", "--template", "smoking", "--set", "smoked=yes", "--set", "cigarettes=0", "--set", "place=pub", "-m", "x")
    assert "3 fields do not fit" not in r.err and "2 fields do not fit" in r.err, r.err
    assert "`cigarettes`: 0 is below the minimum 1" in r.err and "`pub` is not one of home, work, bar" in r.err
    # A hand edit with three wrong answers: check names each at its line.
    diary.ok("new", "Hand", "--template", "smoking", "--set", "smoked=yes", "--set", "cigarettes=6", "-m", "x")
    path = next(p for p in diary.entries() if "hand" in p.name)
    text = path.read_text().replace("cigarettes: 6\n", "cigarettes: many\nplace: pub\ncraving: 2\n")
    path.write_text(text)
    out = diary.run("check").out
    lines = text.splitlines()
    rel = path.relative_to(diary.path)
    for key, why in [("cigarettes", "must be a number, not `many`"), ("place", "`pub` is not one of home, work, bar"),
                     ("craving", "answered (`2`), but it is not asked, as `when: not smoked` does not hold")]:
        line = next(i for i, l in enumerate(lines, 1) if l.startswith(key + ":"))
        assert f"{rel}:{line}: error: field `{key}`: {why}" in out, out


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup installs it)")
def test_the_prompts_say_every_refused_set_value_before_asking(smoking, tmp_path):
    """Issue 47 item 2 in a terminal: all `--set` values that do not fit are listed first, then each is asked again."""
    diary = smoking
    done = tmp_path / "done"
    command = (f"cd {diary.path} && {diary.bin} new 'Summary' --template smoking --set smoked=perhaps --set craving=9 "
               f"-m 'x'; echo $? > {done}")
    tmux = Tmux(tmp_path / "s.sock", dict(diary.env, TERM="xterm"), "sh", "-c", command + "; sleep 30")
    try:
        tmux.wait_for(lambda: "Did you smoke today?" in tmux.screen(), "the first question")
        screen = tmux.screen()
        assert "2 values given with --set do not fit; asked again below:" in screen, screen
        assert screen.index("--set smoked=perhaps: field `smoked`: `perhaps` is not yes or no") < screen.index("--set craving=9: field `craving`: 9 is off the scale 1–5")
        assert screen.index("craving=9") < screen.index("Did you smoke today?")
        tmux.answer("Did you smoke today?", "no")
        tmux.answer("How strong was the craving?", "3")
        tmux.wait_for(done.exists, "daybook to end")
    finally:
        tmux.kill()
    assert done.read_text().strip() == "0"
    assert "smoked: false\ncraving: 3\n" in entry_text(diary, "summary")


HELPED = """---
fields:
  room:
    type: text
    prompt: Which room?
    help: The room number on the door, not the building.
    placeholder: B 2.14
---
"""


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup installs it)")
def test_help_and_placeholder_at_the_prompt_in_the_form_and_in_json(diary, tmp_path):
    """Issue 47 item 3: a short help text and an example answer per question."""
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates" / "lesson.md").write_text(HELPED)
    field = diary.ok("template", "show", "lesson", "--json").json()["fields"][0]
    assert field["help"] == "The room number on the door, not the building." and field["placeholder"] == "B 2.14"
    served = Served(diary)
    try:
        page = served.request("GET", "/new?template=lesson")[2].decode()
    finally:
        served.stop()
    assert 'name="field:room" placeholder="B 2.14"' in page
    assert '<span class="meta help">The room number on the door, not the building.</span>' in page
    done = tmp_path / "done"
    tmux = Tmux(tmp_path / "h.sock", dict(diary.env, TERM="xterm"), "sh", "-c",
                f"cd {diary.path} && {diary.bin} new Lesson --template lesson -m x; echo $? > {done}; sleep 30")
    try:
        tmux.answer("Which room? (e.g. B 2.14)", "C 1.02")
        tmux.wait_for(done.exists, "daybook to end")
        screen = tmux.screen()
    finally:
        tmux.kill()
    assert screen.index("The room number on the door") < screen.index("Which room?"), screen
    assert "room: C 1.02\n" in entry_text(diary, "lesson")
