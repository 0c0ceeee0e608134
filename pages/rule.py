"""Rule page: learn an AND/OR rule (or a rule set), read it as a checklist, export it."""


import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from pages import common, rule_explore
from rulecore.metrics import binary_metrics, fmt_percent, fmt_rate
from rulecore.report import (
    all_midpoints_fit,
    assess,
    comparisons,
    constraint_words,
    cv_timing_words,
    fit_status,
    gain_over_majority,
    isolated,
    most_frequent_class,
    needs_other_type,
    needs_unweighted_twin,
    shown_claim,
    table_facts,
    unpredicted_classes,
)
from rulecore.rules.estimators import lambda_path
from rulecore.rules.rule import Rule, RuleList, RuleSet
from rulecore.rules.terms import format_value
from rulecore.settings import RULE_TYPE_CHOICES, THRESHOLD_GRID
from rulecore.viz import rules as rviz

ss = st.session_state
#: Conditions longer than this (a form's question as the column name) do not fit the
#: checklist's cell and are also written out in full under it: at 1,400 px the rule's half
#: of the page holds about 45 characters beside support and precision (a 56-character
#: condition pushed precision out of sight: a newcomer's review).
LONG_CONDITION = 40
#: Pixels of grid the rule's half of the page shows at 1,400 px; a "small" column is 75 px.
#: Boosting's vote column beside "medium" (200 px) conditions cut the last header to
#: "precisio" (a newcomer's review), so long conditions get what the small columns leave.
CLAUSE_GRID_PX, SMALL_PX = 540, 75
#: Pixels per character of a grid cell, to tell whether a clause fits its column: a
#: 43-character clause sized its column to itself and pushed precision off the table's edge
#: (a stranger's review), so the column is always sized, and a clause wider than it is
#: written out under the table.
CELL_CHAR_PX = 7


def write_out_if_long(texts: list[str], limit: int, then: list[str] | None = None) -> None:
    """Under a grid that cuts long cells, the same texts as a numbered list when the longest
    is over ``limit`` characters (``then``: what each leads to, after an arrow)."""
    if not texts or max(len(t) for t in texts) <= limit:
        return
    st.markdown("\n".join(f"{k}. {common.inline_code(t)}"
                          + (f" → {common.inline_code(then[k - 1])}" if then else "")
                          for k, t in enumerate(texts, 1)))


ICONS = {"success": ":material/verified:", "info": ":material/info:",
         "warning": ":material/warning:"}


def as_md(text) -> str:
    """A name or label for the page's Markdown: kept in its place beside right-to-left text
    (report.isolated) and its '$' as written (an income band '$50,000-$74,999' was typeset
    as mathematics: a review)."""
    return common.md(isolated(text))


def show_finding(finding, detail: str = "") -> None:
    """A rulecore.report Finding as a success / info / warning box."""
    box = {"success": st.success, "info": st.info, "warning": st.warning}[finding.level]
    box(common.md(finding.text) + (f"\n\n{detail}" if detail else ""),
        icon=ICONS[finding.level])


st.title("Rule")
ds = common.require_dataset()
common.dataset_caption(ds, all_classes=st.session_state.get("rule", {}).get("model")
                                     == "rule set")
if stale := common.drop_stale_constraints(ds):
    st.info(f"Dropped {', '.join(map(repr, stale))} from Must use / Must not use: chosen on "
            "another table, not a column of this one.", icon=":material/info:")
r = ss["rule"]

# ---------------------------------------------------------------- settings
# Settings changed now and then: a change reruns the whole page.  λ and the thresholds, the
# two sliders users sweep, live in the fragment below so that moving them reruns (and the
# browser redraws) only the results.
c1, c2, c3, c4 = st.container(key="wrap_rule_1").columns([3, 2, 2, 2])
MODEL_NAMES = {"single rule": "single rule", "rule set": "rule set (auto)",
               "set covering": "set covering", "boosting": "boosting"}
c1.radio("Model", list(MODEL_NAMES), index=list(MODEL_NAMES).index(r["model"]), key="model",
         horizontal=True, on_change=common.switch_model,
         format_func=MODEL_NAMES.get,
         help="Rule set (auto): an OR of AND-clauses learned together by column generation, "
              "with λ and the class it describes chosen by cross-validation; on a target with "
              "more than two classes, an ordered rule list over all of them. Set covering: "
              "AND-clauses learned one after another. Boosting: weighted clauses (the BCS "
              "paper's Algorithm 1).")
auto_model = r["model"] == "rule set"
# The rule type and error boxes can be set by "Choose λ by cross-validation" (its callback
# writes their state, which is what a browser already showing them follows): their state
# says what they show, seeded from the settings, and index 0 only stands for "no default".
ss.setdefault("rule_type", r["rule_type"])
ss.setdefault("error", r["error"])
# What the other models are made of, in place of the single rule's type (a disabled box
# kept showing the single rule's last choice, OR or auto, beside a model that has no such
# setting: a newcomer's review)
BUILT_FROM = {"rule set": "AND-clauses joined by OR, for the class that cross-validation "
                          "chooses (several classes: a rule list)",
              "set covering": "AND-clauses joined by OR",
              "boosting": "AND-clauses with weighted votes"}
if r["model"] == "single rule":
    c2.radio("Rule type", list(RULE_TYPE_CHOICES), index=0,
             key="rule_type", horizontal=True, on_change=common.sync,
             args=("rule_type", "rule", "rule_type"),
             format_func=lambda t: "auto" if t == "auto" else t.upper(),
             help="AND: all conditions hold. OR: any holds (an AND-rule for the other class, "
                  "negated). Auto: the one with the lower 3-fold cross-validated error.")
