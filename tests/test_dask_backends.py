"""Past one machine: the rule set's automatic λ, stability folds and sweeps on a local Dask
cluster of two worker processes give exactly what joblib gives on this machine.

The cluster is the same kind a user points rulecore at (``tcp://host:8786``); only its size
differs.  Every comparison leaves out wall times, the one thing that differs between runs.
"""

from __future__ import annotations

import importlib.util

import joblib
import numpy as np
import pandas as pd
import pytest

from rulecore import BooleanRuleClassifier, RuleSetClassifier
from rulecore.exceptions import ParameterError
from rulecore.rules.stability import stability
from rulecore.samples import machine_failure
from rulecore.sweep import backend_config, grid_sweep, same_results, sweep

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster(dask_cluster):
    """The module's local cluster of two worker processes (tests/conftest.py)."""
    return dask_cluster


@pytest.fixture(scope="module")
def data():
    df = machine_failure(n=240, seed=11)
    return df.drop(columns="failure"), df["failure"].to_numpy()


def _small_rule_set(n_jobs: int | None = 2) -> RuleSetClassifier:
    # certify=False: the final fit's exact pricing proves a bound but runs in the caller's
    # process whatever the backend; leaving it out keeps the module fast
    return RuleSetClassifier(n_thresholds=4, max_conditions=3, cv=3, n_jobs=n_jobs,
                             certify=False)


def _fitted_state(est: RuleSetClassifier) -> tuple:
    return est.rules_, est.lam_, est.described_class_, est.cv_results_


def _assert_same_fit(a: RuleSetClassifier, b: RuleSetClassifier) -> None:
    rules_a, lam_a, desc_a, cv_a = _fitted_state(a)
    rules_b, lam_b, desc_b, cv_b = _fitted_state(b)
    assert rules_a == rules_b and lam_a == lam_b and desc_a == desc_b
    pd.testing.assert_frame_equal(cv_a, cv_b, check_exact=True)  # no timing column in it


@pytest.fixture(scope="module")
def local_rule_set(data):
    X, y = data
    with joblib.parallel_config(backend="sequential"):
        return _small_rule_set().fit(X, y)


def test_rule_set_auto_lambda_on_the_cluster_equals_joblib(data, cluster, local_rule_set):
    """The inner cross-validation of lam="auto" runs its fits on the active joblib backend:
    the cluster's workers under backend_config("dask"), local processes under loky."""
    X, y = data
    assert local_rule_set.cv_results_ is not None and len(local_rule_set.cv_results_) == 8
    # the fits really run on the cluster: its scheduler records their tasks (watched through
    # a second client, as an operator would)
    with distributed.Client(cluster.scheduler_address) as watcher, \
            distributed.get_task_stream(watcher) as stream:
        with backend_config("dask", scheduler=cluster.scheduler_address):
            remote = _small_rule_set().fit(X, y)
    assert len(stream.data) >= 6  # 3 inner folds × 2 classes described
    _assert_same_fit(local_rule_set, remote)
    with backend_config("loky", n_jobs=2):
        _assert_same_fit(local_rule_set, _small_rule_set().fit(X, y))


def test_stability_on_the_cluster_equals_joblib(data, cluster):
    X, y = data
    est = BooleanRuleClassifier(n_thresholds=5)
    kw = dict(n_splits=4, random_state=3)
    local = stability(est, X, y, backend="sequential", **kw)
    remote = stability(est, X, y, backend="dask", scheduler=cluster.scheduler_address, **kw)
    assert remote.equals(local)
    assert local.score > 0.5 and len(local.conditions) >= 2  # a real rule, not an empty one
    boot = dict(n_splits=3, bootstrap=True, random_state=5)
    rule_sets = stability(_small_rule_set(n_jobs=None), X, y, backend="sequential", **boot)
    assert stability(_small_rule_set(n_jobs=None), X, y, backend="dask",
                     scheduler=cluster.scheduler_address, **boot).equals(rule_sets)


def test_sweeps_on_the_cluster_equal_joblib(data, cluster):
    X, y = data
    kw = dict(positive="yes", lams=[0.1, 1.0], thresholds=[4], cv=3, per_fold=True)
    local = sweep(X, y, backend="sequential", **kw)
    remote = sweep(X, y, backend="dask", scheduler=cluster.scheduler_address, **kw)
    assert same_results(local, remote)
    grid = dict(param_grid={"lam": [0.5, 2.0]}, cv=3)
    est = BooleanRuleClassifier(n_thresholds=4)
    g_local = grid_sweep(est, X=X, y=y, backend="sequential", **grid)
    g_remote = grid_sweep(est, X=X, y=y, backend="dask", scheduler=cluster.scheduler_address,
                          **grid)
    assert same_results(g_local, g_remote)
    assert np.isfinite(g_local["cv_error"]).all()


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="ray is installed")
def test_ray_missing_is_a_clear_parameter_error(data):
    X, y = data
    for call in (lambda: stability(BooleanRuleClassifier(), X, y, n_splits=2, backend="ray"),
                 lambda: sweep(X, y, positive="yes", lams=[1.0], cv=2, backend="ray")):
        with pytest.raises(ParameterError, match=r"pip install 'rulecore\[ray\]'"):
            call()
    with pytest.raises(ParameterError, match="ray backend needs ray"):
        with backend_config("ray"):
            pass
