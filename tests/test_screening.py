"""Certified screening never changes the 0/1 optimum; the paper's pairwise test can.

The safety tests below must be able to fail: they compare exact MIP optima with and without
screening on 1,000+ random instances (binary designs and binarized continuous data, varied
size, λ, class balance and weights), and confirm the MIP optima themselves by enumeration.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from rulecore import highs
from rulecore.data import load_sample
from rulecore.exceptions import ParameterError
from rulecore.rules.clause import learn_clause
from rulecore.rules.estimators import BooleanRuleClassifier
from rulecore.rules.problem import or_objective
from rulecore.rules.screening import TEST_LABELS, _lp_on, _Problem, screen
from rulecore.rules.solvers import solve_clause
from rulecore.rules.terms import Binarizer


def random_instance(seed: int):
    """An OR-problem instance: (A, y, λ, weights or None, feature group per column)."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(6, 40))
    lam = float(rng.choice([0.3, 0.7, 1.0, 2.0, 5.0, 20.0, 1000.0]))
    balance = rng.uniform(0.15, 0.85)
    weights = rng.uniform(0.2, 3.0, size=m) if rng.random() < 0.4 else None
    if rng.random() < 0.5:
        # binarized continuous data: nested threshold columns, as the app builds them
        n_feat = int(rng.integers(1, 4))
        X = pd.DataFrame(np.round(rng.normal(size=(m, n_feat)), 1),
                         columns=[f"f{i}" for i in range(n_feat)])
        b = Binarizer(n_thresholds=int(rng.integers(2, 6))).fit(X)
        A = b.transform(X)
        groups = np.array([t.feature for t in b.terms_])
        if rng.random() < 0.5:  # AND-rule view: complemented matrix
            A = ~A
    else:
        n = int(rng.integers(3, 14))
        A = rng.random((m, n)) < rng.uniform(0.1, 0.6)
        groups = rng.integers(0, 3, size=n)
    y = (rng.random(m) < balance).astype(int)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    return A, y, lam, weights, groups


def mip_value(A, y, lam, d, columns=None) -> float:
    return solve_clause(A, y, lam, d, columns=columns, time_limit=30).objective


N_INSTANCES = 1000


def test_certified_screening_keeps_the_mip_optimum_on_1000_instances():
    checked = removed = 0
    for seed in range(N_INSTANCES):
        A, y, lam, d, groups = random_instance(seed)
        if A.shape[1] == 0:
            continue
        full = mip_value(A, y, lam, d)
        # the reduced MIP of each distinct kept set, solved once: the full one when nothing
        # was removed, and the basic level's when the enhanced level kept the same columns
        values = {tuple(range(A.shape[1])): full}
        for level in ("basic", "enhanced"):
            rep = screen(A, y, lam, weights=d, level=level, feature_of=groups)
            assert rep.certified
            kept = np.flatnonzero(rep.kept)
            if tuple(kept) not in values:
                values[tuple(kept)] = mip_value(A, y, lam, d, columns=kept)
            reduced = values[tuple(kept)]
            assert reduced == pytest.approx(full, rel=1e-9, abs=1e-9), (seed, level)
            # the screening incumbent and bounds are honest
            assert rep.upper_bound >= full - 1e-6 and rep.lower_bound <= full + 1e-6
            assert or_objective(A, y, rep.incumbent, lam, d) == pytest.approx(rep.upper_bound)
            assert not (rep.incumbent & ~rep.kept).any()
            removed += int((~rep.kept).sum())
            checked += 1
    assert checked >= 2 * N_INSTANCES * 0.99
    assert removed > 0  # screening did something, so the test had something to refute


@pytest.mark.parametrize("seed", range(60))
def test_mip_optimum_equals_enumeration_on_tiny_instances(seed):
    A, y, lam, d, _ = random_instance(10_000 + seed)
    A = A[:, :10]
    n = A.shape[1]
    best = min(or_objective(A, y, np.array(w, dtype=bool), lam, d)
               for w in itertools.product([0, 1], repeat=n))
    assert mip_value(A, y, lam, d) == pytest.approx(best, rel=1e-9, abs=1e-9)
    rep = screen(A, y, lam, weights=d, level="enhanced")
    best_kept = min(or_objective(A, y, np.array(w, dtype=bool) & rep.kept, lam, d)
                    for w in itertools.product([0, 1], repeat=n))
    assert best_kept == pytest.approx(best, rel=1e-9, abs=1e-9)


