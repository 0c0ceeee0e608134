"""Column generation for DNF rule sets (rulecore.rules.colgen) against brute force.

Small random term matrices are enumerated exhaustively: every clause for the pricing problem,
every set of clauses for the master.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from rulecore.rules.colgen import (
    Pricing,
    beam_search,
    clique_conflicts,
    column_generation,
    exact_clause,
    merged_pricing,
    polish,
    ruleset_objective,
)


def all_clauses(p: int, cliques=()):
    """Every consistent clause over p terms (at most one term per clique), as tuples."""
    out = []
    for r in range(p + 1):
        for S in itertools.combinations(range(p), r):
            if all(len(set(S) & set(c)) <= 1 for c in cliques):
                out.append(S)
    return out


def random_pricing(rng, n=30, p=6, cliques=()):
    B = rng.random((n, p)) < 0.6
    y = rng.random(n) < 0.5
    mu = rng.random(n) * 3
    nu = rng.random(n) * 2
    C = [np.asarray(c) for c in cliques]
    return B, y, mu, nu, Pricing(B[y], B[~y], mu[y], nu[~y], 1.0, 1.0,
                                 clique_conflicts(C, p), [], cliques=C)


@pytest.mark.parametrize("clique_rows", [True, False])
@pytest.mark.parametrize("seed", range(12))
def test_exact_clause_equals_brute_force(seed, clique_rows):
    rng = np.random.default_rng(seed)
    cliques = [(0, 1, 2)] if seed % 2 else []
    _, _, _, _, pr = random_pricing(rng, cliques=cliques)
    best = min(pr.value(S) for S in all_clauses(pr.n_terms, cliques))
    ex = exact_clause(pr, time_limit=30, clique_rows=clique_rows)
    assert ex.optimal
    assert ex.value == pytest.approx(best, abs=1e-7)
    assert ex.bound <= best + 1e-7
    assert pr.value(ex.terms) == pytest.approx(ex.value)
    assert pr.consistent(ex.terms)


@pytest.mark.parametrize("seed", range(8))
def test_screened_pricing_finds_every_improving_clause(seed):
    """With ``upper`` (pricing asks only for clauses below 0), screening drops terms; the MIP
    still finds the best clause whenever one is below ``upper``."""
    rng = np.random.default_rng(100 + seed)
    _, _, _, _, pr = random_pricing(rng, n=40, p=7)
    best = min(pr.value(S) for S in all_clauses(pr.n_terms))
    for upper in (0.0, best + 0.5, best - 0.5):
        ex = exact_clause(pr, upper=upper)
        if best < upper - 1e-9:
            assert ex.value == pytest.approx(best, abs=1e-7)
        else:
            assert ex.bound >= min(upper, best) - 1e-7  # proves nothing beats upper


@pytest.mark.parametrize("seed", range(16))
def test_pricing_with_a_cutoff_answers_the_same_question(seed):
    """The cutoff MIP (HiGHS objective bound) either returns a clause below ``upper`` (the
    best one) or proves there is none: never a wrong proof, on every pricing enumerated."""
    rng = np.random.default_rng(300 + seed)
    cliques = [(0, 1)] if seed % 2 else []
    _, _, _, _, pr = random_pricing(rng, n=40, p=7, cliques=cliques)
    best = min(pr.value(S) for S in all_clauses(pr.n_terms, cliques))
    for upper in (0.0, best + 0.5, best - 0.5, best + 1e-3):
        ex = exact_clause(pr, upper=upper, cutoff=True)
        assert ex.optimal
        if best < upper - 1e-6:
            assert ex.value == pytest.approx(best, abs=1e-7)
            assert pr.value(ex.terms) == pytest.approx(ex.value)
        else:
            assert ex.value >= upper - 1e-6 and ex.bound <= best + 1e-7


@pytest.mark.parametrize("seed", range(6))
def test_beam_values_are_direct_counts(seed):
    rng = np.random.default_rng(200 + seed)
    _, _, _, _, pr = random_pricing(rng, cliques=[(2, 3, 4)])
    found = beam_search(pr, width=4, keep=5)
    assert found
    for S, v in found:
        assert pr.value(S) == pytest.approx(v)
        assert pr.consistent(S)
    assert [v for _, v in found] == sorted(v for _, v in found)


def local_moves(pr, S, cliques):
    """Every clause one move from S, by enumeration: add a term, drop one, or replace one
    by another of its clique; only consistent ones."""
    S = set(S)
    out = [tuple(sorted(S | {j})) for j in range(pr.n_terms) if j not in S]
    for t in S:
        out.append(tuple(sorted(S - {t})))
        alts = {j for c in cliques if t in c for j in c} - S
        out += [tuple(sorted((S - {t}) | {j})) for j in alts]
    return [T for T in out if pr.consistent(T)]


@pytest.mark.parametrize("seed", range(12))
def test_polish_ends_where_no_move_improves(seed):
    """From any clause, polishing returns a consistent clause at least as good, with its value
    counted directly, from which no add, drop or swap (enumerated) goes lower."""
    rng = np.random.default_rng(300 + seed)
    cliques = [(0, 1, 2), (3, 4)] if seed % 2 else [(1, 2)]
    _, _, _, _, pr = random_pricing(rng, n=40, p=7, cliques=cliques)
    starts = all_clauses(pr.n_terms, cliques)
    for S in [starts[i] for i in rng.choice(len(starts), 6, replace=False)]:
        T, v = polish(pr, S, max_moves=50)
        assert pr.consistent(T)
        assert v == pytest.approx(pr.value(T))
        assert v <= pr.value(S) + 1e-9
        assert min(pr.value(U) for U in local_moves(pr, T, cliques)) >= v - 1e-7
        # a cap on conditions holds, and only the moves within it are asked of the result
        T, v = polish(pr, S, max_conditions=2, max_moves=50)
        assert len(T) <= max(2, len(S)) and v <= pr.value(S) + 1e-9
        if len(S) <= 2:
            assert min(pr.value(U) for U in local_moves(pr, T, cliques) if len(U) <= 2) >= v - 1e-7


def rare_pricing(n=2000, k=4, seed=2, lam=0.08):
    """Rows of k uniform columns binarized at 9 thresholds each (x <= t and x > t); y is a
    small box with 5 % of labels flipped, and its two-condition prefixes hold more negatives
    than positives: the pricing problem of bench/scale.py --table rare in small.  Returns
    the problem and the box's clause, ``x0 > 0.7 AND x1 <= 0.3 AND x2 > 0.6``."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, k))
    y = ((X[:, 0] > 0.7) & (X[:, 1] <= 0.3) & (X[:, 2] > 0.6)) ^ (rng.random(n) < 0.05)
    t = np.linspace(0.1, 0.9, 9)
    B = np.hstack([X[:, [f]] <= t for f in range(k)] + [X[:, [f]] > t for f in range(k)])
    cliques = [np.arange(9 * f, 9 * f + 9) for f in range(2 * k)]  # one "<=", one ">" each
    pr = Pricing(B[y], B[~y], lam * np.ones(y.sum()), lam * np.ones((~y).sum()), 1.0, 1.0,
                 clique_conflicts(cliques, B.shape[1]), [], cliques=cliques)
    return pr, (9 + 2, 9 * k + 6, 9 * (k + 2) + 5)


