"""AppTest for the Data and Terms pages."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from rulecore.data import load_sample
from tests.conftest import APP, vega_dataset
from tests.conftest import upload as upload_bytes

CORPUS = Path(__file__).resolve().parent / "data"

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
    assert len(at.table) == 1 and len(at.dataframe) == 1  # the column roles; the preview
    roles = roles_table(at).reset_index()
    assert list(roles["column"]) == ["sepal length (cm)", "sepal width (cm)",
                                     "petal length (cm)", "petal width (cm)", "species"]
    assert list(roles["used"]) == ["✓"] * 4 + ["✗"] and roles.notna().all().all()
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
    # the default positive class is the minority class
    ds_roles = at.session_state["w_positive"]
    counts = load_sample("salesforce attrition").X["job_role"].value_counts()
    assert ds_roles == counts.idxmin()
    assert metric(at, "Positive share") == f"{counts.min() / counts.sum():.1%}"


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


def upload(at: AppTest, name: str) -> AppTest:
    """Upload a corpus file as the Data page's uploader would."""
    upload_bytes(at, name, (CORPUS / name).read_bytes())
    return at.run()


def roles_table(at: AppTest):
    """The Data page's column-roles table, indexed by column."""
    return next(t.value for t in at.table if "why" in t.value.columns)


def test_roles_control_leaves_out_row_numbers_and_can_bring_them_back():
    at = upload(start(), "r_credit_rownames.csv")
    assert not at.exception and not at.error
    roles = roles_table(at)
    assert roles.loc["column 1", "role"] == "row numbers"
    assert roles.loc["column 1", "used"] == "✗" and "row names" in roles.loc["column 1", "why"]
    assert roles.loc["default", "role"] == "target"
    features = at.multiselect(key="w_features")
    assert "column 1" not in features.value and "age" in features.value
    assert metric(at, "Features") == "5"
    # the user includes the row numbers and leaves out region
    features.select("column 1").unselect("region").run()
    assert not at.exception
    assert at.session_state["include"] == ["column 1"]
    assert at.session_state["exclude"] == ["region"]
    assert metric(at, "Features") == "5"
    roles = roles_table(at)
    assert roles.loc["column 1", "used"] == "✓" and roles.loc["region", "used"] == "✗"
    # and every page uses those columns: the Terms page builds terms on them only
    at.switch_page("pages/terms.py").run()
    assert not at.exception
    counts = at.dataframe[0].value
    assert "column 1" in set(counts["column"]) and "region" not in set(counts["column"])


def test_continuous_target_is_split_at_a_threshold_the_user_can_move():
    at = upload(start(), "hours_continuous_only.csv")
    assert not at.exception and not at.error
    assert at.session_state["w_target"] == "hours"
    assert metric(at, "Positive share") == "50.0%"          # the median split
    assert any("hours > 34.2" in c.value for c in at.caption)
    # why this column and where it is cut: said once, not in two boxes and a caption
    said = [i.value for i in at.info if "hours" in i.value]
    assert len(said) == 1 and "split at its median, hours > 34.2" in said[0]
    at.number_input(key="w_thr_value").set_value(40.0).run()
    assert not at.exception and at.session_state["threshold"] == "> 40"
    assert metric(at, "Positive share") == "18.2%"
    assert any("hours > 40" in c.value for c in at.caption)


def test_missing_targets_are_counted_on_screen():
    at = upload(start(), "trial_mostly_missing_target.csv")
    assert not at.exception
    assert any("640 of 900 rows" in w.value for w in at.warning)
    assert metric(at, "Rows") == "260"


def test_positive_class_is_the_minority_and_swaps_in_one_click():
    at = upload(start(), "r_credit_rownames.csv")
    assert at.session_state["w_positive"] == "yes"
    assert metric(at, "Positive share") == "10.0%"
    at.button(key="w_swap").click().run()
    assert not at.exception and at.session_state["positive"] == "no"
    assert metric(at, "Positive share") == "90.0%"


def test_possible_leak_is_flagged():
    at = upload(start(), "complaints_leak.csv")
    assert not at.exception
    assert any("refund_issued" in w.value and "leak" in w.value for w in at.warning)
    assert "possible leak" in roles_table(at).loc["refund_issued", "role"]


