"""The rest of issue 41's first section, over HTTP and in Chromium: a field not in the template is
refused, an empty body is an error status, a saved body keeps its final newline, an entry whose
front matter does not parse is listed and opens with its problem and its raw text to fix, a click
on a nested highlight opens the inner coding, and the entry list sees a change made right after
it loaded."""
import json

import pytest

from serving import Served
from test_serve_browser import browser, open_app, shot, wait_for  # noqa: F401 (fixtures)

selenium = pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402

BODY = "The nurse showed me the tablet. The login failed again, and she restarted it.\n"
BROKEN = "---\ntitle: Broken night\ndate: 2026-11-21T13:00:00+01:00\nmood: [\n---\nMy words, all of them.\n"


@pytest.fixture
def served(diary):
    diary.ok("new", "Login trouble", "-t", "fieldwork", "-m", BODY)
    s = Served(diary)
    yield s
    s.stop()


def call(served, method, path, value):
    status, _, data = served.request(method, path, body=json.dumps(value), headers={"Content-Type": "application/json"})
    try:
        return status, json.loads(data)
    except ValueError:
        return status, data.decode()


def the_entry(diary, part="login-trouble"):
    return next(p for p in diary.entries() if part in p.name)


def test_a_field_the_template_does_not_declare_is_refused(served, diary):
    before = diary.commits()
    status, answer = call(served, "POST", "/api/entries", {"template": "emotion", "body": "x\n",
                                                            "fields": {"mood": "5", "salary": "90000"}})
    assert status == 422 and "salary" in answer["fields"] and "not a field of template emotion" in answer["fields"]["salary"], answer
    status, answer = call(served, "POST", "/api/entries", {"body": "x\n", "fields": {"salary": "90000"}})
    assert status == 422 and "salary" in answer["fields"], answer
    entry = the_entry(diary)
    version = call(served, "GET", f"/api/entries/{entry.stem}", None)[1]["version"]
    status, answer = call(served, "PUT", f"/api/entries/{entry.stem}", {"version": version, "fields": {"salary": "1"}})
    assert status == 422 and "salary" in answer["fields"], answer
    assert diary.commits() == before and "salary" not in entry.read_text()


def test_an_empty_body_is_an_error_status_and_nothing_is_written(served, diary):
    before = diary.commits()
    status, answer = call(served, "POST", "/api/entries", {"title": "Nothing", "body": "  \n"})
    assert status == 422 and "the body is empty" in answer["error"], (status, answer)
    assert diary.commits() == before and len(diary.entries()) == 1


def test_a_saved_body_keeps_its_final_newline(served, diary):
    entry = the_entry(diary)
    version = call(served, "GET", f"/api/entries/{entry.stem}", None)[1]["version"]
    # A text area's value, as the browser sends it: no newline at the end.
    status, _ = call(served, "PUT", f"/api/entries/{entry.stem}", {"version": version, "body": "Rewritten on the ward."})
    assert status == 200
    assert entry.read_text().endswith("---\nRewritten on the ward.\n")
    assert diary.git("status", "--porcelain") == ""


