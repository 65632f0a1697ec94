"""File names made from names are bounded, and a failed export leaves nothing behind (issue 39): a
tag of 300 characters was accepted, then `export html` stopped half-way with "File name too long",
leaving a half-written site."""
import os
import resource
import signal


def test_a_long_tag_or_code_gets_a_bounded_page_and_the_site_links_it(diary, tmp_path):
    long_tag = "t" + "x" * 299
    other = "t" + "x" * 298 + "y"  # the same first hundred characters: the digest keeps them apart
    diary.ok("new", "Long", "-m", "Words.", "-t", long_tag, "-t", other)
    diary.ok("check")
    r = diary.ok("export", "html", "-o", tmp_path / "site")
    pages = sorted(os.listdir(tmp_path / "site" / "tags"))
    assert len(pages) == 2 and all(len(p.encode()) <= 130 for p in pages), pages
    entry_page = next((tmp_path / "site" / "entries").rglob("*.html")).read_text()
    for p in pages:
        assert f"tags/{p}" in entry_page, (p, "the entry links the page that was written")
    assert r.rc == 0


def limited(bytes_):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (bytes_, bytes_))
    return apply


def test_a_site_that_cannot_be_written_whole_leaves_nothing(diary, tmp_path):
    import subprocess
    diary.ok("new", "Short", "-m", "A few words.")
    diary.ok("new", "Large", "-m", "word " * 20000)  # a page of ~100 kB
    target = tmp_path / "out" / "site"
    env = dict(diary.env)
    p = subprocess.run([diary.bin, "export", "html", "-o", str(target)], capture_output=True, text=True, env=env,
                       preexec_fn=limited(32 * 1024), timeout=60)
    assert p.returncode != 0, p.stderr
    assert not target.exists(), "no half-written site"
    assert os.listdir(tmp_path / "out") == [], f"no leftovers: {os.listdir(tmp_path / 'out')}"


def test_an_existing_site_keeps_its_pages_when_the_new_one_fails(diary, tmp_path):
    import subprocess
    diary.ok("new", "Short", "-m", "A few words.")
    target = tmp_path / "site"
    diary.ok("export", "html", "-o", target)
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    diary.ok("new", "Large", "-m", "word " * 20000)
    p = subprocess.run([diary.bin, "export", "html", "-o", str(target)], capture_output=True, text=True, env=diary.env,
                       preexec_fn=limited(32 * 1024), timeout=60)
    assert p.returncode != 0
    assert {p: p.read_bytes() for p in target.rglob("*") if p.is_file()} == before
    assert [n for n in os.listdir(tmp_path) if n != "site" and n != "diary" and n != "home"] == []
