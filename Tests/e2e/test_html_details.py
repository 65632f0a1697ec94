"""The HTML details a reader of `export html` and `show --html` met (issue 13, item 15): each page
read as a person reads it, on the example diary where it has what the check needs."""
import base64
import re
import struct
import zlib




def site(diary):
    out = diary.tmp / "site"
    diary.ok("export", "html", "-o", out)
    return out


def test_a_top_level_code_names_no_category_and_a_nested_one_does(example):
    out = site(example)
    trust = (out / "codes" / "trust.html").read_text()
    assert "<h1>" in trust and "in </p>" not in trust
    nested = [p for p in (out / "codes").glob("*.html") if 'class="meta">in ' in p.read_text()]
    assert nested, "the example's nested codes name their category"
    assert all(re.search(r'class="meta">in [^<]+</p>', p.read_text()) for p in nested)


def test_a_highlighter_coding_is_labelled_by_its_stroke_not_as_the_whole_entry(example):
    listing = example.ok("code", "ls", "workaround").out
    line = next(l for l in listing.splitlines() if "highlighter" in l)
    assert "(highlighter stroke 3)" in line and "whole entry" not in line
    page = (site(example) / "entries/2026/11/2026-11-06-2200-sketch-of-the-trolley.html").read_text()
    assert "(highlighter stroke 3)" in page


def test_a_place_is_shown_by_its_name_and_coordinates_not_as_yaml(diary):
    diary.ok("new", "Ward visit", "-m", "Quiet.", "--set", "location={name: Ward 3, lat: 48.2, lon: 16.3}")
    page = next((site(diary) / "entries").rglob("*.html")).read_text()
    assert "<dd>Ward 3 (48.2, 16.3)</dd>" in page
    assert "{name" not in page and "lat:" not in page


def test_the_index_of_thousands_of_entries_is_paged_by_year(diary):
    folder = {}
    for n in range(620):
        year = 2024 + n // 300
        day = f"{year}-{n % 12 + 1:02d}-{n % 28 + 1:02d}"
        f = diary.path / "entries" / str(year) / f"{n % 12 + 1:02d}" / f"{day}-{n % 24:02d}00-note-{n}.md"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(f"---\ntitle: Note {n}\ndate: {day}T{n % 24:02d}:00:00+01:00\n---\nx\n")
        folder[year] = folder.get(year, 0) + 1
    out = site(diary)
    index = (out / "index.html").read_text()
    assert index.count("<li><time") == 0, "no list of 620 entries on the index"
    for year, count in folder.items():
        assert f'href="years/{year}.html">{year}</a> <span class="meta">{count} entries' in index
        page = (out / "years" / f"{year}.html").read_text()
        assert page.count("<li><time") == count
        # Links from years/ go one folder up to the entry pages, which exist.
        for href in re.findall(r'href="(\.\./entries/[^"]+)"', page)[:5]:
            assert (out / "years" / href).resolve().exists(), href
    # A small diary keeps its one list.
    small = diary.tmp / "small"
    diary.ok("export", "html", "-o", small, "--from", "2026-01-01")
    assert "years/" not in (small / "index.html").read_text()


def png():
    """A 1×1 red PNG, made here."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def test_show_html_stands_alone_wherever_it_is_saved(diary):
    diary.ok("new", "Whiteboard", "-m", "What we drew.")
    image = diary.tmp / "board.png"
    image.write_bytes(png())
    diary.ok("attach", "last", image)
    html = diary.ok("show", "last", "--html").out
    saved = diary.tmp / "elsewhere" / "page.html"
    saved.parent.mkdir()
    saved.write_text(html)
    sources = re.findall(r'<img [^>]*src="([^"]+)"', html)
    assert sources, html
    for src in sources:
        assert src.startswith("data:image/png;base64,"), src
        assert base64.b64decode(src.split(",", 1)[1]) == png()
    assert "<style>" in html and "What we drew." in html


def test_links_between_entries_lead_to_their_pages(example):
    body = ("See [the login](2026-11-02-2230-login-trouble.md), [the memo](../11/2026-11-03-0800-morning-memo.md#plan), "
            "[a site](https://example.org/x.md) and [a note](../../../README.md).\n")
    example.ok("new", "Links", "-m", body)
    out = site(example)
    (page,) = [p for p in (out / "entries").rglob("*links.html")]
    html = page.read_text()
    login = re.search(r'href="([^"]+)">the login<', html).group(1)
    memo = re.search(r'href="([^"]+)">the memo<', html).group(1)
    assert login.endswith("entries/2026/11/2026-11-02-2230-login-trouble.html")
    assert memo.endswith("entries/2026/11/2026-11-03-0800-morning-memo.html#plan")
    for href in (login, memo):
        assert (page.parent / href.split("#")[0]).resolve().exists(), href
    assert 'href="https://example.org/x.md"' in html  # the web: as written
    # Out of the entries: not in the site, so no dead link, only its text.
    assert 'href="../../../README.md"' not in html and '<span class="broken-link">a note</span>' in html
    single = example.tmp / "one.html"
    example.ok("export", "html", "--single-file", "-o", single)
    text = single.read_text()
    assert 'href="#entry-2026-11-02-2230-login-trouble"' in text and 'id="entry-2026-11-02-2230-login-trouble"' in text
    shown = example.ok("show", "last", "--html").out
    # The entry's file by its absolute path, which a page opened from anywhere on the machine resolves.
    target = (example.path / "entries/2026/11/2026-11-02-2230-login-trouble.md").resolve()
    assert f'href="{target}"' in shown