def test_unusable_target_is_refused_and_the_selector_stays():
    at = upload(start(), "survey_free_text.csv")
    assert at.session_state["w_target"] == "would_recommend"
    at.selectbox(key="w_target").set_value("respondent").run()
    assert not at.exception
    assert any("identifier" in e.value for e in at.error)
    assert at.selectbox(key="w_target").options  # still there, listing every column
    assert "comment" in at.selectbox(key="w_target").options
    at.selectbox(key="w_target").set_value("would_recommend").run()
    assert not at.error and metric(at, "Rows") == "500"


def test_swapping_a_thresholded_target_flips_the_comparison():
    at = upload(start(), "hours_continuous_only.csv")
    assert at.selectbox(key="w_positive").options == ["yes (50.0% of rows)"]
    at.button(key="w_swap").click().run()
    assert not at.exception and at.session_state["threshold"] == "<= 34.2"
    assert any("hours <= 34.2" in c.value for c in at.caption)
    assert at.session_state["w_positive"] == "yes"


def test_kind_change_on_a_table_with_dates():
    at = upload(start(), "db_churn_ids_dates.csv")
    at.multiselect(key="w_categorical").select("signup_ts (month)").run()
    assert not at.exception and not at.error
    assert at.session_state["kinds"]["signup_ts (month)"] == "categorical"


def test_what_reading_did_to_the_file_is_said_on_the_page():
    """An ERP export saved by Excel (Windows-1252, report lines above the header) and a
    hand-typed spreadsheet (Yes/YES/yes): the page says what was read and how, and the
    target has two classes."""
    at = upload(start(), "erp_export_title_lines_cp1252.csv")
    assert not at.exception
    said = " ".join(i.value for i in at.info)
    assert "read as Windows-1252" in said and "Skipped 2 lines above the header" in said
    assert metric(at, "Rows") == "400"
    at = upload(at, "spreadsheet_hand_typed.csv")
    assert not at.exception
    said = " ".join(i.value for i in at.info)
    # the kinds of spelling merged are the ones shown, not a list of every kind there is
    assert "one value spelled several ways is read as one: " in said
    assert "spreadsheet error cells" in said
    assert at.session_state["positive"] in (None, "Yes")
    assert metric(at, "Positive share") == "23.7%"


def test_a_no_answer_target_value_can_be_learned_and_dropped_again():
    """-9 in the target is read as no answer (21 rows dropped); one click learns a rule for
    it instead, another reads it as no answer again."""
    at = upload(start(), "stats_package_missing_codes.csv")
    assert not at.exception and metric(at, "Rows") == "579"
    said = " ".join(i.value for i in at.info)
    assert "cells of -999 are read as missing values" in said
    at.button(key="w_keep_answer_0").click().run()
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "600" and at.session_state["w_positive"] == -9
    assert metric(at, "Positive share") == "3.5%"
    at.button(key="w_drop_answer").click().run()
    assert not at.exception and metric(at, "Rows") == "579"
    assert at.session_state["w_positive"] == 1


def test_rating_target_is_split_and_can_be_read_as_classes_and_back():
    """A survey's 1-5 rating (not the last column; the comments are) is the target, split
    below its middle; one button reads each rating as a class, another splits it again."""
    at = upload(start(), "survey_rating_comments.csv")
    assert not at.exception and not at.error
    rating = "How satisfied are you overall? (1-5)"
    assert at.session_state["w_target"] == rating
    assert any(f"**{rating} <= 2**" in c.value for c in at.caption)
    said = [i.value for i in at.info if "a rating from 1 to 5" in i.value]
    assert len(said) == 1 and "predict each rating as a class" in said[0]
    at.button(key="w_rating_classes").click().run()
    assert not at.exception and not at.error
    shown = [o.split(" (")[0] for o in at.selectbox(key="w_positive").options]
    assert shown == ["1", "2", "3", "4", "5"]
    assert not [b for b in at.button if b.key == "w_rating_classes"]
    at.button(key="w_rating_split").click().run()
    assert not at.exception and not at.error
    assert any(f"**{rating} <= 2**" in c.value for c in at.caption)


