"""Tests for rulecore.highs: the Model class on small LPs and MIPs with known answers."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from rulecore import highs
from rulecore.exceptions import ParameterError
from rulecore.highs import Model

INF = np.inf


def _knapsack(values, weights, capacity, integer=True) -> Model:
    """max values·x s.t. weights·x <= capacity, x ∈ {0,1}^n (as a minimisation)."""
    m = Model()
    m.add_columns(-np.asarray(values, float), 0.0, 1.0, integer=integer)
    m.add_rows([-INF], [capacity], sp.csr_matrix(np.asarray(weights, float)[None, :]))
    return m


def _brute_force_knapsack(values, weights, capacity):
    best = max((float(np.dot(values, x)), x) for x in itertools.product([0, 1], repeat=len(values))
               if np.dot(weights, x) <= capacity)
    return best[0]


@pytest.mark.parametrize("seed", range(4))
def test_knapsack_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = 10
    values, weights = rng.integers(1, 30, n), rng.integers(1, 20, n)
    capacity = int(weights.sum() // 3)
    res = _knapsack(values, weights, capacity).solve(time_limit=10.0)
    assert res.status == "optimal" and res.mip
    assert -res.objective == pytest.approx(_brute_force_knapsack(values, weights, capacity))
    assert np.allclose(res.x, np.round(res.x)) and weights @ np.round(res.x) <= capacity
    assert res.bound == pytest.approx(res.objective) and res.gap == pytest.approx(0.0, abs=1e-9)
    assert res.row_dual is None  # duals only for an LP


def _small_lp() -> Model:
    """min −x₁ − 2x₂  s.t.  x₁ + x₂ <= 4,  x₁ + 3x₂ <= 6,  x >= 0: optimum (3, 1), −5."""
    m = Model()
    m.add_columns([-1.0, -2.0], 0.0, INF)
    m.add_rows([-INF, -INF], [4.0, 6.0], sp.csr_matrix([[1.0, 1.0], [1.0, 3.0]]))
    return m


def test_lp_optimum_and_duals():
    res = _small_lp().solve(time_limit=5.0)
    assert res.status == "optimal" and not res.mip
    assert res.x == pytest.approx([3.0, 1.0])
    assert res.objective == pytest.approx(-5.0) and res.bound == pytest.approx(-5.0)
    assert res.gap == 0.0
    # both rows are tight: Aᵀy = c gives y = (−1/2, −1/2), and b·y is the optimum
    assert res.row_dual == pytest.approx([-0.5, -0.5])
    assert np.dot([4.0, 6.0], res.row_dual) == pytest.approx(res.objective)


def test_add_rows_after_a_solve_changes_the_optimum():
    m = _small_lp()
    assert m.solve(time_limit=5.0).objective == pytest.approx(-5.0)
    m.add_rows([-INF], [2.0], [[1.0, 0.0]])  # x₁ <= 2: then x₂ = 4/3 from the second row
    res = m.solve(time_limit=5.0)
    assert m.n_rows == 3 and res.row_dual.shape == (3,)
    assert res.x == pytest.approx([2.0, 4.0 / 3.0])
    assert res.objective == pytest.approx(-2.0 - 8.0 / 3.0)
    m.add_rows([3.0], [INF], [[1.0, 1.0]])  # x₁ + x₂ >= 3 cuts off nothing optimal here
    assert m.solve(time_limit=5.0).objective == pytest.approx(-2.0 - 8.0 / 3.0)


def test_mip_resolved_after_cuts_with_a_start():
    """The outer-approximation pattern: solve, add a cut, hand over a start, solve again."""
    values, weights = np.array([10.0, 7.0, 6.0, 3.0]), np.array([5.0, 4.0, 3.0, 1.0])
    m = _knapsack(values, weights, 8.0)
    first = m.solve(time_limit=5.0)
    assert -first.objective == pytest.approx(_brute_force_knapsack(values, weights, 8.0))
    m.add_rows([-INF], [1.0], sp.csr_matrix([[1.0, 1.0, 0.0, 0.0]]))  # not both 0 and 1
    m.set_start([0.0, 1.0, 1.0, 1.0])  # feasible: weight 8, value 16
    second = m.solve(time_limit=5.0)
    best = max(float(values @ x) for x in itertools.product([0, 1], repeat=4)
               if weights @ x <= 8 and x[0] + x[1] <= 1)
    assert second.status == "optimal" and -second.objective == pytest.approx(best)
    with pytest.raises(ValueError):
        m.set_start([0.0, 1.0])


def test_a_reported_objective_that_is_not_the_points_own_is_solved_again(monkeypatch):
    """HiGHS 1.16 with presolve and a start returned the start beside another point's
    objective and called it optimal (an alternatives MIP; the next test): such a run is
    solved again without presolve, and what comes back is the point's own value."""
    values, weights = np.array([10.0, 7.0, 6.0, 3.0]), np.array([5.0, 4.0, 3.0, 1.0])
    m = _knapsack(values, weights, 8.0)
    m.set_start([0.0, 0.0, 1.0, 1.0])  # value 9; the optimum is 16
    real_run, runs = Model._run, []

    def lying_run(self, start):
        seconds, status, info, x, objective = real_run(self, start)
        runs.append(self._h.getOptionValue("presolve")[-1])
        if len(runs) == 1:  # the first run hands back the start with the optimum's value
            return seconds, "optimal", info, np.asarray(start), objective
        return seconds, status, info, x, objective

    monkeypatch.setattr(Model, "_run", lying_run)
    res = m.solve(time_limit=5.0)
    assert runs == ["choose", "off"]
    assert res.status == "optimal" and -res.objective == pytest.approx(16.0)
    assert res.objective == pytest.approx(float(-values @ res.x))


