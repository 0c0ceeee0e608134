"""The command line, driven as a user would, on the samples: exit codes, what it prints and
the files it writes.  Two tests start ``python -m rulecore`` in a subprocess (the module entry
point, a real pipe for stderr); the rest call ``main`` in this process with its streams and
working directory swapped, because a subprocess spends about three seconds importing numpy,
pandas, scikit-learn and HiGHS before it reads its first argument (``run_process`` vs ``run``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rulecore.cli import Progress, markdown_table
from rulecore.rules.rule import Rule
from rulecore.samples import machine_failure
from rulecore.sweep import pareto_front

ROOT = Path(__file__).resolve().parents[1]


def run_process(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m rulecore ARGS`` in a fresh interpreter, as a user's shell runs it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "rulecore", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``rulecore ARGS`` in this process: ``main``'s exit status, stdout and stderr, run in
    ``cwd``.  An argparse error exits through SystemExit, as in the shell; any other exception
    is a bug and fails the test with its traceback."""
    from rulecore.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["rulecore", *args], status, out.getvalue(),
                                       err.getvalue())


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory) -> Path:
    """A small copy of the 'machine failure' sample (planted rule) as a CSV file."""
    path = tmp_path_factory.mktemp("data") / "machines.csv"
    machine_failure(n=400, seed=3).to_csv(path, index=False)
    return path


def test_learn_writes_checklist_export_and_json(csv_file, tmp_path):
    res = run_process("learn", str(csv_file), "--target", "failure", "--positive", "yes",
                      "--lam", "2", "--n-thresholds", "6", "--export", "python",
                      "--output", "rule.py", "--json", "result.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Predict failure = yes when all of these hold:" in res.stdout
    assert "[ ] " in res.stdout and "support" in res.stdout
    assert "\r" not in res.stderr  # no progress bar when stderr is not a terminal
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["positive"] == "yes" and result["target"] == "failure"
    assert result["solver"]["status"] == "optimal"
    assert result["solver"]["gap"] == pytest.approx(0.0, abs=1e-9)
    assert result["screening"]["n_kept"] <= result["screening"]["n_columns"]
    assert result["screening"]["certified"] is True
    assert result["screening"]["funnel"][0]["stage"] == "All terms"
    assert 0.0 <= result["metrics"]["test"]["accuracy"] <= 1.0
    assert result["metrics"]["train"]["rows"] + result["metrics"]["test"]["rows"] == 400
    # The exported Python agrees with the JSON rule on every row of the file.
    rule = Rule.from_dict(result["rule_json"])
    assert result["conditions"] == len(rule) >= 1
    namespace: dict = {}
    exec((tmp_path / "rule.py").read_text(), namespace)
    df = pd.read_csv(csv_file)
    ours = [bool(namespace["predict"](r)) for r in df.drop(columns="failure").to_dict("records")]
    assert ours == list(rule.predict(df).astype(bool))
    # Accuracy in the JSON is the rule's, recomputed here on the full file as a sanity bound.
    assert np.mean(np.array(ours) == (df["failure"] == "yes")) > 0.8


def test_learn_on_a_sample_with_rule_set_prints_export(tmp_path, monkeypatch, capsys):
    from rulecore.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--sample", "iris", "--positive", "setosa", "--model", "set-covering",
                 "--max-rules", "2", "--export", "sql", "--test-size", "0"]) == 0
    out = capsys.readouterr().out
    assert "WHERE" in out
    assert "train: accuracy" in out and "test:" not in out



def test_learn_progress_prints_the_fit_stages_to_stderr_only(tmp_path, monkeypatch, capsys):
    from rulecore.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--sample", "iris", "--progress"]) == 0
    captured = capsys.readouterr()
    stages = [ln for ln in captured.err.splitlines() if " s  " in ln]
    assert any("candidate terms on 112 rows" in ln for ln in stages)
    assert any("Certified screening" in ln for ln in stages)
    assert "Certified screening" not in captured.out  # the report stays clean for pipes
    assert main(["learn", "--sample", "iris"]) == 0  # not a terminal, not asked: quiet
    assert "Certified screening (" not in capsys.readouterr().err

BAD_INPUT = [
    (["learn", "missing.csv"], "File not found"),
    (["learn", "--sample", "nope"], "There is no sample called 'nope'"),
    (["learn", "--sample", "iris", "--positive", "tulip"], "'tulip' is not a class"),
    (["learn", "--sample", "iris", "--lam", "-1"], "λ (lam) must be a positive number"),
    (["learn", "--sample", "iris", "--test-size", "1.5"], "--test-size"),
    (["sweep", "--sample", "iris", "--lams", "a,b"], "--lams must be numbers"),
    (["sweep", "--sample", "iris", "--backend", "dask"], "scheduler"),
    (["learn"], "Give a table file (CSV, Excel, ...) or --sample"),
    (["compare", "--sample", "iris", "--models", "single,forest"], "Unknown model 'forest'"),
    # refused before the fit, which printed its whole report first (a review)
    (["learn", "--sample", "iris", "--alternatives", "0"], "1 or more, not 0"),
    (["learn", "--sample", "iris", "--lam", "1e400"], "λ (lam) must be a positive number"),
    # a date's own columns are named (it got only the list of columns)
    (["learn", str(ROOT / "tests" / "data" / "hr_attrition_sqlserver.csv"), "--require",
      "HireDate"],
     "its values were turned into 'HireDate (year)', 'HireDate (month)'; name one of those"),
    (["learn", "--sample", "iris", "--alternatives", "3", "--error", "exact"],
     "use --error hamming"),
    (["learn", "--sample", "iris", "--alternatives", "3", "--model", "rule-set"],
     "use --model single"),
]


