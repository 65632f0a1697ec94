"""Redacted exports (issue 16, "Redacted exports"): `export FORMAT --redact FILE.yml` replaces names
with pseudonyms and leaves out fields in every format, quotes too, so positions still match."""
import io
import json
import re
import subprocess
import xml.etree.ElementTree as ET
import zipfile

import pytest

NAMES = ("anna", "berger", "huber", "ward 3", "ward-3")
REDACT = "names:\n  Anna Berger: P01\n  Anna: P01\n  Dr. Huber: Doctor A\n  Huber: Doctor A\nfields: [location, people]\n"


def names_in(text):
    """The names still in the text as whole words (Annabel is another name)."""
    return [n for n in NAMES if re.search(r"(?<![^\W_])" + re.escape(n) + r"(?![^\W_])", text.lower())]


@pytest.fixture
def named(diary):
    diary.init()
    diary.ok("new", "Visit with Anna Berger", "-t", "fieldwork", "--date", "2026-11-02 09:00",
             "--set", "people=[Anna Berger, Dr. Huber]", "--location", "Ward 3@48.2,16.3", "--set", "mood_note=Anna calm",
             "-m", "ANNA said the tablet failed. Dr. Huber wrote it on paper. Annabel came later.\n")
    diary.ok("code", "add", "last", "workaround", "--quote", "Dr. Huber wrote it on paper", "--memo", "Anna's idea, says Huber")
    diary.ok("code", "define", "trust", "--description", "Trust in Dr. Huber's judgement")
    diary.ok("code", "add", "last", "trust")
    (diary.tmp / "redact.yml").write_text(REDACT)
    return diary


def read_all(path):
    """Every text in a file, an archive or a folder."""
    if path.is_dir():
        return "".join(read_all(p) for p in sorted(path.rglob("*")) if p.is_file()) + " ".join(str(p) for p in path.rglob("*"))
    data = path.read_bytes()
    if data[:5] == b"%PDF-":
        return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    if data[:2] == b"PK":
        z = zipfile.ZipFile(io.BytesIO(data))
        return " ".join(z.namelist()) + "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    return data.decode("utf-8", "replace")


@pytest.mark.parametrize("fmt,out", [
    ("json", None), ("jsonl", None), ("csv", None), ("markdown", None), ("jrnl", None), ("qdc", None),
    ("html", "site"), ("zip", "backup.zip"), ("qdpx", "study.qdpx"), ("pdf", "diary.pdf"),
])
def test_no_name_is_left_in_any_format(named, fmt, out):
    plain = named.ok("export", fmt, *(["-o", named.tmp / ("plain-" + out)] if out else []))
    before = read_all(named.tmp / ("plain-" + out)) if out else plain.out
    if fmt != "qdc":
        assert names_in(before), "the unredacted export should hold the names"
    r = named.ok("export", fmt, "--redact", named.tmp / "redact.yml", *(["-o", named.tmp / out] if out else []))
    text = read_all(named.tmp / out) if out else r.out
    assert names_in(text) == [], (fmt, names_in(text))
    if fmt in ("json", "jsonl", "markdown", "html", "zip", "qdpx", "pdf"):
        assert "P01" in text or "p01" in text
        assert "Annabel" in text, "a name inside a longer word is left alone"
    assert "48.2" not in text, "location is left out"


def test_codings_quotes_match_the_redacted_text(named):
    rows = named.ok("export", "csv", "--codings", "--redact", named.tmp / "redact.yml").out
    assert "Doctor A wrote it on paper" in rows and "P01's idea, says Doctor A" in rows
    named.ok("export", "qdpx", "--redact", named.tmp / "redact.yml", "-o", named.tmp / "s.qdpx")
    z = zipfile.ZipFile(named.tmp / "s.qdpx")
    project = ET.fromstring(z.read("project.qde"))
    ns = {"q": "urn:QDA-XML:project:1.0"}
    checked = 0
    for source in project.iterfind(".//q:TextSource", ns):
        body = z.read("sources/" + source.get("plainTextPath").split("//")[1]).decode()
        for sel in source.iterfind("q:PlainTextSelection", ns):
            start, end = int(sel.get("startPosition")), int(sel.get("endPosition"))
            if sel.get("name") is None:  # a whole-entry coding selects the whole text
                assert (start, end) == (0, len(body))
                continue
            assert body[start:end] == sel.get("name") == "Doctor A wrote it on paper"
            checked += 1
    assert checked == 1


def test_entry_ids_lose_the_name_and_the_redaction_file_is_not_exported(named):
    data = named.ok("export", "json", "--redact", named.tmp / "redact.yml").json()
    [e] = data["entries"]
    assert re.fullmatch(r"2026-11-02-0900-visit-with-p01", e["id"]), e["id"]
    assert "people" not in e["fields"] and "location" not in e["fields"]
    assert e["fields"]["mood_note"] == "P01 calm"
    z = zipfile.ZipFile(io.BytesIO((named.tmp / "b.zip").read_bytes())) if named.ok(
        "export", "zip", "--redact", named.tmp / "redact.yml", "-o", named.tmp / "b.zip") else None
    assert not any("redact" in n for n in z.namelist())


