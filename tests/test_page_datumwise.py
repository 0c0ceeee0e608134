"""AppTest for the Datum-wise page (pages/datumwise.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests import conftest

pytestmark = pytest.mark.usefixtures("clear_caches")
PAGE = "pages/datumwise.py"


def open_page(sample: str | None = None) -> AppTest:
    return conftest.open_app_page(PAGE, sample)


def small_policy_on(at: AppTest) -> AppTest:
    """The Datum-wise page of an app with a table loaded, a small policy learned on it."""
    at.switch_page(PAGE).run()
    at.number_input(key="dw_states").set_value(200)
    at.number_input(key="dw_iters").set_value(2)
    at.button(key="dw_submit").click().run()
    assert not at.exception and not at.error
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_fit_datum_view_histogram_and_curve():
    at = open_page("wine")
    assert at.title[0].value == "Datum-wise"
    assert any("Learn the policy" in i.value for i in at.info)  # nothing runs before submit
    assert at.radio(key="dw_weights").value == "none"  # wine's classes: 27 % to 40 %
    at.number_input(key="dw_states").set_value(300)
    at.number_input(key="dw_iters").set_value(4)
    at.number_input(key="dw_lambda").set_value(0.02)
    at.button(key="dw_submit").click().run()
    assert not at.exception and not at.error
    p = at.session_state["dw_params"]
    assert p["lam"] == 0.02 and p["n_states"] == 300 and not p["constrained"]
    assert float(metric(at, "Test accuracy")) > 0.7
    # beside the majority class, as on the Rule page (a stranger's review)
    acc = next(m for m in at.metric if m.label == "Test accuracy")
    assert acc.delta.endswith("pts vs majority") and float(acc.delta.split()[0]) > 20
    mean_used = float(metric(at, "Mean features per datum").split("/")[0])
    assert 0 < mean_used < 13

    # Per-datum view: the sequence table lists the features acquired, in order.
    seq = at.dataframe[0].value if len(at.dataframe) else None
    n_acq = int(metric(at, "Features acquired"))
    if seq is not None and n_acq:
        assert list(seq["order"]) == list(range(1, n_acq + 1))
    at.number_input(key="dw_row").set_value(5).run()
    assert not at.exception
    assert metric(at, "True label").startswith("class_")

    # λ curve: a small grid, then the table has DWSM and L1-SVM rows.
    at.text_input(key="dw_grid").set_value("0.005, 0.3").run()
    at.button(key="dw_curve_go").click().run()
    assert not at.exception and not at.error
    table = at.dataframe[-1].value
    assert set(table["model"]) == {"DWSM-Un", "L1-SVM"}
    dw = table[table["model"] == "DWSM-Un"]
    dw = dw.assign(lam=dw["λ (datum-wise)"].astype(float)).sort_values("lam")
    assert list(dw["λ (datum-wise)"]) == ["0.005", "0.3"]  # as written, not "None" or cut
    assert np.all(np.diff(dw["mean features used"]) <= 0)  # λ = 0.3 uses fewer features
    # each model's knob in its own column (one "param" column mixed λ and C: a review)
    assert (dw["C (L1-SVM)"] == "").all()
    svm = table[table["model"] == "L1-SVM"]
    assert (svm["λ (datum-wise)"] == "").all() and (svm["C (L1-SVM)"] != "").all()
    # an L1-SVM with no feature answers from its intercept: left out (a review)
    assert (svm["mean features used"] > 0).all()
    assert all(len(c) <= 9 for c in svm["C (L1-SVM)"])


def test_bad_grid_shows_error():
    at = open_page("iris")
    at.number_input(key="dw_states").set_value(200)
    at.number_input(key="dw_iters").set_value(2)
    at.radio(key="dw_variant").set_value("Constrained")
    at.button(key="dw_submit").click().run()
    assert not at.exception
    at.text_input(key="dw_grid").set_value("0.01, abc").run()
    at.button(key="dw_curve_go").click().run()
    assert not at.exception
    assert any("numbers separated by commas" in e.value for e in at.error)


def test_time_limit_control_and_memory_budget(monkeypatch):
    at = open_page("wine")
    assert at.number_input(key="dw_time").value == 60
    at.number_input(key="dw_states").set_value(5000)
    at.number_input(key="dw_iters").set_value(30)
    at.number_input(key="dw_time").set_value(1)
    at.button(key="dw_submit").click().run()
    assert not at.exception and not at.error
    assert at.session_state["dw_params"]["time_limit"] == 1.0
    (model, _, _), = at.session_state["dw_fits"].values()
    assert model.status_ in ("time_limit", "completed") and model.n_iter_ >= 1
    assert float(metric(at, "Test accuracy")) > 0  # a policy, even if cut short

    # 10 kB: the numeric table of 178 wine rows (28 kB) is refused with a message
    monkeypatch.setenv("RULECORE_MEMORY_BUDGET_GB", "0.00001")
    at.run()
    assert not at.exception
    assert "Turning 178 rows into 13 numeric columns" in at.error[0].value


def test_a_test_row_is_named_by_the_tables_identifiers():
    """"Original row index: 1" could not be found in the file (640 rows without a target were
    dropped before the numbering); the caption says how rows are numbered and gives the
    patient's own identifier."""
    at = small_policy_on(conftest.upload_corpus_file("trial_mostly_missing_target.csv"))
    caption = next(c.value for c in at.caption if "in the table as loaded" in c.value)
    assert "after the 640 rows without a value in" in caption and "patient P-" in caption


