"""Data page: choose a sample or upload a CSV, then the target, positive class and columns."""

import pandas as pd
import streamlit as st

from pages import common
from rulecore import roles as roles_mod
from rulecore.data import MAX_BYTES, show
from rulecore.report import lagged_words, restated_words
from rulecore.samples import SAMPLES
from rulecore.scales import level_order
from rulecore.viz.data import class_balance

common.init_state()
ss = st.session_state
st.title("Data")

#: Columns above which the roles table lists only the columns loading decided something of.
ROLES_SHOWN = 60

ROLE_WORDS = {"feature": "feature", "target": "target", "index": "row numbers",
              "id": "identifier", "text": "text, many values", "date": "date",
              "choices": "options ticked", "constant": "constant", "empty": "empty",
              "derived": "made from a column", "frequency": "count of records",
              "long": "what each row measured", "split": "train/test bookkeeping",
              "margin": "the target's margin of error",
              "changed": "when the record was last changed",
              "copy": "a copy of another column"}


def _choose_sample() -> None:
    ss["sample"] = ss["w_sample"]
    ss["source"] = "sample"
    common.reset_choices()


def _choose_source() -> None:
    ss["source"] = "sample" if ss["w_source"] == "Sample" else "upload"
    common.reset_choices()


def _uploaded() -> None:
    f = ss["w_upload"]
    if f is not None:
        common.set_upload(f.name, f.getvalue())


def _short(text: object, n: int = 28) -> str:
    """A name shortened for a button label (a button shows one line; the rest is cut)."""
    text = str(text)
    return text if len(text) <= n else text[: n - 1] + "…"


def _sheet() -> None:
    common.set_sheet(ss["w_sheet"])


def _target() -> None:
    # the class, threshold and rating choices belong to the old target; the columns left
    # out or included, their kinds and orders are the user's choices about the table and
    # stay (a review: a leak left out came back silently when the target went and came
    # back); the target itself is taken out of them where the table is read
    # (common._options)
    target = ss["w_target"]  # read before the reset drops the widgets' state
    common.reset_choices(keep_columns=True)
    ss["target"] = target


def order_levels(ds) -> None:
    """An expander where the user puts a text column's levels in order (grades, education,
    stages): no known scale gives that order (rulecore.scales), the user does."""
    ss = st.session_state
    # text columns with a few levels; an ordinal one to change or forget its order
    cands = common.orderable(ds.digest, ds)[1]
    if not cands:
        return

    def _apply(col: str) -> None:
        ss["orders"] = {**ss["orders"], col: list(ss[f"w_order_{col}"])}
        ss["w_ordinal"] = [c for c in ss.get("w_ordinal") or [] if c != col] + [col]

    def _forget(col: str) -> None:
        ss["orders"] = {c: v for c, v in ss["orders"].items() if c != col}
        if ss["kinds"].get(col) == "ordinal":  # its levels, unordered
            ss["kinds"] = {**ss["kinds"], col: "categorical"}

    with st.expander("Put a column's levels in order yourself (grades, education, stages)"):
        col = st.selectbox("Column", cands, index=None, key="w_order_col",
                           placeholder="choose a column of words")
        if col is None:
            return
        s = ds.X[col]
        given = ss["orders"].get(col) or (list(level_order(s) or []) if
                                          ds.kinds[col] == "ordinal" else [])
        seen = list(s.cat.categories) if hasattr(s, "cat") else \
            list(s.dropna().value_counts().index)
        levels = list(dict.fromkeys([*given, *map(str, seen)]))
        if ss.get(f"w_order_{col}") is None or not set(ss[f"w_order_{col}"]) <= set(levels):
            ss[f"w_order_{col}"] = given
        chosen = st.multiselect("Its levels, lowest first (click them in order)", levels,
                                key=f"w_order_{col}",
                                help="A rule then says 'grade <= C' in one condition. Levels "
                                     "left out are read as missing.")
        a, b = st.columns(2)
        a.button("Read in this order", key="w_order_apply", on_click=_apply, args=(col,),
                 disabled=len(chosen) < 3 or chosen == ss["orders"].get(col),
                 icon=":material/sort:")
        b.button("Forget this order", key="w_order_forget", on_click=_forget, args=(col,),
                 disabled=col not in ss["orders"], icon=":material/undo:")


