"""`daybook serve` holds private data: every request that tries to get in where it should not is refused.

Each test sends the request an attacker (another web page in the same browser, a DNS-rebinding page,
a curious process on the network) could send, and checks the refusal and that nothing changed.
"""
import http.client
import json

import pytest

from serving import Served


@pytest.fixture
def served(diary):
    diary.ok("new", "First", "-m", "The login failed again.")
    s = Served(diary)
    yield s
    s.stop()


def raw(served, method, path, headers):
    """A request with exactly these headers (urllib would add its own Host)."""
    c = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for k, v in headers.items():
        c.putheader(k, v)
    c.endheaders()
    r = c.getresponse()
    return r.status, r.read()


def test_the_address_is_loopback_with_a_long_token(served):
    assert served.host.startswith("127.0.0.1:")
    assert len(served.token) == 64


def test_no_token_no_entry(served):
    for path in ("/", "/api/entries", "/api/entries/2026", "/assets/app.css"):
        status, _, body = served.request("GET", path, cookie=False)
        assert status == 401, path
        assert b"login failed" not in body


def test_a_wrong_token_is_refused_in_url_cookie_and_header(served):
    wrong = "0" * 64
    assert served.request("GET", f"/?token={wrong}", cookie=False)[0] == 401
    assert served.request("GET", "/api/entries", headers={"Cookie": f"daybook-{served.port}={wrong}"})[0] == 401
    assert served.request("GET", "/api/entries", headers={"Authorization": f"Bearer {wrong}"}, cookie=False)[0] == 401
    assert served.request("GET", "/api/entries", headers={"Authorization": f"Bearer {served.token[:-1]}"}, cookie=False)[0] == 401


def test_the_token_in_the_url_becomes_a_strict_cookie_and_leaves_the_address(served):
    status, headers, _ = served.request("GET", f"/?token={served.token}&x=1", cookie=False)
    assert status == 303
    assert headers["Location"] == "/?x=1"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"daybook-{served.port}={served.token}")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    status, _, body = served.request("GET", "/api/entries")
    assert status == 200
    assert json.loads(body)[0]["title"] == "First"


@pytest.mark.parametrize("host", ["evil.example:{port}", "localhost.evil.example:{port}", "127.0.0.1:1",
                                  "127.0.0.1", "", "192.168.1.20:{port}"])
def test_a_foreign_host_header_is_refused_even_with_the_token(served, host):
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends its own Host."""
    headers = {"Authorization": f"Bearer {served.token}"}
    if host:
        headers["Host"] = host.format(port=served.port)
    status, body = raw(served, "GET", "/api/entries", headers)
    assert status in (400, 421), (host, status)
    assert b"login failed" not in body and b"First" not in body


def test_localhost_by_name_is_our_host(served):
    status, _ = raw(served, "GET", "/api/entries", {"Host": f"localhost:{served.port}",
                                                     "Authorization": f"Bearer {served.token}"})
    assert status == 200


def test_a_change_from_another_origin_is_refused(served, diary):
    before = diary.commits()
    for origin in ("http://evil.example", f"http://localhost.evil.example:{served.port}", "null"):
        status, _, _ = served.request("POST", "/api/entries", body="{}", headers={"Origin": origin,
                                                                                  "Content-Type": "application/json"})
        assert status == 403, origin
    # No Origin, and the browser says the request is cross-site.
    status, _, _ = served.request("POST", "/api/entries", body="{}", headers={"Origin": "", "Sec-Fetch-Site": "cross-site"})
    assert status == 403
    assert diary.commits() == before


def test_a_body_over_the_limit_is_refused_before_it_is_read(served, diary):
    """The headers announce 9 MiB; the server answers after the first kilobyte, without waiting for the rest."""
    before = diary.commits()
    c = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    c.putrequest("POST", "/api/entries")
    for k, v in {"Cookie": f"daybook-{served.port}={served.token}", "Origin": served.base,
                 "Content-Type": "application/json", "Content-Length": str(9 << 20)}.items():
        c.putheader(k, v)
    c.endheaders()
    c.send(b"x" * 1024)
    r = c.getresponse()
    assert r.status == 413
    assert diary.commits() == before


def test_every_response_carries_a_strict_content_security_policy(served):
    for path in ("/api/entries", "/assets/app.css", "/no/such/page"):
        _, headers, _ = served.request("GET", path)
        csp = headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        directives = dict((d.strip().split(" ", 1) + [""])[:2] for d in csp.split(";") if d.strip())
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
        assert "unsafe-eval" not in csp and "unsafe-inline" not in directives["script-src"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
    # Refusals carry it too.
    _, headers, _ = served.request("GET", "/api/entries", cookie=False)
    assert "default-src 'none'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("path", [
    "/api/entries/..%2F..%2F..%2F..%2Fetc%2Fpasswd", "/api/entries/%2Fetc%2Fpasswd", "/api/entries/..",
    "/assets/..%2F..%2FPackage.swift", "/assets/%2Fetc%2Fpasswd", "/assets/.hidden",
    "/api/entries/..%2Fdaybook.yml", "/api/entries/~root",
])
def test_no_path_resolves_outside_the_diary(served, path):
    status, _, body = served.request("GET", path)
    assert status in (400, 404), (path, status)
    assert b"root:" not in body and b"PackageDescription" not in body and b"timezone" not in body


def test_ctrl_c_stops_the_server_cleanly(diary):
    s = Served(diary)
    s.stop()
    assert s.proc.returncode in (0, -2, 130), s.proc.returncode
