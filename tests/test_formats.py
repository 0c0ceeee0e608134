"""Tables that are not CSV text (rulecore.formats): Excel workbooks, Parquet, Feather and
Stata files, and CSV inside .gz / .zip, each read to the same decisions a CSV of the same
table gets; formats we do not open are refused with how to export them."""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import zipfile

import numpy as np
import openpyxl
import pandas as pd
import pytest

from rulecore.cli import main as cli_main
from rulecore.data import load_csv, read_csv_frame, sheet_names
from rulecore.exceptions import DataError
from rulecore.formats import sniff_format


def table(n: int = 300, seed: int = 0) -> pd.DataFrame:
    """Typed columns of every kind a database export has; planted: churned when tenure < 12
    and charges > 70."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "customer_id": [f"C{i:05d}" for i in range(n)],
        "signup": pd.Timestamp("2023-01-01 00:00") + pd.to_timedelta(
            rng.integers(0, 600, n), unit="D") + pd.to_timedelta(rng.integers(0, 86400, n),
                                                                  unit="s"),
        "tenure": rng.integers(1, 72, n),
        "charges": rng.uniform(20, 120, n).round(2),
        "paperless": rng.random(n) < 0.5,
        "plan": rng.choice(["basic", "plus", "pro"], n),
        "visits": np.where(rng.random(n) < 0.1, np.nan, rng.integers(0, 20, n)),
    })
    df["churned"] = np.where(((df.tenure < 12) & (df.charges > 70)) ^ (rng.random(n) < 0.05),
                             "yes", "no")
    return df


def csv_bytes(df: pd.DataFrame) -> bytes:
    out = df.copy()
    out["paperless"] = out["paperless"].map({True: "TRUE", False: "FALSE"})
    return out.to_csv(index=False).encode()


def same_decisions(a, b) -> None:
    assert (a.target, a.positive, a.n_samples) == (b.target, b.positive, b.n_samples)
    assert [(r.column, r.role, r.included) for r in a.roles] == \
        [(r.column, r.role, r.included) for r in b.roles]
    pd.testing.assert_frame_equal(a.X.reset_index(drop=True), b.X.reset_index(drop=True),
                                  check_dtype=False, check_categorical=False)
    assert list(a.y) == list(b.y)


def workbook(sheets: dict[str, list[list]], hidden: tuple[str, ...] = ()) -> bytes:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(row)
        if title in hidden:
            ws.sheet_state = "hidden"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def rows_of(df: pd.DataFrame) -> list[list]:
    """A frame as a sheet's rows: header, then typed cells (None where missing)."""
    body = df.astype(object).where(df.notna(), None).values.tolist()
    for row in body:  # Excel cells hold datetimes and Python numbers, not numpy scalars
        for j, v in enumerate(row):
            if isinstance(v, pd.Timestamp):
                row[j] = v.to_pydatetime()
            elif isinstance(v, np.generic):
                row[j] = v.item()
    return [list(df.columns)] + body


def test_a_sheet_reads_like_the_csv_of_the_same_table():
    df = table()
    want = load_csv(io.BytesIO(csv_bytes(df)), name="t.csv")
    got = load_csv(io.BytesIO(workbook({"Data": rows_of(df)})), name="t.xlsx")
    same_decisions(got, want)
    assert got.target == "churned" and got.positive == "yes"
    assert {r.column: r.role for r in got.roles}["customer_id"] == "id"
    assert "signup (hour)" in got.X.columns  # typed datetimes arrive as timestamps


def test_the_largest_sheet_is_read_under_its_title_and_above_its_total():
    df = table(200)
    deals = [["Pipeline export"], ["Exported 2024-10-01"], []] + rows_of(df) + [
        ["Total", None, None, "=SUM(D5:D204)"]]
    data = workbook({"Read me": [["Amounts in USD."], ["Ask sales ops."]], "Deals": deals,
                     "Codes": [["code", "meaning"], ["basic", "the cheapest plan"]]})
    assert sniff_format(data) == "xlsx"
    assert sheet_names(io.BytesIO(data)) == ["Read me", "Deals", "Codes"]
    frame, _ = read_csv_frame(io.BytesIO(data), name="w.xlsx")
    assert frame.attrs["sheet"] == "Deals" and len(frame) == 200
    notes = " ".join(frame.attrs["notes"])
    assert "Read sheet 'Deals', the largest of its 3 sheets (the others: 'Read me', 'Codes')" \
        in notes
    assert "Skipped 2 lines above the header" in notes and "'Total'" in notes
    same_decisions(load_csv(io.BytesIO(data), name="w.xlsx"),
                   load_csv(io.BytesIO(csv_bytes(df)), name="w.csv"))
    # another sheet on request; a sheet that is not there is named with those that are
    codes = load_csv(io.BytesIO(workbook({"Deals": deals, "Codes": rows_of(df.iloc[:60])})),
                     name="w.xlsx", sheet="Codes")
    assert codes.n_samples == 60
    with pytest.raises(DataError, match="has no sheet 'Sales'; its sheets are 'Read me', "
                                        "'Deals', 'Codes'"):
        read_csv_frame(io.BytesIO(data), name="w.xlsx", sheet="Sales")
    with pytest.raises(DataError, match="not a spreadsheet workbook, so it has no sheet"):
        read_csv_frame(io.BytesIO(csv_bytes(df)), name="t.csv", sheet="Deals")


def test_hidden_sheets_and_empty_sheets():
    df = table(80)
    data = workbook({"calc": rows_of(table(400)), "Data": rows_of(df)}, hidden=("calc",))
    assert sheet_names(io.BytesIO(data)) == ["Data"]
    assert read_csv_frame(io.BytesIO(data), name="h.xlsx")[0].attrs["sheet"] == "Data"
    empty = workbook({"Data": rows_of(df), "Blank": []})
    with pytest.raises(DataError, match="Sheet 'Blank' of e.xlsx is empty. Its other sheets: "
                                        "'Data'"):
        read_csv_frame(io.BytesIO(empty), name="e.xlsx", sheet="Blank")


def test_cells_read_as_excel_shows_them():
    rows = [["when", "at", "took", "ratio", "flag", "y"]]
    for i in range(40):
        rows.append([dt.datetime(2024, 3, 1 + i % 28), dt.time(8 + i % 9, 30),
                     dt.timedelta(minutes=5 + i), 0.1 + 0.2 + i, i % 3 == 0,
                     "a" if i % 2 else "b"])
    frame, _ = read_csv_frame(io.BytesIO(workbook({"S": rows})), name="c.xlsx")
    first = frame.iloc[0]
    assert first["when"] == "2024-03-01"          # a date without its midnight
    assert first["at"] == "08:30:00"
    assert first["took"] == "00:05:00"
    assert first["ratio"] == "0.3"                # 15 significant digits, as Excel shows
    assert first["flag"] == "TRUE" and frame["flag"].iloc[1] == "FALSE"