def test_a_count_target_asks_any_and_can_be_read_as_classes_and_back():
    """A batch log whose last column counts defects (0 / 1 / 2): the target, "any defect";
    one button reads each count as a class, another asks "any" again, which a count chosen
    by hand is offered too (it had only "exactly 0", "exactly 1", "exactly 2": a review)."""
    at = upload(start(), "qc_batches_defect_count.csv")
    assert not at.exception and not at.error
    assert at.session_state["w_target"] == "defect_count"
    assert any("**defect_count > 0**" in c.value for c in at.caption)
    assert any("a count from 0 to 2, as defect_count > 0" in i.value for i in at.info)
    at.button(key="w_rating_classes").click().run()
    assert not at.exception and not at.error
    shown = [o.split(" (")[0] for o in at.selectbox(key="w_positive").options]
    assert shown == ["0", "1", "2"]
    assert at.button(key="w_count_split").label == "Predict any instead: defect_count > 0"
    at.button(key="w_count_split").click().run()
    assert not at.exception and not at.error
    assert any("**defect_count > 0**" in c.value for c in at.caption)
    assert at.button(key="w_rating_classes").label == "Predict each count as a class instead"
    # each count a class, predicting 2: the rework minutes still give away "0 defects"
    at.button(key="w_rating_classes").click().run()
    at.selectbox(key="w_positive").set_value(2).run()
    assert not at.exception and not at.error
    assert any("**rework_minutes** alone tells defect_count = 0 from its other values" in w.value
               for w in at.warning)
    at.button(key="w_class_leak_0").click().run()
    assert "rework_minutes" not in at.multiselect(key="w_features").value


def test_zeros_that_mean_not_measured_are_read_as_missing_with_one_click_and_back():
    at = upload(start(), "diabetes_zero_unmeasured.csv")
    assert not at.exception and not at.error
    assert any("'Glucose':" in i.value and "rows hold 0" in i.value for i in at.info)
    at.button(key="w_zero_Glucose").click().run()
    assert not at.exception and not at.error
    assert at.session_state["zero_missing"] == ["Glucose"]
    assert any("'Glucose':" in i.value and "cells of 0 are read as missing" in i.value
               for i in at.info)
    assert at.button(key="w_zero_Glucose").label == "Read 0 in Glucose as a value again"
    at.button(key="w_zero_Glucose").click().run()
    assert at.session_state["zero_missing"] == []
    assert any("'Glucose':" in i.value and "rows hold 0" in i.value for i in at.info)


def test_a_workbook_opens_on_its_largest_sheet_and_another_sheet_can_be_chosen():
    """An Excel workbook whose first sheet is a read-me: the deals sheet is read, the page
    says so, and choosing the code list sheet reads that one instead (and back)."""
    at = upload(start(), "crm_pipeline_workbook.xlsx")
    assert not at.exception
    sheet = at.selectbox(key="w_sheet")
    assert sheet.options == ["Read me", "Deals", "Regions"] and sheet.value == "Deals"
    assert metric(at, "Rows") == "480"
    assert at.selectbox(key="w_target").value == "Won"
    said = " ".join(i.value for i in at.info)
    assert "Read sheet 'Deals', the largest of its 3 sheets" in said
    at.selectbox(key="w_sheet").set_value("Regions").run()
    assert not at.exception
    assert at.selectbox(key="w_sheet").value == "Regions"
    # three rows of codes and meanings: nothing to learn, said as an error, not a traceback
    assert at.error and at.selectbox(key="w_target").options == ["code", "meaning"]
    at.selectbox(key="w_sheet").set_value("Read me").run()
    assert not at.exception
    assert "Choose the sheet that holds the table" in at.error[0].value
    at.selectbox(key="w_sheet").set_value("Deals").run()
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "480" and at.selectbox(key="w_target").value == "Won"


