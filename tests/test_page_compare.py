"""AppTest for the Compare page (pages/compare.py)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from rulecore.sparse import GAMMA_AUTO_FACTOR
from tests import conftest

pytestmark = pytest.mark.usefixtures("clear_caches")
PAGE = "pages/compare.py"


def open_page(sample: str | None = None) -> AppTest:
    return conftest.open_app_page(PAGE, sample)


def no_none_cells(frame) -> None:
    """No cell of a table shown to users reads "None" or "nan" (or is missing)."""
    assert not frame.isna().any().any()
    assert not {str(v).strip().lower() for v in frame.to_numpy().ravel()} & {"none", "nan"}


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
    table = at.session_state["cmp_table"]  # the numbers behind the table shown
    assert list(table["model"]) == ["Sparse logistic", "Sparse SVM", "L1 logistic (sklearn)",
                                    "CART (sklearn)"]
    sparse = table.set_index("model").loc[["Sparse logistic", "Sparse SVM"]]
    assert (sparse["size"] <= 2).all()
    assert (sparse["accuracy"] > 0.8).all()
    assert (sparse["gap"] <= 1e-6).all()
    shown = at.dataframe[0].value.set_index("model")
    no_none_cells(shown.reset_index())
    # beside accuracy, the balanced accuracy, and what the majority class scores
    assert (shown["balanced accuracy"] > 0.8).all()
    assert any("Always predicting the majority class scores accuracy 0.6" in c.value
               for c in at.caption)
    # and how far apart accuracies on these few rows can be by chance (a review), with the
    # models that close to the best named
    from rulecore.report import chance_margin
    said = next(c.value for c in at.caption if "Always predicting the majority" in c.value)
    split = next(c.value for c in at.caption if c.value.startswith("Train "))
    n = int(split.split("test ")[1].split()[0])
    top, mid = float(table["accuracy"].max()), float(table["accuracy"].median())
    assert f"differ by chance by up to about {chance_margin(mid, n):.3f}" in said
    close = [m for m, a in zip(table["model"], table["accuracy"])
             if 0 < top - a <= chance_margin(top, n, a)]
    assert all(m in said for m in close)
    # the best is named too: with five models tied, the one left unnamed read as the one
    # outside the margin (a stranger's review)
    assert f"{table.loc[table['accuracy'].idxmax(), 'model']} scores best" in said
    # no certificate: a dash, not "None"; certified models: the gap as text
    assert list(shown.loc[["L1 logistic (sklearn)", "CART (sklearn)"], "certified gap"]) == \
        ["—", "—"]
    assert all(g == "0" or float(g) <= 1e-6 for g in shown.loc[["Sparse logistic", "Sparse SVM"],
                                                               "certified gap"])
    assert at.session_state["cmp_params"]["models"]["Sparse SVM"]["k"] == 2
    # γ starts at "auto" and the caption says what it resolved to on the training rows
    assert at.select_slider(key="cmp_gamma").value == "auto"
    assert at.session_state["cmp_params"]["models"]["Sparse SVM"]["gamma"] == "auto"
    # switching the sparse model shown reruns without refitting and without errors
    at.radio(key="cmp_which").set_value("Sparse SVM").run()
    assert not at.exception
    caption = next(c.value for c in at.caption if "Sparse SVM: status" in c.value)
    split = next(c.value for c in at.caption if c.value.startswith("Train "))
    n_train = int(split.split()[1].replace(",", ""))
    assert caption.endswith("(auto).")
    gamma = float(caption.split("γ = ")[1].split(" ")[0])
    assert gamma == pytest.approx(GAMMA_AUTO_FACTOR / (2 * n_train), rel=1e-2)  # 3 digits shown
    # a fixed γ is passed through as a number and named as set
    at.select_slider(key="cmp_gamma").set_value(0.1)
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    assert at.session_state["cmp_params"]["models"]["Sparse SVM"]["gamma"] == 0.1
    at.radio(key="cmp_which").set_value("Sparse SVM").run()
    assert any("γ = 0.1 (as set)" in c.value for c in at.caption)


def test_rule_model_in_comparison():
    at = open_page("breast cancer")
    at.multiselect(key="cmp_models").set_value(["Single rule", "CART (sklearn)"])
    at.number_input(key="cmp_time").set_value(10)
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    table = at.session_state["cmp_table"].set_index("model")
    assert table.loc["Single rule", "size"] >= 1
    assert 0 <= table.loc["Single rule", "gap"] <= 1
    shown = at.dataframe[0].value.set_index("model")
    assert shown.loc["Single rule", "size"] == f"{int(table.loc['Single rule', 'size'])} conditions"
    no_none_cells(shown.reset_index())


def test_datumwise_row_and_memory_refusal(monkeypatch):
    """The datum-wise model has no size and no certificate: dashes, never "None"; a table
    over the memory budget gets one message for all the numeric models, and no traceback."""
    at = open_page("iris")
    at.multiselect(key="cmp_models").set_value(["Datum-wise", "CART (sklearn)"])
    at.number_input(key="cmp_time").set_value(5)
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    shown = at.dataframe[0].value.set_index("model")
    assert list(shown.loc["Datum-wise", ["size", "certified gap"]]) == ["—", "—"]
    no_none_cells(shown.reset_index())

    monkeypatch.setenv("RULECORE_MEMORY_BUDGET_GB", "0.000001")  # 1 kB
    at.number_input(key="cmp_seed").set_value(1)  # a new split: nothing cached
    at.button(key="cmp_submit").click().run()
    assert not at.exception
    assert len(at.error) == 1
    msg = at.error[0].value
    assert msg.startswith("Datum-wise, CART (sklearn): Turning 150 rows into 4 numeric")
    assert "RULECORE_MEMORY_BUDGET_GB" in msg and "sample of the rows" in msg


def test_several_classes_say_the_models_are_one_vs_rest():
    """'Rule set (auto)' on Compare was the one-vs-rest model while the Rule page's was a rule
    list over all classes, and nothing said so (a newcomer's review)."""
    at = open_page("iris")
    at.multiselect(key="cmp_models").set_value(["CART (sklearn)"])
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    said = " ".join(i.value for i in at.info)
    assert "The target has 3 classes: every model here tells **versicolor** from the other 2" \
        in said
    at = open_page("breast cancer")
    at.multiselect(key="cmp_models").set_value(["CART (sklearn)"])
    at.button(key="cmp_submit").click().run()
    assert not any("one-vs-rest" in i.value for i in at.info)


def test_a_rare_positive_class_is_charted_by_balanced_accuracy():
    """On a 10 % class, accuracy put the models that never predict it at the top of the
    chart and the one useful rule at the bottom (a review): there the chart shows the
    balanced accuracy by default, and plain accuracy on request."""
    at = open_page("salesforce attrition")
    at.multiselect(key="cmp_models").set_value(["CART (sklearn)", "L1 logistic (sklearn)"])
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    assert at.session_state["cmp_chart_metric"] == "balanced_accuracy"
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["yaxis"]["title"]["text"] == "test balanced accuracy"
    at.session_state["cmp_chart_metric"] = "accuracy"
    at.run()
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["yaxis"]["title"]["text"] == "test accuracy"


def test_the_compare_and_datumwise_forms_keep_their_settings_across_pages():
    """Streamlit drops a widget's value while its page is not shown: the forms came back on
    their defaults above results learned with other settings (a review)."""
    at = AppTest.from_file(conftest.APP, default_timeout=120).run()
    at.switch_page("pages/compare.py").run()
    at.multiselect(key="cmp_models").set_value(["CART (sklearn)"])
    at.slider(key="cmp_test").set_value(0.4)
    at.button(key="cmp_submit").click().run()
    at.switch_page("pages/datumwise.py").run()
    at.number_input(key="dw_lambda").set_value(0.002)
    at.button(key="dw_submit").click().run()
    at.switch_page("pages/terms.py").run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    assert at.multiselect(key="cmp_models").value == ["CART (sklearn)"]
    assert at.slider(key="cmp_test").value == 0.4
    at.switch_page("pages/datumwise.py").run()
    assert not at.exception and at.number_input(key="dw_lambda").value == 0.002


def test_the_reduction_form_and_cursor_stay_after_a_visit_elsewhere():
    """The Reduction form came back on its defaults and its iteration cursor jumped back to
    the chosen iteration after a visit to another page (a newcomer's review)."""
    at = AppTest.from_file(conftest.APP, default_timeout=120).run()
    at.switch_page("pages/reduction.py").run()
    at.number_input(key="red_iters").set_value(12)
    at.button(key="red_submit").click().run()
    assert not at.exception
    at.slider(key="red_iter").set_value(3).run()
    at.switch_page("pages/terms.py").run()
    at.switch_page("pages/reduction.py").run()
    assert not at.exception
    assert at.number_input(key="red_iters").value == 12
    assert at.slider(key="red_iter").value == 3


def test_the_k_a_validation_search_chose_is_the_one_said():
    """With 'Choose k and γ by validation AUC' the caption named only γ and the slider still
    showed k = 3 where the search fitted another k (a newcomer's review)."""
    at = open_page("iris")
    at.multiselect(key="cmp_models").set_value(["Sparse logistic"])
    at.checkbox(key="cmp_cv").check()
    at.number_input(key="cmp_time").set_value(20)
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    caption = next(c.value for c in at.caption if c.value.startswith("Sparse logistic: status"))
    assert "(chosen by validation AUC)" in caption
    # the k said is the starred cell of the search's heatmap
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    star = next(t for c in charts for t in c["data"] if t.get("name") == "chosen")
    assert f"k = {star['y'][0]} and γ = " in caption


def test_the_split_is_said_as_it_was_made_by_whole_identifier():
    """A visit table is held out by whole patient_id on the Rule page and here: the caption
    said "stratified" of that split (a stranger's review)."""
    at = conftest.upload_corpus_file("ehr_visits_repeated_ids.csv")
    at.switch_page(PAGE).run()
    at.multiselect(key="cmp_models").set_value(["CART (sklearn)"])
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    split = next(c.value for c in at.caption if c.value.startswith("Train "))
    assert "(held out by whole patient_id, none also in training, seed" in split
    assert "stratified" not in split
    at = open_page("breast cancer")
    at.multiselect(key="cmp_models").set_value(["CART (sklearn)"])
    at.button(key="cmp_submit").click().run()
    assert "(stratified, seed" in next(c.value for c in at.caption
                                       if c.value.startswith("Train "))


def test_chance_between_models_counts_patients_not_visits():
    """The Compare page's sentence on models within luck of the best counted a patient's
    visits as independent test rows, where the split held patients out whole (a review):
    it now says the records and uses their effective number."""
    from rulecore.report import chance_words

    at = conftest.upload_corpus_file("ehr_visits_repeated_ids.csv")
    at.switch_page(PAGE).run()
    at.multiselect(key="cmp_models").set_value(["CART (sklearn)", "L1 logistic (sklearn)"])
    at.button(key="cmp_submit").click().run()
    assert not at.exception and not at.error
    said = next(c.value for c in at.caption if c.value.startswith("Always predicting"))
    table = at.session_state["cmp_table"]
    accs = dict(zip(table["model"], table["accuracy"]))
    n = int(next(c.value for c in at.caption if c.value.startswith("Train "))
            .split("test ")[1].split(" rows")[0].replace(",", ""))
    rows_only = chance_words(accs, n)
    if rows_only:  # a margin over 0.01 on the rows alone: the records' is wider still
        assert "records held out whole" in said
        assert "a record's rows counted as moving together" in said
