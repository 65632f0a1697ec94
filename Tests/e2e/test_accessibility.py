"""`daybook serve` for people who do not use a mouse or do not see the screen (WCAG 2.2 AA).

axe-core (the `axe.min.js` that PyPI's axe-playwright-python ships) is injected with Selenium into
the index, an entry with codings and strokes, and the form with its errors shown, in the light and
the dark theme (the media feature emulated through the DevTools protocol): no violation of
moderate, serious or critical impact. Then a keyboard-only walk (keys only, no mouse event) codes a
passage, edits the coding's memo, removes it, deletes a stroke, and submits an invalid form; each
step is checked in the diary's files and in where the focus is. Screenshots of the focus on an
invalid field and of the coding form at 200 % zoom are kept in Tests/e2e/artifacts/.
"""
import json
import os
import time

import pytest

from test_serve_browser import ARTIFACTS, BODY, browser, entry_id, open_app, served, shot, wait_for  # noqa: F401

selenium = pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402

axe_package = pytest.importorskip("axe_playwright_python", reason="pip install axe-playwright-python (Tests/e2e/requirements.txt)")
AXE = open(os.path.join(os.path.dirname(axe_package.__file__), "axe.min.js"), encoding="utf-8").read()

STROKES = {"format": "daybook-strokes", "version": 1, "canvas": {"width": 768, "height": 600, "unit": "px"},
           "channels": ["x", "y", "t"],
           "strokes": [{"tool": "pen", "color": "#1f2328", "width": 2, "start": "2026-11-21T18:30:00+01:00",
                        "points": [[10, 10, 0], [60, 40, 20], [120, 50, 40]]},
                       {"tool": "highlighter", "color": "#fff176", "width": 14, "start": "2026-11-21T18:31:00+01:00",
                        "points": [[200, 200, 0], [300, 210, 30]]}]}


def axe(browser):
    """The violations axe-core finds on the page as it is now, of moderate impact or worse."""
    browser.execute_script(AXE)
    browser.set_script_timeout(60)
    result = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations), (e) => done(String(e)));")
    assert isinstance(result, list), result
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5], "summary": v["nodes"][0].get("failureSummary", "")}
            for v in result if v["impact"] in ("moderate", "serious", "critical")]


def dark(browser, on=True):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})


def coded_entry(diary, served):
    eid = entry_id(diary, "login-trouble")
    diary.ok("code", "define", "workaround", "--color", "#bf8700")
    diary.ok("code", "define", "pale", "--color", "#ffe08a")
    diary.ok("code", "add", eid, "frustration", "--quote", "login failed again", "--memo", "third time")
    diary.ok("code", "add", eid, "workaround", "--quote", "she restarted it")
    diary.ok("code", "add", eid, "pale", "--quote", "The nurse")
    status, _, _ = served.request("POST", f"/api/entries/{eid}/strokes", json.dumps(STROKES),
                                  headers={"Content-Type": "application/json"})
    assert status == 201
    return eid


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_on_the_index_an_entry_and_the_refused_form(browser, served, diary, theme):
    eid = coded_entry(diary, served)
    for n in range(3):
        diary.ok("new", f"Older note {n}", "--date", f"2025-0{n + 3}-1{n}", "-m", "A line.")
    dark(browser, theme == "dark")
    found = {}
    open_app(browser, served, "/")
    found["index"] = axe(browser)
    browser.get(served.base + f"/entries/{eid}")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#stroke-list li"))
    found["entry"] = axe(browser)
    shot(browser, f"a11y-entry-{theme}.png")
    browser.get(served.base + "/new?template=emotion")
    form = browser.find_element(By.ID, "entry-form")
    form.find_element(By.NAME, "date").send_keys("the day after never")
    form.find_element(By.CSS_SELECTOR, "input[name='field:minutes']").send_keys("9999")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(lambda: form.find_elements(By.CSS_SELECTOR, "[aria-invalid=true]"))
    found["form with errors"] = axe(browser)
    shot(browser, f"a11y-form-errors-{theme}.png")
    assert not any(found.values()), json.dumps(found, indent=1)


# ---- The keyboard alone: keys sent to whatever has the focus, and a count of pointer events that must stay 0.