def test_the_papers_pairwise_test_is_not_safe():
    """docs/screening.md: the paper's pairwise test changes the optimum on some instances."""
    changed = []
    for seed in range(400):
        A, y, lam, d, groups = random_instance(20_000 + seed)
        rep = screen(A, y, lam, weights=d, level="enhanced", tests=(), feature_of=groups,
                     unsafe_pairwise=True)
        assert not rep.certified
        if rep.kept.all():
            continue
        full = mip_value(A, y, lam, d)
        reduced = mip_value(A, y, lam, d, columns=np.flatnonzero(rep.kept))
        if reduced > full + 1e-9:
            changed.append(seed)
        if len(changed) >= 3:
            break
    assert changed, "expected the heuristic to change the optimum on some instance"


def test_certificates_carry_their_numbers():
    ds = load_sample("breast cancer")
    b = Binarizer(n_thresholds=20).fit(ds.X)
    A, y = ~b.transform(ds.X), 1 - ds.y_binary
    rep = screen(A, y, 10.0, level="enhanced",
                 feature_of=np.array([t.feature for t in b.terms_]))
    cert = rep.certificates
    assert len(cert) == rep.n_columns - rep.n_kept
    assert set(cert["test"]) <= {"count", "dominance", "duality", "lp-dual"}
    count = cert[cert.test == "count"]
    assert (count["cost"] >= count["gain"] - 1e-6).all()
    dual = cert[cert.test.isin(["duality", "lp-dual"])]
    assert (dual["lb"] > dual["ub"]).all()
    dom = cert[cert.test == "dominance"]
    assert (dom["by"] >= 0).all() and rep.kept[dom["by"].astype(int)].any()
    funnel = rep.funnel()
    assert funnel["columns"].iloc[0] == rep.n_columns
    assert funnel["columns"].iloc[-1] == rep.n_kept
    assert (np.diff(funnel["columns"]) <= 0).all()
    # each test alone removes a subset of what it could; the sequence removes the union
    for mask in rep.removed_by.values():
        assert not (mask & rep.kept).any()
    assert rep.fraction_screened > 0.5


def test_classifier_with_screening_matches_without():
    for name, pos in [("breast cancer", "malignant"), ("salesforce attrition", "yes"),
                      ("iris", "virginica")]:
        ds = load_sample(name).with_positive(pos)
        for lam in (0.5, 5.0):
            # the unscreened MIP (the default is screening="enhanced": compared with itself,
            # this test could not fail)
            base = BooleanRuleClassifier(lam=lam, n_thresholds=20, screening="none").fit(
                ds.X, ds.y_binary)
            for level in ("basic", "enhanced"):
                scr = BooleanRuleClassifier(lam=lam, n_thresholds=20, screening=level)
                scr.fit(ds.X, ds.y_binary)
                assert scr.objective_ == pytest.approx(base.objective_), (name, lam, level)
                assert scr.screening_report_.n_kept < scr.n_terms_


def test_weighted_screening_through_boosting():
    from rulecore.rules.estimators import BoostedRuleClassifier

    ds = load_sample("salesforce attrition")
    # two rounds: the second is weighted, and screening keeps 9 of 98 terms there; the third
    # (screening keeps 98) cost 2 × 8 s of MIP and tested screening on nothing it removed
    a = BoostedRuleClassifier(n_rounds=2, lam=1000.0, screening="none").fit(ds.X, ds.y_binary)
    b = BoostedRuleClassifier(n_rounds=2, lam=1000.0, screening="enhanced").fit(
        ds.X, ds.y_binary)
    assert [r["C"] for r in a.rounds_] == pytest.approx([r["C"] for r in b.rounds_])
    assert len(b.rounds_) == 2 and b.weights_history_[1].std() > 0  # round 2 is weighted


