"""`daybook lsp` driven by a real LSP client (pytest-lsp, on pygls and lsprotocol), as an editor drives it.

Each test starts the built binary on a fresh diary, opens entries with the editor's (unsaved) text,
and checks what an editor would show: each diagnostic at its range, completions, the front matter a
"Code as" leaves, the commit a save makes. The bad-input tests talk to the server on raw pipes:
broken frames, unknown methods, a file outside any diary, a 10 MB buffer, a client that vanishes.
"""
import asyncio
import json
import os
import pathlib
import subprocess
import time

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
pytest_asyncio = pytest.importorskip("pytest_asyncio")
from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pytest_lsp import client_capabilities  # noqa: E402
from pytest_lsp.client import make_test_lsp_client  # noqa: E402

BODY = "The nurse showed me the tablet. The login failed again, and she restarted it.\n"
CODEBOOK = """codes:
  emotions:
    description: Feelings people express about the tools
    color: "#8250df"
    codes:
      frustration: {description: Annoyance at a tool or process, color: "#d1242f"}
  workaround:
    description: Someone bypasses the intended procedure
"""


def uri(path):
    return pathlib.Path(path).resolve().as_uri()


def pos(line, character):
    return types.Position(line=line, character=character)


def rng(a, b, c, d):
    return types.Range(start=pos(a, b), end=pos(c, d))


def apply(text, edits):
    """Applies LSP text edits (UTF-16 positions) to a text, last first."""
    lines = text.split("\n")

    def offset(p):
        before = sum(len(lines[k]) + 1 for k in range(p.line))
        line = lines[p.line] if p.line < len(lines) else ""
        units = line.encode("utf-16-le")[: 2 * p.character].decode("utf-16-le")
        return before + len(units)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


@pytest_asyncio.fixture
async def lsp(diary):
    """A client talking to `daybook lsp` (started as an editor starts it: no --diary, no DAYBOOK_DIR)."""
    client = make_test_lsp_client()
    client.applied_edits = []

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams):
        client.applied_edits.append(params.edit)
        return types.ApplyWorkspaceEditResult(applied=True)

    env = {k: v for k, v in diary.env.items() if k != "DAYBOOK_DIR"}
    await client.start_io(diary.bin, "lsp", env=env, cwd=str(diary.tmp))
    client.init_result = await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=uri(diary.path)))
    client.diary = diary
    yield client
    await client.shutdown_session()
    await client.stop()


async def open_entry(client, path, text):
    """Opens `path` with `text` as its (unsaved) buffer and returns its diagnostics."""
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri(path)]


async def settle(client):
    """Waits until the server has handled every notification sent so far (it answers in order)."""
    await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="\u0000none"))


def entry_path(diary, name="2026-11-21-1200-night-shift"):
    p = diary.path / "entries" / "2026" / "11" / f"{name}.md"
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


def by_message(diags, part):
    found = [d for d in diags if part in d.message]
    assert found, f"no diagnostic with {part!r} in {[d.message for d in diags]}"
    return found[0]


# --- initialize, diagnostics -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_initialize_announces_what_the_server_does(lsp):
    caps = lsp.init_result.capabilities
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental
    assert caps.completion_provider and caps.hover_provider and caps.definition_provider
    assert caps.code_action_provider and caps.workspace_symbol_provider and caps.inlay_hint_provider
    assert "daybook.codeAs" in caps.execute_command_provider.commands


@pytest.mark.asyncio
async def test_broken_front_matter_shows_each_problem_at_its_range(lsp):
    p = entry_path(lsp.diary)
    text = ("---\n"
            "title: Night shift\n"
            "date: 2026-13-45\n"
            "mood: 9\n"
            "tags: [ok, \"bad tag!\"]\n"
            "---\n" + BODY)
    # Nothing on disk: the server reads the editor's text, never the file.
    diags = await open_entry(lsp, p, text)
    assert not p.exists()
    date = by_message(diags, "`date` must be")
    assert date.range == rng(2, 6, 2, 16) and date.severity == types.DiagnosticSeverity.Error
    mood = by_message(diags, "mood 9 is off the scale 1–5")
    assert mood.range == rng(3, 6, 3, 7)
    tag = by_message(diags, "is not a tag")
    assert tag.range.start == pos(4, 11)

    # Typing the fix (an incremental change) clears the date problem.
    lsp.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(p), version=2),
        content_changes=[types.TextDocumentContentChangePartial(range=rng(2, 6, 2, 16), text="2026-11-21T12:00:00+01:00")]))
    await lsp.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    messages = [d.message for d in lsp.diagnostics[uri(p)]]
    assert not any("`date`" in m for m in messages) and any("mood 9" in m for m in messages)


