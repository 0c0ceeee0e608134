"""Helpers for Playwright tests of the Streamlit app (waiting for reruns, reading metrics)."""

from __future__ import annotations

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def settle(page: Page, timeout: float = 60_000) -> None:
    """Wait for a rerun to finish, as Streamlit's own end-to-end tests do.

    The rerun an action asks for starts a round trip later: it is waited for up to 300 ms,
    and the wait ends as soon as it starts (300 ms every time, before, were 37 s of the
    browser tests' 160)."""
    try:
        page.wait_for_selector("[data-testid='stApp']:not([data-test-script-state="
                               "'notRunning'])", timeout=300)
    except PlaywrightTimeoutError:
        pass  # no rerun, or one over before it was seen: as after the 300 ms
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']",
                           timeout=timeout)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']",
                           timeout=timeout)
    page.wait_for_timeout(200)


def metric_value(page: Page, label: str) -> str:
    m = page.get_by_test_id("stMetric").filter(has_text=label).first
    return m.get_by_test_id("stMetricValue").inner_text().strip()


def choose(page: Page, key: str, option: str) -> None:
    """Pick ``option`` in the selectbox with widget key ``key``."""
    page.locator(f".st-key-{key}").get_by_role("combobox").click()
    page.get_by_role("option", name=option, exact=True).click()
    settle(page)


def shown_choice(page: Page, key: str) -> str:
    """The value the selectbox with widget key ``key`` shows (what the user reads)."""
    return page.locator(f".st-key-{key}").get_by_role("combobox").input_value()


def shown_tags(page: Page, key: str) -> list[str]:
    """The options the multiselect with widget key ``key`` shows as chosen."""
    tags = page.locator(f".st-key-{key}").get_by_test_id("stMultiSelectTagsContainer").first
    return [t for t in tags.inner_text().split("\n") if t.strip()]


def clipped_tags(page: Page, key: str) -> list[str]:
    """The chosen options of multiselect ``key`` that the browser does not show whole: a tag
    reaching past a box that clips it (scrolled away behind the box's edge fade)."""
    return page.locator(f".st-key-{key}").get_by_test_id("stMultiSelect").first.evaluate(
        """widget => [...widget.querySelectorAll('[data-tag]')].filter(tag => {
            const r = tag.getBoundingClientRect();
            for (let box = tag.parentElement; box && box !== widget; box = box.parentElement) {
                const s = getComputedStyle(box);
                if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
                const o = box.getBoundingClientRect();
                if (r.left < o.left - 1 || r.right > o.right + 1 || r.top < o.top - 1
                    || r.bottom > o.bottom + 1) return true;
            }
            return false;
        }).map(tag => tag.innerText.trim())""")


def goto_page(page: Page, title: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
    settle(page)


def nudge(page: Page, key: str, presses: int = 1, direction: str = "ArrowRight") -> None:
    """Move the slider with widget key ``key`` by keyboard, then wait for the rerun."""
    thumb = page.locator(f".st-key-{key}").get_by_role("slider")
    thumb.focus()
    for _ in range(presses):
        page.keyboard.press(direction)
    settle(page)


def wait_for_change(page: Page, read, before, timeout: float = 30.0):
    """Poll ``read()`` until it differs from ``before`` (a rerun may start late under load)."""
    import time

    end = time.monotonic() + timeout
    value = read()
    while value == before and time.monotonic() < end:
        page.wait_for_timeout(250)
        settle(page)
        value = read()
    return value


def upload_corpus_file(page: Page, name: str) -> None:
    """Switch the Data page to "Upload a file" and upload ``tests/data/<name>``."""
    from pathlib import Path

    page.get_by_text("Upload a file").click()
    settle(page)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        str(Path(__file__).resolve().parent / "data" / name))
    settle(page)
