"""Write the corpus of real-world-shaped tables in this folder.

Run ``python tests/data/make_corpus.py``.

Each file is shaped like an export analysts really have: R's ``write.csv`` with row names,
pandas' ``to_csv`` with its index, database dumps with keys and timestamps, survey exports
with free text, spreadsheets saved with decimal commas and a BOM.  Every table has a planted
signal, so a sensible default gives a sensible rule, and traps (row numbers, identifiers,
free text, dates, a continuous last column, a mostly missing target, a leak) that a naive
default falls into.  ``tests/test_corpus.py`` states the decisions expected on each file.
Seeded: the same files on every run.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
SEED = 20261123

FIRST = ["Ana", "Ben", "Chloe", "Dev", "Emma", "Femi", "Gus", "Hana", "Ivan", "Jade", "Kofi",
         "Lena", "Milo", "Nora", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tess", "Umar", "Vera",
         "Wes", "Xena", "Yuki", "Zoe"]
LAST = ["Smith", "Okafor", "Garcia", "Nguyen", "Muller", "Rossi", "Kowalski", "Haddad", "Silva",
        "Tanaka", "Dubois", "Novak", "Jensen", "Ahmed", "Kim", "Brown", "Costa", "Moreau"]
WORDS = ("the app keeps crashing when I open my account page and support never answered my "
         "ticket about billing but the new plan is great value and delivery was fast overall "
         "very happy with the service would recommend to friends slow refund process").split()


def names(rng: np.random.Generator, n: int) -> list[str]:
    """Distinct person names (first, last, and a number where the pair repeats)."""
    out, seen = [], set()
    for _ in range(n):
        base = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        k, name = 1, base
        while name in seen:
            k += 1
            name = f"{base} {k}"
        seen.add(name)
        out.append(name)
    return out


def sentences(rng: np.random.Generator, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS, size=int(rng.integers(6, 18)))).capitalize() + "."
            for _ in range(n)]


def r_write_csv(df: pd.DataFrame, path: Path) -> None:
    """As R's ``write.csv(df, path)``: row names "1".."n" under a blank header, every text
    cell and header quoted, NA for missing values."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        w.writerow([""] + list(df.columns))
        for i, row in enumerate(df.itertuples(index=False), start=1):
            w.writerow([str(i)] + ["NA" if pd.isna(v) else v for v in row])


def credit_r() -> None:
    """Loan defaults saved from R with row names; the data frame was sorted by age."""
    rng = np.random.default_rng(SEED)
    n = 400
    age = rng.integers(19, 75, n)
    income = np.round(rng.lognormal(10.6, 0.45, n), -2)
    debt_ratio = np.round(rng.beta(2, 5, n), 3)
    region = rng.choice(["north", "south", "east", "west"], n)
    late = rng.poisson(0.8, n)
    risk = (debt_ratio > 0.35) & (late >= 2)
    default = np.where(risk ^ (rng.random(n) < 0.04), "yes", "no")
    df = pd.DataFrame({"age": age, "income": income, "debt_ratio": debt_ratio,
                       "region": region, "late_payments": late, "default": default})
    df = df.sort_values("age", kind="stable").reset_index(drop=True)
    df.loc[rng.random(n) < 0.03, "income"] = np.nan
    r_write_csv(df, HERE / "r_credit_rownames.csv")


def churn_db() -> None:
    """A customer table dumped from a database: keys, e-mail, timestamps, a 0/1 flag."""
    rng = np.random.default_rng(SEED + 1)
    n = 600
    customer_id = np.arange(100_001, 100_001 + n)
    email = [f"user{int(k)}@example.com" for k in rng.permutation(n) + 5000]
    signup = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 1800, n), unit="D")
    plan = rng.choice(["basic", "plus", "pro"], n, p=[0.5, 0.3, 0.2])
    spend = np.round(rng.gamma(3.0, 15.0, n), 2)
    tickets = rng.poisson(1.2, n)
    last_login_days = rng.integers(0, 120, n)
    churn = (last_login_days > 60) & (plan == "basic")
    churned = (churn ^ (rng.random(n) < 0.03)).astype(int)
    df = pd.DataFrame({"customer_id": customer_id, "email": email,
                       "signup_ts": signup.strftime("%Y-%m-%d %H:%M:%S"), "plan": plan,
                       "monthly_spend": spend, "support_tickets": tickets,
                       "days_since_login": last_login_days, "churned": churned})
    df.to_csv(HERE / "db_churn_ids_dates.csv", index=False)


def survey() -> None:
    """A survey export: respondent names, a free-text comment, a city with many values."""
    rng = np.random.default_rng(SEED + 2)
    n = 500
    cities = [f"City {k:03d}" for k in range(120)]
    age = rng.integers(18, 80, n)
    usage = rng.choice(["daily", "weekly", "monthly", "rarely"], n)
    satisfaction = rng.integers(1, 6, n)
    recommend = np.where(((satisfaction >= 4) & (usage != "rarely")) ^ (rng.random(n) < 0.05),
                         "yes", "no")
    df = pd.DataFrame({"respondent": names(rng, n), "city": rng.choice(cities, n), "age": age,
                       "usage": usage, "satisfaction": satisfaction,
                       "comment": sentences(rng, n), "would_recommend": recommend})
    df.to_csv(HERE / "survey_free_text.csv", index=False)


def fish_market() -> None:
    """Measurements with a species column and a continuous last column (weight in grams)."""
    rng = np.random.default_rng(SEED + 3)
    n = 300
    species = rng.choice(["bream", "perch", "pike"], n, p=[0.45, 0.35, 0.2])
    length = np.round(np.where(species == "pike", rng.normal(45, 6, n),
                               rng.normal(28, 5, n)), 1)
    height = np.round(np.where(species == "bream", length * 0.38, length * 0.2)
                      + rng.normal(0, 0.8, n), 2)
    width = np.round(length * 0.14 + rng.normal(0, 0.4, n), 2)
    weight = np.round(0.012 * length ** 3 * (1 + rng.normal(0, 0.08, n)), 1)
    df = pd.DataFrame({"species": species, "length_cm": length, "height_cm": height,
                       "width_cm": width, "weight_g": weight})
    df.to_csv(HERE / "fish_continuous_last.csv", index=False)


def hours_worked() -> None:
    """Only numeric columns; the last, weekly hours, is continuous: no column holds classes."""
    rng = np.random.default_rng(SEED + 4)
    n = 400
    age = rng.integers(18, 70, n)
    kids = rng.poisson(0.9, n)
    wage = np.round(rng.lognormal(3.0, 0.35, n), 2)
    commute = np.round(rng.gamma(2.0, 12.0, n), 1)
    hours = np.round(36 + 0.3 * (wage - 20) - 4 * kids + rng.normal(0, 3, n)
                     + 10 * (age < 30), 1)
    df = pd.DataFrame({"age": age, "children": kids, "hourly_wage": wage,
                       "commute_min": commute, "hours": hours})
    df.to_csv(HERE / "hours_continuous_only.csv", index=False)


def trial_missing_target() -> None:
    """A follow-up study: the outcome is known for under a third of the patients."""
    rng = np.random.default_rng(SEED + 5)
    n = 900
    dose = rng.choice([10, 20, 40], n)
    bmi = np.round(rng.normal(27, 4.5, n), 1)
    smoker = rng.choice(["yes", "no"], n, p=[0.25, 0.75])
    sbp = np.round(rng.normal(132, 15, n))
    improved = ((dose >= 20) & (smoker == "no")) ^ (rng.random(n) < 0.05)
    outcome = np.where(improved, "improved", "no change").astype(object)
    outcome[rng.random(n) < 0.7] = None
    df = pd.DataFrame({"patient": [f"P-{k:05d}" for k in rng.permutation(n)], "dose_mg": dose,
                       "bmi": bmi, "smoker": smoker, "systolic_bp": sbp, "outcome": outcome})
    df.to_csv(HERE / "trial_mostly_missing_target.csv", index=False, na_rep="")


def sorted_by_label() -> None:
    """pandas' ``to_csv`` with its index, after sorting by the label: the row number alone
    separates the classes."""
    rng = np.random.default_rng(SEED + 6)
    n = 500
    temp = np.round(rng.normal(70, 8, n), 1)
    vibration = np.round(rng.gamma(2, 1.5, n), 2)
    line = rng.choice(["A", "B", "C"], n)
    faulty = (temp > 78) & (vibration > 3) ^ (rng.random(n) < 0.03)
    df = pd.DataFrame({"temperature": temp, "vibration": vibration, "line": line,
                       "status": np.where(faulty, "faulty", "ok")})
    df = df.sort_values("status", kind="stable").reset_index(drop=True)
    df.to_csv(HERE / "pandas_index_sorted_by_label.csv")


def complaints_leak() -> None:
    """Complaints with a column recorded after the decision (refund issued): a leak."""
    rng = np.random.default_rng(SEED + 7)
    n = 700
    channel = rng.choice(["phone", "email", "chat"], n)
    amount = np.round(rng.gamma(2.0, 60.0, n), 2)
    prior = rng.poisson(0.7, n)
    upheld = ((amount > 150) | (prior >= 2)) ^ (rng.random(n) < 0.06)
    refund = upheld.copy()
    flip = rng.choice(n, 3, replace=False)            # 3 of 700 disagree: 99.6 % agreement
    refund[flip] = ~refund[flip]
    df = pd.DataFrame({"ticket_ref": [f"T{k:06d}" for k in rng.permutation(n) + 1000],
                       "channel": channel, "amount_eur": amount, "prior_complaints": prior,
                       "refund_issued": np.where(refund, "yes", "no"),
                       "upheld": np.where(upheld, "yes", "no")})
    df.to_csv(HERE / "complaints_leak.csv", index=False)


def european_spreadsheet() -> None:
    """Saved by a European spreadsheet: ';' separated, decimal commas, a BOM, dd.mm.yyyy
    dates, a constant currency column and an empty notes column."""
    rng = np.random.default_rng(SEED + 8)
    n = 350
    price = rng.gamma(3.0, 40.0, n)
    discount = rng.choice([0, 5, 10, 20], n)
    store = rng.choice(["Berlin", "Lyon", "Milano", "Porto"], n)
    day = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 365, n), unit="D")
    returned = ((price > 150) & (discount >= 10)) ^ (rng.random(n) < 0.04)
    rows = ["Datum;Filiale;Preis;Rabatt;Währung;Notiz;Retoure"]
    for k in range(n):
        rows.append(";".join([day[k].strftime("%d.%m.%Y"), store[k],
                              f"{price[k]:.2f}".replace(".", ","), str(discount[k]), "EUR", "",
                              "ja" if returned[k] else "nein"]))
    (HERE / "european_decimal_comma_bom.csv").write_bytes(
        ("\ufeff" + "\r\n".join(rows) + "\r\n").encode("utf-8"))


def hand_typed_spreadsheet() -> None:
    """A spreadsheet kept by hand and saved as CSV: currency, percent and thousands
    formatting, a yes/no target typed as ``Yes``, ``YES``, `` yes `` and ``no``, ``No``,
    ``NO``, a region typed in two cases, a formula column with ``#DIV/0!`` and ``#VALUE!``
    cells, a name column, "Total" and "Average" rows under the table (the total counts the
    defaults: a number in the yes/no column), two empty rows and an empty unnamed column at
    the end."""
    rng = np.random.default_rng(SEED + 10)
    n = 600
    income = rng.gamma(2.0, 20000.0, n)
    util = rng.uniform(0.0, 1.0, n)
    balance = rng.gamma(2.0, 3000.0, n)
    region = rng.choice(["North", "South", "East", "West"], n)
    region = np.where(rng.random(n) < 0.3, np.char.upper(region.astype(str)), region)
    default = ((util > 0.6) & (income < 40000)) ^ (rng.random(n) < 0.04)
    yes = rng.choice(["Yes", "YES", " yes"], n, p=[0.6, 0.25, 0.15])
    no = rng.choice(["No", "no", "NO"], n, p=[0.5, 0.3, 0.2])
    pct = np.round(util * 100)
    per_point = [("#DIV/0!" if p == 0 or r < 0.02 else "#VALUE!" if r < 0.03
                  else f"{b / p:.1f}") for p, b, r in zip(pct, balance, rng.random(n))]
    rows = ["Client,Income,Utilisation,Balance,Balance per point,Region,Defaulted,"]
    who = names(rng, n)
    for k in range(n):
        rows.append(",".join([who[k], f'"${income[k]:,.2f}"', f"{pct[k]:.0f}%",
                              f'"{balance[k]:,.0f}"', per_point[k], region[k],
                              yes[k] if default[k] else no[k], ""]))
    # the sheet's own summary rows under the table, then the empty rows Excel leaves
    rows.append(f'Total,"${income.sum():,.2f}",,"{balance.sum():,.0f}",,,{int(default.sum())},')
    rows.append(f'Average,"${income.mean():,.2f}",{util.mean() * 100:.0f}%,'
                f'"{balance.mean():,.0f}",,,,')
    rows += [",,,,,,,", ",,,,,,,"]
    (HERE / "spreadsheet_hand_typed.csv").write_text("\r\n".join(rows) + "\r\n",
                                                     encoding="utf-8")


