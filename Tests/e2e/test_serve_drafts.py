"""What is typed in the web app's form is kept as it is typed (issue 41, item 7): a tab closed
before Save loses nothing, the next visit offers the draft, and a save removes it. And the codings
list renders a quote's Markdown (item 5): `**nobody**` is bold, not stars."""
import pytest

from serving import Served
from test_serve_browser import browser, open_app, shot, wait_for  # noqa: F401 (fixtures)

selenium = pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture
def served(diary):
    diary.ok("new", "Night shift", "-m", "At night the printer jammed, and **nobody** came.\n")
    s = Served(diary)
    yield s
    s.stop()


def test_a_draft_survives_a_closed_tab_and_is_offered_on_the_next_visit(browser, served, diary):
    open_app(browser, served, "/new")
    form = browser.find_element(By.ID, "entry-form")
    assert not browser.find_element(By.ID, "draft-offer").is_displayed()
    form.find_element(By.NAME, "title").send_keys("Half written")
    form.find_element(By.NAME, "body").send_keys("Words typed before the tab was closed.")
    import time
    time.sleep(0.8)  # past the 300 ms the form waits after the last key
    # The tab is closed: a new one opens the form again.
    browser.switch_to.new_window("tab")
    old = browser.window_handles[0]
    browser.switch_to.window(old)
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    browser.get(served.base + "/new")
    offer = wait_for(lambda: browser.find_element(By.ID, "draft-offer").is_displayed() and browser.find_element(By.ID, "draft-offer"))
    assert "A draft of this form was kept" in offer.text
    assert browser.find_element(By.NAME, "body").get_attribute("value") == ""
    shot(browser, "draft-offered.png")
    browser.find_element(By.ID, "draft-restore").click()
    assert browser.find_element(By.NAME, "body").get_attribute("value") == "Words typed before the tab was closed."
    assert browser.find_element(By.NAME, "title").get_attribute("value") == "Half written"
    before = diary.commits()
    browser.find_element(By.CSS_SELECTOR, "#entry-form button[type=submit]").click()
    wait_for(lambda: "/entries/" in browser.current_url)
    assert diary.commits() == before + 1
    assert any(p.read_text().endswith("Words typed before the tab was closed.\n") for p in diary.entries())
    # Saved: the next visit offers nothing.
    browser.get(served.base + "/new")
    wait_for(lambda: browser.find_element(By.ID, "entry-form"))
    assert not browser.find_element(By.ID, "draft-offer").is_displayed()


def test_the_codings_list_renders_a_quotes_markdown(browser, served, diary):
    diary.ok("code", "add", "last", "frustration", "--quote", "printer jammed, and **nobody** came", "--memo", "a *third* night")
    eid = diary.entries()[0].stem
    open_app(browser, served, f"/entries/{eid}")
    codings = browser.find_element(By.CSS_SELECTOR, "section.codings")
    assert codings.find_element(By.CSS_SELECTOR, "blockquote strong").text == "nobody"
    assert codings.find_element(By.CSS_SELECTOR, ".memo em").text == "third"
    assert "**" not in codings.text
