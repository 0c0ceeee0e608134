"""Rule Explorer: the Streamlit entrypoint (``streamlit run app.py``).

Thin on purpose: page config, shared state, navigation.  Pages live in ``pages/``; all
computation is in ``rulecore`` and all figures in ``rulecore.viz``.
"""

from pathlib import Path

import streamlit as st

from pages import common

# The tab icon is a file served by this server: a ":material/...:" icon would make every
# browser fetch it from fonts.gstatic.com, a request to a third party on each visit.
ICON = Path(__file__).parent / "assets" / "icon.png"
st.set_page_config(page_title="Rule Explorer", page_icon=str(ICON), layout="wide")
common.init_state()
# Users who ask their system for less motion get no spinner spin and no fade while a rerun
# runs (WCAG 2.3.3).  Streamlit's own CSS ignores the setting.
st.html("""<style>@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { animation-duration: 0s !important; animation-delay: 0s !important;
    animation-iteration-count: 1 !important; transition-duration: 0s !important;
    transition-delay: 0s !important; }
}
/* A chosen column in the Rule page's narrow Must use / Must not use boxes, and the Data
   page's features box at 900 px, showed as "petal le..." (reviews): its tag wraps its text
   instead of cutting it. */
.st-key-require [data-tag], .st-key-forbid [data-tag], .st-key-w_features [data-tag] {
  height: auto; white-space: normal; }
.st-key-require [data-tag] > span, .st-key-forbid [data-tag] > span,
.st-key-w_features [data-tag] > span {
  white-space: normal; overflow: visible; text-overflow: clip; overflow-wrap: anywhere; }
/* Narrow pages (a 900 px split screen; the main column under 50 rem): settings and metrics
   side by side wrap onto another line instead of breaking labels letter by letter ("Un co nst
   rai ne d", "Positive s..."; reviews); pairs of panels stack.  Only there: with wrapping on,
   Streamlit's columns (flex-basis = weight % minus the gap) overflow by a few pixels at any
   width and the last column dropped to a line of its own at 1400 px. */
[data-testid="stMainBlockContainer"] { container-type: inline-size; }
@container (max-width: 50rem) {
  [data-testid="stForm"] [data-testid="stHorizontalBlock"],
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] [data-testid="stMetric"]),
  .st-key-data_top > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"],
  [class*="st-key-wrap_"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"],
  [class*="st-key-stack_"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] {
    flex-wrap: wrap; row-gap: 0.5rem; }
  [data-testid="stForm"] [data-testid="stHorizontalBlock"] > [data-testid="stColumn"],
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] [data-testid="stMetric"])
    > [data-testid="stColumn"] { min-width: 8.5rem; }
  [class*="st-key-wrap_"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"]
    > [data-testid="stColumn"] { min-width: 7rem; }
  .st-key-data_top > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"]
    > [data-testid="stColumn"],
  [class*="st-key-stack_"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"]
    > [data-testid="stColumn"] { min-width: 20rem; }
}
</style>""")

PAGES = [
    st.Page("pages/data.py", title="Data", icon=":material/table:", default=True),
    st.Page("pages/terms.py", title="Terms", icon=":material/view_column:"),
    st.Page("pages/rule.py", title="Rule", icon=":material/rule:"),
    st.Page("pages/screening.py", title="Screening", icon=":material/filter_alt:"),
    st.Page("pages/compare.py", title="Compare", icon=":material/compare_arrows:"),
    st.Page("pages/datumwise.py", title="Datum-wise", icon=":material/checklist:"),
    st.Page("pages/reduction.py", title="Reduction", icon=":material/compress:"),
]

nav = st.navigation(PAGES)
with st.sidebar:
    try:
        ds = common.current_dataset()
        all_classes = len(ds.classes) > 2 and st.session_state["rule"]["model"] == "rule set"
        st.caption(f"**{ds.name}** · {ds.n_samples:,} rows · " +
                   (f"{len(ds.classes)} classes" if all_classes else f"positive: {ds.positive}"))
    except common.RulecoreError:
        st.caption("No usable data loaded: see the Data page.")
nav.run()