def test_bad_input_exits_2_without_traceback_in_a_real_process(tmp_path):
    res = run_process("learn", "missing.csv", cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr == "rulecore learn: error: File not found: missing.csv\n"
    assert res.stdout == ""


@pytest.mark.parametrize("args, message", BAD_INPUT)
def test_bad_input_exits_2_with_the_apps_message(tmp_path, monkeypatch, capsys, args,
                                                 message):
    """The same checks in-process (a subprocess per case would only re-test start-up)."""
    from rulecore.cli import main

    if "dask" in args:
        pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr()
    assert message in err.err
    assert err.out == ""


def test_unknown_option_is_an_argparse_error(tmp_path):
    res = run("learn", "--sample", "iris", "--solver", "magic", cwd=tmp_path)
    assert res.returncode == 2 and "invalid choice" in res.stderr


def test_screen_prints_funnel_and_writes_csv(csv_file, tmp_path):
    res = run("screen", str(csv_file), "--positive", "yes", "--lam", "2", "--n-thresholds", "6",
              "--format", "csv", "--output", "funnel.csv", "--json", "screen.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    funnel = pd.read_csv(tmp_path / "funnel.csv")
    assert list(funnel.columns) == ["stage", "columns", "removed", "seconds"]
    assert funnel["stage"].iloc[0] == "All terms"
    # each step removes what the previous left minus what remains
    assert (funnel["columns"].iloc[:-1].to_numpy() - funnel["removed"].iloc[1:].to_numpy()
            == funnel["columns"].iloc[1:].to_numpy()).all()
    report = json.loads((tmp_path / "screen.json").read_text())
    assert report["n_kept"] == funnel["columns"].iloc[-1] == len(report["kept_terms"])
    assert report["lower_bound"] <= report["upper_bound"] + 1e-9


def test_compare_writes_csv(csv_file, tmp_path):
    res = run("compare", str(csv_file), "--positive", "yes", "--models", "single,cart",
              "--n-thresholds", "6", "--format", "csv", "--output", "cmp.csv", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    table = pd.read_csv(tmp_path / "cmp.csv")
    assert list(table["model"]) == ["Single rule", "CART (sklearn)"]
    assert table["accuracy"].between(0.5, 1.0).all()
    assert table.loc[0, "size"] >= 1 and table.loc[0, "status"] == "optimal"


def test_sweep_writes_front_table_and_html(csv_file, tmp_path):
    res = run("sweep", str(csv_file), "--positive", "yes", "--lams", "0.02,2",
              "--thresholds", "3,6", "--cv", "3", "--n-jobs", "1", "--output", "front.csv",
              "--table", "all.csv", "--html", "front.html", "--cdn", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    table = pd.read_csv(tmp_path / "all.csv")
    front = pd.read_csv(tmp_path / "front.csv")
    assert len(table) == 4 and {"cv_error", "conditions", "rule"} <= set(table.columns)
    pd.testing.assert_frame_equal(pareto_front(table), front)
    assert "Pareto front" in res.stdout
    html = (tmp_path / "front.html").read_text()
    assert "plotly" in html and "Pareto front" in html


def test_console_entry_point_and_version(monkeypatch, capsys):
    """``[project.scripts] rulecore = "rulecore.cli:entry"``: exits with main's status."""
    from rulecore.cli import entry

    monkeypatch.setattr(sys, "argv", ["rulecore", "--version"])
    with pytest.raises(SystemExit) as exc:
        entry()
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("rulecore ")
    monkeypatch.setattr(sys, "argv", ["rulecore", "learn", "--sample", "nope"])
    with pytest.raises(SystemExit) as exc:
        entry()
    assert exc.value.code == 2


# --------------------------------------------------------------------------- helpers


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_draws_only_on_a_terminal():
    tty, pipe = _Tty(), io.StringIO()
    for stream in (tty, pipe):
        p = Progress("fits", stream=stream)
        for i in range(1, 6):
            p(i, 5)
    assert pipe.getvalue() == ""
    assert "5/5" in tty.getvalue() and tty.getvalue().endswith("\n")


def test_markdown_table_escapes_pipes():
    text = markdown_table(pd.DataFrame({"rule": ["a | b"], "n": [1.5]}))
    assert text.splitlines()[2] == "| a \\| b | 1.5 |"
    assert text.splitlines()[1] == "| --- | ---: |"


def test_markdown_table_leaves_a_cell_without_a_value_empty():
    """The datum-wise model has no size and no gap: 'rulecore compare' printed "None" where
    the app's table shows nothing."""
    text = markdown_table(pd.DataFrame({"model": ["Datum-wise"], "size": [None],
                                        "gap": [np.nan]}, dtype=object))
    assert text.splitlines()[2] == "| Datum-wise |  |  |"


# --------------------------------------------------------------------------- analysts' tables

CORPUS = ROOT / "tests" / "data"


def test_learn_on_a_table_with_row_names_leaves_them_out(tmp_path):
    res = run("learn", str(CORPUS / "r_credit_rownames.csv"), "--json", "r.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "predicting default = yes (10.0% of rows)" in res.stdout
    assert "left out: column 1 (unnamed first column: row names saved with the table)" in \
        res.stdout
    result = json.loads((tmp_path / "r.json").read_text())
    assert "column 1" not in {c["feature"] for c in result["rule_json"]["conditions"]}
    roles = {c["column"]: c for c in result["columns"]}
    assert roles["column 1"]["role"] == "index" and not roles["column 1"]["included"]
    assert result["options"]["class_weight"] == "sqrt"
    assert result["status"]["text"].startswith("Certified optimal")
    assert "Traceback" not in res.stderr


def test_include_and_exclude_flags(tmp_path):
    res = run("learn", str(CORPUS / "r_credit_rownames.csv"), "--include", "column 1",
              "--exclude", "region,income", "--json", "r.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    roles = {c["column"]: c for c in json.loads((tmp_path / "r.json").read_text())["columns"]}
    assert roles["column 1"]["included"] and roles["column 1"]["detected"] == "index"
    assert not roles["region"]["included"] and not roles["income"]["included"]
    res = run("learn", str(CORPUS / "r_credit_rownames.csv"), "--exclude", "nope",
              cwd=tmp_path)
    assert res.returncode == 2 and "Cannot exclude 'nope': there is no such column" in res.stderr


def test_a_column_flag_given_twice_keeps_both(tmp_path):
    """Each leak warning says "--exclude COL", so a user repeats the flag for each: argparse
    kept the last one only, and the first leak (Pipedrive's 'Won time') went on making the
    rule without a word (a stranger's rerun).  Every column flag adds up, comma-joined or
    repeated."""
    res = run("learn", str(CORPUS / "r_credit_rownames.csv"), "--exclude", "region",
              "--exclude", "income,age", "--categorical", "x", "--categorical", "y",
              "--json", "r.json", cwd=tmp_path)
    assert res.returncode == 2 and "'x'" in res.stderr  # --categorical x was read, not lost
    res = run("learn", str(CORPUS / "r_credit_rownames.csv"), "--exclude", "region",
              "--exclude", "income,age", "--json", "r.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    roles = {c["column"]: c for c in json.loads((tmp_path / "r.json").read_text())["columns"]}
    assert not any(roles[c]["included"] for c in ("region", "income", "age"))


def test_numeric_and_categorical_flags_set_column_kinds(tmp_path):
    """The Data page could change a column's kind; the command line could not."""
    res = run("learn", str(CORPUS / "fish_continuous_last.csv"), "--categorical", "height_cm",
              "--json", "f.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    kinds = {c["column"]: c["kind"] for c in
             json.loads((tmp_path / "f.json").read_text())["columns"]}
    assert kinds["height_cm"] == "categorical" and kinds["width_cm"] == "numeric"
    assert kinds["species"] is None  # the target is no feature
    res = run("learn", str(CORPUS / "r_credit_rownames.csv"), "--numeric", "region",
              cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "Column 'region' cannot be numeric: 400 of its 400 values ('south', 'west', " \
           "'north', ...) are not numbers" in res.stderr


def test_continuous_target_needs_a_threshold(tmp_path):
    res = run("learn", str(CORPUS / "hours_continuous_only.csv"), cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "is a number with 190 distinct values, not classes" in res.stderr
    assert "--positive '> 34.2'" in res.stderr
    res = run("learn", str(CORPUS / "hours_continuous_only.csv"), "--positive", ">40",
              "--json", "h.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "predicting hours > 40 = yes" in res.stdout
    result = json.loads((tmp_path / "h.json").read_text())
    assert result["target"] == "hours > 40" and result["positive"] == "yes"


def test_prose_file_is_refused(tmp_path):
    res = run("learn", str(CORPUS / "prose_notes.txt"), cwd=tmp_path)
    assert res.returncode == 2 and "looks like prose, not a table" in res.stderr


def test_leak_and_dates_are_reported(tmp_path):
    res = run("learn", str(CORPUS / "complaints_leak.csv"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "warning: refund_issued alone predicts upheld = yes" in res.stdout
    # a column that gives away another class than the one predicted (a stranger's review)
    res = run("learn", str(CORPUS / "qc_batches_defect_count.csv"), "--positive", "2",
              cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "warning: rework_minutes alone tells defect_count = 0 from its other values" in \
        res.stdout
    res = run("learn", str(CORPUS / "db_churn_ids_dates.csv"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "derived from dates: signup_ts (year), signup_ts (month)" in res.stdout
    assert "customer_id" not in res.stdout.split("left out:")[1].split("\n", 1)[1]


def test_compare_on_free_text_table_runs(tmp_path):
    res = run("compare", str(CORPUS / "survey_free_text.csv"), "--models", "single,cart",
              "--format", "csv", "--output", "c.csv", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert len(pd.read_csv(tmp_path / "c.csv")) == 2


def test_learn_rule_set_on_three_classes_needs_no_positive(tmp_path, monkeypatch, capsys):
    """`--model rule-set` on iris: a rule list over the original labels, exported as SQL and
    JSON, whose predictions are the labels and which beats the majority class."""
    from rulecore.cli import main
    from rulecore.rules.rule import RuleList

    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--sample", "iris", "--model", "rule-set", "--export", "sql",
                 "--json", "out.json"]) == 0
    out = capsys.readouterr().out
    assert "3 classes, all learned (no positive class)" in out
    assert "Predict species by the first rule that holds:" in out
    assert "CASE" in out and "END AS" in out
    result = json.loads((tmp_path / "out.json").read_text())
    assert set(result["classes"]) == {"setosa", "versicolor", "virginica"}
    assert result["accuracy"]["test"] > 0.8
    rules = RuleList.from_json(json.dumps(result["rules"]))
    assert set(rules.labels) <= set(result["classes"])
    # the thresholds per column were chosen with λ; given, the count is taken as it is
    assert result["n_thresholds"] in (10, 20, 40)
    assert (f"thresholds per numeric column: {result['n_thresholds']} (chosen by the same "
            "cross-validation among 10, 20, 40)") in out
    assert main(["learn", "--sample", "iris", "--model", "rule-set", "--n-thresholds", "7",
                 "--json", "fixed.json"]) == 0
    assert "thresholds per numeric column: 7\n" in capsys.readouterr().out
    assert json.loads((tmp_path / "fixed.json").read_text())["n_thresholds"] == 7
    # the list built class by class, from the rarest class, the most frequent the default
    assert main(["learn", "--sample", "wine", "--model", "rule-set", "--multiclass",
                 "sequential"]) == 0
    out = capsys.readouterr().out
    assert "Rules learned class by class from the rarest" in out
    assert "OTHERWISE cultivar = class_1" in out


def test_learn_rule_set_on_two_classes_says_which_class_it_describes(tmp_path, monkeypatch,
                                                                     capsys):
    from rulecore.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--sample", "breast cancer", "--model", "rule-set",
                 "--json", "out.json"]) == 0
    out = capsys.readouterr().out
    assert "Rule set by column generation" in out
    assert "chosen by cross-validation" in out
    result = json.loads((tmp_path / "out.json").read_text())
    assert result["metrics"]["test"]["accuracy"] > 0.85


@pytest.mark.parametrize("sample", ["machine failure", "iris"])
def test_a_rule_set_whose_inner_fits_ran_out_of_time_says_so(tmp_path, cut_inner_fit, sample):
    """Two classes and three: an inner fit that stopped at its time limit (made to say so
    here, as column_generation does on a loaded machine) is a warning with what avoids it;
    without one, nothing is said."""
    args = ("learn", "--sample", sample, "--model", "rule-set", "--n-thresholds", "6")
    res = run(*args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "time limit (or started from one" not in res.stdout
    cut_inner_fit(2)
    res = run(*args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    said = [line for line in res.stdout.splitlines() if "of the cross-validation an inner" in line]
    assert len(said) == 1 and said[0].startswith("warning: At ")
    assert said[0].endswith("A longer time limit avoids it.")


# --------------------------------------------------------------------------- stability


def test_stability_prints_score_error_spread_and_condition_table(csv_file, tmp_path):
    res = run("stability", str(csv_file), "--target", "failure", "--positive", "yes",
              "--n-thresholds", "6", "--folds", "3", "--backend", "sequential", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "3-fold cross-validation of a single rule" in out
    assert "stability score: " in out
    assert "held-out error: " in out and " ± " in out and "(min " in out
    assert "| condition | folds | frequency |" in out
    assert "torque_nm > " in out and "| fold | rule | predicts |" in out
    assert "| 100.0% |" in out  # the planted conditions come back in every fold
    # folds numbered 1..3 as the app's Stability tab numbers them (0..2 before: a review)
    assert "\n| 1 | " in out and "\n| 3 | " in out and "\n| 0 | " not in out
    assert "\r" not in res.stderr


def test_stability_json_matches_the_library(csv_file, tmp_path, monkeypatch, capsys):
    from rulecore.cli import main
    from rulecore.data import load_csv
    from rulecore.rules.stability import stability
    from rulecore.settings import RuleSettings

    monkeypatch.chdir(tmp_path)
    assert main(["stability", str(csv_file), "--target", "failure", "--positive", "yes",
                 "--n-thresholds", "6", "--folds", "3", "--bootstrap", "--seed", "2",
                 "--json", "--backend", "sequential"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["target"] == "failure" and payload["positive"] == "yes"
    assert payload["method"] == "3 bootstraps" and len(payload["folds"]) == 3
    assert {f["predicts"] for f in payload["folds"]} == {"yes"}
    ds = load_csv(csv_file, target="failure", positive="yes")
    est = RuleSettings(n_thresholds=6, kinds=ds.kinds, random_state=2).estimator()
    direct = stability(est, ds.X, ds.y_binary, n_splits=3, bootstrap=True, random_state=2,
                       backend="sequential")
    assert payload["score"] == pytest.approx(direct.score)
    assert payload["error"]["per_fold"] == pytest.approx(list(direct.errors))
    assert [c["condition"] for c in payload["conditions"]] == list(direct.conditions["condition"])
    assert payload["conditions"][0]["frequency"] == direct.conditions["frequency"].iloc[0]


@pytest.mark.parametrize("args, message", [
    (["--folds", "1"], "at least 2 folds"),
    (["--folds", "500"], "500-fold cross-validation needs at least 500 rows of each class"),
    (["--backend", "dask"], "scheduler"),
])
def test_stability_bad_input_exits_2(csv_file, tmp_path, monkeypatch, capsys, args, message):
    from rulecore.cli import main

    if "dask" in args:
        pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    assert main(["stability", str(csv_file), "--target", "failure", "--positive", "yes",
                 *args]) == 2
    err = capsys.readouterr()
    assert message in err.err and err.err.startswith("rulecore stability: error: ")
    assert err.out == ""


def test_compare_sparse_models_take_gamma_auto_or_a_number(tmp_path, monkeypatch, capsys):
    """``--gamma`` takes "auto" (the sparse models' default) or a positive number; anything
    else is refused with a message and exit status 2, never a traceback."""
    from rulecore.cli import main

    monkeypatch.chdir(tmp_path)
    for gamma in ("auto", "0.05"):
        assert main(["compare", "--sample", "breast cancer", "--models",
                     "sparse-svm,sparse-logistic", "-k", "2", "--gamma", gamma,
                     "--format", "csv", "--output", f"{gamma}.csv"]) == 0
        table = pd.read_csv(tmp_path / f"{gamma}.csv")
        assert list(table["model"]) == ["Sparse SVM", "Sparse logistic"]
        assert (table["status"] == "optimal").all() and (table["gap"] <= 1e-6).all()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["compare", "--sample", "iris", "--models", "sparse-svm", "--gamma", "big"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "give a positive number or 'auto', not 'big'" in err
    # the message and where to read more, not the whole usage above it
    assert "usage:" not in err and "See 'rulecore compare --help'." in err
    assert main(["compare", "--sample", "iris", "--models", "sparse-svm", "--gamma", "-1"]) == 2
    assert 'gamma must be a positive number or "auto", got -1.0' in capsys.readouterr().err


def test_compare_gamma_defaults_to_the_registrys_auto():
    from rulecore.cli import _compare_models, build_parser

    args = build_parser().parse_args(["compare", "--sample", "iris", "--models", "sparse-svm"])
    assert "gamma" not in _compare_models(args)["Sparse SVM"]  # the registry default applies
    args = build_parser().parse_args(["compare", "--sample", "iris", "--models", "sparse-svm",
                                      "--gamma", "AUTO"])
    assert _compare_models(args)["Sparse SVM"]["gamma"] == "auto"


def test_learn_with_constraints_costs_and_alternatives(tmp_path, monkeypatch, capsys):
    """--require/--forbid/--max-conditions/--fp-cost/--fn-cost reach the certified fit, and
    --alternatives K adds the near-optimal set to --json, the learned rule first."""
    from rulecore import BooleanRuleClassifier, load_sample
    from rulecore.cli import main
    from rulecore.fit import split_rows

    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--sample", "iris", "--require", "sepal width (cm)",
                 "--forbid", "petal length (cm)", "--max-conditions", "2", "--fp-cost", "2",
                 "--fn-cost", "0.5", "--alternatives", "3", "--json", "out.json"]) == 0
    out = capsys.readouterr().out
    assert "Certified optimal under your constraints (must use sepal width (cm); must not use " \
           "petal length (cm); at most 2 conditions)" in out
    assert "2 × false positives + 0.5 × the conditions each positive row fails" in out
    result = json.loads((tmp_path / "out.json").read_text())
    conds = result["rule_json"]["conditions"]
    feats = [c["feature"] for c in conds]
    assert "sepal width (cm)" in feats and "petal length (cm)" not in feats and len(conds) <= 2
    alts = result["alternatives"]
    assert len(alts) == 3 and alts[0]["conditions"] == conds
    objs = [a["objective"] for a in alts]
    assert objs == sorted(objs) and all(a["certified"] for a in alts)
    # the same objectives from the estimator, counted directly on the training rows
    ds = load_sample("iris")
    tr, _ = split_rows(ds, 0.25, 0)
    m = BooleanRuleClassifier(require=["sepal width (cm)"], forbid="petal length (cm)",
                              max_conditions=2, fp_cost=2, fn_cost=0.5, kinds=ds.kinds
                              ).fit(ds.X.iloc[tr], ds.y_binary[tr])
    for a in alts:
        rule = Rule.from_dict({**result["rule_json"], "conditions": a["conditions"]})
        assert m.rule_objective(rule, ds.X.iloc[tr], ds.y_binary[tr]) == \
            pytest.approx(a["objective"])


def test_learn_with_impossible_constraints_says_what_to_change(tmp_path):
    res = run("learn", "--sample", "iris", "--require", "sepal width (cm),petal width (cm)",
              "--max-conditions", "1", cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "needs at least 2 conditions" in res.stderr + res.stdout
    res = run("learn", "--sample", "iris", "--model", "set-covering", "--forbid",
              "petal width (cm)", cwd=tmp_path)  # not silently ignored
    assert res.returncode == 2 and "single rule only, not to set covering: forbid" in \
        res.stderr + res.stdout
    res = run("learn", "--sample", "iris", "--alternatives", "3", "--model", "boosting",
              cwd=tmp_path)
    assert res.returncode == 2 and "--model single" in res.stderr + res.stdout


def test_zero_missing_option(tmp_path):
    res = run("learn", str(CORPUS / "diabetes_zero_unmeasured.csv"), "--zero-missing",
              "Glucose,BMI", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "'Glucose': " in res.stdout and "cells of 0 are read as missing" in res.stdout
    assert "'BloodPressure': " in res.stdout and "--zero-missing 'BloodPressure'" in res.stdout


def test_learn_says_the_majority_baseline_and_whether_the_gain_is_luck(tmp_path):
    """The app shows "+1.2 pts vs majority (within luck)"; the command line printed only the
    accuracy and "Certified optimal" (a review: 97.2 % where always 'no' gives 96.0 %)."""
    rng = np.random.default_rng(1)
    n = 1000
    churned = rng.random(n) < 0.04
    offer = np.where(churned | (rng.random(n) < 0.015), "yes", "no")  # near the target
    pd.DataFrame({"offer_sent": offer, "tenure": rng.integers(1, 60, n),
                  "churned": np.where(churned, "yes", "no")}).to_csv(tmp_path / "c.csv",
                                                                     index=False)
    res = run("learn", "c.csv", "--json", "r.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    line = next(x for x in res.stdout.splitlines() if x.strip().startswith("always no:"))
    test = json.loads((tmp_path / "r.json").read_text())["metrics"]["test"]
    gain = round(100 * (test["accuracy"] - test["majority"]), 1)
    assert f"accuracy {100 * test['majority']:.1f}% on the test rows; the rule: {gain:+.1f} " \
        "pts, within luck" in line
    # "Certified optimal" beside it is said to be no success, as the app's blue box says it
    # (an analyst read it as good news beside a rule below the majority)
    lines = res.stdout.splitlines()
    claim = next(i for i, x in enumerate(lines) if x.startswith("Certified optimal"))
    assert lines[claim + 1].startswith("note: optimal for the objective above") and \
        "not a success" in lines[claim + 1]
    # and says why: it pointed at "the warnings below" where there were none (a stranger)
    findings = json.loads((tmp_path / "r.json").read_text())["findings"]
    warned = any(f["level"] == "warning" for f in findings)
    assert ("see the warnings below" in lines[claim + 1]) == warned


def test_a_rule_within_luck_says_so_where_no_warning_does(tmp_path):
    """Store numbers in a column named 'branch' (read as numbers): the rule was within luck of
    the majority, no warning, and the note pointed to "the warnings below" (a stranger's
    table).  It says why instead."""
    rng = np.random.default_rng(7)  # the stranger's generator
    n = 1500
    store = rng.choice([101, 102, 205, 317, 412, 508, 611], n)
    postal = rng.choice([10001, 10002, 60614, 94110, 30301, 73301, 98101], n)
    icd9 = rng.choice(["250.00", "428.0", "401.9", "414.01", "786.50", "250.02", "V58.67"], n)
    basket, items = np.round(rng.gamma(3, 15, n), 2), rng.poisson(6, n)
    p = np.where(np.isin(store, [101, 317]), 0.6, 0.08)
    pd.DataFrame({"branch": store, "postal": postal, "rx_icd9": icd9, "basket_usd": basket,
                  "items": items, "outcome": np.where(rng.random(n) < p, "returned", "kept")}
                 ).to_csv(tmp_path / "b.csv", index=False)
    res = run("learn", "b.csv", "--json", "r.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    result = json.loads((tmp_path / "r.json").read_text())
    assert result["status"]["level"] == "info"
    assert not any(f["level"] == "warning" for f in result["findings"])
    note = next(x for x in res.stdout.splitlines() if x.startswith("note: optimal for"))
    assert "see the warnings" not in note
    assert "the rule is not a success, since on the held-out rows it is not clearly more " \
        "accurate than always predicting the majority class (" in note
    assert json.loads((tmp_path / "r.json").read_text())["status"]["level"] == "info"



def test_a_rule_clearly_better_than_the_majority_is_not_called_luck(csv_file, tmp_path):
    res = run("learn", str(csv_file), "--target", "failure", "--positive", "yes", cwd=tmp_path)
    line = next(x for x in res.stdout.splitlines() if x.strip().startswith("always no:"))
    assert "pts" in line and "luck" not in line
    assert "not a success" not in res.stdout


def test_set_covering_with_the_lp_solver_runs_and_says_its_clauses_are_rounded(csv_file,
                                                                                tmp_path):
    """`--model set-covering --solver lp` ended in "A cutoff is for the unconstrained exact
    solver" at the second clause, and boosting's status line read "lp, optimal" beside a
    claim of certified clauses (a review)."""
    res = run("learn", str(csv_file), "--target", "failure", "--positive", "yes",
              "--model", "set-covering", "--solver", "lp", "--n-thresholds", "4", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "solver: lp, LP relaxation solved, rule rounded from it (not proved optimal)" in \
        res.stdout
    assert "rounded from the LP relaxation" in res.stdout
    assert "certified optimum" not in res.stdout


def test_a_rule_set_without_clauses_is_said_as_the_rule_page_says_it(tmp_path):
    """"Predict outcome = sick when any clause holds:" over an empty table read as a rule cut
    off (a review): the command line says what the Rule page says, and so do the text and
    Markdown of the set."""
    rng = np.random.default_rng(0)
    path = tmp_path / "nosignal.csv"
    pd.DataFrame({"x": rng.normal(size=200).round(2),
                  "outcome": np.where(rng.random(200) < 0.3, "sick", "well")}
                 ).to_csv(path, index=False)
    res = run("learn", str(path), "--target", "outcome", "--positive", "sick", "--model",
              "set-covering", "--lam", "0.01", "--export", "text", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "No clause: the rule set predicts outcome = well for every row." in res.stdout
    assert "when any clause holds:" not in res.stdout
    assert "Predict outcome = sick for no row: the rule set has no clause." in res.stdout


def test_learn_says_a_column_restating_the_target_is_one_not_a_leak_of_one_class(tmp_path):
    from tests.test_page_data import _relabelled_table

    path = tmp_path / "relabelled.csv"
    path.write_bytes(_relabelled_table())
    out = run("learn", str(path), cwd=tmp_path).stdout
    said = [ln for ln in out.splitlines() if "agent_note" in ln and "warning" in ln]
    assert said[0].startswith("warning: agent_note is outcome in other words") and \
        said[0].endswith("leave it out of the features (--exclude agent_note).")
    # the rule on it (agent_note == account frozen) is said to restate the answer
    assert said[1:] == ["warning: The rule uses agent_note, which is the target in other "
                        "words (each of its values goes with one class): it restates the "
                        "answer instead of predicting it. Leave it out (--exclude)."]
    assert "alone predicts" not in " ".join(said)


def test_compare_says_what_loading_decided_and_what_the_majority_scores(tmp_path):
    """compare printed a table of perfect scores from a column restating the target, with no
    target, positive class, leak or baseline (learn said all four: a stranger's review).  A
    CSV to the terminal stays a CSV, its words on stderr."""
    from tests.test_page_data import _relabelled_table

    path = tmp_path / "relabelled.csv"
    path.write_bytes(_relabelled_table())
    res = run("compare", str(path), "--models", "single,cart", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert out.startswith("relabelled.csv: 600 rows; predicting outcome = fraud")
    assert "warning: agent_note is outcome in other words" in out
    assert "\noutcome = fraud, 450 train / 150 test rows\n" in out
    assert re.search(r"\nnote: always predicting not fraud: accuracy 0\.9\d\d, balanced "
                     r"accuracy 0\.500 on the 150 test rows\n", out)
    assert "note: the target has 4 classes: every model here tells fraud from the other 3" in out
    res = run("compare", str(path), "--models", "single,cart", "--format", "csv", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert list(pd.read_csv(io.StringIO(res.stdout))["model"]) == ["Single rule",
                                                                   "CART (sklearn)"]
    assert "agent_note is outcome in other words" in res.stderr


def test_the_readmes_opening_checklist_is_what_the_cli_prints(tmp_path):
    """The README opens on `rulecore learn --sample iris`'s checklist: it showed a rule the
    defaults do not learn, with ✓ marks the command line does not print (a docs check)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("$ rulecore learn --sample iris\n", 1)[1].split("```", 1)[0]
    shown = [ln for ln in block.splitlines() if ln.strip() and ln != "..."]
    got = run("learn", "--sample", "iris", cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    printed = got.stdout.splitlines()
    assert [ln for ln in shown if ln not in printed] == []


def test_a_rule_list_says_what_loading_decided_and_warns_of_leaks(tmp_path, monkeypatch,
                                                                  capsys):
    """`learn --model rule-set` on a four-class target printed none of what loading decided:
    a column that alone gives one class away was warned of by `learn` and `compare` but not
    by the rule list (a stranger's review).  It says the same as they do, with no positive
    class."""
    from rulecore.cli import main

    rng = np.random.default_rng(3)
    n = 400
    severity = rng.choice(["normal", "minor", "major", "critical"], n)
    # (minutes of repair, 0 unless critical: a column given away by its zeros; a measurement
    # that sets one class apart is no leak of it, as iris' petals are not of setosa)
    pd.DataFrame({"load": rng.normal(size=n).round(3),
                  "repair_minutes": np.where(severity == "critical",
                                             rng.uniform(30, 90, n).round(1), 0.0),
                  "line_id": np.arange(n), "severity": severity}).to_csv(
                      tmp_path / "plant.csv", index=False)
    monkeypatch.chdir(tmp_path)
    assert main(["learn", "plant.csv", "--target", "severity", "--model", "rule-set"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first == "plant.csv: 400 rows; predicting severity (4 classes)"
    assert "left out: line_id" in out
    assert "warning: repair_minutes alone tells severity = critical from its other values" in \
        out
    assert "4 classes, all learned (no positive class)" in out


def test_the_checklist_lines_up_under_chinese_names(tmp_path, capsys):
    """The support column moved right by one place per Chinese character (each takes two
    terminal columns): the checklist pads to display width (a stranger's table)."""
    import unicodedata

    from rulecore.cli import main

    rng = np.random.default_rng(2)
    n = 200
    glucose = rng.normal(6, 1.5, n).round(2)
    frame = pd.DataFrame({"空腹血糖(mmol/L)": glucose, "age": rng.integers(20, 80, n),
                          "是否患糖尿病": np.where(glucose > 7, "是", "否")})
    path = tmp_path / "cn.csv"
    frame.to_csv(path, index=False)
    assert main(["learn", str(path), "--test-size", "0"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("  [ ] ")]
    assert lines and any("空腹" in x for x in lines)

    def width(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

    assert {width(x[: x.index(" support")]) for x in lines} == {6 + 48}


def test_a_constant_whole_number_is_written_as_a_whole_number():
    """"every value is 2022.0" (a World Bank export's year, read as a float)."""
    from rulecore.roles import detect_role

    assert detect_role(pd.Series([2022.0] * 5, name="Time"), 1, 5)[1] == "every value is 2022"
    assert detect_role(pd.Series([1.0, None, 1.0], name="f"), 1, 3)[1].startswith(
        "every value present is 1;")
    assert detect_role(pd.Series([0.25] * 4, name="r"), 1, 4)[1] == "every value is 0.25"


def test_a_rule_sets_clause_table_gives_shares_as_percentages(capsys):
    """Coverage 0.08902 and precision 1 beside "precision 78.2%" (a stranger's review)."""
    from rulecore.cli import main

    assert main(["learn", "--sample", "iris", "--positive", "setosa", "--model",
                 "set-covering", "--test-size", "0"]) == 0
    out = capsys.readouterr().out
    header = next(x for x in out.splitlines() if x.startswith("| clause"))
    assert "coverage" in header and "precision" in header
    row = out.splitlines()[out.splitlines().index(header) + 2]
    assert re.search(r"\| \d+\.\d% \| \d+\.\d% \|$", row), row


def test_compare_counts_records_held_out_whole_for_chance(tmp_path):
    """`rulecore compare` on a visit table held patients out whole but judged the models'
    closeness on visits as independent rows (a review): it names the records now."""
    path = Path(__file__).parent / "data" / "ehr_visits_repeated_ids.csv"
    res = run("compare", str(path), "--models", "cart,l1-logistic", "--format", "markdown",
              cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert re.search(r"note: on \d+ test rows of \d+ records held out whole two accuracies",
                     res.stdout), res.stdout


def test_left_out_columns_suggest_include_only_where_it_can_help(tmp_path):
    """'use --include COL to keep one' under a list of constants kept nothing: a one-month
    flight table's FL_DATE (year) and (month), whose date gives its weekday (a stranger's
    review)."""
    rng = np.random.default_rng(0)
    n = 400
    day = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 31, n), unit="D")
    pd.DataFrame({"FL_DATE": day.strftime("%Y-%m-%d"), "DISTANCE": rng.integers(100, 3000, n),
                  "DELAYED": ((day.day_of_week >= 5) & (rng.random(n) < 0.9)).astype(int)}
                 ).to_csv(tmp_path / "flights.csv", index=False)
    res = run("learn", str(tmp_path / "flights.csv"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    left = next(ln for ln in res.stdout.splitlines() if ln.startswith("left out:"))
    assert "FL_DATE (month)" in left and "--include" not in left
    assert "FL_DATE (weekday) > Fri" in res.stdout


def test_keep_codes_option_keeps_a_top_code_as_a_number(tmp_path):
    path = str(CORPUS / "census_income_topcoded.csv")
    res = run("learn", path, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "--keep-codes 'capital.gain'" in res.stdout
    res = run("learn", path, "--keep-codes", "capital.gain", "--rule-type", "or",
              "--json", "r.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "30 cells of 99999 kept as a number" in res.stdout
    res = run("apply", "r.json", path, "--keep-codes", "capital.gain", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "30 cells of 99999 kept as a number" in res.stdout
    res = run("learn", path, "--keep-codes", "capital gain", cwd=tmp_path)
    assert res.returncode != 0 and "no such column" in res.stderr + res.stdout


def test_a_guessed_target_is_a_warning_on_the_command_line(tmp_path):
    res = run("learn", str(CORPUS / "brfss_extract_coded.csv"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "warning: The target 'BPHIGH6' is a guess" in res.stdout
    assert "--target COLUMN" in res.stdout
    res = run("learn", str(CORPUS / "brfss_extract_coded.csv"), "--target", "BPHIGH6",
              cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "is a guess" not in res.stdout


def test_learn_says_what_the_rules_columns_mean_from_the_files_labels(tmp_path):
    res = run("learn", str(CORPUS / "health_survey_spss.sav"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    said = res.stdout.split("what the columns mean (the file's labels):\n")[1].split("\n\n")[0]
    assert "  stroke: Stroke within 5 years" in said
    assert "  respid:" not in said  # only the rule's columns and the target


def test_a_leak_warning_on_a_dates_part_says_the_flag_that_leaves_it_out(tmp_path):
    """'--exclude Termination Date (month)', as the warning said, was refused as "no such
    column", and unquoted it was three words to a shell (a stranger's HR workbook): the
    warning names the date column, quoted, and that flag runs."""
    import shlex

    rng = np.random.default_rng(2)
    left = rng.random(300) < 0.15
    pd.DataFrame({
        "Employee ID": np.arange(1000, 1300),
        "Annual Salary": rng.normal(60_000, 9_000, 300).round(),
        "Overtime": rng.choice(["Yes", "No"], 300),
        "Termination Date": [f"2023-{1 + k % 12:02d}-{1 + k % 27:02d} {8 + k % 9:02d}:30"
                             if x else "" for k, x in enumerate(left)],
        "Left Company": np.where(left, "Yes", "No")}).to_csv(tmp_path / "hr.csv", index=False)
    res = run("learn", str(tmp_path / "hr.csv"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    said = re.findall(r"\((--exclude .*?) if it is recorded", res.stdout)
    assert said and set(said) == {"--exclude 'Termination Date'"}, res.stdout
    # one warning for the date's parts, as the app gives (three lines for one date: a
    # stranger's HubSpot export)
    assert len(said) == 1 and "Termination Date (month) and Termination Date (hour) each " \
        "alone predicts Left Company = Yes with up to 100.0% accuracy" in res.stdout, \
        res.stdout
    res = run("learn", str(tmp_path / "hr.csv"), *shlex.split(said[0]), cwd=tmp_path)
    assert res.returncode == 0 and "Termination Date" not in res.stdout.split("Predict")[1]
    # a column of the table is named as it is (it was '--exclude None': a first version)
    res = run("learn", str(CORPUS / "complaints_leak.csv"), cwd=tmp_path)
    assert "(--exclude refund_issued if it is recorded" in res.stdout, res.stdout