def test_a_column_without_a_name_and_a_ragged_title():
    """Rows are written without their trailing empty cells, so a title in A1 is a line
    above the table; a column with values but no header name still gets read."""
    rows = [["Report on widgets, all plants, 2024"], ["a", "b", "y"]]
    for i in range(30):
        rows.append([i, i % 7, "p" if i % 3 else "q", "note" if i % 5 == 0 else None])
    frame, _ = read_csv_frame(io.BytesIO(workbook({"S": rows})), name="r.xlsx")
    assert list(frame.columns) == ["a", "b", "y", "column 4"]
    assert len(frame) == 30 and frame["column 4"].notna().sum() == 6


def test_a_stray_cell_far_below_the_table_ends_it():
    rows = [["a", "y"]] + [[i, i % 2] for i in range(20)] + [[None]] * 1500 + [["stray"]]
    frame, _ = read_csv_frame(io.BytesIO(workbook({"S": rows})), name="s.xlsx")
    assert len(frame) == 20


def test_workbook_limits_and_damage():
    rows = [["a", "y"]] + [[i, i % 2] for i in range(60)]
    with pytest.raises(DataError, match="more than 40 rows"):
        read_csv_frame(io.BytesIO(workbook({"S": rows})), name="big.xlsx", max_rows=40)
    with pytest.raises(DataError, match="has 3 columns; the limit is 2"):
        read_csv_frame(io.BytesIO(workbook({"S": [["a", "b", "y"], [1, 2, 3]]})),
                       name="wide.xlsx", max_columns=2)
    broken = bytearray(workbook({"S": rows}))
    broken[200:400] = b"\0" * 200
    with pytest.raises(DataError, match="could not be opened as an Excel workbook"):
        read_csv_frame(io.BytesIO(bytes(broken)), name="broken.xlsx")


@pytest.mark.parametrize("fmt", ["parquet", "feather", "stata"])
def test_typed_files_read_like_the_csv_of_the_same_table(tmp_path, fmt):
    df = table(250, seed=3)
    path = tmp_path / f"t.{fmt}"
    if fmt == "parquet":
        typed = df.set_index("customer_id")  # a named index is a column of the table
        typed["signup"] = typed["signup"].dt.tz_localize("UTC")
        typed["visits"] = typed["visits"].astype("Int64")
        typed["plan"] = typed["plan"].astype("category")
        typed.to_parquet(path)
    elif fmt == "feather":
        df.to_feather(path)
    else:  # Stata: value labels for the plan, flags as 0/1 bytes
        st = df.copy()
        st["paperless"] = st["paperless"].map({True: "TRUE", False: "FALSE"})
        st["plan"] = st["plan"].astype("category")
        st.to_stata(path, write_index=False)
    assert sniff_format(path.read_bytes()) == fmt
    got = load_csv(path)
    same_decisions(got, load_csv(io.BytesIO(csv_bytes(df)), name="t.csv"))
    if fmt == "stata":
        # the rules compare the labels while the file stores the codes: an export says so
        # (its SQL selected nothing on the coded table; a newcomer's review)
        said = got.notes_for(["plan"])
        assert len(said) == 1 and said[0].startswith("'plan': Stata value labels are read as "
                                                      "their text (0 = ")
        # no value labels on visits: only how its missing cells were read
        visits = got.notes_for(["visits"])
        assert len(visits) == 1 and "cells are missing values" in visits[0]


def test_stata_variable_labels_are_said(tmp_path):
    """A review: 'Highest education completed' (the label of educ) was shown nowhere."""
    df = table(120, seed=4)
    path = tmp_path / "s.dta"
    df.drop(columns=["paperless"]).to_stata(
        path, write_index=False, variable_labels={"plan": "Price plan chosen at signup",
                                                  "visits": "visits"})  # its own name: no news
    got = load_csv(path)
    said = [n for n in got.notes if n.startswith("Stata variable labels")]
    assert said == ["Stata variable labels (what each column means): 'plan': Price plan "
                    "chosen at signup."]


def test_compressed_and_zipped_tables():
    df = table(150)
    want = load_csv(io.BytesIO(csv_bytes(df)), name="t.csv")
    gz = load_csv(io.BytesIO(gzip.compress(csv_bytes(df))), name="t.csv.gz")
    same_decisions(gz, want)
    assert "t.csv.gz is gzip-compressed" in gz.notes[0]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("__MACOSX/._t.csv", b"\0\5\26\7")
        z.writestr("export/t.csv", csv_bytes(df))
    zipped = load_csv(io.BytesIO(buf.getvalue()), name="t.zip")
    same_decisions(zipped, want)
    assert "read 'export/t.csv' in it" in zipped.notes[0]
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as z:
        z.writestr("a.csv", csv_bytes(df))
        z.writestr("b.csv", csv_bytes(df))
    with pytest.raises(DataError, match=r"a ZIP archive of 2 files \(a.csv, b.csv\)"):
        load_csv(io.BytesIO(two.getvalue()), name="two.zip")
    with pytest.raises(DataError, match="unpacks to more than"):
        load_csv(io.BytesIO(gzip.compress(b"a,b\n" + b"1,2\n" * 5000)), name="big.gz",
                 max_bytes=10_000)


def _zip_with(names: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, content in names.items():
            z.writestr(n, content)
    return buf.getvalue()


@pytest.mark.parametrize("data, says", [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600,
     "could not be opened as an Excel 97-2003 workbook .*If it has a password"),
    (_zip_with({"mimetype": b"application/vnd.oasis.opendocument.spreadsheet",
                "content.xml": b"<x/>"}), "could not be opened as an OpenDocument spreadsheet"),
    (_zip_with({"xl/workbook.bin": b"\0"}), "could not be opened as an Excel binary workbook"),
    (b"$FL2@(#) IBM SPSS STATISTICS" + b"\0" * 300, "could not be read as an SPSS data file"),
    (b"\0" * 12 + b"\xc2\xea\x81\x60\xb3\x14\x11\xcf\xbd\x92\x08\x00\x09\xc7\x31\x8c\x18\x1f"
     b"\x10\x11" + b"\0" * 300, "could not be read as a SAS data set"),
    (b"HEADER RECORD*******LIBRARY HEADER RECORD!!!!!!!000000000000000000000000000000  ",
     "could not be read as a SAS data set"),
    (b'<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n<Workbook>'
     b"<Worksheet><Table>", "could not be opened as an Excel 2003 XML spreadsheet"),
])
def test_damaged_workbooks_and_stats_files_are_refused_in_words(data, says):
    """.xls, .xlsb, .ods, SPSS and SAS files are read (python-calamine, pyreadstat); a
    damaged one is a DataError naming the format, never the library's traceback."""
    with pytest.raises(DataError, match=f"^f.bin {says}"):
        load_csv(io.BytesIO(data), name="f.bin")


@pytest.mark.parametrize("data, says", [
    (_zip_with({"Index/Document.iwa": b"\0"}), "Apple Numbers document"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "a PDF document, not a table"),
])
def test_formats_we_do_not_open_say_how_to_export_them(data, says):
    with pytest.raises(DataError, match=f"^f.bin is .*{says.replace('(', '.').replace(')', '.')}"):
        load_csv(io.BytesIO(data), name="f.bin")


