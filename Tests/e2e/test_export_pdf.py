"""`daybook export pdf` (issue 44): the diary typeset by daybook with Pango and Cairo, read back the
way a reader's tools read it: poppler's pdftotext (every word of every body, in order), pdfinfo
(pages, named destinations), pdffonts (every font embedded), the PDF's own objects (outline and
links) and pdftoppm's pictures of the pages (highlights, translucent ink, an image)."""
import html
import json
import re
import shutil
import struct
import subprocess
import zlib

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils is not installed (scripts/setup installs it)")

SCRIPTS = ("Latin: café naïve Zürich œuvre; Greek: Καλημέρα κόσμε; Cyrillic: Привет мир; "
           "Arabic: مرحبا بالعالم; Hebrew: שלום עולם; Chinese: 你好世界; Japanese: こんにちは; "
           "Korean: 안녕하세요; emoji: 🎉 😀 👩‍🔬")

BODY = """## Heading of the entry

Plain *emphasis*, **strong**, ~~struck~~ and `inline code` with a [web link](https://example.org/page)
and a line that ends here.

- bullet one
- bullet two
  1. nested ordered
- [ ] open task
- [x] done task

> A quoted thought
> across two lines

```
def twice(x):
    return x * 2
```

| Name | Count |
|------|------:|
| alpha | 1 |
| beta | 2 |

A footnote here[^note].

[^note]: The footnote text itself.

{scripts}
"""


def png(width, height, rgb):
    """A PNG of one colour, written by hand (no imaging library needed)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


STROKES = {"format": "daybook-strokes", "version": 1, "canvas": {"width": 400, "height": 200, "unit": "pt"},
           "channels": ["x", "y", "t", "force"],
           "strokes": [
               {"tool": "pen", "color": "#1f2328", "width": 3, "points": [[20 + 4 * i, 40, i * 10, i / 90] for i in range(90)]},
               {"tool": "highlighter", "color": "#ffd400", "width": 24, "points": [[20 + 4 * i, 120, i * 10, 0.5] for i in range(90)]},
           ]}


@pytest.fixture
def rich(diary, tmp_path):
    """Entries with every Markdown construct and script, links between them, codings, strokes and an image."""
    diary.ok("code", "define", "trust", "--description", "Whom people rely on", "--color", "#0969da")
    diary.ok("new", "Target entry", "--date", "2026-10-01 09:00", "-t", "anchor", "-m", "The target of links sits here.\n")
    target = json.loads(diary.ok("export", "json").out)
    target_id = target["entries"][0]["id"] if isinstance(target, dict) else target[0]["id"]
    (tmp_path / "ink.json").write_text(json.dumps(STROKES))
    (tmp_path / "magenta.png").write_bytes(png(60, 30, (255, 0, 255)))
    diary.ok("new", "Every construct", "--date", "2026-11-02 10:00", "-t", "test", "--mood", "4",
             "--set", "location=Ward 3", "--ink", tmp_path / "ink.json", "--attach", tmp_path / "magenta.png",
             "-m", BODY.format(scripts=SCRIPTS) + f"\nSee [[{target_id}]] and [the target by path](../10/{target_id}.md).\n")
    diary.ok("code", "add", "last", "trust", "--quote", "A quoted thought", "--memo", "relies on the ward")
    diary.ok("new", "Second month", "--date", "2026-12-24 20:00", "-m", "Long entry. " + " ".join(f"word{i}" for i in range(1500)) + "\n")
    return diary, target_id


def pdf(diary, *args, name="out.pdf"):
    out = diary.tmp / name
    diary.ok("export", "pdf", "-o", out, *args)
    return out


def text_of(path, *args):
    return subprocess.run(["pdftotext", *args, str(path), "-"], capture_output=True, text=True, check=True).stdout


def words(text):
    """Runs of letters and runs of digits: a footnote's raised number set against its word
    (`here¹`) reads as `here1`, and is still two words."""
    # Chinese, Japanese and Korean break lines between any two characters: each is a word here.
    cjk = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
    return re.findall(rf"[{cjk}]|[^\W\d_{cjk}]+|\d+", text)


def in_order(expected, got):
    """Whether `expected` occurs in `got` in order (other words, headers and labels, may stand between)."""
    it = iter(got)
    missing = [w for w in expected if not any(w == g for g in it)]
    return missing


def html_bodies(diary):
    """Each entry's body as the HTML export shows it, as text: what the PDF must hold, word for word."""
    page = diary.ok("export", "html", "--single-file").out
    out = {}
    for m in re.finditer(r'<article class="entry" id="entry-([^"]+)">.*?<div class="body">\n(.*?)</div>\n', page, re.S):
        # Code labels stand in the margin, and a footnote's number is set against the word before it.
        body = re.sub(r"<sup class=\"(code-label|footnote-ref)\">.*?</sup>", " ", m.group(2))
        body = re.sub(r"<section class=\"footnotes\".*?</section>", lambda s: s.group(0).replace("↩", " "), body, flags=re.S)
        out[m.group(1)] = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return out