def keys(browser, *sequence, modifier=None):
    chain = ActionChains(browser)
    if modifier:
        chain.key_down(modifier)
    chain.send_keys(*sequence)
    if modifier:
        chain.key_up(modifier)
    chain.perform()


def count_pointer_events(browser):
    browser.execute_script("""
        window.pointerEvents = 0;
        for (const t of ['mousedown', 'mouseup', 'pointerdown', 'pointerup'])
          document.addEventListener(t, () => window.pointerEvents++, true);""")


def pointer_events(browser):
    return browser.execute_script("return window.pointerEvents")


def focused(browser, script):
    """`script` about the focused element `el` (e.g. "return el.id")."""
    return browser.execute_script("const el = document.activeElement; " + script)


def tab_to(browser, test, limit=120, back=False):
    """Presses Tab (Shift+Tab with `back`) until `test` (JS on `el`) holds; the number of presses."""
    for n in range(1, limit + 1):
        keys(browser, Keys.TAB, modifier=Keys.SHIFT if back else None)
        if focused(browser, "return !!(" + test + ")"):
            return n
    raise AssertionError(f"Tab never reached {test}")


def live(browser):
    return browser.find_element(By.ID, "live").text


def accessible(browser):
    """Chromium's own accessible name and description of the focused element (DevTools protocol)."""
    root = browser.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = browser.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": ":focus"})["nodeId"]
    tree = browser.execute_cdp_cmd("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
    ax = tree["nodes"][0]
    value = lambda k: (ax.get(k) or {}).get("value", "")
    props = {p["name"]: p["value"].get("value") for p in ax.get("properties", [])}
    return value("name"), value("description"), props


def entry_text(diary, eid):
    return (diary.path / "entries/2026/11" / f"{eid}.md").read_text()


def test_coding_a_passage_its_memo_and_remove_and_deleting_a_stroke_with_the_keyboard_alone(browser, served, diary):
    eid = entry_id(diary, "login-trouble")
    status, _, _ = served.request("POST", f"/api/entries/{eid}/strokes", json.dumps(STROKES), headers={"Content-Type": "application/json"})
    assert status == 201
    open_app(browser, served, f"/entries/{eid}")
    count_pointer_events(browser)
    before = diary.commits()
    tab_to(browser, "el.id === 'keyboard-select'")
    keys(browser, Keys.ENTER)
    assert focused(browser, "return el.matches('#reading .body') && el.getAttribute('role')") == "textbox"
    assert browser.find_elements(By.CSS_SELECTOR, "[role=alert], [role=status], [aria-live]") == [browser.find_element(By.ID, "live")]
    wait_for(lambda: "Selecting in the entry" in live(browser))
    # To "login": word by word past "The nurse showed me the tablet. The", then one character.
    for _ in range(7):
        keys(browser, Keys.ARROW_RIGHT, modifier=Keys.CONTROL)
    keys(browser, Keys.ARROW_RIGHT)
    assert browser.execute_script("return document.getSelection().toString()") == "", "a caret, not yet a selection"
    assert browser.find_element(By.CSS_SELECTOR, ".kbd-caret").is_displayed(), "the caret is drawn"
    for _ in range(3):
        keys(browser, Keys.ARROW_RIGHT, modifier=Keys.SHIFT)   # "log", then Shift+Ctrl for words
    ActionChains(browser).key_down(Keys.SHIFT).key_down(Keys.CONTROL).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT) \
        .key_up(Keys.CONTROL).key_up(Keys.SHIFT).perform()
    # The selection is shown as the page's own.
    assert browser.execute_script("return document.getSelection().toString()") == "login failed again"
    wait_for(lambda: live(browser) == "Selected “login failed again”")
    keys(browser, Keys.ENTER)
    assert focused(browser, "return el.id") == "code-input", "the coding form opens with the focus in it"
    assert "login failed again" in live(browser)
    assert browser.find_element(By.ID, "selection-text").text == "“login failed again”"
    keys(browser, "frustration", Keys.TAB, "third time", Keys.ENTER)
    wait_for(lambda: diary.commits() == before + 1)
    assert '  - code: frustration\n    quote: "login failed again"\n    memo: third time\n' in entry_text(diary, eid)
    # The page comes back with "Coded." said and the focus on the new coding, named by code and ends.
    wait_for(lambda: live(browser) == "Coded.")
    count_pointer_events(browser)
    name = "code frustration: from “login” to “again”"
    assert focused(browser, "return el.className") == "coding-open"
    assert accessible(browser)[0] == name
    mark = browser.find_element(By.CSS_SELECTOR, "mark.coded[data-coding='0']")
    assert mark.get_attribute("tabindex") == "0" and mark.get_attribute("role") == "button" and mark.get_attribute("aria-label") == name
    # The highlight itself is reached with Tab and opens the memo with Enter.
    tab_to(browser, "el.matches('mark.coded')", back=True)
    keys(browser, Keys.ENTER)
    wait_for(lambda: focused(browser, "return el.closest('#coding-detail') && el.tagName") == "INPUT")
    assert focused(browser, "return el.value") == "third time"
    assert accessible(browser)[0] == "Memo"
    keys(browser, "a", modifier=Keys.CONTROL)
    keys(browser, "fourth time", Keys.TAB)
    assert focused(browser, "return el.textContent") == "Save memo"
    keys(browser, Keys.SPACE)
    wait_for(lambda: "memo: fourth time" in entry_text(diary, eid))
    wait_for(lambda: diary.commits() == before + 2)
    wait_for(lambda: live(browser) == "Memo saved.")
    keys(browser, Keys.TAB)
    assert focused(browser, "return el.textContent") == "Remove"
    assert name in accessible(browser)[1], "Remove says which coding it removes"
    keys(browser, Keys.ENTER)
    wait_for(lambda: diary.commits() == before + 3)
    assert "code: frustration" not in entry_text(diary, eid)
    wait_for(lambda: live(browser).startswith("Coding removed"))
    assert focused(browser, "return el.id") == "codings-heading"
    # The entry's own list of codings opens them too: the workaround's memo, from its button there.
    diary.ok("code", "add", eid, "workaround", "--quote", "she restarted it", "--memo", "reboot")
    browser.refresh()
    count_pointer_events(browser)
    tab_to(browser, "el.className === 'coding-edit'")
    assert accessible(browser)[0] == "Memo and Remove: code workaround: from “she” to “it”"
    keys(browser, Keys.ENTER)
    wait_for(lambda: focused(browser, "return el.closest('#coding-detail') && el.value") == "reboot")
    keys(browser, Keys.ESCAPE)
    assert focused(browser, "return el.className") == "coding-edit", "Escape closes it and returns the focus"
    assert not browser.find_element(By.ID, "coding-detail").is_displayed()
    # Each stroke is listed with Delete: the second one goes, the first stays.
    stroke_file = diary.path / "entries/2026/11" / f"{eid}.strokes.json"
    items = browser.find_elements(By.CSS_SELECTOR, "#stroke-list li")
    assert len(items) == 2 and items[1].text.startswith("highlighter in #fff176, 2 points"), [i.text for i in items]
    tab_to(browser, "el.getAttribute('aria-label') === 'Delete stroke 2'")
    keys(browser, Keys.ENTER)
    wait_for(lambda: len(json.loads(stroke_file.read_text())["strokes"]) == 1)
    assert json.loads(stroke_file.read_text())["strokes"][0]["tool"] == "pen"
    wait_for(lambda: live(browser) == "Stroke 2 deleted.")
    assert focused(browser, "return el.getAttribute('aria-label')") == "Delete stroke 1", "the focus stays in the list"
    assert pointer_events(browser) == 0