def test_the_curves_majority_line_is_the_metrics_baseline(monkeypatch):
    """On iris the curve's line read "always the most common class (0.342)", the test rows'
    own most common class, beside the metric's "+65.8 pts vs majority" from 0.316, the
    training rows' (a newcomer's review)."""
    import rulecore.viz.datumwise as viz

    drawn = {}
    figure = viz.sparsity_curve_figure
    monkeypatch.setattr(viz, "sparsity_curve_figure", lambda curve, majority=None: (
        drawn.update(majority=majority) or figure(curve, majority=majority)))
    at = open_page("iris")
    at.number_input(key="dw_states").set_value(200)
    at.number_input(key="dw_iters").set_value(2)
    at.button(key="dw_submit").click().run()
    at.text_input(key="dw_grid").set_value("0.01").run()
    at.button(key="dw_curve_go").click().run()
    assert not at.exception and not at.error
    acc = next(m for m in at.metric if m.label == "Test accuracy")
    baseline = float(acc.value) - float(acc.delta.split()[0]) / 100
    assert drawn["majority"] == pytest.approx(baseline, abs=0.002)


def test_a_policy_reading_nearly_every_feature_says_why_and_what_to_change():
    """The intro says rows stop early, and on iris at the default λ = 0.01 the policy read
    3.89 of 4 features with nothing said (a newcomer's review).  At λ = 0.3 it stops earlier,
    and the note is gone."""
    at = open_page("iris")
    at.number_input(key="dw_states").set_value(300)
    at.number_input(key="dw_iters").set_value(3)
    at.button(key="dw_submit").click().run()
    assert not at.exception and not at.error
    used = float(metric(at, "Mean features per datum").split("/")[0])
    said = " ".join(i.value for i in at.info)
    assert used >= 0.9 * 4
    assert f"reads {used:.2f} of the 4 features" in said and "in 100 rows" in said
    assert "Raise λ" in said
    at.number_input(key="dw_lambda").set_value(0.3)
    at.button(key="dw_submit").click().run()
    assert float(metric(at, "Mean features per datum").split("/")[0]) < 0.9 * 4
    assert not any("Raise λ" in i.value for i in at.info)


def test_a_policy_no_better_than_the_majority_says_so():
    """0.908 with 0.00 features per datum was exactly the majority's share, and nothing said
    so (a newcomer's review).  On a 10 % class with a feature costing a misclassification
    (λ = 1) no feature pays, and the page warns."""
    at = open_page("salesforce attrition")
    at.number_input(key="dw_states").set_value(200)
    at.number_input(key="dw_iters").set_value(2)
    at.number_input(key="dw_lambda").set_value(1.0)
    at.button(key="dw_submit").click().run()
    assert not at.exception and not at.error
    if float(metric(at, "Mean features per datum").split("/")[0]) == 0:
        said = " ".join(w.value for w in at.warning)
        assert "no better than always predicting the most frequent class" in said
        assert "without reading any feature" in said
    else:
        pytest.fail("λ = 1 should make every feature too dear to read")