def test_command_line_reads_a_workbook_sheet(tmp_path, capsys):
    df = table(200, seed=5)
    path = tmp_path / "deals.xlsx"
    path.write_bytes(workbook({"Notes": [["read me"]], "Data": rows_of(df),
                               "Other": rows_of(df.iloc[:50])}))
    assert cli_main(["learn", str(path), "--time-limit", "10"]) == 0
    out = capsys.readouterr().out
    assert "200 rows; predicting churned = yes" in out and "Read sheet 'Data'" in out
    assert cli_main(["learn", str(path), "--sheet", "Other", "--time-limit", "10"]) == 0
    assert "50 rows; predicting churned" in capsys.readouterr().out
    assert cli_main(["learn", str(path), "--sheet", "Nope"]) != 0
    assert "has no sheet 'Nope'" in capsys.readouterr().err


def test_typed_cells_of_every_kind_become_what_a_csv_would_hold(tmp_path):
    """Parquet's dates (date32), decimals, durations, nullable integers and booleans with a
    missing value, as text cells or numbers the reader parses."""
    from decimal import Decimal

    n = 40
    df = pd.DataFrame({
        "day": [dt.date(2024, 1, 1) + dt.timedelta(days=i) for i in range(n)],
        "price": [Decimal(f"{10 + i}.50") for i in range(n)],
        "wait": pd.to_timedelta(np.arange(n) * 90, unit="s"),
        "visits": pd.array([None if i % 7 == 0 else i for i in range(n)], dtype="Int64"),
        "member": pd.array([None if i % 9 == 0 else i % 2 == 0 for i in range(n)],
                           dtype="boolean"),
        "y": ["a", "b"] * (n // 2)})
    path = tmp_path / "kinds.parquet"
    df.to_parquet(path)
    frame, _ = read_csv_frame(path)
    assert frame.loc[0, "day"] == "2024-01-01" and frame.loc[1, "price"] == "11.50"
    assert frame.loc[1, "wait (minutes)"] == 1.5  # 90 s, in the unit of the typical wait
    assert frame["visits"].dtype == float and np.isnan(frame.loc[0, "visits"])
    assert frame.loc[1, "member"] == "FALSE" and pd.isna(frame.loc[0, "member"])
    ds = load_csv(path)
    assert ds.kinds["price"] == "numeric" and ds.X["price"].iloc[1] == 11.5


def test_a_pivot_sheet_wider_than_the_records_is_not_the_default():
    """Read by cells, a 60 x 52 pivot of totals beat the 400-row data sheet; the sheet with
    the most rows is the records.  Refusals on a sheet say which sheet was read."""
    rows_pivot = [["region"] + [f"W{i}" for i in range(1, 53)]] + [
        [f"r{i}"] + [float(j * i) + 0.5 for j in range(52)] for i in range(60)]
    df = table(400)
    data = workbook({"Pivot": rows_pivot, "data": rows_of(df), "chart": [["x", "y"], [1, 2]]})
    frame, _ = read_csv_frame(io.BytesIO(data), name="p.xlsx")
    assert frame.attrs["sheet"] == "data"
    assert "Read sheet 'data', the largest of its 3 sheets" in frame.attrs["notes"][0]
    # a longer lookup list of two columns is not the records either (a newcomer's review)
    codes = [["code", "region"]] + [[f"C{i}", f"R{i % 7}"] for i in range(600)]
    looked_up = workbook({"README": [["about this file"]], "data": rows_of(df),
                          "Lookup": codes})
    assert read_csv_frame(io.BytesIO(looked_up), name="l.xlsx")[0].attrs["sheet"] == "data"
    with pytest.raises(DataError, match=r"\(Read sheet 'Pivot' of the workbook; its other "
                                        r"sheets: 'data', 'chart'\. Choose another with the "
                                        r"Sheet selector or --sheet\.\)$"):
        load_csv(io.BytesIO(data), name="p.xlsx", sheet="Pivot")


def test_a_larger_readme_or_changelog_sheet_gives_way_to_the_table():
    """A 400-row changelog on 'README' was read before the 150 claims on 'Claims', and the
    rule was on the changelog's dates (a stranger's workbook): a sheet named as
    documentation comes last, and a note says why the larger one was not read."""
    log = [["Date", "Status", "Change"]] + [
        [f"2024-01-{1 + i % 28:02d}", ["reviewed", "merged"][i % 2], f"edit {i}"]
        for i in range(800)]
    for name in ("README", "Change log", "Notes"):
        data = workbook({name: log, "Claims": rows_of(table(150))})
        frame, _ = read_csv_frame(io.BytesIO(data), name="c.xlsx")
        assert frame.attrs["sheet"] == "Claims"
        assert f"Sheet {name!r} is larger, but its name says it documents the workbook" in \
            frame.attrs["notes"][0]
    # beside no other table (an empty sheet, a one-line summary), a table on 'Notes' is read
    # (a review: the empty 'Sheet2' was read and refused)
    for others in ({"Sheet2": [[]]}, {"Summary": [["total", 12]]}):
        data = workbook({"Notes": log, **others})
        assert read_csv_frame(io.BytesIO(data), name="n.xlsx")[0].attrs["sheet"] == "Notes"
    # asked for, it is read
    data = workbook({"README": log, "Claims": rows_of(table(150))})
    assert read_csv_frame(io.BytesIO(data), name="c.xlsx", sheet="README")[0].attrs[
        "sheet"] == "README"


def test_formulas_without_saved_results_are_refused_with_what_to_do():
    """openpyxl writes formulas without their results: a target of formulas read as empty
    and was refused as "empty", with no reason the user could see in Excel."""
    rows = [["hours", "score", "passed"]] + [
        [i % 12, 40 + i % 60, f'=IF(AND(A{i + 2}>8,B{i + 2}>70),"yes","no")'] for i in range(50)]
    with pytest.raises(DataError, match=r"holds formulas whose results were never saved "
                                        r"\(cell C2: =IF\(AND\(A2>8,B2>70\)"):
        read_csv_frame(io.BytesIO(workbook({"scores": rows})), name="f.xlsx")


def test_merged_group_titles_over_a_second_header_row_in_a_workbook():
    """'Blood pressure' merged over Systolic / Diastolic, 'Patient' and 'Outcome' named in
    the first row only: the features were 'Blood pressure', 'column 3', 'Lipids', 'column 5'
    and the rule read 'column 5 <= 46.5' (HDL)."""
    rng = np.random.default_rng(0)
    rows = [["Patient", "Blood pressure", None, "Lipids", None, "Outcome"],
            [None, "Systolic", "Diastolic", "Total", "HDL", None]]
    for i in range(200):
        rows.append([f"P{i:04d}", int(rng.integers(90, 170)), int(rng.integers(60, 110)),
                     int(rng.integers(140, 260)), int(rng.integers(30, 80)),
                     "Event" if rng.random() < 0.2 else "No event"])
    frame, _ = read_csv_frame(io.BytesIO(workbook({"S": rows})), name="bp.xlsx")
    assert list(frame.columns) == ["Patient", "Systolic", "Diastolic", "Total", "HDL",
                                   "Outcome"]
    assert len(frame) == 200 and "Two header rows" in " ".join(frame.attrs["notes"])
    # a name given under two groups is prefixed with its group
    rows[0][1:5] = ["Cholesterol", None, "Lipids", None]
    rows[1][1:5] = ["Total", "HDL", "Total", "LDL"]
    frame, _ = read_csv_frame(io.BytesIO(workbook({"S": rows})), name="bp.xlsx")
    assert list(frame.columns) == ["Patient", "Cholesterol Total", "HDL", "Lipids Total",
                                   "LDL", "Outcome"]


def test_json_lines_and_a_json_array_read_like_the_csv_of_the_same_table():
    """JSON Lines read as CSV made the first record the header: the target was
    '"converted": true}' and the score an identifier (a review)."""
    df = table()
    want = load_csv(io.BytesIO(csv_bytes(df)), name="t.csv")
    records = df.assign(signup=df["signup"].dt.strftime("%Y-%m-%d %H:%M:%S"))
    records = records.astype(object).where(records.notna(), None).to_dict("records")
    records = [{k: (v.item() if isinstance(v, np.generic) else v) for k, v in r.items()}
               for r in records]
    lines = "\n".join(json.dumps(r) for r in records).encode()
    pretty = "\n".join(json.dumps(r, indent=2) for r in records).encode()
    wrapped = json.dumps({"count": len(records), "data": records}, indent=1).encode()
    for data, name in ((lines, "t.jsonl"), (json.dumps(records, indent=1).encode(), "t.json"),
                       (b"\xef\xbb\xbf" + lines + b"\n\n", "export.txt"),
                       (pretty, "pretty.jsonl"), (wrapped, "api.json")):
        got = load_csv(io.BytesIO(data), name=name)
        same_decisions(got, want)
        assert got.target == "churned" and "paperless" in got.X


def test_mongodb_extended_json_reads_like_the_plain_json_of_the_same_table():
    """mongoexport wraps ids, dates and (in canonical mode) every number: read as written,
    ``_id.$oid`` and ``createdAt.$date`` were column names, and canonical mode's numbers
    columns such as ``tenure.$numberInt``, so no rule could say ``tenure < 12``."""
    df = table()
    plain = []
    for r in df.astype(object).where(df.notna(), None).to_dict("records"):
        r = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in r.items()}
        r["signup"] = r["signup"].strftime("%Y-%m-%dT%H:%M:%S")
        plain.append({"_id": f"65a1{r.pop('customer_id')[1:]:0>20}", **r})

    def relaxed(r: dict) -> dict:
        return {**r, "_id": {"$oid": r["_id"]}, "signup": {"$date": r["signup"] + "Z"}}

    def canonical(r: dict) -> dict:
        def wrap(v):
            if isinstance(v, bool) or v is None or isinstance(v, str):
                return v
            return {"$numberInt": str(v)} if isinstance(v, int) else {"$numberDouble": str(v)}
        ms = int(pd.Timestamp(r["signup"]).value // 10**6)
        return {**{k: wrap(v) for k, v in r.items()}, "_id": {"$oid": r["_id"]},
                "signup": {"$date": {"$numberLong": str(ms)}}}

    def lines(records: list[dict]) -> bytes:
        return "\n".join(json.dumps(r) for r in records).encode()

    want = load_csv(io.BytesIO(lines(plain)), name="plain.jsonl")
    assert want.target == "churned" and "tenure" in want.X
    for mode in (relaxed, canonical):
        got = load_csv(io.BytesIO(lines([mode(r) for r in plain])), name="export.json")
        same_decisions(got, want)
        assert any(n.startswith("Read as MongoDB Extended JSON: ") for n in got.notes)
    # a key of the data's own that starts with $ is no wrapper, and nor is a wrapper beside
    # other keys
    odd = [{**r, "price": {"$": r["charges"]}, "meta": {"$oid": "x", "n": 1}} for r in plain]
    got = load_csv(io.BytesIO(lines(odd)), name="odd.jsonl")
    assert {"price.$", "meta.$oid"} <= set(got.X.columns) | {r.column for r in got.roles}
    assert not any("Extended JSON" in n for n in got.notes)


def test_nested_json_is_flattened_and_bad_json_is_a_clear_error():
    rows = [{"id": i, "user": {"age": 20 + i % 50, "plan": "pro" if i % 3 else "basic"},
             "tags": ["a", "b"][: i % 3], "bought": "yes" if i % 50 > 30 else "no"}
            for i in range(120)]
    ds = load_csv(io.BytesIO("\n".join(json.dumps(r) for r in rows).encode()), name="e.jsonl")
    assert {"user.age", "user.plan"} <= set(ds.X.columns) and ds.target == "bought"
    with pytest.raises(DataError, match="line 3 could not be read"):
        load_csv(io.BytesIO(b'{"a": 1, "b": 2}\n{"a": 2, "b": 3}\n{"a": 3, "b"\n'), name="x.jsonl")
    with pytest.raises(DataError, match="not a list of records"):
        load_csv(io.BytesIO(b'[{"a": 1, "b": 2}, 3]'), name="x.json")


@pytest.mark.parametrize("fmt", ["parquet", "feather", "stata"])
def test_an_ordered_category_keeps_its_order_but_stata_labels_do_not(tmp_path, fmt):
    """Parquet and Feather keep pandas' (or R's) ordered categories: the rule says
    'educ <= Secondary' where, read as text, it took two != conditions (a review). Stata's
    value labels come ordered by their codes, which need not be an order: text."""
    rng = np.random.default_rng(0)
    n = 400
    levels = ["Primary", "Secondary", "Bachelor's degree", "Postgraduate"]
    educ = rng.integers(0, 4, n)
    df = pd.DataFrame({"educ": pd.Categorical.from_codes(educ, levels, ordered=True),
                       "age": rng.integers(18, 90, n),
                       "left": np.where((educ <= 1) & (rng.random(n) < 0.9), "yes", "no")})
    path = tmp_path / f"t.{fmt}"
    {"parquet": df.to_parquet, "feather": df.to_feather,
     "stata": lambda p: df.to_stata(p, write_index=False)}[fmt](path)
    ds = load_csv(path)
    if fmt == "stata":
        assert ds.kinds["educ"] == "categorical"
        return
    assert ds.kinds["educ"] == "ordinal" and list(ds.X["educ"].cat.categories) == levels
    assert any(n.startswith("'educ': read as an ordered scale (Primary < Secondary < "
                            "Bachelor's degree < Postgraduate)") for n in ds.notes)
    from rulecore import BooleanRuleClassifier

    rule = BooleanRuleClassifier(lam=2.0, kinds=ds.kinds).fit(ds.X, ds.y_binary).rule_
    assert [str(c) for c in rule.conditions] == ["educ <= Secondary"]
    assert ds.with_kinds({"educ": "categorical"}).kinds["educ"] == "categorical"


def lookup_workbook() -> bytes:
    """Orders (400 × 5) beside a longer lookup list of product codes (900 × 3): the lookup
    is the largest sheet, and holds no table to learn from."""
    rng = np.random.default_rng(0)
    price = rng.uniform(10, 500, 400).round(2)
    orders = pd.DataFrame({"sku": [f"SKU{i:04d}" for i in rng.integers(0, 900, 400)],
                           "list_price": price, "discount_pct": rng.integers(0, 50, 400),
                           "region": rng.choice(["EMEA", "APAC", "AMER"], 400),
                           "returned": np.where(price > 300, "Returned", "Kept")})
    lookup = pd.DataFrame({"sku": [f"SKU{i:04d}" for i in range(900)],
                           "description": [f"Widget model {i}" for i in range(900)],
                           "category": rng.choice(["Garden", "Kitchen"], 900)})
    return workbook({"Summary": [["Region", "Orders"], ["EMEA", 130], ["APAC", 140]],
                     "Orders": rows_of(orders), "SKU lookup": rows_of(lookup)})


def test_a_largest_sheet_with_no_table_gives_way_to_one_that_has_it():
    """The lookup sheet was read by default and refused ("no usable feature column"), the
    orders on another sheet (an analyst review)."""
    data = lookup_workbook()
    ds = load_csv(io.BytesIO(data), name="w.xlsx")
    assert ds.sheet == "Orders" and ds.target == "returned" and len(ds.X) == 400
    assert ds.notes[0] == ("Sheet 'SKU lookup', the largest, holds no table to learn from "
                           "(w.xlsx has no usable feature column), so sheet 'Orders' is read. "
                           "Choose another sheet if the table is on another one.")
    assert not any(n.startswith("Read sheet ") for n in ds.notes)
    # a sheet asked for is read as asked, and its refusal says so
    with pytest.raises(DataError, match="no usable feature column.*Read sheet 'SKU lookup'"):
        load_csv(io.BytesIO(data), name="w.xlsx", sheet="SKU lookup")
    assert load_csv(io.BytesIO(data), name="w.xlsx", sheet="Orders").sheet == "Orders"


def test_durations_are_numbers_in_a_unit_they_read_in(tmp_path):
    """A Parquet timedelta was seconds with no word: 'lead_time > 4870000' for 56 days (a
    review).  Now days (or hours, minutes, seconds, by the typical size), named in the
    column and said in a note."""
    rng = np.random.default_rng(0)
    days = rng.integers(1, 200, 120)
    df = pd.DataFrame({"lead_time": pd.to_timedelta(days, unit="D"),
                       "wait": pd.to_timedelta(rng.integers(5, 50, 120), unit="min"),
                       "canceled": np.where(days > 60, "yes", "no")})
    path = tmp_path / "hotel.parquet"
    df.to_parquet(path)
    ds = load_csv(path)
    assert {"lead_time (days)", "wait (minutes)"} <= set(ds.X.columns)
    assert ds.X["lead_time (days)"].tolist() == days.astype(float).tolist()
    assert any(n == "'lead_time': durations, read as a number of days ('lead_time (days)')."
               for n in ds.notes)


def test_a_dataframes_durations_are_read_as_a_files_are():
    """The unit conversion lived in the file reader only: from_frame left a DataFrame's
    timedelta column out as text of many values (a review)."""
    from rulecore.data import from_frame

    rng = np.random.default_rng(0)
    days = rng.integers(1, 200, 120)
    ds = from_frame(pd.DataFrame({"lead_time": pd.to_timedelta(days, unit="D"),
                                  "x": rng.random(120),
                                  "canceled": np.where(days > 60, "yes", "no")}),
                    target="canceled")
    assert ds.X["lead_time (days)"].tolist() == days.astype(float).tolist()


# --------------------------------------------------------------- .xls, .ods, SPSS and SAS

CORPUS = __import__("pathlib").Path(__file__).resolve().parent / "data"


def test_an_old_excel_workbook_reads_like_an_xlsx():
    """Excel 97-2003 (python-calamine): the table's sheet over the read-me, its title line
    skipped, DD/MM/YYYY cells as dates, the sheets listed for the Sheet selector."""
    path = CORPUS / "loan_book_legacy.xls"
    assert sniff_format(path.read_bytes()) == "xls"
    assert sheet_names(path) == ["Read me", "Loans"]
    df, _ = read_csv_frame(path)
    assert df.attrs["sheet"] == "Loans" and list(df.columns)[:3] == ["Loan No", "Opened",
                                                                     "Income"]
    assert len(df) == 360 and str(df["Opened"].iloc[0])[4] == "-"  # ISO dates, not day numbers
    assert any("Loan book as of" in n for n in df.attrs["notes"])
    ds = load_csv(path, sheet="Loans")
    assert "Opened (year)" in ds.X.columns and ds.X["Income"].dtype.kind == "f"
    with pytest.raises(DataError, match="no sheet 'Deals'; its sheets are 'Read me', 'Loans'"):
        load_csv(path, sheet="Deals")


def test_an_xls_sheet_chosen_by_hand_and_a_hidden_sheet():
    import xlwt

    wb = xlwt.Workbook()
    hidden = wb.add_sheet("codes")
    hidden.write(0, 0, "code")
    hidden.visibility = 1
    data = wb.add_sheet("data")
    df = table(120, seed=3)
    for i, row in enumerate(rows_of(df)):
        for j, v in enumerate(row):
            data.write(i, j, v)
    buf = io.BytesIO()
    wb.save(buf)
    assert sheet_names(io.BytesIO(buf.getvalue())) == ["data"]
    ds = load_csv(io.BytesIO(buf.getvalue()), name="t.xls")
    assert len(ds.X) == 120 and ds.target == "churned" and ds.sheet == "data"


def test_an_ods_file_skips_its_hidden_sheet():
    path = CORPUS / "stock_levels_calc.ods"
    assert sniff_format(path.read_bytes()) == "ods"
    assert sheet_names(path) == ["Stock"]
    ds = load_csv(path)
    assert ds.target == "reorder" and ds.X["stock"].dtype.kind == "f"


def test_spss_labels_missing_codes_and_variable_labels():
    """SPSS (pyreadstat): a fully labelled column reads as its labels, values the file
    declares missing read as missing with a note, a column labelled only in part (income:
    only 99 'Refused') keeps its numbers, and the variable labels are said."""
    df, _ = read_csv_frame(CORPUS / "health_survey_spss.sav")
    assert set(df["smoker"].dropna()) == {"Yes", "No"}
    assert set(df["region"].dropna()) == {"North", "East", "South", "West"}
    assert df["income"].dtype.kind == "f" and (df["income"] != 99).all()
    notes = " | ".join(df.attrs["notes"])
    assert "'income': 23 values the file declares missing (99 'Refused') read as missing" in notes
    assert "'smoker': SPSS value labels are read as their text (1 = 'Yes', 2 = 'No')" in notes
    assert "'sysbp': Systolic blood pressure (mmHg)" in notes


def test_spss_dates_and_text_and_an_empty_label_set(tmp_path):
    import pyreadstat

    df = pd.DataFrame({"visit": pd.to_datetime(["2024-01-05", "2024-02-11", None] * 20),
                       "site": ["Leeds", "York", ""] * 20, "x": np.arange(60.0),
                       "y": ["a", "b", "b"] * 20})
    path = tmp_path / "visits.sav"
    pyreadstat.write_sav(df, str(path))
    frame, _ = read_csv_frame(path)
    assert frame["visit"].iloc[0] == "2024-01-05" and pd.isna(frame["visit"].iloc[2])
    assert list(frame["site"].iloc[:2]) == ["Leeds", "York"] and pd.isna(frame["site"].iloc[2])
    assert frame.attrs["notes"] == []


@pytest.mark.parametrize("version", [5, 8])
def test_sas_transport_files_of_both_versions(tmp_path, version):
    import pyreadstat

    df = pd.DataFrame({"ID": [f"S{k}" for k in range(50)], "DOSE": np.arange(50.0) % 4,
                       "ARM": ["A", "B"] * 25, "RESP": ["Y", "N", "N", "N", " "] * 10})
    path = tmp_path / "adsl.xpt"
    pyreadstat.write_xport(df, str(path), file_format_version=version,
                           column_labels={"DOSE": "Planned dose (mg)"})
    assert sniff_format(path.read_bytes()) == "sas"
    frame, _ = read_csv_frame(path)
    assert list(frame.columns) == ["ID", "DOSE", "ARM", "RESP"]
    assert frame["RESP"].isna().sum() == 10  # blank text is missing, as SAS has it
    assert "'DOSE': Planned dose (mg)" in " ".join(frame.attrs["notes"])


def test_command_line_learns_from_spss_and_sas_files(capsys):
    assert cli_main(["learn", str(CORPUS / "health_survey_spss.sav"), "--time-limit", "10"]) == 0
    out = capsys.readouterr().out
    assert "predicting stroke = Yes" in out and "smoker == Yes" in out and "sysbp >" in out
    assert cli_main(["learn", str(CORPUS / "trial_adsl_sas.xpt"), "--time-limit", "10"]) == 0
    out = capsys.readouterr().out
    assert "predicting RESP = Y" in out and "DOSE >" in out and "BASESCR >" in out


def test_a_web_page_named_xls_reads_its_data_table():
    """A portal's "Export to Excel" is an HTML page (lxml): the data table is read, not the
    layout table above it, a <br> in a header is a space, and the tables are the Sheet
    selector's choices."""
    path = CORPUS / "card_portal_export_html.xls"
    assert sniff_format(path.read_bytes()) == "html"
    assert sheet_names(path) == ["table 2"]  # the title box above it is no data table
    df, _ = read_csv_frame(path)
    assert df.attrs["sheet"] == "table 2" and "Amount (EUR)" in df.columns and len(df) == 250
    ds = load_csv(path, sheet="table 2")
    assert ds.target == "Fraud" and ds.X["Amount (EUR)"].dtype.kind == "f"


def test_merged_cells_of_a_web_table_are_placed_in_their_columns():
    from rulecore.formats import _html_tables

    html = (b"<html><body><table><caption>Statement</caption>"
            b"<tr><th rowspan=2>Date</th><th colspan=2>Amount</th><th rowspan=2>Flag</th></tr>"
            b"<tr><th>EUR</th><th>USD</th></tr>"
            b"<tr><td>01/02/2024</td><td>1.234,50</td><td>1,300.00</td><td>x</td></tr>"
            b"<tr><td>02/02/2024</td><td>-</td><td>12.5</td><td></td></tr></table>"
            b"<table id=t2><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>"
            b"</body></html>")
    (title, rows, visible), (second, _, _) = _html_tables(html)
    assert title == "Statement" and second == "t2" and visible
    assert rows == [("Date", "Amount", None, "Flag"), ("Date", "EUR", "USD", "Flag"),
                    ("01/02/2024", "1.234,50", "1,300.00", "x"),
                    ("02/02/2024", "-", "12.5", None)]


def test_an_excel_2003_xml_sheet_places_skipped_cells_and_reads_types():
    path = CORPUS / "staff_appraisal_2003.xml"
    assert sniff_format(path.read_bytes()) == "xmlss"
    assert sheet_names(path) == ["Staff"]  # the hidden sheet of codes left out
    df, _ = read_csv_frame(path)
    assert list(df.columns) == ["Employee", "Hired", "Overtime hours", "Rating", "Left"]
    assert df["Hired"].iloc[0].endswith("-15") and set(df["Left"]) == {"TRUE", "FALSE"}
    assert any("Staff appraisal export" in n for n in df.attrs["notes"])


def test_an_xml_spreadsheet_does_not_resolve_entities():
    """An uploaded XML file must not read the server's files (XXE): entities stay unread."""
    xml = (b'<?xml version="1.0"?>\n<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
           b'<?mso-application progid="Excel.Sheet"?>\n<Workbook xmlns="urn:schemas-microsoft-'
           b'com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">'
           b'<Worksheet ss:Name="S"><Table>'
           + b"".join(b'<Row><Cell><Data ss:Type="String">&x;</Data></Cell><Cell><Data '
                      b'ss:Type="Number">%d</Data></Cell></Row>' % i for i in range(30))
           + b"</Table></Worksheet></Workbook>")
    try:
        df, _ = read_csv_frame(io.BytesIO(xml), name="x.xml")
    except DataError:
        return  # refused is fine too
    assert not any("root:" in str(v) for v in df.to_numpy().ravel())


_XMLSS = (b'<?xml version="1.0"?>{dtd}<?mso-application progid="Excel.Sheet"?><Workbook '
          b'xmlns="urn:schemas-microsoft-com:office:spreadsheet" '
          b'xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="S">'
          b"<Table>{rows}</Table></Worksheet></Workbook>")
_LAUGHS = b'<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">' + b"".join(
    b'<!ENTITY %s "%s">' % (bytes([98 + k]), (b"&%s;" % bytes([97 + k])) * 10)
    for k in range(8)) + b"]>"


@pytest.mark.parametrize("data, says", [
    (b"<html><table><tr>" + b"<td colspan=1000>x</td>" * 50 + b"</tr></table></html>",
     "a row spans more than 20,000 columns"),
    (_XMLSS.replace(b"{dtd}", b"").replace(
        b"{rows}", b'<Row><Cell ss:Index="999999999"><Data ss:Type="String">a</Data></Cell>'
                   b"</Row>"), "a cell in column 999,999,999"),
    (_XMLSS.replace(b"{dtd}", _LAUGHS).replace(b"{rows}", b"".join(
        b'<Row><Cell><Data ss:Type="String">&i;</Data></Cell><Cell><Data ss:Type="Number">'
        b"%d</Data></Cell></Row>" % i for i in range(20))), "could not be opened"),
])
def test_hostile_web_pages_and_xml_spreadsheets_are_refused_before_they_grow(data, says):
    """Spans, ss:Index jumps and nested entities would build a grid or a string of billions
    of cells: each is refused in words at once."""
    with pytest.raises(DataError, match=says):
        load_csv(io.BytesIO(data), name="h.xls")


# ------------------------------------------------------- what the adversarial review found


def _page(body: str, head: str = "") -> bytes:
    return f"<html><head>{head}</head><body>{body}</body></html>".encode()


def _rows(n: int, cells) -> str:
    return "".join("<tr>" + "".join(f"<td>{c}</td>" for c in cells(i)) + "</tr>"
                   for i in range(n))


def test_a_web_page_without_a_charset_is_read_as_utf8_and_utf16_pages_are_pages():
    body = "<table><tr><th>Kunde</th><th>Stadt</th></tr>" + _rows(
        30, lambda i: [f"K{i}", ["München", "Zürich"][i % 2]]) + "</table>"
    df, _ = read_csv_frame(io.BytesIO(_page(body)), name="p.xls")
    assert set(df["Stadt"]) == {"München", "Zürich"}
    utf16 = "\ufeff".encode("utf-16-le") + _page(body).decode().encode("utf-16-le")
    assert sniff_format(utf16) == "html"
    assert set(read_csv_frame(io.BytesIO(utf16), name="u.xls")[0]["Stadt"]) == {"München",
                                                                                  "Zürich"}
    assert sniff_format(b"<title>Report</title>" + _page(body)) == "html"


def test_hidden_text_scripts_and_cell_tables_are_not_values():
    """A sort key hidden with display:none, a script in a cell, and a small table inside each
    status cell (an icon and its label): the cells read as the page shows them, and the data
    table, not its cells' little tables, is the one read."""
    body = ("<table><tr><td>Report</td></tr></table><table><tr><th>Date</th><th>Score</th>"
            "<th>Status</th></tr>" + _rows(40, lambda i: [
                f"<span style='display: none'>2024{i:04d}</span>{i % 28 + 1:02d}/01/2024",
                f"{i % 7}<script>var x = '000';</script>",
                f"<table><tr><td><img src=i.png></td><td>{'Open' if i % 3 else 'Closed'}"
                "</td></tr></table>"]) + "</table>")
    df, _ = read_csv_frame(io.BytesIO(_page(body)), name="p.xls")
    assert list(df.columns) == ["Date", "Score", "Status"] and len(df) == 40
    assert df["Date"].iloc[0] == "01/01/2024" and set(df["Score"]) <= {str(k) for k in range(7)}
    assert set(df["Status"]) == {"Open", "Closed"}
    assert sheet_names(io.BytesIO(_page(body))) == ["table 2"]  # no layout or cell tables


def test_an_xml_spreadsheet_index_after_a_merged_cell_counts_the_merge():
    rows = (b'<Row><Cell ss:MergeAcross="1"><Data ss:Type="String">Applicant</Data></Cell>'
            b'<Cell ss:Index="3" ss:MergeAcross="1"><Data ss:Type="String">Loan</Data></Cell>'
            b"</Row><Row>" + b"".join(b'<Cell><Data ss:Type="String">%s</Data></Cell>' % h
                                      for h in (b"ID", b"Age", b"Amount", b"Term", b"Ok"))
            + b"</Row>" + b"".join(
                b'<Row><Cell><Data ss:Type="String">P%d</Data></Cell><Cell><Data ss:Type='
                b'"Number">%d</Data></Cell><Cell><Data ss:Type="Number">%d</Data></Cell><Cell>'
                b'<Data ss:Type="Number">12</Data></Cell><Cell ss:Index="5"><Data ss:Type='
                b'"String">%s</Data></Cell></Row>' % (i, 20 + i, 1000 * i, b"yn"[i % 2:][:1])
                for i in range(30)))
    df, _ = read_csv_frame(io.BytesIO(_XMLSS.replace(b"{dtd}", b"").replace(b"{rows}", rows)),
                           name="m.xml")
    assert list(df.columns)[-1] == "Ok" and df.shape[1] == 5 and set(df["Ok"]) == {"y", "n"}


def test_spss_text_missing_codes_and_ordinal_measures(tmp_path):
    import pyreadstat

    n = 60
    df = pd.DataFrame({"answer": ["yes", "no", "DK", "NA"] * (n // 4),
                       "edu": [1.0, 2.0, 3.0] * (n // 3), "y": ["a", "b", "b"] * (n // 3)})
    path = tmp_path / "s.sav"
    pyreadstat.write_sav(df, str(path), missing_ranges={"answer": ["DK", "NA"]},
                         variable_value_labels={"edu": {1.0: "Primary", 2.0: "Secondary",
                                                        3.0: "Tertiary"}},
                         variable_measure={"edu": "ordinal"})
    frame, _ = read_csv_frame(path)
    assert set(frame["answer"].dropna()) == {"yes", "no"}
    assert "'answer': 30 values the file declares missing ('DK', 'NA')" in " ".join(
        frame.attrs["notes"])
    ds = load_csv(path, target="y")
    assert ds.kinds["edu"] == "ordinal"
    assert any("'edu': read as an ordered scale (Primary < Secondary < Tertiary)" in n
               for n in ds.notes)


def test_a_cut_off_transport_file_and_a_latin1_one(tmp_path):
    import pyreadstat

    df = pd.DataFrame({"ID": [f"S{k}" for k in range(200)], "CITY": ["Lyon", "Besançon"] * 100,
                       "X": np.arange(200.0), "Y": ["Y", "N"] * 100})
    path = tmp_path / "a.xpt"
    pyreadstat.write_xport(df, str(path), file_format_version=8)
    # as a SAS session in wlatin1 writes it: the same bytes, 'ç' in Latin-1 (padded to width)
    latin = path.read_bytes().replace("Besançon".encode(), "Besançon ".encode("latin-1"))
    path.write_bytes(latin)
    assert set(read_csv_frame(path)[0]["CITY"]) == {"Lyon", "Besançon"}
    cut = path.read_bytes()[: len(path.read_bytes()) // 2 + 37]
    with pytest.raises(DataError, match="not whole 80-byte records: the file is cut short"):
        read_csv_frame(io.BytesIO(cut), name="cut.xpt")


def test_a_password_protected_workbook_says_so():
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 500 + "EncryptionInfo".encode(
        "utf-16-le") + b"\0" * 500
    with pytest.raises(DataError, match="password-protected Excel workbook"):
        load_csv(io.BytesIO(ole), name="locked.xlsx")


def _ods(row_xml: str) -> bytes:
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office='
               '"urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:'
               'names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:'
               'opendocument:xmlns:text:1.0"><office:body><office:spreadsheet><table:table '
               f'table:name="S">{row_xml}</table:table></office:spreadsheet></office:body>'
               "</office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
                '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry '
                'manifest:full-path="/" manifest:media-type="application/vnd.oasis.'
                'opendocument.spreadsheet"/><manifest:file-entry manifest:full-path='
                '"content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    return _zip_with({"mimetype": b"application/vnd.oasis.opendocument.spreadsheet",
                      "META-INF/manifest.xml": manifest.encode(),
                      "content.xml": content.encode()})


def test_an_ods_repeating_a_row_of_values_past_any_table_is_refused():
    """A 1 KB .ods that repeats one row 300,000 times over 100 columns took 66 s and 3.3 GB
    to expand; empty runs to the sheet's end (LibreOffice writes them) are fine."""
    cell = ('<table:table-cell office:value-type="float" office:value="1" '
            'table:number-columns-repeated="100"><text:p>1</text:p></table:table-cell>')
    bomb = _ods(f'<table:table-row table:number-rows-repeated="300000">{cell}</table:table-row>')
    with pytest.raises(DataError, match="a row with values repeated more than 10,000 times"):
        load_csv(io.BytesIO(bomb), name="bomb.ods")
    header = "".join(f'<table:table-cell office:value-type="string"><text:p>{h}</text:p>'
                     "</table:table-cell>" for h in ("x", "y"))
    body = "".join(f'<table:table-row><table:table-cell office:value-type="float" '
                   f'office:value="{i}"><text:p>{i}</text:p></table:table-cell><table:table-'
                   f'cell office:value-type="string"><text:p>{"ab"[i % 2]}</text:p>'
                   "</table:table-cell></table:table-row>" for i in range(30))
    empty = ('<table:table-row table:number-rows-repeated="1048000"><table:table-cell '
             'table:number-columns-repeated="1024"/></table:table-row>')
    df, _ = read_csv_frame(io.BytesIO(_ods(f"<table:table-row>{header}</table:table-row>"
                                           + body + empty)), name="ok.ods")
    assert df.shape == (30, 2)


@pytest.mark.parametrize("dump", [
    b"-- MySQL dump 10.13  Distrib 8.0.36\n/*!40101 SET NAMES utf8 */;\nDROP TABLE IF EXISTS "
    b"`d`;\nCREATE TABLE `d` (\n  `id` int\n);\nINSERT INTO `d` VALUES (1),(2);\n",
    b"--\n-- PostgreSQL database dump\n--\nSET statement_timeout = 0;\nCREATE TABLE public.d "
    b"(id integer);\n",
    b"PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE d(id INTEGER);\nINSERT INTO d "
    b"VALUES(1);\nCOMMIT;\n",
])
def test_an_sql_dump_is_refused_with_how_to_export_it(dump):
    """A stranger's mysqldump was read as two columns of SQL text: "The target column
    'column 2' is empty".  It is refused, saying how to export a table from it."""
    from rulecore.data import load_csv
    from rulecore.exceptions import DataError

    with pytest.raises(DataError, match=r"is an SQL dump \(CREATE TABLE and INSERT "
                                        r"statements\), not a table.*export the table as CSV"):
        load_csv(io.BytesIO(dump), name="dump.sql")
    # a table whose first column is named like a statement's word is still a table
    ds = load_csv(io.BytesIO(b"Use case,score,won\n" + b"".join(
        f"c{i % 5},{i},{'yes' if i % 3 else 'no'}\n".encode() for i in range(60))))
    assert ds.n_samples == 60


def test_comment_lines_above_a_table_are_read_at_once():
    """The SQL-dump check backtracked exponentially on comment lines: 12 lines of
    '-- exported by tool X' with Windows line endings took 198 s to load (a review)."""
    from rulecore.formats import sniff_format

    head = b"-- exported by tool X\r\n" * 40 + b"\r\n".join(b"a,b,c" for _ in range(20))
    assert sniff_format(head) is None  # returns at once; the old pattern never did
    assert sniff_format(b"-- dump\n" * 40 + b"CREATE TABLE t (id int);\n") == "sql"


def _credit_arff(n: int = 200, seed: int = 7) -> str:
    """An ARFF file as OpenML serves credit-g: a comment, quoted nominal values, '?' for a
    missing value, the class last."""
    rng = np.random.default_rng(seed)
    checking = rng.choice(["'<0'", "'0<=X<200'", "'no checking'"], n)
    duration = rng.integers(4, 72, n)
    purpose = rng.choice(["radio/tv", "'new car'", "education"], n)
    bad = (checking == "'<0'") & (duration > 30)
    lines = ["% German credit, from OpenML (dataset 31)", "@relation german_credit", "",
             "@attribute checking_status {'<0','0<=X<200','no checking'}",
             "@attribute duration numeric",
             "@attribute purpose {radio/tv,'new car',education}",
             "@attribute class {good,bad}", "", "@data"]
    lines += [f"{c},{d if i % 17 else '?'},{p},{'bad' if b else 'good'}"
              for i, (c, d, p, b) in enumerate(zip(checking, duration, purpose, bad))]
    return "\n".join(lines) + "\n"


def test_an_arff_file_is_read_by_its_attributes():
    """Weka's and OpenML's ARFF: it was read as text, refused with "Expected 1 fields in
    line 10" and the advice to delete the lines above the data, its @attribute lines (a
    stranger's download)."""
    data = _credit_arff().encode()
    assert sniff_format(data) == "arff"
    ds = load_csv(io.BytesIO(data), name="dataset_31_credit-g.arff")
    assert ds.target == "class" and set(ds.classes) == {"good", "bad"}
    assert list(ds.X.columns) == ["checking_status", "duration", "purpose"]
    assert ds.kinds["duration"] == "numeric" and ds.X["duration"].isna().sum() == 12
    assert set(ds.X["checking_status"]) == {"<0", "0<=X<200", "no checking"}
    assert any("ARFF" in m for m in ds.notes)
    # a string attribute, which scipy's reader does not take, is read too
    text = _credit_arff().replace("@attribute purpose {radio/tv,'new car',education}",
                                  "@attribute purpose string")
    assert "purpose" in load_csv(io.BytesIO(text.encode()), name="c.arff").X


def test_arff_after_a_long_comment_and_with_double_quoted_values():
    """Weka's vote.arff has 6.5 KB of comments above @relation, and the format takes values
    in double quotes: the first was read as text, the second refused (a review)."""
    comments = "".join(f"% {k}. a line of the dataset's description, as Weka writes it\n"
                       for k in range(120))
    rows = [f'{i % 9 + 1},"{["New York, NY", "Paris", "Austin, TX"][i % 3]}",'
            f'{["yes", "no"][i % 2]}' for i in range(60)]
    text = (comments + "@relation t\n@attribute n numeric\n@attribute \"home city\" string\n"
            "@attribute class {yes,no}\n@data\n" + "\n".join(rows) + "\n")
    assert len(comments) > 4096 and sniff_format(text.encode()) == "arff"
    ds = load_csv(io.BytesIO(text.encode()), name="t.arff", target="class")
    assert set(ds.X["home city"]) == {"New York, NY", "Paris", "Austin, TX"}
