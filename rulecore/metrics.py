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
    dict with ``accuracy``, ``precision``, ``recall``, ``n`` and ``confusion``
    (2×2 array, rows true 0/1, columns predicted 0/1).
    """
    y_true = np.asarray(y_true).astype(int)
    y_pred = np.asarray(y_pred).astype(int)
    cm = confusion_matrix(y_true, y_pred, labels=[0, 1])
    tp, fp, fn = cm[1, 1], cm[0, 1], cm[1, 0]
    return {
        "accuracy": float(np.mean(y_true == y_pred)) if len(y_true) else float("nan"),
        "precision": float(tp / (tp + fp)) if tp + fp else float("nan"),
        "recall": float(tp / (tp + fn)) if tp + fn else float("nan"),
        "n": int(len(y_true)),
        "confusion": cm,
    }