def r_write_table() -> None:
    """R's ``write.table(df, sep="\\t", quote=FALSE)``: tab separated, row names in the first
    column, and a header one field short (R does not name the row-name column)."""
    rng = np.random.default_rng(SEED + 11)
    n = 300
    dose = rng.choice([5, 10, 20, 40], n)
    weight = rng.normal(75.0, 12.0, n)
    arm = rng.choice(["placebo", "drug"], n)
    response = ((arm == "drug") & (dose >= 20)) ^ (rng.random(n) < 0.05)
    rows = ["\t".join(["arm", "dose", "weight", "response"])]
    for k in range(n):
        rows.append("\t".join([f"P{k + 1:03d}", arm[k], str(dose[k]), f"{weight[k]:.1f}",
                               "TRUE" if response[k] else "FALSE"]))
    (HERE / "r_write_table.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")


def r_write_table_spaces() -> None:
    """R's ``write.table(df, "f.txt")`` with its defaults: space separated, every text cell
    and name quoted (a city with a space in it), row names "1".."n" under a header one field
    short, NA for missing values."""
    rng = np.random.default_rng(SEED + 23)
    n = 300
    city = rng.choice(["New York", "Los Angeles", "Chicago", "Houston"], n)
    visits = rng.poisson(4.0, n)
    spend = np.round(rng.gamma(4.0, 30.0, n), 2)
    member = ((visits >= 5) & (city != "Houston")) ^ (rng.random(n) < 0.05)
    spend_shown = [("NA" if rng.random() < 0.03 else f"{s:g}") for s in spend]
    rows = [" ".join(f'"{c}"' for c in ("city", "visits", "spend", "member"))]
    for k in range(n):
        rows.append(" ".join([f'"{k + 1}"', f'"{city[k]}"', str(visits[k]), spend_shown[k],
                              f'"{"yes" if member[k] else "no"}"']))
    (HERE / "r_write_table_spaces.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")


def erp_export() -> None:
    """An ERP's CSV export opened and saved by Excel on Windows: two report lines above the
    header, Windows-1252 (not UTF-8) text with accented city names."""
    rng = np.random.default_rng(SEED + 12)
    n = 400
    city = rng.choice(["Zürich", "Genève", "Málaga", "Köln", "Lyon"], n)
    load = rng.uniform(0.0, 1.0, n)
    cancelled = ((load > 0.5) & np.isin(city, ["Zürich", "Köln"])) ^ (rng.random(n) < 0.04)
    rows = ["Auftragsbericht Q3 – exportiert am 05.10.2026", "Mandant: 0815", "",
            "Stadt,Auslastung,Kündigung"]
    for k in range(n):
        rows.append(",".join([city[k], f"{load[k]:.2f}", "ja" if cancelled[k] else "nein"]))
    (HERE / "erp_export_title_lines_cp1252.csv").write_bytes(
        ("\r\n".join(rows) + "\r\n").encode("cp1252"))


def lab_values() -> None:
    """A laboratory export: measured values with codes where there is no number (``<0.5``
    below the detection limit, ``hemolysed``, ``n.a.``), a patient number, and the
    diagnosis to predict."""
    rng = np.random.default_rng(SEED + 13)
    n = 500
    age = rng.integers(18, 90, n)
    creatinine = np.round(rng.gamma(6.0, 0.22, n), 2)
    glucose = np.round(rng.normal(100.0, 15.0, n))
    ckd = ((creatinine > 1.5) & (age > 50)) ^ (rng.random(n) < 0.04)
    shown = creatinine.astype(object)
    shown[creatinine < 0.5] = "<0.5"
    coded = rng.random(n)
    shown[coded < 0.02] = "hemolysed"
    shown[(coded >= 0.02) & (coded < 0.035)] = "n.a."
    df = pd.DataFrame({"patient": rng.choice(np.arange(100_000, 999_999), n, replace=False),
                       "age": age, "creatinine": shown, "glucose": glucose,
                       "diagnosis": np.where(ckd, "CKD", "none")})
    df.to_csv(HERE / "lab_values_with_codes.csv", index=False)


def stats_package_codes() -> None:
    """A survey exported from SPSS or Stata: missing values written as codes (-999 for no
    income given, 999 for an age not asked, 9 for "don't know" on a 1-5 scale, -9 for an
    unknown outcome), a respondent number, and a planted rule on income and satisfaction."""
    rng = np.random.default_rng(SEED + 17)
    n = 600
    income = np.round(rng.lognormal(10.4, 0.45, n), -2)
    satisfaction = rng.integers(1, 6, n)
    age = rng.integers(18, 80, n)
    renewed = ((income > 30_000) & (satisfaction >= 3)) ^ (rng.random(n) < 0.05)
    u = rng.random(n)
    shown_income = np.where(u < 0.12, -999, income)
    shown_age = np.where(rng.random(n) < 0.05, 999, age)
    shown_sat = np.where(rng.random(n) < 0.06, 9, satisfaction)
    shown_renewed = np.where(rng.random(n) < 0.04, -9, renewed.astype(int))
    df = pd.DataFrame({"resp_id": np.arange(10_001, 10_001 + n), "age": shown_age,
                       "income": shown_income, "satisfaction": shown_sat,
                       "renewed": shown_renewed})
    df.to_csv(HERE / "stats_package_missing_codes.csv", index=False)


def clinic_units() -> None:
    """A clinic's sheet typed by hand: values with their units ("72 kg", "38.4 °C",
    "3 days", a few typed without), patient names, and whether the patient was admitted."""
    rng = np.random.default_rng(SEED + 19)
    n = 400
    weight = np.round(rng.normal(78, 14, n), 1)
    temp = np.round(rng.normal(37.6, 0.7, n), 1)
    days = rng.integers(0, 8, n)
    admitted = ((temp > 38.0) & (days > 2)) ^ (rng.random(n) < 0.04)
    bare = rng.random(n) < 0.1  # typed without the unit
    df = pd.DataFrame({
        "patient": names(rng, n),
        "weight": [f"{w:g}" if b else f"{w:g} kg" for w, b in zip(weight, bare)],
        "temperature": [f"{x:.1f} °C" for x in temp],
        "symptoms_for": [f"{d} days" for d in days],
        "admitted": np.where(admitted, "yes", "no")})
    df.to_csv(HERE / "clinic_values_with_units.csv", index=False)


def grouped_header() -> None:
    """A spreadsheet whose columns are grouped under titles in a row above their names
    ("Customer", "Usage", "Billing" over merged cells, saved as CSV with the merged cells
    empty), then the names, then the records."""
    rng = np.random.default_rng(SEED + 29)
    n = 350
    tenure = rng.integers(1, 72, n)
    plan = rng.choice(["basic", "plus", "pro"], n)
    logins = rng.poisson(12.0, n)
    tickets = rng.poisson(1.2, n)
    bill = np.round(rng.normal(45.0, 12.0, n), 2)
    churned = ((logins < 9) & (tenure < 24)) ^ (rng.random(n) < 0.05)
    rows = [["Customer", "", "Usage", "", "Billing", ""],
            ["tenure_months", "plan", "logins_30d", "support_tickets", "monthly_bill",
             "churned"]]
    rows += [[tenure[k], plan[k], logins[k], tickets[k], f"{bill[k]:.2f}",
              "yes" if churned[k] else "no"] for k in range(n)]
    with (HERE / "grouped_header_spreadsheet.csv").open("w", newline="",
                                                         encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def prose() -> None:
    """Not a table: a paragraph of text someone uploads by mistake."""
    text = ("Meeting notes, 3 March. We discussed the churn numbers for the last quarter and "
            "agreed that the retention team should look at accounts with low usage first.\n"
            "Action items: Ana will pull the usage report, Ben will draft the e-mail "
            "campaign, and we will meet again next week to review progress.\n"
            "Open questions remain about the pricing change, the support backlog, and how "
            "we measure success for the new onboarding flow.\n")
    (HERE / "prose_notes.txt").write_text(text, encoding="utf-8")


def clinic_visits() -> None:
    """An electronic health record's visit table: one row per visit, so a patient's id comes
    back on several rows (about 2.5 visits each).  Patients were registered oldest first when
    the clinic moved to the system, so ``patient_id`` follows age: a rule may read it as
    age.  Planted: readmitted when HbA1c > 7.5 and age > 60."""
    rng = np.random.default_rng(SEED + 23)
    n_patients = 280
    age_p = np.sort(rng.integers(25, 90, n_patients))[::-1]
    pid = 40_000 + 3 * np.arange(n_patients) + rng.integers(0, 3, n_patients)
    visits = rng.integers(1, 5, n_patients)
    who = np.repeat(np.arange(n_patients), visits)
    n = len(who)
    visit_no = np.concatenate([np.arange(1, k + 1) for k in visits])
    hba1c = np.round(rng.normal(6.8, 1.1, n), 1)
    sbp = np.round(rng.normal(132.0, 16.0, n))
    ward = rng.choice(["cardio", "endo", "general"], n, p=[0.3, 0.3, 0.4])
    age = age_p[who]
    readmit = ((hba1c > 7.5) & (age > 60)) ^ (rng.random(n) < 0.04)
    df = pd.DataFrame({"patient_id": pid[who], "visit_no": visit_no, "age": age,
                       "hba1c": hba1c, "systolic_bp": sbp, "ward": ward,
                       "readmitted_30d": np.where(readmit, "yes", "no")})
    df.to_csv(HERE / "ehr_visits_repeated_ids.csv", index=False)


def satisfaction_survey() -> None:
    """A customer survey whose outcome is a 1–5 rating, not in the last column, named by its
    question; the last column holds canned comments (8 choices, a fifth left blank), which
    were taken for the class column.  Planted: dissatisfied (rating <= 2) when there were
    more than 4 support calls and the wait was over 15 minutes."""
    rng = np.random.default_rng(SEED + 29)
    n = 850
    calls = rng.poisson(2.5, n)
    wait = np.round(rng.gamma(3.0, 5.0, n))
    plan = rng.choice(["Basic", "Plus", "Pro"], n, p=[0.5, 0.3, 0.2])
    unhappy = (calls > 4) & (wait > 15)
    rating = np.where(unhappy, rng.choice([1, 2], n, p=[0.4, 0.6]),
                      rng.choice([3, 4, 5], n, p=[0.25, 0.45, 0.3]))
    flip = rng.random(n) < 0.05
    rating[flip] = rng.integers(1, 6, flip.sum())
    comments = rng.choice(["Love the new plan", "App crashes sometimes", "no comment",
                           "Too slow to answer", "Waited forever on the phone",
                           "Great service", "Fine", "Billing was confusing"], n).astype(object)
    comments[rng.random(n) < 0.2] = None
    df = pd.DataFrame({"respondent_id": 5001 + np.arange(n), "age": rng.integers(18, 80, n),
                       "plan": plan, "tenure_years": np.round(rng.gamma(2.0, 1.5, n), 1),
                       "support_calls_last_6m": calls, "avg_wait_minutes": wait,
                       "How satisfied are you overall? (1-5)": rating, "comments": comments})
    df.to_csv(HERE / "survey_rating_comments.csv", index=False)


def diabetes_screening() -> None:
    """A screening table as the Pima diabetes data has it: a measurement not taken is written
    0 (a glucose of 0, a blood pressure of 0, a BMI of 0 in a few rows), beside counts whose 0
    is real (pregnancies).  Planted: diabetic when glucose > 140 and BMI > 30."""
    rng = np.random.default_rng(SEED + 31)
    n = 700
    glucose = np.round(rng.normal(120, 30, n).clip(45, 199))
    bmi = np.round(rng.normal(32, 6.5, n).clip(18, 60), 1)
    bp = np.round(rng.normal(72, 11, n).clip(30, 120))
    pregnancies = rng.poisson(3, n)
    age = rng.integers(21, 80, n)
    sick = ((glucose > 140) & (bmi > 30)) ^ (rng.random(n) < 0.05)
    for col, share in ((glucose, 0.01), (bp, 0.04), (bmi, 0.015)):
        col[rng.random(n) < share] = 0
    df = pd.DataFrame({"Pregnancies": pregnancies, "Glucose": glucose, "BloodPressure": bp,
                       "BMI": bmi, "Age": age, "Outcome": sick.astype(int)})
    df.to_csv(HERE / "diabetes_zero_unmeasured.csv", index=False)


def crm_workbook() -> None:
    """A sales team's Excel workbook: a read-me sheet first, the deals on the second sheet
    under a report title and an export stamp, a blank row, then the header; typed cells
    (dates, amounts, a discount share, TRUE/FALSE), a deal ID, a mostly empty notes column,
    a Total row with a formula under the table, and a code list on a third sheet.  Planted:
    won when the amount is under 40,000 and the discount over 10 %."""
    import datetime as dt
    import zipfile

    import openpyxl

    rng = np.random.default_rng(SEED + 37)
    n = 480
    wb = openpyxl.Workbook()
    wb.properties.creator = "sales ops"
    wb.properties.created = wb.properties.modified = dt.datetime(2026, 11, 24)
    readme = wb.active
    readme.title = "Read me"
    readme["A1"] = "Pipeline export for the Q3 review. Amounts in USD, discount as a share."
    readme["A2"] = "Questions: sales-ops@example.com"
    deals = wb.create_sheet("Deals")
    deals["A1"] = "Q3 pipeline export"
    deals["A2"] = "Exported 2024-10-01 08:00 by CRM"
    deals.append([])
    deals.append(["Deal ID", "Created", "Amount", "Discount", "Region", "Strategic", "Owner",
                  "Won", "Notes"])
    owners = ["Ana", "Ben", "Chloe", "Dev", "Emma"]
    for i in range(n):
        amount = float(rng.integers(2, 180) * 500)
        discount = round(float(rng.uniform(0, 0.35)), 3)
        won = (amount < 40000) & (discount > 0.1)
        won ^= rng.random() < 0.05
        deals.append([f"D-{24001 + i}",
                      dt.datetime(2024, 1, 2) + dt.timedelta(days=int(rng.integers(0, 270))),
                      amount, discount, str(rng.choice(["EMEA", "Americas", "APAC"])),
                      bool(rng.random() < 0.25), str(rng.choice(owners)),
                      "Won" if won else "Lost",
                      "call back in Q4" if rng.random() < 0.08 else None])
    deals.append(["Total", None, f"=SUM(C5:C{4 + n})"])
    codes = wb.create_sheet("Regions")
    codes.append(["code", "meaning"])
    for code, meaning in (("EMEA", "Europe, Middle East, Africa"), ("Americas", "North and "
                          "South America"), ("APAC", "Asia-Pacific")):
        codes.append([code, meaning])
    buf = io.BytesIO()
    wb.save(buf)
    # the same bytes on every run: the archive's entries, and the "modified" stamp openpyxl
    # writes on saving, carry a fixed time
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 11, 24, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            content = zin.read(info.filename)
            if info.filename == "docProps/core.xml":
                content = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2026-11-24T00:00:00Z",
                                 content)
            zout.writestr(fixed, content)
    (HERE / "crm_pipeline_workbook.xlsx").write_bytes(out.getvalue())