def test_attachments_are_left_out_and_said_so(named):
    (named.tmp / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\nAnna")
    named.ok("attach", "last", named.tmp / "photo.png")
    r = named.ok("export", "html", "--redact", named.tmp / "redact.yml", "-o", named.tmp / "site2")
    assert "attachments of 1 entry are left out" in r.err
    assert not list((named.tmp / "site2").rglob("photo.png"))


def test_a_broken_redaction_file_is_an_error_with_its_line(named):
    for text, why in (("names: [Anna\n", "redact.yml:"), ("names:\n  Anna: [x]\n", "pseudonym"),
                      ("fields: [title]\n", "cannot be left out"), ("nmes: {}\n", "unknown key")):
        (named.tmp / "redact.yml").write_text(text)
        r = named.run("export", "json", "--redact", named.tmp / "redact.yml")
        assert r.rc == 2 and why in r.err, (text, r)
        assert r.out == ""
    assert named.run("export", "json", "--redact", named.tmp / "missing.yml").rc == 2


# Issue 37: the places redaction missed, and the check it makes of its own output.
LONG = "Afternoon session with Zorblatt Quennington"
FORMATS = [("json", None), ("jsonl", None), ("csv", None), ("markdown", None), ("jrnl", None), ("qdc", None),
           ("html", "site"), ("zip", "backup.zip"), ("qdpx", "study.qdpx")]
HIDDEN = ("zorblatt", "quennington", "quenni", "test writer", "nightjar")


@pytest.fixture
def missed(diary):
    """An entry whose id cuts the name short, a stroke file whose text keys hold a name, a coding
    with no coder (git's user.name, Test Writer, stands in), and an entry linking to the first."""
    path = diary.ok("new", LONG, "-m", "Zorblatt Quennington spoke first.\n", "--date", "2026-11-02 09:00").out.strip()
    first = diary.path.parent / path if not path.startswith("/") else __import__("pathlib").Path(path)
    assert "zorblatt-quenni" in first.name and "quennington" not in first.name
    stem = first.name[:-3]
    (first.parent / (stem + ".strokes.json")).write_text(json.dumps({
        "format": "daybook-strokes", "version": 1, "canvas": {"width": 100, "height": 100, "unit": "pt"},
        "channels": ["x", "y", "t"], "note": "sketch of Nightjar's ward",
        "strokes": [{"tool": "pen", "color": "#1f2328", "width": 2, "label": "Zorblatt", "points": [[1, 2, 0], [30, 2, 50]]}]}))
    diary.ok("code", "add", stem, "voice", "--quote", "spoke first")
    diary.ok("new", "Follow-up", "-m", f"See [[{stem}]] again.\n", "--date", "2026-11-03 09:00")
    (diary.tmp / "names.yml").write_text("names:\n  Zorblatt Quennington: P07\n  Zorblatt: P07\n  Nightjar: P08\n  Test Writer: Coder 1\n")
    diary.stem = stem
    return diary


def hidden_in(text):
    return [n for n in HIDDEN if n in text.lower()]


@pytest.mark.parametrize("fmt,out", FORMATS)
def test_every_place_the_issue_found_comes_out_clean(missed, fmt, out):
    plain = missed.ok("export", fmt, *(["-o", missed.tmp / ("plain-" + out)] if out else []))
    before = read_all(missed.tmp / ("plain-" + out)) if out else plain.out
    if fmt not in ("qdc", "jrnl", "csv"):
        assert hidden_in(before), "the plain export holds the names"
    r = missed.ok("export", fmt, "--redact", missed.tmp / "names.yml", *(["-o", missed.tmp / out] if out else []))
    text = read_all(missed.tmp / out) if out else r.out
    assert hidden_in(text) == [], (fmt, hidden_in(text), __import__("re").findall(r"(?s).{0,60}quenni.{0,20}", text.lower()))
    if fmt in ("json", "jsonl", "html", "zip", "markdown"):
        # The id is made again from the whole redacted title, and the link follows it.
        assert "2026-11-02-0900-afternoon-session-with-p07" in text, fmt
    if fmt == "qdpx":
        assert 'name="Coder 1"' in text
    if fmt == "zip":
        z = zipfile.ZipFile(missed.tmp / out)
        strokes = [n for n in z.namelist() if n.endswith(".strokes.json")]
        assert strokes and "P07" in z.read(strokes[0]).decode() and "P08" in z.read(strokes[0]).decode()


@pytest.mark.parametrize("fmt,out", [("json", None), ("zip", "backup.zip"), ("html", "site"), ("qdpx", "study.qdpx")])
def test_a_name_left_in_the_output_is_refused_and_nothing_is_left(missed, fmt, out):
    """The redaction file names Zoë; an entry spells her Zoe, which the slug of the name matches
    but the replacement does not: the export checks what it wrote, finds it, exits 2 and leaves no
    file (nor a half-written folder) behind."""
    missed.ok("new", "Meeting", "-m", "Zoe came at noon.\n", "--date", "2026-11-04 09:00")
    (missed.tmp / "zoe.yml").write_text("names:\n  Zoë: P09\n")
    r = missed.run("export", fmt, "--redact", missed.tmp / "zoe.yml", *(["-o", missed.tmp / out] if out else []))
    assert r.rc == 2 and "still holds `Zoë`" in r.err and "nothing was written" in r.err, r
    assert r.out == ""
    assert sorted(p.name for p in missed.tmp.iterdir() if "redact" in p.name or (out and p.name.startswith(out.split(".")[0]))) == []
