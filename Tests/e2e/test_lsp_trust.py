"""`daybook lsp` as an editor that types fast meets it (issue 40): diagnostics for the last version,
the clock asked at each request, a change made on disk under an open buffer kept by the save, an
entry with one problem still checked for the others, a save that commits its entry only, and the
JSON-RPC details (invalid requests, a second initialize, bare line feeds).

The server is driven on raw pipes, several messages in one write where an editor sends them so.
"""
import json
import os
import pathlib
import select
import subprocess
import time

import pytest

def frame(obj):
    body = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Client:
    """A raw LSP client: writes frames, reads every message, answers the server's requests."""

    def __init__(self, diary, env=None):
        e = {k: v for k, v in diary.env.items() if k != "DAYBOOK_DIR"}
        e.update(env or {})
        self.proc = subprocess.Popen([diary.bin, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=e, cwd=str(diary.tmp))
        self.buf = b""
        self.seen = []
        self.next_id = 100

    def write(self, *msgs):
        """Sends the messages in one write, as an editor sends a change and a request together."""
        self.proc.stdin.write(b"".join(m if isinstance(m, bytes) else frame(m) for m in msgs))
        self.proc.stdin.flush()

    def read(self, timeout=20):
        fd = self.proc.stdout.fileno()
        deadline = time.time() + timeout
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end >= 0:
                n = int(self.buf[:end].split(b"Content-Length:")[1].split(b"\r\n")[0])
                if len(self.buf) >= end + 4 + n:
                    msg = json.loads(self.buf[end + 4:end + 4 + n])
                    self.buf = self.buf[end + 4 + n:]
                    self.seen.append(msg)
                    if "method" in msg and "id" in msg:  # a request of the server's: applied
                        self.write({"jsonrpc": "2.0", "id": msg["id"], "result": {"applied": True}})
                    return msg
            left = deadline - time.time()
            assert left > 0, f"no message from the server in {timeout} s; seen: {self.seen[-5:]}"
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 65536)
                assert chunk, "the server closed its output"
                self.buf += chunk

    def until(self, pred, timeout=20):
        while True:
            m = self.read(timeout)
            if pred(m):
                return m

    def request(self, method, params, *before):
        self.next_id += 1
        rid = self.next_id
        self.write(*before, {"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.until(lambda m: m.get("id") == rid and "method" not in m)

    def notify(self, method, params):
        return {"jsonrpc": "2.0", "method": method, "params": params}

    def initialize(self, capabilities=None):
        self.write({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": capabilities or {}}},
                   self.notify("initialized", {}))
        return self.until(lambda m: m.get("id") == 1)

    def open(self, path, text, version=1):
        self.write(self.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.as_uri(), "languageId": "markdown", "version": version, "text": text}}))
        return self.diagnostics(path)

    def diagnostics(self, path, version=None):
        m = self.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"]["uri"] == path.as_uri()
                       and (version is None or m["params"].get("version") == version))
        return m["params"]["diagnostics"]

    def change(self, path, version, text):
        return self.notify("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": version},
                                                      "contentChanges": [{"text": text}]})

    def close(self):
        try:
            self.write({"jsonrpc": "2.0", "id": 9999, "method": "shutdown"}, self.notify("exit", None))
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()
        finally:
            self.proc.stdout.close()
            self.proc.stderr.close()


@pytest.fixture
def client(diary):
    clients = []

    def make(env=None, capabilities=None):
        c = Client(diary, env)
        clients.append(c)
        c.initialize_result = c.initialize(capabilities)
        return c
    yield make
    for c in clients:
        c.close()


def one_entry(diary, body="The login failed again, and she restarted it.\n", *args):
    diary.ok("new", "-m", body, "Night", *args)
    [p] = diary.entries()
    return p


# --- 1. the clock is asked at each request -------------------------------------------------------


