"""The app shows a clear message for hostile uploads and stays usable (AppTest)."""


import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import APP, upload
from tests.hostile_inputs import corpus

pytestmark = pytest.mark.usefixtures("clear_caches")

# A spread of the corpus: every base case once (its first variant), capped for time.
SAMPLE = list({name.split(" / ")[0]: (name, data) for name, data in reversed(corpus())}
              .values())[::5]


@pytest.mark.parametrize("name,data", SAMPLE, ids=[n for n, _ in SAMPLE])
def test_hostile_upload_is_handled(name, data):
    at = AppTest.from_file(APP, default_timeout=120).run()
    upload(at, "hostile.csv", data)
    at.run()
    assert not at.exception, (name, at.exception)
    loaded = any(m.label == "Rows" for m in at.metric)
    assert loaded or at.error, name          # either the data or a message, never nothing
    for page in ("pages/terms.py", "pages/rule.py", "pages/screening.py"):
        at.switch_page(page).run()
        assert not at.exception, (name, page, at.exception)
        assert loaded or at.error
    # the session survives: a sample loads again
    at.switch_page("pages/data.py").run()
    at.session_state["source"] = "sample"
    at.run()
    assert not at.exception and any(m.label == "Rows" for m in at.metric)
