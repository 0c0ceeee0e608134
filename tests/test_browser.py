"""Real browser: Debian chromium driven by Playwright against `streamlit run app.py`."""

import re
from pathlib import Path

import numpy as np
import pytest

from tests.browser_util import (
    choose,
    clipped_tags,
    goto_page,
    metric_value,
    nudge,
    settle,
    shown_choice,
    shown_tags,
    upload_corpus_file,
    wait_for_change,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def context(browser):
    """One browser context for the module's tests, each in a tab of its own: a tab is a
    Streamlit session of its own, and the tabs share the context's cache of the app's
    scripts, which a new context downloaded and compiled again for every test."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 2200})
    yield ctx
    ctx.close()


@pytest.fixture
def page(server, context):
    pg = context.new_page()
    pg.goto(server)
    settle(pg)
    yield pg
    pg.close()


def test_data_and_terms_pages(page, artifacts):
    # opens on a sample, no upload needed
    assert metric_value(page, "Rows") == "150"
    assert (shown_choice(page, "w_target"), shown_choice(page, "w_positive")) == (
        "species", "versicolor (33.3% of rows)")
    choose(page, "w_sample", "Salesforce attrition (synthetic, planted rule)")
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "150") == "1,500"
    # the target and class boxes show the new data's choices, not iris's
    assert (shown_choice(page, "w_target"), shown_choice(page, "w_positive")) == (
        "resigned", "yes (9.7% of rows)")
    assert shown_tags(page, "w_categorical") == ["job_role", "region", "quota_based_pay"]
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts / "data.png"))

    goto_page(page, "Terms")
    before = int(metric_value(page, "Terms in all").replace(",", ""))
    nudge(page, "terms_n_thresholds", presses=5)
    after = int(wait_for_change(page, lambda: metric_value(page, "Terms in all"), str(before))
                .replace(",", ""))
    assert after > before, (before, after)
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts / "terms.png"))
    assert not page.get_by_test_id("stException").count()


def checklist_text(page) -> str:
    return page.get_by_test_id("stMarkdown").filter(has_text="Decision:").first.inner_text()


def test_rule_page_lambda_changes_the_checklist(page, artifacts):
    goto_page(page, "Rule")
    assert page.get_by_text("Predict").first.is_visible()
    before = checklist_text(page)
    conds_before = metric_value(page, "Conditions")
    nudge(page, "lam", presses=2, direction="ArrowRight")     # λ 1 → 5: more conditions
    after, conds_after = wait_for_change(
        page, lambda: (checklist_text(page), metric_value(page, "Conditions")),
        (before, conds_before))
    assert (before, conds_before) != (after, conds_after)
    # the rule region is drawn (Vega-Lite): one marker per iris row, a ring on each row the
    # rule gets wrong (the layers' names are the marks' CSS classes, "<name>_marks")
    chart = page.get_by_test_id("stVegaLiteChart")
    assert wait_for_change(page, chart.locator("g.points_marks path").count, 0) == 150
    assert 0 < chart.locator("g.errors_marks path").count() < 150
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "rule.png"))
    # a column chosen in the narrow Must use box reads whole ("petal w…" before: a review)
    page.locator(".st-key-require").click()
    page.get_by_role("option", name="petal width (cm)").click()
    settle(page)
    page.keyboard.press("Escape")
    settle(page)
    tag = page.locator(".st-key-require [data-tag] > span").first
    assert tag.inner_text().replace("\n", " ") == "petal width (cm)"
    assert tag.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    goto_page(page, "Screening")
    kept_before = metric_value(page, "Kept")
    nudge(page, "scr_lam", presses=2, direction="ArrowLeft")  # λ 5 → 1: 5 → 7 terms kept
    assert wait_for_change(page, lambda: metric_value(page, "Kept"), kept_before) != kept_before
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "screening.png"))
    # a certificate's proof runs past its cell: picking the row shows it whole
    grid = page.locator(".st-key-certs")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 18, box["y"] + 35 + 17)  # the first row's marker (rows 35 px)
    settle(page)
    whole = page.get_by_test_id("stAlertContentInfo").filter(has_text=" — ").first
    whole.wait_for(timeout=30_000)
    assert re.search(r"can gain at most .* \(c_j ≥ p_j\)\.$|dominated by |any rule with it "
                     r"costs ≥ .* already found\.$", whole.inner_text().strip())
    page.screenshot(path=str(artifacts / "screening_certificate.png"))
    assert not page.get_by_test_id("stException").count()


def test_lambda_path_point_loads_its_rule_and_moves_the_slider(page, artifacts):
    """Clicking a point of the λ path loads that λ: the slider must show it too (it used to
    keep showing the old λ while the rule below was the new one's)."""
    goto_page(page, "Rule")
    thumb = page.locator(".st-key-lam").get_by_role("slider")
    assert thumb.get_attribute("aria-valuetext") == "1"
    page.get_by_role("button", name="Compute the λ path").click()
    settle(page)
    points = page.locator(".st-key-path_chart .scatterlayer .point")
    assert wait_for_change(page, points.count, 0) == 3 * 16  # three curves over the λ grid
    conds = metric_value(page, "Conditions")
    points.nth(10).click(force=True)  # the first curve's eleventh λ: 20 (4 conditions, not 2)
    assert wait_for_change(page, lambda: thumb.get_attribute("aria-valuetext"), "1") == "20"
    assert wait_for_change(page, lambda: metric_value(page, "Conditions"), conds) != conds
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "lambda_path.png"))
    assert not page.get_by_test_id("stException").count()