def ticking(clock_file, when):
    """An environment whose clock is the date-time in `clock_file`, read at each request."""
    clock_file.write_text(when + "\n")
    return {"DAYBOOK_NOW": "", "DAYBOOK_NOW_FILE": str(clock_file)}


def test_code_as_a_minute_after_start_writes_the_time_of_the_request(diary, client, tmp_path):
    p = one_entry(diary)
    clock = tmp_path / "clock"
    c = client(ticking(clock, "2026-11-21T12:00:00+01:00"))
    c.open(p, p.read_text())
    clock.write_text("2026-11-21T12:01:00+01:00\n")  # a minute after the server started
    lines = p.read_text().split("\n")
    line = next(i for i, l in enumerate(lines) if "login failed" in l)
    at = lines[line].index("login failed")
    answer = c.request("workspace/executeCommand", {"command": "daybook.codeAs", "arguments": [
        p.as_uri(), {"start": {"line": line, "character": at}, "end": {"line": line, "character": at + 12}}, "trouble"]})
    assert "error" not in answer, answer
    edit = next(m for m in c.seen if m.get("method") == "workspace/applyEdit")
    texts = "".join(e["newText"] for e in edit["params"]["edit"]["changes"][p.as_uri()])
    assert "coded: 2026-11-21T12:01:00+01:00" in texts, texts


# --- 2. diagnostics for the last version, always ------------------------------------------------