def pages(path):
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def destinations(path):
    """Named destinations → page (pdfinfo -dests)."""
    out = subprocess.run(["pdfinfo", "-dests", str(path)], capture_output=True, text=True, check=True).stdout
    return {m.group(2): int(m.group(1)) for m in re.finditer(r'^\s*(\d+) \[.*?\] "(.*)"$', out, re.M)}


def raw_objects(path):
    """The PDF's objects by number (Cairo writes dictionaries uncompressed; streams are left as they are)."""
    data = path.read_bytes()
    return {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\s*(.*?)endobj", data, re.S)}


def page_objects(objs):
    """Page object numbers in page order (the page tree's Kids)."""
    def kids(n):
        d = objs[n]
        if re.search(rb"/Type\s*/Page\b(?!s)", d):
            return [n]
        m = re.search(rb"/Kids\s*\[([^\]]*)\]", d)
        return [p for k in re.findall(rb"(\d+) 0 R", m.group(1)) for p in kids(int(k))] if m else []
    root = next(n for n, d in objs.items() if re.search(rb"/Type\s*/Pages\b", d) and b"/Parent" not in d)
    return kids(root)


def links(path):
    """Every link annotation: (page, kind, target) — kind `dest` (a named destination) or `uri`."""
    objs = raw_objects(path)
    out = []
    for number, page in enumerate(page_objects(objs), start=1):
        m = re.search(rb"/Annots\s*(?:\[([^\]]*)\]|(\d+) 0 R)", objs[page])
        if not m:
            continue
        refs = m.group(1) if m.group(1) is not None else re.search(rb"\[([^\]]*)\]", objs[int(m.group(2))]).group(1)
        for ref in re.findall(rb"(\d+) 0 R", refs):
            d = objs[int(ref)]
            if dest := re.search(rb"/Dest\s*\((.*?)\)", d):
                out.append((number, "dest", dest.group(1).decode()))
            elif uri := re.search(rb"/URI\s*\((.*?)\)", d):
                out.append((number, "uri", uri.group(1).decode()))
    return out


def pdf_string(raw):
    """A PDF string's text: UTF-16 (with its byte-order mark) or PDFDocEncoding, escapes undone."""
    raw = re.sub(rb"\\([()\\])", rb"\1", raw)
    return raw[2:].decode("utf-16-be") if raw.startswith(b"\xfe\xff") else raw.decode("latin-1")


def outline(path):
    """The outline (bookmarks) as (depth, title), in order."""
    objs = raw_objects(path)
    items = {n: d for n, d in objs.items() if b"/Title" in d and b"/Parent" in d}
    root = next(n for n, d in objs.items() if re.search(rb"/Type\s*/Outlines", d))

    def title(d):
        m = re.search(rb"/Title\s*\((.*?)\)\s*/", d, re.S)
        if m:
            return pdf_string(m.group(1))
        return bytes.fromhex(re.search(rb"/Title\s*<([0-9A-Fa-f]*)>", d).group(1).decode())[2:].decode("utf-16-be")

    out = []

    def walk(n, depth):
        m = re.search(rb"/First\s+(\d+) 0 R", objs[n])
        child = int(m.group(1)) if m else None
        while child:
            out.append((depth, title(items[child])))
            walk(child, depth + 1)
            m = re.search(rb"/Next\s+(\d+) 0 R", items[child])
            child = int(m.group(1)) if m else None
    walk(root, 0)
    return out


def render(path, page, tmp, dpi=60):
    """A page as pixels (pdftoppm, then the PPM read by hand): width, height, RGB triples."""
    prefix = tmp / f"page{page}"
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), str(path), str(prefix)], check=True)
    ppm = next(tmp.glob(f"page{page}*.ppm")).read_bytes()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", ppm)
    w, h = int(m.group(1)), int(m.group(2))
    data = ppm[m.end():]
    return w, h, [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def page_of(path, needle):
    for p in range(1, pages(path) + 1):
        if needle in text_of(path, "-f", str(p), "-l", str(p)):
            return p
    return None


# MARK: Words, fonts, pages


def test_every_word_of_every_body_comes_back_in_order(rich):
    diary, _ = rich
    out = pdf(diary)
    got = words(text_of(out))
    bodies = html_bodies(diary)
    assert len(bodies) == 3
    for entry_id, body in bodies.items():
        expected = words(body)
        assert expected, entry_id
        assert in_order(expected, got) == [], (entry_id, in_order(expected, got)[:10])
    # The scripts, word by word, each in the order written (right-to-left words come out whole).
    joined = "".join(text_of(out).split())
    for w in ["café", "naïve", "Καλημέρα", "Привет", "مرحبا", "بالعالم", "שלום", "עולם", "你好世界", "こんにちは", "안녕하세요"]:
        assert w in joined, w


def test_the_example_diary_holds_every_body_word(tmp_path):
    diary_dir = tmp_path / "diary"
    shutil.copytree(ROOT / "examples" / "diary", diary_dir)
    from conftest import Diary
    d = Diary(tmp_path)
    out = pdf(d)
    got = words(text_of(out))
    bodies = html_bodies(d)
    assert len(bodies) >= 10
    for entry_id, body in bodies.items():
        assert in_order(words(body), got) == [], entry_id
    # Title page, contents, one page per entry, the appendix of codings.
    assert pages(out) == 2 + len(bodies) + 1
    assert "Codings by code" in text_of(out)


def test_fonts_are_embedded_and_subset(rich):
    diary, _ = rich
    out = pdf(diary)
    listing = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert listing, "fonts are listed"
    for line in listing:
        cols = line.split()
        name = cols[0]
        emb, sub = cols[-5], cols[-4]
        assert emb == "yes" and sub == "yes", line
        assert re.match(r"[A-Z]{6}\+", name) or "Type 3" in line, line
    families = " ".join(line.split()[0] for line in listing)
    # The text face, and the fonts fontconfig found for what it lacks (CJK).
    for family in ("NotoSerif", "NotoSans", "CJK"):
        assert family in families, (family, families)


def test_a4_by_default_letter_on_request_and_flow(rich):
    diary, _ = rich
    a4 = pdf(diary, name="a4.pdf")
    letter = pdf(diary, "--paper", "letter", name="letter.pdf")
    flow = pdf(diary, "--flow", name="flow.pdf")
    info = lambda p: subprocess.run(["pdfinfo", str(p)], capture_output=True, text=True).stdout
    assert "595.276 x 841.89 pts (A4)" in info(a4)
    assert "612 x 792 pts (letter)" in info(letter)
    dests = destinations(a4)
    entry_pages = sorted(p for n, p in dests.items() if n.startswith("entry-"))
    assert len(set(entry_pages)) == 3, "a page (at least) for each entry"
    fdests = destinations(flow)
    first, second = sorted(p for n, p in fdests.items() if n.startswith("entry-"))[:2]
    assert first == second, "with --flow the second entry starts on the first one's page"
    assert first == 3, "the entries begin on a page of their own, after the contents"
    assert pages(flow) < pages(a4)
    bad = diary.run("export", "pdf", "-o", diary.tmp / "x.pdf", "--paper", "a3")
    assert bad.rc != 0 and "a3" in bad.err and not (diary.tmp / "x.pdf").exists()
    assert diary.run("export", "json", "--flow").rc != 0, "--flow goes with pdf only"


def test_table_columns_aligned_as_the_delimiter_row_says(diary):
    diary.ok("new", "Table", "--date", "2026-11-02 10:00", "-m", "| Name | Count |\n|------|------:|\n| alpha | 1 |\n| beta | 22 |\n")
    out = pdf(diary)
    bbox = subprocess.run(["pdftotext", "-bbox", "-f", "3", "-l", "3", str(out), "-"], capture_output=True, text=True, check=True).stdout
    box = {m.group(3): (float(m.group(1)), float(m.group(2))) for m in
           re.finditer(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]+)</word>', bbox)}
    # The right-aligned column: its cells end where its heading ends; the left one starts together.
    assert abs(box["1"][1] - box["Count"][1]) < 1.5 and abs(box["22"][1] - box["Count"][1]) < 1.5, box
    assert abs(box["alpha"][0] - box["Name"][0]) < 1.5


def test_the_same_diary_at_the_same_time_gives_the_same_bytes(rich):
    diary, _ = rich
    one, two = pdf(diary, name="one.pdf"), pdf(diary, name="two.pdf")
    assert one.read_bytes() == two.read_bytes(), "an archive's copy can be checked against another"
    info = subprocess.run(["pdfinfo", str(one)], capture_output=True, text=True).stdout
    assert "Sat Nov 21 11:00:00 2026 UTC" in info, "made at the diary's clock (DAYBOOK_NOW)"


def test_page_numbers_and_running_headers(rich):
    diary, _ = rich
    out = pdf(diary)
    long_page = next(p for n, p in destinations(out).items() if n.endswith("second-month"))
    following = text_of(out, "-f", str(long_page + 1), "-l", str(long_page + 1))
    assert "word" in following, "the long entry goes on to the next page"
    assert "Thu 2026-12-24 20:00" in following, "the running header names the entry's date on its next page"
    assert re.search(rf"(^|\n)\s*{long_page + 1}\s*(\n|$)", following), "the page number is in the footer"
    assert not re.search(r"(^|\n)\s*1\s*\n", text_of(out, "-f", "1", "-l", "1")), "the title page has no number"


# MARK: Title page, contents, outline, links


def test_title_page_counts_and_contents_with_page_numbers(rich):
    diary, target_id = rich
    out = pdf(diary)
    title = text_of(out, "-f", "1", "-l", "1")
    assert "2026-10-01 – 2026-12-24" in title
    assert "3 entries" in title
    stats = json.loads(diary.ok("stats", "--json").out) if diary.run("stats", "--json").rc == 0 else None
    m = re.search(r"(\d+) words", title)
    assert m and int(m.group(1)) > 1500
    assert "1 code in 1 coding" in title
    contents = text_of(out, "-f", "2", "-l", "2", "-layout")
    dests = destinations(out)
    for entry_title, entry_id in [("Target entry", target_id)]:
        line = next(line for line in contents.splitlines() if entry_title in line)
        assert line.split()[-1] == str(dests["entry-" + entry_id])
    for line in contents.splitlines():
        m = re.match(r"\s*(\d{4}-\d\d-\d\d)\s+(.*?)\s+(\d+)\s*$", line)
        if m:
            assert m.group(2) in text_of(out, "-f", m.group(3), "-l", m.group(3)), line


def test_outline_by_year_month_and_entry(rich):
    diary, _ = rich
    out = pdf(diary)
    items = outline(out)
    titles = [t for _, t in items]
    assert (0, "2026") in items
    assert (1, "October 2026") in items and (1, "November 2026") in items and (1, "December 2026") in items
    assert (2, "2026-11-02 Every construct") in items
    assert titles.index("October 2026") < titles.index("2026-10-01 Target entry") < titles.index("November 2026")
    assert (0, "Contents") in items and (0, "Codings by code") in items


def test_links_resolve_to_the_right_pages(rich):
    diary, target_id = rich
    out = pdf(diary)
    dests = destinations(out)
    found = links(out)
    construct_page = page_of(out, "Heading of the entry")
    internal = [(p, t) for p, kind, t in found if kind == "dest" and p == construct_page]
    # [[id]] and the relative link both go to the target entry's page.
    assert [t for _, t in internal].count("entry-" + target_id) >= 2, found
    assert dests["entry-" + target_id] == page_of(out, "The target of links sits here")
    assert (construct_page, "uri", "https://example.org/page") in found
    # The contents' lines link to their entries.
    contents_links = [t for p, kind, t in found if p == 2 and kind == "dest"]
    assert len(contents_links) == 3
    for t in contents_links:
        assert t in dests
    # Every internal link has its destination.
    for _, kind, t in found:
        if kind == "dest":
            assert t in dests, t


# MARK: Codings, strokes, images


def test_coded_segments_highlighted_with_the_code_in_the_margin(rich, tmp_path):
    diary, _ = rich
    out = pdf(diary)
    page = page_of(out, "Heading of the entry")
    layout = text_of(out, "-f", str(page), "-l", str(page), "-layout")
    line = next(line for line in layout.splitlines() if "A quoted thought" in line)
    assert line.rstrip().endswith("trust"), "the code's name stands in the margin beside the segment"
    w, h, px = render(out, page, tmp_path)
    # The codebook's blue, tinted as a highlight behind the text (#0969da mixed with white).
    tint = tuple(round(c + (255 - c) * 0.68) for c in (0x09, 0x69, 0xda))
    assert sum(1 for p in px if all(abs(a - b) <= 6 for a, b in zip(p, tint))) > 50
    appendix = text_of(out, "-f", str(pages(out)), "-l", str(pages(out)))
    assert "Codebook" in appendix and "Whom people rely on" in appendix
    assert appendix.index("Whom people rely on") < appendix.index("relies on the ward")
    assert "A quoted thought" in appendix and "Every construct" in appendix


def test_strokes_drawn_with_a_translucent_highlighter_and_the_image_embedded(rich, tmp_path):
    diary, _ = rich
    out = pdf(diary)
    page = page_of(out, "Heading of the entry")
    w, h, px = render(out, page, tmp_path)
    if not sum(1 for p in px if p[0] > 240 and p[1] < 20 and p[2] > 240):
        page += 1
        w, h, px = render(out, page, tmp_path)
    magenta = sum(1 for p in px if p[0] > 240 and p[1] < 20 and p[2] > 240)
    assert magenta > (w * 0.5) * 5, "the image fills the text's width"
    # Yellow at 45 % over white: lighter than the pen's #ffd400, never the pure colour.
    light_yellow = sum(1 for p in px if p[0] > 245 and 225 < p[1] < 250 and 110 < p[2] < 160)
    pure_yellow = sum(1 for p in px if p[0] > 245 and 200 < p[1] < 220 and p[2] < 20)
    assert light_yellow > 100 and pure_yellow == 0, (light_yellow, pure_yellow)
    # Vectors, not a picture of the strokes: the only images are the attachment and the colour
    # emoji's glyphs (bitmaps in their font).
    images = [line.split() for line in subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True).stdout.splitlines()[2:]]
    big = [i for i in images if i[2] == "image" and int(i[3]) > 40]
    assert [(i[3], i[4]) for i in big] == [("60", "30")], images


