"""Bundled sample tables: scikit-learn's small sets and our own synthetic sets.

The synthetic sets have a *planted* conjunctive rule plus label noise, so the app can show
that the learner recovers it.  Their generators are seeded: the same call gives the same
table on every machine.  ``python -m rulecore.samples`` writes them to ``sample_data/``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rulecore.data import Dataset, from_frame
from rulecore.exceptions import DataError

SEED = 20261122


def _sklearn(loader: str, title: str, target: str,
             positive=None) -> tuple[Callable[[], pd.DataFrame], str, object, str]:
    def frame() -> pd.DataFrame:
        import sklearn.datasets as skd

        bunch = getattr(skd, loader)(as_frame=True)
        df = bunch.frame.copy()
        names = getattr(bunch, "target_names", None)
        if names is not None and len(names) and not str(names[0]).isdigit():
            df["target"] = np.asarray(names)[df["target"].to_numpy()]
        return df.rename(columns={"target": target})
    return frame, target, positive, f"{title} (scikit-learn's bundled copy)."


def salesforce_attrition(n: int = 1500, noise: float = 0.04, seed: int = SEED) -> pd.DataFrame:
    """Salespeople who resign, in the spirit of Varshney et al. (2012).

    Planted rule for ``resigned = yes`` (then ``noise`` of the labels flipped)::

        job_role == "Specialty Software Rep" AND base_salary <= 75000
        AND months_since_promotion > 13 AND quota_based_pay == "no"
    """
    rng = np.random.default_rng(seed)
    roles = np.array(["Specialty Software Rep", "Account Executive", "Dealmaker",
                      "Sales Engineer", "Inside Sales Rep"])
    role = rng.choice(roles, size=n, p=[0.35, 0.2, 0.15, 0.15, 0.15])
    region = rng.choice(["North", "South", "East", "West"], size=n)
    salary = np.round(rng.normal(78000, 15000, size=n), -2).clip(35000, 150000)
    months = rng.integers(0, 61, size=n)
    quota = rng.choice(["yes", "no"], size=n, p=[0.45, 0.55])
    tenure = np.round(rng.gamma(2.0, 2.5, size=n), 1)
    deals = rng.poisson(12, size=n)
    rule = ((role == "Specialty Software Rep") & (salary <= 75000) & (months > 13)
            & (quota == "no"))
    flip = rng.random(n) < noise
    resigned = np.where(rule ^ flip, "yes", "no")
    return pd.DataFrame({
        "job_role": role, "region": region, "base_salary": salary,
        "months_since_promotion": months, "quota_based_pay": quota,
        "tenure_years": tenure, "deals_closed": deals, "resigned": resigned,
    })


def machine_failure(n: int = 2000, noise: float = 0.03, seed: int = SEED + 1) -> pd.DataFrame:
    """Milling machines that fail, with sensors, a machine type and missing readings.

    Planted rule for ``failure = yes`` (then ``noise`` of the labels flipped)::

        torque_nm > 45 AND tool_wear_min > 120 AND machine_type != "L"

    About 2 % of the air temperature readings are missing, to show how missing values
    make every term on that column false.
    """
    rng = np.random.default_rng(seed)
    mtype = rng.choice(["L", "M", "H"], size=n, p=[0.5, 0.3, 0.2])
    torque = np.round(rng.normal(42, 10, size=n), 1).clip(5, 80)
    wear = rng.integers(0, 250, size=n)
    speed = np.round(2860 - 25 * torque + rng.normal(0, 60, size=n))
    air = np.round(rng.normal(300, 2, size=n), 1)
    process = np.round(air + 10 + rng.normal(0, 1, size=n), 1)
    air[rng.random(n) < 0.02] = np.nan
    shift = rng.choice(["day", "night"], size=n)
    rule = (torque > 45) & (wear > 120) & (mtype != "L")
    flip = rng.random(n) < noise
    failure = np.where(rule ^ flip, "yes", "no")
    return pd.DataFrame({
        "machine_type": mtype, "shift": shift, "air_temp_k": air, "process_temp_k": process,
        "rotational_speed_rpm": speed, "torque_nm": torque, "tool_wear_min": wear,
        "failure": failure,
    })


def _doc_text(frame: Callable[..., pd.DataFrame]) -> str:
    """A generator's docstring as plain text, one paragraph per line (the sample's
    description; the page decides how to show it).

    The docstrings are reST: indented, with ``::`` literal blocks; a literal block (the planted
    rule) becomes one line, quoted.
    """
    text = inspect.cleandoc(frame.__doc__ or "")
    noise = inspect.signature(frame).parameters.get("noise")
    if noise is not None:  # say what the default flips, not the parameter's name
        text = text.replace("``noise``", f"{noise.default:.0%}")
    text = text.replace("``", "")
    out, literal = [], False
    for par in text.split("\n\n"):
        if literal and par.startswith(" "):  # the literal block: one quoted line
            out.append("“" + " ".join(line.strip() for line in par.splitlines()) + "”")
            continue
        literal = par.endswith("::")
        out.append(" ".join(par[:-1].splitlines() if literal else par.splitlines()))
    return "\n\n".join(out)


def _synthetic(frame: Callable[[], pd.DataFrame], target: str, positive: str,
               title: str) -> tuple[Callable[[], pd.DataFrame], str, object, str]:
    return frame, target, positive, f"{title} Synthetic, seed {SEED}. {_doc_text(frame)}"


@dataclass(frozen=True)
class Sample:
    """A bundled table: how to build its frame, its target, positive class and description."""

    name: str
    title: str
    frame: Callable[[], pd.DataFrame]
    target: str
    positive: object
    description: str

    def make(self, **options) -> Dataset:
        """The sample as a Dataset; ``options`` as for :func:`rulecore.data.from_frame`
        (another target, positive class, kinds, included or excluded columns)."""
        target = options.pop("target", None) or self.target
        if target == self.target and options.get("positive") is None:
            options["positive"] = self.positive
        options.setdefault("continuous", "median")
        return from_frame(self.frame(), target=target, name=self.name,
                          description=self.description, **options)


def _sample(name: str, title: str, parts: tuple) -> Sample:
    return Sample(name, title, *parts)


SAMPLES: dict[str, Sample] = {s.name: s for s in [
    _sample("iris", "Iris flowers (3 species)",
            _sklearn("load_iris", "Iris flowers: versicolor against the rest, as in the BCS "
                     "paper's figure.", "species", positive="versicolor")),
    _sample("salesforce attrition", "Salesforce attrition (synthetic, planted rule)",
            _synthetic(salesforce_attrition, "resigned", "yes", "Which salespeople resign?")),
    _sample("machine failure", "Machine failure (synthetic, planted rule)",
            _synthetic(machine_failure, "failure", "yes", "Which milling machines fail?")),
    _sample("breast cancer", "Breast cancer Wisconsin (WDBC)",
            _sklearn("load_breast_cancer", "Breast cancer Wisconsin diagnostic", "diagnosis",
                     positive="malignant")),
    _sample("wine", "Wine cultivars (3 classes)",
            _sklearn("load_wine", "Wine from three cultivars", "cultivar")),
    _sample("digits", "Handwritten digits 8x8 (10 classes)",
            _sklearn("load_digits", "Handwritten digits, 8x8 pixels", "digit")),
]}

DEFAULT_SAMPLE = "iris"


def list_samples() -> list[str]:
    """Names of the bundled samples, the default first."""
    return list(SAMPLES)


def load_sample(name: str, **options) -> Dataset:
    """Load a bundled sample by name (see :func:`list_samples`).

    ``options`` (``target``, ``positive``, ``kinds``, ``include``, ``exclude``) as for
    :func:`rulecore.data.from_frame`; by default the sample's own target and positive class.
    """
    if name not in SAMPLES:
        raise DataError(f"There is no sample called {name!r}; the samples are "
                        f"{', '.join(SAMPLES)}.")
    return SAMPLES[name].make(**options)


def write_csvs(folder: Path) -> list[Path]:
    """Write the synthetic samples as CSV files (for users who want a file to upload)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for fname, make in [("salesforce_attrition.csv", salesforce_attrition),
                        ("machine_failure.csv", machine_failure)]:
        path = folder / fname
        make().to_csv(path, index=False)
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write_csvs(Path(__file__).resolve().parents[1] / "sample_data"):
        print("wrote", p)
