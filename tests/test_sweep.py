"""The sweep engine: CV errors and refits against direct fits, Pareto fronts against brute
force, and the same table from every joblib backend (local processes, a Dask cluster)."""

from __future__ import annotations

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from rulecore.exceptions import DataError, ParameterError
from rulecore.rules.estimators import BooleanRuleClassifier
from rulecore.samples import machine_failure
from rulecore.sweep import grid_sweep, pareto_front, same_results, sweep

LAMS = [0.05, 1.0]
THRESHOLDS = [3, 6]


@pytest.fixture(scope="module")
def data():
    df = machine_failure(n=300, seed=7)
    return df.drop(columns="failure"), df["failure"].to_numpy()


@pytest.fixture(scope="module")
def local_table(data):
    X, y = data
    return sweep(X, y, positive="yes", lams=LAMS, thresholds=THRESHOLDS, cv=3,
                 screening="enhanced", backend="sequential")


def test_table_shape_and_grid_order(local_table):
    assert list(local_table["n_thresholds"]) == [3, 3, 6, 6]
    assert list(local_table["lam"]) == LAMS * 2
    assert (local_table["folds"] == 3).all()
    assert local_table["cv_error"].between(0, 1).all()
    assert set(local_table["status"]) == {"optimal"}


def test_cv_error_and_refit_match_direct_fits(data, local_table):
    X, y = data
    y01 = (y == "yes").astype(int)
    folds = StratifiedKFold(3, shuffle=True, random_state=0).split(y01, y01)
    folds = list(folds)
    for _, row in local_table.iloc[[0, 3]].iterrows():
        params = dict(lam=row["lam"], n_thresholds=row["n_thresholds"], screening="enhanced")
        errors, sizes = [], []
        for tr, te in folds:
            est = BooleanRuleClassifier(**params).fit(X.iloc[tr], y01[tr])
            errors.append(np.mean(est.predict(X.iloc[te]) != y01[te]))
            sizes.append(len(est.rule_))
        assert row["cv_error"] == pytest.approx(np.mean(errors), abs=1e-12)
        assert row["conditions_cv"] == pytest.approx(np.mean(sizes))
        full = BooleanRuleClassifier(**params).fit(X, pd.Series(y01, name="failure"))
        assert row["conditions"] == len(full.rule_)
        assert row["train_error"] == pytest.approx(np.mean(full.predict(X) != y01))
        # the refitted rule reads as the user's target and class
        assert row["rule"] == str(full.rule_)
        assert '"positive": "yes"' in row["json"]


def _brute_front(sizes: np.ndarray, errors: np.ndarray) -> list[int]:
    keep = []
    for i in range(len(sizes)):
        dominated = any((sizes[j] <= sizes[i] and errors[j] <= errors[i]
                         and (sizes[j] < sizes[i] or errors[j] < errors[i]))
                        for j in range(len(sizes)))
        duplicate_earlier = any(sizes[j] == sizes[i] and errors[j] == errors[i]
                                for j in range(i))
        if not dominated and not duplicate_earlier:
            keep.append(i)
    return keep


@pytest.mark.parametrize("seed", range(30))
def test_pareto_front_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 25))
    df = pd.DataFrame({"conditions": rng.integers(0, 6, n),
                       "cv_error": rng.integers(0, 8, n) / 8.0,
                       "lam": np.arange(n, dtype=float)})
    front = pareto_front(df)
    expected = _brute_front(df["conditions"].to_numpy(), df["cv_error"].to_numpy())
    assert sorted(front["lam"].astype(int)) == expected
    assert front["conditions"].is_monotonic_increasing
    assert front["cv_error"].is_monotonic_decreasing


def test_loky_processes_give_the_same_table(data, local_table):
    X, y = data
    table = sweep(X, y, positive="yes", lams=LAMS, thresholds=THRESHOLDS, cv=3,
                  screening="enhanced", backend="loky", n_jobs=2)
    assert same_results(local_table, table)
    assert not same_results(local_table, table.assign(cv_error=table["cv_error"] + 1e-9))


def test_default_backend_is_every_local_core_unless_the_caller_configured_one():
    from rulecore.sweep import backend_config

    with backend_config():
        backend, n_jobs = joblib.parallel.get_active_backend()
        assert type(backend).__name__ == "LokyBackend" and n_jobs == -1
    with joblib.parallel_config(backend="threading", n_jobs=3):
        with backend_config():
            backend, n_jobs = joblib.parallel.get_active_backend()
            assert type(backend).__name__ == "ThreadingBackend" and n_jobs == 3
    with backend_config("loky", n_jobs=2):
        assert joblib.parallel.get_active_backend()[1] == 2


