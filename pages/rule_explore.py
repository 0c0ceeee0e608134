"""The Rule page's exploration of a single rule: edit it, list its alternatives, check its
stability, and see which rows each condition rejects (docs/clause.md, "Arguing with the
optimum").  Widgets only: scores come from :mod:`rulecore.rules.editing`, alternatives from
the estimator, stability from :mod:`rulecore.rules.stability`, charts from
:mod:`rulecore.viz`."""

from __future__ import annotations

import functools
import hashlib
import io
import time

import numpy as np
import pandas as pd
import streamlit as st

from pages import common
from rulecore import progress
from rulecore.data import MAX_BYTES, read_csv_frame, written_delimiter
from rulecore.exceptions import RulecoreError
from rulecore.metrics import fmt_percent
from rulecore.report import clearly_above_majority
from rulecore.rules.editing import (
    SCORE_ROWS,
    SHARE_ROWS,
    certified,
    clause_rows,
    decisive_rows,
    distance_words,
    rejected_rows,
    score_rules,
    term_choices,
)
from rulecore.rules.rule import EXPORT_FORMATS, Rule, RuleList, safe_csv
from rulecore.scoring import Scored, apply_rule, load_rule

ss = st.session_state


def fit_key(ds, model, train: np.ndarray) -> str:
    """Identifies one fit in this session: the data, the training rows and the learned rule.
    (Without the rows, alternatives found on one split stayed listed, "certified", after
    the seed changed the split: a review.)"""
    rows = hashlib.sha1(np.ascontiguousarray(train, dtype=np.int64).tobytes()).hexdigest()
    text = f"{ds.digest}|{rows}|{model.rule_.to_json(None)}|{model.lam_}|{model.get_params()}"
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def edited_rule(key: str, learned: Rule) -> Rule:
    """The rule in the editor for the fit ``key`` (the learned rule until edited)."""
    state = ss.get("edit")
    if state is None or state["key"] != key:
        # the version never repeats, so no widget of an earlier fit's editor is reused
        version = 0 if state is None else state["version"] + 1
        ss["edit"] = state = {"key": key, "rule": learned.to_json(None), "version": version}
    return Rule.from_json(state["rule"])


def set_edited(rule: Rule) -> None:
    """Put ``rule`` in the editor; new widget keys so every widget shows it afresh."""
    ss["edit"] = {**ss["edit"], "rule": rule.to_json(None), "version": ss["edit"]["version"] + 1}


def _stamp() -> str:
    """Suffix of the editor's widget keys: the fit and the edit they were drawn for."""
    return f"{ss['edit']['key']}_{ss['edit']['version']}"


def _current(stamp: str) -> bool:
    """Whether a widget drawn with ``stamp`` belongs to the editor as it is now (a second
    callback in the same rerun comes from widgets the first one made stale)."""
    return "edit" in ss and stamp == _stamp()


def export_block(rule, ds=None, prefix: str = "", title: str = "Export") -> None:
    """The export formats of a rule, rule set or rule list, with a download button
    (``prefix`` keeps the widget keys and file names of two export blocks apart).  With the
    dataset ``ds``, the exports say how the cells of the rule's columns were read."""
    st.subheader(title)
    fmt = st.radio("Format", list(EXPORT_FORMATS), horizontal=True, key=f"{prefix}export_fmt")
    notes = ds.notes_for(rule.features) if ds is not None else []
    text = rule.export(fmt, notes, ds.reading if ds is not None else None)
    if notes and fmt == "json":
        read = [c for c in rule.features if ds.notes_for([c])]
        st.caption("The rule compares the values as read (see the Data page's notes on "
                   f"{', '.join(map(repr, read))}); the other formats say how.")
    # long lines wrap on screen (a rule set's text, a note, the SQL's comment ran past the
    # box's right edge and hid its "*/"); the download keeps them as they are
    st.code(text, language={"json": "json", "sql": "sql", "python": "python",
                            "markdown": "markdown"}.get(fmt, "text"), wrap_lines=True)
    ext, mime = EXPORT_FORMATS[fmt]
    # a file ends in a newline, as the command line writes it (a review: byte-identical but
    # for the last one)
    st.download_button(f"Download {prefix}rule.{ext}", text if text.endswith("\n") else
                       text + "\n", file_name=f"{prefix}rule.{ext}",
                       mime=mime, key=f"{prefix}dl_rule", icon=":material/download:")


