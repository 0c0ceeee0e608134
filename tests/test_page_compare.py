"""AppTest for the Compare page (pages/compare.py)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests import conftest

pytestmark = pytest.mark.usefixtures("clear_caches")
PAGE = "pages/compare.py"


def open_page(sample: str | None = None) -> AppTest:
    return conftest.open_app_page(PAGE, sample)


def test_compare_sparse_and_baselines():
    at = open_page("breast cancer")
    assert at.title[0].value == "Compare"
    assert any("Compare" in i.value for i in at.info)  # nothing runs before submit
    at.multiselect(key="cmp_models").set_value(
        ["Sparse logistic", "Sparse SVM", "L1 logistic (sklearn)", "CART (sklearn)"])
    at.slider(key="cmp_k").set_value(2)
    at.number_input(key="cmp_time").set_value(10)
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert list(table["model"]) == ["Sparse logistic", "Sparse SVM", "L1 logistic (sklearn)",
                                    "CART (sklearn)"]
    sparse = table.set_index("model").loc[["Sparse logistic", "Sparse SVM"]]
    assert (sparse["size"] <= 2).all()
    assert (sparse["accuracy"] > 0.8).all()
    assert (sparse["gap"] <= 1e-6).all()
    assert at.session_state["cmp_params"]["models"]["Sparse SVM"]["k"] == 2
    # switching the sparse model shown reruns without refitting and without errors
    at.radio(key="cmp_which").set_value("Sparse SVM").run()
    assert not at.exception
    assert any("Sparse SVM: status" in c.value for c in at.caption)


def test_rule_model_in_comparison():
    at = open_page("breast cancer")
    at.multiselect(key="cmp_models").set_value(["BCS rule", "CART (sklearn)"])
    at.number_input(key="cmp_time").set_value(10)
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("model")
    assert table.loc["BCS rule", "size"] >= 1
    assert 0 <= table.loc["BCS rule", "gap"] <= 1
