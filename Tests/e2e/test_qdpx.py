"""REFI-QDA both ways (issue 17): `export qdpx` read by the real readers from PyPI (qdapy, pyrefiqda)
and by a script, changed as a QDA tool would change it, and `import qdpx|qdc` back, with CRLF and
LF bodies. Every coding's text is checked exactly, through a second export."""
import json
import re
import shutil
import uuid
import xml.etree.ElementTree as ET
import zipfile

import yaml

import pytest

NS = "{urn:QDA-XML:project:1.0}"
ET.register_namespace("", "urn:QDA-XML:project:1.0")

BODIES = {
    "clinic": "The login failed again.\nShe restarted it; the login failed again.\nGrüße 🙂 from the ward.\n",
    "night": "Night shift.\nThe login failed again, so I wrote it on paper.\n",
}


def write_entry(diary, name, date, title, body, eol):
    path = diary.path / "entries" / date[:4] / date[5:7] / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = f"---\ntitle: {title}\ndate: {date}\n---\n{body}".replace("\n", eol)
    path.write_bytes(text.encode())
    return path


def coded_diary(diary, eol):
    """Two entries (bodies with `eol` line endings) coded by two coders: a quote across a line
    break, a second occurrence, a whole-entry code, a memo, a code with `/`, a category."""
    write_entry(diary, "2026-11-20-0900-clinic", "2026-11-20T09:00:00+01:00", "Clinic", BODIES["clinic"], eol)
    write_entry(diary, "2026-11-20-2200-night", "2026-11-20T22:00:00+01:00", "Night", BODIES["night"], eol)
    diary.ok("code", "define", "frustration", "--parent", "emotions", "--color", "#d1242f", "--description", "Annoyance")
    diary.ok("code", "add", "2026-11-20-0900-clinic", "frustration", "--quote", "failed again.\nShe", "--memo", "twice in a row")
    diary.ok("code", "add", "2026-11-20-0900-clinic", "frustration", "--quote", "login failed again", "--occurrence", "2", "--coder", "kb")
    diary.ok("code", "add", "2026-11-20-0900-clinic", "trust")
    diary.ok("code", "add", "2026-11-20-0900-clinic", "work/paper", "--quote", "Grüße 🙂")
    diary.ok("code", "add", "2026-11-20-2200-night", "work/paper", "--quote", "wrote it on paper", "--coder", "kb")


def unpack(archive):
    z = zipfile.ZipFile(archive)
    root = ET.fromstring(z.read("project.qde"))
    texts = {n.split("/")[-1][:-4]: z.read(n).decode() for n in z.namelist() if n.startswith("sources/")}
    return z, root, texts


def selections(root, texts):
    """(source name, code path, coder, selected text, memo) for every coding of the project."""
    users = {u.get("guid"): u.get("name") for u in root.iter(NS + "User")}
    codes = {}

    def walk(node, prefix):
        for c in node.findall(NS + "Code"):
            codes[c.get("guid")] = prefix + c.get("name")
            walk(c, prefix + c.get("name") + "/")
    for book in root.iter(NS + "Codes"):
        walk(book, "")
        break
    notes = {n.get("guid"): n.findtext(NS + "PlainTextContent") for n in root.iter(NS + "Note")}
    out = set()
    for src in root.iter(NS + "TextSource"):
        text = src.findtext(NS + "PlainTextContent") or texts[src.get("guid")]
        for sel in src.findall(NS + "PlainTextSelection"):
            segment = text[int(sel.get("startPosition")):int(sel.get("endPosition"))]
            for c in sel.findall(NS + "Coding"):
                memo = [notes[r.get("targetGUID")] for r in c.findall(NS + "NoteRef")]
                out.add((src.get("name"), codes[c.find(NS + "CodeRef").get("targetGUID")],
                         users.get(c.get("creatingUser")), segment.replace("\r\n", "\n"), "|".join(memo)))
    return out


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_export_codes_every_coding_as_a_selection_with_coder_and_time(diary, tmp_path, eol):
    coded_diary(diary, eol)
    diary.ok("export", "qdpx", "-o", tmp_path / "p.qdpx")
    z, root, texts = unpack(tmp_path / "p.qdpx")
    for guid, text in texts.items():
        assert ("\r\n" in text) == (eol == "\r\n"), "the source text is the body as written"
    codings = list(root.iter(NS + "Coding"))
    assert len(codings) == 5
    for c in codings:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", c.get("creationDateTime")), c.attrib
        assert c.get("creatingUser")
    for src in root.iter(NS + "TextSource"):
        assert not src.findall(NS + "Coding"), "a whole-entry coding is a selection, not a coding of the source"
        text = texts[src.get("guid")]
        for sel in src.findall(NS + "PlainTextSelection"):
            start, end = int(sel.get("startPosition")), int(sel.get("endPosition"))
            if sel.get("name") is None:
                assert (start, end) == (0, len(text)), "the whole entry: code points of the whole text"
            else:
                assert text[start:end] == sel.get("name"), "name and positions agree"
    got = selections(root, texts)
    assert ("Clinic", "emotions/frustration", "Test Writer", "failed again.\nShe", "twice in a row") in got
    assert ("Clinic", "emotions/frustration", "kb", "login failed again", "") in got
    assert ("Clinic", "trust", "Test Writer", BODIES["clinic"], "") in got
    assert ("Clinic", "work\u2215paper", "Test Writer", "Grüße 🙂", "") in got, "a / in a name is no level of the tree"
    assert ("Night", "work\u2215paper", "kb", "wrote it on paper", "") in got
    # The occurrence is the second one: it starts after the first.
    clinic = next(s for s in root.iter(NS + "TextSource") if s.get("name") == "Clinic")
    second = [s for s in clinic.iter(NS + "PlainTextSelection") if s.get("name") == "login failed again"][0]
    assert int(second.get("startPosition")) == texts[clinic.get("guid")].index("login failed again", 10)