@pytest.mark.asyncio
async def test_yaml_errors_and_missing_date_and_unclosed_front_matter(lsp):
    p = entry_path(lsp.diary)
    diags = await open_entry(lsp, p, "---\ntitle: [unclosed\ndate: 2026-11-21\n---\nBody\n")
    yaml = by_message(diags, "invalid YAML")
    assert yaml.range.start.line in (1, 2, 3)
    lsp.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(p), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="---\ntitle: x\n---\nBody\n")]))
    await lsp.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    missing = by_message(lsp.diagnostics[uri(p)], "has no `date`")
    assert missing.range == rng(0, 0, 0, 3)
    lsp.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(p), version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="---\ntitle: x\n")]))
    await lsp.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    by_message(lsp.diagnostics[uri(p)], "not closed")


@pytest.mark.asyncio
async def test_codings_orphans_unknown_codes_duplicates_and_template_fields(lsp):
    (lsp.diary.path / "codebook.yml").write_text(CODEBOOK)
    p = entry_path(lsp.diary)
    text = ("---\n"
            "title: Night shift\n"
            "date: 2026-11-21T12:00:00+01:00\n"
            "template: emotion\n"
            "mood: 7\n"
            "feeling: joy\n"
            "codes:\n"
            "  - code: frustraton\n"
            "    quote: \"login failed\"\n"
            "  - code: workaround\n"
            "    quote: \"she rebooted it\"\n"
            "  - trust\n"
            "  - trust\n"
            "---\n" + BODY)
    diags = await open_entry(lsp, p, text)
    unknown = by_message(diags, "`frustraton` is not in the codebook")
    assert unknown.severity == types.DiagnosticSeverity.Warning and unknown.range.start.line == 7
    related = unknown.related_information
    assert related and related[0].location.uri == uri(lsp.diary.path / "codebook.yml")
    assert related[0].location.range.start.line == 5  # the line of `frustration:`
    orphan = by_message(diags, "orphaned coding `workaround`")
    assert orphan.range == rng(10, 4, 10, 28)  # the coding's `quote:` line
    dup = by_message(diags, "duplicate coding `trust`")
    assert dup.range.start.line == 12
    feeling = by_message(diags, "field `feeling`")
    assert feeling.range == rng(5, 0, 5, 12) and feeling.severity == types.DiagnosticSeverity.Error


@pytest.mark.asyncio
async def test_links_to_nothing_are_warnings_at_the_links_exact_range(lsp):
    lsp.diary.ok("new", "Login trouble", "--date", "2026-11-02 22:30", "-m", "x")
    lsp.diary.ok("new", "Memo", "--date", "2026-11-03 08:00", "-m", "y")
    lsp.diary.ok("new", "Memo two", "--date", "2026-11-03 08:15", "-m", "z")
    p = entry_path(lsp.diary)
    text = ("---\n"
            "title: Night shift\n"
            "date: 2026-11-21T12:00:00+01:00\n"
            "---\n"
            "Ünïcode first: [[2026-11-02|fine]] and [[gone-for-good|label]] and [[2026-11-03-08]].\n"
            "`[[in-code]]` and [[unclosed and [a file](../10/2026-10-01-0900-x.md).\n"
            "![a photo](2026-11-02-2230-login-trouble/none.png) [out](../../../../../etc/passwd)\n")
    diags = [d for d in await open_entry(lsp, p, text) if "link" in d.message]
    assert len(diags) == 5, [d.message for d in diags]
    line4 = text.split("\n")[4]
    gone = by_message(diags, "[[gone-for-good]] leads to nothing")
    start = line4.index("[[gone")  # no character above U+FFFF: UTF-16 units are characters
    assert gone.range == rng(4, start, 4, start + len("[[gone-for-good|label]]"))
    assert gone.severity == types.DiagnosticSeverity.Warning
    ambiguous = by_message(diags, "[[2026-11-03-08]] names 2 entries")
    start = line4.index("[[2026-11-03-08]]")
    assert ambiguous.range == rng(4, start, 4, start + len("[[2026-11-03-08]]"))
    line5 = text.split("\n")[5]
    missing = by_message(diags, "no entry file entries/2026/10/2026-10-01-0900-x.md")
    assert missing.range == rng(5, line5.index("[a file]"), 5, len(line5) - 1)
    photo = by_message(diags, "no attachment")
    assert photo.range == rng(6, 0, 6, len("![a photo](2026-11-02-2230-login-trouble/none.png)"))
    out = by_message(diags, "leads out of the diary's entries")
    assert out.range.start == pos(6, text.split("\n")[6].index("[out]"))

    # Typing the missing part of an id (an incremental change) makes the link resolve.
    lsp.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(p), version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=rng(4, line4.index("08]]") + 2, 4, line4.index("08]]") + 2), text="15")]))
    await lsp.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    messages = [d.message for d in lsp.diagnostics[uri(p)]]
    assert not any("names 2 entries" in m for m in messages) and any("gone-for-good" in m for m in messages)