def test_an_old_xls_workbook_and_an_spss_file_upload_and_learn():
    """Excel 97-2003, SPSS and web-page uploads (they were refused with how to export them):
    the .xls
    opens on its table's sheet with the read-me in the Sheet selector, the .sav with its
    value labels and declared missing values said; the Rule page learns the planted rules."""
    at = upload(start(), "loan_book_legacy.xls")
    assert not at.exception and not at.error
    sheet = at.selectbox(key="w_sheet")
    assert sheet.options == ["Read me", "Loans"] and sheet.value == "Loans"
    assert metric(at, "Rows") == "360" and at.selectbox(key="w_target").value == "Defaulted"
    at.selectbox(key="w_sheet").set_value("Read me").run()
    assert not at.exception and "Choose the sheet that holds the table" in at.error[0].value
    at.selectbox(key="w_sheet").set_value("Loans").run()
    at.switch_page("pages/rule.py").run()
    assert not at.exception
    shown = " ".join(map(str, next(df.value for df in at.dataframe
                                   if "support" in df.value.columns)["condition"]))
    assert "Debt ratio >" in shown and "Income <=" in shown

    at = upload(start(), "health_survey_spss.sav")
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "420" and at.selectbox(key="w_target").value == "stroke"
    said = " ".join(i.value for i in at.info)
    assert "23 values the file declares missing (99 'Refused')" in said
    assert "SPSS value labels are read as their text (1 = 'Yes', 2 = 'No')" in said
    at.switch_page("pages/rule.py").run()
    assert not at.exception
    shown = " ".join(map(str, next(df.value for df in at.dataframe
                                   if "support" in df.value.columns)["condition"]))
    assert "smoker == Yes" in shown and "sysbp >" in shown

    at = upload(start(), "card_portal_export_html.xls")  # a web page named .xls
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "250"  # its one data table (no Sheet selector needed)
    assert not [b for b in at.selectbox if b.key == "w_sheet"]
    assert at.selectbox(key="w_target").value == "Fraud"


def test_a_column_of_words_made_numeric_is_refused_and_the_table_stays():
    """Unticking a column of words from the categorical columns used to replace the whole
    Data page with an error; now only that change is refused, with the reason."""
    at = upload(start(), "r_credit_rownames.csv")
    before = metric(at, "Rows")
    cats = at.multiselect(key="w_categorical")
    assert "region" in cats.value
    cats.unselect("region").run()
    assert not at.exception
    assert "Column 'region' cannot be numeric" in at.error[0].value
    assert "The change was not made." in at.error[0].value
    assert "region" in at.multiselect(key="w_categorical").value
    assert metric(at, "Rows") == before and at.session_state["kinds"].get("region") is None


def test_many_nearly_empty_columns_are_summed_up_not_listed():
    """250 columns 99 % empty: the caption listed every one; it names the worst few and
    says how many are nearly empty."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 300
    cols = {"s1": rng.normal(size=n).round(3), "s2": rng.normal(size=n).round(3)}
    for k in range(30):
        v = rng.normal(size=n).round(2)
        v[rng.random(n) < 0.97] = np.nan
        cols[f"sparse_{k:02d}"] = v
    df = pd.DataFrame(cols).assign(label=(cols["s1"] > 0.3).astype(int))
    at = start()
    upload_bytes(at, "wide.csv", df.to_csv(index=False).encode())
    at.run()
    caption = next(c.value for c in at.caption
                   if c.value.startswith("A missing value makes every term"))
    assert "and 22 more columns" in caption
    assert "30 columns are more than 90 % empty" in caption


def test_a_wide_tables_roles_list_what_loading_decided_and_grid_the_rest():
    """1,500 gene columns made the roles table 1,502 rows, the page 47,000 px tall with the
    preview at its foot (a newcomer's review): the table keeps the columns loading decided
    something of, and a grid lists every column."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.lognormal(3, 1, (72, 200)).round(2),
                      columns=[f"ENSG{k:08d}" for k in range(200)])
    df.insert(0, "sample_id", [f"GSM{400000 + i}" for i in range(72)])
    df["tissue"] = np.where(df["ENSG00000017"] > 30, "tumor", "normal")
    at = start()
    upload_bytes(at, "expr.csv", df.to_csv(index=False).encode())
    at.run()
    assert not at.exception and not at.error
    roles = roles_table(at)
    # the identifier, the column the target is made from (a possible leak), the target
    assert list(roles.index) == ["sample_id", "ENSG00000017", "tissue"]
    assert any(c.value.startswith("The other 199 columns are features as they are")
               for c in at.caption)
    grid = next(d.value for d in at.dataframe if "why" in d.value.columns)
    assert len(grid) == 202