def test_reduced_motion_turns_animations_off(page):
    """A user whose system asks for less motion gets none (app.py's CSS); others are unchanged.
    The system's setting is switched on the open page (the browser re-evaluates the CSS media
    query at once), so the app is loaded once, not once per setting."""
    goto_page(page, "Rule")
    tick = page.get_by_test_id("stSliderTickBar").first
    durations = {}
    for motion in ("no-preference", "reduce", "no-preference"):
        page.emulate_media(reduced_motion=motion)
        durations.setdefault(motion, []).append(
            tick.evaluate("e => getComputedStyle(e).transitionDuration"))
    assert durations["reduce"] == ["0s"], durations
    assert "0s" not in durations["no-preference"], durations


def test_no_request_leaves_the_server(server, browser):
    """Every page a user opens is served by our server alone: no font, icon or script from a
    third party (the tab icon was fetched from fonts.gstatic.com before assets/icon.png)."""
    ctx = browser.new_context()
    pg = ctx.new_page()
    elsewhere = []
    pg.on("request", lambda r: None if r.url.startswith((server, "data:", "blob:"))
          else elsewhere.append(r.url))
    pg.goto(server)
    settle(pg)
    for title in ("Rule", "Screening", "Compare"):
        goto_page(pg, title)
    favicon = pg.evaluate("document.querySelector('link[rel~=icon]').href")
    ctx.close()
    assert favicon.startswith(server), favicon
    assert not elsewhere, elsewhere


def test_upload_of_an_analysts_table(page, artifacts):
    """A table saved from R with its row names and a leaky column: the Data page leaves the
    row numbers out and says why, and the Rule page's rule never reads them; on the leaky
    table the Rule page warns."""
    upload_corpus_file(page, "r_credit_rownames.csv")
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "150") == "400"
    assert shown_choice(page, "w_target") == "default"
    assert shown_choice(page, "w_positive").startswith("yes")
    assert "column 1" not in shown_tags(page, "w_features")
    # every chosen feature is shown whole (the fifth, late_payments, was behind the box's
    # fade before the tags wrapped)
    assert "late_payments" in shown_tags(page, "w_features")
    assert clipped_tags(page, "w_features") == []
    roles = page.get_by_test_id("stTable").filter(has_text="row names")
    assert roles.is_visible()  # the reason is read whole, not cut off in a grid cell
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "upload_data.png"))

    goto_page(page, "Rule")
    checklist = page.get_by_test_id("stMarkdown").filter(has_text="Decision:").first
    assert "column 1" not in checklist.inner_text()
    assert page.get_by_test_id("stAlert").filter(has_text="Certified optimal").count() == 1
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "upload_rule.png"))

    goto_page(page, "Data")
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        str(Path(__file__).resolve().parent / "data" / "complaints_leak.csv"))
    settle(page)
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "400") == "700"
    assert page.get_by_test_id("stAlert").filter(has_text="possible leak").count() >= 1
    goto_page(page, "Rule")
    warning = page.get_by_test_id("stAlert").filter(has_text="The rule uses refund_issued")
    assert warning.count() == 1
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "upload_leak_rule.png"))
    # the warning's button refits the whole page at once: in a fragment it reran only the
    # results, with the old table, and the leaky rule stayed until another widget moved (a
    # review; AppTest reruns the whole script and could not see it)
    page.locator(".st-key-rule_leak_0").get_by_role("button").click()
    settle(page)
    checklist = page.get_by_test_id("stMarkdown").filter(has_text="Decision:").first
    assert wait_for_change(page, lambda: str("refund_issued" in checklist.inner_text()),
                           "True") == "False"
    assert page.get_by_test_id("stAlert").filter(has_text="The rule uses refund_issued") \
        .count() == 0
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "upload_leak_left_out.png"))
    assert not page.get_by_test_id("stException").count()