def test_coded_time_comes_from_code_add_else_history_else_the_entry_date(diary, tmp_path):
    write_entry(diary, "2026-11-20-0900-clinic", "2026-11-20T09:00:00+01:00", "Clinic", BODIES["clinic"], "\n")
    diary.ok("code", "add", "last", "trust")
    [entry] = diary.entries()
    text = entry.read_text()
    assert "    coded: 2026-11-21T12:00:00+01:00\n" in text, text
    # An old coding without `coded:`, committed by the next daybook command: the commit's time.
    entry.write_text(text.replace("codes:\n", "codes:\n  - code: old\n    quote: \"the login\"\n"))
    diary.ok("code", "define", "unrelated")
    committed = diary.git("log", "-1", "--format=%aI", "--", str(entry.relative_to(diary.path))).strip()
    assert diary.git("log", "-1", "--format=%s", "--", str(entry.relative_to(diary.path))).startswith("edit outside daybook")
    # One written after the last commit: the entry's date.
    entry.write_text(entry.read_text().replace("codes:\n", "codes:\n  - code: fresh\n    quote: \"ward\"\n"))
    diary.ok("export", "qdpx", "-o", tmp_path / "p.qdpx")
    _, root, _ = unpack(tmp_path / "p.qdpx")
    codes = {c.get("guid"): c.get("name") for c in root.iter(NS + "Code")}
    times = {codes[c.find(NS + "CodeRef").get("targetGUID")]: c.get("creationDateTime") for c in root.iter(NS + "Coding")}
    assert times["trust"] == "2026-11-21T12:00:00+01:00"
    assert times["old"] == committed, (times, committed)
    assert times["fresh"] == "2026-11-20T09:00:00+01:00"


def tool_edits(src, dst):
    """What a QDA tool does to daybook's export: a new coder, a new code in a new category with a
    colour and a memo, codings by position (one with a memo), a new text source, a PDF source."""
    z = zipfile.ZipFile(src)
    files = {n: z.read(n) for n in z.namelist()}
    root = ET.fromstring(files["project.qde"])
    texts = {n.split("/")[-1][:-4]: files[n].decode() for n in files if n.startswith("sources/")}
    g = lambda: str(uuid.uuid4())  # noqa: E731
    anna, code, category, note, codenote = g(), g(), g(), g(), g()
    ET.SubElement(root.find(NS + "Users"), NS + "User", guid=anna, name="Anna B")
    codes = root.find(NS + "CodeBook").find(NS + "Codes")
    cat = ET.SubElement(codes, NS + "Code", guid=category, name="Coping", isCodable="true")
    new = ET.SubElement(cat, NS + "Code", guid=code, name="Paper Workaround", isCodable="true", color="#00AA00")
    ET.SubElement(new, NS + "Description").text = "Writing it down instead"
    ET.SubElement(new, NS + "NoteRef", targetGUID=codenote)
    expected = set()
    sources = root.find(NS + "Sources")
    for src_el in list(sources):
        text = texts[src_el.get("guid")]
        for phrase, memo in (("the login failed", "Anna: it fails at login"), ("paper", None), ("ward", None)):
            if phrase not in text:
                continue
            start = text.rindex(phrase)  # the last occurrence, by position
            sel = ET.Element(NS + "PlainTextSelection", guid=g(), startPosition=str(start),
                             endPosition=str(start + len(phrase)), creatingUser=anna,
                             creationDateTime="2026-11-22T08:30:00Z")
            c = ET.SubElement(sel, NS + "Coding", guid=g(), creatingUser=anna)
            ET.SubElement(c, NS + "CodeRef", targetGUID=code)
            if memo:
                ET.SubElement(c, NS + "NoteRef", targetGUID=note)
            src_el.insert(1, sel)
            expected.add((src_el.get("name"), "Coping/Paper Workaround", "Anna B", phrase, memo or ""))
    interview = ET.SubElement(sources, NS + "TextSource", guid=g(), name="Interview 7", creationDateTime="2026-10-01T12:00:00Z")
    ET.SubElement(interview, NS + "PlainTextContent").text = "I keep a paper list by the door."
    sel = ET.SubElement(interview, NS + "PlainTextSelection", guid=g(), startPosition="9", endPosition="19", creatingUser=anna)
    ET.SubElement(ET.SubElement(sel, NS + "Coding", guid=g()), NS + "CodeRef", targetGUID=code)
    expected.add(("Interview 7", "Coping/Paper Workaround", "Anna B", "paper list", ""))
    bad = ET.SubElement(interview, NS + "PlainTextSelection", guid=g(), startPosition="20", endPosition="999")
    ET.SubElement(ET.SubElement(bad, NS + "Coding", guid=g()), NS + "CodeRef", targetGUID=code)
    ET.SubElement(sources, NS + "PDFSource", guid=g(), name="Scan.pdf")
    notes = root.find(NS + "Notes")
    for guid, text in ((note, "Anna: it fails at login"), (codenote, "Seen in three diaries")):
        n = ET.SubElement(notes, NS + "Note", guid=guid, name="memo")
        ET.SubElement(n, NS + "PlainTextContent").text = text
    files["project.qde"] = b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8")
    with zipfile.ZipFile(dst, "w") as out:
        for n, d in files.items():
            out.writestr(n, d)
    return expected