elif r["model"] == "rule set" and len(ds.classes) > 2:
    # several classes: how the rule list is built (docs/rulesets.md, "Several classes")
    LISTS = {"one-vs-rest": "one-vs-rest", "sequential": "class by class",
             "auto": "chosen by cross-validation"}
    c2.selectbox("Rule list", list(LISTS), index=list(LISTS).index(r["multiclass"]),
                 key="multiclass", format_func=LISTS.get, on_change=common.sync,
                 args=("multiclass", "rule", "multiclass"),
                 help="One-vs-rest: a rule set per class, all rules ordered by precision "
                      "(smoothed: (right + 1) / (fired + 2), so a rule firing on few rows does "
                      "not lead on luck). "
                      "Class by class: from the rarest class, each learned on the rows the "
                      "earlier ones leave, the most frequent class the default; a shorter "
                      "list, less accurate where classes overlap. Chosen by cross-validation: "
                      "the inner folds decide with λ (about 1.6 times the time). Measured in "
                      "bench/results/ruleset_variants.md.")
else:
    c2.markdown(f"**Rule type**  \n{BUILT_FROM[r['model']]}")
common.terms_options("rule_", (c3, c4))
c1, c2, c3, c4, c5, c6 = st.container(key="wrap_rule_2").columns(
    [2, 2, 2, 2, 1, 2])
WEIGHTS = {"auto": "auto", "sqrt": "√ ratio", "balanced": "balanced", "none": "none"}
c6.selectbox("Class weights", list(WEIGHTS), index=list(WEIGHTS).index(r["class_weight"]),
             key="class_weight", format_func=WEIGHTS.get, on_change=common.sync,
             args=("class_weight", "rule", "class_weight"),
             help="How errors count. √ ratio: a minority row's error weighs √(majority rows / "
                  "minority rows), so a rare positive class still gets a rule that fires. "
                  "Balanced: both classes count equally in total. None: every row counts once "
                  "(maximises accuracy). Auto (default): √ ratio, balanced for boosting, none "
                  "for the rule set and for the single rule with λ chosen by cross-validation "
                  "(both tuned for held-out error, which counts every row once). "
                  "Measured in bench/results/rare_positives.md.")
c1.selectbox("Solver", ["mip", "lp", "lp-randomized"], index=["mip", "lp", "lp-randomized"]
             .index(r["solver"]), key="solver", on_change=common.sync_error_count,
             disabled=auto_model, args=("solver", "solver"),
             help="MIP: the exact 0/1 rule, proved optimal (by the MIP, or by trying every "
                  "short rule where that is quicker: the claim says which). LP: the relaxation, "
                  "rounded; quicker on large tables, not proved.",
             format_func={"mip": "MIP (exact 0/1)", "lp": "LP, fractional → 1",
                          "lp-randomized": "LP, randomized rounding"}.get)
c2.selectbox("Screening", ["enhanced", "basic", "none"],
             index=["enhanced", "basic", "none"].index(r["screening"]), key="screening",
             on_change=common.sync, disabled=auto_model, args=("screening", "rule", "screening"),
             help="Certified: removes only terms that provably take no part in an optimal "
                  "0/1 rule, so the rule is the same, found faster. See the Screening page.")
c3.slider("Time limit (s)", 1, 120, int(r["time_limit"]), key="time_limit",
          on_change=common.sync, args=("time_limit", "rule", "time_limit"),
          # (a stranger set 30 s and waited 91 s on 100,000 rows: the limit is per solve)
          help="Seconds for each solver run: screening's LP and the MIP each get it, so a "
               "whole fit on a large table can take a few times as long (building the terms "
               "and the cross-validation fits come on top). A MIP stopped by it keeps its "
               "best rule and says how far from optimal it may be.")
c4.slider("Test share", 0.1, 0.5, float(r["test_size"]), 0.05, key="test_size",
          on_change=common.sync, args=("test_size", "rule", "test_size"),
          help=None if ds.groups is None else
          f"Held out by {ds.held_out_unit}: each on one side of the split, so the held-out "
          "accuracy is measured on records the rule has not seen.")
c5.number_input("Seed", 0, 10_000, int(r["seed"]), key="seed", on_change=common.sync,
                args=("seed", "rule", "seed"))