def postgres_export() -> None:
    """PostgreSQL's COPY ... CSV HEADER: a uuid key, booleans as t/f, missing values as \\N
    (and NULL from another tool), timestamps with a time zone.  Planted: churned when the
    tenure is at most 12 months and the monthly charges over 65."""
    import uuid

    rng = np.random.default_rng(SEED + 41)
    n = 900
    tenure = rng.integers(1, 72, n)
    charges = np.round(rng.uniform(20, 120, n), 2)
    churned = ((tenure <= 12) & (charges > 65)) ^ (rng.random(n) < 0.04)
    tickets = rng.integers(0, 8, n).astype(object)
    tickets[rng.random(n) < 0.15] = "\\N"
    plan = rng.choice(["basic", "plus", "pro"], n).astype(object)
    plan[rng.random(n) < 0.03] = "NULL"
    created = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 900 * 86400, n),
                                                           unit="s")
    df = pd.DataFrame({"id": [str(uuid.UUID(int=int(rng.integers(0, 2**62)) << 64 | i))
                              for i in range(n)],
                       "created_at": [t.strftime("%Y-%m-%d %H:%M:%S+00") for t in created],
                       "tenure_months": tenure, "monthly_charges": charges,
                       "support_tickets": tickets, "plan": plan,
                       "paperless": np.where(rng.random(n) < 0.5, "t", "f"),
                       "is_churned": np.where(churned, "t", "f")})
    df.to_csv(HERE / "postgres_copy_export.csv", index=False)


def sap_receivables() -> None:
    """An accounts-receivable export: invoice numbers, amounts with thousands separators and
    negatives in parentheses, Yes/No with a trailing space, and after three blank lines the
    system's footer.  Planted: overdue when more than 60 days old and over 5,000 open."""
    rng = np.random.default_rng(SEED + 43)
    n = 700
    amount = np.round(rng.uniform(200, 40000, n), 2)
    outstanding = np.round(amount * rng.uniform(-0.05, 1, n), 2)
    days = rng.integers(1, 120, n)
    overdue = ((days > 60) & (outstanding > 5000)) ^ (rng.random(n) < 0.04)

    def money(v: float) -> str:
        return f"({-v:,.2f})" if v < 0 else f"{v:,.2f}"

    lines = ["document_no,region,invoice_amount,outstanding,days_since_invoice,overdue"]
    for i in range(n):
        lines.append(f'{194000000 + i},{rng.choice(["North", "South", "East", "West"])},'
                     f'"{money(amount[i])}","{money(outstanding[i])}",{days[i]},'
                     f'{"Yes " if overdue[i] else "No "}')
    text = "\n".join(lines) + "\n\n\n\nGenerated by SAP on 01.03.2024 10:15:22 by user JSMITH\n"
    (HERE / "sap_receivables_footer.csv").write_text(text, encoding="utf-8")


def renewals_typed_yn() -> None:
    """A renewal column typed by hand, Yes/yes/Y/YES and No/no/N, beside a web/store channel
    that has nothing to do with it.  Planted: renewed when more than 5 visits and the last
    one at most 30 days ago."""
    rng = np.random.default_rng(SEED + 47)
    n = 800
    visits = rng.integers(0, 12, n)
    days = rng.integers(1, 120, n)
    renewed = ((visits > 5) & (days <= 30)) ^ (rng.random(n) < 0.04)
    yes = rng.choice(["Yes", "yes", "Y", "YES"], n, p=[0.6, 0.2, 0.15, 0.05])
    no = rng.choice(["No", "no", "N"], n, p=[0.6, 0.25, 0.15])
    pd.DataFrame({"visits": visits, "days_since_last": days,
                  "channel": rng.choice(["web", "store"], n),
                  "renewed": np.where(renewed, yes, no)}).to_csv(
        HERE / "renewals_typed_yn.csv", index=False)


def experience_approx() -> None:
    """Years of experience typed by hand: mostly whole numbers, then n/a, unknown,
    'approx 18' and '15+' (15 % of the cells, 40-odd spellings).  Planted: group 2 when more
    than 10 years and a test score of at most 50."""
    rng = np.random.default_rng(SEED + 53)
    n = 800
    years = rng.integers(0, 30, n)
    score = rng.integers(0, 100, n)
    group = np.where(((years > 10) & (score <= 50)) ^ (rng.random(n) < 0.04), 2, 1)
    typed = years.astype(str).astype(object)
    r = rng.random(n)
    typed[r < 0.05] = "n/a"
    typed[(r >= 0.05) & (r < 0.07)] = "unknown"
    approx = (r >= 0.07) & (r < 0.12)
    typed[approx] = [f"approx {v}" for v in years[approx]]
    plus = (r >= 0.12) & (r < 0.15)
    typed[plus] = [f"{v}+" for v in years[plus]]
    pd.DataFrame({"employee": [f"E{1000 + i}" for i in range(n)], "years_experience": typed,
                  "test_score": score, "department": rng.choice(["HR", "Sales", "IT"], n),
                  "group": group}).to_csv(HERE / "experience_typed_approx.csv", index=False)


def google_forms() -> None:
    """A Google Forms export: the timestamp first, written with its time zone
    (``2024/04/08 4:06:00 AM GMT+1``), the e-mail address, each column headed by its whole
    question, and a "tick all that apply" question whose cells join the options ticked with
    ";".  Planted: would recommend when satisfied (4 or 5) and a user of the live chat."""
    rng = np.random.default_rng(SEED + 61)
    n = 400
    options = ["API", "Live chat", "Email support", "Mobile app", "Reports"]
    when = pd.Timestamp("2024-03-01") + pd.to_timedelta(rng.integers(0, 40 * 86400, n), "s")
    stamp = [f"{t:%Y/%m/%d} {t.hour % 12 or 12}:{t:%M:%S} {t:%p} GMT+1" for t in when]
    ticked = [";".join(sorted(rng.choice(options, rng.integers(1, 4), replace=False),
                              key=options.index)) for _ in range(n)]
    chat = np.array(["Live chat" in t for t in ticked])
    sat = rng.integers(1, 6, n)
    yes = ((sat >= 4) & chat) ^ (rng.random(n) < 0.03)
    pd.DataFrame({
        "Timestamp": stamp,
        "Email Address": [f"user{i}@example.com" for i in range(n)],
        "How satisfied are you with our product overall? (1 = very unhappy, 5 = very happy)":
            sat,
        "Which of these features have you used in the last 30 days? (tick all that apply)":
            ticked,
        "How many people in your team use the product?": rng.choice(
            ["1", "2-5", "6-20", "more than 20"], n),
        "Would you recommend us to a colleague?": np.where(yes, "Yes", "No"),
    }).to_csv(HERE / "google_forms_export.csv", index=False)


def hr_attrition_sqlserver() -> None:
    """An HR export from a SQL Server query: CamelCase names, an EmployeeNumber, literal
    NULLs, constant columns, and a TerminationDate that is empty exactly for current staff
    (a leak through a date's year; a newcomer's review)."""
    rng = np.random.default_rng(27)
    n = 400
    age = rng.integers(19, 60, n)
    overtime = rng.random(n) < 0.3
    income = np.round(rng.lognormal(8.4, 0.4, n)).astype(int)
    left = (overtime & (income < 5000)) ^ (rng.random(n) < 0.05)
    hired = pd.Timestamp("2008-01-01") + pd.to_timedelta(rng.integers(0, 5000, n), "D")
    ended = hired + pd.to_timedelta(rng.integers(100, 2000, n), "D")
    pd.DataFrame({
        "EmployeeNumber": rng.choice(np.arange(1001, 9999), n, replace=False),
        "Age": age,
        "Attrition": np.where(left, "Yes", "No"),
        "Department": rng.choice(["Sales", "R&D", "HR"], n, p=[0.3, 0.6, 0.1]),
        "EmployeeCount": 1,
        "HireDate": hired.strftime("%Y-%m-%d"),
        "MonthlyIncome": income,
        "OverTime": np.where(overtime, "Yes", "No"),
        "StandardHours": 80,
        "TerminationDate": np.where(left, ended.strftime("%Y-%m-%d"), "NULL"),
    }).to_csv(HERE / "hr_attrition_sqlserver.csv", index=False)


def safety_checklist() -> None:
    """A site-safety checklist kept in a spreadsheet: a box ticked with "x" or left empty,
    another ticked ✓ or crossed ✗.  Planted: an incident follows when the lockout tag's box
    is empty and compliance is below 0.7 (3 % noise).  The empty box was read as missing, so
    the column was left out as constant (a newcomer's review)."""
    rng = np.random.default_rng(3)
    n = 600
    lock = rng.choice(["x", ""], n, p=[0.6, 0.4])
    comp = rng.uniform(0.4, 1.0, n).round(2)
    y = (lock == "") & (comp < 0.7)
    y = np.where(rng.random(n) < 0.03, ~y, y)
    pd.DataFrame({"site": rng.choice(["Plant North", "Plant South", "Depot 3"], n),
                  "Lockout tag present": lock, "compliance_rate": comp,
                  "Guard fitted": rng.choice(["✓", "✗"], n),
                  "Incident in next 30 days": np.where(y, "yes", "no"),
                  }).to_csv(HERE / "safety_checklist_ticks.csv", index=False)