def test_beam_polishes_its_best_clauses_when_none_pays(monkeypatch):
    """Every clause the beam grows toward the box is worse than none (its prefixes hold too
    many negatives), so it finds nothing below 0 unpolished; polishing reaches the box.
    (The live mixed rank, which skips extensions that cannot pay, finds it unpolished.)"""
    from rulecore.rules import colgen

    pr, box = rare_pricing()
    assert pr.value(box) < 0
    monkeypatch.setattr(colgen, "POLISHED", 0)
    assert beam_search(pr, width=4, keep=5, below=0.0) == []
    assert beam_search(pr, width=4, keep=5, below=0.0, live_mix=True)[0][0] == box
    monkeypatch.setattr(colgen, "POLISHED", 3)
    found = beam_search(pr, width=4, keep=5, below=0.0)
    assert found and found[0][1] < 0
    assert found[0][1] == pytest.approx(pr.value(found[0][0]))
    assert found[0][1] <= pr.value(box) + 1e-9


@pytest.mark.parametrize("seed", range(8))
def test_pricing_cover_rows_hold_every_clause_and_imply_the_pair_rows(seed):
    """The pricing MIP's rows ``δ_i + Σ_{j ∈ Q, i fails j} z_j ≤ 1``: each failing (row,
    term) pair lies in exactly one row of its row i, a row's terms share a clique, and every
    consistent clause with its true cover (δ_i = 1 iff it covers row i) satisfies them all."""
    from rulecore.rules.colgen import _cover_rows

    rng = np.random.default_rng(400 + seed)
    n, k = 12, 7
    fails = rng.random((n, k)) < 0.4
    cliques = [np.array(c) for c in ([(0, 1, 2), (2, 3), (5, 6)] if seed % 2 else [(1, 4)])]
    A = _cover_rows(fails, cliques, k, n).tocsr()
    assert A.shape[1] == k + n
    seen = np.zeros((n, k), int)
    for r in range(A.shape[0]):
        cols = A.indices[A.indptr[r]:A.indptr[r + 1]]
        z, delta = cols[cols < k], cols[cols >= k] - k
        assert len(delta) == 1 and len(z) >= 1
        i = delta[0]
        assert fails[i, z].all()
        seen[i, z] += 1
        if len(z) > 1:
            assert any(set(z.tolist()) <= set(c.tolist()) for c in cliques)
    assert np.array_equal(seen, fails.astype(int))
    for S in all_clauses(k, [tuple(c) for c in cliques]):
        x = np.zeros(k + n)
        x[list(S)] = 1
        x[k:] = ~fails[:, list(S)].any(axis=1)
        assert (A @ x <= 1 + 1e-12).all()