# The single rule's constraints and error costs: constraints of the MIP, so the rule is the
# certified optimum under them (docs/clause.md, "Constraints").  Shown for the single rule
# only: disabled beside another model they showed values that model does not use.
single = r["model"] == "single rule"
if single:
    c1, c2, c3, c4, c5, c6 = st.container(key="wrap_rule_3").columns(
        [2.8, 2.8, 2.4, 2, 2, 2.6])
    c1.multiselect("Must use", list(ds.X.columns),
                   default=[f for f in r["require"] if f in ds.X.columns], key="require",
                   wrap=True,
                   on_change=common.sync_error_count, args=("require", "require"),
                   help="Columns the rule must have a condition on (single rule).")
    c2.multiselect("Must not use", list(ds.X.columns),
                   default=[f for f in r["forbid"] if f in ds.X.columns], key="forbid",
                   wrap=True,
                   on_change=common.sync, args=("forbid", "rule", "forbid"),
                   help="Columns the rule may not use (single rule).")
    # 0 stands for "no limit": a None option reads as "nothing chosen" to the selectbox, which
    # then showed "Choose an option" after a rerun (a newcomer's review)
    MAX_CONDITIONS = list(range(0, 11))
    c3.selectbox("Max conditions", MAX_CONDITIONS,
                 index=MAX_CONDITIONS.index(r["max_conditions"] or 0)
                 if (r["max_conditions"] or 0) in MAX_CONDITIONS else 0, key="max_conditions",
                 format_func=lambda v: "no limit" if v == 0 else str(v),
                 on_change=common.sync_max_conditions,
                 help="The rule may have at most this many conditions; it is then the best rule "
                      "of that size or smaller, proved as such (single rule).")
    COSTS = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0]
    c4.select_slider("False-positive cost", COSTS, value=float(r["fp_cost"]), key="fp_cost",
                     on_change=common.sync, args=("fp_cost", "rule", "fp_cost"),
                     format_func=lambda v: f"{v:g}×",
                     help="What a negative row the rule fires on costs in the objective.")
    c5.select_slider("False-negative cost", COSTS, value=float(r["fn_cost"]), key="fn_cost",
                     on_change=common.sync, args=("fn_cost", "rule", "fn_cost"),
                     format_func=lambda v: f"{v:g}×",
                     help="How much a positive row's errors cost: with errors counted per failed "
                          "condition a missed positive costs this much per condition it fails; "
                          "counted once per row, once.")
    ERRORS = {"hamming": "per condition", "exact": "per row"}
    c6.selectbox("Errors counted", list(ERRORS), index=0,
                 key="error", format_func=ERRORS.get, on_change=common.sync_error_count,
                 args=("error", "error"),
                 help="Per condition (default): the BCS paper's count, a missed positive once for "
                      "each condition it fails; its MIP is screened and usually proved optimal. "
                      "Per row: each wrong row once, as accuracy counts; found by beam search, "
                      "then the MIP tries to prove it within the time limit, which on a rule for "
                      "the smaller class often does not finish. Cannot be combined with 'Must "
                      "use'. Measured in bench/results/single_rule_error.md.")
else:
    st.caption("*Must use*, *Must not use*, *Max conditions*, the error costs and *Errors "
               "counted* are the single rule's settings: choose **single rule** to set them.")

# set by common.sync_error_count and toggle_lam_auto; the latter's page rerun (the fragment
# below asks for it) is the run that shows it
if not ss.get("rerun_page") and (notice := ss.pop("rule_notice", None)):
    st.info(notice, icon=":material/info:")


@st.cache_resource(scope="session", max_entries=32, show_spinner=False)
def region_chart(digest: str, rule_json: str, fx: str, fy: str, _ds) -> dict:
    """The scatter's Vega-Lite spec, rebuilt only when the rule or the axes change.

    Its datasets are handed over as Arrow tables: Streamlit converts each dataset to Arrow on
    every call, and for the 2,000 points of the machine-failure sample that took about 30 %
    of the results fragment's server time on a cached slider move (py-spy).  Converted once
    here, a rerun only writes the bytes.
    """
    spec = rviz.rule_region(_ds.X, _ds.y_binary, Rule.from_json(rule_json), fx, fy,
                            (common.negative_label(_ds), str(_ds.positive)))
    return {**spec, "datasets": {name: pa.Table.from_pylist(rows)
                                 for name, rows in spec["datasets"].items()}}


def cv_section(model) -> None:
    """The inner cross-validation that chose λ (``lam="auto"``, the rule set): its curve, the
    chosen point, and for two classes the class the clauses describe."""
    cv_results = getattr(model, "cv_results_", None)
    if cv_results is None:
        return
    typed = "rule_type" in cv_results
    several = cv_results["lam"].nunique() > 1
    built = "multiclass" in cv_results and cv_results["multiclass"].nunique() > 1
    chosen = [w for w, on in (("λ", several or not typed), ("rule type", typed),
                               ("thresholds", "n_thresholds" in cv_results),
                               ("list", built)) if on]
    st.subheader((", ".join(chosen[:-1]) + " and " if len(chosen) > 1 else "") + chosen[-1]
                 + " chosen by cross-validation")
    st.plotly_chart(rviz.cv_curve(cv_results), width="stretch", key="cv_chart")
    best = cv_results[cv_results["chosen"]].iloc[0]
    said = f", an **{best['rule_type'].upper()}**-rule" if typed else ""
    if "describe" in best and best["describe"] is not None and not pd.isna(best["describe"]):
        said = f", clauses describing **{best['describe']}**"
    of = " of the whole rule list" if isinstance(model.rule_, RuleList) else ""
    if "n_thresholds" in best:
        said += f", **{int(best['n_thresholds'])}** thresholds per numeric column"
    if built:
        said += (", the list built **class by class** (each class on the rows the earlier "
                 "ones leave)" if best["multiclass"] == "sequential" else
                 ", the list built **one-vs-rest** (one rule set per class, by precision)")
    st.caption(f"Chosen: λ = {best['lam']:.3g}{said}: the lowest mean error{of} over 3 inner "
               f"folds of the training rows ({best['error']:.3f}; ties go to fewer "
               "conditions). Then refitted on all training rows.")
    if timing := cv_timing_words(model, remedy="A longer **Time limit** above"):
        # a fit cut by its time limit depends on the machine's speed: the same settings can
        # give another curve (and choice) on a rerun; said, not left to be found
        st.warning(timing)