def test_bad_arguments():
    A = np.ones((3, 2), dtype=bool)
    with pytest.raises(ParameterError):
        screen(A, np.array([0, 1, 1]), 1.0, level="max")
    with pytest.raises(ParameterError):  # λ is checked once, where a clause is learned
        learn_clause(A, np.array([0, 1, 1]), lam=0.0)
    with pytest.raises(ParameterError):
        screen(A, np.array([0, 1, 1]), 1.0, tests=("pairwise",))


def test_enhanced_incumbent_is_never_worse_than_basic():
    """Regression: enhanced once compared an unfinished greedy rule with a finished one and
    kept a worse incumbent than basic (seen on gas: UB 592002 against 490006)."""
    worse = 0
    for seed in range(300):
        A, y, lam, d, groups = random_instance(30_000 + seed)
        basic = screen(A, y, lam, weights=d, level="basic", feature_of=groups,
                       tests=("count",))
        enh = screen(A, y, lam, weights=d, level="enhanced", feature_of=groups,
                     tests=("count",))
        worse += enh.upper_bound > basic.upper_bound + 1e-9
    assert worse == 0


@pytest.mark.parametrize("seed", range(40))
def test_screening_lp_dual_is_a_certificate_with_and_without_presolve(seed):
    """The lp-dual step's LP (highs.solve, presolve off by default) returns a dual that proves
    its value.

    Its bounds are only as good as this: μ ≥ 0, Mᵀμ ≤ cost (dual feasible) and 1ᵀμ equal to
    the primal value (strong duality), with the same value whether or not HiGHS presolves.
    """
    A, y, lam, d, _ = random_instance(seed)
    pr = _Problem(A, y, lam, np.ones(len(y)) if d is None else d)
    rng = np.random.default_rng(seed)
    live = rng.random(pr.n) < 0.8
    if not live.any():
        live[0] = True
    Ap = pr.AP[:, live]
    M = sp.hstack([sp.csc_matrix(Ap, dtype=float), sp.identity(len(pr.dP), format="csc")],
                  format="csc")
    cost = np.concatenate([pr.c[live], pr.dP])
    values = []
    for presolve in (True, False):
        m, n = M.shape
        res = highs.solve(cost, M, np.ones(m), np.full(m, np.inf), np.zeros(n),
                          np.full(n, np.inf), time_limit=30.0, presolve=presolve)
        x, mu, value = res.x, res.row_dual, res.objective
        assert (mu >= -1e-9).all() and (M.T @ mu <= cost + 1e-7).all()
        assert mu.sum() == pytest.approx(value, rel=1e-7, abs=1e-7)
        assert (M @ x >= 1 - 1e-7).all() and cost @ x == pytest.approx(value, abs=1e-7)
        values.append(value)
    assert values[0] == pytest.approx(values[1], rel=1e-9, abs=1e-9)
    # _lp_on (merged rows, dual split back over them) proves the same value on all rows
    w, mu_all, value = _lp_on(pr, live, 30.0)
    assert value == pytest.approx(values[1], rel=1e-9, abs=1e-9)
    assert (mu_all >= -1e-9).all() and (mu_all <= pr.dP + 1e-9).all()
    assert (mu_all @ pr.AP[:, live] <= pr.c[live] + 1e-7).all()
    assert mu_all.sum() == pytest.approx(value, rel=1e-7, abs=1e-7)


