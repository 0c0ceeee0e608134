"""Fit a rule model on a dataset's training rows: the split and the fit, done in one place.

The Rule page and ``rulecore learn`` both call :func:`fit_on_split`, so the same settings,
split share and seed give the same rows and the same rule in the app and on the command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rulecore.data import Dataset, train_test_indices
from rulecore.rules.rule import Rule, RuleList, RuleSet
from rulecore.settings import RuleSettings


@dataclass
class SplitFit:
    """A rule model fitted on the training rows of a dataset.

    Attributes
    ----------
    model : estimator
        The fitted estimator (:meth:`RuleSettings.estimator`); ``model.rule_`` speaks the
        data's words (``target = positive``), not 0/1.
    train, test : int ndarray
        Row positions of the training and held-out rows (``test`` empty without a split).
    """

    model: Any
    train: np.ndarray
    test: np.ndarray

    @property
    def rule(self) -> Rule | RuleSet | RuleList:
        return self.model.rule_


def split_rows(ds: Dataset, test_size: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Stratified training and held-out rows, a repeated identifier's rows on one side
    (:attr:`Dataset.groups`); ``test_size=0`` keeps every row for training.

    On a target with more than two classes every class is stratified (where each has rows
    enough for both sides), not only the positive class against the rest: a rule list
    predicts them all, and a class's share drifted by up to 16 points between the sides on
    iris (a review)."""
    if test_size == 0:
        return np.arange(ds.n_samples), np.arange(0)
    return train_test_indices(split_labels(ds, test_size), test_size, seed, groups=ds.groups)


def split_labels(ds: Dataset, test_size: float) -> np.ndarray:
    """The labels :func:`split_rows` stratifies on: every class of a target with more than
    two (where each has rows enough for both sides), else the positive class against the
    rest.  Compare splits on the same, so its rows are the Rule page's (a review: on three
    classes the two pages held out different rows under the same seed).

    Two classes are stratified as their labels, not as the 0/1 of the positive class: the
    split sorts the classes it stratifies, so choosing the other class as positive swapped
    0 and 1 and held out other rows, and the figures before and after the swap were not on
    the same rows (a stranger's review).  Where the positive class sorts last the split is
    the one the 0/1 gave."""
    if len(ds.classes) == 2:
        return ds.y.astype(str).to_numpy()
    if len(ds.classes) > 2:
        counts = ds.y.value_counts()
        n_test = int(np.ceil(test_size * ds.n_samples))
        if counts.min() >= 2 and min(n_test, ds.n_samples - n_test) >= len(counts):
            return ds.y.astype(str).to_numpy()
    return ds.y_binary


def fit_on_split(settings: RuleSettings, ds: Dataset, test_size: float = 0.25,
                 seed: int = 0) -> SplitFit:
    """Fit the model ``settings`` describe on the training rows of ``ds``.

    The estimator learns on 0/1 labels (1: ``ds.positive``); the fitted rule is then relabelled
    to say what it predicts in the data's own words.
    """
    many = multiclass(settings, ds)
    model = settings.estimator(len(ds.classes) if many else 2)
    train, test = split_rows(ds, test_size, seed)
    if many:
        # a rule list over the original labels: no positive class to pick
        model.fit(ds.X.iloc[train], ds.y.to_numpy()[train])
        model.rule_ = model.rules_ = model.rules_.relabel(ds.target)
        return SplitFit(model, train, test)
    model.fit(ds.X.iloc[train], ds.y_binary[train])
    if hasattr(model, "rules_"):
        # the DNF describes the class the fit chose (1: ds.positive, 0: the other class)
        names = {1: ds.positive, 0: ds.negative_label}
        described = model.described_class_
        model.rule_ = model.rules_ = model.rules_.relabel(ds.target, names[described],
                                                          names[1 - described])
        if model.cv_results_ is not None:  # say the classes in the data's words too
            model.cv_results_["describe"] = model.cv_results_["describe"].map(names)
        return SplitFit(model, train, test)
    model.rule_ = model.rule_.relabel(ds.target, ds.positive, ds.negative_label)
    if hasattr(model, "ruleset_"):
        model.ruleset_ = model.rule_
    return SplitFit(model, train, test)


def stability_on(settings: RuleSettings, ds: Dataset, **options: Any):
    """:func:`rulecore.stability` of the model ``settings`` describe, refitted on the labels
    :func:`fit_on_split` fits on (0/1 for a positive class, or every class for a rule list),
    with the fold table saying which class each rule predicts in the data's words.

    ``options`` go to :func:`rulecore.rules.stability.stability` (``n_splits``, ``bootstrap``,
    ``random_state``, ``backend``, ``progress`` ...).
    """
    from rulecore.rules.stability import stability

    many = multiclass(settings, ds)
    # held out as the Rule page holds out: whole records where one comes back on many rows
    options.setdefault("groups", None if ds.groups is None else ds.groups.to_numpy())
    result = stability(settings.estimator(len(ds.classes) if many else 2), ds.X,
                       ds.y.to_numpy() if many else ds.y_binary,
                       **options)
    if not many:  # the 0/1 the fits learned on, in the data's words
        names = {1: ds.positive, 0: ds.negative_label}
        result.fold_table["predicts"] = result.fold_table["predicts"].map(
            lambda v: names.get(v, v))
    return result


def multiclass(settings: RuleSettings, ds: Dataset) -> bool:
    """Whether this fit learns all of the target's classes (the rule set on a target with
    more than two classes) instead of ``positive`` against the rest."""
    return settings.model == "rule set" and len(ds.classes) > 2