def _click_grid_row(page, key: str, row: int) -> None:
    """Select data row ``row`` (0-based) of the st.dataframe with widget key ``key`` by
    clicking its row marker (the grid is a canvas: no DOM cell to click)."""
    box = page.locator(f".st-key-{key}").get_by_test_id("stDataFrame").bounding_box()
    header, height = 35, 35  # Streamlit's default grid header and row height, px
    page.mouse.click(box["x"] + 12, box["y"] + header + height * row + height / 2)
    settle(page)


def test_edit_a_rule_load_an_alternative_download_rejected_rows(page, artifacts, tmp_path):
    """Issue 21 in a real browser: change a condition and see it scored; list alternatives and
    load one into the editor; download the rows a condition rejects."""
    from rulecore import RuleSettings, load_sample
    from rulecore.fit import fit_on_split

    ds = load_sample("iris")
    fit = fit_on_split(RuleSettings(kinds=ds.kinds), ds, 0.25, 0)
    alts = fit.model.alternatives(ds.X.iloc[fit.train], ds.y_binary[fit.train], k=5)

    goto_page(page, "Rule")
    # a click on a checklist condition picks it for "Rows per condition"
    _click_grid_row(page, "checklist", 1)
    page.get_by_role("tab", name="Rows per condition").click()
    assert shown_choice(page, "prov_cond") == str(fit.model.rule_.conditions[1])
    page.get_by_role("tab", name="Edit the rule").click()
    first = page.locator("[class*='st-key-edit_cond_0_']").get_by_role("combobox")
    learned_first = first.input_value()
    assert learned_first == str(fit.model.rule_.conditions[0])
    first.click()
    options = page.get_by_role("option")
    target = next(o for o in options.all_inner_texts() if o != learned_first)
    page.get_by_role("option", name=target, exact=True).click()
    settle(page)
    said = page.get_by_text("Edited rule: objective")
    assert said.is_visible() and "above the certified optimum" in said.inner_text()
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / "rule_editor.png"))

    page.get_by_role("tab", name="Alternatives").click()
    page.get_by_role("button", name="Find alternatives").click()
    settle(page)
    page.locator(".st-key-alt_table").get_by_test_id("stDataFrame").wait_for()
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "rule_alternatives.png"))
    _click_grid_row(page, "alt_table", 1)  # the second best rule
    page.get_by_role("tab", name="Edit the rule").click()
    shown = [page.locator(f"[class*='st-key-edit_cond_{k}_']").get_by_role("combobox")
             .input_value() for k in range(len(alts[1].rule))]
    assert shown == [str(c) for c in alts[1].rule.conditions]

    page.get_by_role("tab", name="Rows per condition").click()
    picked = shown_choice(page, "prov_cond")  # the click's condition, if the rule still has it
    cond = next(c for c in alts[1].rule.conditions if str(c) == picked)
    rejected = int((~cond.evaluate(ds.X[cond.feature])).sum())
    assert metric_value(page, "Rows it rejects") == f"{rejected:,}"
    with page.expect_download() as dl:
        page.get_by_role("button", name=f"Download these {rejected:,} rows (CSV)").click()
    path = tmp_path / "rejected.csv"
    dl.value.save_as(path)
    lines = path.read_text().strip().splitlines()
    assert len(lines) == rejected + 1  # header + one line per rejected row
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / "rule_rows.png"))
    assert not page.get_by_test_id("stException").count()


def test_a_long_fit_shows_its_stages_then_the_rules(page, artifacts, tmp_path):
    """Issue 22: a fit that takes a while shows what it is doing (rulecore.progress in a
    status box), then the result; the box is gone once the rules are shown."""
    import numpy as np
    import pandas as pd
    from playwright.sync_api import expect

    rng = np.random.default_rng(0)
    n = 10_000
    X = pd.DataFrame(rng.standard_normal((n, 8)).round(3), columns=[f"x{i}" for i in range(8)])
    y = ((X["x0"] > -0.3) & (X["x1"] <= 0.4)) ^ (rng.random(n) < 0.05)
    X.assign(churned=np.where(y, "yes", "no")).to_csv(tmp_path / "big.csv", index=False)

    page.get_by_text("Upload a file").click()
    settle(page)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(tmp_path / "big.csv"))
    settle(page)
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "150") == "10,000"
    goto_page(page, "Rule")
    page.get_by_test_id("stRadio").filter(has_text="Model").get_by_text(
        "rule set (auto)").click()
    box = page.get_by_test_id("stExpander").filter(has_text="Learning the rule")
    expect(box.first).to_be_visible(timeout=30_000)
    # the latest stage is the box's label; the stages so far, with seconds, are its body
    expect(box.first).to_contain_text("2 of 6 inner fits done", timeout=120_000)
    log = box.first.get_by_test_id("stMarkdown")
    expect(log.first).to_contain_text("candidate terms on 7,500 rows")
    page.screenshot(path=str(artifacts / "rule_progress.png"))
    settle(page, timeout=240_000)
    expect(box).to_have_count(0)
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "rule_after_progress.png"))
    assert page.get_by_text("Predict").first.is_visible()
    assert not page.get_by_test_id("stException").count()


