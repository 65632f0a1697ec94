"""What the bench scripts share: the binary to time, and a throwaway HOME and environment for a diary."""
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def binary(given):
    """The given binary, else the release build, else the debug build."""
    for cand in (given, ROOT / ".build/release/daybook", ROOT / ".build/debug/daybook"):
        if cand and pathlib.Path(cand).exists():
            return str(cand)
    sys.exit("no daybook binary: swift build -c release")


def environment(tmp, diary):
    """A fresh HOME under `tmp` with a git identity, and the environment daybook runs in for `diary`:
    a fixed clock and time zone, no colour, no system git config, an editor that fails."""
    home = pathlib.Path(tmp) / "home"
    home.mkdir(exist_ok=True)
    (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.org\n[init]\n\tdefaultBranch = main\n")
    return {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DAYBOOK_DIR": str(diary),
            "DAYBOOK_NOW": "2026-11-21T12:00:00+01:00", "NO_COLOR": "1", "LANG": "C.UTF-8", "TZ": "Europe/Vienna",
            "GIT_CONFIG_NOSYSTEM": "1", "EDITOR": "false"}


def cache_agrees(binary, diary, env, timeout=60):
    """Whether `ls`, `tag ls`, `code ls` and `stats` give from the entry cache (and its journal), as
    it was left, what they give from the files alone (the cache removed)."""
    def reads():
        return [subprocess.run([binary, *c], capture_output=True, text=True, env=env, timeout=timeout).stdout
                for c in (["ls"], ["tag", "ls"], ["code", "ls"], ["stats"])]
    cached = reads()
    shutil.rmtree(pathlib.Path(diary) / ".daybook" / "cache", ignore_errors=True)
    return cached == reads()