def test_a_change_followed_at_once_by_a_hover_gets_its_diagnostics(diary, client):
    p = one_entry(diary)
    text = p.read_text()
    c = client()
    bad = text.replace("---\n", "---\nmood: 7\n", 1)
    assert any("off the scale" in d["message"] for d in c.open(p, bad))
    # The fix and a hover in one write, as Neovim sends them after `r3`.
    hover = {"jsonrpc": "2.0", "id": 50, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": p.as_uri()}, "position": {"line": 1, "character": 6}}}
    c.write(c.change(p, 2, bad.replace("mood: 7", "mood: 3")), hover)
    assert c.diagnostics(p, version=2) == []
    # Two documents changed in one write: each gets the diagnostics of its last version.
    diary.ok("new", "-m", "Second.", "Day")
    q = next(e for e in diary.entries() if e != p)
    c.open(q, q.read_text())
    c.write(c.change(p, 3, bad), c.change(q, 2, q.read_text().replace("---\n", "---\nmood: 0\n", 1)),
            {"jsonrpc": "2.0", "id": 51, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": q.as_uri()}, "position": {"line": 1, "character": 6}}})
    assert any("off the scale" in d["message"] for d in c.diagnostics(p, version=3))
    assert any("off the scale" in d["message"] for d in c.diagnostics(q, version=2))


# --- 3. a change made on disk under an open buffer ------------------------------------------------


def save(c, p, text):
    """What an editor's save is: the buffer written to the file, then didSave."""
    p.write_text(text)
    c.write(c.notify("textDocument/didSave", {"textDocument": {"uri": p.as_uri()}}))


def settle(c):
    c.request("workspace/symbol", {"query": "\u0000none"})


def test_a_tag_added_from_the_command_line_survives_a_save_of_the_open_buffer(diary, client):
    p = one_entry(diary)
    opened = p.read_text()
    c = client()
    c.open(p, opened)
    diary.ok("tag", "add", p.stem, "fromcli")
    assert "fromcli" in p.read_text()
    # Typing on: the server notices the file changed and says so.
    typed = opened + "Later she said it works now.\n"
    c.write(c.change(p, 2, typed))
    told = c.until(lambda m: m.get("method") == "window/showMessage")
    assert "changed on disk" in told["params"]["message"] and "`tags`" in told["params"]["message"]
    diags = c.diagnostics(p, version=2)
    assert any("changed on disk" in d["message"] for d in diags)
    # The code action brings the change into the buffer.
    actions = c.request("textDocument/codeAction", {"textDocument": {"uri": p.as_uri()},
                                                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                                                    "context": {"diagnostics": []}})["result"]
    take = next(a for a in actions if a["title"] == "Take the change made on disk")
    assert "fromcli" in json.dumps(take["edit"])
    # The editor saves its buffer (without the tag) over the file: the save keeps the tag.
    commits = diary.commits()
    save(c, p, typed)
    kept = c.until(lambda m: m.get("method") == "window/showMessage")
    assert "kept the change" in kept["params"]["message"]
    settle(c)
    committed = diary.git("show", f"HEAD:{p.relative_to(diary.path)}")
    assert "fromcli" in committed and "Later she said it works now." in committed
    assert p.read_text() == committed
    assert diary.commits() == commits + 1 and diary.git("log", "-1", "--format=%s").startswith("edit: ")
    # The buffer was brought to the file.
    edit = [m for m in c.seen if m.get("method") == "workspace/applyEdit"][-1]
    assert "fromcli" in json.dumps(edit["params"])


def test_a_save_that_collides_with_a_committed_change_is_refused_with_what_would_be_lost(diary, client):
    p = one_entry(diary)
    opened = p.read_text()
    c = client()
    c.open(p, opened)
    diary.ok("append", p.stem, "-m", "Appended from the shell.")
    committed = diary.git("show", f"HEAD:{p.relative_to(diary.path)}")
    commits = diary.commits()
    save(c, p, opened + "Typed in the editor.\n")
    refused = c.until(lambda m: m.get("method") == "window/showMessage" and "not committed" in m["params"]["message"])
    assert "the body" in refused["params"]["message"] and refused["params"]["type"] == 1
    settle(c)
    assert diary.commits() == commits
    assert diary.git("show", f"HEAD:{p.relative_to(diary.path)}") == committed


# --- 4. one problem does not hide the others ----------------------------------------------------


def test_an_entry_with_a_bad_mood_still_gets_its_code_warnings_hints_and_code_as(diary, client):
    p = one_entry(diary)
    diary.ok("code", "define", "workaround")
    text = p.read_text().replace("---\n", "---\nmood: 9\ncodes:\n  - code: frustraton\n    quote: \"login failed\"\n", 1)
    c = client()
    messages = [d["message"] for d in c.open(p, text)]
    assert any("off the scale" in m for m in messages)
    assert any("`frustraton` is not in the codebook" in m for m in messages), messages
    lines = text.split("\n")
    hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": p.as_uri()},
                                                 "range": {"start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}})
    assert [h["label"] for h in hints["result"]] == ["◂ frustraton"]
    line = next(i for i, l in enumerate(lines) if l.startswith("The login"))
    actions = c.request("textDocument/codeAction", {"textDocument": {"uri": p.as_uri()},
                                                    "range": {"start": {"line": line, "character": 4}, "end": {"line": line, "character": 9}},
                                                    "context": {"diagnostics": []}})["result"]
    assert any(a["title"].startswith("Code as ") for a in actions), [a["title"] for a in actions]


# --- 5. a save commits its entry only ------------------------------------------------------------


def test_a_save_commits_the_entry_and_leaves_a_stray_file_alone(diary, client):
    p = one_entry(diary)
    (diary.path / "notes.md").write_text("my own notes, not for the diary's history\n")
    c = client()
    c.open(p, p.read_text())
    save(c, p, p.read_text() + "More.\n")
    settle(c)
    assert diary.git("log", "-1", "--format=%s").startswith("edit: ")
    assert diary.git("show", "--name-only", "--format=", "HEAD").split() == [str(p.relative_to(diary.path))]
    assert "notes.md" in diary.git("status", "--porcelain")
    assert "outside" not in diary.git("log", "--format=%s")


# --- 6. JSON-RPC details ----------------------------------------------------------------------


def test_invalid_requests_get_32600_with_a_null_id_and_a_second_initialize_is_refused(diary, client):
    c = client()
    for bad in ({"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"}, [{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}],
                {"jsonrpc": "2.0", "id": None, "method": "workspace/symbol", "params": {"query": ""}},
                {"jsonrpc": "2.0", "id": True, "method": "shutdown"}):
        c.write(bad)
        m = c.read()
        assert m["id"] is None and m["error"]["code"] == -32600, (bad, m)
    c.write(b"Content-Length: 5\r\n\r\n{nope")
    m = c.read()
    assert m["id"] is None and m["error"]["code"] == -32700
    again = c.request("initialize", {"capabilities": {}})
    assert again["error"]["code"] == -32600
    # Still serving.
    assert "result" in c.request("workspace/symbol", {"query": ""})


def test_headers_ending_in_bare_line_feeds_are_read(diary):
    c = Client(diary)
    try:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()
        c.write(b"Content-Length: %d\n\n" % len(body) + body)
        assert c.read(timeout=10)["result"]["capabilities"]
    finally:
        c.close()


# --- 6. ranges ----------------------------------------------------------------------------------


def test_a_bad_tag_and_an_unknown_code_are_marked_alone(diary, client):
    p = one_entry(diary)
    text = p.read_text().replace("---\n", "---\ntags: [ok, \"bad tag!\", fine]  # mine\nmood: 9 # high\ncodes:\n  - code: frustraton\n    quote: \"login failed\"\n", 1)
    c = client()
    diags = c.open(p, text)

    def marked(part):
        d = next(d for d in diags if part in d["message"])
        r = d["range"]
        assert r["start"]["line"] == r["end"]["line"]
        return text.split("\n")[r["start"]["line"]][r["start"]["character"]:r["end"]["character"]]
    assert marked("is not a tag") == "\"bad tag!\""
    assert marked("off the scale") == "9"
    assert marked("`frustraton` is not in the codebook") == "frustraton"


# --- 7. links as zk's server offers them ---------------------------------------------------------


def two_linked(diary):
    diary.ok("new", "-t", "ward", "-m", "Rounds at six.\nThe new tablets arrived.", "Ward round", env={"DAYBOOK_NOW": "2026-11-20T06:00:00+01:00"})
    [a] = diary.entries()
    body = f"# Night\n\nAfter [[{a.stem}]] and [[{a.stem[:15]}|the round]] it was calm.\n\n## Later\n\nNothing.\n"
    diary.ok("new", "-m", body, "Night")
    [b] = [e for e in diary.entries() if e != a]
    return a, b


def at(text, needle, offset=0):
    lines = text.split("\n")
    n = next(i for i, l in enumerate(lines) if needle in l)
    return {"line": n, "character": lines[n].index(needle) + offset}


def test_links_lead_preview_and_are_listed(diary, client):
    a, b = two_linked(diary)
    c = client()
    text = b.read_text()
    c.open(b, text)
    where = at(text, "[[", 3)
    d = c.request("textDocument/definition", {"textDocument": {"uri": b.as_uri()}, "position": where})["result"]
    assert d["uri"] == a.as_uri()
    h = c.request("textDocument/hover", {"textDocument": {"uri": b.as_uri()}, "position": where})["result"]
    assert "**Ward round**" in h["contents"]["value"] and "Rounds at six." in h["contents"]["value"] and "#ward" in h["contents"]["value"]
    links = c.request("textDocument/documentLink", {"textDocument": {"uri": b.as_uri()}})["result"]
    assert [l["target"] for l in links] == [a.as_uri(), a.as_uri()]
    line = text.split("\n")[links[1]["range"]["start"]["line"]]
    assert line[links[1]["range"]["start"]["character"]:links[1]["range"]["end"]["character"]] == f"[[{a.stem[:15]}|the round]]"
    symbols = c.request("textDocument/documentSymbol", {"textDocument": {"uri": b.as_uri()}})["result"]
    assert [s["name"] for s in symbols] == ["Night"] and [s["name"] for s in symbols[0]["children"]] == ["Later"]
    # The linked entry's backlinks: both links of the other entry.
    c.open(a, a.read_text())
    refs = c.request("textDocument/references", {"textDocument": {"uri": a.as_uri()}, "position": {"line": 0, "character": 0},
                                                 "context": {"includeDeclaration": False}})["result"]
    assert [r["uri"] for r in refs] == [b.as_uri(), b.as_uri()]


def test_double_bracket_completion_offers_entries_by_title_and_id(diary, client):
    a, b = two_linked(diary)
    c = client()
    text = b.read_text() + "Compare [[war"
    c.open(b, text)
    end = {"line": len(text.split("\n")) - 1, "character": len(text.split("\n")[-1])}
    items = c.request("textDocument/completion", {"textDocument": {"uri": b.as_uri()}, "position": end})["result"]["items"]
    [item] = items
    assert item["label"] == "Ward round" and a.stem in item["detail"] and "2026-11-20 06:00" in item["detail"]
    assert item["textEdit"]["newText"] == a.stem + "]]"
    assert item["textEdit"]["range"]["start"]["character"] == end["character"] - 3
    # By id, and before an existing `]]`: the id alone.
    text2 = b.read_text() + "See [[2026-11-20]]"
    c.write(c.change(b, 2, text2))
    pos = {"line": len(text2.split("\n")) - 1, "character": len(text2.split("\n")[-1]) - 2}
    items = c.request("textDocument/completion", {"textDocument": {"uri": b.as_uri()}, "position": pos})["result"]["items"]
    assert [i["textEdit"]["newText"] for i in items] == [a.stem]
    # Inside the id of `[[ID|label]]`: the id alone, the label kept.
    text3 = b.read_text() + "See [[ward|the round]]"
    c.write(c.change(b, 3, text3))
    pos = {"line": len(text3.split("\n")) - 1, "character": len("See [[ward")}
    items = c.request("textDocument/completion", {"textDocument": {"uri": b.as_uri()}, "position": pos})["result"]["items"]
    assert [i["textEdit"]["newText"] for i in items] == [a.stem]


def test_rename_of_a_tag_and_of_a_code_changes_the_diary_in_one_commit_each(diary, client):
    diary.ok("new", "-t", "ward", "-m", "Rounds with #ward staff. The login failed.", "Round")
    diary.ok("new", "-t", "ward", "-m", "Quiet.", "Night")
    diary.ok("code", "define", "frustration")
    a = next(e for e in diary.entries() if "round" in e.name)
    diary.ok("code", "add", a.stem, "frustration", "--quote", "login failed")
    commits = diary.commits()
    c = client()
    text = a.read_text()
    c.open(a, text)
    answer = c.request("textDocument/rename", {"textDocument": {"uri": a.as_uri()}, "position": at(text, "ward", 1), "newName": "wards"})
    assert "error" not in answer, answer
    assert diary.commits() == commits + 1
    assert diary.git("log", "-1", "--format=%s").strip() == "tag rename: #ward → #wards (2 entries)"
    assert all("wards" in e.read_text() and "[ward]" not in e.read_text() for e in diary.entries())
    assert "#wards staff" in a.read_text()
    [edit] = answer["result"]["changes"][a.as_uri()]
    assert "wards" in edit["newText"]
    # A code, from its place in `codes:`.
    text = a.read_text()
    c.write(c.change(a, 2, text))
    answer = c.request("textDocument/rename", {"textDocument": {"uri": a.as_uri()}, "position": at(text, "frustration", 2),
                                               "newName": "annoyance"})
    assert "error" not in answer, answer
    assert diary.commits() == commits + 2
    assert diary.git("log", "-1", "--format=%s").strip() == "code rename: frustration → annoyance (1 entry)"
    assert "annoyance" in (diary.path / "codebook.yml").read_text() and "code: annoyance" in a.read_text()
    # Neither a tag nor a code: an error, nothing changed.
    answer = c.request("textDocument/rename", {"textDocument": {"uri": a.as_uri()}, "position": at(text, "Rounds", 1), "newName": "x"})
    assert answer["error"]["code"] == -32803 and diary.commits() == commits + 2


def test_prepare_rename_names_the_tag_or_code_under_the_cursor_and_refuses_elsewhere(diary, client):
    diary.ok("new", "-t", "ward", "-m", "Rounds with #ward staff. The login failed.", "Round")
    diary.ok("code", "define", "frustration")
    [a] = diary.entries()
    diary.ok("code", "add", a.stem, "frustration", "--quote", "login failed")
    # A client that does not say it supports prepareRename is not offered it (LSP 3.17).
    assert client().initialize_result["result"]["capabilities"]["renameProvider"] is True
    c = client(capabilities={"textDocument": {"rename": {"prepareSupport": True}}})
    assert c.initialize_result["result"]["capabilities"]["renameProvider"] == {"prepareProvider": True}
    text = a.read_text()
    c.open(a, text)
    commits = diary.commits()

    def prepare(pos):
        return c.request("textDocument/prepareRename", {"textDocument": {"uri": a.as_uri()}, "position": pos})

    lines = text.split("\n")
    body = next(i for i, l in enumerate(lines) if "#ward staff" in l)
    col = lines[body].index("#ward") + 3  # inside the word
    r = prepare({"line": body, "character": col})["result"]
    assert r["placeholder"] == "ward"
    assert r["range"] == {"start": {"line": body, "character": col - 2}, "end": {"line": body, "character": col + 2}}
    # On the coded passage: the passage, with its code as the name to edit.
    col = lines[body].index("login") + 2
    r = prepare({"line": body, "character": col})["result"]
    assert r["placeholder"] == "frustration"
    assert r["range"]["start"] == {"line": body, "character": lines[body].index("login failed")}
    assert r["range"]["end"] == {"line": body, "character": lines[body].index("login failed") + len("login failed")}
    # On a plain word: an error the editor shows at once; nothing is committed by asking.
    answer = prepare({"line": body, "character": 2})
    assert answer["error"]["code"] == -32803 and "tag or a code" in answer["error"]["message"]
    assert diary.commits() == commits


# --- the same rule for `daybook edit` -------------------------------------------------------------


def test_daybook_edit_keeps_a_tag_added_while_the_editor_was_open(diary, tmp_path):
    """The editor loads the file, a script adds a tag, the editor writes back its buffer plus a line."""
    p = one_entry(diary)
    editor = tmp_path / "editor.sh"
    editor.write_text(f"""#!/bin/sh
cp "$1" {tmp_path}/loaded
"{diary.bin}" tag add {p.stem} fromcli >/dev/null || exit 3
cat {tmp_path}/loaded > "$1"
echo "Typed in the editor." >> "$1"
""")
    editor.chmod(0o755)
    r = diary.ok("edit", p.stem, env={"EDITOR": str(editor)})
    assert "kept the change committed while the editor was open (`tags`)" in r.err + r.out
    committed = diary.git("show", f"HEAD:{p.relative_to(diary.path)}")
    assert "fromcli" in committed and "Typed in the editor." in committed and p.read_text() == committed
    # Both changed the body's last line: refused, exit 2, nothing committed, the file as the editor left it.
    editor.write_text(f"""#!/bin/sh
cp "$1" {tmp_path}/loaded
"{diary.bin}" append {p.stem} -m "From the shell." >/dev/null || exit 3
cat {tmp_path}/loaded > "$1"
echo "Typed again." >> "$1"
""")
    commits = diary.commits()
    r = diary.run("edit", p.stem, env={"EDITOR": str(editor)})
    assert r.rc == 2 and "saving would lose" in r.err and "the body" in r.err, r
    assert diary.commits() == commits + 1  # the append's own commit only
    assert "Typed again." in p.read_text() and "From the shell." in diary.git("show", f"HEAD:{p.relative_to(diary.path)}")