def rule_list_results(model, train: np.ndarray, test: np.ndarray) -> None:
    """A rule list over all classes (the rule set on a target with more than two classes)."""
    y = ds.y.to_numpy()
    Xtr, ytr, Xte, yte = ds.X.iloc[train], y[train], ds.X.iloc[test], y[test]
    rules = model.rules_
    pred_tr, pred_te = model.predict(Xtr), model.predict(Xte)
    acc_tr = float(np.mean(pred_tr == ytr))
    acc_te = float(np.mean(pred_te == yte)) if len(yte) else float("nan")
    most, majority_tr, majority = most_frequent_class(ytr, yte)
    show_finding(fit_status(model), f"{len(model.classes_)} classes · "
                 f"{model.n_terms_:,} candidate terms (built on the {len(train):,} "
                 "training rows)")
    if (never := unpredicted_classes(rules, ytr)) is not None:
        show_finding(never)
    if len(yte) and acc_te <= majority:
        st.warning(f"Held-out accuracy {acc_te:.1%} is no better than always predicting the "
                   f"most frequent class, {most} ({majority:.1%} of the held-out rows): the "
                   "rules have not found structure "
                   "that generalises. "
                   + ("Check the features (the cross-validation already tried "
                      f"{', '.join(map(str, THRESHOLD_GRID))} thresholds per column)."
                      if model.n_thresholds == "auto" else
                      "Try more thresholds per column, or check the features."),
                   icon=ICONS["warning"])
    left, right = st.container(key="stack_rule_1").columns([3, 2])
    with left:
        st.subheader("The rule list")
        st.markdown(f"Predict **{as_md(ds.target)}** by the **first** rule that holds; "
                    f"otherwise **{as_md(rules.default)}**.")
        table = model.clause_table(Xtr, ytr)
        table["precision"] = table["precision"].map(fmt_percent)
        table["coverage"] = table["coverage"] * 100
        fits = 200 // CELL_CHAR_PX  # characters of a "medium" column
        st.dataframe(table, hide_index=True, width="stretch", key="rule_list", column_config={
            # narrow numbers, short headers: "precision (train)" ran off the edge (a review)
            "conditions": st.column_config.TextColumn("conditions", width="medium"),
            "coverage": common.share_bar("coverage", help="Share of the training rows where "
                                         "the rule holds (first or not).", width="small"),
            "precision": st.column_config.TextColumn(
                "precision", width="small", help="Share of the training rows where it holds "
                "that are of its class.")})
        # the grid cuts a clause at its column's edge ("…DaysToReturn > 48": a review), so
        # long clauses are written out in full under it
        write_out_if_long(list(map(str, table["conditions"])), fits,
                          then=list(map(str, table["class"])))
    with right:
        st.subheader("Performance")
        a, b = st.columns(2)
        a.metric("Test accuracy", f"{acc_te:.1%}" if len(yte) else "—")
        b.metric("Conditions", rules.n_conditions)
        st.dataframe(pd.DataFrame({"train": [fmt_rate(acc_tr), f"{len(ytr):,}"],
                                   "test": [fmt_rate(acc_te), f"{len(yte):,}"]},
                                  index=["accuracy", "rows"]), width="stretch")
        st.caption(f"Always the most frequent class ({most}): {majority_tr:.1%} of the "
                   "training rows" + (f", {majority:.1%} of the held-out rows." if len(yte)
                                      else "."))
        if len(yte):
            labels = list(model.classes_)
            cm = pd.crosstab(pd.Categorical(yte, labels), pd.Categorical(pred_te, labels),
                             dropna=False).to_numpy()
            st.vega_lite_chart(rviz.confusion_matrix(cm, tuple(map(str, labels)),
                                                     "Confusion matrix (test)"),
                               width="stretch", key="confusion")
    cv_section(model)
    with st.expander("Which rule fires on each row"):
        rule_explore.rows_of_set(rules, ds)

    st.subheader("Check one row")
    ss.setdefault("row", 0)
    if ss["row"] >= ds.n_samples:
        ss["row"] = 0
    row = st.number_input("Row (index in the table)", 0, ds.n_samples - 1, key="row")
    x_row = ds.X.iloc[[row]]
    k = int(model.decision_rule(x_row)[0])
    for t, clause in enumerate(rules.clauses[: (k + 1) if k >= 0 else len(rules.clauses)]):
        expl = clause.explain(x_row)
        marks = " · ".join(f"{'✓' if h else '✗'} `{c}`"
                           for c, h in zip(expl["condition"], expl["holds"]))
        st.markdown(f"{t + 1}. → **{as_md(clause.positive)}**: {marks or as_md(clause)}")
    decided = f"rule {k + 1}" if k >= 0 else "no rule holds: the default"
    verdict = model.predict(x_row)[0]
    st.markdown(f"**Decision: {as_md(verdict)}** ({decided}) "
                f"{'✓ correct' if verdict == y[row] else '✗ wrong'} (true: {as_md(y[row])})")
    rule_explore.export_block(rules, ds)
    rule_explore.apply_block(rules, ds)