def translate(rows):
    """The project's rows as daybook exports them again: code names as daybook writes them."""
    names = {"Coping/Paper Workaround": "coping/paper-workaround"}
    return {(s, names.get(c, c), u, t, m) for s, c, u, t, m in rows}


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_round_trip_keeps_every_codings_text(diary, tmp_path, eol):
    coded_diary(diary, eol)
    diary.ok("export", "qdpx", "-o", tmp_path / "p.qdpx")
    _, root, texts = unpack(tmp_path / "p.qdpx")
    before = selections(root, texts)
    added = tool_edits(tmp_path / "p.qdpx", tmp_path / "edited.qdpx")
    commits = diary.commits()

    # The edited project holds codings that cannot be placed: exit 1 after importing the rest (issue 39).
    dry = diary.run("import", "qdpx", tmp_path / "edited.qdpx", "--dry-run")
    assert dry.rc == 1, dry
    assert diary.commits() == commits and diary.git("status", "--porcelain") == "", "--dry-run writes nothing"
    assert "would import" in dry.err

    r = diary.run("import", "qdpx", tmp_path / "edited.qdpx")
    assert r.rc == 1, r
    assert diary.commits() == commits + 1, "one commit"
    assert re.search(r"not placed: source \"Interview 7\" .*selection 20–999.*outside the source's text", r.out), r.out
    assert re.search(r"not placed: source \"Scan.pdf\" .*not text", r.out), r.out
    assert "note: code \"Paper Workaround\" is imported as `paper-workaround`" in r.out, r.out
    book = (diary.path / "codebook.yml").read_text()
    assert "  coping:\n    codes:\n      paper-workaround: {description: \"Writing it down instead\\n\\nSeen in three diaries\", color: \"#00aa00\"}" in book, book
    for f in diary.entries():
        assert ("\r\n" in f.read_bytes().decode()) == (eol == "\r\n" and "interview" not in f.name), "line endings kept"
    assert "coded: 2026-11-22T08:30:00+00:00" in diary.entries()[-1].read_text() or any(
        "coded: 2026-11-22T08:30:00+00:00" in f.read_text() for f in diary.entries())

    # Every coding, old and new, selects exactly its text in a second export.
    diary.ok("export", "qdpx", "-o", tmp_path / "again.qdpx")
    _, root2, texts2 = unpack(tmp_path / "again.qdpx")
    after = selections(root2, texts2)
    rename = lambda rows: {(s, c.replace("\u2215", "/"), u, t, m) for s, c, u, t, m in rows}  # noqa: E731
    assert rename(after) == rename(before) | rename(translate(added)), rename(after) ^ (rename(before) | rename(translate(added)))

    # The same file again adds nothing.
    again = diary.run("import", "qdpx", tmp_path / "edited.qdpx", "--codings-only")
    assert again.rc == 1 and diary.commits() == commits + 1, again
    assert "nothing new to import" in again.err


def test_codings_only_makes_no_entries_and_reports_the_sources(diary, tmp_path):
    coded_diary(diary, "\n")
    diary.ok("export", "qdpx", "-o", tmp_path / "p.qdpx")
    tool_edits(tmp_path / "p.qdpx", tmp_path / "edited.qdpx")
    r = diary.run("import", "qdpx", tmp_path / "edited.qdpx", "--codings-only")
    assert r.rc == 1, r
    assert len(diary.entries()) == 2
    assert re.search(r"not placed: source \"Interview 7\" .*no entry of the diary.*--codings-only", r.out), r.out