def surgery_r_na() -> None:
    """Surgical outcomes saved from R: ``prior_complication`` is NA for "none recorded" (70 %
    of patients), as R data frames keep a factor.  Planted: readmission within 30 days when
    a complication is on record and the operation ran over 150 minutes (3 % noise).  Every
    comparison fails on NA, so before the missing tests no AND-rule could say "has a
    complication on record" (a left-alone item of the reviews)."""
    rng = np.random.default_rng(11)
    n = 500
    comp = rng.choice(np.array(["bleeding", "infection", "DVT", None], dtype=object), n,
                      p=[0.1, 0.12, 0.08, 0.7])
    minutes = rng.integers(40, 300, n).astype(float)
    y = (comp != None) & (minutes > 150)  # noqa: E711 - elementwise on an object array
    y = np.where(rng.random(n) < 0.03, ~y, y)
    df = pd.DataFrame({"age": rng.integers(25, 90, n), "bmi": rng.normal(27, 4, n).round(1),
                       "asa_class": rng.integers(1, 5, n), "prior_complication": comp,
                       "op_minutes": minutes, "smoker": rng.choice(["Yes", "No"], n),
                       "readmitted_30d": np.where(y, "Yes", "No")})
    df.loc[rng.random(n) < 0.02, "bmi"] = np.nan
    r_write_csv(df, HERE / "surgery_r_na_none.csv")


def engagement_survey() -> None:
    """An employee engagement survey exported from a survey tool: questions as headers,
    answers as words on a five-point scale, "Don't know" here and there, a department, and
    whether the person left within a year (HR's join).  Planted: left when the workload is
    not manageable (Disagree or below) and the manager's support is at most Neutral (3 %
    noise).  Read unordered, the default rule took five conditions for these two ("!= Agree",
    "!= Neutral", "!= Strongly agree", ...)."""
    rng = np.random.default_rng(20)
    n = 700
    scale = ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"]
    work = rng.choice(5, n, p=[0.12, 0.2, 0.25, 0.28, 0.15])
    boss = rng.choice(5, n, p=[0.1, 0.18, 0.24, 0.3, 0.18])
    y = (work <= 1) & (boss <= 2)
    y = np.where(rng.random(n) < 0.03, ~y, y)
    answer = np.array(scale, dtype=object)
    df = pd.DataFrame({
        "Response ID": [f"R_{rng.integers(16**10):010x}" for _ in range(n)],
        "Department": rng.choice(["Sales", "Operations", "IT", "Finance"], n),
        "My workload is manageable": answer[work],
        "My manager supports my development": answer[boss],
        "I would recommend this company as a place to work": answer[rng.choice(5, n)],
        "Years at company": rng.integers(0, 25, n),
        "Left within 12 months": np.where(y, "Yes", "No")})
    for col in ("My workload is manageable", "My manager supports my development"):
        df.loc[rng.random(n) < 0.03, col] = "Don't know"
    df.to_csv(HERE / "engagement_survey_likert.csv", index=False)


def card_transactions() -> None:
    """A card processor's transaction log: ISO timestamps in local time whose UTC offset
    changes with daylight saving (+01:00 in winter, +02:00 in summer), a merchant category,
    and fraud on 1 % of the rows.  Planted: fraud when the amount is over 900 and the local
    hour before 5, a tail the table's ten quantile thresholds do not reach."""
    rng = np.random.default_rng(SEED + 53)
    n = 3000
    when = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 365 * 86400, n),
                                                        unit="s")
    amount = np.round(rng.uniform(1, 1000, n), 2)
    fraud = (amount > 900) & (when.hour < 5)
    summer = (when >= pd.Timestamp("2024-03-31 02:00")) & (when < pd.Timestamp("2024-10-27 03:00"))
    df = pd.DataFrame({
        "txn_id": [f"T{8_000_000 + i}" for i in range(n)],
        "posted_at": [f"{t:%Y-%m-%dT%H:%M:%S}" + ("+02:00" if s else "+01:00")
                      for t, s in zip(when, summer)],
        "amount_eur": amount,
        "merchant_category": rng.choice(["grocery", "fuel", "travel", "online", "dining"], n),
        "card_present": np.where(rng.random(n) < 0.6, "Y", "N"),
        "is_fraud": fraud.astype(int)})
    df.to_csv(HERE / "card_transactions_dst_rare_fraud.csv", index=False)


def frequency_table() -> None:
    """A cross-table exported from a statistics office: one row per combination of age group,
    sex, smoking and region, with how many people have it and COPD or not ('count').
    Planted per person: COPD mostly among smokers aged 60 and over."""
    rng = np.random.default_rng(SEED + 59)
    rows = []
    for age in ("18-39", "40-59", "60+"):
        for sex in ("F", "M"):
            for smoker in ("no", "yes"):
                for region in ("North", "South", "East", "West"):
                    people = int(rng.integers(150, 900))
                    rate = 0.55 if (age == "60+" and smoker == "yes") else 0.04
                    sick = int(rng.binomial(people, rate))
                    rows += [(age, sex, smoker, region, "yes", sick),
                             (age, sex, smoker, region, "no", people - sick)]
    df = pd.DataFrame(rows, columns=["age_group", "sex", "smoker", "region", "copd", "count"])
    df[df["count"] > 0].to_csv(HERE / "frequency_table_counts.csv", index=False)


def labs_long() -> None:
    """A lab system's export in long format: one row per patient and test (HbA1c, LDL,
    creatinine, eGFR, with their units and the site that ran them), the patient's age and
    retinopathy on every row of theirs, rows in the order the results came.  Some patients
    miss a test, a few had HbA1c taken twice.  Planted per patient: retinopathy mostly
    when HbA1c > 7.5 and age > 50."""
    rng = np.random.default_rng(SEED + 61)
    tests = {"HbA1c": ("%", 6.8, 1.2), "LDL": ("mg/dL", 130, 30),
             "Creatinine": ("mg/dL", 1.0, 0.3), "eGFR": ("mL/min", 85, 20)}
    rows = []
    for k in range(450):
        pid = f"P{k + 1:04d}"
        age = int(rng.integers(25, 85))
        values = {t: round(float(rng.normal(m, sd)), 2) for t, (_, m, sd) in tests.items()}
        sick = values["HbA1c"] > 7.5 and age > 50
        sick = bool(sick) != bool(rng.random() < 0.04)
        for t, (unit, _, _) in tests.items():
            if t != "HbA1c" and rng.random() < 0.08:
                continue  # not ordered for this patient
            repeats = 2 if t == "HbA1c" and rng.random() < 0.03 else 1
            for _ in range(repeats):
                rows.append((pid, age, t, values[t], unit, str(rng.choice(["North", "Central"])),
                             "yes" if sick else "no"))
    df = pd.DataFrame(rows, columns=["patient_id", "age", "test", "result", "unit", "lab_site",
                                     "retinopathy"])
    df.sample(frac=1.0, random_state=SEED).to_csv(HERE / "labs_long_format.csv", index=False)


def excel_unicode_text() -> None:
    """Excel's "Unicode Text" export: UTF-16 (little-endian, with a byte-order mark), tab
    separated, CRLF line ends; a lead's conversion coded 1 = yes, 2 = no, as its heading
    says.  Planted: converted when a demo was requested and the company has more than 50
    employees."""
    rng = np.random.default_rng(SEED + 62)
    n = 500
    demo = rng.random(n) < 0.4
    size = rng.integers(2, 400, n)
    source = rng.choice(["Webinar", "Ads", "Referral", "Trade fair"], n)
    converted = (demo & (size > 50)) ^ (rng.random(n) < 0.04)
    rows = ["Lead ID\tSource\tCompany size\tDemo requested\tConverted (1=yes 2=no)"]
    for k in range(n):
        rows.append("\t".join([f"L-{10000 + k}", source[k], str(size[k]),
                               "Yes" if demo[k] else "No", "1" if converted[k] else "2"]))
    (HERE / "excel_unicode_text_utf16.txt").write_bytes(
        ("\ufeff" + "\r\n".join(rows) + "\r\n").encode("utf-16-le"))


def collections_eur_signs() -> None:
    """A German collections list saved with ';': balances as '€ 1.127' (a dot between
    thousands) and '(€ 1.421)' for a credit, turnover as '850', '1,2k' or '3,4M', a wrapped
    heading ("Tage\nüberfällig", quoted, as Excel writes a cell with a line break), and the
    outcome written '+' / '-'.  Planted: sent to collections (+) when the balance is
    negative and the invoice more than 60 days overdue."""
    rng = np.random.default_rng(SEED + 63)
    n = 500
    saldo = np.round(rng.normal(600, 1400, n))
    overdue = rng.integers(0, 120, n)
    level = rng.integers(0, 4, n)
    turnover = np.round(rng.lognormal(10, 1.5, n))
    sent = ((saldo < 0) & (overdue > 60)) ^ (rng.random(n) < 0.03)

    def euro(v: float) -> str:
        text = f"€ {abs(v):,.0f}".replace(",", ".")
        return f"({text})" if v < 0 else text

    def magnitude(v: float) -> str:
        if v >= 1e6:
            return f"{v / 1e6:.1f}M".replace(".", ",")
        if v >= 1e3:
            return f"{v / 1e3:.1f}k".replace(".", ",")
        return f"{v:.0f}"

    rows = ['Kunde;Saldo;"Tage\r\nüberfällig";Mahnstufe;Umsatz;Inkasso']
    for k in range(n):
        rows.append(";".join([f"K-{k:04d}", euro(saldo[k]), str(overdue[k]), str(level[k]),
                              magnitude(turnover[k]), "+" if sent[k] else "-"]))
    (HERE / "collections_eur_signs.csv").write_bytes(
        ("\r\n".join(rows) + "\r\n").encode("utf-8"))


def debitoren_chf() -> None:
    """A Swiss receivables list saved with ';': balances and credit limits written with the
    currency code, 'CHF 10’690.24' (the typographic apostrophe between thousands), the
    outcome 'ja' / 'nein'.  Planted: debt collection (Betreibung) when the balance is over
    CHF 20’000 and the invoice more than 90 days overdue."""
    rng = np.random.default_rng(SEED + 64)
    n = 600
    saldo = np.round(rng.gamma(2.0, 9000, n), 2)
    overdue = rng.integers(0, 180, n)
    limit = rng.choice([5000, 10000, 20000, 50000], n)
    canton = rng.choice(["ZH", "BE", "VD", "GE", "TI"], n)
    sued = ((saldo > 20000) & (overdue > 90)) ^ (rng.random(n) < 0.03)

    def chf(v: float) -> str:
        return "CHF " + f"{v:,.2f}".replace(",", "’")

    rows = ["Kundennr;Kanton;Saldo;Tage überfällig;Kreditlimite;Betreibung"]
    for k in range(n):
        rows.append(";".join([str(100000 + k), canton[k], chf(saldo[k]), str(overdue[k]),
                              chf(limit[k]), "ja" if sued[k] else "nein"]))
    (HERE / "debitoren_chf_codes.csv").write_bytes(("\r\n".join(rows) + "\r\n").encode())


def postgres_tickets() -> None:
    """PostgreSQL's CSV of support tickets: the channels as an array ('{phone,sms}', '{}'),
    the resolution time as an interval ('1 day 02:00:00', '01:37:01'), booleans 't' / 'f'.
    Planted: escalated when the phone was among the channels and resolution took over two
    days."""
    rng = np.random.default_rng(SEED + 65)
    n = 700
    channels = ["web", "phone", "sms", "email", "chat"]
    ticked = rng.random((n, 5)) < [0.5, 0.4, 0.2, 0.4, 0.3]
    hours = rng.gamma(2.0, 20.0, n)
    escalated = (ticked[:, 1] & (hours > 48)) ^ (rng.random(n) < 0.03)

    def interval(h: float) -> str:
        secs = int(h * 3600)
        days, rest = divmod(secs, 86400)
        clock = f"{rest // 3600:02d}:{rest % 3600 // 60:02d}:{rest % 60:02d}"
        return clock if not days else f"{days} day{'s' if days > 1 else ''} {clock}"

    rows = ["ticket_id,priority,channels,resolution_time,reopened,escalated"]
    for k in range(n):
        chosen = ",".join(c for c, t in zip(channels, ticked[k]) if t)
        arr = "{" + chosen + "}"
        rows.append(",".join([str(88000 + k), str(rng.choice(["low", "normal", "high"])),
                              f'"{arr}"' if "," in arr else arr, interval(hours[k]),
                              "t" if rng.random() < 0.1 else "f",
                              "t" if escalated[k] else "f"]))
    (HERE / "postgres_tickets_arrays_intervals.csv").write_text("\n".join(rows) + "\n")