@st.fragment
def results() -> None:
    """λ and thresholds sliders, the fit and everything drawn from it."""
    if ss.pop("rerun_page", False):  # a setting above changed from in here (toggle_lam_auto)
        st.rerun()
    a, b = st.columns([3, 2])
    r = ss["rule"]
    with a:
        if r["model"] == "rule set":
            st.markdown("**λ** is chosen by 3-fold cross-validation inside the training rows "
                        "(the chart below the rule).")
        elif r["model"] == "single rule":
            common.lam_slider("lam", disabled=bool(r["lam_auto"]))
            st.toggle("Choose λ by cross-validation", value=bool(r["lam_auto"]), key="lam_auto",
                      on_change=common.toggle_lam_auto,
                      help="λ with the lowest error over 3 inner folds of the training rows. "
                           "The rule is then tuned for accuracy as a whole: the rule type is "
                           "chosen by the same folds (auto), errors are counted per row and "
                           "every row weighs the same (class weights auto = none); you can "
                           "change these below. Measured: mean error 0.211 against 0.262 for "
                           "the fixed-λ checklist defaults on 8 benchmark sets "
                           "(bench/results/single_rule_error.md).")
        else:
            common.lam_slider("lam")
            if r["model"] == "boosting":
                # λ moved to boosting's own scale when the model changed, unsaid (0.5 became
                # 1000: a newcomer's review)
                st.caption("Boosting has its own λ (the clause weights sum to 1, so errors "
                           "count for less: 1000 by default, the paper's); the other models' "
                           "λ is kept for them.")
    if r["model"] == "rule set" and len(ds.classes) > 2 \
            and ss["terms"]["thresholds"] == "quantile":
        # several classes: the rule set's inner CV can choose the count (docs/rulesets.md)
        b.toggle("Thresholds chosen by cross-validation", value=bool(r["auto_thresholds"]),
                 key="auto_thresholds", on_change=common.sync,
                 args=("auto_thresholds", "rule", "auto_thresholds"),
                 help="With more than two classes, the rule set's inner cross-validation tries "
                      f"{', '.join(map(str, THRESHOLD_GRID))} quantile thresholds per numeric "
                      "column with every λ, and keeps the pair with the lowest error. Off: "
                      "the slider's count.")
        if not r["auto_thresholds"]:
            common.thresholds_slider("rule_", b)
    else:
        common.thresholds_slider("rule_", b)

    # ---------------------------------------------------------------- fit
    with common.user_errors():  # the cached fit shows a spinner only when it fits
        fit = common.fitted_rule_model(ds)
    model, train, test = fit.model, fit.train, fit.test
    rule = model.rule_
    if isinstance(rule, RuleList):
        rule_list_results(model, train, test)
        return
    is_set = isinstance(rule, RuleSet)
    Xtr, ytr, Xte, yte = ds.X.iloc[train], ds.y_binary[train], ds.X.iloc[test], ds.y_binary[test]

    claim = fit_status(model)
    pred_tr, pred_te = model.predict(Xtr), model.predict(Xte)  # once per rerun, used below
    # the fits the advice compares with (unweighted, the other rule type), when it can change
    # (each a bounded fit: it only adds advice, and took 14 s beside a 0.1 s rule)
    # above ADVICE_ROWS training rows they wait for a click: on a 50,000-row table they
    # held the rule back for about 20 s (a review)
    advice_key = rule_explore.fit_key(ds, model, train)
    advise = len(train) <= common.ADVICE_ROWS or ss.get("advice_for") == advice_key
    settings = common.rule_settings(ds)
    compared = comparisons(settings, model.class_weight_used_, yte, pred_te,
                           Xte, lambda **changes: common.fitted_rule_model(
                               ds, time_limit=min(float(r["time_limit"]),
                                                  common.COMPARISON_SECONDS), **changes).model
                           ) if advise else {}
    # (rows held out by whole records are judged record by record: report docs)
    records = ds.held_out_records(train, test) if len(test) else None
    findings = assess(ytr, pred_tr, yte, pred_te, positive=ds.positive,
                      class_weight=model.class_weight_used_, features=rule.features, leaks=ds.leaks,
                      lagged=ds.lagged,
                      restated=common.restated(ds.digest, ds),
                      negative=common.negative_label(ds),
                      costs=(getattr(model, "fp_cost", 1.0), getattr(model, "fn_cost", 1.0)),
                      constraints=constraint_words(model),
                      lam_chosen=getattr(model, "lam", None) == "auto",
                      all_midpoints_fit=all_midpoints_fit(Xtr, ds.kinds),
                      conditions=getattr(rule, "conditions", ()),
                      rule_type=getattr(rule, "rule_type", "and"),
                      single_rule=settings.model == "single rule",
                      n_thresholds=ss["terms"]["n_thresholds"], groups=records,
                      **table_facts(ds, ss["terms"]["thresholds"]), **compared)
    # certified, yet not a success: never green next to a warning, nor for a rule no more
    # accurate on held-out rows than always predicting the majority class
    shown = shown_claim(claim, findings, yte, pred_te, say_why=True, groups=records,
                        guessed=ds.target_guessed)
    # a certified rule that is no success: its warnings come first, above the claim (the
    # blue "Certified optimal" box sat above "no better than the majority": a review)
    first = [f for f in findings if f.level == "warning"] if shown.level != claim.level \
        else []
    findings = [f for f in findings if f not in first]
    claim = shown
    extra = [f"{model.n_terms_:,} candidate terms (built on the {len(train):,} training rows)"]
    if model.screening_report_ is not None:
        rep = model.screening_report_
        # terms on forbidden columns never reach screening: "70 candidate terms · kept 62
        # of 62" read as a miscount (a review)
        gone = model.n_terms_ - rep.n_columns
        extra.append(f"certified screening kept {rep.n_kept:,} of {rep.n_columns:,}"
                     + (f" ({gone:,} left out by your constraints first)" if gone > 0 else ""))
    if ds.groups is not None:
        extra.append(f"held-out rows chosen by {ds.held_out_unit}, none also in training")
    for finding in first:
        show_finding(finding)
    show_finding(claim, " · ".join(extra))
    # what a user must know before trusting the rule, right under the solver's claim
    for finding in findings:
        show_finding(finding)
    if not advise and (needs_unweighted_twin(model.class_weight_used_, yte, pred_te)
                       or needs_other_type(settings.model, settings.rule_type, yte, pred_te)):
        st.button("Compare with the same model without class weights / of the other rule "
                  "type", key="rule_advice", icon=":material/compare_arrows:",
                  on_click=lambda: ss.update(advice_for=advice_key),
                  help=f"On more than {common.ADVICE_ROWS:,} training rows these refits (at "
                       f"most {common.COMPARISON_SECONDS:g} s of solving each) wait for this "
                       "click; their results sharpen the advice above.")
    # the leak warning says "leave it out": the button does, and the page refits
    used_leaks = sorted({ds.source_column(f) for f in rule.features if f in ds.leaks})
    for k, col in enumerate(used_leaks):
        st.button(f"Leave out {col} and refit", key=f"rule_leak_{k}", on_click=common.leave_out,
                  args=(col, True), icon=":material/block:",
                  help="Removes the column from the features (as on the Data page, where it "
                       "can be added back).")
    # the next refit would use the next leak: every one the Data page warns of, at once
    every_leak = common.leak_sources(ds)
    if used_leaks and len(every_leak) > len(used_leaks):
        st.button(f"Leave out all {len(every_leak)} possible leaks and refit",
                  key="rule_leak_all", on_click=common.leave_out, args=(every_leak, True),
                  icon=":material/block:",
                  help="Removes " + ", ".join(map(repr, every_leak)) + ", every column the "
                       "Data page warns of, from the features (it can add them back).")

    # ---------------------------------------------------------------- the rule as a checklist
    left, right = st.container(key="stack_rule_2").columns([3, 2])
    with left:
        st.subheader("The rule")
        # a thresholded number reads "predict hours > 34.2 when", not "hours > 34.2 = yes"
        target_line = f"Predict **{as_md(ds.target)}** when " if ds.threshold is not None \
            and str(rule.positive) == "yes" else \
            f"Predict **{as_md(ds.target)} = {as_md(rule.positive)}** when "
        if not is_set:
            # a rule loaded or edited in the editor below is not this one: said here, where
            # the learned rule, its performance and its exports are shown (after loading an
            # alternative the page showed two rules without saying which was which: a review)
            held = ss.get("edit")
            other = Rule.from_json(held["rule"]) if held and \
                held["key"] == rule_explore.fit_key(ds, model, train) else rule
            if other != rule:
                st.caption(":material/edit: The editor (tab *Edit the rule* below) holds "
                           f"another rule, {common.inline_code(str(other))}; this section, "
                           "the performance and the exports are the learned rule's.")
            word = "all" if rule.rule_type == "and" else "any"
            st.markdown(target_line + f"**{word}** of these hold:")
            # the labels, not the 0/1: a positive class written 0 reads a 0/1 y as labels
            table = rule.checklist(Xtr, ds.y.to_numpy()[train])
            table["precision"] = table["precision"].map(fmt_percent)  # "—", never None
            table["support"] = table["support"] * 100  # shown in percent, one decimal
            if len(table):
                def _picked_condition() -> None:  # show its rows in "Rows per condition"
                    rows = ss["checklist"].selection.rows
                    if rows:
                        cond = str(rule.conditions[int(rows[0])])
                        shown = rule_explore.edited_rule(
                            rule_explore.fit_key(ds, model, train), rule)
                        if cond in [str(c) for c in shown.conditions]:
                            ss["prov_cond"] = cond
                            st.toast(f"Rows that `{cond}` rejects: tab *Rows per condition* "
                                     "below.", icon=":material/table_rows:")
                        else:
                            st.toast(f"`{cond}` is not in the edited rule; reset the editor "
                                     "to list its rows.", icon=":material/info:")

                # a long condition (a form's question as the column name) gets a fixed
                # width and is written out in full below: sized to its whole text it pushed
                # support and precision out of sight
                long = max(len(str(c)) for c in table["condition"]) > LONG_CONDITION
                st.dataframe(table, hide_index=True, width="stretch", key="checklist",
                             on_select=_picked_condition, selection_mode="single-row",
                             column_config={
                                 "condition": st.column_config.TextColumn(
                                     "condition", width="medium" if long else None),
                                 # "precision (train)" was cut to "precision (trai" in
                                 # a column this narrow (a review): the split in the help
                                 "support": common.share_bar(
                                     "support", help="Share of the training rows where the "
                                     "condition holds."),
                                 "precision": st.column_config.TextColumn(
                                     "precision", width="small",
                                     help="Share of the training rows where the condition "
                                          "holds that are of the positive class.")})
                write_out_if_long(list(map(str, table["condition"])), LONG_CONDITION)
                st.caption("Click a condition to list the rows it rejects (tab *Rows per "
                           "condition* below).")
            else:
                # "the rule is FALSE (no row)" was hard to read (a review)
                every = rule.rule_type == "and"
                st.info(f"No condition: the rule predicts {rule.target} = "
                        f"{format_value(rule.positive)} for "
                        + ("every row (an AND of no condition always holds)." if every else
                           "no row (an OR of no condition never holds)."),
                        icon=":material/info:")
        elif not rule.clauses:
            # the other class for every row: the positive one when the set describes the
            # negative class (RuleSetClassifier's describe)
            other = ds.negative_label if str(rule.positive) == str(ds.positive) \
                else ds.positive
            st.info(f"No clause: the rule set predicts **{other}** for every row.",
                    icon=":material/info:")
        else:
            st.markdown(target_line + ("any clause holds:" if not rule.weighted else
                                       "the votes of the clauses that hold sum to more than 0:"))
            clauses = model.clause_table(Xtr, ytr)
            if "class" in clauses:  # RuleSetClassifier: the class is the DNF's, said above
                clauses = clauses.drop(columns="class")
            clauses["precision"] = clauses["precision"].map(fmt_percent)
            clauses["coverage"] = clauses["coverage"] * 100
            # narrow number columns and short headers, the split in the help: "precision
            # (train)" ran off the table's right edge as "pr…" (a newcomer's review)
            left = CLAUSE_GRID_PX - SMALL_PX * (clauses.shape[1] - 1)  # "medium" is 200 px
            st.dataframe(clauses, hide_index=True, width="stretch",
                         key="clauses", column_config={
                             "clause": st.column_config.NumberColumn("clause", width="small"),
                             "conditions": st.column_config.TextColumn(
                                 "conditions", width=left),
                             "size": st.column_config.NumberColumn("size", width="small"),
                             "coverage": common.share_bar(
                                 "coverage", help="Share of the training rows where the "
                                 "clause holds.", width="small"),
                             "precision": st.column_config.TextColumn(
                                 "precision", width="small",
                                 help="Share of the training rows where the clause holds "
                                      "that are of its class."),
                             "weight": st.column_config.NumberColumn("vote", format="%.3f",
                                                                     width="small")})
            write_out_if_long(list(map(str, clauses["conditions"])), left // CELL_CHAR_PX)
            # the other class said, as the text export says it: a set describing class 0
            # under "Predict is_fraud = 0" read as contradicting the target (a stranger's)
            other = ds.negative_label if str(rule.positive) == str(ds.positive) \
                else ds.positive
            st.markdown(f"Otherwise **{as_md(ds.target)} = {as_md(other)}**.")
        # a rule on 'DP03_0062E' says nothing to a reader without the file's labels
        common.labels_caption(ds, [*rule.features, ds.target_column])

    with right:
        st.subheader("Performance")
        mtr, mte = binary_metrics(ytr, pred_tr), binary_metrics(yte, pred_te)
        perf = pd.DataFrame(
            {split: [fmt_rate(m["accuracy"]), fmt_rate(m["balanced_accuracy"]),
                     fmt_rate(m["majority"]), fmt_rate(m["precision"]), fmt_rate(m["recall"]),
                     f"{m['n']:,}"] for split, m in (("train", mtr), ("test", mte))},
            index=["accuracy", "balanced accuracy", "always the majority class", "precision",
                   "recall", "rows"])
        # the accuracy's delta needs the room ("+5.3 pts vs majority (within luck)" was cut
        # to "(wi…" in half of the column: a review); the count of conditions does not
        a, b = st.columns([3, 1])
        # beside the majority class's accuracy: 94.3 % reads as good where 97.5 % is free
        # a gain that rounds to nothing gets no arrow and no colour: "↑ +0.0" in green read
        # as a gain under a model that predicts the majority class (a newcomer's review)
        # a gain within luck is grey, and says so: "+0.5 pts" in green over a rule right on
        # 11 of its 20 picks read as a success (a review)
        gain, clear = gain_over_majority(yte, pred_te, records)
        a.metric("Test accuracy", f"{mte['accuracy']:.1%}",
                 delta=("same as majority" if not gain else f"{gain:+.1f} pts vs majority"
                        + ("" if clear else " (within luck)")),
                 delta_color="normal" if gain and clear else "off",
                 delta_arrow="auto" if gain else "off",
                 help="The change against always predicting the majority class of the "
                      "held-out rows; 'within luck' when a rule firing at random on as many "
                      "rows could gain as much (a sign test on the rows it changes; where "
                      "rows were held out by whole records, each record counts once).")
        b.metric("Conditions", rule.n_conditions if is_set else len(rule))
        st.dataframe(perf, width="stretch")
        st.vega_lite_chart(rviz.confusion_matrix(mte["confusion"], (common.negative_label(ds),
                                                                    str(ds.positive)),
                                                 "Confusion matrix (test)"),
                           width="stretch", key="confusion")


    cv_section(model)

    # ---------------------------------------------------------------- one row
    def row_check(checked=None) -> None:
        """Every condition of ``checked`` (the rule in the editor; the learned rule when
        None) on one row, and the decision."""
        st.subheader("Check one row")
        ss.setdefault("row", 0)
        if ss["row"] >= ds.n_samples:  # the data changed under a remembered row
            ss["row"] = 0
        pick, show = st.columns([1, 3])

        def _picked() -> None:
            rows = ss["row_table"].selection.rows
            if rows:
                ss["row"] = int(rows[0])

        # The table is sent only when asked for: it is the heaviest element of a rerun.
        if st.toggle("Pick a row from the table", key="row_pick_table"):
            st.dataframe(pd.concat([t for t in (ds.ids, ds.X, ds.y) if t is not None], axis=1),
                         key="row_table", on_select=_picked,
                         selection_mode="single-row", height=250, width="stretch")
        with pick:
            row = st.number_input("Row (index in the table)", 0, ds.n_samples - 1, key="row")
            where = "test" if row in set(test) else "train"
            names = common.row_names(ds, row)
            st.caption(f"Row {row}{f' ({names})' if names else ''} is in the **{where}** "
                       f"split. True class: **{as_md(ds.y.iloc[row])}**. "
                       + common.row_numbering(ds))
        with show:
            x_row = ds.X.iloc[[row]]
            edited = checked is not None and checked != rule
            shown = checked if edited else rule
            clauses = shown.clauses if is_set else (shown,)
            for k, clause in enumerate(clauses):
                if is_set:
                    vote = f" (vote {shown.weights[k]:+.3f})" if shown.weighted else ""
                    st.markdown(f"**Clause {k + 1}**{vote}")
                expl = clause.explain(x_row)
                # the value in the condition's unit, as its threshold is written ("45.81 h")
                lines = [f"{'✓' if h else '✗'} `{c}` — value: "
                         + ("missing" if v is None or pd.isna(v) else
                            f"{format_value(v)} {t.unit}".strip() if t.numeric else
                            format_value(v))
                         for t, c, v, h in zip(clause.conditions, expl["condition"],
                                               expl["value"], expl["holds"])]
                st.markdown("\n\n".join(lines) if lines else str(clause))

            def verdict(fires: bool) -> str:
                return as_md(ds.positive if fires else common.negative_label(ds))

            learned = bool(model.predict(x_row)[0] == model.classes_[1])
            decision = bool(shown.predict(x_row)[0]) if edited else learned
            right_answer = int(decision) == ds.y_binary[row]
            st.markdown(f"**Decision{' of the edited rule' if edited else ''}: "
                        f"{verdict(decision)}** "
                        f"{'✓ correct' if right_answer else '✗ wrong'} "
                        f"(true: {as_md(ds.y.iloc[row])})")
            if edited:
                st.caption(f"These are the conditions of the rule in *Edit the rule*. The "
                           f"learned rule decides **{verdict(learned)}** on this row.")

    # ---------------------------------------------------------------- argue with the optimum
    # Fragments: an edit reruns only the editor, its scores and the row check, not the fit.
    if not is_set:
        key = rule_explore.fit_key(ds, model, train)
        settings = common.rule_settings(ds)

        @st.fragment
        def explore() -> None:
            edit_tab, alt_tab, stab_tab, rows_tab = st.tabs(
                ["Edit the rule", "Alternatives", "Stability", "Rows per condition"])
            with edit_tab:
                rule_explore.editor(key, model, ds, train, test)
            with alt_tab:
                rule_explore.alternatives(key, model, ds, train, test)
            with stab_tab:
                rule_explore.stability(ds, settings, model.rule_, int(r["seed"]))
            with rows_tab:
                shown = rule_explore.edited_rule(key, rule)
                rule_explore.rows_of_rule(shown, ds, train, edited=shown != rule)
            # in this fragment, so that the row check follows every edit (picking a row
            # reruns the editor too, which only scores the edited rule)
            row_check(rule_explore.edited_rule(key, rule))

        explore()
    else:
        with st.expander("Which clause fires on each row"):
            rule_explore.rows_of_set(rule, ds)
        # Fragment: picking a row reruns only the row check, not the fit.
        st.fragment(row_check)()

    # ---------------------------------------------------------------- scatter
    @st.fragment
    def rule_region() -> None:
        numeric = [c for c, k in ds.kinds.items() if k == "numeric"]
        if len(numeric) >= 2 and not is_set:
            st.subheader("Rule region")
            used = [f for f in rule.features if f in numeric]
            defaults = (used + [c for c in numeric if c not in used])[:2]
            a, b = st.columns(2)
            fx = a.selectbox("x axis", numeric, index=numeric.index(defaults[0]), key="fx")
            fy = b.selectbox("y axis", numeric, index=numeric.index(defaults[1]), key="fy")
            # Vega-Lite, not plotly: this chart changes on most slider moves (see rule_region)
            st.vega_lite_chart(region_chart(ds.digest, rule.to_json(None), fx, fy, _ds=ds),
                               width="stretch", key="scatter")
            if not {fx, fy} & set(rule.features):
                st.caption("The rule has no condition on these two columns, so no region is "
                           "shaded: choose the columns it uses as axes to see its region.")
            elif len(set(rule.features) - {fx, fy}):
                st.caption("Shaded: where the rule's conditions on these two columns hold. Its "
                           "other conditions are not drawn; a row inside the shading that "
                           "fails one of them is predicted negative.")

    rule_region()

    # ---------------------------------------------------------------- λ path
    if not is_set and r["model"] == "single rule" and r["lam_auto"]:
        st.subheader("λ path")
        st.caption("λ was chosen by cross-validation (the chart above). Turn off *Choose λ by "
                   "cross-validation* to explore λ by hand along the path.")
    elif not is_set:
        st.subheader("λ path")
        # the single rule of the current settings, at every λ of the slider
        single = common.rule_settings(ds).replace(model="single rule").estimator()
        params = {k: v for k, v in single.get_params().items() if k != "lam"}
        path_key = (ds.digest, tuple(sorted((k, str(v)) for k, v in params.items())),
                    float(r["test_size"]), int(r["seed"]))
        paths = ss.setdefault("lam_paths", {})
        if path_key not in paths:
            # the button sits in a slot it leaves once pressed: drawn above the finished
            # chart it stayed until the next rerun (a review)
            slot = st.empty()
            if slot.button("Compute the λ path", key="compute_path",
                           help=f"One fit per λ ({len(common.LAMS)} values), on the same "
                                "terms."):
                slot.empty()
                bar = st.progress(0.0, text="Fitting rules along the λ grid...")
                with common.user_errors():
                    paths[path_key] = lambda_path(
                        Xtr, ytr, np.asarray(common.LAMS), Xte, yte,
                        progress=lambda i, n: bar.progress(i / n, text=f"λ {i}/{n}"), **params)
                bar.empty()
                if len(paths) > 8:  # keep the session's memory bounded
                    paths.pop(next(iter(paths)))
        if path_key in paths:
            path = paths[path_key]
            event = st.plotly_chart(rviz.lambda_path(path, float(r["lam"])), width="stretch",
                                    key="path_chart", on_select="rerun", selection_mode="points")
            picked = (event or {}).get("selection", {}).get("points", []) if event else []
            if picked:
                lam_new = float(picked[0]["x"])
                if abs(lam_new - float(r["lam"])) > 1e-12:
                    ss["rule"] = {**r, "lam": lam_new}
                    ss.pop("lam", None)
                    st.rerun()
            st.caption("Click a point to load the rule learned at that λ.")
            # in words, not the frame's column names (a stranger's review: lam, train_error)
            st.dataframe(path[["lam", "conditions", "train_error", "test_error", "status", "rule"]],
                         hide_index=True, width="stretch", key="path_table", column_config={
                             "lam": st.column_config.NumberColumn("λ", format="%.3g"),
                             "train_error": st.column_config.NumberColumn("train error",
                                                                          format="%.3f"),
                             "test_error": st.column_config.NumberColumn("test error",
                                                                         format="%.3f"),
                             "status": "solver status"})

    # ---------------------------------------------------------------- export
    @st.fragment
    def export() -> None:
        # the edited rule has its own export in the editor
        rule_explore.export_block(rule, ds,
                                  title="Export" if is_set else "Export the learned rule")
        rule_explore.apply_block(rule, ds)

    export()


results()
