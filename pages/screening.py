"""Screening page: watch certified screening shrink the rule LP as λ and thresholds move."""

import numpy as np
import streamlit as st

from pages import common
from rulecore.bcs import class_sample_weights, solve_clause
from rulecore.report import speed_words
from rulecore.rulesets import resolve_class_weight
from rulecore.screening import screen
from rulecore.viz.screening import funnel, removed_by_test

ss = st.session_state
st.title("Screening")
ds = common.require_dataset()
common.dataset_caption(ds)
st.caption("Certified tests remove a term only with a proof that it is in no optimal 0/1 rule, "
           "so the rule learned on the kept terms is the same, found on a smaller problem. "
           "Screening acts on the Rule page's problem: its training rows, rule type and class "
           "weights.")


@st.cache_data(scope="session", max_entries=8, show_spinner="Building the term matrix...")
def or_problem(digest: str, key: tuple, _ds) -> dict:
    """What does not depend on λ: the OR-problem matrix, labels, weights and column groups,
    on the Rule page's training rows.

    AND-rules screen the complemented matrix (De Morgan, DESIGN.md §2).
    """
    rule_type, class_weight = key[3], key[6]
    b = common.binarizer_for(_ds)
    rows = common.train_rows(_ds)
    X = _ds.X.iloc[rows]
    A = b.transform(X)
    y = _ds.y_binary[rows]
    d = class_sample_weights(y, resolve_class_weight(class_weight, "single rule"),
                             np.array([0, 1]), None)
    if rule_type == "and":
        A, y = ~A, 1 - y
    # a rule never holds two conditions on one column that contradict or imply each other:
    # the same constraints as the Rule page's fit (Binarizer.conflict_cliques / _covers)
    return {"A": A, "y": y, "d": d, "terms": [str(t) for t in b.terms_],
            "feature_of": np.array([t.feature for t in b.terms_], dtype=object),
            "cliques": b.conflict_cliques(rule_type), "covers": b.conflict_covers(rule_type)}


@st.cache_data(scope="session", max_entries=32, show_spinner=False)
def screening_report(digest: str, key: tuple, lam: float, level: str, unsafe: bool, _prob):
    return screen(_prob["A"], _prob["y"], lam, weights=_prob["d"], level=level,
                  feature_of=_prob["feature_of"], unsafe_pairwise=unsafe,
                  cliques=_prob["cliques"], covers=_prob["covers"])


r = ss["rule"]
c1, c2 = st.columns([3, 2])
with c1:
    lam = common.lam_slider("scr_lam")
with c2:
    level = st.radio("Tests", ["basic", "enhanced"], horizontal=True, key="scr_level",
                     index=0 if r["screening"] == "basic" else 1,
                     help="Basic: rows in order for the dual, one greedy pass for the primal. "
                          "Enhanced: sorted rows, best-improvement primal, and the dual of "
                          "the LP on the survivors (reduced-cost fixing), iterated.")
    unsafe = st.toggle("Add the paper's pairwise test (not certified)",
                       key="scr_unsafe", value=False,
                       help="The pairwise test of the screening paper (§3.1) can remove terms "
                            "an optimal rule needs; results using it are marked uncertified.")
common.terms_controls("scr_")

t = ss["terms"]
key = (int(t["n_thresholds"]), t["thresholds"], bool(t["negations"]), r["rule_type"],
       float(r["test_size"]), int(r["seed"]), r["class_weight"])
with common.user_errors():
    prob = or_problem(ds.digest, key, _ds=ds)
    rep = screening_report(ds.digest, key, float(lam), level, unsafe, _prob=prob)

a, b, c, d = st.columns(4)
a.metric("Terms", f"{rep.n_columns:,}")
b.metric("Kept", f"{rep.n_kept:,}")
c.metric("Screened", f"{rep.fraction_screened:.1%}")
d.metric("Screening time", f"{rep.seconds * 1000:.0f} ms")
if not rep.certified:
    st.warning("The paper's pairwise test took part: these results are **not certified** and "
               "the rule on the kept terms may be worse than the optimum.",
               icon=":material/warning:")

left, right = st.columns(2)
left.plotly_chart(funnel(rep), width="stretch", key="funnel")
right.plotly_chart(removed_by_test(rep), width="stretch", key="by_test")
st.caption(f"Bounds on the 0/1 optimum (#conditions + λ·errors): "
           f"{rep.lower_bound:,.4g} ≤ optimum ≤ {rep.upper_bound:,.4g}.")

st.subheader("Removed terms and their certificates")
if len(rep.certificates):
    cert = rep.certificate_table(prob["terms"], prob["feature_of"])
    feats = st.multiselect("Filter by feature", sorted(set(cert["feature"])), key="scr_feat")
    if feats:
        cert = cert[cert["feature"].isin(feats)]
    st.dataframe(cert, hide_index=True, width="stretch", key="certs",
                 column_config={"proof": st.column_config.TextColumn(width="large")})
    st.caption("Count: the term costs at least what it can gain (c_j ≥ p_j). Dominance: "
               "another term covers every positive this one covers, at no greater cost. "
               "Duality: any rule using the term costs more than a rule already found. Costs "
               "are in the objective's own units (#conditions + λ × weighted errors).")
else:
    st.info("No term removed at this setting.")

st.subheader("Solve with and without screening")
if st.button("Solve both (exact MIP)", key="scr_solve",
             help="Solves the 0/1 problem on all terms and on the kept terms, same process."):
    with st.status("Solving...", expanded=True) as box, common.user_errors():
        st.write(f"Full problem: {rep.n_columns:,} terms")
        full = solve_clause(prob["A"], prob["y"], float(lam), prob["d"],
                            time_limit=float(r["time_limit"]), cliques=prob["cliques"],
                            covers=prob["covers"])
        st.write(f"Reduced problem: {rep.n_kept:,} terms")
        red = solve_clause(prob["A"], prob["y"], float(lam), prob["d"],
                           columns=np.flatnonzero(rep.kept), mip_start=rep.incumbent,
                           time_limit=float(r["time_limit"]), cliques=prob["cliques"],
                           covers=prob["covers"])
        box.update(label="Solved", state="complete")
    same = abs(full.objective - red.objective) <= 1e-9 * max(1.0, abs(full.objective))
    ss["scr_compare"] = {"full": full.objective, "reduced": red.objective,
                         "t_full": full.result.seconds,
                         "t_red": rep.seconds + red.result.seconds,
                         "status": (full.result.status, red.result.status), "same": same,
                         "params": (ds.digest, key, float(lam), level, unsafe)}
res = ss.get("scr_compare")
if res and res["params"] == (ds.digest, key, float(lam), level, unsafe):
    a, b, c = st.columns(3)
    a.metric("Without screening", f"{res['t_full']:.2f} s", help=f"status {res['status'][0]}")
    b.metric("Screening + reduced", f"{res['t_red']:.2f} s",
             delta=speed_words(res["t_full"], res["t_red"]),
             delta_color="normal" if res["t_red"] <= res["t_full"] else "inverse",
             help=f"status {res['status'][1]}")
    c.metric("Optimum", f"{res['full']:,.6g}",
             delta="identical" if res["same"] else f"differs: {res['reduced']:,.6g}",
             delta_color="normal" if res["same"] else "inverse")
