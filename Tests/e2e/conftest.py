"""End-to-end tests of daybook as people meet it: a real terminal, real tools, the README as written.

Run from the project root after `swift build`:  python3 -m pytest Tests/e2e -q
The binary is $DAYBOOK_BIN, else .build/debug/daybook. Each test gets a fresh HOME with a git
identity and a fresh diary under pytest's tmp_path; nothing else on the machine is touched.
"""
import json
import os
import pathlib
import pty
import re
import select
import shutil
import socket
import subprocess
import time
from contextlib import contextmanager

import pytest

NOW = "2026-11-21T12:00:00+01:00"
ROOT = pathlib.Path(__file__).resolve().parents[2]


# A stat of a file by name, as `strace -f` writes it (glibc's fstat of a descriptor is
# newfstatat(fd, "", AT_EMPTY_PATH): it names no file).
STAT_CALL = re.compile(r"^\d+\s+(?:newfstatat|fstatat64|statx|lstat|stat|lstat64|stat64)\(")


def strace_works():
    """Whether strace(1) can trace here (scripts/setup installs it; a sandbox may forbid ptrace)."""
    try:
        return subprocess.run(["strace", "-f", "-o", os.devnull, "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def wait_until_listening(port, tries=100, pause=0.05):
    """Until a server the test started accepts connections on 127.0.0.1:port (at most tries x pause s)."""
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(pause)


def daybook_binary():
    for cand in (os.environ.get("DAYBOOK_BIN"), str(ROOT / ".build/debug/daybook")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    pytest.exit("no daybook binary: run `swift build` or set DAYBOOK_BIN", returncode=2)


class Result:
    def __init__(self, p):
        self.rc, self.out, self.err = p.returncode, p.stdout, p.stderr

    def json(self):
        return json.loads(self.out)

    def jsonl(self):
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]

    def __repr__(self):
        return f"rc={self.rc}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


class Diary:
    """A temporary home and diary, and ways to run daybook and git in it."""

    def __init__(self, tmp):
        self.bin = daybook_binary()
        self.tmp = tmp
        self.home = tmp / "home"
        self.home.mkdir()
        (self.home / ".gitconfig").write_text(
            "[user]\n\tname = Test Writer\n\temail = writer@example.org\n[init]\n\tdefaultBranch = main\n")
        self.path = tmp / "diary"
        self.env = {
            "HOME": str(self.home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "DAYBOOK_DIR": str(self.path), "DAYBOOK_NOW": NOW, "NO_COLOR": "1",
            "TERM": "dumb", "EDITOR": "false", "VISUAL": "", "GIT_CONFIG_NOSYSTEM": "1",
            "LANG": "C.UTF-8", "TZ": "Europe/Vienna",
        }

    def run(self, *args, input=None, env=None, cwd=None, timeout=60):
        e = dict(self.env)
        if env:
            e.update(env)
        p = subprocess.run([self.bin, *map(str, args)], input=input if input is not None else "",
                           capture_output=True, text=True, env=e, cwd=cwd or self.path.parent,
                           timeout=timeout)
        return Result(p)

    def ok(self, *args, **kw):
        r = self.run(*args, **kw)
        assert r.rc == 0, r
        return r

    def init(self):
        self.ok("init", self.path)
        return self

    def git(self, *args, cwd=None):
        p = subprocess.run(["git", *args], capture_output=True, text=True, env=self.env,
                           cwd=cwd or self.path)
        assert p.returncode == 0, p.stderr
        return p.stdout

    def commits(self):
        return int(self.git("rev-list", "--count", "HEAD").strip())

    def entries(self):
        return sorted(p for p in (self.path / "entries").rglob("*.md"))


def bench_module(name):
    """A script of bench/ (kill, race, fuzz) as a module: the short forms in CI run its own code."""
    import importlib.util
    import sys
    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))  # where the scripts' shared `scratch` module is
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def diary(tmp_path):
    """A fresh, initialised diary."""
    return Diary(tmp_path).init()


@pytest.fixture
def home(tmp_path):
    """A fresh home with no diary yet (for tests of `init` and the default diary)."""
    return Diary(tmp_path)


def on_pty(diary, *args, stderr_too=False, wait=30):
    """Runs daybook with stdout (and with `stderr_too` stderr) on a pseudo-terminal, as in a real
    terminal; returns what the terminal received, the exit code and stderr when it was not on the pty."""
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([diary.bin, *map(str, args)], stdin=subprocess.DEVNULL, stdout=slave,
                             stderr=slave if stderr_too else subprocess.PIPE,
                             env=dict(diary.env, TERM="xterm"), cwd=diary.path.parent)
        os.close(slave)
        out = b""
        while True:
            ready, _, _ = select.select([master], [], [], wait)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO once daybook has closed its end
                break
            if not chunk:
                break
            out += chunk
        rc = p.wait(timeout=wait)
        err = "" if stderr_too else p.stderr.read().decode()
        return out.decode(), rc, err
    finally:
        os.close(master)



@contextmanager
def git_daemon(base):
    """`git daemon` serving the bare repositories under `base` on 127.0.0.1 (pushes allowed), until
    the block ends; yields its port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    daemon = subprocess.Popen(["git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack",
                               f"--base-path={base}", "--listen=127.0.0.1", f"--port={port}", str(base)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_listening(port)
        yield port
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


@pytest.fixture
def example(diary):
    """The README's example diary, committed as a copied folder is."""
    shutil.rmtree(diary.path)
    shutil.copytree(ROOT / "examples" / "diary", diary.path)
    diary.ok("init", diary.path)
    return diary