@pytest.mark.parametrize("rule_type", ["and", "or"])
def test_dominance_with_cliques_only_makes_safe_swaps(rule_type):
    """With conflict cliques a column j is removed for one (by) that conflicts with nothing
    more, among the live columns, except columns k too dear to share an optimal rule with j
    (cost_j + cost_k > UB); a subset of the free test's removals."""
    from rulecore.rules.problem import column_costs

    ds = load_sample("breast cancer")
    b = Binarizer(n_thresholds=20).fit(ds.X)
    A, y = b.transform(ds.X), ds.y_binary
    A, y = (~A, 1 - y) if rule_type == "and" else (A, y)
    cliques = b.conflict_cliques(rule_type)
    feature_of = np.array([t.feature for t in b.terms_])
    lam = 1.0
    kw = dict(level="basic", feature_of=feature_of, tests=("count", "dominance"))
    free = screen(A, y, lam, **kw)
    safe = screen(A, y, lam, cliques=cliques, **kw)
    n = A.shape[1]
    N = np.zeros((n, n), dtype=bool)
    for c in cliques:
        N[np.ix_(c, c)] = True
    np.fill_diagonal(N, False)
    cost = column_costs(A, y, lam, np.ones(len(y)))
    live = ~safe.removed_by["count"]
    dom = safe.certificates[safe.certificates.test == "dominance"]
    assert len(dom) > 0
    for j, by in zip(dom["column"].astype(int), dom["by"].astype(int)):
        extra = N[by] & live & ~N[j]
        extra[j] = False
        assert (cost[j] + cost[extra] > safe.upper_bound - 1e-9).all(), (b.terms_[j],
                                                                          b.terms_[by])
    assert not (safe.removed_by["dominance"] & ~free.removed_by["dominance"]).any()


def test_certificate_table_reads_as_proofs_with_no_empty_cell():
    from rulecore.rules.terms import Binarizer
    from rulecore.samples import load_sample

    ds = load_sample("machine failure")
    b = Binarizer(n_thresholds=10, kinds=ds.kinds).fit(ds.X)
    A, y = ~b.transform(ds.X), 1 - ds.y_binary
    feature_of = np.array([t.feature for t in b.terms_], dtype=object)
    rep = screen(A, y, 2.0, level="enhanced", feature_of=feature_of,
                 cliques=b.conflict_cliques("and"), covers=b.conflict_covers("and"))
    table = rep.certificate_table([str(t) for t in b.terms_], feature_of)
    assert len(table) == rep.n_columns - rep.n_kept
    assert table.notna().all().all() and not table.isin(["None", "nan", ""]).any().any()
    for test, proof in zip(table["test"], table["proof"]):
        start = {"Count test": "costs ", "Safe dominance": "dominated by "}.get(test, "any rule")
        assert proof.startswith(start), (test, proof)
    assert set(table["test"]) <= set(TEST_LABELS.values())


@pytest.mark.parametrize("seed", range(40))
def test_lp_by_row_generation_is_the_whole_lp_and_its_dual_is_feasible(seed, monkeypatch):
    """Row generation (rounds of 3 rows here, 20,000 in use) reaches the LP over every row,
    with a dual feasible for all rows and equal to the value; cut short by the memory budget
    its dual is still feasible, so the bounds stay certificates."""
    import rulecore.rules.screening as screening

    A, y, lam, d, _ = random_instance(seed)
    pr = _Problem(A, y, lam, np.ones(len(y)) if d is None else d)
    live = np.ones(pr.n, dtype=bool)
    _, _, whole = _lp_on(pr, live, 30.0)
    monkeypatch.setattr(screening, "LP_ROWS_AT_ONCE", 3)
    monkeypatch.setattr(screening, "AGGREGATE_ROUNDS", 0)  # row generation alone
    w, mu, value = _lp_on(pr, live, 30.0)
    assert value == pytest.approx(whole, rel=1e-9, abs=1e-9)
    assert (mu >= -1e-9).all() and (mu <= pr.dP + 1e-9).all()
    assert (mu @ pr.AP[:, live] <= pr.c[live] + 1e-7).all()
    assert mu.sum() == pytest.approx(value, rel=1e-7, abs=1e-7)
    # a budget that stops after the first round: a weaker but still feasible dual
    monkeypatch.setattr(screening, "memory_budget",
                        lambda: screening.solver_bytes(3 * pr.n + 3 + 1))
    w, mu, value = _lp_on(pr, live, 30.0)
    if mu is not None:
        assert (mu >= -1e-9).all() and (mu <= pr.dP + 1e-9).all()
        assert (mu @ pr.AP[:, live] <= pr.c[live] + 1e-7).all()
        assert mu.sum() <= whole + 1e-7


