"""The manual as the README tells people to reach it: MANPATH="$PWD/man:$MANPATH", then man."""
import os
import subprocess

from conftest import ROOT


def man(*args):
    env = dict(os.environ, MANPATH=f"{ROOT / 'man'}:{os.environ.get('MANPATH', '')}", MANPAGER="cat",
               PAGER="cat", MANWIDTH="80")
    return subprocess.run(["man", *args], capture_output=True, text=True, env=env, cwd=ROOT)


def test_man_finds_every_page_with_the_readme_manpath():
    pages = sorted((ROOT / "man" / "man1").glob("*.1")) + sorted((ROOT / "man" / "man5").glob("*.5"))
    assert len(pages) > 20
    for page in pages:
        name, section = page.stem, page.suffix[1:]
        r = man("-w", section, name)
        assert r.returncode == 0, f"man -w {section} {name}: {r.stderr}"
        assert os.path.samefile(r.stdout.strip(), page), r.stdout


def test_man_daybook_shows_the_page():
    r = man("daybook")
    assert r.returncode == 0, r.stderr
    assert "daybook" in r.stdout and "SYNOPSIS" in r.stdout.upper()
