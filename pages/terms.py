"""Terms page: how thresholds turn the table into Boolean terms (the sensing matrix A)."""

import streamlit as st

from pages import common
from rulecore.viz.terms import term_counts

st.title("Terms")
ds = common.require_dataset()
common.dataset_caption(ds)
# what a term is, before any count of them (a newcomer's review: the page never said)
st.markdown("A **term** is a yes/no test on one column, such as `petal width (cm) <= 1.75` or "
            "`smoker == yes`: each numeric column gets a few thresholds (cut at quantiles of "
            "the training rows), each categorical column one term per level. A rule is an AND "
            "of terms, so these are every condition a rule can use.")
common.terms_controls("terms_")

with common.user_errors():
    binarizer = common.binarizer_for(ds)
counts = binarizer.term_counts()
n_terms = len(binarizer.terms_)

n_ordered = int((counts["kind"] == "ordinal").sum())
c1, c2, c3, *c4 = st.columns(4 if n_ordered else 3)
c1.metric("Terms in all", f"{n_terms:,}")
c2.metric("Numeric columns", int((counts["kind"] == "numeric").sum()))
c3.metric("Categorical columns", int((counts["kind"] == "categorical").sum()))
if n_ordered:
    c4[0].metric("Ordered scales", n_ordered,
                 help="Words with an order (Low < Medium < High): thresholds on the order, "
                      "'x <= Medium', as on numbers.")

# the table's four columns in sight beside a long name; stacked under 50 rem
left, right = st.container(key="stack_terms").columns([1, 1])
with left:
    # a long column name (a form's question) gets a fixed width, so kind, thresholds and
    # terms stay in sight (sized to the name they were pushed off the table; a review);
    # the whole name shows on hovering the chart's bar
    long = counts["column"].astype(str).str.len().max() > 40 if len(counts) else False
    # the counts' columns narrow, with their meaning on hover: "thresholds or levels" and
    # "terms" were cut off beside a form's questions (a newcomer's review)
    st.dataframe(counts, width="stretch", hide_index=True,
                 column_config={
                     "column": st.column_config.TextColumn(
                         "column", width="medium" if long else None),
                     "kind": st.column_config.TextColumn("kind", width="small"),
                     "thresholds or levels": st.column_config.NumberColumn(
                         "cuts / levels", width="small",
                         help="Thresholds of a numeric or ordered column, or levels of a "
                              "categorical one."),
                     "terms": st.column_config.NumberColumn("terms", width="small")})
with right:
    st.plotly_chart(term_counts(counts), width="stretch", key="term_counts")

st.caption(f"Terms are built on the {len(common.train_rows(ds)):,} training rows of the Rule "
           "page's split (its test share and seed), so every page counts the same terms.")
st.subheader("Term matrix (first 30 training rows)")
st.caption("✓ where the row satisfies the term. A missing value makes every term on its "
           "column false, but for 'is missing', which holds there.")
with common.user_errors():
    frame = binarizer.term_frame(ds.X.iloc[common.train_rows(ds)], rows=30)
st.dataframe(frame.replace({True: "✓", False: ""}), width="stretch", height=400)
