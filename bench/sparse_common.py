"""Shared helpers for the sparse-classification benchmarks (header, data, baselines)."""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results"


def machine() -> str:
    """'2-core AMD EPYC, 24 GiB' from lscpu / nproc / /proc/meminfo."""
    try:
        model = next(line.split(":", 1)[1].strip()
                     for line in subprocess.run(["lscpu"], capture_output=True, text=True,
                                                check=False).stdout.splitlines()
                     if line.startswith("Model name"))
    except StopIteration:
        model = platform.processor() or "unknown CPU"
    mem = 0.0
    try:
        kb = next(int(line.split()[1]) for line in open("/proc/meminfo")
                  if line.startswith("MemTotal"))
        mem = kb / 2**20
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()}-core {model}, {mem:.0f} GiB"


def header(title: str, command: str) -> str:
    now = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (f"# {title}\n\nMachine: {machine()} (shared with other jobs while running).  "
            f"Date: {now}.\nCommand: `{command}`\n")


def to_numeric(X: pd.DataFrame) -> pd.DataFrame:
    """rulecore.data.to_numeric when present, else one-hot + median imputation."""
    try:
        from rulecore.data import to_numeric as tn
        return tn(X)
    except ImportError:
        X = pd.get_dummies(X, dtype=float)
        return X.fillna(X.median()).astype(float)


def markdown(df: pd.DataFrame, floatfmt: str = "{:.3g}") -> str:
    cols = list(df.columns)
    out = ["| " + " | ".join(map(str, cols)) + " |", "|" + "---|" * len(cols)]
    for _, row in df.iterrows():
        cells = [floatfmt.format(v) if isinstance(v, (float, np.floating)) else str(v)
                 for v in row]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def write(name: str, text: str) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / name
    path.write_text(text)
    print(text)
    return path