@pytest.mark.parametrize("block", [1, 3, 4096])
def test_the_greedy_dual_skips_only_rows_that_would_get_nothing(block, monkeypatch):
    """Rows already on a spent column are skipped in blocks: μ is the one-row-at-a-time
    pass's, exactly."""
    import rulecore.rules.screening as screening

    def one_at_a_time(pr, live, sort_rows):
        AP, slack, mu = pr.AP[:, live], pr.c[live].copy(), np.zeros(len(pr.dP))
        rows = np.arange(len(pr.dP))
        if sort_rows:
            rows = rows[np.argsort(AP.sum(axis=1), kind="stable")]
        for i in rows:
            room = slack[AP[i]].min() if AP[i].any() else pr.dP[i]
            mu[i] = min(pr.dP[i], max(room, 0.0))
            slack[AP[i]] -= mu[i]
        return mu

    monkeypatch.setattr(screening, "_DUAL_BLOCK", block)
    for seed in range(150):
        A, y, lam, d, _ = random_instance(seed)
        pr = _Problem(A, y, lam, np.ones(len(y)) if d is None else d)
        live = np.random.default_rng(seed).random(pr.n) < 0.8
        for sort_rows in (False, True):
            assert (screening._greedy_dual(pr, live, sort_rows)
                    == one_at_a_time(pr, live, sort_rows)).all(), seed


def test_unique_rows_is_numpys_unique_of_rows():
    """The same first occurrences and inverse as np.unique(axis=0), so merged problems keep
    their canonical row order: widths around the 8-byte words, duplicates, no rows."""
    from rulecore.rules.problem import unique_rows

    rng = np.random.default_rng(0)
    for trial in range(300):
        n, k = int(rng.integers(0, 60)), int(rng.integers(1, 140))
        A = rng.random((n, k)) < rng.uniform(0.05, 0.95)
        if n and trial % 2:
            A = A[rng.integers(0, n, n)]             # repeated rows
        packed = np.packbits(A, axis=1)
        first, inverse = unique_rows(packed)
        if not n:
            assert len(first) == len(inverse) == 0
            continue
        _, first_np, inverse_np = np.unique(packed, axis=0, return_index=True,
                                            return_inverse=True)
        assert (first == first_np).all() and (inverse == inverse_np.ravel()).all(), trial