def test_upload_of_a_stats_package_export_with_missing_value_codes(page, artifacts):
    """SPSS-style codes: -999, 999 and 9 read as missing with notes, -9 in the target as no
    answer with a button that learns a rule for it; the Rule page's SQL export says how the
    rule's columns were read."""
    upload_corpus_file(page, "stats_package_missing_codes.csv")
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "150") == "579"
    notes = page.get_by_test_id("stAlert").filter(has_text="cells of -999 are read as missing")
    assert notes.count() == 1
    keep = page.get_by_role("button", name="Learn a rule for -9 (21 rows)")
    assert keep.is_visible()
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "codes_data.png"), full_page=True)

    goto_page(page, "Rule")
    page.get_by_test_id("stRadio").filter(has_text="markdown").get_by_text("sql",
                                                                           exact=True).click()
    settle(page)
    sql = page.get_by_test_id("stCode").filter(has_text="WHERE").first
    assert "   'income': 73 cells of -999 are read as missing values" in sql.inner_text()
    sql.scroll_into_view_if_needed()
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "codes_export.png"))

    goto_page(page, "Data")
    page.get_by_role("button", name="Learn a rule for -9 (21 rows)").click()
    settle(page)
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "579") == "600"
    assert shown_choice(page, "w_positive").startswith("-9")
    assert not page.get_by_test_id("stException").count()


def test_a_libsvm_file_without_an_extension_uploads(page, artifacts, tmp_path):
    """LIBSVM benchmark files have no extension (heart_scale): the uploader takes any file
    and the reader knows the format by its lines."""
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(3)
    X = np.round(np.abs(rng.normal(size=(120, 4))), 3)
    y = np.where(X[:, 0] > 0.7, 1, -1)
    path = tmp_path / "heart_scale"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    page.get_by_text("Upload a file").click()
    settle(page)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    settle(page)
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "150") == "120"
    assert shown_choice(page, "w_target") == "label"
    assert page.get_by_test_id("stAlert").filter(has_text="LIBSVM").count() == 1
    assert not page.get_by_test_id("stException").count()


def test_an_excel_workbook_uploads_on_its_table_sheet(page, artifacts):
    """A workbook whose first sheet is a read-me: the deals sheet is read (under its title,
    above its Total row), a Sheet selector names the others, and the Rule page learns the
    planted rule from it."""
    upload_corpus_file(page, "crm_pipeline_workbook.xlsx")
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "150") == "480"
    assert shown_choice(page, "w_sheet") == "Deals"
    assert shown_choice(page, "w_target") == "Won"
    note = page.get_by_test_id("stAlert").filter(has_text="Read sheet 'Deals', the largest")
    assert note.count() == 1
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "workbook_data.png"))
    goto_page(page, "Rule")
    page.get_by_text("Predict").first.wait_for(timeout=60_000)
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "workbook_rule.png"))
    # the checklist is a data grid: its cells are in the page for screen readers
    cells = page.locator("[role=gridcell]")
    assert cells.filter(has_text="Amount <=").count() and cells.filter(
        has_text="Discount >").count()
    page.screenshot(path=str(artifacts / "workbook_rule.png"))
    assert not page.get_by_test_id("stException").count()


