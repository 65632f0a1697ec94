"""CRLF line endings (issue 13, item 11): text given or imported with \\r\\n gains no blank line, and a
quote typed with \\r\\n is stored with the body's endings."""


def body_of(path):
    text = path.read_bytes().decode()
    return text.split("---\n", 2)[2]


def test_new_with_crlf_text_gains_no_blank_line(diary):
    diary.ok("new", "-m", "x\r\ny\r\n", "Crlf")
    [entry] = diary.entries()
    assert body_of(entry) == "x\ny\n"


def test_new_with_crlf_text_without_a_final_ending(diary):
    diary.ok("new", "-m", "x\r\ny", "Crlf")
    [entry] = diary.entries()
    assert body_of(entry) == "x\ny\n"


def test_imported_crlf_file_gains_no_blank_line(diary, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "2024-03-10.md").write_bytes(b"---\r\ntags: [a]\r\n---\r\nline one\r\nline two\r\n")
    diary.ok("import", "markdown", notes)
    [entry] = diary.entries()
    assert body_of(entry) == "line one\nline two\n"


def test_crlf_quote_against_an_lf_body_is_stored_with_lf(diary):
    diary.ok("new", "-m", "first line\nsecond line\n", "Quote")
    diary.ok("code", "add", "last", "trust", "--quote", "first line\r\nsecond")
    [entry] = diary.entries()
    text = entry.read_bytes()
    assert b"\r" not in text
    assert b"first line\\nsecond" in text, text