def test_pricing_cover_rows_take_a_numeric_column_in_two_groups():
    """A numeric column's AND cliques C_k = {x <= t_i : i <= k} ∪ {x > t_j : j >= k} all have
    D + 1 terms; the rows should use two groups (every "x > t" and every "x <= t", give or
    take one), not one per threshold: a row failing every term gets at most two rows."""
    from rulecore.rules.colgen import _cover_rows

    D = 6
    le, gt = np.arange(D), D + np.arange(D)
    cliques = [np.r_[le[:k + 1], gt[k:]] for k in range(D)]
    A = _cover_rows(np.ones((3, 2 * D), bool), cliques, 2 * D, 3)
    assert A.shape[0] == 3 * 2


def test_merged_pricing_keeps_values():
    rng = np.random.default_rng(7)
    B = rng.random((50, 4)) < 0.5
    B[25:] = B[:25]  # duplicates
    y = rng.random(50) < 0.5
    mu, nu = rng.random(50), rng.random(50)
    full = Pricing(B[y], B[~y], mu[y], nu[~y])
    merged = merged_pricing(B, y, mu, nu)
    assert len(merged.BP) + len(merged.BN) < 50
    for S in all_clauses(4):
        assert merged.value(S) == pytest.approx(full.value(S))


def brute_force_dnf(B, y, d, lam, error, clauses):
    best, arg = np.inf, None
    for r in range(len(clauses) + 1):
        for sub in itertools.combinations(clauses, r):
            v = ruleset_objective(B, y, d, sub, lam, error)
            if v < best - 1e-12:
                best, arg = v, sub
    return best, arg


def small_problem(seed, n=24, p=3):
    rng = np.random.default_rng(seed)
    B = rng.random((n, p)) < 0.55
    y = (B[:, 0] & B[:, 1]) | (rng.random(n) < 0.2)
    y = y.astype(int)
    d = rng.integers(1, 4, n).astype(float)
    return B, y, d


@pytest.fixture(params=["rows", "patterns"])
def master_kind(request, monkeypatch):
    """Column generation with the row-per-positive master, and with the pattern master (used
    above PATTERN_MASTER_ROWS positives) forced on these small problems."""
    from rulecore.rules import colgen

    if request.param == "patterns":
        monkeypatch.setattr(colgen, "PATTERN_MASTER_ROWS", 0)
    return request.param


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("error", ["hamming", "exact"])
def test_master_over_all_clauses_is_the_optimum(seed, error, master_kind):
    """Given every clause as the pool, the final MIP is the exact optimum over all DNFs."""
    B, y, d = small_problem(seed)
    lam = [0.3, 1.0, 3.0][seed % 3]
    clauses = all_clauses(B.shape[1])
    best, _ = brute_force_dnf(B, y, d, lam, error, clauses)
    res = column_generation(B, y, d, lam=lam, error=error, pool=clauses, certify=True)
    assert res.objective == pytest.approx(best, abs=1e-7)
    assert res.objective == pytest.approx(ruleset_objective(B, y, d, res.clauses, lam, error))


@pytest.mark.parametrize("seed", range(8))
def test_certified_lp_bound_is_a_bound(seed, master_kind):
    """From an empty pool: the rule set's objective is its direct count, and when pricing is
    certified, the LP value bounds the Hamming optimum over every DNF from below."""
    B, y, d = small_problem(50 + seed)
    lam = [0.5, 2.0][seed % 2]
    best, _ = brute_force_dnf(B, y, d, lam, "hamming", all_clauses(B.shape[1]))
    res = column_generation(B, y, d, lam=lam, certify=True)
    assert res.certified
    assert res.lp_bound <= best + 1e-7
    assert res.hamming_objective >= best - 1e-7
    assert res.hamming_objective == pytest.approx(
        ruleset_objective(B, y, d, res.clauses, lam, "hamming"))
    assert res.gap == pytest.approx((res.hamming_objective - res.lp_bound)
                                    / res.hamming_objective, abs=1e-9)


def test_weights_equal_repetition():
    B, y, d = small_problem(3)
    d = d.astype(int)
    rep = np.repeat(np.arange(len(y)), d)
    a = column_generation(B, y, d.astype(float), lam=1.0)
    b = column_generation(B[rep], y[rep], None, lam=1.0)
    assert a.objective == pytest.approx(b.objective)
    assert sorted(a.clauses) == sorted(b.clauses)


