"""Loaders for the benchmark data sets in ``../shared/datasets`` (never copied into the repo).

``load(name)`` returns ``(X, y)``: a pandas DataFrame of features and a numpy array of the raw
labels, with the id / selector columns the MANIFEST says to drop removed.  Names are the folder
names (``magic``, ``ionosphere``...), ``gas`` for the partial gas-drift set (all batches), and
``libsvm/<file>`` for the LibSVM-format sets.  Set ``RULECORE_DATASETS`` to read them elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(
    os.environ.get("RULECORE_DATASETS", Path(__file__).resolve().parents[2] / "shared" / "datasets")
)


def _csv(path: str, **kw) -> pd.DataFrame:
    return pd.read_csv(ROOT / path, skipinitialspace=True, **kw)


def _last(df: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
    return df.iloc[:, :-1], df.iloc[:, -1].to_numpy()


def _numbered(df: pd.DataFrame) -> pd.DataFrame:
    df.columns = [f"x{i + 1}" for i in range(df.shape[1])]
    return df


def _libsvm(file: str) -> tuple[pd.DataFrame, np.ndarray]:
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(ROOT / "libsvm" / file))
    X = pd.DataFrame(X.toarray(), columns=[f"x{i + 1}" for i in range(X.shape[1])])
    return X, y


def _gas() -> tuple[pd.DataFrame, np.ndarray]:
    parts = [_csv(f"gas_sensor_drift_partial/{p.name}", header=None)
             for p in sorted((ROOT / "gas_sensor_drift_partial").glob("batch*.csv"))]
    df = pd.concat(parts, ignore_index=True)
    X = _numbered(df.iloc[:, 2:].copy())  # column 1 is the concentration: a second target
    return X, df.iloc[:, 0].to_numpy()


def _ionosphere() -> tuple[pd.DataFrame, np.ndarray]:
    X, y = _last(_csv("ionosphere/ionosphere.data", header=None))
    return _numbered(X.copy()), y


def _wdbc() -> tuple[pd.DataFrame, np.ndarray]:
    df = _csv("wdbc/wdbc.data", header=None)
    return _numbered(df.iloc[:, 2:].copy()), df.iloc[:, 1].to_numpy()


def _parkinsons() -> tuple[pd.DataFrame, np.ndarray]:
    df = _csv("parkinsons/parkinsons.data").drop(columns="name")
    return df.drop(columns="status"), df["status"].to_numpy()


def _bcw() -> tuple[pd.DataFrame, np.ndarray]:
    df = _csv("breast-cancer-wisconsin/breast-cancer-wisconsin.data", header=None, na_values="?")
    return _numbered(df.iloc[:, 1:-1].copy()), df.iloc[:, -1].to_numpy()


def _bands() -> tuple[pd.DataFrame, np.ndarray]:
    df = _csv("bands/bands.data", header=None, na_values="?", skip_blank_lines=True)
    df = df.dropna(subset=[df.columns[-1]])
    # column 1 is a timestamp and column 2 a cylinder id: identifiers, not features
    X = _numbered(df.iloc[:, 2:-1].copy())
    return X, df.iloc[:, -1].str.strip().str.lower().to_numpy()


def _wine() -> tuple[pd.DataFrame, np.ndarray]:
    df = _csv("wine/wine.data", header=None)
    return _numbered(df.iloc[:, 1:].copy()), df.iloc[:, 0].to_numpy()


_LOADERS = {
    "ionosphere": _ionosphere,
    "banknote": lambda: (lambda X, y: (_numbered(X.copy()), y))(
        *_last(_csv("banknote/data_banknote_authentication.txt", header=None))),
    "magic": lambda: (lambda X, y: (_numbered(X.copy()), y))(
        *_last(_csv("magic/magic04.data", header=None))),
    "gas": _gas,
    "ilpd": lambda: _last(_csv("ilpd/ilpd.csv")),
    "bupa": lambda: _last(_csv("bupa/bupa.data")),
    "parkinsons": _parkinsons,
    "pima": lambda: (lambda X, y: (_numbered(X.copy()), y))(
        *_last(_csv("pima/pima-indians-diabetes.data", header=None))),
    "sonar": lambda: (lambda X, y: (_numbered(X.copy()), y))(
        *_last(_csv("sonar/sonar.all-data", header=None))),
    "transfusion": lambda: _last(_csv("transfusion/transfusion.data")),
    "wdbc": _wdbc,
    "iris": lambda: (lambda X, y: (_numbered(X.copy()), y))(
        *_last(_csv("iris/iris.data", header=None).dropna())),
    "wine": _wine,
    "breast-cancer-wisconsin": _bcw,
    "biodeg": lambda: (lambda X, y: (_numbered(X.copy()), y))(
        *_last(_csv("biodeg/biodeg.csv", header=None, sep=";"))),
    "spambase": lambda: (lambda X, y: (_numbered(X.copy()), y))(
        *_last(_csv("spambase/spambase.data", header=None))),
    "kr-vs-kp": lambda: _last(_csv("kr-vs-kp/kr-vs-kp.csv")),
    "bands": _bands,
}

LIBSVM = ["australian_scale", "breast-cancer_scale", "diabetes_scale", "german.numer_scale",
          "heart_scale", "splice_scale", "svmguide3", "segment.scale", "vehicle.scale",
          "vowel.scale", "wine.scale"]


def list_names() -> list[str]:
    """Every name :func:`load` accepts."""
    return sorted(_LOADERS) + [f"libsvm/{f}" for f in LIBSVM]


def load(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Load one benchmark set as ``(X, y)``; ``y`` holds the raw labels."""
    if name.startswith("libsvm/"):
        return _libsvm(name.split("/", 1)[1])
    try:
        return _LOADERS[name]()
    except KeyError:
        raise KeyError(f"unknown data set {name!r}; choose from {list_names()}") from None


def binary(y: np.ndarray, positive) -> np.ndarray:
    """0/1 labels, 1 where ``y == positive``."""
    return (np.asarray(y) == positive).astype(int)


if __name__ == "__main__":
    for n in list_names():
        X, y = load(n)
        labels, counts = np.unique(y.astype(str), return_counts=True)
        print(f"{n:32s} {X.shape[0]:6d} x {X.shape[1]:4d}  {dict(zip(labels, counts))}")