def test_a_jpeg_attachment_goes_in_as_it_is(diary, tmp_path):
    pil = pytest.importorskip("PIL.Image")
    pil.new("RGB", (80, 40), (0, 200, 0)).save(tmp_path / "green.jpg", quality=95)
    diary.ok("new", "Photo", "--date", "2026-11-02 10:00", "--attach", tmp_path / "green.jpg", "-m", "A photo of the ward.\n")
    out = pdf(diary)
    images = [line.split() for line in subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True).stdout.splitlines()[2:]]
    # The JPEG's own bytes (DCT), not pixels decoded and compressed again.
    assert [(i[3], i[4], i[8]) for i in images] == [("80", "40", "jpeg")], images
    w, h, px = render(out, 3, tmp_path)
    assert sum(1 for p in px if p[1] > 180 and p[0] < 40 and p[2] < 40) > w * 0.5 * 5, "drawn at the text's width"


# MARK: Bad input, redaction


def test_an_entry_that_does_not_parse_is_reported_and_the_export_exits_1(rich):
    diary, _ = rich
    broken = diary.path / "entries" / "2026" / "11" / "2026-11-20-0900-broken.md"
    broken.write_text("---\ntitle: [unclosed\ndate: 2026-11-20T09:00:00+01:00\n---\nLost words.\n")
    out = diary.tmp / "out.pdf"
    r = diary.run("export", "pdf", "-o", out)
    assert r.rc == 1, r
    assert "2026-11-20-0900-broken.md" in r.err and "left out 1 entry" in r.err
    assert out.exists() and "Every construct" in text_of(out), "the rest is written"
    r = diary.run("export", "pdf", "-o", out, "--skip-invalid")
    assert r.rc == 0 and "2026-11-20-0900-broken.md" in r.err


