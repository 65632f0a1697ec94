"""Running `daybook serve` for a test: start it on a free port, read the address it prints, stop it."""
import os
import re
import signal
import subprocess
import time
import urllib.request
from urllib.parse import urlsplit


class Served:
    """A running `daybook serve` on a diary, and an HTTP client that speaks to it as a browser would."""

    def __init__(self, diary, *args):
        self.diary = diary
        self.proc = subprocess.Popen([diary.bin, "serve", "--port", "0", *args], env=diary.env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        m = re.match(r"^http://([^/]+)/\?token=([0-9a-f]{64})$", line)
        assert m, f"serve printed {line!r}; stderr: {self.proc.stderr.read() if self.proc.poll() is not None else ''}"
        self.address, self.token = line, m.group(2)
        self.host = m.group(1)
        self.port = int(self.host.rsplit(":", 1)[1])
        self.base = f"http://{self.host}"

    def request(self, method, path, body=None, headers=None, cookie=True, timeout=30):
        """One request; the token cookie unless `cookie` is False. Returns (status, headers, body bytes)."""
        h = dict(headers or {})
        if cookie:
            h.setdefault("Cookie", f"daybook-{self.port}={self.token}")
        if method not in ("GET", "HEAD"):
            h.setdefault("Origin", self.base)
        data = body.encode() if isinstance(body, str) else body
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(req, timeout=timeout) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise AssertionError("daybook serve did not stop on Ctrl-C (SIGINT)")
        self.proc.stdout.close()
        self.proc.stderr.close()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
