"""`daybook serve` in a real browser: Debian's chromium, headless, driven by Selenium and chromedriver.

A person writes an entry through the form with a template's typed fields, draws with a pen (pressure
and tilt, sent as the browser's own pen events through the DevTools protocol), and codes a phrase
by selecting it. Each test then reads the files and git history the browser's actions made.
Screenshots of the index, an entry with codes and ink, and the form are kept in
Tests/e2e/artifacts/ for a person to look at.
"""
import json
import math
import os
import shutil
import time

import pytest

from conftest import ROOT
from serving import Served

selenium = pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ARTIFACTS = ROOT / "Tests" / "e2e" / "artifacts"
BODY = "The nurse showed me the tablet. The login failed again, and she restarted it.\n"


def chromium():
    for binary in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(binary) and shutil.which("chromedriver"):
            return binary
    pytest.fail("chromium and chromedriver are not installed: run ./scripts/setup")


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = chromium()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1100",
                "--disable-dev-shm-usage", "--no-first-run", "--lang=en-US"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def served(diary):
    diary.ok("new", "Login trouble", "-t", "fieldwork", "-m", BODY)
    diary.ok("code", "define", "frustration", "--color", "#d1242f")
    s = Served(diary)
    yield s
    s.stop()


def open_app(browser, served, path="/"):
    """Opens the printed address (the token becomes a cookie), then the page."""
    browser.get(served.address)
    WebDriverWait(browser, 10).until(lambda d: "token=" not in d.current_url)
    browser.get(served.base + path)


def shot(browser, name):
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / name))


def wait_for(predicate, seconds=10):
    """Polls until `predicate` holds. A live update re-renders the page, so an element may be gone
    for a moment between two polls: that is a poll that did not hold yet, not a failure."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            value = predicate()
        except (NoSuchElementException, StaleElementReferenceException):
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def entry_id(diary, title_part):
    for p in diary.entries():
        if title_part in p.name:
            return p.stem
    raise AssertionError(f"no entry {title_part}")


def test_index_lists_entries_and_searches_as_you_type(browser, served):
    open_app(browser, served)
    assert "Login trouble" in browser.find_element(By.ID, "entries").text
    assert browser.find_elements(By.CSS_SELECTOR, "svg.heatmap, .heatmap")
    box = browser.find_element(By.ID, "q")
    box.send_keys("restarted")
    results = wait_for(lambda: browser.find_element(By.ID, "search-results").is_displayed()
                       and browser.find_element(By.ID, "search-results").text)
    assert "login-trouble" in results and "restarted" in results
    shot(browser, "index.png")


def test_a_new_entry_through_the_form_with_a_templates_fields(browser, served, diary):
    open_app(browser, served, "/new?template=emotion")
    form = browser.find_element(By.ID, "entry-form")
    form.find_element(By.NAME, "title").send_keys("Evening on the ward")
    # The scale is a slider, the choice radio buttons, the number has its unit.
    slider = form.find_element(By.CSS_SELECTOR, "input[type=range][name='field:mood']")
    browser.execute_script("arguments[0].value = 7; arguments[0].dispatchEvent(new Event('input'))", slider)
    form.find_element(By.CSS_SELECTOR, "input[type=radio][value=enjoyment]").click()
    minutes = form.find_element(By.CSS_SELECTOR, "input[name='field:minutes']")
    minutes.send_keys("9999")
    body = form.find_element(By.NAME, "body")
    body.clear()
    body.send_keys("A quiet evening, for once.")
    shot(browser, "write-form.png")
    before = diary.commits()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # The number is off its scale: the reason shows at the field, and nothing is written.
    reason = wait_for(lambda: form.find_element(By.CSS_SELECTOR, "[data-field=minutes] .field-error").text)
    assert "600" in reason, reason
    assert diary.commits() == before
    shot(browser, "write-form-refused.png")
    minutes.clear()
    minutes.send_keys("45")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(lambda: "/entries/" in browser.current_url)
    text = (diary.path / "entries/2026/11" / (entry_id(diary, "evening-on-the-ward") + ".md")).read_text()
    assert "title: Evening on the ward\n" in text
    assert "mood: 7\n" in text and "feeling: enjoyment\n" in text and "minutes: 45\n" in text
    assert "template: emotion\n" in text
    assert text.endswith("A quiet evening, for once.\n")
    assert diary.commits() == before + 1
    assert diary.git("log", "-1", "--format=%s").strip() == "new: Evening on the ward"


def pen(browser, kind, x, y, force, tilt_x, tilt_y, buttons=1):
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1,
        "pointerType": "pen", "force": force, "tiltX": tilt_x, "tiltY": tilt_y})


def test_drawing_with_a_pen_keeps_pressure_and_tilt(browser, served, diary):
    eid = entry_id(diary, "login-trouble")
    open_app(browser, served, f"/entries/{eid}")
    canvas = browser.find_element(By.ID, "ink-canvas")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    box = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width];", canvas)
    left, top, width = box
    before = diary.commits()
    pen(browser, "mousePressed", left + 100, top + 100, 0.3, 30, 0)
    for i in range(1, 11):
        pen(browser, "mouseMoved", left + 100 + 10 * i, top + 100 + 3 * i, 0.3 + 0.05 * i, 30, 0)
    pen(browser, "mouseReleased", left + 200, top + 130, 0.8, 30, 0, buttons=0)
    stroke_file = diary.path / "entries/2026/11" / f"{eid}.strokes.json"
    wait_for(stroke_file.exists)
    wait_for(lambda: diary.commits() == before + 1)
    doc = json.loads(stroke_file.read_text())
    assert doc["channels"][:6] == ["x", "y", "t", "force", "azimuth", "altitude"]
    [stroke] = doc["strokes"]
    assert stroke["tool"] == "pen"
    points = stroke["points"]
    assert len(points) >= 10
    scale = doc.get("canvas", {}).get("width", 768) / width
    assert abs(points[0][0] - 100 * scale) < 2 and abs(points[0][1] - 100 * scale) < 2
    forces = [p[3] for p in points]
    assert abs(forces[0] - 0.3) < 0.01 and max(forces) > 0.7, forces
    assert all(b >= a for a, b in zip([p[2] for p in points], [p[2] for p in points][1:])), "t grows"
    # tiltX 30°, tiltY 0: the pen leans toward +x, so the azimuth is 0 and the altitude 60°.
    assert abs(points[0][4] - 0.0) < 0.01 or abs(points[0][4] - 2 * math.pi) < 0.01, points[0]
    assert abs(points[0][5] - math.radians(60)) < 0.01, points[0]
    assert diary.git("log", "-1", "--format=%s").strip() == "ink: +1 stroke on Login trouble"
    # A touch while the pen is down is a palm, not a stroke.
    pen(browser, "mousePressed", left + 300, top + 300, 0.5, 0, 0)
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": left + 50, "y": top + 400}]})
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": left + 80, "y": top + 420}]})
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    pen(browser, "mouseMoved", left + 320, top + 310, 0.5, 0, 0)
    pen(browser, "mouseReleased", left + 340, top + 320, 0.5, 0, 0, buttons=0)
    wait_for(lambda: len(json.loads(stroke_file.read_text())["strokes"]) == 2)
    time.sleep(1)
    assert len(json.loads(stroke_file.read_text())["strokes"]) == 2, "the palm's touch made no stroke"
    shot(browser, "entry-with-ink.png")


def select_text(browser, phrase):
    """Selects `phrase` in the entry's body as a mouse drag over it would."""
    browser.execute_script("""
        const body = document.querySelector('#reading .body');
        const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          const i = t.data.indexOf(arguments[0]);
          if (i >= 0) {
            const r = document.createRange();
            r.setStart(t, i); r.setEnd(t, i + arguments[0].length);
            const s = document.getSelection(); s.removeAllRanges(); s.addRange(r);
            return;
          }
        }
        throw new Error('phrase not shown');
    """, phrase)