def mysql_subscriptions() -> None:
    """A MySQL batch export (tabs, NULL as \\N): cancelled_at a date where the subscription
    was cancelled and NULL elsewhere (the outcome), a last login written '0000-00-00' when
    there was none (MySQL's zero date), and a 'set' column from an earlier model's
    train/test split.  Planted: cancelled when the plan costs over 50 and the customer
    logged in fewer than 3 times in the last 30 days."""
    rng = np.random.default_rng(SEED + 66)
    n = 800
    price = rng.choice([19, 29, 49, 79, 99], n)
    logins = rng.poisson(4, n)
    started = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 365, n), "D")
    cancelled = ((price > 50) & (logins < 3)) ^ (rng.random(n) < 0.03)
    rows = ["subscription_id\tplan_price\tlogins_last_30d\tstarted_at\tlast_login\t"
            "autopay\tset\tcancelled_at"]
    for k in range(n):
        end = started[k] + pd.Timedelta(days=int(rng.integers(30, 300)))
        last = "0000-00-00" if logins[k] == 0 else f"{end - pd.Timedelta(days=3):%Y-%m-%d}"
        rows.append("\t".join([f"SUB{k:05d}", str(price[k]), str(logins[k]),
                               f"{started[k]:%Y-%m-%d} 00:00:00", last,
                               "Y" if rng.random() < 0.7 else "N",
                               "test" if rng.random() < 0.2 else "train",
                               f"{end:%Y-%m-%d %H:%M:%S}" if cancelled[k] else "\\N"]))
    (HERE / "mysql_subscriptions_cancelled_at.tsv").write_text("\n".join(rows) + "\n")


def bigquery_sessions() -> None:
    """BigQuery's CSV of GA4 sessions: each STRUCT a JSON object in a cell (device, totals),
    the date as YYYYMMDD.  Planted: a purchase on desktop sessions of six pages or more."""
    import json

    rng = np.random.default_rng(SEED + 67)
    n = 600
    rows = [["event_date", "user_pseudo_id", "device", "totals", "purchased"]]
    for k in range(n):
        cat = str(rng.choice(["desktop", "mobile", "tablet"], p=[0.4, 0.5, 0.1]))
        views = int(rng.integers(1, 12))
        bought = (cat == "desktop" and views >= 6) ^ (rng.random() < 0.03)
        rows.append([f"202405{1 + k % 28:02d}", f"{rng.integers(1e9, 4e9)}.{k}",
                     json.dumps({"category": cat, "operating_system": str(
                         rng.choice(["Windows", "iOS", "Android", "Macintosh"])),
                                 "language": "en-us"}),
                     json.dumps({"pageviews": views, "bounces": None}),
                     "true" if bought else "false"])
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    (HERE / "bigquery_sessions_structs.csv").write_text(buf.getvalue())


def mongodb_accounts() -> None:
    """``mongoexport --jsonArray`` of a SaaS product's accounts in canonical Extended JSON:
    the ObjectId, the dates and every number wrapped (``{"$numberInt": "12"}``), the plan
    nested under ``account``, feature flags as a list, the outcome missing on a few
    accounts still in trial.  Planted: churned on the free plan with fewer than 9 logins."""
    import json

    rng = np.random.default_rng(SEED + 71)
    records = []
    for k in range(700):
        plan = str(rng.choice(["free", "pro", "team"], p=[0.5, 0.35, 0.15]))
        logins = int(rng.poisson(10))
        churned = (plan == "free" and logins < 9) ^ bool(rng.random() < 0.015)
        created = int(pd.Timestamp("2024-01-01").value // 10**6) + int(
            rng.integers(0, 300 * 86_400_000))
        rec = {"_id": {"$oid": f"65a1{k:08x}{int(rng.integers(1 << 40)):012x}"},
               "createdAt": {"$date": {"$numberLong": str(created)}},
               "account": {"plan": plan, "seats": {"$numberInt": str(rng.integers(1, 40))},
                           "region": str(rng.choice(["eu", "us", "apac"]))},
               "usage": {"logins30d": {"$numberInt": str(logins)},
                         "storageGb": {"$numberDouble": str(round(rng.gamma(2, 3), 2))}},
               "flags": [str(f) for f in rng.choice(["beta", "sso", "audit"],
                                                    int(rng.integers(0, 3)), replace=False)],
               "churned": churned}
        if rng.random() < 0.04:
            del rec["churned"]
        records.append(rec)
    (HERE / "mongodb_accounts_canonical.json").write_text(json.dumps(records, indent=1) + "\n")


def redcap_longitudinal() -> None:
    """REDCap's raw longitudinal export: each record_id on a baseline row (age, sex, bmi,
    comorbidity checkboxes comorbid___1.., the enrolment date) and a follow-up row (the
    outcome and its date), redcap_event_name saying which.  Planted: readmitted within 30
    days with heart failure (comorbid___2) and age over 70."""
    rng = np.random.default_rng(SEED + 68)
    n = 400
    head = ["record_id", "redcap_event_name", "enroll_date", "age", "sex", "bmi",
            "comorbid___1", "comorbid___2", "comorbid___3", "baseline_complete", "fu_date",
            "readmit_30d", "followup_complete"]
    rows = [",".join(head)]
    for k in range(n):
        age = int(rng.integers(35, 90))
        hf = int(rng.random() < 0.3)
        other = [int(rng.random() < 0.25) for _ in range(2)]
        start = pd.Timestamp("2022-01-01") + pd.Timedelta(days=int(rng.integers(0, 365)))
        readmit = int((hf == 1 and age > 70) ^ (rng.random() < 0.03))
        rows.append(",".join(map(str, [1001 + k, "baseline_arm_1", f"{start:%Y-%m-%d}", age,
                                       int(rng.integers(1, 3)),
                                       round(float(rng.normal(28, 5)), 1), other[0], hf,
                                       other[1], 2, "", "", ""])))
        rows.append(",".join(map(str, [1001 + k, "followup_30d_arm_1", "", "", "", "", "", "",
                                       "", "", f"{start + pd.Timedelta(days=30):%Y-%m-%d}",
                                       readmit, 2])))
    (HERE / "redcap_longitudinal_raw.csv").write_text("\n".join(rows) + "\n")


def oracle_sqlplus_spool() -> None:
    """An Oracle SQL*Plus spool (.lst): the query echoed above the header, fixed-width columns
    under a line of dashes, the header repeated every 50 lines, DD-MON-YY dates, a commission
    only salespeople have (blank elsewhere), the '... rows selected.' footer.  Planted:
    promoted (P = Y) with a salary over 3,500 and a rating of 4 or 5."""
    rng = np.random.default_rng(SEED + 69)
    n = 300
    head = ("     EMPNO ENAME      DEPTNAME   HIREDATE         SAL       COMM PERF_RATING P")
    rule = "---------- ---------- ---------- --------- ---------- ---------- ----------- -"
    lines = ["SQL> set pagesize 50 linesize 120",
             "SQL> SELECT e.empno, e.ename, d.dname deptname, e.hiredate, e.sal, e.comm,",
             "  2  r.perf_rating, r.promoted p FROM emp e JOIN dept d USING (deptno)",
             "  3  JOIN review r USING (empno);", ""]
    names = ["SMITH", "ALLEN", "WARD", "JONES", "MARTIN", "BLAKE", "CLARK", "SCOTT", "KING"]
    for k in range(n):
        if k % 47 == 0:
            lines += ([""] if k else []) + [head, rule]
        dept = str(rng.choice(["ACCOUNTING", "RESEARCH", "SALES", "OPERATIONS"]))
        sal = int(rng.integers(8, 50)) * 100
        rating = int(rng.integers(1, 6))
        promoted = (sal > 3500 and rating >= 4) ^ (rng.random() < 0.03)
        hired = pd.Timestamp("1995-01-01") + pd.Timedelta(days=int(rng.integers(0, 9000)))
        comm = f"{int(rng.integers(1, 15)) * 100:>10}" if dept == "SALES" else " " * 10
        lines.append(f"{7000 + k:>10} {names[k % 9]:<10} {dept:<10} "
                     f"{hired.strftime('%d-%b-%y').upper():<9} {sal:>10} {comm} "
                     f"{rating:>11} {'Y' if promoted else 'N'}")
    lines += ["", f"{n} rows selected.", "", "SQL> spool off"]
    (HERE / "oracle_sqlplus_spool.lst").write_text("\n".join(lines) + "\n")


def pandas_printed_frame() -> None:
    """A notebook's ``print(df)`` saved as text (``df.to_string()``): columns aligned with
    spaces, the index unnamed on the left, text right-aligned with spaces inside values
    (``San Diego``), ``NaN`` and ``NaT`` for missing values, the target in the middle.
    Planted: a late delivery (late = True) from a far warehouse with a heavy parcel."""
    rng = np.random.default_rng(SEED + 70)
    n = 300
    city = rng.choice(["San Diego", "Los Angeles", "Fresno", "San Jose", "Oakland"], n)
    weight = np.round(rng.gamma(3.0, 2.0, n), 1)
    distance = rng.integers(5, 900, n)
    late = ((distance > 450) & (weight > 6.0)) ^ (rng.random(n) < 0.04)
    df = pd.DataFrame({
        "order_id": [f"SO-{48113 + 7 * k}" for k in range(n)],
        "ship_city": city,
        "weight_kg": weight,
        "late": late,
        "distance_km": distance,
        "shipped": pd.Timestamp("2025-03-01") + pd.to_timedelta(rng.integers(0, 200, n),
                                                                 unit="D"),
        "carrier": rng.choice(["UPS Ground", "FedEx", "USPS Priority"], n)})
    df.loc[rng.choice(n, 12, replace=False), "weight_kg"] = np.nan
    df.loc[rng.choice(n, 5, replace=False), "shipped"] = pd.NaT
    (HERE / "pandas_printed_frame.txt").write_text(df.to_string() + "\n", encoding="utf-8")