def merged_rows(pr: _Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """What _lp_on hands the aggregated LP: the costs of the columns that cover a row, the
    distinct rows over them with their summed weights, and the weight of the rows no column
    covers (ξ = 1 in every solution)."""
    cols = np.flatnonzero(pr.AP.any(axis=0))
    rows = pr.AP[:, cols].any(axis=1)
    A1, inverse = np.unique(pr.AP[np.ix_(rows, cols)], axis=0, return_inverse=True)
    return pr.c[cols], A1, np.bincount(inverse.ravel(), weights=pr.dP[rows]), \
        float(pr.dP[~rows].sum())


@pytest.mark.parametrize("seed", range(60))
def test_the_aggregated_lp_gives_a_feasible_dual_and_the_lp_when_it_converges(seed,
                                                                              monkeypatch):
    """Rows summed in groups of a few: whatever the grouping, the dual split over every row
    is feasible for the dual over all rows and proves at most the LP's value (so its bounds
    are certificates); when the solution meets every row's own constraint the value is the
    LP's.  With one group per row it is the whole LP."""
    import rulecore.rules.screening as screening

    A, y, lam, d, _ = random_instance(seed)
    pr = _Problem(A, y, lam, np.ones(len(y)) if d is None else d)
    live = np.ones(pr.n, dtype=bool)
    _, _, whole = _lp_on(pr, live, 30.0)
    if not pr.AP.any():
        return
    c, A1, dsum, covered_anyway = merged_rows(pr)
    for groups in (1, 2, 3, len(A1)):
        monkeypatch.setattr(screening, "AGGREGATE_GROUPS", groups)
        agg = screening._lp_aggregated(c, A1, dsum, 30.0)
        assert agg is not None
        assert (agg.dual >= -1e-12).all() and (agg.dual <= dsum + 1e-9).all()
        assert (agg.dual @ A1 <= c + 1e-7).all()            # feasible for every row
        assert agg.bound == pytest.approx(agg.dual.sum(), rel=1e-9, abs=1e-9)
        assert agg.bound + covered_anyway <= whole + 1e-7
        assert agg.value + covered_anyway <= whole + 1e-7   # a relaxation of the LP
        if agg.converged:
            assert agg.value + covered_anyway == pytest.approx(whole, rel=1e-9, abs=1e-9)
        if groups == len(A1):
            assert agg.converged
    # through _lp_on, past the rows it takes at once: the same guarantees on the real rows
    monkeypatch.setattr(screening, "LP_ROWS_AT_ONCE", 3)
    monkeypatch.setattr(screening, "AGGREGATE_GROUPS", 2)
    w, mu, value = _lp_on(pr, live, 30.0)
    assert (mu >= -1e-9).all() and (mu <= pr.dP + 1e-9).all()
    assert (mu @ pr.AP[:, live] <= pr.c[live] + 1e-7).all()
    assert mu.sum() <= whole + 1e-7
    if np.isfinite(value):
        assert value == pytest.approx(whole, rel=1e-9, abs=1e-9)


def test_the_aggregated_lp_converges_on_the_columns_its_solution_uses(monkeypatch):
    """Rows that agree on the columns the solution uses are alike to the LP: regrouped by
    those columns first, round after round, 50 groups prove the LP's value on 2,008 distinct
    rows, where the columns' own order alone proves a third of it."""
    import rulecore.rules.screening as screening

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(3000, 6)), columns=[f"x{i}" for i in range(6)])
    y = ((X.x4 > 0) & (X.x5 <= 0.3)).to_numpy() ^ (rng.random(3000) < 0.05)
    B = Binarizer(n_thresholds=6).fit(X).transform(X)
    pr = _Problem(~B, 1 - y.astype(int), 1.0, np.ones(3000))   # the AND rule's OR problem
    _, _, whole = _lp_on(pr, np.ones(pr.n, dtype=bool), 60.0)
    c, A1, dsum, covered_anyway = merged_rows(pr)
    assert len(A1) > 2000   # 40 rows per group
    monkeypatch.setattr(screening, "AGGREGATE_GROUPS", 50)
    monkeypatch.setattr(screening, "AGGREGATE_ROUNDS", 1)   # the columns' own order only
    once = screening._lp_aggregated(c, A1, dsum, 60.0)
    monkeypatch.setattr(screening, "AGGREGATE_ROUNDS", 8)
    agg = screening._lp_aggregated(c, A1, dsum, 60.0)
    assert agg.bound + covered_anyway == pytest.approx(whole, rel=1e-6)
    assert once.bound + covered_anyway < whole - 1.0         # regrouping is what did it
    assert (agg.dual @ A1 <= c + 1e-7).all()


@pytest.mark.parametrize("groups, rounds", [(2, 4), (3, 1), (2000, 0)])
def test_screening_by_row_generation_keeps_the_mip_optimum(groups, rounds, monkeypatch):
    """Past the rows taken at once: the aggregated LP in groups of a few rows (then row
    generation with the time left), or row generation alone (rounds = 0)."""
    import rulecore.rules.screening as screening

    monkeypatch.setattr(screening, "LP_ROWS_AT_ONCE", 4)
    monkeypatch.setattr(screening, "AGGREGATE_GROUPS", groups)
    monkeypatch.setattr(screening, "AGGREGATE_ROUNDS", rounds)
    for seed in range(300):
        A, y, lam, d, groups = random_instance(seed)
        if A.shape[1] == 0:
            continue
        rep = screen(A, y, lam, weights=d, level="enhanced", feature_of=groups)
        full = mip_value(A, y, lam, d)
        reduced = mip_value(A, y, lam, d, columns=np.flatnonzero(rep.kept))
        assert reduced == pytest.approx(full, rel=1e-9, abs=1e-9), seed