@pytest.mark.asyncio
async def test_strict_codebook_makes_an_unknown_code_an_error(diary):
    (diary.path / "daybook.yml").write_text((diary.path / "daybook.yml").read_text() + "codebook: {strict: true}\n")
    (diary.path / "codebook.yml").write_text(CODEBOOK)
    client = make_test_lsp_client()
    env = {k: v for k, v in diary.env.items() if k != "DAYBOOK_DIR"}
    await client.start_io(diary.bin, "lsp", env=env)
    await client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    p = entry_path(diary)
    diags = await open_entry(client, p, "---\ndate: 2026-11-21T12:00:00+01:00\ncodes:\n  - frustraton\n---\n" + BODY)
    d = by_message(diags, "`frustraton` is not in the codebook (strict)")
    assert d.severity == types.DiagnosticSeverity.Error and d.range == rng(3, 4, 3, 14)  # the code, not the list item (issue 40)
    assert "frustration" in d.message
    related = d.related_information
    assert related and related[0].location.uri == uri(diary.path / "codebook.yml")
    assert related[0].location.range.start.line == 5 and "frustration" in related[0].message
    # "Code as…" a new code is refused under a strict codebook: an error, no edit, no new code.
    col = BODY.index("login failed")
    book = (diary.path / "codebook.yml").read_text()
    with pytest.raises(JsonRpcException) as e:
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="daybook.codeAs", arguments=[uri(p), {"start": {"line": 5, "character": col},
                                                          "end": {"line": 5, "character": col + 12}}, "boredom"]))
    assert "boredom" in str(e.value)
    assert (diary.path / "codebook.yml").read_text() == book and not p.exists()
    await client.shutdown_session()
    await client.stop()


# --- completion --------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_completion_of_tags_codes_keys_and_options(lsp):
    d = lsp.diary
    d.ok("new", "First", "-m", "one", "-t", "fieldwork", "-t", "interview", env={"DAYBOOK_DIR": str(d.path)})
    d.ok("new", "Second", "-m", "two", "-t", "fieldwork", env={"DAYBOOK_DIR": str(d.path)})
    (d.path / "codebook.yml").write_text(CODEBOOK)
    p = entry_path(d)
    text = ("---\n"
            "date: 2026-11-21T12:00:00+01:00\n"
            "tags: [fi\n"
            "template: emotion\n"
            "feeling: \n"
            "codes:\n"
            "  - code: fr\n"
            "mo\n"
            "---\n"
            "Today #inter\n")
    await open_entry(lsp, p, text)

    async def labels(line, character):
        r = await lsp.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(line, character)))
        items = r.items if hasattr(r, "items") else r
        return {i.label: i for i in items}

    tags = await labels(2, 9)
    assert tags["fieldwork"].detail == "2 entries" and tags["interview"].detail == "1 entry"
    assert tags["fieldwork"].text_edit.range == rng(2, 7, 2, 9)
    codes = await labels(6, 12)
    assert "frustration" in codes and codes["frustration"].documentation.value.startswith("Annoyance at a tool")
    assert "workaround" in codes
    keys = await labels(7, 2)
    assert "mood" in keys and "title" in keys and "minutes" in keys and "date" not in keys
    options = await labels(4, 9)
    assert "enjoyment" in options and "surprise" in options
    inline = await labels(9, 12)
    assert "interview" in inline and inline["interview"].text_edit.range == rng(9, 7, 9, 12)