def test_a_leak_is_left_out_in_one_click_with_what_is_made_from_it():
    """An HR export whose TerminationDate is empty exactly for current staff: its year and
    month are flagged in one warning, and the button under it leaves the date out (a review:
    the warning said 'leave it out' with no way to do it there, and the rule used it)."""
    at = upload(start(), "hr_attrition_sqlserver.csv")
    assert not at.exception and at.session_state["w_target"] == "Attrition"
    leaks = [w.value for w in at.warning if "possible leak" in w.value]
    assert len(leaks) == 1
    assert "**TerminationDate (year)** and **TerminationDate (month)** each alone predicts" \
        in leaks[0]
    assert roles_table(at).loc["EmployeeNumber", "used"] == "✗"  # CamelCase: an identifier
    at.button(key="w_leak_0").click().run()
    assert not at.exception
    assert "TerminationDate" in at.session_state["exclude"]
    assert "TerminationDate" not in at.session_state["w_features"]
    assert not [w.value for w in at.warning if "possible leak" in w.value]
    assert roles_table(at).loc["TerminationDate", "used"] == "✗"
    # and the Rule page finds the planted rule, not the leak
    at.switch_page("pages/rule.py").run()
    assert not at.exception
    said = " ".join(m.value for m in at.markdown)
    assert "OverTime" in said and "MonthlyIncome" in said and "TerminationDate" not in said


def test_a_leak_left_out_stays_out_when_the_target_goes_and_comes_back():
    """Left out, then another target chosen and the first chosen again: the date stays out
    and its reason says it was the user's choice (a review: it came back silently, and the
    Rule page returned to the 100 % leak rule)."""
    at = upload(start(), "hr_attrition_sqlserver.csv")
    at.button(key="w_leak_0").click().run()
    assert roles_table(at).loc["TerminationDate", "why"].startswith("left out by choice")
    at.selectbox(key="w_target").set_value("MonthlyIncome").run()
    assert not at.exception and "TerminationDate" in at.session_state["exclude"]
    at.selectbox(key="w_target").set_value("Attrition").run()
    assert not at.exception and at.session_state["positive"] is None
    assert "TerminationDate" in at.session_state["exclude"]
    assert roles_table(at).loc["TerminationDate", "used"] == "✗"
    assert "TerminationDate" not in at.session_state["w_features"]
    # a column left out and then chosen as the target is the target, and left out again when
    # the first target comes back (an adversarial review: it came back as a feature)
    at.selectbox(key="w_target").set_value("TerminationDate").run()
    assert not at.exception
    at.selectbox(key="w_target").set_value("Attrition").run()
    assert not at.exception and "TerminationDate" in at.session_state["exclude"]
    assert roles_table(at).loc["TerminationDate", "used"] == "✗"


def test_the_rule_page_leaves_out_a_leak_it_used_in_one_click():
    """The Rule page's warning 'the rule uses refund_issued … leave it out on the Data page'
    has the button beside it, and the refit rule does without the column."""
    at = upload(start(), "complaints_leak.csv")
    at.switch_page("pages/rule.py").run()
    assert any("The rule uses refund_issued" in w.value for w in at.warning)

    def checklist() -> str:
        return " ".join(map(str, at.dataframe(key="checklist").value["condition"]))

    assert "refund_issued" in checklist()
    at.button(key="rule_leak_0").click().run()
    assert not at.exception and "refund_issued" in at.session_state["exclude"]
    assert not any("possible leak" in w.value for w in at.warning)
    assert checklist() and "refund_issued" not in checklist()