@pytest.mark.parametrize("path", ["screening", "mip"])
@pytest.mark.parametrize("seed", range(80))
def test_a_cutoff_keeps_every_clause_below_it_and_proves_when_there_is_none(seed, path,
                                                                             monkeypatch):
    """learn_clause(cutoff=v): screening against v, or (no screening, no small-clause
    search) the MIP pruned at v, give the optimum when it is below v, and a proof (status
    "cutoff", or an optimum at or above v) when every clause is at or above v (enumeration
    of all clauses of ≤ 10 terms)."""
    import rulecore.rules.solvers as solvers

    screening = "enhanced" if path == "screening" else "none"
    if path == "mip":
        monkeypatch.setattr(solvers, "SMALL_SEARCH_BUDGET", 0)
    A, y, lam, d, _ = random_instance(20_000 + seed)
    A = A[:, :10]
    n = A.shape[1]
    if n == 0:
        return
    best = min(or_objective(A, y, np.array(w, dtype=bool), lam, d)
               for w in itertools.product([0, 1], repeat=n))
    rng = np.random.default_rng(seed)
    for v in (best * rng.uniform(0.5, 0.999), best, best * rng.uniform(1.001, 1.5) + 0.01):
        res = learn_clause(~A, 1 - y, lam=lam, sample_weight=d, cutoff=v, screening=screening)
        if best < v - 1e-9:
            assert res.status == "optimal"
            assert res.objective == pytest.approx(best, rel=1e-9, abs=1e-9)
        else:
            assert res.status == "cutoff" or res.objective >= v - 1e-9, (seed, v, best)
            assert res.objective >= best - 1e-9


def test_dominance_skips_the_groups_its_time_budget_cannot_cover(monkeypatch):
    """The dominance test's work grows with the cube of a group (pairs × conflicts; 335 s on
    10,000 midpoints of one column): groups run smallest first within the time limit, and a
    group that would not fit is skipped.  Screening then keeps more terms; the optimum is the
    same."""
    import rulecore.rules.screening as S

    ds = load_sample("breast cancer")
    b = Binarizer(n_thresholds=20).fit(ds.X)
    A, y = ~b.transform(ds.X), 1 - ds.y_binary
    feature_of = np.array([t.feature for t in b.terms_])
    kw = dict(level="basic", feature_of=feature_of, tests=("count", "dominance"))
    full = screen(A, y, 1.0, **kw)
    assert full.removed_by["dominance"].any()
    group = np.unique(feature_of, return_inverse=True)[1]
    sizes = np.bincount(group[~full.removed_by["count"]], minlength=group.max() + 1)
    # a budget that the estimate says fits the groups up to the median size only
    middle = int(np.median(sizes[sizes > 0]))
    monkeypatch.setattr(S, "DOMINANCE_SECONDS_PER_UNIT", 1.0)
    capped = screen(A, y, 1.0, time_limit=float(middle) ** 3 + 0.5, **kw)
    big = np.isin(group, np.flatnonzero(sizes > middle))
    assert big.any() and full.removed_by["dominance"][big].any()
    assert not capped.removed_by["dominance"][big].any()
    assert capped.removed_by["dominance"][~big].any()
    assert (capped.removed_by["dominance"] <= full.removed_by["dominance"]).all()
    kept = np.flatnonzero(capped.kept)
    assert mip_value(A, y, 1.0, None, columns=kept) == pytest.approx(mip_value(A, y, 1.0, None))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (255, 7), (256, 9), (257, 5),
                                   (1000, 408)])
def test_transposed_and_columns_equal_numpys_own(shape):
    """The blocked transpose and the column gather screening uses on large tables give
    exactly what ``M.T`` and ``M[:, which]`` give, for masks and for indices."""
    from rulecore.rules.screening import columns, transposed

    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    M = rng.random(shape) < 0.5
    T = transposed(M)
    assert T.flags.c_contiguous and np.array_equal(T, M.T)
    mask = rng.random(shape[1]) < 0.5
    assert np.array_equal(columns(M, mask), M[:, mask])
    idx = rng.permutation(shape[1])[: shape[1] // 2]
    assert np.array_equal(columns(M, idx), M[:, idx])