def test_a_large_pricing_problem_is_proved_by_the_search_and_the_claim_says_so(monkeypatch):
    """On a million rows HiGHS took about 100 s to build the 1 s pricing MIP, which never
    proved at that size, so it was left out and no rule set was certified at scale.  Past
    REPEATABLE_PRICING_PAIRS the branch and bound over clauses prices instead (forced here on
    a small table): it certifies, the claim says how, and at its node limit it says so."""
    import pandas as pd

    from rulecore import RuleSetClassifier
    from rulecore.report import fit_status
    from rulecore.rules import branch_and_bound, colgen

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(400, 4)), columns=list("abcd"))
    y = ((X.a > 0) & (X.b < 0.5)).astype(int).to_numpy()
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", -1)   # every problem is "large"
    monkeypatch.setattr(colgen, "SEARCH_ROWS", 0)                 # and searched
    m = RuleSetClassifier(random_state=0).fit(X, y)
    fit = m.fits_[next(iter(m.fits_))]
    assert m.certified_ and fit.pricing_stop == "proved"
    assert fit.pricings and all(r["method"] == "search" for r in fit.pricings)
    said = fit_status(m).text
    assert f"a branch and bound over clauses proved in {fit.pricings[-1]['nodes']:,} nodes" \
        in said
    assert m.n_rules_ >= 1  # the planted clause
    # a set above the certified LP bound: the bound is said, with how its pricing was proved
    m.mip_gap_ = 0.05
    bound = fit_status(m).text
    assert "Certified bound: no rule set" in bound and "Certified optimal" not in bound
    assert (f"(the LP over every clause, priced exactly: a branch and bound over clauses "
            f"proved in {fit.pricings[-1]['nodes']:,} nodes that none improves it), so ") in bound
    monkeypatch.setattr(branch_and_bound, "MAX_NODES", 2)
    cut = RuleSetClassifier(random_state=0).fit(X, y)
    fit = cut.fits_[next(iter(cut.fits_))]
    assert not cut.certified_ and fit.pricing_stop == "node limit"
    assert fit.pricings[-1]["nodes"] == 2
    assert "visited its 2 nodes without finding an improving clause or proving that there " \
        "is none" in fit_status(cut).text


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("error", ["hamming", "exact"])
def test_greedy_start_is_a_set_of_clauses_that_each_paid(seed, error):
    """The master's greedy start (used when the last LP was cut short, as on a million rows):
    its objective, counted directly, is never above the empty set's, and with every clause in
    the pool and no LP solution at all, the choice is still no worse than it."""
    from rulecore.rules import colgen

    B, y, d = small_problem(100 + seed)
    lam = [0.5, 2.0, 5.0][seed % 3]
    clauses = [S for S in all_clauses(B.shape[1]) if S]
    pos = y == 1
    CP = np.column_stack([B[pos][:, list(S)].all(axis=1) for S in clauses])
    CN = np.column_stack([B[~pos][:, list(S)].all(axis=1) for S in clauses])
    size = np.array([1.0 + len(S) for S in clauses])
    w = colgen._greedy(CP, CN, d[pos], d[~pos], size, lam, error)
    chosen = [clauses[j] for j in np.flatnonzero(w)]
    greedy = ruleset_objective(B, y, d, chosen, lam, error)
    assert greedy <= ruleset_objective(B, y, d, [], lam, error) + 1e-9

    # the deadline stopped the last LP before it had a solution
    no_lp = colgen.MasterLP("time_limit", np.nan, None, None, 1)
    got, _ = colgen._integer_master(clauses, list(CP.T), list(CN.T), d[pos], d[~pos], lam,
                                    error, no_lp, 0.0)
    assert ruleset_objective(B, y, d, got, lam, error) <= greedy + 1e-9


def test_the_pricing_loop_records_why_it_ended(monkeypatch):
    """The report said the pricing MIP "did not finish in the 1 s it gets" of runs that had
    finished in 0.05 s, found a clause the beam search missed and were not run again, and
    of runs given 0.0013 s (a review).  The loop records what happened, and a run stopped at
    its time limit is not repeated."""
    import dataclasses

    from rulecore.rules import colgen

    B, y, d = small_problem(50)
    monkeypatch.setattr(colgen, "beam_search", lambda *a, **k: [])  # every clause from the MIP
    one = column_generation(B, y, d, lam=2.0, max_exact_pricings=1)
    assert one.pricing_stop == "no round left" and not one.certified
    assert [(r["status"], r["found"]) for r in one.pricings] == [("optimal", True)]
    many = column_generation(B, y, d, lam=2.0, max_exact_pricings=100)
    assert many.pricing_stop == "proved" and many.certified
    assert len(many.pricings) > 1 and not many.pricings[-1]["found"]
    assert all(r["found"] for r in many.pricings[:-1])
    assert column_generation(B, y, d, lam=2.0, certify=False).pricing_stop == "not asked"
    assert column_generation(B, y, d, lam=2.0, time_limit=0.0).pricing_stop == "out of time"
    real = colgen.exact_clause
    monkeypatch.setattr(colgen, "exact_clause", lambda *a, **k: dataclasses.replace(
        real(*a, **k), status="time_limit"))
    timed = column_generation(B, y, d, lam=2.0, max_exact_pricings=100, pricing_time_limit=0.7)
    assert timed.pricing_stop == "timed out" and not timed.certified
    # a MIP this small gets REPEATABLE_PRICING_SECONDS, whatever the short limit
    assert len(timed.pricings) == 1 and timed.pricings[0]["method"] == "mip"
    assert timed.pricings[0]["time_limit"] == pytest.approx(colgen.REPEATABLE_PRICING_SECONDS)
    # the clause a MIP held when its time ran out is not added: which one it holds by then
    # depends on the machine's load (3 of 12 benchmark fits changed on a loaded core)
    assert timed.pricings[0]["found"] and timed.pool == [] and timed.clauses == []