def test_sources_are_recognised_by_text_when_the_guid_is_not_daybooks(diary, tmp_path):
    coded_diary(diary, "\r\n")
    diary.ok("export", "qdpx", "-o", tmp_path / "p.qdpx")
    z = zipfile.ZipFile(tmp_path / "p.qdpx")
    qde = z.read("project.qde").decode()
    files = {n: z.read(n) for n in z.namelist()}
    for guid in re.findall(r'<TextSource guid="([0-9a-f-]+)"', qde):
        new = str(uuid.uuid4())
        qde = qde.replace(guid, new)
        files[f"sources/{new}.txt"] = files.pop(f"sources/{guid}.txt")
    files["project.qde"] = qde.encode()
    with zipfile.ZipFile(tmp_path / "other.qdpx", "w") as out:
        for n, d in files.items():
            out.writestr(n, d)
    (diary.path / "codebook.yml").unlink()
    diary.ok("code", "define", "unrelated")
    commits = diary.commits()
    r = diary.ok("import", "qdpx", tmp_path / "other.qdpx")
    assert "5 codings already in the diary" in r.err, r
    assert len(diary.entries()) == 2
    assert diary.commits() == commits + 1, "only the codebook gained the codes"


@pytest.mark.parametrize("damage,where", [
    (lambda q: q.replace("</Sources>", "</Source>"), r"p\.qdpx/project\.qde:\d+:\d+: error: not well-formed XML"),
    (lambda q: q.replace('startPosition="', 'startPosition="x', 1), r"p\.qdpx/project\.qde:\d+:\d+: error: <PlainTextSelection> `startPosition` is \"x"),
])
def test_bad_xml_is_a_positioned_error_and_writes_nothing(diary, tmp_path, damage, where):
    coded_diary(diary, "\n")
    diary.ok("export", "qdpx", "-o", tmp_path / "good.qdpx")
    z = zipfile.ZipFile(tmp_path / "good.qdpx")
    with zipfile.ZipFile(tmp_path / "p.qdpx", "w") as out:
        for n in z.namelist():
            data = z.read(n)
            out.writestr(n, damage(data.decode()).encode() if n == "project.qde" else data)
    commits = diary.commits()
    r = diary.run("import", "qdpx", "p.qdpx", cwd=tmp_path)
    assert r.rc == 2 and re.search(where, r.err), r
    assert diary.commits() == commits and diary.git("status", "--porcelain") == ""


def test_a_file_that_is_no_zip_is_an_error(diary, tmp_path):
    (tmp_path / "p.qdpx").write_text("hello")
    r = diary.run("import", "qdpx", tmp_path / "p.qdpx")
    assert r.rc == 2 and "not a ZIP archive" in r.err, r


def test_qdc_import_merges_codes_into_the_codebook(diary, tmp_path):
    coded_diary(diary, "\n")
    qdc = diary.ok("export", "qdc").out
    assert 'name="work\u2215paper"' in qdc
    # The schema's short colour form #RGB is read as #RRGGBB (issue 42).
    edited = qdc.replace('<Code guid="', '<Code guid="0d9c1a2e-0000-4000-8000-000000000001" name="Relief" isCodable="true" color="#1A7F37"/>\n'
                         '      <Code guid="0d9c1a2e-0000-4000-8000-000000000002" name="Calm" isCodable="true" color="#0aF"/>\n      <Code guid="', 1)
    (tmp_path / "b.qdc").write_text(edited)
    commits = diary.commits()
    r = diary.ok("import", "qdc", tmp_path / "b.qdc")
    assert diary.commits() == commits + 1
    book = (diary.path / "codebook.yml").read_text()
    assert "  relief:\n    color: \"#1a7f37\"\n" in book and "work/paper" in book, book
    assert "  calm:\n    color: \"#00aaff\"\n" in book, book
    assert "2 codes added" in r.err


def test_real_readers_find_every_code_segment_and_coder(diary, tmp_path):
    qdapy = pytest.importorskip("qdapy")
    pyrefiqda = pytest.importorskip("pyrefiqda")
    coded_diary(diary, "\r\n")
    diary.ok("export", "qdpx", "-o", tmp_path / "p.qdpx")
    _, root, texts = unpack(tmp_path / "p.qdpx")
    expected = selections(root, texts)

    project = qdapy.read_qdpx(tmp_path / "p.qdpx", warn=False)
    rows = {(r.title, r.code, r.codedBy, r.text.replace("\r\n", "\n")) for r in project.fragments.itertuples()}
    assert rows == {(s, c, u, t) for s, c, u, t, _ in expected}, rows
    assert set(project.coders) == {"Test Writer", "kb"}
    assert set(project.codebook["code"]) == {"emotions", "emotions/frustration", "trust", "work\u2215paper"}
    assert (project.fragments["codedAt"] != "").all(), "every coding has its time"

    model = pyrefiqda.RefiProject.load(tmp_path / "p.qdpx", extract_dir=str(tmp_path / "x"))
    users = {u.guid: u.name for u in model.users.user}
    codes = {}

    def walk(cs, prefix):
        for c in cs:
            codes[c.guid] = prefix + c.name
            walk(c.code, prefix + c.name + "/")
    walk(model.code_book.codes.code, "")
    found = set()
    for src in model.sources.text_source:
        text = (tmp_path / "x" / "sources" / src.plain_text_path.replace("internal://", "")).read_bytes().decode()
        for sel in src.plain_text_selection:
            for c in sel.coding:
                found.add((src.name, codes[c.code_ref.target_guid], users[c.creating_user],
                           text[int(sel.start_position):int(sel.end_position)].replace("\r\n", "\n")))
    assert found == {(s, c, u, t) for s, c, u, t, _ in expected}
    shutil.rmtree(tmp_path / "x")