def test_no_cv_is_the_dashboards_lambda_path(data):
    """``cv=None`` gives bcs.lambda_path's table (a superset of its columns, same values)."""
    from rulecore.rules.estimators import lambda_path
    from rulecore.viz.rules import lambda_path as lambda_path_figure

    X, y = data
    y01 = (y == "yes").astype(int)
    tr, te = np.arange(200), np.arange(200, 300)
    lams = [0.1, 1.0, 5.0]
    table = sweep(X.iloc[tr], y01[tr], lams=lams, thresholds=[6], cv=None,
                  X_test=X.iloc[te], y_test=y01[te], backend="sequential")
    expected = lambda_path(X.iloc[tr], y01[tr], lams, X.iloc[te], y01[te], n_thresholds=6)
    assert "cv_error" not in table
    for col in ["lam", "conditions", "train_error", "test_error", "objective", "status",
                "rule", "json"]:
        assert list(table[col]) == list(expected[col]), col
    assert len(lambda_path_figure(table, 1.0).data) == 3
    assert len(pareto_front(table)) >= 1


def test_grid_sweep_matches_manual_cv(data):
    X, y = data
    Xn = X.drop(columns=["machine_type", "shift"]).fillna(0.0)
    table = grid_sweep(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3]}, Xn, y,
                       cv=3, backend="sequential")
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(Xn, y))
    for _, row in table.iterrows():
        errs = [np.mean(DecisionTreeClassifier(max_depth=row["max_depth"], random_state=0)
                        .fit(Xn.iloc[a], y[a]).predict(Xn.iloc[b]) != y[b]) for a, b in folds]
        assert row["cv_error"] == pytest.approx(np.mean(errs))
    assert list(table["max_depth"]) == [1, 2, 3]
    assert table["size"].is_monotonic_increasing


@pytest.mark.parametrize("kwargs, error", [
    ({"lams": [0.0]}, ParameterError),
    ({"lams": [1.0], "thresholds": [0]}, ParameterError),
    ({"lams": [1.0], "backend": "spark"}, ParameterError),
    ({"lams": [1.0], "backend": "loky", "scheduler": "tcp://127.0.0.1:1"}, ParameterError),
    ({"lams": [1.0], "model": "forest"}, ParameterError),
    ({"lams": [1.0], "cv": 1}, ParameterError),
    ({"lams": [1.0], "positive": "maybe"}, DataError),
])
def test_bad_settings_raise_user_errors(data, kwargs, error):
    X, y = data
    kwargs = {"positive": "yes", **kwargs}
    with pytest.raises(error):
        sweep(X, y, backend=kwargs.pop("backend", "sequential"), **kwargs)


# --------------------------------------------------------------------------- Dask


# (dask_cluster: tests/conftest.py)


def test_dask_cluster_gives_the_same_table(data, local_table, dask_cluster):
    X, y = data
    table = sweep(X, y, positive="yes", lams=LAMS, thresholds=THRESHOLDS, cv=3,
                  screening="enhanced", backend="dask", scheduler=dask_cluster.scheduler_address)
    assert same_results(local_table, table)


def test_dask_through_joblib_config_needs_no_code_change(data, dask_cluster):
    """A caller's own ``parallel_config(backend="dask")`` is honoured with backend=None."""
    import distributed

    X, y = data
    kw = dict(positive="yes", lams=[0.1, 1.0], thresholds=[3], cv=3, per_fold=True)
    expected = sweep(X, y, backend="sequential", **kw)
    with distributed.Client(dask_cluster.scheduler_address) as client:
        with joblib.parallel_config(backend="dask"):
            table = sweep(X, y, **kw)
        # the fits really ran on the cluster's workers
        assert sum(client.run(lambda: __import__("rulecore.sweep").sweep._CACHE.__len__())
                   .values()) >= 1
    assert same_results(expected, table)


def test_dask_without_a_scheduler_is_a_clear_error(data):
    pytest.importorskip("distributed")
    X, y = data
    with pytest.raises(ParameterError, match="scheduler"):
        sweep(X, y, positive="yes", lams=[1.0], cv=3, backend="dask")


def test_cli_sweep_on_the_cluster_matches_local(tmp_path, monkeypatch, dask_cluster):
    """``rulecore sweep --backend dask --scheduler ADDRESS``: one option, the same CSV."""
    from rulecore.cli import main

    df = machine_failure(n=300, seed=7)
    df.to_csv(tmp_path / "m.csv", index=False)
    monkeypatch.chdir(tmp_path)
    common = ["sweep", "m.csv", "--positive", "yes", "--lams", "0.05,1", "--thresholds", "3",
              "--cv", "3"]
    assert main(common + ["--backend", "sequential", "--table", "local.csv"]) == 0
    assert main(common + ["--backend", "dask", "--scheduler", dask_cluster.scheduler_address,
                          "--table", "dask.csv"]) == 0
    local, remote = pd.read_csv("local.csv"), pd.read_csv("dask.csv")
    assert len(local) == 2 and same_results(local, remote)
