"""Tests for rulecore.encode: numbers for numeric models, within a memory budget."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rulecore import encode
from rulecore.encode import check_memory, format_bytes, memory_budget, numeric_widths, to_numeric
from rulecore.exceptions import DataError, ParameterError


@pytest.fixture
def budget(monkeypatch):
    """Set the budget (GB) through the environment variable, as a deployment would."""
    def set_gb(gb: float) -> None:
        monkeypatch.setenv(encode.BUDGET_ENV, str(gb))
    return set_gb


def test_few_levels_and_numbers_as_before():
    X = pd.DataFrame({"age": [30.0, np.nan, 50.0, 40.0], "job": ["b", "a", None, "b"],
                      "flag": [0, 1, 1, 0]})
    out = to_numeric(X, {"age": "numeric", "job": "categorical", "flag": "categorical"})
    # a two-level column with no gap is one column, its second level; with a gap (job),
    # one per level, the missing row in neither
    assert list(out.columns) == ["age", "job=a", "job=b", "flag=1"]
    assert out["flag=1"].tolist() == [0, 1, 1, 0]
    assert numeric_widths(X, {"age": "numeric", "job": "categorical",
                              "flag": "categorical"}) == {"age": 1, "job": 2, "flag": 1}
    # one level (a constant kept by hand) is still its one column
    one = to_numeric(pd.DataFrame({"c": ["a"] * 4}), {"c": "categorical"})
    assert list(one.columns) == ["c=a"] and one["c=a"].tolist() == [1.0] * 4
    assert out["age"].tolist() == [30.0, 40.0, 50.0, 40.0]  # the median fills the gap
    assert out[["job=a", "job=b"]].to_numpy().tolist() == [[0, 1], [1, 0], [0, 0], [0, 1]]
    assert set(out.dtypes.astype(str)) == {"float64"} and out.index.equals(X.index)
    # kinds inferred when not given: numbers are numeric, text is categorical
    assert list(to_numeric(X[["age", "job"]]).columns) == ["age", "job=a", "job=b"]


def test_many_levels_become_top_levels_and_other():
    s = ["a"] * 5 + ["b"] * 4 + ["c"] * 3 + ["d"] * 3 + ["e", "f", None]
    X = pd.DataFrame({"name": s}, index=np.arange(100, 118))
    out = to_numeric(X, max_levels=3)
    # most frequent first, ties by text (c before d); everything else in (other)
    assert list(out.columns) == ["name=a", "name=b", "name=c", "name=(other)"]
    assert out["name=(other)"].tolist() == [0] * 12 + [1, 1, 1, 1, 1, 0]
    assert out.sum(axis=1).tolist() == [1] * 17 + [0]  # the missing value: an all-zero row
    assert out.index.equals(X.index)
    assert numeric_widths(X, max_levels=3) == {"name": 4}
    # at most max_levels levels: plain one-hot, no (other)
    assert "name=(other)" not in to_numeric(X, max_levels=6).columns


def test_column_count_is_bounded_for_a_20k_level_column():
    rng = np.random.default_rng(0)
    n = 40_000
    X = pd.DataFrame({"name": [f"person {i}" for i in rng.integers(0, 20_000, n)],
                      "x": rng.normal(size=n)})
    assert X["name"].nunique() > 15_000
    out = to_numeric(X)
    assert out.shape == (n, encode.MAX_LEVELS + 1 + 1)
    assert out.filter(like="name=").sum(axis=1).eq(1).all()


def test_budget_refusal_names_size_shape_and_remedy(budget):
    X = pd.DataFrame({"name": [f"n{i % 500}" for i in range(2_000)],
                      "x": np.arange(2_000.0)})
    budget(0.0001)  # 100 kB
    with pytest.raises(DataError) as err:
        to_numeric(X)
    msg = str(err.value)
    assert "2,000 rows into 22 numeric columns" in msg
    assert "704 kB" in msg and "100 kB" in msg  # 2,000 × 22 × 8 bytes, twice
    assert "'name' (21 columns)" in msg and "sample of the rows" in msg
    assert encode.BUDGET_ENV in msg
    budget(1)
    assert to_numeric(X).shape == (2_000, 22)


def test_check_memory_and_budget_setting(budget, monkeypatch):
    check_memory(10, "A tiny thing", "Nothing to do.")
    with pytest.raises(DataError, match=r"^Building X needs about 3.0 GB .* Sample rows\.$"):
        check_memory(3e9, "Building X", "Sample rows.", budget=10**9)
    monkeypatch.delenv(encode.BUDGET_ENV, raising=False)
    assert memory_budget() == int(encode.MEMORY_BUDGET_GB * 1e9)
    budget(0.5)
    assert memory_budget() == 500_000_000
    budget("lots")
    with pytest.raises(ParameterError, match="positive number of GB, got 'lots'"):
        memory_budget()


def test_format_bytes():
    assert [format_bytes(v) for v in (12, 1_500, 240e6, 24.5e9)] == \
        ["12 bytes", "1.5 kB", "240 MB", "24 GB"]


def test_bad_max_levels():
    with pytest.raises(ParameterError, match="got 0"):
        to_numeric(pd.DataFrame({"a": ["x"]}), max_levels=np.int64(0))


def test_raw_values_say_which_numbers_were_filled_in():
    """Datum-wise showed a current employee's 'TerminationDate (year) 2023': the median the
    encoding filled in, as if the row had it (a review).  Filled values say so."""
    from rulecore.encode import raw_values, to_numeric

    X = pd.DataFrame({"ended": [2019.0, np.nan, 2023.0, 2024.0],
                      "dept": pd.Categorical(["HR", None, "Sales", "R&D"])},
                     index=[10, 11, 12, 13])
    Z = to_numeric(X, {"ended": "numeric", "dept": "categorical"})
    names = ["ended", "dept=Sales"]
    assert raw_values(X, 11, names, Z.loc[11, names].tolist()) == [
        "missing (filled with the median, 2023)", "missing (no level)"]
    assert raw_values(X, 12, names, Z.loc[12, names].tolist()) == [
        "2023", "yes (dept = Sales)"]
    # a level's 0/1 column says no with the row's own level ('OverTime=Yes: 0': a review)
    assert raw_values(X, 13, names, Z.loc[13, names].tolist()) == [
        "2024", "no (dept = R&D)"]


def test_raw_values_name_an_ordered_scales_step():
    """The Datum-wise page showed an answer on a scale as its position, '2'; it is the
    level with its step, and a filled-in step says so."""
    from rulecore.encode import raw_values, to_numeric

    order = ["Disagree", "Neutral", "Agree"]
    X = pd.DataFrame({"q": pd.Categorical(["Agree", None, "Disagree", "Neutral"],
                                          categories=order, ordered=True)})
    Z = to_numeric(X, {"q": "ordinal"})
    assert Z["q"].tolist() == [3.0, 2.0, 1.0, 2.0]
    assert raw_values(X, 0, ["q"], [3.0]) == ["Agree (step 3 of 3)"]
    assert raw_values(X, 1, ["q"], [2.0]) == ["missing (filled with the median step, 2 of 3)"]
