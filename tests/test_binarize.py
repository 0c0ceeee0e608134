"""rulecore.binarize: terms, thresholds, missing values, sparse output, display."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulecore.data import load_sample
from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.terms import Binarizer, Term, candidate_thresholds, format_value


def frame():
    return pd.DataFrame({"num": [1.0, 2.0, 3.0, np.nan, 5.0, 2.0],
                         "cat": ["a", "b", "c", "a", None, "b"]})


def test_terms_and_matrix_agree_with_term_evaluate():
    X = frame()
    b = Binarizer(n_thresholds=3).fit(X)
    A = b.transform(X)
    assert A.dtype == bool and A.shape == (6, len(b.terms_))
    for j, t in enumerate(b.terms_):
        np.testing.assert_array_equal(A[:, j], t.evaluate(X[t.feature]), err_msg=str(t))
    ops = {(t.feature, t.op) for t in b.terms_}
    assert ops == {("num", "<="), ("num", ">"), ("cat", "=="), ("cat", "!="),
                   ("num", "is missing"), ("num", "is not missing"),
                   ("cat", "is missing"), ("cat", "is not missing")}


def test_missing_values_make_every_comparison_on_the_column_false():
    X = frame()
    b = Binarizer(n_thresholds=3).fit(X)
    A = b.transform(X)
    num_cols = [j for j, t in enumerate(b.terms_) if t.feature == "num" and not t.missing_test]
    cat_cols = [j for j, t in enumerate(b.terms_) if t.feature == "cat" and not t.missing_test]
    assert not A[3, num_cols].any()  # num is NaN on row 3: neither <= nor >
    assert not A[4, cat_cols].any()  # cat is None on row 4: neither == nor !=
    assert A[0, num_cols].any() and A[0, cat_cols].any()


def test_missing_tests_say_where_a_value_is_missing():
    """Only "x is missing" holds on a missing cell, so a rule can say "no complication
    recorded"; a column without missing training values gets no such term, and text that is
    not a number counts as missing in a numeric column, as its thresholds read it."""
    X = frame().assign(full=np.arange(6.0))
    b = Binarizer(n_thresholds=3).fit(X)
    names = [str(t) for t in b.terms_]
    assert "full is missing" not in names
    A = b.transform(X)
    np.testing.assert_array_equal(A[:, names.index("num is missing")], [0, 0, 0, 1, 0, 0])
    np.testing.assert_array_equal(A[:, names.index("cat is not missing")], [1, 1, 1, 1, 0, 1])
    new = pd.DataFrame({"num": ["4", "n/a", None], "cat": ["a", "", None], "full": [1, 2, 3]})
    na = b.terms_[names.index("num is missing")]
    np.testing.assert_array_equal(na.evaluate(new["num"]), [False, True, True])
    np.testing.assert_array_equal(b.transform(new)[:, names.index("num is missing")],
                                  [False, True, True])
    assert Term.from_dict(na.to_dict()) == na and str(na) == "num is missing"
    assert na.negate() == Term("num", "is not missing", "numeric")
    # without negations only "is missing"
    assert [t.op for t in Binarizer(negations=False).fit(X).terms_ if t.missing_test] == \
        ["is missing", "is missing"]


def test_negations_off_and_two_level_categories():
    X = pd.DataFrame({"n": np.arange(10.0), "flag": ["y", "n"] * 5})
    b = Binarizer(n_thresholds=4, negations=False).fit(X)
    assert {t.op for t in b.terms_} == {"<=", "=="}
    # a two-level column needs no != terms: "flag != y" is "flag == n"
    assert [t.op for t in Binarizer().fit(X).terms_ if t.feature == "flag"] == ["==", "=="]


def test_all_thresholds_is_every_midpoint():
    v = np.array([1.0, 1.0, 2.0, 4.0, 8.0])
    X = pd.DataFrame({"v": v})
    b = Binarizer(thresholds="all").fit(X)
    assert [t.value for t in b.terms_ if t.op == "<="] == [1.5, 3.0, 6.0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=60),
       st.integers(1, 30))
@example([-1000000.0, -999999.9999999999], 1)  # adjacent doubles: nothing lies between
def test_quantile_thresholds_are_distinct_splits(values, d):
    v = np.asarray(values)
    thr = candidate_thresholds(v, d)
    u = np.unique(v)
    assert len(thr) <= min(d, len(u) - 1)
    assert np.all(np.diff(thr) > 0)
    # every threshold splits the data between two neighbouring distinct values
    for t in thr:
        assert (v <= t).any() and (v > t).any()
        lo, hi = u[u <= t].max(), u[u > t].min()
        assert lo <= t < hi and not ((u > lo) & (u < hi)).any()


def test_thresholds_print_short_and_exactly():
    d = load_sample("iris")
    b = Binarizer(thresholds="all").fit(d.X)
    names = [str(t) for t in b.terms_]
    assert "petal width (cm) <= 1.75" in names
    for t in b.terms_:  # the printed value is the value used
        assert float(format_value(t.value)) == t.value
    assert format_value(75000.0) == "75000"
    # every number prints exactly (thresholds are short because they are chosen short): six
    # decimals turned 6.5e-07 into 0.000001, another rule (a review of the exports)
    assert format_value(6.5e-07) == "0.00000065" and format_value(1.25e-07) == "0.000000125"
    assert float(format_value(0.1 + 0.2)) == 0.1 + 0.2


def test_sparse_output_matches_dense():
    d = load_sample("salesforce attrition")
    b = Binarizer(n_thresholds=20).fit(d.X)
    S = b.transform(d.X, sparse=True)
    assert sp.issparse(S) and S.format == "csc"
    np.testing.assert_array_equal(S.toarray(), b.transform(d.X))
    assert list(b.get_feature_names_out()) == [str(t) for t in b.terms_]


def test_more_thresholds_more_terms_and_counts_add_up():
    d = load_sample("breast cancer")
    n = [len(Binarizer(n_thresholds=k).fit(d.X).terms_) for k in (2, 10, 50)]
    assert n[0] < n[1] < n[2]
    b = Binarizer(n_thresholds=10).fit(d.X)
    assert b.term_counts()["terms"].sum() == len(b.terms_)


def test_unseen_category_level():
    b = Binarizer().fit(pd.DataFrame({"c": ["a", "b", "c", "a"]}))
    A = b.transform(pd.DataFrame({"c": ["z"]}))
    row = dict(zip(map(str, b.terms_), A[0]))
    assert row["c == a"] is np.False_ and row["c != a"] is np.True_


def test_errors():
    with pytest.raises(ParameterError):
        Binarizer(thresholds="some").fit(frame())
    with pytest.raises(ParameterError):
        Binarizer(n_thresholds=0).fit(frame())
    b = Binarizer().fit(frame())
    with pytest.raises(DataError, match="lacks the columns"):
        b.transform(pd.DataFrame({"num": [1.0]}))


def test_term_roundtrip_and_negate():
    t = Term("x", "<=", 1.5)
    assert t.negate() == Term("x", ">", 1.5) and t.negate().negate() == t
    assert Term.from_dict(t.to_dict()) == t
    assert Term.from_dict(Term("c", "==", "a").to_dict()) == Term("c", "==", "a")
    with pytest.raises(DataError):
        Term.from_dict({"feature": "x", "op": "<", "value": 1})


def test_conflict_cliques_and_covers_by_hand():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, np.nan], "c": ["a", "b", "c", "a", "b"],
                      "f": ["y", "n", "y", None, "n"], "g": ["u"] * 5})
    # (f misses another row than x: a column missing where an earlier one is gets no tests)
    b = Binarizer(n_thresholds=3).fit(X)

    def named(cliques, b=b):
        return sorted(sorted(str(b.terms_[j]) for j in c) for c in cliques)

    # x and f miss a value: "is missing" contradicts, "is not missing" is implied by, every
    # other term of the column in an AND-clause
    xm, fm = ["x is missing", "x is not missing"], ["f is missing", "f is not missing"]
    assert named(b.conflict_cliques("and")) == sorted(sorted(c) for c in [
        # C_k = {le_i : i <= k} | {gt_j : j >= k}: x <= 1.5 AND x > 2.5 would be empty
        ["x <= 1.5", "x > 1.5", "x > 2.5", "x > 3.5", *xm],
        ["x <= 1.5", "x <= 2.5", "x > 2.5", "x > 3.5", *xm],
        ["x <= 1.5", "x <= 2.5", "x <= 3.5", "x > 3.5", *xm],
        # {all ==} | {!= v}: c == a implies c != b; c != a AND c != b is fine
        ["c == a", "c == b", "c == c", "c != a"],
        ["c == a", "c == b", "c == c", "c != b"],
        ["c == a", "c == b", "c == c", "c != c"],
        ["f == n", "f == y", *fm], ["g != u", "g == u"]])
    # OR: "x is not missing" conflicts with every term of x; "x is missing OR x <= 1.5" is
    # a legitimate clause
    assert named(b.conflict_cliques("or")) == sorted(sorted(c) for c in [
        # C_k = {le_i : i >= k} | {gt_j : j <= k}: x <= 3.5 OR x > 1.5 is every value
        ["x <= 1.5", "x <= 2.5", "x <= 3.5", "x > 1.5", xm[1]],
        ["x <= 2.5", "x <= 3.5", "x > 1.5", "x > 2.5", xm[1]],
        ["x <= 3.5", "x > 1.5", "x > 2.5", "x > 3.5", xm[1]], xm,
        ["c != a", "c != b", "c != c", "c == a"],
        ["c != a", "c != b", "c != c", "c == b"],
        ["c != a", "c != b", "c != c", "c == c"], ["g != u", "g == u"],
        ["f == n", fm[1]], ["f == y", fm[1]], fm])
    # closed columns (every level has a term): not all levels together
    assert named(b.conflict_covers("and")) == [["c != a", "c != b", "c != c"], ["g != u"]]
    assert named(b.conflict_covers("or")) == [["c == a", "c == b", "c == c"],
                                               ["f == n", "f == y"], [fm[1]], ["g == u"],
                                               [xm[1]]]
    few = Binarizer(n_thresholds=3, max_levels=2).fit(X)   # c has a level without a term
    assert named(few.conflict_covers("and"), few) == [["g != u"]]
    plain = Binarizer(n_thresholds=3, negations=False).fit(X)
    # only nested <= terms, and "x is missing" (no "is not missing" without negations)
    assert ["x <= 1.5", "x <= 2.5", "x <= 3.5", "x is missing"] in named(
        plain.conflict_cliques("and"), plain)
    assert ["x <= 1.5", "x <= 2.5", "x <= 3.5"] in named(plain.conflict_cliques("or"), plain)
    assert ["c == a", "c == b", "c == c"] in named(plain.conflict_cliques("and"), plain)
    assert ["c == a", "c == b", "c == c"] in named(plain.conflict_covers("or"), plain)
    with pytest.raises(ParameterError):
        b.conflict_cliques("xor")


def test_a_column_without_a_level_has_no_empty_cover():
    """An all-missing categorical column gave an empty cover ("at most −1 of nothing"), which
    made every clause inconsistent, the empty one included (a review)."""
    from rulecore.rules.solvers import consistent

    X = pd.DataFrame({"x": np.arange(8.0), "e": [np.nan] * 8})
    b = Binarizer().fit(X)
    for rule_type in ("and", "or"):
        covers = b.conflict_covers(rule_type)
        assert all(len(c) for c in covers)
        assert consistent(np.zeros(len(b.terms_), bool), b.conflict_cliques(rule_type), covers)


def test_no_missing_test_on_a_column_without_a_present_value():
    """An all-missing column, or one whose only value sits in a row of weight 0: "x is not
    missing" would never fire and "x is missing" always (a review saw the rule "e is not
    missing" learned, firing on no row)."""
    X = pd.DataFrame({"x": np.arange(6.0), "e": [np.nan] * 6,
                      "z": [np.nan] * 5 + [3.0], "c": [None] * 5 + ["a"]})
    b = Binarizer().fit(X, sample_weight=np.array([1, 1, 1, 1, 1, 0.0]))
    assert not [t for t in b.terms_ if t.feature != "x"]
    # c misses the cells z misses: its missing tests would repeat z's (below)
    assert [str(t) for t in Binarizer().fit(X).terms_ if t.missing_test] == [
        "z is missing", "z is not missing"]