def test_a_rare_class_never_predicted_is_not_told_to_lower_lambda():
    """At λ = 0 the policy read 4.95 features per row and still never predicted the 2.4 %
    fraud class, under advice to lower λ (a review): the page says why and where to go."""
    at = conftest.upload_corpus_file("card_transactions_dst_rare_fraud.csv")
    at.switch_page(PAGE).run()
    # balanced is the default on a rare class (a stranger's review); unweighted, as asked:
    assert at.radio(key="dw_weights").value == "balanced"
    at.radio(key="dw_weights").set_value("none")
    at.number_input(key="dw_states").set_value(200)
    at.number_input(key="dw_iters").set_value(2)
    at.button(key="dw_submit").click().run()
    assert not at.exception and not at.error
    assert at.session_state["dw_params"]["class_weight"] is None
    said = " ".join(w.value for w in at.warning)
    assert "no better than always predicting the most frequent class" in said
    assert "it never predicts 1 (" in said and "whatever λ" in said
    assert "Lower λ" not in said
    # ... and the page itself now offers what it advises: with the classes weighted alike
    # the policy predicts the rare class (a stranger's review: the advice pointed to other
    # pages), and is judged on balanced accuracy, not against the majority class
    assert "Choose Class weights: balanced above" in said
    at.radio(key="dw_weights").set_value("balanced")
    at.button(key="dw_submit").click().run()
    assert not at.exception and not at.error
    assert at.session_state["dw_params"]["class_weight"] == "balanced"
    assert not any("it never predicts 1 (" in w.value for w in at.warning)
    assert any("With the classes weighted alike" in i.value and "balanced accuracy" in i.value
               for i in at.info)


@pytest.mark.parametrize("page", [PAGE, "pages/screening.py"])
def test_a_possible_leak_is_said_here_too(page):
    """Rule and Compare warned of a leaky column and Datum-wise, whose policy reads it too,
    did not (a review); nor did Screening, whose terms keep it (a later review)."""
    at = conftest.upload_corpus_file("complaints_leak.csv")
    at.switch_page(page).run()
    assert not at.exception
    assert any("refund_issued" in w.value and "possible leak" in w.value for w in at.warning)


def test_a_visit_table_holds_out_whole_patients():
    """Review: the Rule page held out whole patient_ids and Datum-wise split row by row, so
    a patient's visits were fitted and held out at once."""
    from rulecore.data import load_csv, train_test_indices

    at = small_policy_on(conftest.upload_corpus_file("ehr_visits_repeated_ids.csv"))
    ds = load_csv(Path(conftest.__file__).parent / "data" / "ehr_visits_repeated_ids.csv",
                  continuous="median")
    (model, tr, te), = at.session_state["dw_fits"].values()
    assert ds.groups is not None
    assert not set(ds.groups.iloc[tr]) & set(ds.groups.iloc[te])
    groups = ds.groups.to_numpy()
    assert (te == train_test_indices(ds.y.to_numpy(), 0.25, 0, groups)[1]).all()


def test_a_one_hot_table_gives_the_table_columns_count_compare_gives():
    """Salesforce attrition (categories one-hot encoded): this page counted 4.70 encoded
    inputs of 14, Compare 3.20 table columns of 7 for the same policy (a review); the page
    now says both.  ``columns_used_per_row`` is what Compare counts, checked by hand."""
    from rulecore.compare import columns_used_per_row

    used = np.array([[1, 1, 0, 1], [0, 0, 0, 0], [0, 1, 1, 0]], dtype=bool)
    names = ["job=Rep", "job=Manager", "region=EU", "tenure"]
    np.testing.assert_array_equal(
        columns_used_per_row(used, names, ["job", "region", "tenure"]), [2, 0, 2])
    at = small_policy_on(open_page("salesforce attrition"))
    said = next(c.value for c in at.caption if c.value.startswith("In table columns"))
    shown, total = said.split(": ")[1].split(" per datum")[0].split(" of ")
    encoded, d = metric(at, "Mean features per datum").split(" / ")
    assert int(total) < int(d) and 0 <= float(shown) <= float(encoded)