def test_hostile_bodies_are_typeset_whole(diary):
    """What an attacker or a careless paste puts in an entry: nesting 3,000 deep, a NUL, a word
    longer than a line, a table of 40 columns, quotes and backslashes in link targets, a broken
    stroke file. Nothing crashes, every page stays on the paper, and the words come out."""
    deep = "".join("> " * 3000) + "bottom of the quotes\n\n" + "".join("  " * i + "- level\n" for i in range(200))
    table = "| " + " | ".join(f"c{i}" for i in range(40)) + " |\n|" + "---|" * 40 + "\n| " + " | ".join(f"v{i}" for i in range(40)) + " |\n"
    body = (deep + "\nnul\x00byte and " + "x" * 3000 + "\n\n" + table
            + "\n[quote](https://example.org/a'b\\c) and [rel](../../../../etc/passwd) and [[nowhere]] and [[\n\nlast words\n")
    path = diary.path / "entries" / "2026" / "11"
    path.mkdir(parents=True)
    (path / "2026-11-03-0900-hostile.md").write_text("---\ntitle: Hostile\ndate: 2026-11-03T09:00:00+01:00\n---\n" + body)
    (path / "2026-11-03-0900-hostile.strokes.json").write_text('{"format": "daybook-strokes", "version": 1, "strokes": [')
    r = diary.run("export", "pdf", "-o", diary.tmp / "h.pdf", timeout=120)
    assert r.rc == 0, r
    out = diary.tmp / "h.pdf"
    text = text_of(out)
    for w in ("bottom of the quotes", "level", "byte", "v39", "quote", "last words"):
        assert w in text, w
    assert "x" * 200 in "".join(text.split()), "the long word is broken over lines, not lost"
    assert (1, "uri", "https://example.org/a'b\\\\c") in [(1, k, t) for _, k, t in links(out)] or any(
        k == "uri" and t.startswith("https://example.org/a") for _, k, t in links(out))
    assert "strokes.json" in r.err, "the broken stroke file is warned about"
    # Nothing drawn off the paper: pdftotext's boxes all lie on the page.
    bbox = subprocess.run(["pdftotext", "-bbox", str(out), "-"], capture_output=True, text=True, check=True).stdout
    page = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', bbox)
    width = float(page.group(1))
    for m in re.finditer(r'<word xMin="([-\d.]+)" yMin="[-\d.]+" xMax="([-\d.]+)"', bbox):
        assert float(m.group(1)) >= 0 and float(m.group(2)) <= width + 1, m.group(0)


