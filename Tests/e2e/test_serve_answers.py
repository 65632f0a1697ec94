"""Answers never given are not saved (issue 41): in the web form an untouched slider saved its
midpoint (`energy: 4`) and an untouched check box `false`, invented data in a diary study. Now a
scale says "not answered" until it is moved, a bool offers yes / no / not answered, and a field
the person did not touch is not written. Chromium, headless, as in test_serve_browser.py."""
import pytest

from serving import Served
from test_serve_browser import browser, open_app, shot, wait_for  # noqa: F401 (fixtures)

selenium = pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

STUDY = """---
template: study
description: The daily questions of a diary study
fields:
  energy: {type: scale, min: 1, max: 7, prompt: "Energy"}
  slept_well: {type: bool, prompt: "Slept well"}
  place: {type: choice, options: [home, ward], prompt: "Where"}
---
"""


@pytest.fixture
def served(diary):
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates" / "study.md").write_text(STUDY)
    diary.ok("new", "Start", "-m", "Begin.\n")
    s = Served(diary)
    yield s
    s.stop()


def saved(browser, diary, title):
    wait_for(lambda: "/entries/" in browser.current_url)
    (path,) = [p for p in diary.entries() if title in p.name]
    return path.read_text()


def submit(browser, title, body):
    form = browser.find_element(By.ID, "entry-form")
    form.find_element(By.NAME, "title").send_keys(title)
    area = form.find_element(By.NAME, "body")
    area.clear()
    area.send_keys(body)
    return form


def test_untouched_slider_bool_and_choice_write_nothing(browser, served, diary):
    open_app(browser, served, "/new?template=study")
    form = submit(browser, "Untouched", "Nothing asked was answered.")
    energy = form.find_element(By.CSS_SELECTOR, "[data-field=energy]")
    assert "not answered" in energy.find_element(By.TAG_NAME, "output").text
    slept = form.find_elements(By.CSS_SELECTOR, "input[name='field:slept_well']")
    assert [i.get_attribute("value") for i in slept] == ["true", "false", ""]
    assert [i.is_selected() for i in slept] == [False, False, True]
    shot(browser, "form-not-answered.png")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    text = saved(browser, diary, "untouched")
    front = text.split("\n---\n", 1)[0]
    assert "energy" not in front and "slept_well" not in front and "place" not in front, text
    assert "template: study" in front


def test_answers_given_are_written_and_a_cleared_slider_is_not(browser, served, diary):
    open_app(browser, served, "/new?template=study")
    form = submit(browser, "Answered", "Moved and chosen.")
    slider = form.find_element(By.CSS_SELECTOR, "input[type=range][name='field:energy']")
    slider.send_keys(Keys.ARROW_RIGHT)  # from the midpoint 4: the person chose 5
    assert form.find_element(By.CSS_SELECTOR, "[data-field=energy] output").text == "5"
    form.find_element(By.CSS_SELECTOR, "input[name='field:slept_well'][value=false]").click()
    shot(browser, "form-answered.png")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    text = saved(browser, diary, "answered")
    assert "energy: 5\n" in text and "slept_well: false\n" in text and "place" not in text.split("\n---\n", 1)[0]
    # Editing: Clear takes the slider's answer back; "not answered" takes the bool's; both go.
    eid = [p for p in diary.entries() if "answered" in p.name][0].stem
    open_app(browser, served, f"/entries/{eid}/edit")
    form = browser.find_element(By.ID, "entry-form")
    assert form.find_element(By.CSS_SELECTOR, "[data-field=energy] output").text == "5"
    assert form.find_element(By.CSS_SELECTOR, "input[name='field:slept_well'][value=false]").is_selected()
    form.find_element(By.CSS_SELECTOR, "[data-field=energy] .clear-answer").click()
    assert "not answered" in form.find_element(By.CSS_SELECTOR, "[data-field=energy] output").text
    form.find_element(By.CSS_SELECTOR, "input[name='field:slept_well'][value='']").click()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(lambda: browser.current_url.endswith("/entries/" + eid))
    front = [p for p in diary.entries() if "answered" in p.name][0].read_text().split("\n---\n", 1)[0]
    assert "energy" not in front and "slept_well" not in front, front
