"""Screening page: watch certified screening shrink the rule LP as λ and thresholds move."""

import streamlit as st

from pages import common
from rulecore.report import speed_words
from rulecore.rules.clause import screen_problem, solve_problem
from rulecore.rules.problem import ClauseProblem
from rulecore.settings import RuleSettings
from rulecore.viz.screening import funnel, removed_by_test

ss = st.session_state
st.title("Screening")
ds = common.require_dataset()
common.dataset_caption(ds)
common.leak_warnings(ds)  # its terms may keep a leak (a review: every other page said it)
st.caption("Certified tests remove a term only with a proof that it is in no optimal 0/1 rule, "
           "so the rule learned on the kept terms is the same, found on a smaller problem. "
           "Screening acts on the Rule page's problem: its training rows, rule type and class "
           "weights.")


@st.cache_data(scope="session", max_entries=8, show_spinner="Building the term matrix...")
def rule_problem(digest: str, key: tuple, _ds) -> tuple[ClauseProblem, list[str]]:
    """The Rule page's single-rule problem on its training rows (rulecore builds it, exactly
    as the fit does: terms, class weights, conflicts), and the terms' text.  ``key``:
    (settings, test share, seed), what the training rows and the problem depend on."""
    settings = key[0]
    b = common.binarizer_for(_ds)
    rows = common.train_rows(_ds)
    problem = settings.estimator().problem(b.transform(_ds.X.iloc[rows]), _ds.y_binary[rows], b)
    return problem, [str(t) for t in b.terms_]


@st.cache_data(scope="session", max_entries=32, show_spinner=False)
def screening_report(digest: str, settings: RuleSettings, lam: float, level: str,
                     unsafe: bool, _problem: ClauseProblem):
    return screen_problem(_problem.with_lam(lam), level, unsafe_pairwise=unsafe,
                          time_limit=settings.time_limit)


r = ss["rule"]
c1, c2 = st.container(key="stack_scr_controls").columns([3, 2])
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

# the single rule of the Rule page's settings (λ aside): the problem does not depend on λ
ruled = common.rule_settings(ds)
settings = ruled.replace(model="single rule", lam=None)
# what the screened problem leaves out of the Rule page's: said, not hidden (a review saw
# the unconstrained problem's certificates under "acts on the Rule page's problem")
WORDS = {"require": "Must use", "forbid": "Must not use", "max_conditions": "Max conditions",
         "fp_cost": "error costs", "fn_cost": "error costs", "error": "errors counted per row"}
left_out = list(dict.fromkeys(WORDS[o] for o in ruled.single_rule_options()))
if left_out:
    st.info(f"This page screens the single rule's problem without your {', '.join(left_out)}: "
            "its terms, bounds and certificates are for that problem, not for the rule the "
            "Rule page fits with them.", icon=":material/info:")
# a newcomer read "column generation" beside a single rule, and "the λ below" under a
# slider above: each case in its own words
if ruled.model != "single rule":
    st.info(f"The Rule page fits a {ruled.model}; this page screens the single-rule problem "
            f"of the same training rows, {common.show(ds.positive)} against the rest, at the λ "
            "chosen above: each new clause of a rule set is priced by such a problem.",
            icon=":material/info:")
elif len(ds.classes) > 2:
    st.info(f"The target has {len(ds.classes)} classes: the single rule, and the problem "
            f"screened here, tell {common.show(ds.positive)} from the other "
            f"{len(ds.classes) - 1}. Choose the positive class on the Data page.",
            icon=":material/info:")
key = (settings, float(r["test_size"]), int(r["seed"]))
with common.user_errors():
    prob, term_text = rule_problem(ds.digest, key, _ds=ds)
    rep = screening_report(ds.digest, settings, float(lam), level, unsafe, _problem=prob)

a, b, c, d = st.columns(4)
a.metric("Terms", f"{rep.n_columns:,}")
b.metric("Kept", f"{rep.n_kept:,}")
c.metric("Screened", f"{rep.fraction_screened:.1%}")
d.metric("Screening time", f"{rep.seconds * 1000:.0f} ms")
if not rep.certified:
    st.warning("The paper's pairwise test took part: these results are **not certified** and "
               "the rule on the kept terms may be worse than the optimum.",
               icon=":material/warning:")

