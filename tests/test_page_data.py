"""AppTest for the Data and Terms pages."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import APP, vega_dataset

pytestmark = pytest.mark.usefixtures("clear_caches")


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_opens_on_a_sample():
    at = start()
    assert at.title[0].value == "Data"
    assert metric(at, "Rows") == "150" and metric(at, "Features") == "4"
    assert len(at.dataframe) == 1
    balance = vega_dataset(at, "classes")
    assert balance["rows"].sum() == 150 and balance["positive"].sum() == 1


def test_switch_sample_target_positive_and_kinds():
    at = start()
    at.selectbox(key="w_sample").set_value("salesforce attrition").run()
    assert metric(at, "Rows") == "1,500"
    assert at.session_state["sample"] == "salesforce attrition"
    assert metric(at, "Positive share") == "9.7%"
    at.selectbox(key="w_positive").set_value("no").run()
    assert at.session_state["positive"] == "no" and metric(at, "Positive share") == "90.3%"
    balance = vega_dataset(at, "classes").set_index("class")
    assert balance.loc["no", "positive"] and not balance.loc["yes", "positive"]
    assert balance["rows"].sum() == 1500
    at.multiselect(key="w_categorical").select("deals_closed").run()
    assert not at.exception
    assert at.session_state["kinds"]["deals_closed"] == "categorical"
    at.selectbox(key="w_target").set_value("job_role").run()
    assert not at.exception and at.session_state["target"] == "job_role"
    assert metric(at, "Positive share") == "19.5%"  # Account Executive, the first class


def test_upload_error_is_shown_and_session_survives():
    at = start()
    at.session_state["source"] = "upload"
    at.session_state["upload"] = {"name": "bad.csv", "data": b"a,y\n1,x\n2,x\n",
                                  "digest": "bad"}
    at.run()
    assert not at.exception
    assert any("single class" in e.value for e in at.error)
    # fix the input: a good file loads in the same session
    good = (Path(__file__).resolve().parents[1] / "sample_data" / "machine_failure.csv")
    at.session_state["upload"] = {"name": "machine_failure.csv", "data": good.read_bytes(),
                                  "digest": "good"}
    at.run()
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "2,000"


def test_terms_page_slider_changes_count():
    at = start()
    at.switch_page("pages/terms.py").run()
    assert not at.exception
    before = int(metric(at, "Terms in all").replace(",", ""))
    at.slider(key="terms_n_thresholds").set_value(40).run()
    after = int(metric(at, "Terms in all").replace(",", ""))
    assert after > before
    assert at.session_state["terms"]["n_thresholds"] == 40
    at.radio(key="terms_thresholds").set_value("all").run()
    assert int(metric(at, "Terms in all").replace(",", "")) >= after
    at.toggle(key="terms_negations").set_value(False).run()
    assert not at.exception