def test_ordered_scales_are_listed_and_can_be_read_unordered():
    """A survey's five-point answers are listed under Ordered scales (after a sample with
    none: the list is set again for the new table); taking one out reads it unordered, and
    putting it back reads it in order again. The Terms page counts them."""
    at = upload(start(), "engagement_survey_likert.csv")
    scales = ["My workload is manageable", "My manager supports my development",
              "I would recommend this company as a place to work"]
    assert at.multiselect(key="w_ordinal").value == scales
    assert at.multiselect(key="w_categorical").value == ["Department"]
    at.multiselect(key="w_ordinal").unselect(scales[0]).run()
    assert not at.exception and not at.error
    assert at.session_state["kinds"][scales[0]] == "categorical"
    assert scales[0] in at.multiselect(key="w_categorical").value
    at.multiselect(key="w_ordinal").select(scales[0]).run()
    assert at.session_state["kinds"][scales[0]] == "ordinal"
    assert scales[0] not in at.multiselect(key="w_categorical").value
    at.switch_page("pages/terms.py").run()
    assert not at.exception and metric(at, "Ordered scales") == "3"


def test_a_column_put_in_order_by_hand():
    """Grades A-F are no known scale: the user clicks them in order, lowest first, and the
    column is ordinal; forgetting the order reads them unordered again."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    grade = rng.choice(list("ABCDF"), 300)
    csv = pd.DataFrame({"grade": grade, "hours": rng.integers(0, 40, 300),
                        "award": np.where(np.isin(grade, ["A", "B"]), "yes", "no")}
                       ).to_csv(index=False).encode()
    at = start()
    upload_bytes(at, "grades.csv", csv)
    at.run()
    assert at.session_state["kinds"] == {} and "grade" in at.multiselect(key="w_categorical").value
    at.selectbox(key="w_order_col").set_value("grade").run()
    levels = at.multiselect(key="w_order_grade")
    assert levels.value == [] and set(levels.options) == set("ABCDF")
    assert at.button(key="w_order_apply").disabled  # fewer than three levels chosen
    for g in "FDCBA":
        at.multiselect(key="w_order_grade").select(g).run()
    at.button(key="w_order_apply").click().run()
    assert not at.exception and not at.error
    assert at.session_state["orders"] == {"grade": list("FDCBA")}
    assert "grade" in at.multiselect(key="w_ordinal").value
    assert any("'grade': read in the order given (F < D < C < … < A)." in i.value
               for i in at.info)
    at.button(key="w_order_forget").click().run()
    assert not at.exception and not at.error and at.session_state["orders"] == {}
    assert "grade" in at.multiselect(key="w_categorical").value


def test_a_workbook_whose_largest_sheet_is_a_lookup_opens_on_its_table():
    from tests.test_formats import lookup_workbook

    at = start()
    upload_bytes(at, "w.xlsx", lookup_workbook())
    at.run()
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "400" and at.selectbox(key="w_sheet").value == "Orders"
    assert any("Sheet 'SKU lookup', the largest, holds no table to learn from" in i.value
               for i in at.info)
    at.selectbox(key="w_sheet").set_value("SKU lookup").run()  # asked for: refused, said so
    assert not at.exception and "no usable feature column" in at.error[0].value


def test_a_long_table_is_pivoted_and_its_name_column_can_be_included_back():
    """One row per patient and test becomes one row per patient, said in a note; the test
    column is listed as what each row measured, and including it keeps the rows."""
    at = upload(start(), "labs_long_format.csv")
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "450"
    roles = roles_table(at)
    assert roles.loc["test", "role"] == "what each row measured"
    assert roles.loc["test", "used"] == "✗"
    assert any(i.value.startswith("A long table") for i in at.info)
    at.multiselect(key="w_features").select("test").run()
    assert not at.exception and metric(at, "Rows") == "1,714"


def test_a_frequency_table_is_expanded_and_its_count_can_be_included_back():
    """A cross-table with a 'count' of people per row is expanded to one row per person; the
    count is listed among the columns, left out, and including it keeps the rows as they are
    (the note says so, and the Data page is where it is done)."""
    at = upload(start(), "frequency_table_counts.csv")
    assert not at.exception and not at.error
    assert metric(at, "Rows") == "23,731"
    roles = roles_table(at)
    assert roles.loc["count", "role"] == "count of records" and roles.loc["count", "used"] == "✗"
    assert any("'count': the table counts records" in i.value for i in at.info)
    at.multiselect(key="w_features").select("count").run()
    assert not at.exception
    assert at.session_state["include"] == ["count"]
    assert metric(at, "Rows") == "96"


def _relabelled_table() -> bytes:
    """4 classes, fraud 3 % (risk_score > 1.7 decides it), and agent_note: each class in
    other words (a stranger's table)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(3)
    n = 600
    risk = rng.normal(size=n)
    spend = rng.uniform(10, 90, n)
    outcome = np.where(risk > 1.85, "fraud", np.where(spend > 70, "upgrade",
                       np.where(spend < 30, "downgrade", "stay")))
    words = {"fraud": "account frozen", "upgrade": "moved to higher tier",
             "downgrade": "moved to lower tier", "stay": "no change"}
    return pd.DataFrame({"monthly_spend": spend.round(1), "risk_score": risk.round(3),
                         "plan": rng.choice(["basic", "plus", "pro"], n),
                         "agent_note": [words[o] for o in outcome],
                         "outcome": outcome}).to_csv(index=False).encode()


def test_a_column_that_restates_the_target_is_said_to_once_and_left_out_in_one_click():
    """agent_note names every class in other words: the Data page warned of it as of a real
    cause ("alone predicts outcome = fraud with 100.0% accuracy"), beside the real one and
    again for another class (a stranger's review).  Now one stronger warning, with a button."""
    at = start()
    upload_bytes(at, "relabelled.csv", _relabelled_table())
    at.run()
    assert not at.exception and not at.error
    said = [w.value for w in at.warning if "agent_note" in w.value]
    assert len(said) == 1, said
    assert said[0].startswith("**agent_note** is outcome in other words: each of its values "
                              "goes with one class ('moved to lower tier' → downgrade, "
                              "'account frozen' → fraud")
    # the real cause keeps its own warning
    assert any("**risk_score** alone predicts outcome" in w.value for w in at.warning)
    assert roles_table(at).loc["agent_note", "role"] == "feature (the target in other words)"
    at.button(key="w_restated_0").click().run()
    assert not at.exception and not at.error
    assert "agent_note" not in at.multiselect(key="w_features").value
    assert not [w.value for w in at.warning if "agent_note" in w.value]


def test_yesterdays_outcome_is_warned_of_and_left_out_in_one_click():
    """A daily machine log with yesterday's outcome beside today's gave a certified
    'failed_prev_day == 1' with no word (a stranger's log): the Data page names it with a
    button that leaves it out, and the Rule page, which used it, then uses the temperature."""
    at = upload(start(), "machine_daily_log.csv")
    assert not at.exception
    said = [w.value for w in at.warning if "the last outcome" in w.value]
    assert len(said) == 1 and said[0].startswith("**failed_prev_day, which reads the row "
                                                 "before's failed on 99.7% of the rows")
    at.switch_page("pages/rule.py").run()
    assert not at.exception
    assert any("uses failed_prev_day" in w.value and "the last outcome" in w.value
               for w in at.warning)
    at.switch_page("pages/data.py").run()
    at.button(key="w_lagged_0").click().run()
    assert not at.exception and "failed_prev_day" in at.session_state["exclude"]
    assert not [w.value for w in at.warning if "the last outcome" in w.value]
    at.switch_page("pages/rule.py").run()
    text = " ".join(m.value for m in at.markdown)
    assert "temp_c" in text and "failed_prev_day" not in text


def test_a_table_with_no_usable_feature_offers_its_columns_back():
    """"No usable feature column ... Include one of them (Data page ...)", and the Data page
    showed no way to (a stranger's Eurostat table): the columns left out are offered under
    the error, and including one loads the table."""
    from tests import conftest as cf

    rows = ["region,score_text,label,outcome"]
    rows += [f"R{i:03d},{i * 7 % 101} points (flag {'pebu'[i % 4]}),name {i},"
             f"{'yes' if i % 3 else 'no'}" for i in range(120)]
    at = AppTest.from_file(cf.APP, default_timeout=120).run()
    cf.upload(at, "no_features.csv", "\n".join(rows).encode())
    at.run()
    assert any("has no usable feature column" in e.value for e in at.error)
    offered = at.multiselect(key="w_include_left_out")
    assert set(offered.options) == {"region", "score_text", "label"}
    offered.set_value(["score_text"]).run()
    assert not at.error and not at.exception
    assert at.session_state["include"] == ["score_text"]


def test_a_missing_value_code_is_kept_as_a_number_with_one_click_and_back():
    """adult's capital.gain top-code 99999 was read as missing with no way back in the app."""
    at = upload(start(), "census_income_topcoded.csv")
    assert not at.exception and not at.error
    assert any("'capital.gain':" in i.value and "read as missing values" in i.value
               for i in at.info)
    at.button(key="w_codes_capital.gain").click().run()
    assert not at.exception and not at.error
    assert at.session_state["keep_codes"] == ["capital.gain"]
    assert any("'capital.gain':" in i.value and "kept as a number, as asked" in i.value
               for i in at.info)
    assert at.button(key="w_codes_capital.gain").label == \
        "Read the code in capital.gain as missing again"
    at.button(key="w_codes_capital.gain").click().run()
    assert at.session_state["keep_codes"] == []
    assert any("read as missing values" in i.value for i in at.info)


def test_a_guessed_target_is_a_warning_until_a_target_is_chosen():
    """BRFSS's answers name no outcome: the yes/no answer taken as the target is said to be
    a guess, as a warning beside the target selector, not one note among many; a target
    chosen is no guess."""
    at = upload(start(), "brfss_extract_coded.csv")
    assert not at.exception and not at.error
    assert any(w.value.startswith("The target 'BPHIGH6' is a guess") for w in at.warning)
    assert not any("is a guess" in i.value for i in at.info)
    at.selectbox(key="w_target").set_value("EXERANY2").run()
    assert not at.exception and not at.error
    assert not any("is a guess" in w.value for w in [*at.warning, *at.info])


def test_dollar_signs_in_messages_are_shown_as_written():
    """Streamlit typesets $…$ as mathematics: a FAERS file, '$'-separated, was refused with
    'primaryid$caseid$caseversion…' in italic math letters, and two columns named with '($)'
    made the text between them math (a stranger's review).  Every message from rulecore is
    shown with its '$' escaped, and '$' separates fields as ',' does."""
    at = start()
    # FDA's FAERS files are '$'-separated: read so
    rng = np.random.default_rng(2)
    upload_bytes(at, "DEMO23Q1.txt", b"primaryid$caseid$age$outc_cod\r\n" + b"".join(
        f"{1000 + i}${7000 + i}${rng.integers(20, 90)}${rng.choice(['DE', 'HO', 'OT'])}\r\n"
        .encode() for i in range(60)))
    at.run()
    assert not at.error and metric(at, "Features") == "1", [e.value for e in at.error]
    price = rng.integers(10, 500, 200).astype(float)
    text = pd.DataFrame({"Price ($)": price, "Cost ($)": price * 0.8 + 1.25,
                         "units": rng.integers(1, 9, 200),
                         "sold": rng.choice(["yes", "no"], 200)}).to_csv(index=False)
    upload_bytes(at, "prices.csv", text.encode())
    at.run()
    said = [m.value for m in at.info if "rise and fall together" in m.value]
    assert said and "'Cost (\\$)' and 'Price (\\$)'" in said[0], said


def test_grades_from_zero_ask_any_and_each_value_can_be_a_class():
    """UCI's processed.cleveland.data, no header, its diagnosis 0 (none) to 4 last: the
    target is "any disease", x4 > 0, and the button reads each value (not "count", which a
    diagnosis is not) as a class."""
    rng = np.random.default_rng(14)
    grade = rng.choice([0, 1, 2, 3, 4], 303, p=[.54, .18, .12, .12, .04])
    rows = [f"{40 + k % 37}.0,{k % 2}.0,{rng.uniform(100, 200):.1f},{g}"
            for k, g in enumerate(grade)]
    at = start()
    upload_bytes(at, "processed.cleveland.data", ("\n".join(rows) + "\n").encode())
    at.run()
    assert not at.exception and not at.error
    assert any("**x4 > 0**" in c.value for c in at.caption)
    assert at.button(key="w_rating_classes").label == "Predict each value as a class instead"
    at.button(key="w_rating_classes").click().run()
    shown = [o.split(" (")[0] for o in at.selectbox(key="w_positive").options]
    assert shown == ["0", "1", "2", "3", "4"]
