"""Leaving for jrnl as easily as coming from it (issue 13, item 18): `export jrnl` read by the real
jrnl (4.6, from PyPI) with `jrnl --import`, then jrnl's own JSON export compared with the diary, and
brought back with `daybook import jrnl`."""
import json
import shutil
import subprocess

import pytest

from conftest import ROOT, Diary

jrnl = shutil.which("jrnl")
pytestmark = pytest.mark.skipif(jrnl is None, reason="jrnl is not installed (scripts/setup installs it from Tests/e2e/requirements.txt)")


def run_jrnl(tmp, *args):
    config = tmp / "xdg" / "jrnl"
    if not config.exists():
        config.mkdir(parents=True)
        (tmp / "journal.txt").write_text("")
        (config / "jrnl.yaml").write_text(
            "colors: {body: none, date: none, tags: none, title: none}\ndefault_hour: 9\ndefault_minute: 0\n"
            "editor: ''\nencrypt: false\nhighlight: false\nindent_character: '|'\n"
            f"journals:\n  default:\n    journal: {tmp / 'journal.txt'}\n"
            "linewrap: 79\ntagsymbols: '#@'\ntemplate: false\ntimeformat: '%F %r'\nversion: v4.6\n")
    env = {"XDG_CONFIG_HOME": str(tmp / "xdg"), "HOME": str(tmp), "PATH": "/usr/bin:/bin:" + str(ROOT),
           "LANG": "C.UTF-8", "TZ": "Europe/Vienna", "NO_COLOR": "1"}
    p = subprocess.run([jrnl, *args], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_jrnl_imports_the_export_and_gives_it_back(diary):
    shutil.rmtree(diary.path)
    shutil.copytree(ROOT / "examples" / "diary", diary.path)
    diary.ok("init", diary.path)
    diary.ok("new", "Starred one", "-m", "[2026-01-01] a line that looks like a jrnl date.\nAnd more.\n",
             "--set", "starred=true", "-t", "flagged")
    ours = diary.ok("ls", "--json").json()
    exported = diary.tmp / "export.txt"
    diary.ok("export", "jrnl", "-o", exported)

    run_jrnl(diary.tmp, "--import", "--file", str(exported))
    theirs = json.loads(run_jrnl(diary.tmp, "--export", "json"))["entries"]
    assert len(theirs) == len(ours)
    for mine, its in zip(ours, theirs):
        assert its["date"] + "T" + its["time"] == mine["date"][:16], (mine, its)
        assert its["title"] == mine["title"]
        assert {t.lstrip("#@") for t in its["tags"]} >= set(mine["tags"])
    starred = next(e for e in theirs if e["title"] == "Starred one")
    assert starred["starred"] is True
    assert "[2026-01-01] a line" in starred["body"]  # one entry, not split at the line

    (diary.tmp / "back").mkdir()
    back = Diary(diary.tmp / "back").init()
    json_file = diary.tmp / "back.json"
    json_file.write_text(run_jrnl(diary.tmp, "--export", "json"))
    back.ok("import", "jrnl", json_file)
    again = back.ok("ls", "--json").json()
    assert [(e["date"][:16], e["title"]) for e in again] == [(e["date"][:16], e["title"]) for e in ours]
