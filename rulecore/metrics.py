"""Binary classification metrics in the form the pages and the command line show them."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import confusion_matrix


def binary_metrics(y_true: np.ndarray, y_pred: np.ndarray) -> dict[str, float]:
    """Accuracy, precision, recall and the confusion matrix of 0/1 predictions.

    Precision (recall) is ``nan`` when nothing is predicted (present) positive, rather than a
    misleading 0.

    Returns
    -------
    dict with ``accuracy``, ``balanced_accuracy`` (mean of the two classes' recalls),
    ``majority`` (accuracy of always predicting the majority class), ``precision``,
    ``recall``, ``n`` and ``confusion`` (2×2 array, rows true 0/1, columns predicted 0/1).
    """
    y_true = np.asarray(y_true).astype(int)
    y_pred = np.asarray(y_pred).astype(int)
    cm = confusion_matrix(y_true, y_pred, labels=[0, 1])
    tp, fp, fn, tn = cm[1, 1], cm[0, 1], cm[1, 0], cm[0, 0]
    recalls = [tp / (tp + fn) if tp + fn else np.nan, tn / (tn + fp) if tn + fp else np.nan]
    rate = float(np.mean(y_true)) if len(y_true) else float("nan")
    return {
        "accuracy": float(np.mean(y_true == y_pred)) if len(y_true) else float("nan"),
        "balanced_accuracy": float(np.mean(recalls)),
        "majority": max(rate, 1 - rate),
        "precision": float(tp / (tp + fp)) if tp + fp else float("nan"),
        "recall": float(tp / (tp + fn)) if tp + fn else float("nan"),
        "n": int(len(y_true)),
        "confusion": cm,
    }


def fmt_rate(v: float, digits: int = 3) -> str:
    """A metric for a table cell: ``0.912``, or ``—`` where it is undefined (a precision with
    nothing predicted positive), never ``nan`` or ``None``."""
    return "—" if v is None or not np.isfinite(v) else f"{v:.{digits}f}"


def fmt_percent(v: float) -> str:
    """A share for a table cell: ``42.3%``, or ``—`` where it is undefined (the precision of
    a condition no row meets), never ``nan`` or ``None``."""
    return "—" if v is None or not np.isfinite(v) else f"{100 * v:.1f}%"