def test_a_project_from_another_tool_makes_entries_with_lf_bodies_and_exact_quotes(diary, tmp_path):
    """A project no daybook wrote: a CRLF source file with a BOM, a selection across a line break,
    the user only on the selection, a selection of the whole text, a coding of an unknown code."""
    text = "Day one.\r\nI walk\r\naway from the screen.\r\nThen back.\r\n"
    guid = "a1b2c3d4-0000-4000-8000-00000000000a"
    start = text.index("walk")
    end = text.index(" from")
    qde = f"""<?xml version="1.0" encoding="utf-8"?>
<Project xmlns="urn:QDA-XML:project:1.0" name="Other tool">
  <Users><User guid="B0000000-0000-4000-8000-000000000001" name="Ravi"/></Users>
  <CodeBook><Codes><Code guid="C0000000-0000-4000-8000-000000000001" name="Avoidance" isCodable="true"/></Codes></CodeBook>
  <Sources>
    <TextSource guid="{guid}" name="Diary day 1" plainTextPath="internal://{guid}.txt" creationDateTime="2026-09-01T20:15:00+02:00">
      <PlainTextSelection guid="D0000000-0000-4000-8000-000000000001" startPosition="{start}" endPosition="{end}" creatingUser="B0000000-0000-4000-8000-000000000001">
        <Description>leaves the desk</Description>
        <Coding guid="E0000000-0000-4000-8000-000000000001"><CodeRef targetGUID="C0000000-0000-4000-8000-000000000001"/></Coding>
      </PlainTextSelection>
      <PlainTextSelection guid="D0000000-0000-4000-8000-000000000002" startPosition="0" endPosition="{len(text)}" creatingUser="B0000000-0000-4000-8000-000000000001">
        <Coding guid="E0000000-0000-4000-8000-000000000002"><CodeRef targetGUID="C0000000-0000-4000-8000-000000000001"/></Coding>
        <Coding guid="E0000000-0000-4000-8000-000000000003"><CodeRef targetGUID="C0000000-0000-4000-8000-00000000dead"/></Coding>
      </PlainTextSelection>
    </TextSource>
  </Sources>
</Project>
"""
    with zipfile.ZipFile(tmp_path / "other.qdpx", "w") as z:
        z.writestr("project.qde", qde)
        z.writestr(f"Sources/{guid}.txt", b"\xef\xbb\xbf" + text.encode())
    r = diary.run("import", "qdpx", tmp_path / "other.qdpx")
    assert r.rc == 1, "a coding could not be placed (issue 39: exit 1 after importing the rest)"
    assert re.search(r"not placed: source \"Diary day 1\" .*selection 0–\d+ .*names the code c0000000-0000-4000-8000-00000000dead", r.out), r.out
    [entry] = diary.entries()
    assert entry.name == "2026-09-01-2015-diary-day-1.md"
    assert b"\r" not in entry.read_bytes() and "date: 2026-09-01T20:15:00+02:00" in entry.read_text()
    rows = diary.ok("code", "ls", "--json").json()
    got = sorted(((c["code"], c.get("quote") or "", c["coder"], c.get("memo") or "") for c in rows))
    assert got == [("avoidance", "", "Ravi", ""), ("avoidance", "walk\naway", "Ravi", "leaves the desk")], rows


def positions_project(text, selections, inline=False):
    """A project of one text source whose selections are (start, end, name) in the tool's own count."""
    guid = "a1b2c3d4-0000-4000-8000-0000000000b1"
    sels = "\n".join(
        f'      <PlainTextSelection guid="D0000000-0000-4000-8000-00000000010{i}" startPosition="{s}" endPosition="{e}"'
        + (f' name="{n}"' if n is not None else "") + ">\n"
        + f'        <Coding guid="E0000000-0000-4000-8000-00000000010{i}"><CodeRef targetGUID="C0000000-0000-4000-8000-000000000001"/></Coding>\n'
        + "      </PlainTextSelection>" for i, (s, e, n) in enumerate(selections))
    source = (f'<TextSource guid="{guid}" name="Interview" creationDateTime="2026-09-01T20:15:00+02:00">\n'
              f"      <PlainTextContent>{text}</PlainTextContent>\n" if inline else
              f'<TextSource guid="{guid}" name="Interview" plainTextPath="internal://{guid}.txt" creationDateTime="2026-09-01T20:15:00+02:00">\n')
    qde = f"""<?xml version="1.0" encoding="utf-8"?>
<Project xmlns="urn:QDA-XML:project:1.0" name="Positions">
  <CodeBook><Codes><Code guid="C0000000-0000-4000-8000-000000000001" name="Badge" isCodable="true"/></Codes></CodeBook>
  <Sources>
    {source}{sels}
    </TextSource>
  </Sources>
</Project>
"""
    return guid, qde


