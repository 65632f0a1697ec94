"""`daybook study`: three generated participant diaries, one served by `git daemon` on 127.0.0.1,
synced read-only into a study folder and analysed with every study subcommand (issue 17)."""
import json
import pathlib
import socket
import subprocess
import time
import xml.etree.ElementTree as ET
import zipfile

import pytest

from conftest import ROOT, Diary

SCHEMA = ROOT.parent / "shared/data/refi-qda/Project-mrt2019.xsd"
NS = {"q": "urn:QDA-XML:project:1.0"}

# Entries per participant: (date, title, body, tags). NOW is 2026-11-21 12:00 (conftest).
PLAN = {
    "p01": [("2026-11-16 09:00", "Morning", "The login failed again on the ward.", ["fieldwork"]),
            ("2026-11-17 09:00", "Second day", "Quiet shift, no tablet trouble.", []),
            ("2026-11-18 21:00", "Evening", "I trust the night nurse with the keys.", ["fieldwork"]),
            ("2026-11-20 08:30", "Friday", "The login failed twice.", [])],
    "p02": [(f"2026-11-{d} 09:00", "Morning", f"Day {d}: the login failed again, I restarted it.", ["shift"])
            for d in range(16, 22)],
    "p03": [("2026-11-16 09:00", "Morning", "Relief when the system came back.", []),
            ("2026-11-19 22:10", "Late", "A long night, nothing to note.", [])],
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Study:
    """The participants' diaries, the git daemon serving p02, and the study folder."""

    def __init__(self, tmp):
        self.d = Diary(tmp)
        self.sources = tmp / "diaries"
        self.folder = tmp / "study"
        self.folder.mkdir()
        for pid, entries in PLAN.items():
            path = self.sources / pid
            self.d.ok("init", path)
            for when, title, body, tags in entries:
                args = ["--diary", path, "new", title, "-m", body, "--date", when]
                for t in tags:
                    args += ["-t", t]
                self.d.ok(*args)
        self.code("p01", "last", "frustration", "--quote", "The login failed", "--coder", "ann")
        self.code("p01", "2026-11-18", "trust", "--coder", "ann")
        self.code("p02", "2026-11-16", "frustration", "--quote", "the login failed again", "--coder", "bob")
        self.code("p02", "2026-11-17", "frustration", "--coder", "bob")
        self.code("p03", "2026-11-16", "relief", "--quote", "Relief", "--coder", "ann")
        self.port = free_port()
        self.daemon = subprocess.Popen(
            ["git", "daemon", "--reuseaddr", "--export-all", f"--base-path={self.sources}",
             "--listen=127.0.0.1", f"--port={self.port}", str(self.sources)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.d.env)
        deadline = time.time() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.time() < deadline, "git daemon did not start"
                time.sleep(0.05)
        self.write_yml()

    def code(self, pid, entry, *args):
        self.d.ok("--diary", self.sources / pid, "code", "add", entry, *args)

    def write_yml(self, extra=""):
        (self.folder / "study.yml").write_text(f"""\
name: Night shift study
protocol:
  goal: daily
  start: 2026-11-16
  end: 2026-11-30
participants:
  p01:
    diary: ../diaries/p01
    attributes: {{site: Leeds, condition: control, age: 24}}
  p02:
    diary: git://127.0.0.1:{self.port}/p02
    attributes:
      site: York
      condition: intervention
      age: 31
  p03:
    diary: file://{self.sources / 'p03'}
    attributes: {{site: Leeds, condition: intervention, age: 45}}
{extra}""")

    def run(self, *args, **kw):
        return self.d.run("study", *args, cwd=self.folder, **kw)

    def ok(self, *args):
        r = self.run(*args)
        assert r.rc == 0, r
        return r

    def head(self, path):
        return self.d.git("rev-parse", "HEAD", cwd=path).strip()

    def close(self):
        self.daemon.terminate()
        self.daemon.wait(timeout=10)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    s = Study(tmp_path_factory.mktemp("study"))
    first = s.run("sync")
    assert first.rc == 0, first
    yield s
    s.close()


def test_sync_clones_every_participant_then_finds_them_up_to_date(study):
    for pid in PLAN:
        copy = study.folder / "participants" / pid
        assert study.head(copy) == study.head(study.sources / pid)
        assert len(list((copy / "entries").rglob("*.md"))) == len(PLAN[pid])
    again = study.ok("sync")
    assert [line.split("\t")[:2] for line in again.out.splitlines()] == [[p, "already up to date"] for p in PLAN]


def test_sync_fast_forwards_the_copy_and_never_commits_or_pushes(tmp_path):
    s = Study(tmp_path)
    try:
        s.ok("sync")
        before = {pid: s.head(s.sources / pid) for pid in PLAN}
        s.d.ok("--diary", s.sources / "p02", "new", "Extra", "-m", "One more over the daemon.", "--date", "2026-11-21 10:00")
        s.d.ok("--diary", s.sources / "p02", "new", "Extra 2", "-m", "And another.", "--date", "2026-11-21 11:00")
        r = s.ok("sync")
        lines = dict(line.split("\t")[:2] for line in r.out.splitlines())
        assert lines == {"p01": "already up to date", "p02": "received 2 changes", "p03": "already up to date"}
        copy = s.folder / "participants/p02"
        assert s.head(copy) == s.head(s.sources / "p02")
        assert len(list((copy / "entries").rglob("*.md"))) == len(PLAN["p02"]) + 2
        # Read-only: the sources of p01 and p03 did not move, and the copies hold no commit of their own.
        for pid in ("p01", "p03"):
            assert s.head(s.sources / pid) == before[pid]
        for pid in PLAN:
            assert s.d.git("rev-list", "HEAD", "^origin/main", cwd=s.folder / "participants" / pid).strip() == ""
    finally:
        s.close()


def test_a_participant_that_fails_to_sync_is_reported_and_the_others_go_on(tmp_path):
    s = Study(tmp_path)
    try:
        s.write_yml("  p04:\n    diary: ../diaries/nobody\n")
        r = s.run("sync")
        assert r.rc == 2, r
        rows = dict(line.split("\t")[:2] for line in r.out.splitlines())
        assert rows == {"p01": "cloned", "p02": "cloned", "p03": "cloned", "p04": "failed"}
        assert "participant p04" in r.err and "not synced: p04" in r.err
        assert not (s.folder / "participants/p04").exists()
        assert not list((s.folder / "participants").glob(".*"))  # no half clone left
        # Reading commands go on without p04 and say so with exit status 2.
        ls = s.run("ls")
        assert ls.rc == 2 and "study.yml:19:3: error: participant p04" in ls.err and "run `daybook study sync`" in ls.err
        assert {line.split()[0] for line in ls.out.splitlines()} == {"p01", "p02", "p03"}
    finally:
        s.close()


def test_errors_in_study_yml_name_the_line_and_what_is_wrong(study, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    cases = [
        ("participants:\n  p01:\n    diary: ../x\n    atributes: {site: Leeds}\n", "study.yml:4:5:", "unknown key `atributes` in participant `p01` (did you mean `attributes`?)"),
        ("participants:\n  p01:\n    attributes: {site: Leeds}\n", "study.yml:2:3:", "participant `p01` has no diary"),
        ("participants:\n  p01:\n    diary: ../x\n    attributes:\n      sites: [Leeds, York]\n", "study.yml:5:14:", "attribute `sites` must be one value"),
        ("protocol: {goal: daily, start: 2026-11-30, end: 2026-11-01}\nparticipants: {p01: ../x}\n", "study.yml:1:11:", "protocol.end (2026-11-01) is before protocol.start (2026-11-30)"),
        ("participants:\n  ../evil: ../x\n", "study.yml:2:3:", "participant id `../evil` must be"),
        ("name: x\nparticipants: [\n", "study.yml:2:15:", "invalid YAML"),  # where the `[` opens (issue 39)
    ]
    for text, where, what in cases:
        (bad / "study.yml").write_text(text)
        r = study.d.run("study", "ls", cwd=bad)
        assert r.rc == 2, r
        assert where in r.err and what in r.err, (text, r.err)


def test_ls_puts_the_participant_first_and_filters_by_attribute(study):
    r = study.ok("ls")
    lines = r.out.splitlines()
    assert [line.split()[0] for line in lines] == [p for p in PLAN for _ in PLAN[p]]
    assert lines[0].startswith("p01  2026-11-16 09:00  Morning  #fieldwork")
    leeds = study.ok("ls", "--attribute", "site=leeds", "--json").json()
    assert [(e["participant"], e["attributes"]["site"]) for e in leeds] == [("p01", "Leeds")] * 4 + [("p03", "Leeds")] * 2
    assert leeds[0]["title"] == "Morning" and leeds[0]["tags"] == ["fieldwork"]
    csv = study.ok("ls", "--csv", "--participant", "p03", "--columns", "day,title").out.splitlines()
    assert csv == ["participant,day,title", "p03,2026-11-16,Morning", "p03,2026-11-19,Late"]
    older = study.ok("ls", "--attribute", "age>=30", "--from", "2026-11-20").out.splitlines()
    assert [line.split()[0] for line in older] == ["p02", "p02"]
    assert study.run("ls", "--attribute", "site=Paris").rc == 1
    unknown = study.run("ls", "--participant", "p9")
    assert unknown.rc == 2 and "no participant `p9`" in unknown.err


def test_stats_per_participant_are_the_single_diary_stats(study):
    rows = study.ok("stats", "--json").json()
    for row in rows["rows"]:
        single = study.d.ok("--diary", study.folder / "participants" / row["participant"], "stats", "--json").json()
        for key in ("entries", "days", "words", "first", "last", "tags", "codes"):
            assert row["stats"][key] == single[key], key
    assert rows["all"]["entries"] == sum(len(v) for v in PLAN.values()) == 12
    assert rows["all"]["days"] == 6  # 16..21: any participant wrote
    grouped = study.ok("stats", "--group", "condition", "--json").json()
    assert [(g["group"], g["participants"], g["stats"]["entries"]) for g in grouped["rows"]] == \
        [("control", ["p01"], 4), ("intervention", ["p02", "p03"], 8)]
    table = study.ok("stats").out.splitlines()
    assert table[0].split() == ["participant", "entries", "days", "words", "words_per_entry", "first", "last", "mood"]
    assert table[-1].split()[:3] == ["all", "12", "6"]


def test_stats_by_period_are_the_single_diary_tables_and_add_up(study):
    by_day = study.ok("stats", "--by", "day", "--json").json()
    assert [r["participant"] for r in by_day["rows"]] == ["p01", "p02", "p03"]
    for row in by_day["rows"]:
        single = study.d.ok("--diary", study.folder / "participants" / row["participant"], "stats", "--by", "day", "--json").json()
        assert row["periods"] == single
    assert [p["period"] for p in by_day["all"]] == [f"2026-11-{d}" for d in range(16, 22)]
    assert [p["entries"] for p in by_day["all"]] == [3, 2, 2, 2, 2, 1]
    assert sum(p["words"] for p in by_day["all"]) == sum(p["words"] for r in by_day["rows"] for p in r["periods"])
    csv = study.ok("stats", "--by", "week", "--group", "site", "--csv").out.splitlines()
    assert csv == ["site,week,start,entries,words,mood",
                   f"Leeds,2026-11-16,2026-11-16,6,{sum(len(b.split()) for _, _, b, _ in PLAN['p01'] + PLAN['p03'])},",
                   f"York,2026-11-16,2026-11-16,6,{sum(len(b.split()) for _, _, b, _ in PLAN['p02'])},",
                   "all,2026-11-16,2026-11-16,12," + csv[-1].split(",")[4] + ","]
    table = study.ok("stats", "--by", "weekday", "--participant", "p03").out.splitlines()
    assert table[0].split() == ["participant", "weekday", "entries", "words", "mood"]
    assert [line.split()[:3] for line in table[1:] if line.split()[2] != "0"] == [["p03", "Mon", "1"], ["p03", "Thu", "1"],
                                                                                  ["all", "Mon", "1"], ["all", "Thu", "1"]]
    assert study.run("stats", "--by", "fortnight").rc == 2


def test_code_stats_gives_each_participant_a_column(study):
    r = study.ok("code", "stats", "--json").json()
    assert r["participants"] == ["p01", "p02", "p03"]
    by = {c["code"]: (c["codings"], c["entries"], c["coder_names"], c["by"]) for c in r["codes"]}
    assert by == {"frustration": (3, 3, ["ann", "bob"], {"p01": 1, "p02": 2, "p03": 0}),
                  "trust": (1, 1, ["ann"], {"p01": 1, "p02": 0, "p03": 0}),
                  "relief": (1, 1, ["ann"], {"p01": 0, "p02": 0, "p03": 1})}
    csv = study.ok("code", "stats", "--csv", "--group", "site").out.splitlines()
    assert csv[0] == "code,codings,entries,coders,site=Leeds,site=York"
    assert csv[1] == "frustration,3,3,2,1,2"
    assert study.run("code", "stats", "--participant", "p03", "--code", "trust").rc == 1


def test_streak_is_adherence_to_the_protocol_per_participant(study):
    rows = {r["participant"]: r for r in study.ok("streak", "--json").json()["rows"]}
    # Protocol 16..30 November, daily; today is the 21st: six days asked.
    assert {p: (r["start"], r["end"], r["asked"], r["kept"]) for p, r in rows.items()} == {
        "p01": ("2026-11-16", "2026-11-21", 6, 4), "p02": ("2026-11-16", "2026-11-21", 6, 6), "p03": ("2026-11-16", "2026-11-21", 6, 2)}
    assert rows["p02"]["current"]["days"] == 6 and rows["p01"]["longest"]["days"] == 3
    # The 21st is today: not over yet, so the 20th's run is still current (as `daybook streak` says).
    assert rows["p01"]["current"] == {"days": 1, "start": "2026-11-20", "end": "2026-11-20"}
    assert rows["p01"]["attributes"] == {"site": "Leeds", "condition": "control", "age": 24}
    weekdays = {r["participant"]: (r["asked"], r["kept"]) for r in study.ok("streak", "--goal", "weekdays", "--json").json()["rows"]}
    assert weekdays == {"p01": (5, 4), "p02": (5, 5), "p03": (5, 2)}  # 16..20 Mon-Fri
    grouped = study.ok("streak", "--group", "site", "--json").json()["rows"]
    assert [(g["group"], g["asked"], g["kept"]) for g in grouped] == [("Leeds", 12, 6), ("York", 6, 6)]
    assert grouped[0]["adherence"] == 0.5
    table = study.ok("streak").out.splitlines()
    assert table[1].split() == ["p01", "daily", "2026-11-16", "2026-11-21", "4", "6", "4", "66.7", "1", "3"]


def test_export_qdpx_makes_each_participant_a_case_with_variables(study, tmp_path):
    out = tmp_path / "study.qdpx"
    r = study.ok("export", "qdpx", "-o", out)
    with zipfile.ZipFile(out) as z:
        qde = z.read("project.qde")
        names = z.namelist()
    (tmp_path / "project.qde").write_bytes(qde)
    if not SCHEMA.exists():
        pytest.fail(f"the REFI-QDA schema is missing at {SCHEMA}")
    v = subprocess.run(["xmllint", "--noout", "--schema", str(SCHEMA), str(tmp_path / "project.qde")], capture_output=True, text=True)
    assert v.returncode == 0, v.stderr
    root = ET.fromstring(qde)
    assert root.get("name") == "Night shift study"
    variables = {x.get("guid"): (x.get("name"), x.get("typeOfVariable")) for x in root.findall("q:Variables/q:Variable", NS)}
    assert sorted(variables.values()) == [("age", "Integer"), ("condition", "Text"), ("site", "Text")]
    sources = {s.get("guid"): s for s in root.findall("q:Sources/q:TextSource", NS)}
    assert len(sources) == 12 and len([n for n in names if n.startswith("sources/")]) == 12
    cases = {}
    for c in root.findall("q:Cases/q:Case", NS):
        values = {variables[vv.find("q:VariableRef", NS).get("targetGUID")][0]: vv[1].text for vv in c.findall("q:VariableValue", NS)}
        refs = [s.get("targetGUID") for s in c.findall("q:SourceRef", NS)]
        assert all(ref in sources for ref in refs)
        cases[c.get("name")] = (values, sorted(sources[ref].find("q:Description", NS).text.split("(")[-1].split(", ")[-1].rstrip(")") for ref in refs))
    assert cases["p02"][0] == {"site": "York", "condition": "intervention", "age": "31"}
    assert [len(cases[p][1]) for p in PLAN] == [4, 6, 2]
    # p01 and p02 both have 2026-11-16-0900-morning: two sources, each in its own case.
    assert "p01/2026-11-16-0900-morning" in cases["p01"][1] and "p02/2026-11-16-0900-morning" in cases["p02"][1]
    assert len({s.get("guid") for s in sources.values()}) == 12
    selections = list(root.iter("{urn:QDA-XML:project:1.0}PlainTextSelection"))
    coded = [sel.get("name") for sel in selections if sel.get("name") is not None]
    assert sorted(coded) == ["Relief", "The login failed", "the login failed again"]
    # Whole-entry codings are selections of the whole text, from 0, with no quote for a name.
    assert all(sel.get("startPosition") == "0" for sel in selections if sel.get("name") is None)
    only = tmp_path / "leeds.qdpx"
    study.ok("export", "qdpx", "-o", only, "--attribute", "site=Leeds")
    with zipfile.ZipFile(only) as z:
        leeds = ET.fromstring(z.read("project.qde"))
    assert [c.get("name") for c in leeds.findall("q:Cases/q:Case", NS)] == ["p01", "p03"]
    assert "exported 12 entries of 3 participants" in r.err


def test_export_qdpx_dates_a_coding_without_coded_by_its_commit(tmp_path):
    """As `export qdpx` does for one diary (issue 42): a coding written by hand, without `coded:`,
    takes the time of the participant's commit that added it, not the entry's date."""
    s = Study(tmp_path)
    try:
        p01 = s.sources / "p01"
        [entry] = (p01 / "entries").rglob("2026-11-18-*.md")
        text = entry.read_text()
        assert "codes:\n" in text
        entry.write_text(text.replace("codes:\n", "codes:\n  - code: old\n    quote: \"night nurse\"\n    coder: ann\n"))
        s.d.ok("--diary", p01, "code", "define", "unrelated")  # commits the hand edit first
        rel = str(entry.relative_to(p01))
        assert s.d.git("log", "-1", "--format=%s", "--", rel, cwd=p01).startswith("edit outside daybook")
        committed = s.d.git("log", "-1", "--format=%aI", "--", rel, cwd=p01).strip()
        assert not committed.startswith("2026-11-18")
        assert s.run("sync").rc == 0
        out = tmp_path / "s.qdpx"
        s.ok("export", "qdpx", "-o", out)
        with zipfile.ZipFile(out) as z:
            root = ET.fromstring(z.read("project.qde"))
        codes = {c.get("guid"): c.get("name") for c in root.iter("{urn:QDA-XML:project:1.0}Code")}
        times = {}
        for c in root.iter("{urn:QDA-XML:project:1.0}Coding"):
            times.setdefault(codes[c.find("q:CodeRef", NS).get("targetGUID")], []).append(c.get("creationDateTime"))
        assert times["old"] == [committed], (times, committed)
        # Codings made by `code add` keep their `coded:`.
        assert times["trust"] == ["2026-11-21T12:00:00+01:00"]
    finally:
        s.close()


def test_before_sync_the_commands_say_to_sync(tmp_path):
    s = Study(tmp_path)
    try:
        r = s.run("stats")
        assert r.rc == 2
        assert r.err.count("run `daybook study sync`") == 3 and "3 participants left out" in r.err
        assert s.d.run("study", "ls", cwd=tmp_path).rc == 2  # no study.yml here or above
    finally:
        s.close()


def test_participants_read_at_once_report_in_study_order(study):
    """The participants' diaries are read on both cores; each one's warnings still come in
    study.yml's order, the same on every run."""
    broken = []
    for pid in ("p03", "p01", "p02"):
        f = study.folder / "participants" / pid / "entries/2026/11" / f"2026-11-19-0700-broken-{pid}.md"
        f.write_text("---\ntitle: [unclosed\n---\nWords.\n")
        broken.append(f)
    try:
        runs = [study.run("stats") for _ in range(3)]
        assert all(r.rc == 0 for r in runs), runs[0]
        named = [line for line in runs[0].err.splitlines() if "broken-" in line]
        assert [pid for line in named for pid in ("p01", "p02", "p03") if f"broken-{pid}" in line] == ["p01", "p02", "p03"], runs[0].err
        assert all(".md:2:8: warning: invalid YAML" in line for line in named), named  # file, line where `[` opens, what
        assert runs[1].err == runs[0].err == runs[2].err
        assert runs[0].out.splitlines()[-1].split()[:2] == ["all", "12"]
    finally:
        for f in broken:
            f.unlink()