def test_an_invalid_form_puts_the_focus_on_the_first_invalid_field_with_its_reason(browser, served, diary):
    open_app(browser, served, "/new?template=emotion")
    count_pointer_events(browser)
    tab_to(browser, "el.name === 'title'")
    keys(browser, "Night shift", Keys.TAB, "the day after never")
    tab_to(browser, "el.name === 'field:minutes'")
    keys(browser, "9999", Keys.ENTER)
    before = diary.commits()
    wait_for(lambda: focused(browser, "return el.name") == "date")
    name, description, props = accessible(browser)
    assert name == "When"
    assert props.get("invalid") == "true", props
    assert "never" in description or "date" in description.lower(), description
    # The second invalid field is marked and described too; only one status region says the refusal.
    minutes = browser.find_element(By.CSS_SELECTOR, "input[name='field:minutes']")
    assert minutes.get_attribute("aria-invalid") == "true"
    reason = browser.find_element(By.ID, minutes.get_attribute("aria-describedby").split()[-1]).text
    assert "600" in reason, reason
    assert browser.find_elements(By.CSS_SELECTOR, "[role=alert]:not([hidden]), [aria-live]") == [browser.find_element(By.ID, "live")]
    assert "Not saved" in live(browser)
    # The focus ring shows on the invalid field (its red border does not replace it).
    assert focused(browser, "return el.matches(':focus-visible') && getComputedStyle(el).outlineStyle") == "solid"
    shot(browser, "a11y-focus-on-invalid-field.png")
    assert diary.commits() == before
    # The radio group is a fieldset named by its legend, not inside a label.
    group = browser.find_element(By.CSS_SELECTOR, "[data-field=feeling] fieldset")
    assert group.find_element(By.TAG_NAME, "legend").text == "General feeling"
    assert not browser.find_elements(By.CSS_SELECTOR, "label fieldset")
    # Fixed by the keyboard: the When is cleared, the mood answered with an arrow, the minutes
    # corrected, and the entry is written.
    keys(browser, "a", modifier=Keys.CONTROL)
    keys(browser, Keys.BACKSPACE)
    tab_to(browser, "el.name === 'field:mood'")
    keys(browser, Keys.ARROW_RIGHT)
    tab_to(browser, "el.name === 'field:minutes'")
    keys(browser, "a", modifier=Keys.CONTROL)
    assert pointer_events(browser) == 0
    keys(browser, "45", Keys.ENTER)
    wait_for(lambda: "/entries/" in browser.current_url)
    assert diary.commits() == before + 1
    text = (diary.path / "entries/2026/11" / (entry_id(diary, "night-shift") + ".md")).read_text()
    assert "minutes: 45\n" in text and "mood: 6\n" in text, text