def import_positions(diary, tmp_path, text, selections, inline=False):
    guid, qde = positions_project(text, selections, inline)
    with zipfile.ZipFile(tmp_path / "p.qdpx", "w") as z:
        z.writestr("project.qde", qde.encode("utf-8"))
        if not inline:
            z.writestr(f"Sources/{guid}.txt", text.encode())
    r = diary.run("import", "qdpx", tmp_path / "p.qdpx")
    quotes = sorted(c.get("quote") or "" for c in diary.ok("code", "ls", "--json").json())
    return r, quotes


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


def test_positions_counted_in_utf16_units_are_placed_by_the_selections_name(diary, tmp_path):
    """As .NET tools count: an emoji before the selection is two units, so code points would give
    "e badge reader w" for "the badge reader" (issue 39)."""
    text = "Morning 😀😀 on the ward: the badge reader was down again.\n"
    start = utf16_len(text[:text.index("the badge")])
    end = start + len("the badge reader")
    r, quotes = import_positions(diary, tmp_path, text, [(start, end, "the badge reader")])
    assert r.rc == 0, r
    assert quotes == ["the badge reader"], quotes
    assert "UTF-16 units" in r.out, r.out


def test_inline_crlf_that_xml_made_lf_is_placed_by_the_selections_name(diary, tmp_path):
    """<PlainTextContent> held CRLF, which XML reads as LF; the positions still count two."""
    original = "First line.\r\nSecond line.\r\nThe badge reader failed.\r\n"
    start = original.index("badge")
    end = start + len("badge reader")
    r, quotes = import_positions(diary, tmp_path, original.replace("\r\n", "&#10;").replace("&#10;", "\n"),
                                 [(start, end, "badge reader")], inline=True)
    assert r.rc == 0, r
    assert quotes == ["badge reader"], quotes
    assert "line break as two" in r.out, r.out


def test_a_selection_whose_text_matches_in_no_count_is_not_placed_and_fails(diary, tmp_path):
    text = "The badge reader was down.\n"
    r, quotes = import_positions(diary, tmp_path, text, [(4, 9, "something else entirely"), (4, 9, "badge")])
    assert r.rc == 1, r
    assert "not the text the selection names" in r.out, r.out
    assert quotes == ["badge"], "the rest is imported"


def test_without_a_name_positions_are_code_points(diary, tmp_path):
    text = "Café 😀 then the badge reader.\n"
    start = text.index("badge")
    r, quotes = import_positions(diary, tmp_path, text, [(start, start + 5, None)])
    assert r.rc == 0 and quotes == ["badge"], (r, quotes)


