#!/usr/bin/env python3
"""Times `daybook lsp` over stdio on a generated diary, as an editor drives it: server start to the
first diagnostics of an opened entry, diagnostics after a keystroke (an incremental change) on a
10,000-word entry, completion of tags and of codes (the first of each kind on a server just
started, as a person meets it; later ones), `[[` completion and references (backlinks), and the
server's memory (its peak resident set).

Usage: bench/lsp.py N [--bin PATH] [--keys K] [--starts S] [--pause SECONDS]
Generates a diary of N entries with bench/generate.py under bench/out/lsp-N (kept for the next run),
uses the release binary when there is one, and prints a Markdown table.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

import scratch  # bench/scratch.py: the binary, a throwaway HOME and environment

ROOT = pathlib.Path(__file__).resolve().parents[1]


binary = scratch.binary


class Server:
    def __init__(self, exe, env):
        self.proc = subprocess.Popen([exe, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.next_id = 1

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        headers = b""
        while not headers.endswith(b"\r\n\r\n"):
            c = self.proc.stdout.read(1)
            if not c:
                sys.exit("the server closed its output")
            headers += c
        n = int(headers.split(b"Content-Length:")[1].split(b"\r\n")[0])
        return json.loads(self.proc.stdout.read(n))

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid and "method" not in m:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, version):
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri \
                    and m["params"].get("version") == version:
                return m["params"]["diagnostics"]

    def status(self, key):
        return next(int(line.split()[1]) for line in open(f"/proc/{self.proc.pid}/status") if line.startswith(key))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("--bin")
    ap.add_argument("--keys", type=int, default=30)
    ap.add_argument("--starts", type=int, default=5, help="servers started for each first-completion row")
    ap.add_argument("--pause", type=float, default=1.0, help="seconds between the first diagnostics and the later first completion")
    args = ap.parse_args()
    exe = binary(args.bin)
    diary = ROOT / "bench/out" / f"lsp-{args.n}"
    env = dict(os.environ, NO_COLOR="1")
    env.pop("DAYBOOK_DIR", None)  # an editor starts the server without it: the file says where
    if not (diary / "daybook.yml").exists():
        diary.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, ROOT / "bench/generate.py", str(args.n), str(diary)], check=True)
        subprocess.run([exe, "init", str(diary)], check=True, env=env, capture_output=True)
    subprocess.run([exe, "ls", "--last", "1"], env=dict(env, DAYBOOK_DIR=str(diary)), capture_output=True)  # a warm cache
    last = json.loads(subprocess.run([exe, "ls", "--last", "1", "--json"], env=dict(env, DAYBOOK_DIR=str(diary)),
                                     capture_output=True, text=True).stdout)[0]
    small = diary / last["path"]
    # A 10,000-word entry, only in the editor's buffer (never saved).
    words = ("the nurse showed me the tablet and the login failed again so she restarted it " * 667).split()[:10_000]
    assert len(words) == 10_000
    big_path = diary / "entries/2026/11/2026-11-21-2300-long-night.md"
    big_text = ("---\ntitle: Long night\ndate: 2026-11-21T23:00:00+01:00\ntags: [fieldwork]\n"
                "codes:\n  - code: frustration\n    quote: \"the login failed\"\n---\n"
                + "\n".join(" ".join(words[i:i + 20]) for i in range(0, len(words), 20)) + "\n")
    rows = []

    def start():
        t0 = time.perf_counter()
        s = Server(exe, env)
        s.request("initialize", {"processId": None, "rootUri": diary.as_uri(), "capabilities": {}})
        s.notify("initialized", {})
        s.notify("textDocument/didOpen", {"textDocument": {"uri": small.as_uri(), "languageId": "markdown", "version": 1,
                                                           "text": small.read_text()}})
        s.diagnostics(small.as_uri(), 1)
        return s, time.perf_counter() - t0

    comp_uri = (diary / "entries/2026/11/2026-11-21-2330-completion.md").as_uri()
    comp_text = "---\ndate: 2026-11-21T23:30:00+01:00\ntags: [fi\ncodes:\n  - code: fr\n---\nBody\n"
    at = {"tag": (2, 9), "code": (4, 12)}

    def complete(s, what):
        line, character = at[what]
        t = time.perf_counter()
        r = s.request("textDocument/completion", {"textDocument": {"uri": comp_uri}, "position": {"line": line, "character": character}})
        took = time.perf_counter() - t
        assert r["result"]["items"], r
        return took

    def open_completion_doc(s):
        s.notify("textDocument/didOpen", {"textDocument": {"uri": comp_uri, "languageId": "markdown", "version": 1, "text": comp_text}})
        s.diagnostics(comp_uri, 1)

    def stop(s):
        hwm = s.status("VmHWM")
        s.request("shutdown", None)
        s.notify("exit", None)
        s.proc.wait(timeout=30)
        return hwm

    # Each start is a new server (the editor opening the diary's first entry), and the first
    # completion of each kind is timed on a server of its own. The server counts the diary's tags
    # and codes on a thread of its own once it has published an entry's first diagnostics, and a
    # completion asked before that is done waits for it; so each first completion is timed twice:
    # asked at once (the worst case), and --pause seconds later (a person opening an entry, then typing).
    starts, first = [], {(what, wait): [] for what in ("tag", "code") for wait in (0, args.pause)}
    peaks = []
    for _ in range(args.starts):
        for what, wait in first:
            s, took = start()
            starts.append(took)
            open_completion_doc(s)
            time.sleep(wait)
            first[what, wait].append(complete(s, what))
            peaks.append(stop(s))
    rows.append(("start to first diagnostics", statistics.median(starts), min(starts), "≤ 0.3 s"))
    for (what, wait), times in first.items():
        when = "asked at once after the first diagnostics" if wait == 0 else f"asked {wait:g} s after the first diagnostics"
        rows.append((f"first {what} completion, {when}", statistics.median(times), min(times), "≤ 0.050 s"))

    s, _ = start()
    open_completion_doc(s)
    complete(s, "tag")  # waits for the counts, so that no keystroke shares the cores with them
    uri = big_path.as_uri()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": big_text}})
    s.diagnostics(uri, 1)
    times = []
    last_line = big_text.count("\n") - 1
    for k in range(args.keys):
        version = k + 2
        t = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": last_line, "character": 0}, "end": {"line": last_line, "character": 0}}, "text": "x"}]})
        s.diagnostics(uri, version)
        times.append(time.perf_counter() - t)
    rows.append(("diagnostics after a keystroke, 10,000-word entry", statistics.median(times), min(times), "≤ 0.020 s"))

    for what in ("tag", "code"):
        complete(s, what)
        times = [complete(s, what) for _ in range(20)]
        rows.append((f"{what} completion, later ones", statistics.median(times), min(times), "≤ 0.050 s"))

    # Links (issue 40): `[[` completion by title, and references (backlinks) of an entry, the first
    # of each on this server (the links of the diary are read once, then kept), then later ones.
    link_uri = (diary / "entries/2026/11/2026-11-21-2340-links.md").as_uri()
    link_text = "---\ndate: 2026-11-21T23:40:00+01:00\n---\nSee [[ni"
    s.notify("textDocument/didOpen", {"textDocument": {"uri": link_uri, "languageId": "markdown", "version": 1, "text": link_text}})
    s.diagnostics(link_uri, 1)

    def timed(method, params):
        t = time.perf_counter()
        r = s.request(method, params)
        took = time.perf_counter() - t
        assert "result" in r, r
        return took, r["result"]

    link_at = {"textDocument": {"uri": link_uri}, "position": {"line": 3, "character": len("See [[ni")}}
    took, result = timed("textDocument/completion", link_at)
    assert result["items"], result
    times = [timed("textDocument/completion", link_at)[0] for _ in range(20)]
    rows.append(("`[[` completion, first", took, None, "≤ 0.050 s"))
    rows.append(("`[[` completion, later ones", statistics.median(times), min(times), "≤ 0.050 s"))
    ref_at = {"textDocument": {"uri": small.as_uri()}, "position": {"line": 0, "character": 0}, "context": {"includeDeclaration": False}}
    took, _ = timed("textDocument/references", ref_at)
    times = [timed("textDocument/references", ref_at)[0] for _ in range(10)]
    rows.append(("references (backlinks), first", took, None, "≤ 0.100 s"))
    rows.append(("references (backlinks), later ones", statistics.median(times), min(times), "≤ 0.100 s"))

    rss = s.status("VmRSS")
    peaks.append(stop(s))
    print(f"\n`daybook lsp` on {args.n:,} entries ({exe}; {args.starts} starts per first-completion row, {args.keys} keystrokes)\n")
    print("| work | median | best | budget |\n|---|---|---|---|")
    for name, med, best, budget in rows:
        print(f"| {name} | {med:.3f} s | {'' if best is None else f'{best:.3f} s'} | {budget} |")
    print(f"| memory (max RSS over all runs; RSS at the end of the keystroke run) | peak {max(peaks) / 1024:.0f} MB | RSS {rss / 1024:.0f} MB | ≤ 150 MB |")


if __name__ == "__main__":
    main()