# --- code actions, commands, commit on save ------------------------------------------------------


@pytest.mark.asyncio
async def test_code_as_on_a_selection_writes_the_coding_into_the_front_matter(lsp):
    d = lsp.diary
    (d.path / "codebook.yml").write_text(CODEBOOK)
    d.ok("new", "Night shift", "-m", BODY, "-t", "fieldwork", env={"DAYBOOK_DIR": str(d.path)})
    p = d.entries()[0]
    text = p.read_text()
    await open_entry(lsp, p, text)
    lines = text.split("\n")
    body_line = lines.index(BODY.rstrip("\n"))
    col = lines[body_line].index("login failed")
    selection = rng(body_line, col, body_line, col + len("login failed"))
    actions = await lsp.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), range=selection,
        context=types.CodeActionContext(diagnostics=[])))
    titles = [a.title for a in actions]
    assert "Code as frustration" in titles, titles
    action = next(a for a in actions if a.title == "Code as frustration")
    new = apply(text, action.edit.changes[uri(p)])
    front, body = new.split("\n---\n", 1)
    assert "codes:\n  - code: frustration\n    quote: \"login failed\"\n    coder: Test Writer" in front
    assert body == BODY and new.startswith(text.split("\n---\n", 1)[0])

    # The edited buffer shows the coding: an inlay hint after the segment, its colour.
    lsp.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(p), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)]))
    await lsp.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(lsp.diagnostics[uri(p)]) == []
    new_lines = new.split("\n")
    b = new_lines.index(BODY.rstrip("\n"))
    hints = await lsp.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), range=rng(0, 0, len(new_lines), 0)))
    assert [(h.position.line, h.position.character, h.label) for h in hints] == [(b, col + 12, "◂ frustration")]
    colors = await lsp.text_document_document_color_async(types.DocumentColorParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p))))
    assert colors[0].range == rng(b, col, b, col + 12) and round(colors[0].color.red * 255) == 0xd1
    highlights = await lsp.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(b, col + 2)))
    assert [h.range for h in highlights] == [rng(b, col, b, col + 12)]
    hover = await lsp.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(b, col + 2)))
    assert "Annoyance at a tool" in hover.contents.value
    definition = await lsp.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(b, col + 2)))
    assert definition.uri == uri(d.path / "codebook.yml") and definition.range.start.line == 5

    # Remove it again from the segment.
    actions = await lsp.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), range=rng(b, col + 2, b, col + 2),
        context=types.CodeActionContext(diagnostics=[])))
    remove = next(a for a in actions if a.title.startswith("Remove coding frustration"))
    assert apply(new, remove.edit.changes[uri(p)]) == text

    # Save: the server commits as `daybook edit` does.
    p.write_text(new)
    before = d.commits()
    lsp.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri(p))))
    await settle(lsp)
    assert d.commits() == before + 1
    assert d.git("log", "-1", "--format=%s").strip() == "edit: Night shift"
    assert d.git("status", "--porcelain").strip() == ""


@pytest.mark.asyncio
async def test_add_tag_from_a_selected_word_and_hover_on_a_tag(lsp):
    d = lsp.diary
    d.ok("new", "Night shift", "-m", BODY, "-t", "fieldwork", env={"DAYBOOK_DIR": str(d.path)})
    p = d.entries()[0]
    text = p.read_text()
    await open_entry(lsp, p, text)
    lines = text.split("\n")
    b = lines.index(BODY.rstrip("\n"))
    col = lines[b].index("nurse")
    actions = await lsp.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), range=rng(b, col, b, col + 5),
        context=types.CodeActionContext(diagnostics=[])))
    add = next(a for a in actions if a.title == "Add tag nurse")
    new = apply(text, add.edit.changes[uri(p)])
    assert new == text.replace("tags: [fieldwork]", "tags: [fieldwork, nurse]")
    t = lines.index("tags: [fieldwork]")
    hover = await lsp.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(t, 10)))
    assert "#fieldwork" in hover.contents.value and "1 entry" in hover.contents.value