def test_an_entry_that_does_not_read_is_listed_and_opens_to_be_fixed(served, diary):
    broken = diary.path / "entries/2026/11/2026-11-21-1300-broken-night.md"
    broken.write_text(BROKEN)
    index = served.request("GET", "/")[2].decode()
    assert "Entries that do not read" in index and "2026-11-21-1300-broken-night" in index
    assert "2026-11-21-1300-broken-night.md:4" in index, index  # the problem, at its line
    status, _, page = served.request("GET", "/entries/2026-11-21-1300-broken-night")
    page = page.decode()
    assert status == 200 and "2026-11-21-1300-broken-night.md:4" in page and "My words, all of them." in page
    assert 'id="raw-form"' in page
    version = page.split('data-version="', 1)[1].split('"', 1)[0]
    # A save from a stale page is refused, nothing overwritten.
    status, answer = call(served, "PUT", "/api/entries/2026-11-21-1300-broken-night/raw", {"version": "0" * 40, "text": "x"})
    assert status == 409 and broken.read_text() == BROKEN
    # Still broken after a first try: saved as typed, the problem said again.
    status, answer = call(served, "PUT", "/api/entries/2026-11-21-1300-broken-night/raw",
                          {"version": version, "text": BROKEN.replace("My words", "My words and more")})
    assert status == 200 and answer["problems"] and "My words and more" in broken.read_text()
    fixed = BROKEN.replace("My words", "My words and more").replace("mood: [\n", "mood: 3\n").rstrip("\n")
    status, answer = call(served, "PUT", "/api/entries/2026-11-21-1300-broken-night/raw", {"version": answer["version"], "text": fixed})
    assert status == 200 and answer["problems"] == [], answer
    assert broken.read_text() == fixed + "\n"
    assert diary.git("log", "-1", "--format=%s").strip() == "edit: Broken night"
    assert "Broken night" in served.request("GET", "/")[2].decode()
    assert "Entries that do not read" not in served.request("GET", "/")[2].decode()


def test_a_click_on_a_nested_highlight_opens_the_inner_coding(browser, served, diary):
    diary.ok("code", "define", "frustration", "--color", "#d1242f")
    diary.ok("code", "define", "technology", "--color", "#0969da")
    diary.ok("code", "add", "last", "frustration", "--quote", "The login failed again, and she restarted it.")
    diary.ok("code", "add", "last", "technology", "--quote", "login failed")
    eid = the_entry(diary).stem
    open_app(browser, served, f"/entries/{eid}")
    inner = wait_for(lambda: [m for m in browser.find_elements(By.CSS_SELECTOR, "mark.coded mark.coded")
                              if m.get_attribute("title") == "technology"])[0]
    inner.click()
    heading = wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#coding-detail h3").text)
    assert heading == "technology"
    memo = browser.find_element(By.CSS_SELECTOR, "#coding-detail input")
    memo.send_keys("the tablet again")
    shot(browser, "nested-highlight.png")
    browser.find_element(By.XPATH, "//div[@id='coding-detail']//button[text()='Save memo']").click()
    text = wait_for(lambda: "memo: the tablet again" in the_entry(diary).read_text() and the_entry(diary).read_text())
    assert '  - code: technology\n    quote: "login failed"\n    memo: the tablet again\n' in text, text
    assert "code: frustration\n    quote: \"The login failed again, and she restarted it.\"\n  -" in text or text.count("memo:") == 1


def test_the_list_sees_a_change_made_right_after_it_loaded(browser, served, diary):
    open_app(browser, served, "/")
    diary.ok("new", "Right after", "-m", "Made within a second of the page.\n")
    assert wait_for(lambda: "Right after" in browser.find_element(By.ID, "entries").text, seconds=10)


def test_a_broken_entry_fixed_in_the_browser(browser, served, diary):
    broken = diary.path / "entries/2026/11/2026-11-21-1300-broken-night.md"
    broken.write_text(BROKEN)
    open_app(browser, served, "/entries/2026-11-21-1300-broken-night")
    area = browser.find_element(By.CSS_SELECTOR, "#raw-form textarea")
    assert area.get_attribute("value") == BROKEN
    shot(browser, "entry-that-does-not-read.png")
    browser.execute_script("arguments[0].value = arguments[0].value.replace('mood: [', 'mood: 2')", area)
    browser.find_element(By.CSS_SELECTOR, "#raw-form button[type=submit]").click()
    wait_for(lambda: browser.current_url.endswith("/entries/2026-11-21-1300-broken-night"))
    assert wait_for(lambda: "Broken night" in browser.find_element(By.CSS_SELECTOR, "#reading").text)
    assert broken.read_text() == BROKEN.replace("mood: [", "mood: 2")