def test_the_template_list_does_not_move_on_arrow_keys_and_keeps_what_was_typed(browser, served, diary):
    open_app(browser, served, "/new")
    tab_to(browser, "el.name === 'title'")
    keys(browser, "Kept title")
    tab_to(browser, "el.name === 'body'")
    keys(browser, "Words typed before choosing.")
    tab_to(browser, "el.id === 'template-choice'", back=True)
    url = browser.current_url
    keys(browser, Keys.ARROW_DOWN)
    keys(browser, Keys.ARROW_DOWN)
    time.sleep(1)
    assert browser.current_url == url, "an arrow key only moves the choice"
    chosen = browser.find_element(By.ID, "template-choice").get_attribute("value")
    assert chosen
    keys(browser, Keys.TAB, Keys.ENTER)   # the Use button
    wait_for(lambda: "template=" in browser.current_url)
    assert browser.find_element(By.NAME, "title").get_attribute("value") == "Kept title"
    assert browser.find_element(By.NAME, "body").get_attribute("value") == "Words typed before choosing."
    assert browser.find_element(By.ID, "template-choice").get_attribute("value") == chosen


def test_the_coding_form_is_in_view_at_200_percent_zoom(browser, served, diary):
    eid = entry_id(diary, "login-trouble")
    # 200 % zoom of a 1280 px window: 640 CSS pixels wide, each drawn as two.
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 640, "height": 540, "deviceScaleFactor": 2, "mobile": False})
    open_app(browser, served, f"/entries/{eid}")
    tab_to(browser, "el.id === 'keyboard-select'")
    keys(browser, Keys.ENTER)
    keys(browser, Keys.ARROW_RIGHT, modifier=Keys.CONTROL)
    ActionChains(browser).key_down(Keys.SHIFT).key_down(Keys.CONTROL).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT) \
        .key_up(Keys.CONTROL).key_up(Keys.SHIFT).perform()
    keys(browser, Keys.ENTER)
    assert focused(browser, "return el.id") == "code-input"
    top, bottom, height = browser.execute_script(
        "const r = document.getElementById('code-input').getBoundingClientRect(); return [r.top, r.bottom, innerHeight];")
    assert 0 <= top and bottom <= height, (top, bottom, height)
    assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth"), "no horizontal scrolling"
    shot(browser, "a11y-coding-form-200-percent.png")


