"""Data page: choose a sample or upload a CSV, then the target, positive class and kinds."""

import pandas as pd
import streamlit as st

from pages import common
from rulecore.data import MAX_BYTES
from rulecore.samples import SAMPLES
from rulecore.viz.data import class_balance

common.init_state()
ss = st.session_state
st.title("Data")


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


left, right = st.columns([2, 3])
with left:
    st.radio("Source", ["Sample", "Upload a CSV"], key="w_source", horizontal=True,
             index=0 if ss["source"] == "sample" else 1, on_change=_choose_source)
    if ss["source"] == "sample":
        names = list(SAMPLES)
        st.selectbox("Sample", names, index=names.index(ss["sample"]), key="w_sample",
                     format_func=lambda n: SAMPLES[n].title, on_change=_choose_sample)
    else:
        st.file_uploader("CSV file (comma, semicolon, tab or | separated; UTF-8)",
                         type=["csv", "txt", "tsv", "data"], key="w_upload",
                         on_change=_uploaded, max_upload_size=MAX_BYTES // 2**20)
        if not ss["upload"]:
            st.info("Upload a CSV file; the last column is taken as the target by default.")
            st.stop()
        st.caption(f"Uploaded: {ss['upload']['name']} (kept in this session only)")

try:
    ds = common.current_dataset()
except common.RulecoreError as exc:
    st.error(str(exc), icon=":material/error:")
    if ss["target"] is not None or ss["kinds"] or ss["positive"] is not None:
        st.button("Undo my target, class and column-kind choices", key="w_reset",
                  on_click=common.reset_choices)
    st.stop()
with left:
    if ds.description:
        st.caption(ds.description)
    all_cols = list(ds.X.columns) + [ds.target]

    def _target() -> None:
        target = ss["w_target"]
        common.reset_choices()
        ss["target"] = target

    # These widgets' options change with the data, and a keyed widget keeps the value its
    # browser shows: after a reset (common.reset_choices drops their keys) their values are
    # set here, through the session state, which Streamlit sends to the browser.  With
    # index=/default= the browser went on showing the old data's target and class.
    cat_now = [c for c, k in ds.kinds.items() if k == "categorical"]
    for key, value, valid in (("w_target", ds.target, all_cols.__contains__),
                              ("w_positive", ds.positive, ds.classes.__contains__),
                              ("w_categorical", cat_now, lambda v: set(v) <= set(ds.kinds))):
        if key not in ss or not valid(ss[key]):
            ss[key] = value
    st.selectbox("Target column", all_cols, key="w_target", on_change=_target)
    st.selectbox("Positive class (one-vs-rest)", ds.classes, key="w_positive",
                 on_change=common.sync, args=("w_positive", "positive"), format_func=str)

    def _kinds() -> None:
        chosen = set(ss["w_categorical"])
        ss["kinds"] = {**ss["kinds"], **{c: "categorical" if c in chosen else "numeric"
                                          for c in ds.kinds}}

    st.multiselect("Categorical columns (the rest are numeric)", list(ds.kinds),
                   key="w_categorical", on_change=_kinds,
                   help="Inferred from the values; integer flags with two values count as "
                        "categorical. Change it here.")
    for note in ds.notes:
        st.info(note, icon=":material/info:")

with right:
    c1, c2, c3 = st.columns(3)
    c1.metric("Rows", f"{ds.n_samples:,}")
    c2.metric("Features", ds.X.shape[1])
    c3.metric("Positive share", f"{ds.y_binary.mean():.1%}")
    st.vega_lite_chart(class_balance(ds.y, ds.positive), width="stretch", key="balance")

st.subheader("Preview")
preview = pd.concat([ds.X.head(200), ds.y.head(200)], axis=1)
st.dataframe(preview, width="stretch", height=320)
missing = ds.X.isna().sum()
if missing.any():
    st.caption("Missing values make every term on their column false. Missing per column: "
               + ", ".join(f"{c}: {n}" for c, n in missing[missing > 0].items()))