def mainframe_fixed_width() -> None:
    """A mainframe's fixed-width extract: no separator and no line of dashes, text
    left-aligned and padded, numbers right-aligned, a blank where a value was not recorded
    (the income of the unemployed), city names of two words.  Planted: a claim is flagged
    (FLAG = Y) for a policy under three years old with a claim over 8,000."""
    rng = np.random.default_rng(SEED + 71)
    n = 400
    lines = [f"{'POLICYNO':<10}{'HOLDER CITY':<14}{'AGE':>4} {'INCOME':>8} "
             f"{'TENURE_YRS':>10} {'CLAIM_AMT':>10} {'STATUS':<11}FLAG"]
    for k in range(n):
        city = str(rng.choice(["SAN DIEGO", "EL PASO", "DENVER", "ST LOUIS", "BOISE"]))
        status = str(rng.choice(["EMPLOYED", "RETIRED", "UNEMPLOYED"], p=[.6, .3, .1]))
        income = "" if status == "UNEMPLOYED" else str(int(rng.integers(18, 160)) * 1000)
        tenure = int(rng.integers(0, 12))
        claim = int(rng.gamma(2.0, 3000.0))
        flag = ((tenure < 3) & (claim > 8000)) ^ (rng.random() < 0.01)
        lines.append(f"{40000123 + 17 * k:<10}{city:<14}{int(rng.integers(19, 90)):>4} "
                     f"{income:>8} {tenure:>10} {claim:>10} {status:<11}"
                     f"{'Y' if flag else 'N'}")
    (HERE / "mainframe_fixed_width.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def legacy_xls() -> None:
    """An Excel 97-2003 workbook (.xls) from a legacy loan system: a read-me sheet first, a
    title line above the header, dates formatted DD/MM/YYYY, a loan number per row.  Planted:
    defaulted when debt_ratio > 0.6 and income < 45,000 (3 % flipped)."""
    import datetime as dt

    import xlwt

    rng = np.random.default_rng(SEED + 41)
    wb = xlwt.Workbook()
    about = wb.add_sheet("Read me")
    about.write(0, 0, "Loan book export from LMS 4.2")
    about.write(1, 0, "One row per loan; amounts in EUR")
    ws = wb.add_sheet("Loans")
    ws.write(0, 0, "Loan book as of 30/09/2024")
    for j, h in enumerate(["Loan No", "Opened", "Income", "Debt ratio", "Branch", "Product",
                           "Defaulted"]):
        ws.write(2, j, h)
    day = xlwt.easyxf(num_format_str="DD/MM/YYYY")
    for i in range(360):
        income = float(round(rng.normal(52000, 15000), -2))
        ratio = round(float(rng.uniform(0.05, 0.95)), 3)
        bad = (ratio > 0.6 and income < 45000) ^ bool(rng.random() < 0.03)
        row = 3 + i
        ws.write(row, 0, f"LN{700120 + 7 * i}")
        ws.write(row, 1, dt.date(2019, 1, 1) + dt.timedelta(days=int(rng.integers(0, 1800))),
                 day)
        ws.write(row, 2, income)
        ws.write(row, 3, ratio)
        ws.write(row, 4, str(rng.choice(["Lyon", "Lille", "Nantes", "Nice"])))
        ws.write(row, 5, str(rng.choice(["personal", "auto", "home"])))
        ws.write(row, 6, "Y" if bad else "N")
    buf = io.BytesIO()
    wb.save(buf)
    (HERE / "loan_book_legacy.xls").write_bytes(buf.getvalue())


def spss_survey() -> None:
    """An SPSS .sav file as a health survey team keeps it: coded answers with value labels
    (1 = "Yes", 2 = "No"), 99 "Refused" declared missing on income, variable labels, a
    respondent number.  Planted: stroke when systolic > 145 and a smoker (3 % flipped)."""
    import pyreadstat

    rng = np.random.default_rng(SEED + 42)
    n = 420
    smoker = rng.integers(1, 3, n).astype(float)
    sysbp = rng.normal(132, 16, n).round(0)
    income = rng.normal(38, 12, n).round(1)
    income[rng.random(n) < 0.06] = 99.0
    stroke = (((sysbp > 145) & (smoker == 1)) ^ (rng.random(n) < 0.03)).astype(float)
    df = pd.DataFrame({"respid": np.arange(1, n + 1, dtype=float),
                       "age": rng.integers(30, 85, n).astype(float), "smoker": smoker,
                       "sysbp": sysbp, "income": income,
                       "region": rng.integers(1, 5, n).astype(float), "stroke": stroke})
    path = HERE / "health_survey_spss.sav"
    pyreadstat.write_sav(
        df, str(path), file_label="Health survey wave 3",
        column_labels={"respid": "Respondent number", "age": "Age in years",
                       "smoker": "Currently smokes", "sysbp": "Systolic blood pressure (mmHg)",
                       "income": "Household income (k EUR)", "region": "Region",
                       "stroke": "Stroke within 5 years"},
        variable_value_labels={"smoker": {1.0: "Yes", 2.0: "No"},
                               "stroke": {0.0: "No", 1.0: "Yes"},
                               "income": {99.0: "Refused"},
                               "region": {1.0: "North", 2.0: "East", 3.0: "South",
                                          4.0: "West"}},
        missing_ranges={"income": [99.0]})
    # the same bytes on every run: the header's creation date and time (offsets 92 and 101)
    data = bytearray(path.read_bytes())
    data[92:109] = b"26 Nov 2600:00:00"
    path.write_bytes(bytes(data))


def sas_transport() -> None:
    """A SAS transport file (.xpt, version 5, as FDA submissions and PROC COPY write it): a
    subject id, a visit date, labelled variables.  Planted: responder when the dose is at
    least 20 and the baseline score above 30 (3 % flipped)."""
    import pyreadstat

    rng = np.random.default_rng(SEED + 43)
    n = 300
    dose = rng.choice([5.0, 10.0, 20.0, 40.0], n)
    base = rng.normal(30, 8, n).round(1)
    resp = ((dose >= 20) & (base > 30)) ^ (rng.random(n) < 0.03)
    df = pd.DataFrame({"USUBJID": [f"STUDY01-{1001 + k}" for k in range(n)],
                       "SEX": rng.choice(["M", "F"], n), "AGE": rng.integers(18, 80, n)
                       .astype(float), "DOSE": dose, "BASESCR": base,
                       "RESP": np.where(resp, "Y", "N")})
    path = HERE / "trial_adsl_sas.xpt"
    pyreadstat.write_xport(df, str(path), file_format_version=5,
                           table_name="ADSL",
                           column_labels={"USUBJID": "Unique Subject Identifier",
                                          "DOSE": "Planned dose (mg)",
                                          "BASESCR": "Baseline score", "RESP": "Responder"})
    # the same bytes on every run: the headers' created / modified stamps
    path.write_bytes(re.sub(rb"\d\d[A-Z]{3}\d\d:\d\d:\d\d:\d\d", b"26NOV26:00:00:00",
                            path.read_bytes()))


def ods_sheet() -> None:
    """A LibreOffice Calc spreadsheet (.ods), written here by hand (its XML): a hidden sheet of
    lookups, the stock sheet with a number typed as text and a percent-formatted column.
    Planted: reorder when stock < 40 and the weekly demand above 25 (3 % flipped)."""
    import zipfile
    from xml.sax.saxutils import escape

    rng = np.random.default_rng(SEED + 44)

    def cell(v) -> str:
        if isinstance(v, float):
            return (f'<table:table-cell office:value-type="float" office:value="{v}">'
                    f"<text:p>{v:g}</text:p></table:table-cell>")
        return (f'<table:table-cell office:value-type="string"><text:p>{escape(str(v))}'
                "</text:p></table:table-cell>")

    def table(name: str, rows: list[list], hidden: bool = False) -> str:
        style = ' table:style-name="hidden"' if hidden else ""
        body = "".join("<table:table-row>" + "".join(cell(v) for v in r) + "</table:table-row>"
                       for r in rows)
        return f'<table:table table:name="{name}"{style}>{body}</table:table>'

    rows = [["sku", "stock", "weekly_demand", "supplier", "reorder"]]
    for k in range(240):
        stock = float(rng.integers(0, 150))
        demand = float(rng.integers(1, 60))
        reorder = (stock < 40 and demand > 25) ^ bool(rng.random() < 0.03)
        rows.append([f"SKU-{5000 + k}", stock, demand, str(rng.choice(["Acme", "Bolt", "Cora"])),
                     "yes" if reorder else "no"])
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
        ' xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" office:version="1.2">'
        '<office:automatic-styles><style:style style:name="hidden" style:family="table">'
        '<style:table-properties table:display="false"/></style:style>'
        "</office:automatic-styles><office:body><office:spreadsheet>"
        + table("Lookups", [["supplier", "lead_days"], ["Acme", 3.0], ["Bolt", 5.0]], True)
        + table("Stock", rows) + "</office:spreadsheet></office:body></office:document-content>")
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
        '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
        'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data, how in (("mimetype", "application/vnd.oasis.opendocument.spreadsheet",
                                 zipfile.ZIP_STORED), ("META-INF/manifest.xml", manifest,
                                                      zipfile.ZIP_DEFLATED),
                                ("content.xml", content, zipfile.ZIP_DEFLATED)):
            info = zipfile.ZipInfo(name, date_time=(2026, 11, 26, 0, 0, 0))
            info.compress_type = how
            z.writestr(info, data)
    (HERE / "stock_levels_calc.ods").write_bytes(out.getvalue())


def web_portal_export() -> None:
    """A card portal's "Export to Excel": an HTML page with an .xls name (Excel opens it with
    a warning), a layout table with the report's title before the data table, a header cell
    with a line break, amounts with thousands separators.  Planted: fraud when the amount is
    over 2,500 and the hour before 6 (2 % flipped)."""
    rng = np.random.default_rng(SEED + 45)
    rows = []
    for i in range(250):
        amount = float(rng.integers(10, 5000))
        hour = int(rng.integers(0, 24))
        fraud = (amount > 2500 and hour < 6) ^ bool(rng.random() < 0.02)
        rows.append(f"<tr><td>TX{90000 + i}</td><td>{i % 28 + 1:02d}/03/2024</td>"
                    f"<td class=num>{amount:,.2f}</td><td>{hour}</td>"
                    f"<td>{rng.choice(['FR', 'DE', 'US', 'NG'])}</td>"
                    f"<td>{'Yes' if fraud else 'No'}</td></tr>\n")
    page = ('<html xmlns:o="urn:schemas-microsoft-com:office:office" '
            'xmlns:x="urn:schemas-microsoft-com:office:excel">\n<head><meta http-equiv='
            '"Content-Type" content="text/html; charset=utf-8">\n<style>.num{mso-number-format:'
            '"\\#\\,\\#\\#0\\.00"}</style></head>\n<body>\n<table><tr><td><b>Card transactions '
            'report</b></td></tr><tr><td>Generated 2024-04-01 by PortalX</td></tr></table>\n'
            '<table border="1"><thead><tr><th>Transaction ID</th><th>Date</th><th>Amount<br>'
            '(EUR)</th><th>Hour</th><th>Country</th><th>Fraud</th></tr></thead><tbody>\n'
            + "".join(rows) + "</tbody></table>\n</body></html>\n")
    (HERE / "card_portal_export_html.xls").write_text(page, encoding="utf-8")


def excel_2003_xml() -> None:
    """Excel's "XML Spreadsheet 2003" (.xml), as older reporting tools write it: a hidden sheet
    of codes first, a merged title row, a skipped row (ss:Index), dates as DateTime, booleans.
    Planted: left when overtime is over 25 hours and the rating at most 2 (2 % flipped)."""
    rng = np.random.default_rng(SEED + 46)

    def cell(v, kind: str | None = None, extra: str = "") -> str:
        kind = kind or ("Number" if isinstance(v, (int, float)) else "String")
        return f'<Cell{extra}><Data ss:Type="{kind}">{v}</Data></Cell>'

    rows = ["<Row>" + cell("Staff appraisal export", extra=' ss:MergeAcross="3"') + "</Row>",
            '<Row ss:Index="3">' + "".join(cell(h) for h in ["Employee", "Hired",
                                                             "Overtime hours", "Rating",
                                                             "Left"]) + "</Row>"]
    for i in range(400):
        overtime = int(rng.integers(0, 40))
        rating = int(rng.integers(1, 6))
        left = (overtime > 25 and rating <= 2) ^ bool(rng.random() < 0.02)
        hired = f"20{int(rng.integers(10, 24)):02d}-0{int(rng.integers(1, 10))}-15T00:00:00.000"
        rows.append("<Row>" + cell(f"E{3000 + i}") + cell(hired, "DateTime") + cell(overtime)
                    + cell(rating) + cell(int(left), "Boolean") + "</Row>")
    xml = ('<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n<Workbook xmlns='
           '"urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:'
           'office:spreadsheet" xmlns:x="urn:schemas-microsoft-com:office:excel">\n'
           '<Worksheet ss:Name="Codes"><Table><Row>' + cell("code") + '</Row></Table>'
           '<WorksheetOptions xmlns="urn:schemas-microsoft-com:office:excel"><Visible>'
           'SheetHidden</Visible></WorksheetOptions></Worksheet>\n<Worksheet ss:Name="Staff">'
           "<Table>\n" + "\n".join(rows) + "\n</Table></Worksheet>\n</Workbook>\n")
    (HERE / "staff_appraisal_2003.xml").write_text(xml, encoding="utf-8")


def qc_defect_counts() -> None:
    """A plant's batch log from its MES: a batch id, the line, a day/night shift, oven
    temperature, humidity, the operator, minutes of rework (non-zero only where a defect was
    found: recorded after the outcome) and, last, how many defects the batch had, 0 / 1 / 2.
    Planted: defects on line B when the oven ran above 205 °C (3 % flipped)."""
    rng = np.random.default_rng(SEED + 72)
    n = 900
    line = rng.choice(["A", "B", "C"], n)
    temp = np.round(rng.normal(200, 6, n), 1)
    bad = ((line == "B") & (temp > 205)) ^ (rng.random(n) < 0.03)
    count = np.where(bad, rng.choice([1, 2], n, p=[0.75, 0.25]), 0)
    rework = np.where(bad, np.round(rng.gamma(3.0, 12.0, n)), 0.0)
    df = pd.DataFrame({"batch_id": 50001 + np.arange(n), "line": line,
                       "shift": rng.choice(["day", "night"], n), "oven_temp_c": temp,
                       "humidity_pct": np.round(rng.uniform(30, 80, n), 1),
                       "operator": [f"op{k:02d}" for k in rng.integers(1, 9, n)],
                       "rework_minutes": rework, "defect_count": count})
    df.to_csv(HERE / "qc_batches_defect_count.csv", index=False)


