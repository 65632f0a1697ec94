"""The web form shows and hides a follow-up as the answer it hangs on changes (issue 47 item 1), in Chromium."""
import pytest

from serving import Served
from test_conditions import SMOKING, entry_text
from test_serve_browser import browser, open_app, shot, wait_for  # noqa: F401 (browser is a fixture)

from selenium.webdriver.common.by import By  # noqa: E402


def test_follow_ups_show_and_hide_as_answers_change_and_a_hidden_one_is_not_saved(browser, diary):  # noqa: F811
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates" / "smoking.md").write_text(SMOKING)
    served = Served(diary)
    try:
        open_app(browser, served, "/new?template=smoking")
        form = browser.find_element(By.ID, "entry-form")

        def shown(name):
            return form.find_element(By.CSS_SELECTOR, f"[data-field={name}]").is_displayed()

        # Nothing answered yet: `not smoked` holds, the follow-ups of yes are hidden.
        assert not shown("cigarettes") and not shown("place") and shown("craving")
        # A bool is yes / no / not answered (issue 41): "yes" opens the follow-ups.
        form.find_element(By.CSS_SELECTOR, "input[name='field:smoked'][value=true]").click()
        wait_for(lambda: shown("cigarettes") and not shown("craving"))
        assert not shown("place")
        cigarettes = form.find_element(By.CSS_SELECTOR, "input[name='field:cigarettes']")
        cigarettes.send_keys("12")
        wait_for(lambda: shown("place"))
        form.find_element(By.CSS_SELECTOR, "input[type=radio][value=bar]").click()
        shot(browser, "conditions-yes.png")
        # Changing the answer back hides the follow-ups again, though they hold answers.
        form.find_element(By.CSS_SELECTOR, "input[name='field:smoked'][value=false]").click()
        wait_for(lambda: not shown("cigarettes") and not shown("place") and shown("craving"))
        form.find_element(By.NAME, "title").send_keys("Browser day")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(lambda: "/entries/" in browser.current_url)
        text = entry_text(diary, "browser-day")
        assert "smoked: false\n" in text and "cigarettes" not in text and "place" not in text, text
    finally:
        served.stop()
