"""Shell completion as bash runs it: the generated script asks the binary (`daybook ---completion …`)
for template names, tags, codes and entry ids (issue 13 item 8)."""
import os
import subprocess

import pytest

COMPLETE = r'''
source "$SCRIPT"
# What bash does on Tab: split the line into COMP_WORDS, then call the function `complete -F` named.
comp() {
    COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
    read -ra COMP_WORDS <<<"$COMP_LINE"
    [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
    _daybook daybook "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "${COMPREPLY[@]}"
}
comp "$LINE"
'''


@pytest.fixture
def shell(diary, tmp_path):
    """Completes a command line with bash and the generated completion script; returns the offers."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "daybook").symlink_to(diary.bin)
    script = tmp_path / "daybook.bash"
    script.write_text(diary.ok("--generate-completion-script", "bash").out)

    def complete(line, env=None, cwd=None):
        e = dict(diary.env, SCRIPT=str(script), LINE=line, PATH=f"{bin_dir}:{diary.env['PATH']}")
        e.update(env or {})
        p = subprocess.run(["bash", "--norc", "-c", COMPLETE], capture_output=True, text=True, env=e,
                           cwd=cwd or diary.path.parent, timeout=30)
        assert p.returncode == 0 and p.stderr == "", p.stderr
        return [w for w in p.stdout.splitlines() if w]
    return complete


@pytest.fixture
def filled(diary):
    diary.ok("new", "Ward round", "-m", "Long day.", "-t", "work", "-t", "ward", "--date", "2026-11-19 08:00")
    diary.ok("new", "Evening", "-m", "Quiet.", "-t", "work", "--date", "2026-11-20 21:00")
    diary.ok("code", "define", "fatigue", "--description", "tiredness")
    diary.ok("code", "define", "coping")
    diary.ok("code", "add", "last", "workload")  # used, not defined
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates" / "fieldnote.md").write_text("---\ntemplate: fieldnote\n---\nNotes\n")
    return diary


def test_templates_tags_codes_and_entries_are_offered(filled, shell):
    assert shell("daybook new --template ") == ["daily", "emotion", "fieldnote", "memo", "methodological",
                                                "planning", "theoretical", "weekly-review"]
    assert shell("daybook new --template fi") == ["fieldnote"]
    assert shell("daybook template show we") == ["weekly-review"]
    assert shell("daybook ls --tag ") == ["work", "ward"]  # most used first
    assert shell("daybook new -t wa") == ["ward"]
    assert shell("daybook tag rm last ") == ["work", "ward"]
    assert shell("daybook ls --code ") == ["fatigue", "coping", "workload"]  # codebook order, then used ones
    assert shell("daybook code add last f") == ["fatigue"]
    assert shell("daybook show ") == ["last", "today", "yesterday", "2026-11-20-2100-evening", "2026-11-19-0800-ward-round"]
    assert shell("daybook edit 2026-11-19") == ["2026-11-19-0800-ward-round"]


def test_the_diary_on_the_line_is_the_one_asked(filled, shell, tmp_path):
    other = tmp_path / "other"
    filled.ok("init", other)
    filled.ok("--diary", other, "new", "Elsewhere", "-m", "x", "-t", "elsewhere")
    assert shell(f"daybook ls --diary {other} --tag ") == ["elsewhere"]
    assert shell(f"daybook --diary={other} show 2026") == ["2026-11-21-1200-elsewhere"]


def test_without_a_diary_only_what_needs_none_is_offered_and_nothing_fails(shell, tmp_path):
    env = {"DAYBOOK_DIR": str(tmp_path / "nowhere")}
    assert "emotion" in shell("daybook new --template ", env=env)
    assert shell("daybook show ", env=env) == ["last", "today", "yesterday"]
    assert shell("daybook ls --tag ", env=env) == []