def brfss_extract() -> None:
    """A health survey's microdata as a state's analyst extracts it (BRFSS's layout): a
    respondent sequence number, the design's stratum, cluster and weight, a state FIPS code,
    answers coded as numbers with 7 / 77 for "don't know" and 9 / 99 for "refused" beside
    the 1 and 2 of yes/no questions and an income band of 1 to 8, BMI × 100 left blank where
    not asked, and the outcome last: 1 diabetes, 2 only in pregnancy, 3 no, 4 prediabetes,
    7 / 9 not known.  Planted: diabetes when BMI > 32, age group 9 or more (60+) and high blood
    pressure (1.5 % flipped)."""
    rng = np.random.default_rng(SEED + 73)
    n = 2500
    age = rng.integers(1, 14, n)
    bmi = np.round(rng.normal(2800, 550, n)).astype(int)
    bp = rng.choice([1, 2], n, p=[0.35, 0.65])
    yes = ((bmi > 3200) & (age >= 9) & (bp == 1)) ^ (rng.random(n) < 0.015)
    u = rng.random(n)
    diabetes = np.select([yes & (u < 0.04), yes, u < 0.05, u > 0.99], [2, 1, 4, 7], 3)
    diabetes[(u > 0.985) & (u <= 0.99)] = 9
    exercise = rng.choice([1, 2], n, p=[0.7, 0.3])
    exercise[rng.random(n) < 0.03] = 7
    income = rng.integers(1, 9, n)
    v = rng.random(n)
    income[v < 0.06] = 77
    income[v > 0.95] = 99
    smoke = rng.choice([1, 2, 3], n)
    smoke[rng.random(n) < 0.02] = 9
    shown_bmi = bmi.astype(object)
    shown_bmi[rng.random(n) < 0.04] = ""
    df = pd.DataFrame({"SEQN": np.arange(2023000001, 2023000001 + n),
                       "_STSTR": rng.choice([11011, 11012, 11021, 11022, 12011], n),
                       "_PSU": rng.integers(1, 3, n),
                       "_LLCPWT": np.round(rng.lognormal(6.5, 0.8, n), 4),
                       "_STATE": rng.choice([1, 4, 6, 12, 13, 36, 48], n),
                       "_AGEG5YR": age, "SEXVAR": rng.choice([1, 2], n), "INCOME3": income,
                       "_BMI5": shown_bmi, "SMOKDAY2": smoke, "EXERANY2": exercise,
                       "BPHIGH6": bp, "DIABETE4": diabetes})
    df.to_csv(HERE / "brfss_extract_coded.csv", index=False)


def pharmacy_returns() -> None:
    """A pharmacy chain's point-of-sale extract: a return line id, the store's number (101,
    102, 205, 317, 412, 508, 611: codes, not quantities), days of supply, the copay, the
    patient's age and whether the prescription came back.  Planted: returns at stores 101
    and 317 (4 % flipped)."""
    rng = np.random.default_rng(SEED + 73)
    n = 900
    store = rng.choice([101, 102, 205, 317, 412, 508, 611], n)
    returned = np.isin(store, [101, 317]) ^ (rng.random(n) < 0.04)
    df = pd.DataFrame({"return_line_id": 880001 + np.arange(n), "store_nbr": store,
                       "days_supply": rng.choice([30, 60, 90], n),
                       "copay_usd": np.round(rng.gamma(2.0, 9.0, n), 2),
                       "patient_age": rng.integers(18, 90, n),
                       "returned": np.where(returned, "Y", "N")})
    df.to_csv(HERE / "pharmacy_returns_store_numbers.csv", index=False)


def servicedesk_intervals() -> None:
    """A service desk's tickets exported from PostgreSQL: a ticket id, the queue, the
    priority, the time to resolve as PostgreSQL writes an interval (``1 day 04:00:00``,
    ``07:30:00``), reopen count and whether the SLA was breached.  Planted: breached when
    resolution took over two days (3 % flipped)."""
    rng = np.random.default_rng(SEED + 74)
    n = 700
    hours = np.round(rng.gamma(2.0, 20.0, n), 2)
    whole = np.floor(hours).astype(int)
    minutes = np.round((hours - whole) * 60).astype(int) % 60

    def interval(h: int, m: int) -> str:
        days, h = divmod(h, 24)
        clock = f"{h:02d}:{m:02d}:00"
        return clock if not days else f"{days} day{'s' if days > 1 else ''} {clock}"

    breached = (hours > 48) ^ (rng.random(n) < 0.03)
    df = pd.DataFrame({"ticket_id": 40001 + np.arange(n),
                       "queue": rng.choice(["network", "access", "hardware", "email"], n),
                       "priority": rng.choice(["P1", "P2", "P3"], n),
                       "time_to_resolve": [interval(h, m) for h, m in zip(whole, minutes)],
                       "reopened": rng.poisson(0.3, n),
                       "sla": np.where(breached, "breached", "met")})
    df.to_csv(HERE / "servicedesk_intervals.csv", index=False)


def machine_daily_log() -> None:
    """A plant's daily machine log, each machine's days in order: the machine, the day,
    temperature, vibration, yesterday's outcome (``failed_prev_day``: the target one row
    earlier) and whether it failed that day.  Planted: a failure starts on a day above 82 °C
    and lasts a few days (each next day failed with chance 0.7), so yesterday's outcome
    predicts today's well."""
    rng = np.random.default_rng(SEED + 75)
    machines, days = 20, 60
    rows = []
    for m in range(machines):
        failed = False
        for d in range(days):
            temp = round(float(rng.normal(72, 6)), 1)
            prev = failed
            failed = temp > 82 or (prev and rng.random() < 0.7)
            rows.append({"machine": f"M{m:02d}",
                         "day": (pd.Timestamp("2024-03-01") + pd.Timedelta(days=d)).date(),
                         "temp_c": temp, "vibration": round(float(rng.gamma(2, 0.5)), 3),
                         "failed_prev_day": int(prev), "failed": int(failed)})
    pd.DataFrame(rows).to_csv(HERE / "machine_daily_log.csv", index=False)


def lab_limits_unnumbered() -> None:
    """A cardiology lab's export: a sample id, age, sex, troponin written as the assay
    reports it (``<LOD`` below its detection limit, ``>ULOQ`` above its range, ``ND`` when
    not done) and a final MI diagnosis.  Planted: MI above 60 ng/L (3 % flipped), so every
    ``>ULOQ`` patient is one."""
    rng = np.random.default_rng(SEED + 76)
    n = 500
    trop = rng.lognormal(2.6, 1.1, n)
    mi = (trop > 60) ^ (rng.random(n) < 0.03)
    written = np.where(trop < 6, "<LOD", np.where(trop > 120, ">ULOQ", np.round(trop, 1)
                                                  .astype(str)))
    written = np.where(rng.random(n) < 0.12, "ND", written)
    df = pd.DataFrame({"sample_id": [f"L{k:05d}" for k in range(n)],
                       "age": rng.integers(30, 92, n), "sex": rng.choice(["F", "M"], n),
                       "troponin_ng_L": written, "MI": np.where(mi, "yes", "no")})
    df.to_csv(HERE / "lab_limits_unnumbered.csv", index=False)


def crm_opportunities() -> None:
    """A Salesforce opportunities report: an id, the account, the stage (Closed Won, Closed
    Lost and three open stages), the amount with its currency code, the lead source, the
    created date and the probability the stage sets (0 or 100 once closed: a leak).
    Planted: deals under USD 20,000 from a referral are won (5 % flipped)."""
    rng = np.random.default_rng(SEED + 77)
    n = 600
    amount = rng.integers(2, 120, n) * 500
    source = rng.choice(["Referral", "Web", "Event", "Outbound"], n)
    won = ((amount < 20000) & (source == "Referral") | (amount < 8000)) ^ \
        (rng.random(n) < 0.05)
    open_ = rng.random(n) < 0.3
    stage = np.where(open_, rng.choice(["Qualification", "Proposal", "Negotiation"], n),
                     np.where(won, "Closed Won", "Closed Lost"))
    probability = np.where(open_, rng.choice([10, 40, 70], n), np.where(won, 100, 0))
    df = pd.DataFrame({"Opportunity ID": [f"006{k:012d}" for k in range(n)],
                       "Account Name": [f"Account {k}" for k in rng.integers(0, 250, n)],
                       "Stage": stage, "Amount": [f"USD {a:,.2f}" for a in amount],
                       "Lead Source": source,
                       "Created Date": pd.Timestamp("2024-01-01")
                       + pd.to_timedelta(rng.integers(0, 300, n), "D"),
                       "Probability (%)": probability})
    df["Created Date"] = df["Created Date"].dt.strftime("%m/%d/%Y")
    df.to_csv(HERE / "crm_opportunities_stages.csv", index=False)


def weather_type_flags() -> None:
    """NOAA's daily summaries for one station: the date, wind, precipitation and the weather
    type flags ``WT01`` (fog), ``WT03`` (thunder), ``WT08`` (haze) written ``1`` or left
    empty, and whether a storm was reported.  Planted: storms on thunder days with wind
    above 20 (0.5 % flipped)."""
    rng = np.random.default_rng(SEED + 78)
    n = 730
    wind = np.round(rng.gamma(3, 5, n), 1)
    thunder = rng.random(n) < 0.2
    storm = (thunder & (wind > 20)) ^ (rng.random(n) < 0.005)
    df = pd.DataFrame({"STATION": "USW00094728",
                       "DATE": pd.date_range("2022-01-01", periods=n, freq="D")
                       .strftime("%Y-%m-%d"),
                       "AWND": wind, "PRCP": np.round(rng.gamma(0.5, 4, n), 1),
                       "WT01": np.where(rng.random(n) < 0.2, "1", ""),
                       "WT03": np.where(thunder, "1", ""),
                       "WT08": np.where(rng.random(n) < 0.1, "1", ""),
                       "storm": np.where(storm, "yes", "no")})
    df.to_csv(HERE / "weather_type_flags.csv", index=False)


def property_listings() -> None:
    """An estate agent portal's listings (Rightmove-like): an id, the listing's URL, the
    price as agents write it ("Offers in excess of £399,000", "Guide Price £370,000", a few
    "POA"), bedrooms ("3 bed"), the floor area in square feet or metres ("803 sq ft",
    "74 sq m"), days on the market ("1 day", "12 days") and whether it went under offer.
    Planted: under offer at £450,000 or less with more than 900 sq ft (4 % flipped)."""
    rng = np.random.default_rng(SEED + 79)
    n = 700
    price = rng.integers(180, 900, n) * 1000
    sqft = rng.integers(380, 2200, n)
    offer = ((price <= 450000) & (sqft > 900)) ^ (rng.random(n) < 0.04)
    words = rng.choice(["", "", "Offers in excess of ", "Guide Price ", "Offers over "], n)
    written_price = np.where(rng.random(n) < 0.02, "POA",
                             [f"{w}£{p:,}" for w, p in zip(words, price)])
    metric = rng.random(n) < 0.15
    size = np.where(metric, [f"{a * 0.09290304:.0f} sq m" for a in sqft],
                    [f"{a:,} sq ft" for a in sqft])
    days = rng.integers(1, 120, n)
    df = pd.DataFrame({"listing_id": rng.choice(10**8, n, replace=False) + 10**8,
                       "url": [f"https://www.example-homes.co.uk/properties/{k}" for k in
                               rng.permutation(10**6)[:n]],
                       "price": written_price,
                       "bedrooms": [f"{b} bed" for b in rng.integers(1, 6, n)],
                       "size": size,
                       "days_listed": [f"{d} day" if d == 1 else f"{d} days" for d in days],
                       "status": np.where(offer, "Under Offer", "Available")})
    df.to_csv(HERE / "property_listings_agent_prices.csv", index=False)


def field_trial() -> None:
    """A wheat nitrogen trial as a field-trials package exports it: plot numbers (block ×
    100 + plot), the block, the N rate, yield in kg/ha with some plots in t/ha and a few
    "*" (not harvested), height and a lodging score; the trial's Mean, LSD and CV rows
    under the plots.  Planted: lodged above 95 cm (3 % flipped)."""
    rng = np.random.default_rng(SEED + 80)
    rows = []
    for block in range(1, 6):
        for plot in range(1, 31):
            n_rate = rng.choice([0, 60, 120, 180, 240])
            height = 70 + n_rate / 8 + rng.normal(0, 6)
            yield_ = 5000 + 12 * n_rate + rng.normal(0, 600)
            lodged = (height > 95) ^ (rng.random() < 0.03)
            written = "*" if rng.random() < 0.03 else (
                f"{yield_ / 1000:.2f} t/ha" if rng.random() < 0.2 else f"{yield_:,.0f} kg/ha")
            rows.append({"Plot": block * 100 + plot, "Block": f"B{block}",
                         "Trt": f"N{n_rate}", "Yield": written,
                         "Height (cm)": round(height), "Lodged": "Y" if lodged else "N"})
    df = pd.DataFrame(rows)
    stats = pd.DataFrame({"Plot": ["Mean", "LSD (0.05)", "CV (%)"], "Yield": ["6,441",
                          "512", "8.1"], "Height (cm)": [85, 4, 6.2]})
    pd.concat([df, stats]).to_csv(HERE / "field_trial_yields_stats_rows.csv", index=False)