def test_an_archive_that_unpacks_too_large_is_refused_before_anything_is_written(diary, tmp_path):
    """A 195 KB project held a 200 MB source: 117 s, 1.55 GB and a 200 MB entry (issue 39)."""
    diary.init()
    guid, qde = positions_project("x", [])
    with zipfile.ZipFile(tmp_path / "bomb.qdpx", "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("project.qde", qde.encode())
        z.writestr(f"Sources/{guid}.txt", b"a" * (101 * 1024 * 1024))
    assert (tmp_path / "bomb.qdpx").stat().st_size < 1024 * 1024
    commits = diary.commits()
    r = diary.run("import", "qdpx", tmp_path / "bomb.qdpx")
    assert r.rc == 2 and "more than the 100 MB an import unpacks" in r.err and "--max-unpacked" in r.err, r
    assert diary.commits() == commits and diary.entries() == []
    # The limits can be lowered or raised.
    small = tmp_path / "small.qdpx"
    with zipfile.ZipFile(small, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("project.qde", qde.encode())
        z.writestr(f"Sources/{guid}.txt", b"b" * (2 * 1024 * 1024))
    r = diary.run("import", "qdpx", small, "--max-unpacked", "1")
    assert r.rc == 2 and "more than the 1 MB" in r.err, r
    r = diary.run("import", "qdpx", small, "--max-files", "1")
    assert r.rc == 2 and "holds 2 files, more than the 1" in r.err, r
    assert diary.commits() == commits


def test_qdc_exports_the_codebook_when_no_entry_matches(diary, tmp_path):
    diary.init()
    diary.ok("code", "define", "trust")
    diary.ok("export", "qdc", "-o", tmp_path / "empty.qdc")
    assert 'name="trust"' in (tmp_path / "empty.qdc").read_text()
    diary.ok("new", "A", "-m", "words")
    diary.ok("export", "qdc", "-o", tmp_path / "filtered.qdc", "--tag", "nothing-has-this")
    assert 'name="trust"' in (tmp_path / "filtered.qdc").read_text()


def test_an_orphaned_coding_is_exported_as_a_coding_of_the_whole_text_with_its_quote(diary, tmp_path):
    diary.init()
    diary.ok("new", "A", "-m", "the nurse said hi")
    diary.ok("code", "add", "last", "trust", "--quote", "nurse said")
    entry = diary.entries()[0]
    entry.write_text(entry.read_text().replace("the nurse said hi", "the doctor spoke"))
    r = diary.ok("export", "qdpx", "-o", tmp_path / "p.qdpx")
    assert "orphaned" in r.err
    _, root, texts = unpack(tmp_path / "p.qdpx")
    [sel] = list(root.iter(NS + "PlainTextSelection"))
    assert (sel.get("startPosition"), sel.get("endPosition")) == ("0", str(len("the doctor spoke\n")))
    assert 'no longer in the text: "nurse said"' in sel.find(NS + "Description").text
    assert sel.find(NS + "Coding") is not None


def test_an_entity_xml_does_not_define_is_named_where_it_stands(diary, tmp_path):
    """`&nbsp;` in <PlainTextContent> is HTML's, not XML's: the import names it and its place and
    writes nothing, never a text cut short at it (issue 39)."""
    diary.init()
    guid, qde = positions_project("before &nbsp; after the entity", [], inline=True)
    with zipfile.ZipFile(tmp_path / "e.qdpx", "w") as z:
        z.writestr("project.qde", qde.encode())
    line = next(i for i, l in enumerate(qde.splitlines(), 1) if "&nbsp;" in l)
    column = qde.splitlines()[line - 1].index("&nbsp;") + 1
    r = diary.run("import", "qdpx", tmp_path / "e.qdpx")
    assert r.rc == 2 and f"project.qde:{line}:{column}:" in r.err and "`&nbsp;`" in r.err, r
    assert diary.entries() == []


def test_cases_variables_and_sets_are_kept_as_tags_and_fields(diary, tmp_path):
    """A project with Cases, Variables and Sets (issue 42): a source that becomes a new entry is
    tagged case/NAME and set/NAME and given its variables as fields; an entry the diary has gets
    codings only, and the report says what it was not given."""
    coded_diary(diary, "\n")
    g = {k: str(uuid.uuid4()) for k in ("u", "code", "age", "site", "ok", "title", "p01", "p02", "s1", "s2", "set", "c1")}
    qde = f"""<?xml version="1.0" encoding="utf-8"?>
<Project xmlns="urn:QDA-XML:project:1.0" name="Tool project">
  <Users><User guid="{g['u']}" name="Anna B"/></Users>
  <CodeBook><Codes><Code guid="{g['code']}" name="Paper" isCodable="true"/></Codes></CodeBook>
  <Variables>
    <Variable guid="{g['age']}" name="Age" typeOfVariable="Integer"/>
    <Variable guid="{g['site']}" name="Site" typeOfVariable="Text"/>
    <Variable guid="{g['ok']}" name="Consented" typeOfVariable="Boolean"/>
    <Variable guid="{g['title']}" name="Title" typeOfVariable="Text"/>
  </Variables>
  <Cases>
    <Case guid="{g['p01']}" name="P01">
      <VariableValue><VariableRef targetGUID="{g['age']}"/><IntegerValue>24</IntegerValue></VariableValue>
      <VariableValue><VariableRef targetGUID="{g['site']}"/><TextValue>Leeds</TextValue></VariableValue>
      <VariableValue><VariableRef targetGUID="{g['title']}"/><TextValue>Nurse</TextValue></VariableValue>
      <SourceRef targetGUID="{g['s1']}"/>
    </Case>
    <Case guid="{g['p02']}" name="P02"><SourceRef targetGUID="{g['s2']}"/></Case>
  </Cases>
  <Sources>
    <TextSource guid="{g['s1']}" name="Interview 7" creationDateTime="2026-10-01T12:00:00Z">
      <PlainTextContent>I keep a paper list by the door.</PlainTextContent>
      <VariableValue><VariableRef targetGUID="{g['ok']}"/><BooleanValue>true</BooleanValue></VariableValue>
      <PlainTextSelection guid="{g['c1']}" startPosition="9" endPosition="19" creatingUser="{g['u']}">
        <Coding guid="{str(uuid.uuid4())}" creatingUser="{g['u']}"><CodeRef targetGUID="{g['code']}"/></Coding>
      </PlainTextSelection>
    </TextSource>
    <TextSource guid="{g['s2']}" name="Night">
      <PlainTextContent>{BODIES['night']}</PlainTextContent>
      <PlainTextSelection guid="{str(uuid.uuid4())}" startPosition="54" endPosition="59" creatingUser="{g['u']}">
        <Coding guid="{str(uuid.uuid4())}" creatingUser="{g['u']}"><CodeRef targetGUID="{g['code']}"/></Coding>
      </PlainTextSelection>
    </TextSource>
  </Sources>
  <Sets><Set guid="{g['set']}" name="Night Shifts"><MemberSource targetGUID="{g['s1']}"/></Set></Sets>
</Project>
"""
    assert BODIES["night"][54:59] == "paper"
    with zipfile.ZipFile(tmp_path / "t.qdpx", "w") as z:
        z.writestr("project.qde", qde)
    before = {p: p.read_text() for p in diary.entries()}
    r = diary.ok("import", "qdpx", tmp_path / "t.qdpx")
    [new] = [p for p in diary.entries() if p not in before]
    text = new.read_text()
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["tags"] == ["case/p01", "set/night-shifts"], front
    assert (front["age"], front["site"], front["consented"]) == (24, "Leeds", True), front
    assert front["title"] == "Interview 7" and "Nurse" not in text
    assert 'the variable "Title" cannot be a field' in r.out
    # The entry the diary has: a coding, and neither tag nor field; the report says so.
    [night] = [p for p in before if "night" in p.name]
    after = night.read_text()
    assert "coder: Anna B" in after and "case/" not in after
    assert 'is the entry' in r.out and 'case "P02" not written to it' in r.out, r.out
    assert json.loads(diary.ok("ls", "--tag", "case", "--json").out)[0]["title"] == "Interview 7"


def three_code_project(tmp_path):
    """Codes: `Placed` (a coding that fits), `Lost` (its only coding names other text), `Unused`
    (no coding at all, as a codebook holds codes not yet applied)."""
    text = "The badge reader was down.\n"
    guid = "a1b2c3d4-0000-4000-8000-0000000000c1"
    code = lambda n, name: f'<Code guid="C0000000-0000-4000-8000-00000000000{n}" name="{name}" isCodable="true"/>'
    sel = lambda n, s, e, name, c: (
        f'<PlainTextSelection guid="D0000000-0000-4000-8000-00000000020{n}" startPosition="{s}" endPosition="{e}" name="{name}">'
        f'<Coding guid="E0000000-0000-4000-8000-00000000020{n}"><CodeRef targetGUID="C0000000-0000-4000-8000-00000000000{c}"/></Coding>'
        "</PlainTextSelection>")
    qde = f"""<?xml version="1.0" encoding="utf-8"?>
<Project xmlns="urn:QDA-XML:project:1.0" name="Three codes">
  <CodeBook><Codes>{code(1, "Placed")}{code(2, "Lost")}{code(3, "Unused")}</Codes></CodeBook>
  <Sources>
    <TextSource guid="{guid}" name="Interview" plainTextPath="internal://{guid}.txt" creationDateTime="2026-09-01T20:15:00+02:00">
      {sel(1, 4, 9, "badge", 1)}{sel(2, 4, 9, "not this text", 2)}
    </TextSource>
  </Sources>
</Project>
"""
    with zipfile.ZipFile(tmp_path / "three.qdpx", "w") as z:
        z.writestr("project.qde", qde)
        z.writestr(f"Sources/{guid}.txt", text.encode())
    return tmp_path / "three.qdpx", text


def test_a_code_none_of_whose_codings_could_be_placed_is_not_committed(diary, tmp_path):
    """Issue 39: the codebook gains a code the project defines without codings, and the code whose
    every coding was placed, but not one whose codings were all left out; exit 1, each said."""
    diary.init()
    project, _ = three_code_project(tmp_path)
    r = diary.run("import", "qdpx", project)
    assert r.rc == 1, r
    assert "code `lost`: none of its 1 coding in the file could be placed; not added to the codebook" in r.out + r.err, r
    book = (diary.path / "codebook.yml").read_text()
    assert "placed" in book and "unused" in book and "lost" not in book, book
    assert "lost" not in diary.git("show", "HEAD:codebook.yml")
    assert [c["code"] for c in diary.ok("code", "ls", "--json").json()] == ["placed"]


def test_codings_only_adds_no_code_that_no_placed_coding_uses(diary, tmp_path):
    diary.init()
    project, text = three_code_project(tmp_path)
    diary.ok("new", "Interview", "-m", text.rstrip("\n"))
    r = diary.run("import", "qdpx", project, "--codings-only")
    assert r.rc == 1, r
    out = r.out + r.err
    assert "code `unused`: no coding placed by this import uses it (--codings-only); not added to the codebook" in out, out
    assert "code `lost`: none of its 1 coding" in out, out
    book = (diary.path / "codebook.yml").read_text()
    assert "placed" in book and "unused" not in book and "lost" not in book, book
    assert [c["code"] for c in diary.ok("code", "ls", "--json").json()] == ["placed"]