def test_alternatives_with_presolve_and_a_start_are_ranked():
    """Found by a brute-force review: with presolve and the neighbour start, the second
    alternative (objective 205.06, status "optimal") was not the cheapest rule with new
    predictions (204.04), and the third was cheaper than the second."""
    import pandas as pd

    from rulecore import BooleanRuleClassifier

    X = pd.DataFrame({"num": [-1.3, 0.4, 0.9, -1.2, 1.2, 0.7, 0.8, -0.6, 0.9, 1.2, 0.3, -1.0,
                              -0.2, -0.9]})
    y = np.array([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0])
    w = np.array([100, 1, 100, 100, .01, .01, .01, .01, 1, 1, .01, 1, 100, 100])
    est = BooleanRuleClassifier(lam=2.0, class_weight=None, n_thresholds=4, error="hamming")
    alts = est.fit(X, y, sample_weight=w).alternatives(X, y, k=3, sample_weight=w)
    objectives = [a.objective for a in alts]
    assert objectives == sorted(objectives)
    assert objectives[1] == pytest.approx(204.04)  # brute force over the 13 clauses
    assert all(a.certified for a in alts)


def test_columns_added_later_fill_earlier_rows():
    """Rows first and columns with their entries later build the same model as the reverse."""
    m = Model()
    m.add_rows([-INF, -INF], [4.0, 6.0])
    m.add_columns([-1.0, -2.0], 0.0, INF, A=sp.csc_matrix([[1.0, 1.0], [1.0, 3.0]]))
    assert m.solve(time_limit=5.0).x == pytest.approx([3.0, 1.0])
    # a third column after the solve: x₃ costs −3 and uses 3 units of each row, x₃ <= 1
    m.add_columns([-3.0], 0.0, 1.0, A=[[3.0], [3.0]])
    res = m.solve(time_limit=5.0)
    ref = highs.solve(np.array([-1.0, -2.0, -3.0]), sp.csc_matrix([[1, 1, 3], [1, 3, 3]]),
                      np.full(2, -INF), np.array([4.0, 6.0]), np.zeros(3),
                      np.array([INF, INF, 1.0]), time_limit=5.0)
    assert res.objective == pytest.approx(ref.objective) and res.x == pytest.approx(ref.x)
    # an integer column added after a solve makes it a MIP
    m.add_columns([-0.5], 0.0, 3.0, integer=True, A=[[1.0], [1.0]])
    assert m.is_mip and m.solve(time_limit=5.0).mip


@pytest.mark.parametrize("integer", [False, True])
def test_infeasible_reports_no_point(integer):
    m = Model()
    m.add_columns([1.0, 1.0], 0.0, 1.0, integer=integer)
    m.add_rows([5.0], [INF], [[1.0, 1.0]])  # x₁ + x₂ >= 5 with x in [0, 1]²
    res = m.solve(time_limit=5.0)
    assert res.status == "infeasible" and res.x is None and not res.has_solution
    assert np.isnan(res.objective) and res.row_dual is None


@pytest.mark.parametrize("limit", [0, 0.0, -1.0, None, float("nan")])
def test_time_limit_must_be_positive(limit):
    with pytest.raises(ParameterError):
        _small_lp().solve(time_limit=limit)
    with pytest.raises(ParameterError):
        highs.solve(np.ones(2), sp.csc_matrix(np.ones((1, 2))), np.zeros(1), np.ones(1),
                    np.zeros(2), np.ones(2), time_limit=limit)


def test_no_rows_sits_at_the_preferred_bounds():
    m = Model()
    m.add_columns([1.0, -2.0], [0.0, -1.0], [3.0, 2.0])
    res = m.solve(time_limit=1.0)
    assert res.status == "optimal" and res.x == pytest.approx([0.0, 2.0])
    assert res.objective == -4.0 and res.row_dual.shape == (0,)
    m = Model()
    m.add_columns([-1.0], 0.0, INF)
    res = m.solve(time_limit=1.0)
    assert res.status == "unbounded" and res.x is None


def test_functional_solve_is_the_model():
    A = sp.random(8, 12, density=0.4, random_state=0, format="csr")
    rng = np.random.default_rng(0)
    cost, integer = rng.normal(size=12), rng.random(12) < 0.5
    args = (cost, A, np.full(8, -1.0), np.full(8, 1.0), np.zeros(12), np.full(12, 2.0))
    for kind in (None, integer):
        a = highs.solve(*args, kind, time_limit=5.0, presolve=False)
        m = Model()
        m.add_rows(args[2], args[3])
        m.add_columns(cost, args[4], args[5], kind, A.tocsc())
        b = m.solve(time_limit=5.0, presolve=False)
        assert (a.status, a.objective, a.bound, a.mip) == (b.status, b.objective, b.bound, b.mip)
        assert np.array_equal(a.x, b.x)


def test_only_highs_imports_highspy():
    """One door to HiGHS: no other module of the package talks to highspy directly."""
    root = Path(highs.__file__).parent
    users = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                   if p.name != "highs.py" and "highspy" in p.read_text(encoding="utf-8"))
    assert users == []
