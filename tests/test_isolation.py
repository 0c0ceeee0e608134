"""Session isolation: one user's upload never appears in, or speeds up, another's session."""

import hashlib

import pytest

from tests.browser_util import metric_value, settle, wait_for_change
from tests.conftest import TRACE

SECRET = "secret_column_7f3a"


def secret_csv(rows: int = 300) -> bytes:
    # the secret is the target's name: the Data page shows it in the target box
    lines = [f"x,other,{SECRET}"] + [f"{i % 17},{i % 5},{'yes' if i % 3 else 'no'}"
                                         for i in range(rows)]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.browser
def test_two_browser_sessions_do_not_see_each_other(server, browser, tmp_path, artifacts):
    """B never sees A's upload; B uploading the same bytes parses them and fits the rule itself
    (a cache shared between users would have answered from A's entry, leaving one parse and
    one fit in the server trace)."""
    path = tmp_path / "secret.csv"
    path.write_bytes(secret_csv())
    a_ctx = browser.new_context(viewport={"width": 1400, "height": 1800})
    b_ctx = browser.new_context(viewport={"width": 1400, "height": 1800})
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        a.goto(server)
        settle(a)
        a.get_by_text("Upload a file").click()
        settle(a)
        a.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
        settle(a)
        assert wait_for_change(a, lambda: metric_value(a, "Rows"), "150") == "300"
        assert SECRET in a.content()

        b.goto(server)
        settle(b)
        assert metric_value(b, "Rows") == "150"          # B still sees the default sample
        assert SECRET not in b.content() and "secret.csv" not in b.content()
        b.get_by_text("Upload a file").click()
        settle(b)
        assert "secret.csv" not in b.content()            # no trace of A's file
        b.screenshot(path=str(artifacts / "isolation_b.png"))
        digest = hashlib.sha1(path.read_bytes()).hexdigest()
        parses = TRACE.read_text().split().count(digest)
        assert parses == 1
        b.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
        settle(b)
        assert wait_for_change(b, lambda: metric_value(b, "Rows"), "150") == "300"
        assert TRACE.read_text().split().count(digest) == 2   # B parsed it: no shared cache

        # the same for fitted rules: fits on a bundled sample are shared between sessions,
        # fits on an upload are not, so B's Rule page must fit the rule again
        def fits() -> int:
            return sum(line.startswith("fit-upload ") for line in TRACE.read_text().splitlines())

        # (a session may fit more than once: the unweighted twin the advice compares with)
        counts = [fits()]
        for page in (a, b):
            page.get_by_test_id("stSidebarNav").get_by_text("Rule", exact=True).click()
            settle(page)
            assert page.get_by_text("The rule", exact=True).count()
            counts.append(fits())
        made_by_a, made_by_b = counts[1] - counts[0], counts[2] - counts[1]
        assert made_by_a >= 1 and made_by_b == made_by_a  # B fitted everything A did again
    finally:
        a_ctx.close()
        b_ctx.close()