def test_choosing_lam_by_cross_validation_shows_what_the_fit_uses(page, artifacts):
    """The toggle sits in the results fragment and sets the rule type and error boxes above
    it: the browser must show them changed (it kept AND / per condition above a fit that used
    auto / per row until the fragment reran the page), and the λ slider disabled."""
    goto_page(page, "Rule")
    rule_type = page.locator(".st-key-rule_type")
    assert rule_type.get_by_role("radio", name="AND").is_checked()
    page.locator(".st-key-lam_auto").get_by_text("Choose λ by cross-validation").click()
    settle(page)
    assert wait_for_change(page, lambda: rule_type.get_by_role("radio", name="auto")
                           .is_checked(), False)
    assert shown_choice(page, "error") == "per row"
    assert page.locator(".st-key-lam [role=group]").first.get_attribute(
        "data-disabled") == "true"
    assert page.get_by_text("chosen by cross-validation").first.is_visible()
    # the disabled slider still shows a value: its label says the fit does not use it
    assert "not used" in page.locator(".st-key-lam").inner_text()
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "lam_auto.png"))
    assert not page.get_by_test_id("stException").count()


def test_a_survey_of_answers_on_a_scale_and_a_column_put_in_order(page, artifacts):
    """Answers Strongly disagree … Strongly agree are listed under Ordered scales and the
    Rule page's checklist reads the planted 'at most Disagree' / 'at most Neutral' in two
    conditions; a column of words is put in order by clicking its levels."""
    upload_corpus_file(page, "engagement_survey_likert.csv")
    assert wait_for_change(page, lambda: metric_value(page, "Rows"), "150") == "700"
    assert shown_tags(page, "w_ordinal") == [
        "My workload is manageable", "My manager supports my development",
        "I would recommend this company as a place to work"]
    goto_page(page, "Rule")
    cells = page.locator("[role=gridcell]")
    # the grid's cells are in the page for screen readers, not shown as such: attached
    cells.filter(has_text="My workload is manageable <= Disagree").first.wait_for(
        state="attached", timeout=60_000)
    assert cells.filter(has_text="My manager supports my development <= Neutral").count()
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "scale_rule.png"), full_page=True)
    # Department (four words, no known order) put in an order by hand
    goto_page(page, "Data")
    page.get_by_text("Put a column's levels in order yourself").click()
    settle(page)
    choose(page, "w_order_col", "Department")
    for level in ("Sales", "IT", "Finance", "Operations"):
        box = page.locator(".st-key-w_order_Department input")
        box.click()
        box.fill(level)
        page.keyboard.press("Enter")
        settle(page)
    page.keyboard.press("Escape")
    page.locator(".st-key-w_order_apply").get_by_role("button").click()
    settle(page)
    note = page.get_by_test_id("stAlert").filter(has_text="'Department': read in the order "
                                                          "given (Sales < IT < Finance")
    note.first.wait_for(timeout=30_000)
    assert "Department" in shown_tags(page, "w_ordinal")
    page.screenshot(path=str(artifacts / "scale_order.png"), full_page=True)
    assert not page.get_by_test_id("stException").count()


def test_apply_the_rule_to_another_table(page, artifacts, tmp_path):
    """Next month's rows, typed with their unit ('1.4 cm'), uploaded under the learned rule:
    every row predicted as the rule reads the sample, the accuracy against their species,
    and the table back with the prediction; a table without a column the rule reads gets a
    message, and the page stays."""
    from rulecore import load_sample

    ds = load_sample("iris")
    rows = ds.X.iloc[::12].copy()
    typed = rows.map(lambda v: f"{v:g} cm")
    typed["species"] = ds.y.iloc[::12].to_numpy()
    path = tmp_path / "new_irises.csv"
    typed.to_csv(path, index=False)

    goto_page(page, "Rule")
    block = page.locator(".st-key-apply_upload")
    block.scroll_into_view_if_needed()
    block.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    settle(page)
    page.get_by_test_id("stMetric").filter(has_text="The rule holds for").first.wait_for()
    accuracy = metric_value(page, "Accuracy on its species")
    assert accuracy.endswith("%") and float(accuracy.rstrip("%")) >= 80
    with page.expect_download() as dl:
        page.get_by_role("button", name=re.compile(r"Download new_irises with")).click()
    saved = tmp_path / "scored.csv"
    dl.value.save_as(saved)
    lines = saved.read_text().strip().splitlines()
    assert lines[0].endswith(",predicted species") and len(lines) == len(rows) + 1
    assert lines[1].split(",")[0].endswith(" cm")  # the table as uploaded
    page.wait_for_timeout(400)
    block.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "rule_apply.png"), full_page=True)

    bad = tmp_path / "renamed.csv"
    typed.rename(columns=str.title).to_csv(bad, index=False)  # 'Petal Width (Cm)'
    block.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(bad))
    settle(page)
    error = page.get_by_test_id("stAlert").filter(has_text="lacks the column")
    error.first.wait_for(timeout=30_000)
    assert error.count() == 1 and "the table has 'Petal Width (Cm)'" in error.inner_text()
    assert not page.get_by_test_id("stException").count()
