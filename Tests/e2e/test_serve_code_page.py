"""A code's page (issue 41, item 5), as Taguette's highlights view: every highlight of the code
across the diary with its entry, coder, memo and context, filtered by coder and date, as CSV; and
the code renamed, merged, moved, described and recoloured from it, each one commit made by the
same core function as `code rename`, `code merge` and `code define`."""
import csv
import io
import json

import pytest

from serving import Served
from test_serve_browser import browser, open_app, shot, wait_for  # noqa: F401 (fixtures)

selenium = pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture
def served(diary):
    diary.ok("new", "Login trouble", "-m", "The nurse showed me the tablet. The login failed again, and she restarted it.\n")
    diary.ok("code", "define", "frustration", "--color", "#d1242f")
    diary.ok("code", "add", "last", "frustration", "--quote", "login failed again", "--coder", "alice", "--memo", "third time")
    diary.ok("new", "Night shift", "--date", "2026-11-19 22:00", "-m", "At night the printer jammed, and **nobody** came.\n")
    diary.ok("code", "add", "2026-11-19", "frustration", "--quote", "printer jammed", "--coder", "bob")
    s = Served(diary)
    yield s
    s.stop()


def post(served, path, value):
    status, _, data = served.request("POST", path, body=json.dumps(value), headers={"Content-Type": "application/json"})
    return status, json.loads(data)


def test_every_highlight_with_entry_coder_memo_and_context_filtered_and_as_csv(served, diary):
    page = served.request("GET", "/codes/frustration")[2].decode()
    assert "2 highlights" in page
    assert "Login trouble" in page and "Night shift" in page and "alice" in page and "bob" in page and "third time" in page
    assert "The nurse showed me the tablet. The " in page  # the context before the quote
    assert page.index("Login trouble") < page.index("Night shift")  # newest first
    only_bob = served.request("GET", "/codes/frustration?coder=bob")[2].decode()
    assert "1 highlight" in only_bob and "printer jammed" in only_bob and "login failed again" not in only_bob
    recent = served.request("GET", "/codes/frustration?from=2026-11-20")[2].decode()
    assert "1 highlight" in recent and "Login trouble" in recent and "Night shift" not in recent
    status, headers, data = served.request("GET", "/codes/frustration?coder=alice&format=csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(data.decode())))
    assert rows[0] == ["id", "date", "title", "code", "coder", "memo", "before", "quote", "after"]
    assert len(rows) == 2 and rows[1][4:] == ["alice", "third time", "The nurse showed me the tablet. The ", "login failed again",
                                             ", and she restarted it.\n"]


def test_rename_merge_move_describe_recolour_each_one_commit(served, diary):
    before = diary.commits()
    status, answer = post(served, "/api/codes/frustration/rename", {"to": "annoyance"})
    assert status == 200 and answer["code"] == "annoyance", answer
    assert diary.git("log", "-1", "--format=%s").strip() == "code rename: frustration → annoyance (2 entries)"
    assert all("frustration" not in p.read_text() for p in diary.entries())
    assert "annoyance" in (diary.path / "codebook.yml").read_text()
    diary.ok("code", "define", "anger")
    status, answer = post(served, "/api/codes/annoyance/merge", {"into": "anger"})
    assert status == 200 and answer["code"] == "anger", answer
    assert diary.git("log", "-1", "--format=%s").strip() == "code merge: annoyance → anger (2 entries)"
    diary.ok("code", "define", "emotions")
    assert post(served, "/api/codes/anger/move", {"parent": "emotions"})[0] == 200
    assert post(served, "/api/codes/anger/describe", {"description": "Being **cross** at the tools"})[0] == 200
    assert post(served, "/api/codes/anger/recolour", {"color": "#0969da"})[0] == 200
    book = (diary.path / "codebook.yml").read_text()
    assert "Being **cross** at the tools" in book and "#0969da" in book
    assert [line for line in diary.git("log", "-3", "--format=%s").splitlines()] == ["code define: anger (under emotions)"] * 3
    assert diary.commits() == before + 2 + 2 + 3  # two CLI defines beside the five changes
    status, answer = post(served, "/api/codes/anger/recolour", {"color": "red"})
    assert status == 422 and "not a colour" in answer["error"]
    status, answer = post(served, "/api/codes/anger/move", {"parent": ""})
    assert status == 422


def test_the_code_page_in_the_browser_renames_the_code(browser, served, diary):
    eid = next(p.stem for p in diary.entries() if "login" in p.name)
    open_app(browser, served, f"/entries/{eid}")
    browser.find_element(By.CSS_SELECTOR, "a.code-page").click()
    wait_for(lambda: "/codes/frustration" in browser.current_url)
    assert "2 highlights" in browser.find_element(By.ID, "highlight-count").text
    shot(browser, "code-page.png")
    form = browser.find_element(By.CSS_SELECTOR, "form.code-action[data-action=rename]")
    form.find_element(By.NAME, "to").send_keys("annoyance")
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait_for(lambda: browser.current_url.endswith("/codes/annoyance"))
    assert "2 highlights" in browser.find_element(By.ID, "highlight-count").text
    assert diary.git("log", "-1", "--format=%s").strip() == "code rename: frustration → annoyance (2 entries)"