def test_columns_missing_together_get_one_pair_of_missing_tests():
    """A date's parts are missing together, and a won deal's 'Won time' is missing exactly
    where its 'Lost time' is not.  Each part had its own missing tests, so the rule that
    fires on no row was two conditions away: 'Last email received (year) is missing AND Last
    email received (month) is not missing' (a stranger's Pipedrive export), printed as a
    rule.  A column whose missing cells are an earlier column's, or their complement, gets no
    missing tests: the earlier column's say the same of every row."""
    X = pd.DataFrame({"year": [2020, np.nan, 2021, np.nan, 2022, 2023],
                      "month": [1, np.nan, 5, np.nan, 12, 3],
                      "won": [1.0, np.nan, 2.0, np.nan, 3.0, 4.0],
                      "lost": [np.nan, 7, np.nan, 9, np.nan, np.nan],
                      "other": [np.nan, 1, 2, 3, 4, 5]})
    b = Binarizer(n_thresholds=2).fit(X)
    tests = [str(t) for t in b.terms_ if t.missing_test]
    assert tests == ["year is missing", "year is not missing", "other is missing",
                     "other is not missing"]
    # every missing pattern the columns have is still one term's column
    A = b.transform(X)
    patterns = {tuple(A[:, j]) for j, t in enumerate(b.terms_) if t.missing_test}
    for c in X:
        assert tuple(X[c].isna()) in patterns and tuple(X[c].notna()) in patterns
    # without negations only "is missing" is made, and a complement's is then a new term
    assert [str(t) for t in Binarizer(negations=False).fit(X).terms_ if t.missing_test] == [
        "year is missing", "lost is missing", "other is missing"]