def test_the_index_has_a_heading_skip_links_pages_and_a_calendar_in_words(browser, served, diary):
    # 101 more entries, written as files (the files are the truth): two pages of a hundred.
    folder = diary.path / "entries/2026/10"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(101):
        day = 1 + n % 28
        (folder / f"2026-10-{day:02d}-{1000 + n}-note-{n}.md").write_text(
            f"---\ndate: 2026-10-{day:02d}T{10 + n // 60:02d}:{n % 60:02d}:00+01:00\ntitle: Note {n}\n---\nA line.\n")
    diary.git("add", "-A")
    diary.git("commit", "-qm", "notes")
    open_app(browser, served, "/")
    count_pointer_events(browser)
    assert [h.text for h in browser.find_elements(By.TAG_NAME, "h1")] == ["Entries"]
    assert [h.text for h in browser.find_elements(By.TAG_NAME, "h2") if h.is_displayed()] == ["Calendar", "Newest first, page 1 of 2"]
    # The first Tab shows the skip link; it leads past the navigation into the content.
    keys(browser, Keys.TAB)
    assert focused(browser, "return el.textContent") == "Skip to the content"
    assert focused(browser, "const r = el.getBoundingClientRect(); return r.left >= 0 && r.width > 0"), "shown when focused"
    keys(browser, Keys.ENTER)
    # From the content, three Tabs reach the list of entries, whatever the filters hold.
    n = tab_to(browser, "el.textContent === 'Skip to the entries'")
    assert n <= 3, n
    keys(browser, Keys.ENTER)
    assert focused(browser, "return el.id") == "list-heading"
    keys(browser, Keys.TAB)
    assert focused(browser, "return el.closest('#entries') !== null"), "the next Tab is the newest entry"
    # The pages are a navigation landmark; "Older entries" is reached by its own skip link.
    pages = browser.find_element(By.ID, "pages")
    assert pages.tag_name == "nav" and pages.get_attribute("aria-label") == "Pages of entries"
    assert "Page 1 of 2" in pages.text
    tab_to(browser, "el.textContent === 'Skip to the pages'", back=True)
    keys(browser, Keys.ENTER)
    keys(browser, Keys.TAB)
    assert focused(browser, "return el.textContent") == "Older entries"
    assert pointer_events(browser) == 0
    keys(browser, Keys.ENTER)
    wait_for(lambda: "page=2" in browser.current_url)
    assert "Page 2 of 2" in browser.find_element(By.ID, "pages").text
    assert browser.find_element(By.CSS_SELECTOR, "#pages a[rel=prev]").text == "Newer entries"
    # The calendar's squares are hidden from assistive technology; its table says it in words.
    svg = browser.find_element(By.CSS_SELECTOR, ".heatmap svg")
    assert svg.get_attribute("aria-hidden") == "true"
    summary = browser.find_element(By.CSS_SELECTOR, ".heatmap-table summary")
    assert summary.text == "Entries per month in 2026"
    browser.execute_script("arguments[0].focus()", summary)
    keys(browser, Keys.ENTER)
    row = browser.find_element(By.XPATH, "//details[@class='heatmap-table']//tr[th='October']")
    assert row.text.split()[1:] == ["101", "28"], row.text


def test_up_and_down_move_the_caret_by_shown_lines(browser, served, diary):
    eid = entry_id(diary, "login-trouble")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 700, "deviceScaleFactor": 1, "mobile": False})
    open_app(browser, served, f"/entries/{eid}")
    tab_to(browser, "el.id === 'keyboard-select'")
    keys(browser, Keys.ENTER)
    # Where the caret is drawn, in the page's coordinates (the page may scroll to keep it in view).
    caret = lambda: browser.execute_script("const r = document.querySelector('.kbd-caret').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY];")
    first = caret()
    keys(browser, Keys.ARROW_DOWN, modifier=Keys.SHIFT)
    second = caret()
    assert second[1] > first[1], (first, second)
    selected = browser.execute_script("return document.getSelection().toString()")
    assert BODY.startswith(selected) and len(selected) > 10, selected
    keys(browser, Keys.ARROW_UP, modifier=Keys.SHIFT)
    third = caret()
    assert third[1] < second[1], (first, second, third)
    keys(browser, Keys.ESCAPE)
    assert focused(browser, "return el.id") == "keyboard-select"
    assert browser.find_element(By.CSS_SELECTOR, "#reading .body").get_attribute("tabindex") is None