def test_selecting_a_phrase_and_coding_it(browser, served, diary):
    eid = entry_id(diary, "login-trouble")
    open_app(browser, served, f"/entries/{eid}")
    before = diary.commits()
    select_text(browser, "login failed again")
    form = browser.find_element(By.ID, "coding-form")
    wait_for(form.is_displayed)
    assert "login failed again" in browser.find_element(By.ID, "selection-text").text
    browser.find_element(By.CSS_SELECTOR, ".code-pick[data-code=frustration]").click()
    browser.find_element(By.ID, "memo-input").send_keys("third time")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(lambda: diary.commits() == before + 1)
    text = (diary.path / "entries/2026/11" / f"{eid}.md").read_text()
    assert '  - code: frustration\n    quote: "login failed again"\n    memo: third time\n' in text, text
    assert diary.git("log", "-1", "--format=%s").strip() == 'code add: frustration on Login trouble: "login failed again"'
    # The page reloads with the segment highlighted in the codebook's colour.
    mark = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "mark.coded"))[0]
    assert mark.get_attribute("title") == "frustration"
    shot(browser, "entry-with-codes.png")
    # A click on the segment shows its memo, which can be changed.
    mark.click()
    memo = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#coding-detail input"))[0]
    assert memo.get_attribute("value") == "third time"
    memo.clear()
    memo.send_keys("fourth time")
    browser.find_element(By.XPATH, "//div[@id='coding-detail']//button[text()='Save memo']").click()
    wait_for(lambda: "memo: fourth time" in (diary.path / "entries/2026/11" / f"{eid}.md").read_text())
    # The file is written before its commit is made: wait for the commit, not only the file.
    wait_for(lambda: diary.commits() == before + 2)
    assert diary.git("log", "-1", "--format=%s").strip().startswith("code memo: frustration on Login trouble")


def test_an_edit_never_overwrites_a_change_made_on_disk(browser, served, diary):
    eid = entry_id(diary, "login-trouble")
    open_app(browser, served, f"/entries/{eid}/edit")
    body = browser.find_element(By.NAME, "body")
    body.send_keys(" Typed in the browser.")
    # Meanwhile, the file is changed in another editor.
    path = diary.path / "entries/2026/11" / f"{eid}.md"
    path.write_text(path.read_text().replace("The nurse", "The night nurse"))
    browser.find_element(By.CSS_SELECTOR, "#entry-form button[type=submit]").click()
    wait_for(lambda: browser.find_element(By.ID, "form-conflict").is_displayed())
    assert "The night nurse" in path.read_text() and "Typed in the browser" not in path.read_text()
    assert "Typed in the browser." in browser.find_element(By.NAME, "body").get_attribute("value"), "nothing typed is lost"


def test_a_change_made_by_the_cli_appears_in_the_open_page(browser, served, diary):
    eid = entry_id(diary, "login-trouble")
    open_app(browser, served, f"/entries/{eid}")
    assert "#interview" not in browser.find_element(By.ID, "reading").text
    diary.ok("tag", "add", eid, "interview")
    wait_for(lambda: "#interview" in browser.find_element(By.ID, "reading").text, seconds=15)