@pytest.mark.parametrize("status", ["interrupted", "iteration_limit", "memory_limit"])
def test_a_pricing_that_ends_on_another_status_is_not_called_timed_out(status, monkeypatch):
    """Any HiGHS status but a time limit used to be reported as "stopped at its time limit"
    (noticed in review): the stop is "solver stopped", the sentence names the status, and
    nothing is certified or added."""
    import dataclasses

    from rulecore.report import _pricing_words
    from rulecore.rules import colgen

    B, y, d = small_problem(50)
    monkeypatch.setattr(colgen, "beam_search", lambda *a, **k: [])
    real = colgen.exact_clause
    monkeypatch.setattr(colgen, "exact_clause", lambda *a, **k: dataclasses.replace(
        real(*a, **k), status=status))
    res = column_generation(B, y, d, lam=2.0, max_exact_pricings=100)
    assert res.pricing_stop == "solver stopped" and not res.certified
    assert res.pool == [] and res.clauses == []
    said = _pricing_words(res)
    assert "time limit" not in said
    assert f'the solver ended with the status "{status.replace("_", " ")}"' in said
    assert said.startswith("stopped without an answer after ")
    # a time limit is still said as one
    monkeypatch.setattr(colgen, "exact_clause", lambda *a, **k: dataclasses.replace(
        real(*a, **k), status="time_limit"))
    assert column_generation(B, y, d, lam=2.0).pricing_stop == "timed out"


@pytest.mark.parametrize("seed", range(8))
def test_the_search_answers_what_the_mip_answers(seed, monkeypatch):
    """Past REPEATABLE_PRICING_PAIRS the exact pricing is the branch and bound over clauses
    (forced here for every problem).  At the same duals it finds an improving clause exactly
    when the MIP does (the first pricing of two fits from the same start); its clause is left
    out, not added; and over a pool of every clause it proves the bound the MIP proves."""
    from rulecore.rules import colgen

    B, y, d = small_problem(200 + seed)
    lam = [0.5, 2.0][seed % 2]
    monkeypatch.setattr(colgen, "beam_search", lambda *a, **k: [])  # every clause priced
    kw = dict(lam=lam, pool=[(0,), (1,)], max_exact_pricings=100, master_time_limit=10.0)
    by_mip = column_generation(B, y, d, **kw)
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", -1)
    monkeypatch.setattr(colgen, "SEARCH_ROWS", 0)
    by_search = column_generation(B, y, d, **kw)
    assert by_search.pricings[0]["method"] == "search"
    assert by_search.pricings[0]["found"] == by_mip.pricings[0]["found"]
    if by_search.pricings[0]["found"]:
        assert by_search.pricing_stop == "left out" and not by_search.certified
        assert sorted(by_search.pool) == [(0,), (1,)]
        from rulecore.report import _pricing_words

        said = _pricing_words(by_search)
        assert said.startswith("was a branch and bound over clauses (")
        assert "which found a clause that improves the set, one the beam search had missed; " \
            "that clause was left out, since the cross-validation that chose λ" in said
    every = dict(kw, pool=all_clauses(B.shape[1]))
    proved = column_generation(B, y, d, **every)
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", 2_000)
    assert proved.certified and proved.pricing_stop == "proved"
    assert proved.pricings[-1]["method"] == "search"
    assert proved.lp_bound == pytest.approx(column_generation(B, y, d, **every).lp_bound,
                                            abs=1e-7)


@pytest.mark.parametrize("seed", range(4))
def test_a_large_pricing_mip_on_few_rows_only_proves(seed, monkeypatch):
    """Below SEARCH_ROWS a problem past REPEATABLE_PRICING_PAIRS goes to a MIP with the short
    limit: whether it finishes depends on the load, so a clause it finds is left out (and
    said), and a proof it brings leaves the choice to the support MIP."""
    from rulecore.report import _pricing_words
    from rulecore.rules import colgen

    B, y, d = small_problem(300 + seed)
    monkeypatch.setattr(colgen, "beam_search", lambda *a, **k: [])
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", -1)
    res = column_generation(B, y, d, lam=2.0, pool=[(0,), (1,)], pricing_time_limit=0.7)
    assert res.pricings[0]["method"] == "mip"
    assert res.pricings[0]["time_limit"] == pytest.approx(0.7)
    if res.pricings[0]["found"]:
        assert res.pricing_stop == "left out" and sorted(res.pool) == [(0,), (1,)]
        assert "how busy the machine is" in _pricing_words(res)
    elif res.certified:
        assert res.status in ("support", "rounded")