def test_nothing_is_left_behind_when_the_pdf_cannot_be_written(rich):
    diary, _ = rich
    # A folder that is a file (root may write anywhere, so no read-only folder would stop it).
    blocker = diary.tmp / "file"
    blocker.write_text("x")
    r = diary.run("export", "pdf", "-o", blocker / "out.pdf")
    assert r.rc != 0 and str(blocker) in r.err, r
    assert blocker.read_text() == "x"
    existing = diary.tmp / "keep.pdf"
    existing.write_bytes(b"old")
    # No entry matches: the old file stays as it was.
    assert diary.run("export", "pdf", "-o", existing, "--tag", "nosuchtag").rc == 1
    assert existing.read_bytes() == b"old"
    assert [p.name for p in diary.tmp.iterdir() if p.name.startswith(".keep.pdf")] == []


def test_redact_replaces_names_in_the_pdf(diary):
    diary.ok("new", "Visit with Anna Berger", "--date", "2026-11-02 09:00", "--location", "Ward 3@48.2,16.3",
             "-m", "ANNA said the tablet failed. Dr. Huber wrote it on paper.\n")
    diary.ok("code", "add", "last", "workaround", "--quote", "Dr. Huber wrote it on paper", "--memo", "Anna's idea")
    (diary.tmp / "redact.yml").write_text("names:\n  Anna Berger: P01\n  Anna: P01\n  Dr. Huber: Doctor A\n  Huber: Doctor A\nfields: [location]\n")
    plain = text_of(pdf(diary, name="plain.pdf"))
    assert "Huber" in plain and "48.2" in plain
    red = text_of(pdf(diary, "--redact", diary.tmp / "redact.yml", name="red.pdf"))
    assert "Huber" not in red and "Anna" not in red and "ANNA" not in red and "48.2" not in red
    assert "P01" in red and "Doctor A" in red