left, right = st.container(key="stack_scr_charts").columns(2)  # stacked under 50 rem
left.plotly_chart(funnel(rep), width="stretch", key="funnel")
right.plotly_chart(removed_by_test(rep), width="stretch", key="by_test")
st.caption(f"Bounds on the 0/1 optimum (#conditions + λ·errors): "
           f"{rep.lower_bound:,.4g} ≤ optimum ≤ {rep.upper_bound:,.4g}.")

st.subheader("Removed terms and their certificates")
if len(rep.certificates):
    cert = rep.certificate_table(term_text, prob.feature_of)
    feats = st.multiselect("Filter by feature", sorted(set(cert["feature"])), key="scr_feat",
                           wrap=True)
    if feats:
        cert = cert[cert["feature"].isin(feats)]
    picked = st.dataframe(cert, hide_index=True, width="stretch", key="certs",
                          on_select="rerun", selection_mode="single-row",
                          column_config={"proof": st.column_config.TextColumn(width="large")})
    # a cell cuts a long proof at the table's edge: the picked row's certificate, whole
    rows = picked.selection.rows if picked is not None else []
    if rows and rows[0] < len(cert):
        row = cert.iloc[rows[0]]
        st.info(f"**{row['term']}** — {row['test']}: {row['proof']}.",
                icon=":material/verified:")
    else:
        st.caption("Pick a row to read its whole certificate.")
    st.caption("Count: the term costs at least what it can gain (c_j ≥ p_j). Dominance: "
               "another term covers every positive this one covers, at no greater cost. "
               "Duality: any rule using the term costs more than a rule already found. Costs "
               "are in the objective's own units (#conditions + λ × weighted errors).")
else:
    st.info("No term removed at this setting.")

st.subheader("Solve with and without screening")
if unsafe:
    st.caption("Solve both uses the certified tests only: the paper's pairwise test takes no "
               "part in it, so its result says nothing about that test.")
if st.button("Solve both (exact MIP)", key="scr_solve",
             help="Solves the 0/1 problem on all terms and on the kept terms, same process."):
    with st.status("Solving...", expanded=True) as box, common.user_errors():
        at_lam = prob.with_lam(float(lam))
        st.write(f"Full problem: {rep.n_columns:,} terms")
        full = solve_problem(at_lam, screening="none", time_limit=settings.time_limit)
        st.write(f"Screening ({level}) and the reduced problem")
        red = solve_problem(at_lam, screening=level, time_limit=settings.time_limit)
        box.update(label="Solved", state="complete")
    same = abs(full.objective - red.objective) <= 1e-9 * max(1.0, abs(full.objective))
    ss["scr_compare"] = {"full": full.objective, "reduced": red.objective,
                         "t_full": full.seconds, "t_red": red.seconds,
                         "status": (full.status, red.status), "same": same,
                         "params": (ds.digest, key, float(lam), level, unsafe)}
res = ss.get("scr_compare")
if res and res["params"] == (ds.digest, key, float(lam), level, unsafe):
    a, b, c = st.columns(3)
    a.metric("Without screening", f"{res['t_full']:.2f} s", help=f"status {res['status'][0]}")
    speed = speed_words(res["t_full"], res["t_red"])
    b.metric("Screening + reduced", f"{res['t_red']:.2f} s", delta=speed,
             delta_color="off" if speed == "too fast to compare" else
             "normal" if res["t_red"] <= res["t_full"] else "inverse",
             delta_arrow="off" if speed == "too fast to compare" else "auto",
             help=f"status {res['status'][1]}")
    c.metric("Optimum", f"{res['full']:,.6g}",
             delta="identical" if res["same"] else f"differs: {res['reduced']:,.6g}",
             # "identical" is no rise: no arrow (a green up-arrow read as a gain: a review)
             delta_color="off" if res["same"] else "inverse",
             delta_arrow="off" if res["same"] else "auto")