def activity_log() -> None:
    """A running app's activity export (Strava's layout): an id, the date as "Jan 5, 2023,
    7:00:00 PM", the elapsed time as m:ss under an hour and h:mm:ss above, the distance in
    km or mi, the pace as "5:12 /km", the elevation gain in m, and whether it was a
    personal record ("Yes" or empty).  Planted: records at a pace under 4:50 /km over more
    than 8 km (1 % flipped)."""
    rng = np.random.default_rng(SEED + 81)
    n = 800
    km = np.round(rng.uniform(3, 21, n), 2)
    pace = rng.integers(250, 420, n)  # seconds per km
    seconds = (km * pace).astype(int)
    pr = ((pace < 290) & (km > 8)) ^ (rng.random(n) < 0.01)
    when = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24, n), "h")
    miles = rng.random(n) < 0.2

    def clock(t: int) -> str:
        return f"{t // 3600}:{t % 3600 // 60:02d}:{t % 60:02d}" if t >= 3600 else \
            f"{t // 60}:{t % 60:02d}"

    df = pd.DataFrame({"Activity ID": rng.choice(10**9, n, replace=False) + 10**9,
                       "Activity Date": [f"{d:%b} {d.day}, {d.year}, {d:%I:%M:%S %p}"
                                         for d in when],
                       "Elapsed Time": [clock(t) for t in seconds],
                       "Distance": np.where(miles, [f"{k / 1.609344:.2f} mi" for k in km],
                                            [f"{k:.2f} km" for k in km]),
                       "Avg Pace": [f"{p // 60}:{p % 60:02d} /km" for p in pace],
                       "Elevation Gain": [f"{e} m" for e in rng.integers(0, 300, n)],
                       "Personal Record": np.where(pr, "Yes", "")})
    df.to_csv(HERE / "activity_log_paces.csv", index=False)


def census_income_topcoded() -> None:
    """Kaggle's adult.csv (the UCI census income extract): dotted names, "?" for missing,
    and capital.gain top-coded at 99999 ("99,999 or more"), far above every other gain.
    Planted: >50K for every top-coded gain, for gains over 7,000, and for long hours with a
    degree (education.num >= 13), 5 % flipped."""
    rng = np.random.default_rng(SEED + 83)
    n = 700
    age = rng.integers(17, 90, n)
    edu = rng.integers(3, 17, n)
    hours = rng.integers(10, 80, n)
    gain = np.where(rng.random(n) < 0.85, 0, rng.integers(114, 15_025, n))
    top = rng.random(n) < 0.05
    gain[top] = 99999
    rich = (top | (gain > 7000) | ((edu >= 13) & (hours >= 45))) ^ (rng.random(n) < 0.05)
    df = pd.DataFrame({
        "age": age,
        "workclass": np.where(rng.random(n) < 0.06, "?",
                              rng.choice(["Private", "Self-emp-not-inc", "Local-gov"], n)),
        "fnlwgt": rng.integers(12_285, 1_484_705, n),
        "education.num": edu,
        "sex": rng.choice(["Male", "Female"], n),
        "capital.gain": gain,
        "capital.loss": np.where(rng.random(n) < 0.95, 0, rng.integers(155, 4_356, n)),
        "hours.per.week": hours,
        "income": np.where(rich, ">50K", "<=50K")})
    df.to_csv(HERE / "census_income_topcoded.csv", index=False)


def hospital_spells() -> None:
    """An NHS-style spell extract: each ICD-10 code beside its description, the follow-up
    booked as Y/N and again as a 1/0 flag (a second system's copy), dd/mm/yyyy dates.
    Planted: readmitted within 30 days after COPD or heart failure without a follow-up
    booked, or with a Charlson index of 5 or more; 5 % flipped."""
    rng = np.random.default_rng(SEED + 89)
    n = 600
    names = {"J44.1": "COPD with acute exacerbation", "I50.9": "Heart failure, unspecified",
             "S72.00": "Fracture of neck of femur", "K80.20": "Calculus of gallbladder",
             "N39.0": "Urinary tract infection", "J18.9": "Pneumonia, unspecified"}
    code = rng.choice(list(names), n, p=[0.2, 0.15, 0.15, 0.15, 0.2, 0.15])
    booked = rng.choice(["Y", "N"], n, p=[0.6, 0.4])
    charlson = rng.integers(0, 8, n)
    back = ((np.isin(code, ["J44.1", "I50.9"]) & (booked == "N")) | (charlson >= 6)) \
        ^ (rng.random(n) < 0.05)
    admitted = pd.Timestamp("2022-04-01") + pd.to_timedelta(rng.integers(0, 700, n), "D")
    df = pd.DataFrame({
        "Spell ID": 4_100_000 + rng.permutation(n) * 7,
        "Admission Date": admitted.strftime("%d/%m/%Y"),
        "Age at Admission": rng.integers(18, 98, n),
        "Sex": rng.choice([1, 2], n),
        "Primary Diagnosis (ICD-10)": code,
        "Primary Diagnosis Description": [names[c] for c in code],
        "Follow-up Appt Booked": booked,
        "FU_FLAG": np.where(booked == "Y", 1, 0),
        "Charlson Index": charlson,
        "Readmitted within 30 days": np.where(back, "Y", "N")})
    df.to_csv(HERE / "hospital_spells_icd_codes.csv", index=False)


def cdc_wonder() -> None:
    """CDC WONDER's tab-separated export of county death rates by year: a 'Notes' column
    that says 'Total' on each county's and each state's total row (its sums filled in),
    'Suppressed' and 'Unreliable' among the deaths and rates, codes beside each name, and
    the query and caveats under a '---' line.  Planted: the crude rate is high in the rural
    counties of two states; the analyst asks for 'Crude Rate > 30'."""
    rng = np.random.default_rng(SEED + 97)
    states = {"West Virginia": 54, "Kentucky": 21, "Iowa": 19, "Oregon": 41}
    abbr = {"West Virginia": "WV", "Kentucky": "KY", "Iowa": "IA", "Oregon": "OR"}
    urban = ["Large Central Metro", "Large Fringe Metro", "Medium Metro", "Small Metro",
             "Micropolitan (Nonmetro)", "NonCore (Nonmetro)"]
    q = '"'
    lines = ["\t".join(f"{q}{c}{q}" for c in (
        "Notes", "State", "State Code", "County", "County Code", "Year", "Year Code",
        "2013 Urbanization", "2013 Urbanization Code", "Deaths", "Population", "Crude Rate"))]
    for state, code in states.items():
        state_deaths = state_pop = 0
        for c in range(15):
            u = int(rng.integers(1, 7))
            county, fips = f"County {chr(65 + c)}, {abbr[state]}", f"{code}{2 * c + 1:03d}"
            deaths_sum = pop_sum = 0
            for year in range(2018, 2022):
                pop = int(rng.integers(6_000, 250_000))
                rate = max(1.0, rng.normal(18 + (14 if u >= 5 and code in (54, 21) else 0), 4))
                deaths = int(round(rate * pop / 100_000))
                deaths_sum, pop_sum = deaths_sum + deaths, pop_sum + pop
                shown_d = f"{q}Suppressed{q}" if deaths < 10 else str(deaths)
                shown_r = (f"{q}Suppressed{q}" if deaths < 10 else
                           f"{q}Unreliable{q}" if deaths <= 20 else f"{deaths / pop * 1e5:.1f}")
                lines.append("\t".join(["", f"{q}{state}{q}", f"{q}{code}{q}", f"{q}{county}{q}",
                                        f"{q}{fips}{q}", f"{q}{year}{q}", f"{q}{year}{q}",
                                        f"{q}{urban[u - 1]}{q}", f"{q}{u}{q}", shown_d, str(pop),
                                        shown_r]))
            lines.append("\t".join([f"{q}Total{q}", f"{q}{state}{q}", f"{q}{code}{q}",
                                    f"{q}{county}{q}", f"{q}{fips}{q}", "", "", "", "",
                                    str(deaths_sum), str(pop_sum),
                                    f"{deaths_sum / pop_sum * 1e5:.1f}"]))
            state_deaths, state_pop = state_deaths + deaths_sum, state_pop + pop_sum
        lines.append("\t".join([f"{q}Total{q}", f"{q}{state}{q}", f"{q}{code}{q}"] + [""] * 6
                                + [str(state_deaths), str(state_pop),
                                   f"{state_deaths / state_pop * 1e5:.1f}"]))
    lines += [f"{q}---{q}", f"{q}Dataset: Multiple Cause of Death, 2018-2021, Single Race{q}",
              f"{q}Query Parameters:{q}", f"{q}Group By: State; County; Year{q}",
              f"{q}---{q}", f"{q}Help: See http://wonder.cdc.gov/wonder/help/mcd.html.{q}",
              f"{q}---{q}", f"{q}Caveats:{q}",
              f"{q}1. Data are Suppressed when the data meet the criteria for confidentiality "
              f"constraints.{q}",
              f"{q}2. Death rates are flagged as Unreliable when the rate is calculated with a "
              f"numerator of 20 or less.{q}", f"{q}---{q}"]
    (HERE / "cdc_wonder_county_rates.txt").write_text("\r\n".join(lines) + "\r\n")


def kobo_wash_survey() -> None:
    """A KoboToolbox household survey as its CSV export writes it (';'-separated, group
    prefixes 'group_hh/...'): a select_multiple question written twice, its answers joined
    by spaces ('boil filter') and a 0/1 column per option ('group_water/q5/boil'), a
    follow-up asked only where diarrhoea was reported ('ors_given', blank elsewhere), the
    tool's own columns after the questions (_id, _uuid, _submission_time, _index).
    Planted: diarrhoea where the water is from a surface source and not treated."""
    rng = np.random.default_rng(SEED + 101)
    n = 500
    source = rng.choice(["piped", "borehole", "protected_well", "surface_water"], n,
                        p=[0.35, 0.25, 0.2, 0.2])
    opts = ["boil", "filter", "chlorine"]
    ticks = rng.random((n, 3)) < 0.3
    none = ~ticks.any(axis=1)
    sick = np.where(rng.random(n) < 0.07, ~((source == "surface_water") & none),
                    (source == "surface_water") & none)
    start = pd.Timestamp("2023-06-05 08:00") + pd.to_timedelta(rng.integers(0, 40 * 24, n),
                                                              unit="h")
    rows = []
    for i in range(n):
        chosen = [o for o, t in zip(opts, ticks[i]) if t] or ["none"]
        rows.append({
            "start": start[i].strftime("%Y-%m-%dT%H:%M:%S.000+03:00"),
            "group_hh/hh_size": int(rng.integers(1, 10)),
            "group_hh/head_gender": rng.choice(["male", "female"]),
            "group_water/water_source": source[i],
            "group_water/q5": " ".join(chosen),
            **{f"group_water/q5/{o}": int(o in chosen) for o in [*opts, "none"]},
            "group_water/minutes_to_water": int(rng.integers(1, 60)),
            "group_health/diarrhea_2wk": "yes" if sick[i] else "no",
            "group_health/ors_given": rng.choice(["yes", "no"]) if sick[i] else "",
            "_id": 41_000_000 + i,
            "_uuid": f"{rng.integers(16**8):08x}-{rng.integers(16**4):04x}-4{i:03x}-a"
                     f"{rng.integers(16**3):03x}-{rng.integers(16**12):012x}",
            "_submission_time": (start[i] + pd.Timedelta(hours=2)).strftime(
                "%Y-%m-%dT%H:%M:%S"),
            "_index": i + 1})
    pd.DataFrame(rows).to_csv(HERE / "kobo_wash_survey.csv", sep=";", index=False)


def main() -> None:
    for make in (credit_r, churn_db, survey, fish_market, hours_worked, trial_missing_target,
                 sorted_by_label, complaints_leak, european_spreadsheet, hand_typed_spreadsheet,
                 r_write_table, r_write_table_spaces, erp_export, lab_values,
                 stats_package_codes, clinic_units, grouped_header, clinic_visits,
                 satisfaction_survey, diabetes_screening, crm_workbook, postgres_export,
                 sap_receivables, renewals_typed_yn, experience_approx, google_forms,
                 hr_attrition_sqlserver, safety_checklist, surgery_r_na,
                 engagement_survey, card_transactions, frequency_table, labs_long,
                 excel_unicode_text, collections_eur_signs, debitoren_chf,
                 postgres_tickets, mysql_subscriptions, bigquery_sessions, mongodb_accounts,
                 redcap_longitudinal, oracle_sqlplus_spool, pandas_printed_frame,
                 mainframe_fixed_width, legacy_xls, spss_survey, sas_transport, ods_sheet,
                 web_portal_export, excel_2003_xml, qc_defect_counts, brfss_extract,
                 pharmacy_returns, servicedesk_intervals, machine_daily_log,
                 lab_limits_unnumbered, crm_opportunities, weather_type_flags,
                 property_listings, field_trial, activity_log, census_income_topcoded,
                 hospital_spells, cdc_wonder, kobo_wash_survey, prose):
        make()
    for p in sorted(p for p in HERE.iterdir() if p.suffix != ".py"):
        print(f"{p.name}: {p.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
