"""Start-up (issue 45): a command line that names one command builds only that command's tree, so
the names written out in Sources/daybook/Commands/CommandList.swift must be the names ArgumentParser
gives. Each is checked against `daybook --help`, and each command is run by its name as a person
would; the full tree still answers help, typos and completion. Speed itself is bench/startup.sh's."""
import re

from conftest import ROOT


def table_names():
    text = (ROOT / "Sources/daybook/Commands/CommandList.swift").read_text()
    return re.findall(r'\("([a-z-]+)", \w+\.self\)', text)


def help_names(out):
    section = out.split("SUBCOMMANDS:", 1)[1]
    return re.findall(r"^  ([a-z][a-z-]*)\s", section, re.M)


def test_every_written_name_is_the_name_help_lists_in_its_order(diary):
    names = table_names()
    assert len(names) > 25
    assert help_names(diary.ok("--help").out) == names


def test_each_command_called_by_its_name_is_that_command(diary):
    for name in table_names():
        r = diary.run(name, "--help")
        assert r.rc == 0, (name, r.err)
        assert re.search(rf"USAGE: daybook {name}\b", r.out), (name, r.out[:300])


def test_a_narrowed_line_parses_and_errs_as_the_full_tree_did(diary):
    diary.init()
    diary.ok("new", "First", "-m", "Hello #tag")
    assert "First" in diary.ok("ls").out
    # Global options before the command move behind it, and the command is still found.
    assert "First" in diary.ok("--diary", str(diary.path), "ls").out
    bad = diary.run("ls", "--no-such-option")
    assert bad.rc == 2 and "--no-such-option" in bad.err
    typo = diary.run("lss")
    assert typo.rc == 2 and "ls" in typo.err
    assert diary.ok("--version").out.strip() == "0.1.0"
    assert help_names(diary.ok("help").out) == table_names()
