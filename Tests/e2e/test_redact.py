"""Redacted exports (issue 16, "Redacted exports"): `export FORMAT --redact FILE.yml` replaces names
with pseudonyms and leaves out fields in every format, quotes too, so positions still match."""
import io
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
