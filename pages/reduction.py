"""Reduction page: simultaneous feature and object selection by the bilinear form (§7).

The settings form runs :class:`rulecore.bilinear.BilinearReducer` on the current dataset (raw
multi-class labels, numeric features via ``rulecore.encode.to_numeric``): the paper's local
search from the whole table, then (by default) the feature elimination that continues past
its local optimum (docs/bilinear.md).  Building C compares every pair of training rows (m² · n
work), so the run uses a random sample of at most "rows to use" rows (3,000 by default) and
stops at a time limit, with a progress bar; the last run is kept in the session.  Under the
run's caption, one sentence states what the chosen iteration keeps and how accurate it is
against the full table (``BilinearReducer.iteration_summary``); the chart marks it with a
star.  The step-through panel (a fragment) moves an iteration cursor: step once, run to the
end, jump with the slider; a new run opens on its chosen iteration (past the local optimum the
run ends on one feature).  Charts show the trace up to the cursor, the heatmap and the CSV
download show the table kept at the cursor.
"""

import functools
import math
import time
from pathlib import Path

import numpy as np
import streamlit as st

from pages import common
from rulecore.bilinear import BilinearReducer, trace_in_words
from rulecore.encode import dense_bytes, format_bytes, to_numeric
from rulecore.report import clear_change, effective_rows
from rulecore.rules.rule import safe_csv
from rulecore.viz.bilinear import shares_figure, table_heatmap, trace_figure

DEFAULT_ROWS = 3_000  # C for 2,100 training rows × 64 features: about 1 s on one core
STOPPED = {"local_optimum": "local optimum", "eliminated": "elimination done",
           "max_iter": "iteration limit", "time_limit": "time limit"}

common.init_state()
ss = st.session_state
st.title("Reduction")
ds = common.require_dataset()
with common.user_errors():
    X = to_numeric(ds.X, ds.kinds)
y = ds.y.to_numpy()
m, n = X.shape
n_classes = len(ds.classes)
st.caption(f"Data: **{ds.name}** · {m:,} rows (objects) × {ds.X.shape[1]} features, encoded "
           f"as {n} numeric columns · target `{ds.target}` with its {n_classes} classes"
           + (" (all of them at once, no one-vs-rest)" if n_classes > 2 else "")
           # the heatmap and the download show the encoded numbers: say what they are (a
           # review read a filled-in median as data)
           + ". The tables below show the numbers the classifier sees: a categorical column "
             "as 0/1 columns, an ordered scale as its steps 1, 2, …, and a missing value "
             "filled with its column's median.")
common.leak_warnings(ds)  # the kept table may be a leak alone (a review: it kept one here)
st.markdown(
    "Keeps a sub-table (features × objects) that maximises the bilinear form "
    "F(x, y) = xᵀCy of the voting classifier: own-class votes minus *t* × other-class votes, "
    "leave-one-out. Each iteration flips one or two features/objects, whichever raises F "
    "most, until none does (a local optimum). From there the run drops features one at a "
    "time, in the order F itself would drop them if an other-class vote cost more than *t*, "
    "so the trace also holds the small tables. Accuracy is that of the classifier retrained "
    "on the kept sub-table, measured on a held-out 30 %"
    + (f" ({ds.held_out_unit}, as on the Rule page)." if ds.held_out_unit else "."))