def test_forbidding_the_earlier_of_two_columns_missing_alike_keeps_the_later_ones_tests():
    """Only the first of columns missing alike kept its missing tests: forbidding it (or
    requiring the later one) left 'month is missing' out of reach, and the constrained
    optimum was a far worse rule (21 -> 482), or 'year is missing AND month <= 3.5', which
    fires on no row (a review).  A fit that forbids or requires columns builds each column's
    tests (missing_tests="each")."""
    from rulecore.rules.estimators import BooleanRuleClassifier

    rng = np.random.default_rng(1)
    n = 300
    never = rng.random(n) < 0.3
    X = pd.DataFrame({"year": np.where(never, np.nan, rng.choice([2021.0, 2022.0], n)),
                      "month": np.where(never, np.nan, rng.integers(1, 13, n).astype(float)),
                      "score": rng.normal(size=n)})
    y = (never ^ (rng.random(n) < 0.03)).astype(int)
    free = BooleanRuleClassifier(lam=5, class_weight=None).fit(X, y)
    assert [str(t) for t in free.binarizer_.terms_ if t.missing_test] == [
        "year is missing", "year is not missing"]
    for kw in ({"forbid": ["year"]}, {"require": ["month"]}):
        fit = BooleanRuleClassifier(lam=5, class_weight=None, **kw).fit(X, y)
        assert str(fit.rule_) == "month is missing", kw
        assert fit.objective_ == pytest.approx(free.objective_)
    with pytest.raises(ParameterError, match="missing_tests must be"):
        Binarizer(missing_tests="some").fit(X)