@st.cache_data(scope="session", max_entries=4, show_spinner="Applying the rule...")
def _applied(digest: str, name: str, rule_json: str, zero_missing: tuple, keep_codes: tuple,
             _data: bytes) -> tuple[pd.DataFrame, Scored]:
    """The uploaded table and the rule applied to it (this user's data: this session's
    cache only)."""
    frame, name = read_csv_frame(io.BytesIO(_data), name=name)
    return frame, apply_rule(load_rule(rule_json), frame, typed=False,
                             zero_missing=zero_missing, keep_codes=keep_codes, name=name)


def apply_block(rule, ds) -> None:
    """Apply the rule to another table: next month's extract, read as this one was
    (:mod:`rulecore.scoring`), every row predicted, what differs said; the table back with
    the prediction as CSV."""
    st.subheader("Apply to another table")
    st.caption("Upload a table with the same columns (next month's extract, a few new "
               "rows): its cells are read as this table's were, every row gets the rule's "
               "prediction, and anything that looks different from this table is pointed "
               "out. Kept in this session only.")
    up = st.file_uploader("Table to apply the rule to", key="apply_upload",
                          max_upload_size=MAX_BYTES // 2**20)
    if up is None:
        return
    data = up.getvalue()
    digest = hashlib.sha1(data).hexdigest()
    try:
        frame, scored = _applied(digest, up.name, rule.to_json(None),
                                 tuple(getattr(ds, "zero_missing", ())),
                                 tuple(getattr(ds, "codes_kept", ())), _data=data)
    except RulecoreError as exc:
        st.error(common.md(exc))
        return
    a, b, c = st.columns(3)
    a.metric("Rows", f"{len(frame):,}")
    if not isinstance(rule, RuleList):
        b.metric("The rule holds for", f"{int(scored.fires.sum()):,} rows",
                 help=f"{fmt_percent(scored.fires.mean())} of the rows")
    m = scored.metrics
    if m:
        gain = 100 * (m["accuracy"] - m["majority"])
        c.metric(f"Accuracy on its {rule.target}", fmt_percent(m["accuracy"]),
                 f"{gain:+.1f} pts vs majority", delta_color="normal",
                 help=f"{m['rows']:,} rows with a value; always the most frequent class: "
                      f"{fmt_percent(m['majority'])}")
    for w in scored.warnings:
        st.warning(common.md(w))
    for n in scored.notes:
        st.caption(common.md(n))
    parts = scored.parts.assign(share=scored.parts["share"].map(fmt_percent))
    what = "rule" if isinstance(rule, RuleList) else "condition" if isinstance(rule, Rule) \
        else "clause"
    st.dataframe(parts.rename(columns={"part": what, "rows": "rows it holds for"}),
                 hide_index=True, width="stretch")
    table = scored.table(frame)
    st.dataframe(table.head(1000), width="stretch")
    stem = up.name.rsplit(".", 1)[0] or "table"
    st.download_button(f"Download {stem} with '{scored.prediction.name}' (CSV)",
                       functools.partial(safe_csv, table, index=False,
                                         sep=written_delimiter(frame)),
                       file_name=f"{stem}_scored.csv",
                       mime="text/csv", key="apply_dl", icon=":material/download:")


def _format_scores(table: pd.DataFrame, proved: bool = True) -> pd.DataFrame:
    """The scores for a person; without a certified optimum the last row is the distance to
    the learned rule, named so (an LP-rounded rule is no optimum: a newcomer's review)."""
    shares = set(SCORE_ROWS[:SHARE_ROWS])
    out = table.astype(object)
    for name in table.index:
        for col in table.columns:
            v = table.loc[name, col]
            if name == "above the optimum" and abs(v) < 1e-9:
                v = 0.0  # the same objective, counted two ways (round-off)
            out.loc[name, col] = fmt_percent(v) if name in shares else (
                f"{int(v)}" if name == "conditions" else
                ("—" if not np.isfinite(v) else f"{v:+.4g}" if name == "above the optimum"
                 else f"{v:.4g}"))
    if not proved:
        out = out.rename(index={"above the optimum": "above the learned rule"})
    return out


def editor(key: str, model, ds, train: np.ndarray, test: np.ndarray) -> Rule:
    """Edit the learned rule's conditions and see the scores change; returns the edited rule."""
    learned = model.rule_
    rule = edited_rule(key, learned)
    stamp = _stamp()
    terms = list(model.binarizer_.terms_)
    st.caption("Change a condition's operator or threshold (the choices are the candidate "
               "terms on its column), remove one, or add one. Each edit is scored at once on "
               "the training and held-out rows, with the objective the fit minimised.")
    for k, cond in enumerate(rule.conditions):
        a, b = st.columns([5, 1], vertical_alignment="bottom")
        choices = term_choices(model.binarizer_, cond.feature, cond)

        def _changed(k: int, stamp: str) -> None:
            if _current(stamp):
                new = ss[f"edit_cond_{k}_{stamp}"]
                set_edited(edited_rule(key, learned).with_condition(new, k))

        def _removed(k: int, stamp: str) -> None:
            if _current(stamp):
                set_edited(edited_rule(key, learned).without(k))

        a.selectbox(f"Condition {k + 1} on {cond.feature}", choices, index=choices.index(cond),
                    format_func=str, key=f"edit_cond_{k}_{stamp}", on_change=_changed,
                    args=(k, stamp))
        b.button("Remove", key=f"edit_rm_{k}_{stamp}", icon=":material/delete:",
                 on_click=_removed, args=(k, stamp))
    if not rule.conditions:
        # the checklist above says what the rule is; here, what can be done with it
        st.caption(f"No condition to edit (the rule is {rule}): add one below.")

    def _added(stamp: str) -> None:
        new = ss[f"edit_add_{stamp}"]
        if new is not None and _current(stamp):
            set_edited(edited_rule(key, learned).with_condition(new))

    a, b = st.columns([5, 1], vertical_alignment="bottom")
    a.selectbox("Add a condition", terms, index=None, format_func=str,
                placeholder="Pick a term to add", key=f"edit_add_{stamp}", on_change=_added,
                args=(stamp,))
    b.button("Reset", key="edit_reset", icon=":material/restart_alt:",
             on_click=lambda: set_edited(learned), disabled=rule == learned,
             help="Back to the learned rule" + (" (the certified optimum)." if
                                                certified(model) else "."))

    ytr, yte = ds.y_binary[train], ds.y_binary[test]
    Xtr, Xte = ds.X.iloc[train], ds.X.iloc[test]
    free = unconstrained(model, ds, len(train))
    with common.user_errors(stop=False):
        shown = {"learned": learned, "edited": rule}
        if free is not None:
            shown["without your constraints"] = free.rule_
        scores = score_rules(model, shown, Xtr, ytr,
                             Xte if len(test) else None, yte if len(test) else None)
        st.dataframe(_format_scores(scores, certified(model)),
                     width="stretch", key="edit_scores",
                     height=35 * (len(SCORE_ROWS) + 1) + 3)  # every row, no inner scroll
        obj = float(scores.loc["objective", "edited"])
        st.markdown(f"Edited rule: objective **{obj:.4g}**, "
                    f"{distance_words(model, obj, rule)}.")
        if free is not None:
            cost = model.objective_ - float(scores.loc["objective", "without your constraints"])
            cost = 0.0 if abs(cost) < 1e-9 * max(1.0, abs(model.objective_)) else cost
            proved = certified(model) and certified(free)
            st.markdown(
                f"Your constraints ({model.constraints_.words()}) cost **{cost:.4g}** in the "
                f"objective: without them the {'certified ' if proved else ''}best rule is "
                f"{common.inline_code(str(free.rule_))}"
                + (f", {fmt_percent(scores.loc['test accuracy', 'without your constraints'])}"
                   f" on the held-out rows against "
                   f"{fmt_percent(scores.loc['test accuracy', 'learned'])}" if len(test)
                   else "") + ".")
        majority = max(float(np.mean(ytr)), 1 - float(np.mean(ytr)))
        if rule == learned:
            pass  # the learned rule's own warnings are shown above, with the fit
        elif scores.loc["coverage (train)", "edited"] == 0:
            st.warning("The edited rule fires on no training row: it always predicts the "
                       "other class.", icon=":material/warning:")
        elif scores.loc["train accuracy", "edited"] <= majority:
            st.warning(f"The edited rule is no better on the training rows than always "
                       f"predicting the majority class ({majority:.1%}).",
                       icon=":material/warning:")
        elif len(test) and not clearly_above_majority(yte, rule.predict(Xte).astype(int),
                                                      ds.held_out_records(train, test)):
            # the held-out rows, as the learned rule is judged (the editor read only the
            # training rows: a review)
            held = max(float(np.mean(yte)), 1 - float(np.mean(yte)))
            st.warning(f"The edited rule is not clearly better on the held-out rows than "
                       f"always predicting the majority class ({held:.1%} of them).",
                       icon=":material/warning:")
    if rule != learned:
        # an edit reruns this part of the page only: say which rule each part shows (the
        # checklist's own note and the region chart waited for the next full rerun: a review)
        st.caption(":material/edit: The edited rule is used here, in *Check one row* and in "
                   "*Rows per condition*; the checklist, performance, rule region and export "
                   "above are the learned rule's.")
        export_block(rule, ds, prefix="edited_", title="Export the edited rule")
    return rule


def unconstrained(model, ds, n_train: int):
    """The same fit without the analyst's constraints (Must use, Must not use, Max
    conditions), to say what they cost; None without constraints, or on a large table until
    asked (as the advice's fits), or when the fit fails.  A review: nothing showed what a
    constraint costs, the only question it asks."""
    constraints = getattr(model, "constraints_", None)
    if not constraints:
        return None
    changes = {k: v for k, v, on in (("require", (), bool(constraints.require)),
                                     ("forbid", (), bool(constraints.forbid)),
                                     ("max_conditions", None,
                                      constraints.max_conditions is not None)) if on}
    # the same objective: λ, rule type and error count as the constrained fit chose them
    # (with λ by cross-validation the refit chose its own, and the "cost" came out -1.8: an
    # adversarial review)
    changes.update(lam=float(model.lam_), rule_type=model.rule_type_,
                   error=getattr(model, "error_", "hamming"))
    # the whole fit in the key: one click must not refit every later setting of a large
    # table (an adversarial review)
    key = ("free", ds.digest, repr(sorted(model.get_params().items())), float(model.lam_),
           n_train)
    if n_train > common.ADVICE_ROWS and ss.get("free_for") != key:
        st.button("What do my constraints cost?", key="free_go",
                  on_click=lambda: ss.update(free_for=key),
                  help="Fits the same rule without Must use, Must not use and Max conditions.")
        return None
    with common.user_errors(stop=False):
        return common.fitted_rule_model(ds, **changes).model
    return None


#: Characters of a rule or a difference past which the alternatives are written out too.
LONG_ALTERNATIVE = 40


def _differs(base: Rule, other: Rule) -> str:
    gone = [f"− {c}" for c in base.conditions if c not in other.conditions]
    new = [f"+ {c}" for c in other.conditions if c not in base.conditions]
    return ", ".join(gone + new) or "(the learned rule)"


def alternatives(key: str, model, ds, train: np.ndarray, test: np.ndarray) -> None:
    """The near-optimal set: a table; a click loads a rule into the editor."""
    if getattr(model, "error_", "hamming") == "exact":  # its MIP proves each alternative
        st.info("Alternatives are searched with errors counted per condition, whose MIP "
                "proves each one; this rule counts each wrong row once. Choose *Errors "
                "counted: per condition* above to list them.", icon=":material/info:")
        return
    st.caption("The best rules that classify the training rows differently from each other, "
               "each the cheapest rule with its predictions, in the order the search finds "
               "them: by the fit's objective, unless a solve stopped at its time limit "
               "(certified when proved). The first is the learned rule. Click a row to load "
               "it into the editor.")
    a, b = st.columns([1, 3], vertical_alignment="bottom")
    k = a.number_input("How many", 2, 20, 5, key="alt_k")
    found = ss.setdefault("alternatives", {})
    if b.button("Find alternatives", key="alt_go", icon=":material/alt_route:"):
        title = f"Searching the {k - 1} next-best rules (one exact solve each)"
        with st.status(f"{title}...", expanded=True) as box:
            # each solve says which one runs, with the seconds so far: on 200,000 rows the
            # box read only its title for minutes (a newcomer's review)
            log, t0 = st.empty(), time.perf_counter()

            def show(message: str) -> None:
                box.update(label=f"{message} ({time.perf_counter() - t0:.0f} s)")
                log.markdown(message)

            with common.user_errors(stop=False), progress.listening(show):
                found[(key, k)] = model.alternatives(ds.X.iloc[train], ds.y_binary[train], k=k)
                box.update(label=f"{len(found[(key, k)])} rules found", state="complete",
                           expanded=False)
        while len(found) > 8:
            found.pop(next(iter(found)))
    alts = found.get((key, k))
    if not alts:
        return
    # the learned rule's own objective: the list's first entry may be its cheaper twin
    twin = alts[0].rule != model.rule_
    learned_obj = float(getattr(model, "objective_", alts[0].objective))
    Xte, yte = ds.X.iloc[test], ds.y_binary[test]
    acc = [float(np.mean(a.rule.predict(Xte) == yte)) if len(test) else np.nan for a in alts]
    table = pd.DataFrame({
        "rank": range(1, len(alts) + 1),
        # four significant digits, as the claim above writes it (227.2659 beside 227.3 read
        # as two figures: a stranger's review)
        "objective": [float(f"{a.objective:.4g}") for a in alts],
        # the distance to the learned rule, signed: an LP-rounded rule can cost more than the
        # alternatives the MIP finds (a review read "+-8.527" under "gap to best")
        "vs learned rule": ["—" if not twin else f"{alts[0].objective - learned_obj:+.4g}"]
        + [f"{a.objective - learned_obj:+.4g}" for a in alts[1:]],
        "certified": ["yes" if a.certified else a.claim for a in alts],
        "held-out accuracy": [fmt_percent(v) for v in acc],
        "rule": [str(a.rule) for a in alts],
        "differs from the learned rule": [_differs(model.rule_, a.rule) for a in alts]})

    def _load() -> None:
        rows = ss["alt_table"].selection.rows
        if rows:
            edited_rule(key, model.rule_)
            set_edited(alts[int(rows[0])].rule)
            st.toast(f"Alternative {int(rows[0]) + 1} loaded into the editor (tab *Edit the "
                     "rule*).", icon=":material/edit:")

    cheaper = sum(a.objective < learned_obj - 1e-9 for a in alts[1:])
    if cheaper:
        # the learned rule came from LP rounding or a stopped MIP: it is no optimum, and the
        # list must not read as if it were
        st.warning(f"{cheaper} of these cost less than the learned rule, which is not "
                   f"proved optimal ({alts[0].claim}): choose the MIP solver (or a longer "
                   "time limit) for a certified rule.", icon=":material/warning:")
    if twin:
        # a condition that changes no prediction (LP rounding, a stopped solve): the search
        # proved a cheaper rule with the same predictions (alternatives, "carried bounds")
        st.caption("The first rule predicts as the learned rule does, on every training row, "
                   f"at a lower objective ({alts[0].objective:.4g} against {learned_obj:.4g})"
                   + (": it is the certified optimum." if alts[0].certified else "."))
    elif alts[0].certified and not certified(model):
        # a later solve that closed carries its bound back (docs/clause.md, "Alternatives")
        st.caption("The alternatives' solves proved the learned rule optimal, which its own "
                   "fit had not: no clause with other predictions costs less.")
    if len(test) and len(alts) > 1:
        better = sum(a > acc[0] + 1e-12 for a in acc[1:])
        if better:
            optimal = ("it is optimal for the objective on the training rows, which does "
                       "not promise" if alts[0].certified else "the objective on the "
                       "training rows does not promise")
            st.caption(f"{better} of these {'does' if better == 1 else 'do'} better on the "
                       "held-out rows than the learned "
                       f"rule: {optimal} the best held-out accuracy. The Stability tab shows "
                       "how much the rule itself moves between folds.")
    st.dataframe(table, hide_index=True, width="stretch", key="alt_table", on_select=_load,
                 selection_mode="single-row", column_config={
                     "rule": st.column_config.TextColumn("rule", width="large"),
                     "differs from the learned rule": st.column_config.TextColumn(
                         "differs from the learned rule", width="large")})
    # the grid cuts a rule of three conditions ("... AND petal widt") and its difference ran
    # off the edge (a review): long ones are written out under it
    rules, diffs = table["rule"].tolist(), table["differs from the learned rule"].tolist()
    if max(len(t) for t in rules + diffs) > LONG_ALTERNATIVE:
        st.markdown("\n".join(f"{k}. {common.inline_code(r)}"
                              + ("" if k == 1 else f" (differs: {common.inline_code(d)})")
                              for k, (r, d) in enumerate(zip(rules, diffs), 1)))


def stability(ds, settings, learned: Rule | None = None, seed: int = 0) -> None:
    """Refit on cross-validation folds of the whole table; chart how often each condition
    comes back, and where the ``learned`` rule's conditions stand (the folds are drawn with
    the page's ``seed``)."""
    from rulecore.fit import multiclass, stability_on
    from rulecore.rules.stability import where_learned
    from rulecore.viz.stability import stability_figure

    unit = ds.held_out_unit
    st.caption("Refits the same settings on cross-validation folds of the whole table (drawn "
               "with the seed above) and counts how often each condition (column and "
               "direction, nearby thresholds grouped) comes back."
               + (f" Each fold holds out {unit}, none also fitted on." if unit else ""))
    a, b = st.columns([1, 3], vertical_alignment="bottom")
    folds = a.number_input("Folds", 3, 10, 5, key="stab_folds")
    results = ss.setdefault("stability", {})
    skey = (ds.digest, settings, int(folds), int(seed))
    if b.button("Check stability", key="stab_go", icon=":material/query_stats:"):
        bar = st.progress(0.0, text=f"Refitting on {folds} folds...")
        with common.user_errors(stop=False):
            # sequential: each refit's HiGHS already uses the core, and the bar moves per fold
            results[skey] = stability_on(
                settings, ds, n_splits=int(folds), random_state=int(seed),
                backend="sequential",
                progress=lambda i, n: bar.progress(i / n, text=f"fold {i} of {n}"))
        bar.empty()
        while len(results) > 4:
            results.pop(next(iter(results)))
    res = results.get(skey)
    if res is None:
        return
    c1, c2 = st.columns(2)
    c1.metric("Stability score", f"{res.score:.2f}",
              help="Mean Jaccard similarity of the folds' condition sets: 1 = every fold "
                   "learns the same conditions.")
    # beside what always predicting the majority class errs: "19.0% ± 2.0%" read as fine
    # where the majority errs 10% (a review)
    y = ds.y.to_numpy() if multiclass(settings, ds) else ds.y_binary  # as the folds fit
    majority = 1.0 - np.bincount(pd.factorize(y)[0]).max() / len(y)
    c2.metric("Held-out error", f"{res.error_mean:.1%} ± {res.error_std:.1%}",
              delta=f"majority class: {majority:.1%}", delta_color="off", delta_arrow="off",
              help=f"min {res.error_min:.1%}, max {res.error_max:.1%} over the folds; always "
                   f"predicting the most frequent class errs on {majority:.1%} of the rows")
    placed = where_learned(res, learned, ds.X) if isinstance(learned, Rule) else None
    mine = [] if placed is None else placed["group"].dropna().tolist()
    st.plotly_chart(stability_figure(res, learned=mine), width="stretch", key="stab_chart")
    if placed is not None and len(placed):
        # the learned rule's own conditions, those no fold found included (a review: the
        # learned petal width <= 1.55 came back in no fold and was not shown at all)
        said = [f"`{c}`: " + (f"in {k} of {res.n_splits} folds, as `{g}`" if pd.notna(g)
                              else "in no fold")
                for c, g, k in zip(placed["condition"], placed["group"], placed["folds"])]
        st.markdown("Your rule's conditions (outlined in the chart): " + "; ".join(said)
                    + ".")
    # said of what the chart shows: it read "green bars" above a chart with none (a review)
    every = int((res.conditions["frequency"] >= 1 - 1e-9).sum()) if len(res.conditions) else 0
    st.caption(f"Green bars: conditions found in every fold ({every} here)." if every else
               "No condition is found in every fold (none is green): the rule changes with "
               "the rows it is fitted on.")
    folds_shown = res.fold_table.assign(fold=res.fold_table["fold"] + 1).rename(columns={
        "predicts": "rule predicts", "train_rows": "rows fitted on",
        "held_out_rows": "rows held out", "error": "held-out error", "seconds": "seconds"})
    # the error beside the fold number: after the long rule it was pushed off the right edge
    # at 1,400 px (a review)
    first = ["fold", "held-out error"]
    folds_shown = folds_shown[first + [c for c in folds_shown.columns if c not in first]]
    st.dataframe(folds_shown, hide_index=True, width="stretch", key="stab_folds_table",
                 column_config={"held-out error": st.column_config.NumberColumn(
                     format="percent"), "seconds": st.column_config.NumberColumn(
                     format="%.2f")})


def rows_of_rule(rule: Rule, ds, train: np.ndarray, edited: bool = False) -> None:
    """Row provenance: which rows each condition passes and fails, downloadable."""
    if edited:
        st.caption("Conditions of the rule in the editor (edited).")
    if not rule.conditions:
        st.info("The rule has no condition, so no row is rejected by one.")
        return
    names = [str(c) for c in rule.conditions]
    if ss.get("prov_cond") not in names:  # a click on another rule's condition, or an edit
        ss["prov_cond"] = names[0]
    # options are the conditions' texts (not positions), so a new rule never shows stale text
    pick = names.index(st.selectbox("Condition", names, key="prov_cond"))
    X = ds.X
    rejected = rejected_rows(rule, X, pick)
    decisive = decisive_rows(rule, X, pick)
    fires = rule.predict(X).astype(bool)
    a, b, c = st.columns(3)
    a.metric("Rows it passes", f"{int((~rejected).sum()):,}")
    b.metric("Rows it rejects", f"{int(rejected.sum()):,}")
    c.metric("Rejected by it alone", f"{int(decisive.sum()):,}",
             help="Rows that meet every other condition: without this one the rule would "
                  "fire on them.")
    ids = ", ".join(map(str, ds.ids.columns)) if ds.ids is not None else ""
    said = (f" Row numbers and identifiers left out of learning ({ids}) come first, to find "
            "each row in your table." if ids else "")
    st.caption(f"The whole rule covers {int(fires.sum()):,} of {len(X):,} rows. "
               f"{common.row_numbering(ds)}{said}")
    only = st.toggle("Only the rows it alone rejects", key="prov_only")
    mask = decisive if only else rejected
    split = np.where(np.isin(np.arange(len(X)), train), "train", "test")
    shown = pd.concat([t for t in (ds.ids, X, ds.y) if t is not None], axis=1)[mask] \
        .assign(split=split[mask])
    st.dataframe(shown, height=250, width="stretch", key="prov_rows")
    st.download_button(f"Download these {int(mask.sum()):,} rows (CSV)",
                       functools.partial(safe_csv, shown), file_name="rejected_rows.csv",
                       mime="text/csv",
                       key="prov_dl", icon=":material/download:")


def rows_of_set(rules, ds) -> None:
    """Which clause of a rule set fires on each row, downloadable."""
    table = clause_rows(rules, ds.X)
    shown = pd.concat([t for t in (table, ds.ids, ds.X, ds.y) if t is not None], axis=1)
    st.caption("Each row with the clauses that fire on it (first clause 0: none fires).")
    st.dataframe(shown, height=250, width="stretch", key="prov_clauses")
    # written when clicked (a callable): on a million rows the CSV took 5.7 s of every rerun
    st.download_button("Download (CSV)", functools.partial(safe_csv, shown),
                       file_name="clause_rows.csv",
                       mime="text/csv", key="prov_clauses_dl", icon=":material/download:")