@pytest.mark.asyncio
async def test_code_as_command_with_a_new_code_defines_it(lsp):
    d = lsp.diary
    d.ok("new", "Night shift", "-m", BODY, env={"DAYBOOK_DIR": str(d.path)})
    p = d.entries()[0]
    text = p.read_text()
    await open_entry(lsp, p, text)
    lines = text.split("\n")
    b = lines.index(BODY.rstrip("\n"))
    col = lines[b].index("she restarted it")
    await lsp.workspace_execute_command_async(types.ExecuteCommandParams(
        command="daybook.codeAs", arguments=[uri(p), {"start": {"line": b, "character": col},
                                                      "end": {"line": b, "character": col + 16}}, "Workaround"]))
    edit = lsp.applied_edits[-1]
    assert "  - code: workaround\n    quote: \"she restarted it\"\n" in apply(text, edit.changes[uri(p)])
    assert "workaround" in (d.path / "codebook.yml").read_text()
    assert d.git("log", "-1", "--format=%s").strip() == "code define: workaround"
    # The buffer was not saved: the entry file is as it was.
    assert p.read_text() == text


@pytest.mark.asyncio
async def test_quick_fix_defines_an_unknown_code(lsp):
    d = lsp.diary
    p = entry_path(d)
    diags = await open_entry(lsp, p, "---\ndate: 2026-11-21T12:00:00+01:00\ncodes:\n  - trust\n---\n" + BODY)
    unknown = by_message(diags, "`trust` is not in the codebook")
    actions = await lsp.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), range=unknown.range,
        context=types.CodeActionContext(diagnostics=[unknown])))
    fix = next(a for a in actions if a.title == "Define `trust` in the codebook")
    # lsprotocol reads a code action that carries a command as a Command (its `command` then
    # holds the nested command as text): check what it says, and run it as an editor would.
    assert "daybook.defineCode" in str(fix.command) and "trust" in str(fix.command)
    await lsp.workspace_execute_command_async(types.ExecuteCommandParams(
        command="daybook.defineCode", arguments=[uri(p), "trust"]))
    assert "trust" in (d.path / "codebook.yml").read_text()
    # The server checks the open entries again before it answers the command: no waiting here
    # (a wait for the next notification would wait for one already received).
    assert not any("trust" in x.message for x in lsp.diagnostics[uri(p)])


@pytest.mark.asyncio
async def test_commit_on_save_can_be_turned_off(lsp):
    d = lsp.diary
    (d.path / "daybook.yml").write_text((d.path / "daybook.yml").read_text() + "lsp: {commit_on_save: false}\n")
    d.git("commit", "-qam", "settings")
    p = entry_path(d)
    text = "---\ndate: 2026-11-21T12:00:00+01:00\n---\n" + BODY
    await open_entry(lsp, p, text)
    p.write_text(text)
    before = d.commits()
    lsp.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri(p))))
    await settle(lsp)
    assert d.commits() == before


@pytest.mark.asyncio
async def test_hover_on_a_date_and_workspace_symbols(lsp):
    d = lsp.diary
    d.ok("new", "Clinic visit", "-m", "x", env={"DAYBOOK_DIR": str(d.path)})
    p = entry_path(d)
    await open_entry(lsp, p, "---\ndate: 2026-11-19T09:00:00+01:00\n---\nBody\n")
    hover = await lsp.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(1, 8)))
    assert "Thursday 19 November 2026" in hover.contents.value and "2 days ago" in hover.contents.value
    symbols = await lsp.workspace_symbol_async(types.WorkspaceSymbolParams(query="clinic"))
    assert [s.name for s in symbols] == ["Clinic visit"] and symbols[0].location.uri == uri(d.entries()[0])


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_unknown_method_is_method_not_found(lsp):
    with pytest.raises(JsonRpcException) as e:
        await lsp.protocol.send_request_async("daybook/nothing", {})
    assert "-32601" in str(e.value) or "no method" in str(e.value)
    # The server goes on.
    assert await lsp.workspace_symbol_async(types.WorkspaceSymbolParams(query="")) == []


@pytest.mark.asyncio
async def test_a_file_outside_any_diary_gets_nothing_and_no_error(lsp, tmp_path):
    p = tmp_path / "elsewhere" / "notes.md"
    lsp.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri(p), language_id="markdown", version=1, text="---\ndate: nonsense\n---\n")))
    r = await lsp.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(1, 3)))
    assert list(r.items if hasattr(r, "items") else r) == []
    assert uri(p) not in lsp.diagnostics
    assert await lsp.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri(p)), position=pos(1, 3))) is None