def test_too_many_distinct_duals_for_the_search_is_said(monkeypatch):
    from rulecore.report import _pricing_words
    from rulecore.rules import branch_and_bound, colgen

    B, y, d = small_problem(7)
    monkeypatch.setattr(colgen, "beam_search", lambda *a, **k: [])
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", -1)
    monkeypatch.setattr(colgen, "SEARCH_ROWS", 0)
    monkeypatch.setattr(branch_and_bound, "MAX_LEVELS", 1)
    res = column_generation(B, y, d, lam=2.0, pool=[(0,), (1,)])
    assert res.pricing_stop == "too many weights" and not res.certified
    assert sorted(res.pool) == [(0,), (1,)]
    assert _pricing_words(res).startswith("was not run: the duals over the merged rows take "
                                          "more than")


def test_a_search_cut_by_its_time_limit_adds_nothing(monkeypatch):
    """Which clause a search holds when its time runs out depends on the machine's load, as
    with the MIP: it is not added, the set is not proved, and the claim says so."""
    import dataclasses

    from rulecore.report import _pricing_words
    from rulecore.rules import branch_and_bound, colgen

    B, y, d = small_problem(7)
    monkeypatch.setattr(colgen, "beam_search", lambda *a, **k: [])
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", -1)
    monkeypatch.setattr(colgen, "SEARCH_ROWS", 0)
    real = branch_and_bound.search_clauses

    def cut(*a, **k):
        r = real(*a, **k)  # holds the best clause it saw, like a search stopped early
        return dataclasses.replace(r, status="time limit", exhausted=False)

    monkeypatch.setattr(branch_and_bound, "search_clauses", cut)
    res = column_generation(B, y, d, lam=2.0, pool=[(0,), (1,)])
    assert res.pricing_stop == "timed out" and not res.certified
    assert sorted(res.pool) == [(0,), (1,)]  # nothing of the search's was added
    said = _pricing_words(res)
    nodes = res.pricings[-1]["nodes"]
    assert said.startswith("was a branch and bound over clauses (the MIP takes problems of up "
                           "to 2,000 failing row-condition pairs; this one has ")
    assert "), which stopped at its time limit of " in said
    assert f"after {nodes:,} of the {branch_and_bound.MAX_NODES:,} nodes it may visit" in said
    assert "a larger time limit lets it go on" in said
    # it held no clause (its answer was cut): none is said to be left out
    assert not res.pricings[-1]["found"] and "was left out" not in said