# key "data_top": app.py stacks the two columns where they would be under 20 rem each (in a
# 900 px window the features box showed "sepal le..." and hid a leaking column: a review)
left, right = st.container(key="data_top").columns([2, 3])
with left:
    st.radio("Source", ["Sample", "Upload a file"], key="w_source", horizontal=True,
             index=0 if ss["source"] == "sample" else 1, on_change=_choose_source)
    if ss["source"] == "sample":
        names = list(SAMPLES)
        st.selectbox("Sample", names, index=names.index(ss["sample"]), key="w_sample",
                     format_func=lambda n: SAMPLES[n].title, on_change=_choose_sample)
    else:
        # any extension: UCI and LIBSVM files come as .data, .scale or none at all, and the
        # reader judges a file by its content (rulecore.formats; prose is refused)
        st.file_uploader("Table: CSV or other delimited text, Excel (.xlsx, .xls, .xlsb, "
                         "XML 2003, or a web page saved as .xls), OpenDocument (.ods), "
                         "Parquet, Feather, Stata (.dta), SPSS (.sav), SAS (.sas7bdat, .xpt), "
                         "JSON Lines, ARFF (Weka, OpenML) or LIBSVM; also .gz or .zip",
                         key="w_upload",
                         on_change=_uploaded, max_upload_size=MAX_BYTES // 2**20)
        if not ss["upload"]:
            st.info("Upload a table. The most plausible class column is taken as the "
                    "target; you can choose another below.")
            st.stop()
        st.caption(f"Uploaded: {ss['upload']['name']} (kept in this session only)")
        sheets = common.upload_sheets()
        if len(sheets) > 1:
            read = common.upload_sheet()
            if ss.get("w_sheet") not in sheets:
                ss["w_sheet"] = read if read in sheets else None
            st.selectbox("Sheet", sheets, key="w_sheet", on_change=_sheet,
                         placeholder="choose the sheet that holds the table",
                         help="Default: the sheet with the most cells, counting at most 8 columns "
                              "a row (a read-me is shorter than the records, a code list "
                              "narrower, a pivot table of totals wider).")

try:
    ds, error = common.current_dataset(), None
except common.RulecoreError as exc:
    ds, error = None, exc

# The target selector is always there, listing every column of the file, so a target that
# cannot be used (one class, an identifier) can be changed right where the error shows.
columns = common.table_columns()
with left:
    if columns:
        current = ds.target_column if ds is not None else (ss["target"] or columns[-1])
        # keyed widgets keep what the browser shows: set their value through the state (see
        # common.reset_choices), never with index= after the data changed
        if ss.get("w_target") not in columns:
            ss["w_target"] = current if current in columns else columns[-1]
        st.selectbox("Target column", columns, key="w_target", on_change=_target,
                     help="Default: the most plausible class column (named like a target, "
                          "binary, or text with a few levels). A numeric column with many "
                          "values is split at a threshold.")
if error is not None:
    st.error(common.md(error), icon=":material/error:")
    left_out = getattr(error, "left_out", None)  # no usable feature column: offer them back
    if left_out:
        def _include_left_out() -> None:
            ss["include"] = sorted(set(ss["include"]) | set(ss["w_include_left_out"]))

        st.multiselect("Include as features", left_out, key="w_include_left_out",
                       on_change=_include_left_out, placeholder="choose columns to learn from",
                       help="Each was left out on load for the reason the message gives; "
                            "include one if it is a real feature (its cells are then read "
                            "as categories or numbers).")
    if ss["target"] is not None or ss["kinds"] or ss["include"] or ss["exclude"] or \
            ss["threshold"] is not None or ss["answer_class"] is not None:
        st.button("Undo my target, class and column choices", key="w_reset",
                  on_click=common.reset_choices)
    st.stop()

with left:
    if ds.guess_note:  # nothing says this is the outcome: right under the target selector
        st.warning(common.md(ds.guess_note), icon=":material/help:")
    if ds.description:
        st.caption(ds.description)
    if ds.threshold is not None:
        op, value = ds.threshold.split(" ", 1)

        def _threshold() -> None:
            ss["threshold"] = f"{ss['w_thr_op']} {float(ss['w_thr_value']):g}"
            ss["positive"] = None
            ss.pop("w_positive", None)

        if ss.get("w_thr_op") not in (">", ">=", "<", "<="):
            ss["w_thr_op"] = op
        if "w_thr_value" not in ss:
            ss["w_thr_value"] = float(value)
        a, b = st.columns([1, 2])
        a.selectbox("Positive when", [">", ">=", "<", "<="], key="w_thr_op",
                    on_change=_threshold)
        b.number_input(f"threshold on {ds.target_column}", key="w_thr_value",
                       on_change=_threshold, format="%g",
                       help="Default: the median, so that half the rows are positive.")
        st.caption(f"Rows with **{ds.target}** are the positive class *yes*, the rest *no*.")

    counts = ds.class_counts
    classes = ds.classes

    def _class_label(c) -> str:
        return f"{show(c)} ({counts[c] / ds.n_samples:.1%} of rows)"

    if ss.get("w_positive") not in classes:
        ss["w_positive"] = ds.positive
    if ds.threshold is not None:
        classes = [ds.positive]  # the threshold says which side is positive; swap flips it
    st.selectbox("Positive class (the rule predicts it; the rest is the other class)", classes,
                 key="w_positive", on_change=common.sync, args=("w_positive", "positive"),
                 format_func=_class_label,
                 help="Default: the minority class, the one a rule is usually wanted for; of two "
                      "balanced classes (the smaller ≥ 40 % of rows), the one whose name does not "
                      "say no (improved, not no change).")
    if ds.threshold is not None:
        # a thresholded target swaps by flipping the comparison, so the rule reads
        # "hours <= 40 = yes", never the double negative "hours > 40 = no"
        flipped = {">": "<=", "<=": ">", ">=": "<", "<": ">="}[op] + " " + value

        def _swap_threshold(new=flipped) -> None:
            ss["threshold"] = new
            ss["positive"] = None
            for key in ("w_positive", "w_thr_op", "w_thr_value"):
                ss.pop(key, None)

        st.button(f"Swap: predict {_short(ds.target_column)} {flipped} instead", key="w_swap",
                  on_click=_swap_threshold, icon=":material/swap_horiz:",
                  help=f"Predict {ds.target_column} {flipped} as the positive class.")
    elif len(classes) == 2:
        other = classes[1] if ds.positive == classes[0] else classes[0]

        def _swap(label=other) -> None:
            ss["positive"] = label
            ss["w_positive"] = label

        st.button(f"Swap: predict {_short(show(other))} instead", key="w_swap", on_click=_swap,
                  icon=":material/swap_horiz:", help=f"Predict {show(other)} as the positive "
                  "class.")

    # a rating scale: split at a threshold (the default) or each rating a class
    def _ratings(how: str) -> None:
        ss["ratings"] = how
        ss["threshold"] = ss["positive"] = None
        for key in ("w_positive", "w_thr_op", "w_thr_value"):
            ss.pop(key, None)

    # ... and a count (0, 1, 2 defects): "any?" (> 0), the default for a count of an
    # outcome's events, or each count a class; a count chosen by hand asked "exactly 2?" and
    # "any" was out of reach (a review)
    def _split_counts() -> None:
        _ratings("split")
        ss["threshold"] = "> 0"

    if ds.rating or ds.count:
        what = "rating" if ds.rating else "count" if roles_mod.names_event_count(
            ds.target_column) else "value"  # (grades from 0: Cleveland's diagnosis)
        st.button(f"Predict each {what} as a class instead",
                  key="w_rating_classes", on_click=_ratings, args=("classes",),
                  icon=":material/format_list_numbered:")
    elif ds.threshold is None and roles_mod.is_rating(ds.target_column, ds.y):
        st.button(f"Split the ratings instead: {roles_mod.rating_threshold(ds.y)}",
                  key="w_rating_split",
                  on_click=_ratings, args=("split",), icon=":material/call_split:")
    elif ds.threshold is None and roles_mod.whole_counts(ds.y):
        st.button(f"Predict any instead: {_short(ds.target_column)} > 0", key="w_count_split",
                  on_click=_split_counts, icon=":material/call_split:",
                  help=f"Rows with {ds.target_column} above 0 are the positive class, the rows "
                       "with 0 the other.")
    # target values read as "no answer" (Unknown, a -9 code) were dropped; one may be the
    # very class the analyst wants a rule for
    def _answer_class(value) -> None:
        """Keep ``value`` as a class and predict it (None: read it as no answer again)."""
        ss["answer_class"] = value
        ss["positive"] = value
        ss.pop("w_positive", None)

    for k, (value, rows) in enumerate(ds.no_answer):
        st.button(f"Learn a rule for {_short(repr(show(value)))} ({rows:,} rows)",
                  key=f"w_keep_answer_{k}", on_click=_answer_class, args=(value,),
                  icon=":material/add_circle:",
                  help=f"These {rows:,} rows are dropped now, read as no answer. Keep them as "
                       "a class, and predict it.")
    if ss["answer_class"] is not None and not ds.no_answer:
        st.button(f"Read {_short(repr(show(ss['answer_class'])))} as no answer again",
                  key="w_drop_answer", on_click=_answer_class, args=(None,),
                  icon=":material/undo:")

    # the multiselects below keep what the browser shows; when the table or its columns
    # change (another target, an included column), set them again from the new data
    if ss.get("w_shown_digest") != ds.digest:
        ss["w_shown_digest"] = ds.digest
        for key in ("w_features", "w_categorical", "w_ordinal"):
            ss.pop(key, None)

    # ------------------------------------------------------------ columns used
    table_roles = [r for r in ds.roles if r.role not in ("target", "derived")]
    feature_options = [r.column for r in table_roles]
    by_col = {r.column: r for r in table_roles}
    used_now = [r.column for r in table_roles if r.included]

    def _features() -> None:
        chosen = set(ss["w_features"])
        default = {r.column for r in table_roles
                   if r.detected in ("feature", "date", "choices")}
        ss["include"] = sorted(chosen - default)
        ss["exclude"] = sorted(default - chosen)

    if ss.get("w_features") is None or not set(ss["w_features"]) <= set(feature_options):
        ss["w_features"] = used_now
    st.multiselect("Columns used as features", feature_options, key="w_features", wrap=True,
                   on_change=_features,
                   format_func=lambda c: c if by_col[c].detected in ("feature", "date",
                                                                     "choices") else
                   f"{c} ({ROLE_WORDS.get(by_col[c].detected, by_col[c].detected)})",
                   help="Row numbers, identifiers, free text, constant and empty columns are "
                        "left out on load (see the roles below); add them back here if they "
                        "are real features. Dates are used through their year and month (and a "
                        "timestamp's weekday and hour), where these vary; a form's "
                        "multi-select answers through one yes/no column per option.")

    cat_now = [c for c, k in ds.kinds.items() if k == "categorical"]
    ord_now = [c for c, k in ds.kinds.items() if k == "ordinal"]
    # the columns that could be ordered: words of a known scale (rulecore.scales)
    scales = ord_now + common.orderable(ds.digest, ds)[0]
    if ss.get("w_categorical") is None or not set(ss["w_categorical"]) <= set(ds.kinds):
        ss["w_categorical"] = cat_now
    if ss.get("w_ordinal") is None or not set(ss["w_ordinal"]) <= set(scales):
        ss["w_ordinal"] = ord_now

    def _kinds(changed: str) -> None:
        # a column is in one list at most: the one just changed wins
        other = "w_ordinal" if changed == "w_categorical" else "w_categorical"
        ss[other] = [c for c in ss[other] if c not in ss[changed]]
        if changed == "w_ordinal":  # taken out of the order: its levels, unordered
            ss["w_categorical"] += [c for c in ord_now if c not in ss["w_ordinal"]]
        ordered, chosen = set(ss["w_ordinal"]), set(ss["w_categorical"])
        # a column put in order by hand and taken out of the list: its order is forgotten
        ss["orders"] = {c: v for c, v in ss["orders"].items() if c in ordered}
        new = {c: "ordinal" if c in ordered else "categorical" if c in chosen else "numeric"
               for c in ds.kinds}
        try:  # a column of words cannot be numbers: refuse that change, keep the table
            ds.with_kinds({c: k for c, k in new.items() if k != ds.kinds[c]})
        except common.RulecoreError as exc:
            ss["w_categorical"], ss["w_ordinal"] = cat_now, ord_now
            ss["kind_error"] = str(exc)
            return
        ss["kinds"] = {**ss["kinds"], **new}

    st.multiselect("Categorical columns (the rest are numeric)", list(ds.kinds),
                   key="w_categorical", on_change=_kinds, args=("w_categorical",), wrap=True,
                   help="Inferred from the values; integer flags with two values count as "
                        "categorical. Change it here.")
    if scales:
        st.multiselect("Ordered scales", scales, key="w_ordinal", on_change=_kinds,
                       args=("w_ordinal",), wrap=True,
                       help="Words with a known order (Strongly disagree < … < Strongly agree, "
                            "Low < Medium < High, S < M < L): a rule can say 'x <= Medium' in "
                            "one condition. Take a column out to read its levels unordered.")
    order_levels(ds)
    if ss.get("kind_error"):
        st.error(common.md(ss.pop("kind_error")) + " The change was not made.",
                 icon=":material/error:")
    for note in ds.notes:
        if note == ds.guess_note:  # shown under the target selector
            continue
        if not note.startswith("Dropped "):  # the dropped rows have their own warning
            st.info(common.md(note), icon=":material/info:")

    # zeros that look like "not measured" (Pima's glucose 0): read as missing on request
    def _zero_missing(col: str, on: bool) -> None:
        chosen = set(ss["zero_missing"])
        ss["zero_missing"] = sorted(chosen | {col} if on else chosen - {col})

    for col in ds.zero_suspects:
        st.button(f"Read 0 in {_short(col)} as missing", key=f"w_zero_{col}",
                  on_click=_zero_missing,
                  args=(col, True), icon=":material/block:")
    for col in ds.zero_missing:
        st.button(f"Read 0 in {_short(col)} as a value again", key=f"w_zero_{col}",
                  on_click=_zero_missing, args=(col, False), icon=":material/undo:")

    # a missing-value code that is a value (adult's capital-gain 99999, a top-code)
    def _keep_codes(col: str, on: bool) -> None:
        chosen = set(ss["keep_codes"])
        ss["keep_codes"] = sorted(chosen | {col} if on else chosen - {col})

    for col in ds.missing_codes:
        st.button(f"Keep the code in {_short(col)} as a number", key=f"w_codes_{col}",
                  on_click=_keep_codes, args=(col, True), icon=":material/push_pin:")
    for col in ds.codes_kept:
        st.button(f"Read the code in {_short(col)} as missing again", key=f"w_codes_{col}",
                  on_click=_keep_codes, args=(col, False), icon=":material/undo:")

with right:
    c1, c2, c3 = st.columns(3)
    c1.metric("Rows", f"{ds.n_samples:,}")
    c2.metric("Features", f"{ds.X.shape[1]:,}",
              help="Columns the rules can use. A date gives its year and month (and a "
                   "timestamp its weekday and hour) as features of their own, where they vary.")
    c3.metric("Positive share", f"{ds.base_rate:.1%}")
    if ds.dropped_rows:
        st.warning(f"{ds.dropped_rows:,} of {ds.n_samples + ds.dropped_rows:,} rows have no "
                   f"value in {ds.target_column!r} and are left out of everything.",
                   icon=":material/filter_alt_off:")
    st.vega_lite_chart(class_balance(ds.y, ds.positive), width="stretch", key="balance")
    # where to go once the table reads right (a newcomer's review: the page pointed nowhere)
    st.page_link("pages/rule.py", label="Next: learn a rule on the Rule page",
                 icon=":material/arrow_forward:")


# -------------------------------------------------------- roles
st.subheader("Column roles")
leaks = ds.leaks
# the target in other words first, once, and not again below as "alone predicts" (a relabel
# of every class read like a real cause beside one: a stranger's review)
restated = common.restated(ds.digest, ds)
for k, (col, mapping) in enumerate(restated.items()):
    st.warning(common.md(restated_words(col, mapping, ds.target_column)),
               icon=":material/warning:")
    st.button(f"Leave out {_short(ds.source_column(col))}", key=f"w_restated_{k}",
              on_click=common.leave_out, args=(ds.source_column(col),),
              icon=":material/block:",
              help=f"Removes {ds.source_column(col)!r} from the columns used as features.")
# yesterday's outcome in a daily log: certified and 90 % right, it repeats the last outcome
# (a stranger's machine log)
for k, (col, share) in enumerate(ds.lagged.items()):
    st.warning(f"**{common.md(lagged_words(col, share, ds.target))}** Leave it out of the features "
               "unless the last outcome is known when the rule is applied.",
               icon=":material/warning:")
    st.button(f"Leave out {_short(ds.source_column(col))}", key=f"w_lagged_{k}",
              on_click=common.leave_out, args=(ds.source_column(col),),
              icon=":material/block:",
              help=f"Removes {ds.source_column(col)!r} from the columns used as features.")
# one warning per table column: a date's year and month leak together
for k, (source, found) in enumerate(common.leak_groups(ds).items()):
    st.warning(f"{common.md(common.leak_words(ds, found))}: a possible leak, if "
               f"{common.md(repr(source))} is recorded "
               "after the outcome or made from it. Leave it out of the features unless it is "
               "known before the outcome (a measurement that truly decides the class stays).",
               icon=":material/warning:")
    # one click, where the warning is read: the features box is above, in another column
    st.button(f"Leave out {_short(source)}", key=f"w_leak_{k}", on_click=common.leave_out,
              args=(source,), icon=":material/block:",
              help=f"Removes {source!r} from the columns used as features"
                   + (", and what is made from it" if source not in found else "")
                   + ". Add it back in the features box.")
# a column that gives away another class of the target (the defects' rework minutes beside
# "exactly 2 defects"): a leak whichever class is predicted (a stranger's review)
for k, (col, (other, acc)) in enumerate(common.class_leaks(ds.digest, ds).items()):
    if col in restated:
        continue
    source = ds.source_column(col)
    st.warning(f"**{common.md(col)}** alone tells {common.md(ds.target_column)} = "
               f"{common.md(show(other))} from its other values "
               f"with {roles_mod.accuracy_words(acc)}: a possible leak, if "
               f"{common.md(repr(source))} is recorded after the outcome or made from it, "
               "whichever class is predicted.",
               icon=":material/warning:")
    st.button(f"Leave out {_short(source)}", key=f"w_class_leak_{k}", on_click=common.leave_out,
              args=(source,), icon=":material/block:",
              help=f"Removes {source!r} from the columns used as features.")
# several warnings: one click for them all (a Stripe export's three leaks took three
# buttons, each a full refit: a stranger's review)
every_leak = common.leak_sources(ds)
if len(every_leak) >= 2:
    st.button(f"Leave out all {len(every_leak)} columns warned of above", key="w_leak_all",
              on_click=common.leave_out, args=(every_leak,), icon=":material/block:",
              help="Removes " + ", ".join(map(repr, every_leak)) + " from the columns used "
                   "as features. Add any back in the features box.")
roles = pd.DataFrame([{
    "column": r.column,
    "role": ROLE_WORDS.get(r.role, r.role) + (" (the target in other words)"
                                              if r.column in restated else
                                              " (possible leak)" if r.column in leaks
                                              else ""),
    "used": "✓" if r.included else "✗",
    "why": r.reason} | ({"label": ds.label_of(r.column) or ""} if ds.labels else {})
    for r in ds.roles])
# a table, not a data grid: the reasons are long and must be read whole.  On a wide table
# (1,500 gene columns) every plain feature made the page 47,000 px tall, the preview at its
# foot (a newcomer's review): the table then keeps what loading decided, a grid all of it.
plain = ((roles["role"] == "feature") & (roles["used"] == "✓") & (roles["why"] == ""))
if len(roles) > ROLES_SHOWN and plain.any():
    st.table(roles[~plain].set_index("column"))
    st.caption(f"The other {int(plain.sum()):,} columns are features as they are; every "
               f"column is in the list below.")
    st.dataframe(roles.set_index("column"), width="stretch", height=280)
else:
    st.table(roles.set_index("column"))

st.subheader("Preview")
preview = pd.concat([ds.X.head(200), ds.y.head(200)], axis=1)
st.dataframe(preview, width="stretch", height=320)
missing = ds.X.isna().sum()
if missing.any():
    # the most-missing first, a few named: 250 nearly empty columns made a wall of text
    shown = missing[missing > 0].sort_values(ascending=False, kind="stable")
    listed = ", ".join(f"{c}: {n:,}" for c, n in shown.iloc[:8].items())
    more = f", and {len(shown) - 8} more columns" if len(shown) > 8 else ""
    mostly = int((missing > 0.9 * ds.n_samples).sum())
    st.caption("A missing value makes every term on its column false, but for 'is missing' "
               "(offered for such columns). Missing per column: "
               + listed + more + "."
               + (f" {mostly} columns are more than 90 % empty: leave them out above unless "
                  "their few values matter." if mostly > 1 else ""))