@pytest.mark.asyncio
async def test_a_10_mb_buffer_is_checked(lsp):
    p = entry_path(lsp.diary)
    body = ("Words of a long entry, line after line. " * 25 + "\n") * 10_000
    assert len(body) > 10_000_000
    diags = await open_entry(lsp, p, "---\ndate: 2026-11-21T12:00:00+01:00\nmood: 0\n---\n" + body)
    assert by_message(diags, "mood 0 is off the scale").range == rng(2, 6, 2, 7)
    lsp.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(p), version=2),
        content_changes=[types.TextDocumentContentChangePartial(range=rng(2, 6, 2, 7), text="3")]))
    await lsp.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(lsp.diagnostics[uri(p)]) == []
    assert not p.exists()


def frame(obj):
    body = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(out):
    headers = b""
    while not headers.endswith(b"\r\n\r\n"):
        c = out.read(1)
        assert c, "the server closed its output"
        headers += c
    n = int(headers.split(b"Content-Length:")[1].split(b"\r\n")[0])
    return json.loads(out.read(n))


def start(diary):
    env = {k: v for k, v in diary.env.items() if k != "DAYBOOK_DIR"}
    return subprocess.Popen([diary.bin, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)


def test_malformed_frames_get_a_json_rpc_error_or_a_quiet_exit(diary):
    server = start(diary)
    try:
        server.stdin.write(frame(b"{not json"))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"nonsense": 1}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 3}))
        server.stdin.flush()
        first = read_frame(server.stdout)
        assert first["id"] is None and first["error"]["code"] == -32700
        assert read_frame(server.stdout)["result"]["capabilities"]
        assert read_frame(server.stdout)["error"]["code"] == -32602
        assert read_frame(server.stdout)["error"]["code"] == -32600
        # A header without Content-Length: nothing says where the next message starts.
        server.stdin.write(b"Content-Type: nothing\r\n\r\n{}")
        server.stdin.flush()
        assert read_frame(server.stdout)["error"]["code"] == -32700
        assert server.wait(timeout=10) == 1
    finally:
        server.kill()
    assert b"Fatal error" not in server.stderr.read()


def test_a_client_that_vanishes_ends_the_server(diary):
    server = start(diary)
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
    server.stdin.write(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")  # cut off mid-message
    server.stdin.flush()
    read_frame(server.stdout)
    server.stdin.close()
    assert server.wait(timeout=10) == 1
    # A client that stops reading and goes: the server's writes fail, it ends without a signal.
    server = start(diary)
    server.stdout.close()
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
    server.stdin.flush()
    assert server.wait(timeout=10) == 1


def test_exit_after_shutdown_is_status_0(diary):
    server = start(diary)
    for m in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
              {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}):
        server.stdin.write(frame(m))
    server.stdin.flush()
    assert read_frame(server.stdout)["id"] == 1 and read_frame(server.stdout) == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert server.wait(timeout=10) == 0


def test_code_as_without_arguments_as_helix_picker_runs_it_is_an_error_and_writes_nothing(diary):
    """Helix's `:lsp-workspace-command` picker runs a command with no arguments (man daybook-lsp)."""
    diary.ok("new", "-m", "The login failed again.", "Night")
    [entry] = diary.entries()
    before, commits = entry.read_bytes(), diary.commits()
    server = start(diary)
    try:
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": entry.as_uri(), "languageId": "markdown", "version": 1, "text": before.decode()}}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
                                  "params": {"command": "daybook.codeAs"}}))
        server.stdin.flush()
        assert read_frame(server.stdout)["result"]["capabilities"]["executeCommandProvider"]["commands"] == \
            ["daybook.codeAs", "daybook.defineCode"]
        while True:
            m = read_frame(server.stdout)
            if m.get("id") == 2:
                break
        assert m["error"]["code"] == -32602 and "takes [uri, range, code]" in m["error"]["message"]
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        server.stdin.flush()
        assert server.wait(timeout=10) == 0
    finally:
        server.kill()
    assert entry.read_bytes() == before and diary.commits() == commits