def test_a_proof_by_the_search_certifies_with_its_gap(monkeypatch):
    """The bound the branch and bound proves bounds every rule set (brute force), and the
    set chosen is reported with its gap to it (optimal when the gap is 0)."""
    from rulecore.rules import colgen

    B, y, d = small_problem(7)
    clauses = all_clauses(B.shape[1])
    best, _ = brute_force_dnf(B, y, d, 2.0, "hamming", clauses)
    monkeypatch.setattr(colgen, "REPEATABLE_PRICING_PAIRS", -1)
    monkeypatch.setattr(colgen, "SEARCH_ROWS", 0)
    res = column_generation(B, y, d, lam=2.0, pool=clauses, master_time_limit=5.0)
    assert res.certified and res.pricing_stop == "proved"
    assert res.pricings[-1]["method"] == "search"
    assert res.lp_bound <= best + 1e-7 <= res.hamming_objective + 2e-7
    assert res.gap == pytest.approx((res.hamming_objective - res.lp_bound)
                                    / res.hamming_objective, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_an_uncertified_fit_does_not_take_a_cut_mips_incumbent(seed, master_kind, monkeypatch):
    """Without a proved bound the clauses are chosen by a MIP over the clauses the LP uses,
    taken only when it is solved to the end; a MIP cut by its limit returned the incumbent
    it held by then, and a benchmark fit came out different on a loaded machine.  With a
    proved bound the MIP over every clause closes the gap: the optimum over the clauses."""
    import dataclasses

    from rulecore import highs

    B, y, d = small_problem(70 + seed)
    lam = [0.5, 2.0][seed % 2]
    kw = dict(lam=lam, pool=all_clauses(B.shape[1]), certify=False)
    best, _ = brute_force_dnf(B, y, d, lam, "hamming", all_clauses(B.shape[1]))
    inner = column_generation(B, y, d, master_time_limit=0.0, **kw)  # the inner fits' rounding
    support = column_generation(B, y, d, master_time_limit=5.0, **kw)
    assert inner.status == "rounded" and support.status == "support"
    assert best - 1e-7 <= support.objective <= inner.objective + 1e-9
    real = highs.Model.solve

    def cut(keep_x):  # every MIP stops at its limit, holding its answer or nothing
        def solve(self, **k):
            r = real(self, **k)
            return dataclasses.replace(r, status="time_limit", x=r.x if keep_x else None) \
                if r.mip else r
        return solve

    chosen = []
    for keep_x in (True, False):
        monkeypatch.setattr(highs.Model, "solve", cut(keep_x))
        res = column_generation(B, y, d, master_time_limit=5.0, **kw)
        assert res.status == "rounded"
        chosen.append(sorted(res.clauses))
    assert chosen[0] == chosen[1]  # the same set whatever the cut MIP held
    monkeypatch.setattr(highs.Model, "solve", real)
    proved = column_generation(B, y, d, **dict(kw, certify=True), master_time_limit=5.0)
    assert proved.certified and proved.status == "optimal"
    assert proved.objective == pytest.approx(best, abs=1e-7)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("error", ["hamming", "exact"])
def test_local_search_over_clauses_ends_where_no_move_improves(seed, error):
    """The final fit's choice without a proved bound: from a start, the best add, drop or
    swap of a clause while it lowers the objective.  It never ends above its start, and at
    its end no single add, drop or swap (enumerated) lowers the directly counted objective."""
    from rulecore.rules.colgen import _local_search

    rng = np.random.default_rng(seed)
    nP, nN, K = (int(v) for v in rng.integers(3, 15, 2).tolist() + [rng.integers(1, 7)])
    CP, CN = rng.random((nP, K)) < 0.4, rng.random((nN, K)) < 0.3
    dP, dN = rng.integers(1, 4, nP).astype(float), rng.integers(1, 4, nN).astype(float)
    size = rng.integers(2, 5, K).astype(float)
    lam = float(rng.choice([0.5, 1.0, 2.0, 4.0]))

    def objective(w):
        fp = (CN[:, w].sum(axis=1) if error == "hamming" else CN[:, w].any(axis=1)) @ dN
        return size[w].sum() + lam * (dP @ ~CP[:, w].any(axis=1) + fp)

    w0 = rng.random(K) < 0.5
    w = _local_search(w0, CP, CN, dP, dN, size, lam, error)
    assert objective(w) <= objective(w0) + 1e-9
    for j in range(K):
        for k in [None, *range(K)]:
            v = w.copy()
            v[j] = not v[j]
            if k is not None:
                if not (w[j] and not w[k]):
                    continue
                v[k] = True
            assert objective(v) >= objective(w) - 1e-9


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("kind", ["PatternMaster", "RowMaster"])
def test_master_over_cover_patterns_is_the_row_per_positive_master(seed, kind):
    """The master LP with one row per cover pattern (PatternMaster) has the value of the LP
    with one row per positive, built directly here, and its dual, spread over each pattern's
    members by weight, is an optimal dual of that LP: within [0, λ d_i], every generated
    clause's reduced cost ≥ 0, and Σ μ equal to the value.  Clauses arrive in batches, as in
    column generation, so the groups are split several times.  The warm-started master with a
    row per positive (RowMaster, for fewer positives) passes the same checks."""
    from rulecore import highs
    from rulecore.rules import colgen

    rng = np.random.default_rng(seed)
    nP, K = int(rng.integers(1, 60)), int(rng.integers(1, 12))
    dP = rng.integers(1, 4, nP).astype(float) * (rng.random(nP) < 0.9)  # some weight 0
    lam = float(rng.choice([0.2, 0.7, 2.0]))
    cover = rng.random((nP, K)) < rng.uniform(0.1, 0.7)
    cover[:, :2] = cover[:, :1]  # a duplicate clause: degenerate duals
    cost = 1 + rng.integers(1, 4, K) + rng.random(K) * 3
    master = getattr(colgen, kind)(dP, lam)
    cuts = np.sort(rng.choice(np.arange(1, K + 1), size=min(K, 3), replace=False))
    lo = 0
    for hi in cuts:
        master.add(list(cover[:, lo:hi].T), cost[lo:hi])
        lo = hi
    master.add(list(cover[:, lo:].T), cost[lo:])
    got = master.solve(time_limit=10)
    # the LP with a row per positive: ξ_i + Σ_k a_ik w_k ≥ 1
    A = sp.hstack([sp.identity(nP), sp.csr_matrix(cover.astype(float))])
    want = highs.solve(np.r_[lam * dP, cost], A, np.ones(nP), np.full(nP, np.inf),
                       np.zeros(nP + K), np.r_[np.ones(nP), np.full(K, np.inf)],
                       time_limit=10)
    assert got.status == want.status == "optimal"
    assert got.objective == pytest.approx(want.objective, abs=1e-7)
    assert got.groups == (len({tuple(r) for r in cover}) if kind == "PatternMaster"
                          else nP)
    mu = got.mu
    assert np.all(mu >= 0) and np.all(cost - mu @ cover >= -1e-7)
    # a slack at its bound 1 takes any excess over λ d_i: without it, the same value
    assert np.minimum(mu, lam * dP).sum() == pytest.approx(got.objective, abs=1e-7)
    assert got.w.shape == (K,)
    # the primal: the clauses' weights reach the value with each positive's best slack
    xi = np.clip(1 - cover.astype(float) @ got.w, 0, None)
    assert cost @ got.w + lam * dP @ xi == pytest.approx(got.objective, abs=1e-6)


@pytest.mark.parametrize("shape", [(0, 3), (4, 0), (0, 0), (1, 1), (9, 17)])
def test_rows_grouped_by_pattern_of_any_shape(shape):
    """The final MIP's rows grouped by pattern (problem.merge_identical_rows), empty matrices
    included (the exact count's final MIP groups the negatives its clauses cover, and there
    may be none): one row per distinct pattern, each with its members' summed weight."""
    from rulecore.rules.problem import merge_identical_rows

    rng = np.random.default_rng(sum(shape))
    C = rng.random(shape) < 0.3
    if shape == (9, 17):
        C[3] = C[7]
    d = rng.integers(1, 4, shape[0]).astype(float)
    rows, weights = merge_identical_rows(C, d)
    assert weights.shape == (len(rows),)
    assert len(rows) == len({tuple(r) for r in C})
    for r, w in zip(rows, weights):
        assert w == pytest.approx(d[(C == r).all(axis=1)].sum())
    assert weights.sum() == pytest.approx(d.sum())


@pytest.mark.parametrize("master_kind", ["rows", "patterns"], indirect=True)
def test_exact_count_with_clauses_that_cover_no_negative(master_kind):
    """Under the exact count, a final choice among clauses none of which covers a negative
    (so no ζ at all) is the direct optimum: grouping no rows raised here once."""
    B = np.array([[1, 1], [1, 0], [0, 1], [0, 0], [1, 1], [0, 0]], dtype=bool)
    y = np.array([1, 1, 1, 0, 1, 0])
    d = np.ones(6)
    res = column_generation(B, y, d, lam=5.0, error="exact", pool=[(0,), (1,)])
    assert res.objective == pytest.approx(ruleset_objective(B, y, d, res.clauses, 5.0, "exact"))
    assert sorted(res.clauses) == [(0,), (1,)]


def _narrow_terms_beside_a_pair(seed: int, narrow: int = 400, lam: float = 0.2):
    """A pricing problem as the exact 0/1 error of a rare class makes it: two broad terms
    whose pair describes the class (Stripe's `Card Funding == prepaid AND Amount > 150`)
    among hundreds of narrow ones, each true on a row or two (a card's last four digits)."""
    rng = np.random.default_rng(seed)
    n_pos, n_neg = 130, 2370
    prepaid = np.r_[rng.random(n_pos) < 0.5, rng.random(n_neg) < 0.1]
    big = np.r_[np.where(prepaid[:n_pos], rng.random(n_pos) < 0.97, rng.random(n_pos) < 0.4),
                np.where(prepaid[n_pos:], rng.random(n_neg) < 0.02, rng.random(n_neg) < 0.4)]
    codes = rng.integers(0, narrow, n_pos + n_neg)
    B = np.c_[prepaid, big, codes[:, None] == np.arange(narrow)[None, :]]
    return Pricing(B[:n_pos], B[n_pos:], np.full(n_pos, lam), np.full(n_neg, lam),
                   clause_cost=0.0, cond_cost=1.0)


@pytest.mark.parametrize("seed", range(3))
def test_the_beam_is_not_filled_by_narrow_terms_that_cannot_pay(seed):
    """A term true on a row or two costs a condition and gains nothing: with hundreds of
    them, the beam's mixed ranking kept only those (their bound is near their value) and
    never grew the pair that describes the class; the exact rule of a Stripe export was
    `Card Last4 == 1260` (objective 27) where `Card Funding == prepaid AND Amount > 150`
    has 16 (a stranger's).  Clauses whose bound cannot beat the best value found are no
    candidates."""
    pr = _narrow_terms_beside_a_pair(seed)
    pair = pr.value((0, 1))
    assert pair < min(pr.value((j,)) for j in range(pr.n_terms)) - 5  # the pair pays
    (S, v), = beam_search(pr, width=20, keep=1, live_mix=True)
    assert v <= pair + 1e-9 and pr.value(S) == pytest.approx(v)
    # the single rule's exact error runs both rankings (the value ranking alone misses it)
    assert beam_search(pr, width=20, keep=1)[0][1] > pair + 5
    from rulecore.rules.solvers import solve_clause_exact

    A = ~np.r_[pr.BP, pr.BN]  # the OR problem whose AND view over ~A is this pricing
    y = np.r_[np.zeros(len(pr.BP), int), np.ones(len(pr.BN), int)]
    sol = solve_clause_exact(A, y, 0.2, np.ones(len(y)), time_limit=5, prove=False)
    assert sol.objective <= pair + 0.2 * len(pr.BP) + 1e-9