def run_reduction(params: dict, bar) -> BilinearReducer:
    """Fit the reducer for ``params``, moving ``bar`` (not cached: the progress must show)."""
    shown = [0.0]

    def progress(stage: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - shown[0] < 0.25 and done < total:  # a message per step would flood the page
            return
        shown[0] = now
        if stage == "criterion":
            bar.progress(done / total, text=f"Building C: {done:,} of {total:,} objects")
        elif stage == "eliminate":
            bar.progress(done / max(total, 1), text=f"Feature elimination: step {done:,}")
        else:
            bar.progress(done / max(total, 1), text=f"Local search: step {done:,} of at most "
                                                    f"{total:,}")

    return BilinearReducer(
        t=params["t"], k=None if params["k"] == default_k else params["k"],
        feature_share=params["feature_share"],
        object_share=params["object_share"], max_iter=params["max_iter"],
        random_state=params["seed"], time_limit=params["time_limit"],
        eval_every=params["eval_every"], max_objects=params["rows"],
        continuation=params["continuation"]).fit(
            X, y, callback=progress,
            # a patient's visits on both sides made a reduced table look better than it is;
            # the Rule page's split holds them out whole, so does this one
            groups=None if ds.groups is None else ds.groups.to_numpy())


# ------------------------------------------------------------------ settings
default_k = max(1, math.ceil(n / 2))
default_rows = min(m, DEFAULT_ROWS)
#: the form's widgets, given back their last submitted values after a visit to another page
FORM_KEYS = ("red_t", "red_k", "red_fshare", "red_oshare", "red_seed", "red_iters",
             "red_every", "red_rows", "red_time", "red_elim")
if ss.get("red_rows_data") == ds.digest:  # the same data: the settings last submitted
    common.restore_widgets(FORM_KEYS)
else:  # other data: start from its own defaults
    ss.pop("red_rows", None)
    ss["_kept_widgets"] = {k: v for k, v in ss.get("_kept_widgets", {}).items()
                           if k not in FORM_KEYS}
    ss["red_rows_data"] = ds.digest
with st.form("red_settings"):
    c = st.columns(6)
    t = c[0].number_input("t (weight of other-class votes)", 0.0, 100.0,
                          common.initial("red_t", 1.0), 0.01, key="red_t", format="%.2f")
    k = c[1].number_input("k (support-set size)", 1, max(1, n),
                          common.initial("red_k", min(default_k, n)), 1, key="red_k",
                          help="Votes count the k-feature subsets on which two objects are "
                               "close. Default: half the features, and of each reduced table "
                               "its own half (the run passes k=None). Any other value stays "
                               "fixed, capped at the kept features: near k kept features "
                               "accuracy collapses.")
    fshare = c[2].slider("Start: feature share", 0.05, 1.0, common.initial("red_fshare", 1.0),
                         0.01, key="red_fshare")
    oshare = c[3].slider("Start: object share", 0.05, 1.0, common.initial("red_oshare", 1.0),
                         0.01, key="red_oshare")
    seed = c[4].number_input("Seed", 0, 2**31 - 1, common.initial("red_seed", 0), 1,
                             key="red_seed")
    iters = c[5].number_input("Iterations (at most)", 1, 5000, common.initial("red_iters", 300),
                              10, key="red_iters")
    c = st.columns(4)
    every = c[0].number_input("Measure accuracy every … iterations", 1, 100,
                              common.initial("red_every",
                                             1 if min(m, DEFAULT_ROWS) * n <= 20_000 else 5), 1,
                              key="red_every",
                              help="Each measurement retrains and scores the classifier; on "
                                   "large tables measuring less often is much faster.")
    rows = c[1].number_input("Rows to use", min(4, m), m, common.initial("red_rows", default_rows),
                             100, key="red_rows",
                             help="A random sample of the rows (same class shares, drawn with "
                                  "the seed). Building C compares every pair of training "
                                  "rows, so twice the rows is four times the work.")
    limit = c[2].number_input("Time limit (s)", 1, 3600, common.initial("red_time", 30), 5,
                              key="red_time",
                              help="For the whole run: building C, the local search and the "
                                   "accuracy measurements. A search cut short keeps the "
                                   "iterations done.")
    eliminate = c[3].checkbox(
        "Then drop features", common.initial("red_elim", True), key="red_elim",
        # the label fits its column ("Past the local optimum, eliminate features" was cut to
        # "Past the local optimum, eli…"; a review); the help says the rest
        help="Past the local optimum, drop the features one by one in the order F would drop "
             "them if other-class votes cost more than t (every step measured). Off: stop at "
             "the local optimum, as the paper does; from the whole table that can be the "
             "whole table again.")
    submitted = st.form_submit_button("Run the reduction", type="primary", key="red_submit")
if int(rows) < m:
    m_train = round(0.7 * int(rows))
    st.caption(f"The run uses a random sample of **{int(rows):,} of the {m:,} rows** (set "
               f"*Rows to use*): C holds {n:,} × {m_train:,} numbers "
               f"({format_bytes(dense_bytes(n, m_train))}) and costs about {m_train:,}² × "
               f"{n:,} comparisons.")

if submitted:
    common.remember_widgets(FORM_KEYS)
    ss["red_params"] = dict(digest=ds.digest, t=float(t), k=int(k), feature_share=float(fshare),
                            object_share=float(oshare), seed=int(seed), max_iter=int(iters),
                            eval_every=int(every), rows=int(rows), time_limit=float(limit),
                            continuation="features" if eliminate else "none")
    ss.pop("red_iter", None)  # a new run starts the cursor at its chosen iteration
    ss.pop("_red_iter", None)

params = ss.get("red_params")
if params is None or params["digest"] != ds.digest:
    st.info("Choose the settings and press **Run the reduction**. Paper settings: digits "
            "(a sample on the Data page) t = 0.23 from shares (0.8, 0.9), (0.67, 0.5) or "
            "(1, 1); wine t = 3.3.", icon=":material/info:")
    st.stop()

run = ss.get("red_run")
if run is None or run["params"] != params:
    with common.user_errors(), st.status("Building C and running the local search…",
                                         expanded=True) as status:
        bar = st.progress(0.0, text="Starting…")
        red = run_reduction(params, bar)
        bar.empty()
        # the caption below gives the steps, seconds and why it stopped: said once
        status.update(label="Reduction done", state="complete", expanded=False)
    ss["red_run"] = run = {"params": params, "model": red}
red = run["model"]
used = len(red.sample_index_)
st.caption(f"{red.n_steps_} steps in {red.seconds_:.1f} s "
           f"({red.search_steps_} of the local search"
           + (f", {red.n_steps_ - red.search_steps_} of the feature elimination"
              if red.n_steps_ > red.search_steps_ else "")
           + f") · stopped: {STOPPED[red.status_]} · "
           + (f"all {m:,} rows" if used == m else f"a random sample of {used:,} of {m:,} rows")
           + f": {len(red.train_index_):,} to build C, {used - len(red.train_index_):,} held "
             "out for the accuracy"
           + (f" (by {ds.held_out_unit}, none also in C)"
              if red.held_out_groups_ is not None and ds.held_out_unit else ""))
best = red.iteration_summary()
# beside the majority class: 0.867 "+0.092 against the full table" read as a success where
# always predicting the most common class gives 0.900 (a review)
below = [name for name, acc in (("the reduced table", best["accuracy"]),
                                ("the full table", best["full_accuracy"]))
         if acc <= red.majority_accuracy_ + 1e-12]
# a gain of four rows in 180 is luck, not a better table (a newcomer's review: "+0.022" in
# green on a table one row better than the majority)
n_held = used - len(red.train_index_)
# records held out whole are judged as records (a review: 40 accounts repeated 8-15 times
# counted as 400 rows); whole periods of time are no copies of each other
records = ds.held_out_records(red.train_index_,
                               np.setdiff1d(red.sample_index_, red.train_index_))
n_eff = effective_rows(records, n_held)
held_words = (f"{n_held:,} held-out rows" if records is None else
              f"{n_held:,} held-out rows of {len(set(records)):,} records held out whole")
luck = not clear_change(best["accuracy"], best["full_accuracy"], n_eff)
st.markdown(
    f"**Chosen iteration {best['iteration']}** (★ on the chart; the smallest table whose "
    f"held-out accuracy is at most {red.delta:g} below the best iteration's) keeps "
    f"**{best['table_share']:.1%} of the "
    f"table** ({best['n_features']} of {best['n_features_total']} features × "
    f"{best['n_objects']:,} of {best['n_objects_total']:,} objects) with held-out accuracy "
    f"**{best['accuracy']:.3f}**, {best['gap']:+.3f} against the full table's "
    f"{best['full_accuracy']:.3f}"
    + (f" (within chance on {held_words})" if luck and best["gap"] else "")
    + (f": at most half the table, and at most {best['delta']:g} below the full table's "
       "accuracy." if best["at_most_half"] and best["within_delta"] else ".")
    + (f" Always predicting the most common class gives {red.majority_accuracy_:.3f}: "
       + ("neither table does better." if len(below) == 2 else f"{below[0]} does no better.")
       if below else ""))
if best["gap"] > 0 and best["iteration"] != 0:
    # a gain in accuracy may come from dropping the smaller class's objects (a review: '+'
    # objects 54 → 14, accuracy +0.160, balanced accuracy +0.006), and the iteration was
    # chosen on the rows that grade it
    kept = red.kept_by_class()
    bal, bal_full = red.balanced_accuracy(), red.balanced_accuracy(0)
    shares = ", ".join(f"{int(r.kept):,} of {int(r.total):,} {c}" for c, r in kept.iterrows())
    lost = (kept["kept"] / kept["total"]).min() < 0.5 * (kept["kept"] / kept["total"]).max()
    st.caption(
        f"Objects kept by class: {shares}. Balanced accuracy (the classes' mean recall) "
        f"{bal:.3f} against the full table's {bal_full:.3f}"
        + (": the accuracy gained comes from predicting the smaller class less"
           if lost and bal <= bal_full + 0.01 else "")
        + ". The iteration is chosen on the same held-out rows, so its accuracy is "
          "optimistic; compare tables on new rows before trusting a gain.")

last = int(red.n_steps_)
if ss.get("red_iter", last) > last:
    ss["red_iter"] = last
# the chosen iteration, not the end: past the local optimum the run ends on one feature
if "red_iter" not in ss and "_red_iter" in ss:
    # back from another page: Streamlit dropped the slider's value, the cursor stays where
    # the user left it (it jumped back to the chosen iteration: a newcomer's review)
    ss["red_iter"] = min(int(ss["_red_iter"]), last)
ss.setdefault("red_iter", int(red.best_iteration_))


# ------------------------------------------------------------------ step-through panel
def _step() -> None:
    ss["red_iter"] = min(ss["red_iter"] + 1, last)


def _to_end() -> None:
    ss["red_iter"] = last


def _to_best() -> None:
    ss["red_iter"] = int(red.best_iteration_)


@st.fragment
def panel() -> None:
    b = st.columns(3)
    b[0].button("Step once", key="red_step", on_click=_step, disabled=ss["red_iter"] >= last,
                icon=":material/skip_next:")
    b[1].button("Run to the end", key="red_end", on_click=_to_end, icon=":material/fast_forward:")
    b[2].button("Best iteration", key="red_best", on_click=_to_best, icon=":material/star:",
                help="Smallest table within 0.01 of the best held-out accuracy.")
    if last > 0:
        st.slider("Iteration", 0, last, key="red_iter")
    it = int(ss["red_iter"])
    ss["_red_iter"] = it
    row = red.trace_.loc[it]
    fmask, omask = red.masks(it)
    acc = row["accuracy"]
    if np.isnan(acc):  # not measured during the run: measure this one now
        with st.spinner("Measuring the held-out accuracy of this iteration…"):
            acc = red.accuracy_of(fmask, omask)

    c = st.columns(3) + st.columns(3)
    c[0].metric("Iteration", f"{it} / {last}")
    # 46,610, not "4.661e+04" (a newcomer's review), with what F is on hover
    F = float(row["F"])
    c[1].metric("F (criterion)", f"{F:,.0f}" if abs(F) >= 1000 else f"{F:.4g}",
                help="What the search climbs (docs/bilinear.md): votes of kept objects for "
                     "their own class, minus t × votes for other classes, over the kept "
                     "features. Its scale grows with the table; compare it between "
                     "iterations, not between tables.")
    # a change that rounds to nothing is "same as full table" in grey, not "↑ +0.000" in
    # green (a review; as the Rule page's test accuracy)
    # nor is a change within chance, or a table no better than the majority, in colour
    change = round(acc - red.full_accuracy_, 3)
    clear = clear_change(acc, red.full_accuracy_, n_eff)
    plain = not change or not clear or acc <= red.majority_accuracy_ + 1e-12
    c[2].metric("Held-out accuracy", f"{acc:.3f}",
                delta=("same as full table" if not change else f"{change:+.3f} vs full table"
                       + ("" if clear else ", within chance")),
                delta_color="off" if plain else "normal",
                delta_arrow="off" if plain else "auto",
                help=f"On {held_words}. A change within one standard error of the "
                     "difference of two accuracies on these rows is called within chance.")
    c[3].metric("Kept features", f"{int(row['n_features']):,} / {len(fmask):,}")
    c[4].metric("Kept objects", f"{int(row['n_objects']):,} / {len(omask):,}")
    c[5].metric("Table share", f"{row['table_share']:.1%}")
    # a reduced table that lost a class, or does no better than always predicting the most
    # common class, is never shown as a success, whatever its accuracy gain
    kept, all_classes = red.kept_classes(it), np.unique(red.y_train_)
    if len(kept) < len(all_classes):
        lost = ", ".join(str(c) for c in all_classes if c not in set(kept))
        st.warning(f"The kept objects hold no row of {lost}: the classifier on this table "
                   "can never predict it. Its accuracy only reflects the other classes. Try "
                   "a larger t (weight of other-class votes) or a smaller starting share.",
                   icon=":material/warning:")
    elif acc <= red.majority_accuracy_ + 1e-12:
        st.warning(f"Held-out accuracy {acc:.3f} is no better than always predicting the most "
                   f"common class ({red.majority_accuracy_:.3f}).", icon=":material/warning:")

    shown = red.trace_[red.trace_["iteration"] <= it]
    left, right = st.container(key="stack_red_charts").columns(2)  # stacked under 50 rem
    with left:
        fig = trace_figure(shown, iteration=it, full_accuracy=red.full_accuracy_,
                           best=int(red.best_iteration_), delta=red.delta)
        fig.update_xaxes(range=[0, max(1, last)])
        lo, hi = red.trace_["F"].min(), red.trace_["F"].max()
        pad = 0.05 * (hi - lo) or 0.05 * abs(hi) or 1.0  # axes fixed while stepping
        fig.update_yaxes(range=[lo - pad, hi + pad], secondary_y=True)
        st.plotly_chart(fig, width="stretch", key="red_trace_fig")
    with right:
        fig = shares_figure(shown, iteration=it)
        fig.update_xaxes(range=[0, max(1, last)])
        st.plotly_chart(fig, width="stretch", key="red_shares_fig")

    sub, ysub = red.reduced_table(it)
    st.plotly_chart(table_heatmap(sub, ysub), width="stretch", key="red_heatmap")
    # written when clicked (a callable), not on every rerun
    csv = functools.partial(safe_csv, sub.assign(**{str(ds.target): ysub}).rename_axis("row"))
    st.download_button(f"Download the reduced table at iteration {it} (CSV)", csv,
                       # "crm.xlsx_reduced_it36.csv" read as a workbook's name (a review)
                       file_name=f"{Path(ds.name).stem}_reduced_it{it}.csv", mime="text/csv",
                       key="red_download", icon=":material/download:")
    with st.expander("Trace (one row per iteration)"):
        # moves and columns in words ("object 40 out", "held-out accuracy"), not the
        # trace's labels ("2o:o40,o96", "delta_F"): a newcomer's review
        st.dataframe(trace_in_words(red), width="stretch", hide_index=True, height=300)
        st.caption("F: the criterion the search climbs (docs/bilinear.md): votes of kept "
                   "objects for their own class, minus t × votes for other classes, over "
                   "the kept features. ΔF: its change at that step. Objects are numbered "
                   "by their row in the training part.")


panel()
