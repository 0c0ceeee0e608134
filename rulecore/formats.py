"""Table files that are not plain text: Excel workbooks, Parquet, Feather and Stata files,
and CSV inside a ``.gz`` or ``.zip``.

Analysts' tables come from spreadsheets and from database and statistics-package exports as
often as from CSV.  Each format is recognised by its first bytes (never by the file name,
which uploads and UCI files often get wrong) and turned into what the CSV reader makes of a
text file, so everything decided after reading (roles, target, cleaning, notes) is the same
whatever the format (``docs/data.md``, "Other formats"):

- a **workbook sheet** becomes CSV text, read by the CSV reader itself, because sheets have
  the layouts CSV exports have (report titles above the header, two header rows, a Total
  row, units typed into cells, ``#DIV/0!``);
- a **typed table** (Parquet, Feather, Stata, SPSS, SAS) keeps its numbers; its dates, flags
  and labels become text cells, as a CSV would hold them.

Old and other workbooks (``.xls``, ``.xlsb``, ``.ods``) are read by python-calamine, a web
page's tables (a portal's "Export to Excel") and Excel's XML Spreadsheet 2003 by lxml, SPSS and
SAS files by pyreadstat.  Formats nothing here reads (Apple Numbers, PDF) are refused with the
way to export them.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from rulecore.exceptions import DataError

#: Consecutive empty rows after which a sheet's table is taken to have ended (a sheet whose
#: recorded size runs to Excel's last row would otherwise be read a million empty rows long).
MAX_EMPTY_ROWS = 1000

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Excel 97-2003 (.xls), old Office files
_SAS7BDAT = (b"\x00" * 12 + b"\xc2\xea\x81\x60\xb3\x14\x11\xcf\xbd\x92\x08\x00\x09\xc7\x31"
             b"\x8c\x18\x1f\x10\x11")

#: What to do with a format this reader does not open (the advice ends the message).
_REFUSED = {
    "encrypted": "a password-protected Excel workbook, which cannot be read without its "
                 "password. Open it in Excel, remove the password (File > Info > Protect "
                 "Workbook > Encrypt with Password, then clear it), save, and upload it again",
    "numbers": "an Apple Numbers document. Export it as CSV or Excel (File > Export To) and "
               "upload that",
    "pdf": "a PDF document, not a table. Export the table from the program that made the "
           "PDF as CSV or Excel and upload that",
    # a stranger's mysqldump was read as a table of two columns of SQL text, "The target
    # column 'column 2' is empty"
    "sql": "an SQL dump (CREATE TABLE and INSERT statements), not a table. Load it into its "
           "database and export the table as CSV (MySQL: mysql --batch -e 'SELECT * FROM t' "
           "> t.tsv; PostgreSQL: \\copy t TO 't.csv' CSV HEADER; SQLite: .mode csv, "
           ".headers on, .output t.csv, SELECT * FROM t;) and upload that",
}
#: The first statement of an SQL dump, after its comments and settings (mysqldump, pg_dump,
#: sqlite3 .dump); the lines before it are skipped in plain Python (a pattern of repeated
#: optional comments and spaces backtracked exponentially: 12 comment lines took 198 s, a
#: review).
_SQL_STATEMENT = re.compile(rb"(?:DROP TABLE|CREATE (?:TABLE|SCHEMA|DATABASE)|INSERT INTO|"
                            rb"LOCK TABLES)", re.IGNORECASE)
_SQL_PREAMBLE = (b"--", b"/*", b"set ", b"begin transaction;", b"pragma ",
                 b"select pg_catalog")


def _sql_dump(head: bytes) -> bool:
    """Whether text starts, after comments and settings, with an SQL dump's statement."""
    for line in head.splitlines()[:200]:
        line = line.strip()
        if not line or line.lower().startswith(_SQL_PREAMBLE):
            continue
        return bool(_SQL_STATEMENT.match(line))
    return False

_NAMES = {"xlsx": "Excel workbook", "parquet": "Parquet file", "feather": "Feather file",
          "stata": "Stata data file", "spss": "SPSS data file", "sas": "SAS data set",
          "arff": "ARFF file"}


#: An ARFF file (Weka, OpenML): comment lines, then its @relation.
_ARFF_START = re.compile(rb"^(\s*(%[^\n]*)?\n)*\s*@relation\b", re.IGNORECASE)


def sniff_format(data: bytes) -> str | None:
    """The format of a file from its first bytes: ``"xlsx"``, ``"parquet"``, ``"feather"``,
    ``"stata"``, ``"gzip"``, ``"zip"`` (an archive to look into), one of the refused formats
    (``"xls"``, ``"ods"``, ...), or ``None`` for text (CSV, LIBSVM)."""
    head = data[:64]
    if head.startswith(b"PK\x03\x04"):
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile:
            return "zip"
        names = set(archive.namelist())
        if "xl/workbook.xml" in names:
            return "xlsx"
        if "xl/workbook.bin" in names:
            return "xlsb"
        if "mimetype" in names and b"opendocument" in archive.read("mimetype"):
            return "ods"
        if any(n.startswith("Index/") and n.endswith(".iwa") for n in names):
            return "numbers"
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"ARROW1") or head.startswith(b"FEA1"):
        return "feather"
    if head.startswith(b"<stata_dta>") or (len(head) > 3 and 104 <= head[0] <= 115
                                           and head[1] in (1, 2) and head[2] == 1
                                           and head[3] == 0):
        return "stata"  # 117+ start with a tag; older releases with version, byte order, 1, 0
    if head.startswith(_OLE2):
        if "EncryptionInfo".encode("utf-16-le") in data[:65536]:
            return "encrypted"  # an .xlsx with a password (Office encrypts it into OLE2)
        return "xls"
    if head.startswith(b"$FL2") or head.startswith(b"$FL3"):
        return "spss"
    if head.startswith(_SAS7BDAT) or head.startswith(b"HEADER RECORD*******LIB"):  # (V5, V8)
        return "sas"
    if head.startswith(b"%PDF"):
        return "pdf"
    if _sql_dump(data[:20_000].lstrip(b"\xef\xbb\xbf")):
        return "sql"
    start = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    # (past a long comment block: Weka's own vote.arff has 6.5 KB of it, a review)
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"%", b"@") and \
            _ARFF_START.match(data[:262_144].lstrip(b"\xef\xbb\xbf")):
        return "arff"
    if start.startswith(b"<?xml") and (b"excel.sheet" in data[:4096].lower()
                                       or b"<workbook" in data[:4096].lower()
                                       or b"urn:schemas-microsoft-com:office:spreadsheet"
                                       in data[:4096]):
        return "xmlss"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 (Excel's "Unicode" pages)
        start = data[:1024].decode("utf-16", errors="ignore").lstrip("\ufeff \t\r\n") \
            .lower().encode()
        if start.startswith((b"<html", b"<!doctype", b"<table")):
            return "html"
    if start.startswith((b"<html", b"<!doctype", b"<table", b"<?xml", b"<meta", b"<head",
                         b"<body", b"<style", b"<title", b"<!--")) and \
            (b"<table" in data[:1_000_000].lower() or b"<html" in start[:20]):
        return "html"
    return None


def identify(data: bytes, name: str, max_bytes: int) -> tuple[bytes, str | None, str | None]:
    """``(the table's bytes, its format, a note)``: a ``.gz`` file or a one-file ``.zip``
    unpacked (:func:`unwrap`, said in the note), then :func:`sniff_format`.  Raises the
    :class:`DataError` that says how to export a format this reader does not open, or an
    archive inside an archive."""
    fmt = sniff_format(data)
    note = None
    if fmt in ("gzip", "zip"):
        data, note = unwrap(data, fmt, name, max_bytes)
        fmt = sniff_format(data)
        if fmt in ("gzip", "zip"):
            raise DataError(f"{name} holds another archive inside; unpack it and upload the "
                            "table.")
    if fmt in _REFUSED:
        raise DataError(f"{name} is {_REFUSED[fmt]}.")
    return data, fmt, note


def unwrap(data: bytes, fmt: str, name: str, max_bytes: int) -> tuple[bytes, str]:
    """The table inside a ``.gz`` file (``fmt="gzip"``) or a ``.zip`` archive holding one
    file, and a note.  Refuses an archive of several files or one that unpacks past
    ``max_bytes``."""
    if fmt == "gzip":
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
            try:
                inner = f.read(max_bytes + 1)
            except (OSError, EOFError) as exc:
                raise DataError(f"{name} is a damaged .gz file ({exc}).") from None
        if len(inner) > max_bytes:
            raise DataError(f"{name} unpacks to more than {max_bytes / 2**20:.0f} MB, the "
                            "limit. Sample the rows and try again.")
        return inner, f"{name} is gzip-compressed: the table inside was read."
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise DataError(f"{name} is a damaged ZIP archive.") from None
    files = [i for i in z.infolist() if not i.is_dir()
             and not i.filename.startswith(("__MACOSX/", "."))
             and "/." not in i.filename]
    if len(files) != 1:
        listed = ", ".join(i.filename for i in files[:5]) + (" ..." if len(files) > 5
                                                              else "")
        raise DataError(f"{name} is a ZIP archive of {len(files)} files ({listed}). Unzip "
                        "it and upload the one table to learn from.")
    if files[0].file_size > max_bytes:
        raise DataError(f"{files[0].filename} in {name} is {files[0].file_size / 2**20:.0f}"
                        f" MB unpacked; the limit is {max_bytes / 2**20:.0f} MB. Sample "
                        "the rows and try again.")
    return z.read(files[0]), f"{name} is a ZIP archive: read {files[0].filename!r} in it."


# --------------------------------------------------------------------------- workbooks


def _cell_text(v: Any) -> str:
    """A cell as Excel shows it, as text for the CSV reader."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, dt.datetime):
        return v.strftime("%Y-%m-%d") if v.time() == dt.time() else \
            v.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, (dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, dt.timedelta):
        s = int(round(v.total_seconds()))
        return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"
    if isinstance(v, float):
        # Excel shows (and means) 15 significant digits: 0.1 + 0.2 is 0.3 on screen
        return format(v, ".15g") if np.isfinite(v) else ""
    return str(v)


#: Workbook formats read (:func:`workbook_text`): openpyxl reads ``.xlsx``; python-calamine
#: (pandas' ``engine="calamine"``) reads the older and other spreadsheet formats that
#: analysts' systems still export.
WORKBOOKS = {"xlsx": "Excel workbook", "xls": "Excel 97-2003 workbook",
             "xlsb": "Excel binary workbook", "ods": "OpenDocument spreadsheet",
             "xmlss": "Excel 2003 XML spreadsheet", "html": "web page (HTML)"}


class _Book:
    """The calls :func:`workbook_text` makes of a workbook, whichever library reads it:
    ``sheets()`` gives ``(title, rows, columns, visible)`` per worksheet in order (chart
    sheets left out), ``rows(title)`` its rows as tuples of cell values (``None`` empty)."""

    def __init__(self, data: bytes, fmt: str, name: str) -> None:
        self.fmt = fmt
        self._loaded: dict[str, Any] = {}
        try:
            if fmt == "xlsx":
                import openpyxl

                self._wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True,
                                                  data_only=True)
            elif fmt in ("html", "xmlss"):
                self._tables = _html_tables(data) if fmt == "html" else _xmlss_sheets(data)
            else:
                import python_calamine

                if fmt == "ods":
                    _ods_not_a_bomb(data)
                self._wb = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        except Exception as exc:  # each library raises many kinds for a damaged file
            # an .xlsx with a password is an OLE2 file, as an .xls is
            locked = (" If it has a password, remove it first (File > Info > Protect "
                      "Workbook)." if fmt == "xls" else "")
            article = "a" if fmt == "html" else "an"
            raise DataError(f"{name} could not be opened as {article} {WORKBOOKS[fmt]} "
                            f"({type(exc).__name__}: {str(exc)[:120]}).{locked} Open it in "
                            "Excel or LibreOffice, save it again as .xlsx or 'CSV UTF-8', and "
                            "upload that.") from None

    def _sheet(self, title: str) -> Any:
        if title not in self._loaded:
            self._loaded[title] = self._wb.get_sheet_by_name(title)
        return self._loaded[title]

    def sheets(self) -> list[tuple[str, int, int, bool]]:
        if self.fmt == "xlsx":
            return [(ws.title, ws.max_row or 0, ws.max_column or 0,
                     ws.sheet_state == "visible") for ws in self._wb.worksheets]
        if self.fmt in ("html", "xmlss"):
            return [(title, len(rows), max(map(len, rows), default=0), visible)
                    for title, rows, visible in self._tables]
        out = []
        for meta in self._wb.sheets_metadata:
            if "WorkSheet" not in str(meta.typ):
                continue  # a chart, dialog or macro sheet holds no table
            end = self._sheet(meta.name).end  # last used (row, column), from 0; None: empty
            rows, cols = (0, 0) if end is None else (end[0] + 1, end[1] + 1)
            out.append((meta.name, rows, cols, str(meta.visible).split(".")[-1] == "Visible"))
        return out

    def rows(self, title: str) -> Iterator[tuple]:
        if self.fmt == "xlsx":
            yield from self._wb[title].iter_rows(values_only=True)
        elif self.fmt in ("html", "xmlss"):
            yield from next(rows for t, rows, _ in self._tables if t == title)
        else:
            for row in self._sheet(title).to_python(skip_empty_area=False):
                yield tuple(None if v == "" else v for v in row)

    def close(self) -> None:
        if self.fmt == "xlsx":
            self._wb.close()


#: Widest row a web page or XML spreadsheet may spell out (spans and ``ss:Index`` jumps
#: included): past it the file is refused before a grid of that width is built.
MAX_SPREAD = 20_000


def _spread(rows: list[list[tuple[str | None, int, int]]]) -> list[tuple]:
    """Rows of ``(value, columns spanned, rows spanned)`` cells as a grid: a cell spanning
    columns fills the first and leaves the others empty (as a CSV export of merged cells
    does), one spanning rows is repeated down, in its column, in the rows it spans."""
    grid: list[tuple] = []
    below: dict[int, list] = {}  # column -> [rows left, value], filled in from above
    for cells in rows:
        if sum(max(c, 1) for _, c, _ in cells) + len(below) > MAX_SPREAD:
            raise ValueError(f"a row spans more than {MAX_SPREAD:,} columns")
        out: list[str | None] = []
        queue = iter(cells)
        last = max(below, default=-1)  # the row runs at least to the last column held down
        pending = next(queue, None)
        while pending is not None or len(out) <= last:
            j = len(out)
            if j in below:
                held = below[j]
                out.append(held[1])
                held[0] -= 1
                if held[0] == 0:
                    del below[j]
                continue
            if pending is None:
                out.append(None)
                continue
            value, cols, span = pending
            pending = next(queue, None)
            for k in range(max(cols, 1)):
                if span > 1:
                    below[j + k] = [span - 1, value if k == 0 else None]
                out.append(value if k == 0 else None)
            last = max(last, max(below, default=-1))
        grid.append(tuple(out))
    return grid


#: An .ods row or cell with content may say "repeat me" at most this often: LibreOffice
#: writes runs of identical rows that way, but a 1 KB file repeating one row 300,000 times
#: over 100 columns took 66 s and 3.3 GB to expand (an adversarial review).
ODS_MAX_REPEAT = 10_000


def _ods_not_a_bomb(data: bytes) -> None:
    """Refuse an .ods whose content expands past what a table of the size limits holds: a
    ``content.xml`` of more than 1 GB, or a row or cell with content repeated more than
    :data:`ODS_MAX_REPEAT` times (empty runs, which LibreOffice writes to the sheet's end,
    are fine).  Streams the XML (lxml.iterparse), keeping one row at a time."""
    from lxml import etree

    ns_t = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
    ns_o = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        if z.getinfo("content.xml").file_size > 2**30:
            raise ValueError("its content expands to more than 1 GB")
        with z.open("content.xml") as f:
            for _, row in etree.iterparse(f, tag=f"{ns_t}table-row", resolve_entities=False,
                                          no_network=True):
                filled = [c for c in row if c.get(f"{ns_o}value-type") or len(c)]
                if filled and int(row.get(f"{ns_t}number-rows-repeated", 1)) > ODS_MAX_REPEAT:
                    raise ValueError("a row with values repeated more than "
                                     f"{ODS_MAX_REPEAT:,} times")
                if any(int(c.get(f"{ns_t}number-columns-repeated", 1)) > ODS_MAX_REPEAT
                       for c in filled):
                    raise ValueError("a cell with a value repeated more than "
                                     f"{ODS_MAX_REPEAT:,} times")
                row.clear()


def _decoded_page(data: bytes) -> str:
    """A web page's text: in its declared charset, else as the CSV reader decodes text
    (UTF-16, UTF-8, Shift_JIS, Windows-1252: :func:`rulecore.data._decode`); lxml alone
    takes an undeclared page as Latin-1 (München read as MÃ¼nchen)."""
    from rulecore.data import _decode

    declared = re.search(rb"""charset\s*=\s*["']?([\w.:-]+)""", data[:4096], re.IGNORECASE)
    if declared and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode(declared.group(1).decode("ascii"))
        except (LookupError, UnicodeDecodeError):
            pass  # a charset the page does not keep to
    return _decode(data, "the page")[0]


def _html_tables(data: bytes) -> list[tuple[str, list[tuple], bool]]:
    """The data tables of a web page (lxml): ``(title, rows, True)``, titled by caption, else
    id, else ``table k``.  Web apps (banking, CRM, HR portals) "export to Excel" as such a
    page with an ``.xls`` name.  A table's rows are its own (a small table inside a cell, an
    icon and its label, is that cell's text); tables of fewer than two rows or columns (a
    layout table around the page, a title box) are listed only when there is nothing else.
    Scripts, styles and text the page hides (``display:none`` sort keys) are not values."""
    import lxml.html

    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", _decoded_page(data))  # (str input: no declaration)
    page = lxml.html.fromstring(text)
    for el in page.xpath("//script|//style|//*[contains(translate(@style, ' ', ''), "
                         "'display:none')]"):
        el.drop_tree()
    for br in page.iter("br"):  # a line break inside a cell ("Annual<br>Income") is a space
        br.tail = " " + (br.tail or "")
    found = []
    for k, table in enumerate(page.iter("table"), start=1):
        rows = []
        for tr in table.xpath("./tr|./thead/tr|./tbody/tr|./tfoot/tr"):
            rows.append([(" ".join(c.text_content().split()) or None,
                          _span(c.get("colspan")), _span(c.get("rowspan")))
                         for c in tr.xpath("./th|./td")])
        caption = " ".join(" ".join(table.xpath("./caption//text()")).split())
        title = caption or table.get("id") or f"table {k}"
        while title in {t for t, _, _ in found}:
            title += f" ({k})"
        if rows:
            found.append((title, _spread(rows), True))
    if not found:
        raise ValueError("no table in the page")
    tables = [t for t in found if len(t[1]) >= 2 and max(map(len, t[1])) >= 2]
    return tables or found


def _span(v: str | None) -> int:
    try:
        return max(1, min(int(v or 1), 1000))
    except ValueError:
        return 1


_SS = "{urn:schemas-microsoft-com:office:spreadsheet}"


def _xmlss_sheets(data: bytes) -> list[tuple[str, list[tuple], bool]]:
    """The worksheets of an Excel 2003 XML spreadsheet (lxml, no entities or network):
    ``(name, rows, visible)``, with ``ss:Index`` jumps and ``ss:MergeAcross`` spans placed."""
    from lxml import etree

    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    out = []
    for ws in root.iter(f"{_SS}Worksheet"):
        rows: list[list[tuple[str | None, int, int]]] = []
        for row in ws.iter(f"{_SS}Row"):
            at = int(row.get(f"{_SS}Index", len(rows) + 1))
            if at > 2_000_000:
                raise ValueError(f"a row numbered {at:,}")
            rows.extend([] for _ in range(at - 1 - len(rows)))
            cells: list[tuple[str | None, int, int]] = []
            for cell in row.iter(f"{_SS}Cell"):
                width = sum(c for _, c, _ in cells)  # columns taken, merged cells counted
                col = int(cell.get(f"{_SS}Index", width + 1))
                if col > MAX_SPREAD:
                    raise ValueError(f"a cell in column {col:,}")
                cells.extend((None, 1, 1) for _ in range(col - 1 - width))
                value = _xmlss_value(cell.find(f"{_SS}Data"))
                cells.append((value, 1 + int(cell.get(f"{_SS}MergeAcross", 0)), 1))
            rows.append(cells)
        options = ws.find(".//{urn:schemas-microsoft-com:office:excel}Visible")
        hidden = options is not None and (options.text or "").startswith("SheetHidden")
        out.append((ws.get(f"{_SS}Name", f"Sheet{len(out) + 1}"), _spread(rows), not hidden))
    return out


def _xmlss_value(data: Any) -> str | None:
    """A cell's ``<Data>`` as Excel shows it: a DateTime at midnight as its date, a Boolean
    as TRUE / FALSE."""
    if data is None:
        return None
    text = "".join(data.itertext())
    kind = data.get(f"{_SS}Type")
    if kind == "DateTime" and text.endswith("T00:00:00.000"):
        return text[:10]
    if kind == "DateTime" and text.startswith("1899-12-31T"):  # a time of day alone
        return text[11:19]
    if kind == "Boolean":
        return "TRUE" if text.strip() == "1" else "FALSE"
    return text


def workbook_sheets(data: bytes, fmt: str = "xlsx") -> list[tuple[str, tuple[int, int]]]:
    """The worksheets of a workbook (``fmt``: a key of :data:`WORKBOOKS`): ``(name, (rows,
    cells) in its recorded size)``, in the workbook's order, hidden sheets left out (unless
    every sheet is hidden)."""
    book = _Book(data, fmt, "workbook")
    try:
        return _sheets_of(book)
    finally:
        book.close()


#: The default sheet counts at most this many columns of a row (:func:`_sheets_of`).
SHEET_COLUMNS = 8


def _sheets_of(book: _Book) -> list[tuple[str, tuple[int, int]]]:
    """``(title, size)`` of the visible sheets (all, if none is visible); the default sheet
    has the largest size: rows × min(columns, :data:`SHEET_COLUMNS`), then rows.  Records are
    long where a pivot table of totals is wide (a 60 × 52 pivot beat a 400-row data sheet by
    cells), and a table of features and a target has several columns (by rows alone a
    600-row lookup of two columns beat the 400 × 7 data sheet: a newcomer's review)."""
    sheets = [(title, (rows * min(cols, SHEET_COLUMNS), rows), visible)
              for title, rows, cols, visible in book.sheets()]
    shown = [(t, n) for t, n, visible in sheets if visible]
    return shown or [(t, n) for t, n, _ in sheets]


#: Sheet names that say the sheet documents the workbook rather than holding its table.
_DOC_SHEET = re.compile(r"^\s*(read\s*_?me|about|notes?|info(rmation)?|change\s*_?log|"
                        r"changes|version(s| history)?|instructions?|documentation|docs?|"
                        r"legend|glossary|(data\s*)?dictionary|codebook|metadata|contents|"
                        r"cover( sheet)?|definitions?)\s*$", re.IGNORECASE)


#: Cells (at most 8 a row) a sheet needs to count as a table a documentation sheet gives way
#: to: an empty 'Sheet2' or a one-line 'Summary' does not.
_TABLE_CELLS = 20


def _ranked_sheets(sheets: list[tuple[str, tuple[int, int]]]) -> list[str]:
    """Sheet names, the one to read first: largest first (first of ties), a sheet named as
    documentation (:data:`_DOC_SHEET`) after every other sheet that holds a table (a 400-row
    changelog on 'README' was read before the 150 claims on 'Claims': a stranger's
    workbook; beside an empty 'Sheet2', a table on 'Notes' is still read, a review)."""
    def table(t: str, n: tuple[int, int]) -> bool:  # n: (cells, rows)
        return n[0] >= _TABLE_CELLS and not _DOC_SHEET.search(t)

    tables = any(table(t, n) for t, n in sheets)
    order = sorted(range(len(sheets)), key=lambda i: (
        tables and table(*sheets[i]), sheets[i][1], -i), reverse=True)
    return [sheets[i][0] for i in order]


def workbook_text(data: bytes, name: str, sheet: str | None, max_rows: int,
                  max_columns: int, fmt: str = "xlsx"
                  ) -> tuple[str, int, list[str], str, list[str], list[str]]:
    """One sheet of a workbook (``fmt``: a key of :data:`WORKBOOKS`) as CSV text.

    Returns ``(text, the longest row's cells, sheet names, the sheet read, notes, sheet
    names largest first)`` (the last for trying other sheets: from the same opening, which
    for an .xls or a web page parses the whole file).
    Default sheet: the visible one with the most cells counting at most eight columns a row
    (:func:`_sheets_of`: a workbook often opens on a read-me, a pivot table of totals is wide
    where records are long, a lookup list is narrow), a sheet named as documentation
    (:data:`_DOC_SHEET`: README, Notes, Changelog) last; ``sheet`` names another.  Cells are
    written as Excel shows them (:func:`_cell_text`; formulas give their saved values),
    empty cells at the end of a row are left off (so a title in A1 reads as a line above the
    table, as in a CSV export), and reading stops after ``max_rows`` rows.
    """
    wb = _Book(data, fmt, name)
    sheets = _sheets_of(wb)
    names = [t for t, _ in sheets]
    chosen_by_size = sheet is None
    if not sheets:
        wb.close()
        raise DataError(f"{name} has no worksheet.")
    ranked = _ranked_sheets(sheets)
    if sheet is None:
        sheet = ranked[0]
    elif sheet not in names:
        wb.close()
        raise DataError(f"{name} has no sheet {sheet!r}; its sheets are "
                        f"{', '.join(map(repr, names))}.")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    rows = empty_run = width = 0
    first: list[tuple] = []  # the first rows as read, to look for unsaved formulas
    try:
        for values in wb.rows(sheet):
            if len(first) < 50:
                first.append(values)
            cells = [_cell_text(v) for v in values]
            while cells and not cells[-1].strip():
                cells.pop()
            if not cells:
                empty_run += 1
                if rows and empty_run > MAX_EMPTY_ROWS:
                    break
                continue
            if len(cells) > max_columns:
                raise DataError(f"Sheet {sheet!r} of {name} has {len(cells)} columns; the limit "
                                f"is {max_columns}.")
            if rows > max_rows + 12:  # the header and a few title lines besides the rows
                raise DataError(f"Sheet {sheet!r} of {name} has more than {max_rows:,} rows; "
                                "sample it and try again.")
            out.write("\n" * min(empty_run, 1))  # a blank line keeps a title apart
            empty_run = 0
            writer.writerow(cells)
            width = max(width, len(cells))
            rows += 1
    finally:
        wb.close()
    if fmt == "xlsx":  # (Excel and LibreOffice always save a formula's value in the others)
        _refuse_unsaved_formulas(data, name, sheet, first)
    if rows == 0:
        raise DataError(f"Sheet {sheet!r} of {name} is empty." + (
            f" Its other sheets: {', '.join(map(repr, [n for n in names if n != sheet]))}."
            if len(names) > 1 else ""))
    notes = []
    if len(names) > 1:
        others = ", ".join(repr(n) for n in names if n != sheet)
        largest = max(sheets, key=lambda s: s[1])[0]
        how = "the largest of its" if chosen_by_size and largest == sheet else "one of its"
        if chosen_by_size and largest != sheet:
            notes.append(f"Sheet {largest!r} is larger, but its name says it documents the "
                         "workbook: the table is taken from another sheet.")
        if fmt == "html":  # a web page's "sheets" are its tables
            notes.append(f"Read {sheet!r}, {how.replace('its', 'the page’s')} {len(names)} "
                         f"tables (the others: {others}). Choose another with the Sheet "
                         "selector (--sheet) if the data is in another one.")
        else:
            notes.append(f"Read sheet {sheet!r}, {how} {len(names)} sheets (the others: "
                         f"{others}). Choose another sheet if the table is on another one.")
    return out.getvalue(), width, names, sheet, notes, ranked


def _refuse_unsaved_formulas(data: bytes, name: str, sheet: str, first: list[tuple]) -> None:
    """Refuse a sheet whose formulas have no saved result (a workbook written by a program
    that does not compute them, such as openpyxl): their cells read as empty, and a target of
    formulas was "empty" with no reason given.  Compares the first rows read for values
    with the same rows read for formulas."""
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        for i, formulas in enumerate(wb[sheet].iter_rows(values_only=True,
                                                         max_row=len(first))):
            for j, f in enumerate(formulas):
                value = first[i][j] if j < len(first[i]) else None
                if isinstance(f, str) and f.startswith("=") and value is None:
                    cell = f"{openpyxl.utils.get_column_letter(j + 1)}{i + 1}"
                    raise DataError(
                        f"Sheet {sheet!r} of {name} holds formulas whose results were never "
                        f"saved (cell {cell}: {f[:60]}), so they read as empty. Open the "
                        "workbook in Excel or LibreOffice, save it, and upload it again.")
    finally:
        wb.close()


# --------------------------------------------------------------------------- typed tables


#: The typed formats :func:`typed_frame` reads.
TYPED = ("parquet", "feather", "stata", "spss", "sas", "arff")


def typed_frame(data: bytes, fmt: str, name: str, max_rows: int,
                max_columns: int) -> pd.DataFrame:
    """A Parquet, Feather, Stata, SPSS (``.sav``, ``.zsav``) or SAS (``.sas7bdat``,
    ``.xpt``) file as the CSV reader's frame: numbers stay numbers; dates, flags, labels and
    other values become text cells (``NaN`` where missing)."""
    buf = io.BytesIO(data)
    labelled: list[str] = []
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            meta = pq.ParquetFile(io.BytesIO(data)).metadata
            if meta.num_rows > max_rows:
                raise DataError(f"{name} has {meta.num_rows:,} rows; the limit is "
                                f"{max_rows:,}. Sample it and try again.")
            df = pd.read_parquet(buf)
        elif fmt == "feather":
            df = pd.read_feather(buf)
        elif fmt == "spss":
            df, labelled = _spss_frame(data, max_rows)
        elif fmt == "sas":
            df, labelled = _sas_frame(data, max_rows)
        elif fmt == "arff":
            df, labelled = _arff_frame(data, name, max_rows)
        else:  # Stata: value labels become their text, as Stata shows them
            with pd.io.stata.StataReader(buf) as reader:  # the table and its labels at once
                df = reader.read(convert_categoricals=True)
                named = reader.variable_labels()
            labelled = _value_label_notes(df, pd.read_stata(io.BytesIO(data),
                                                            convert_categoricals=False))
            labelled += _variable_label_notes(named)
            df.attrs["labels"] = variable_labels(named)
    except DataError:
        raise
    except Exception as exc:  # each reader raises its own kinds for a damaged file
        article = "an" if fmt == "spss" else "a"
        raise DataError(f"{name} could not be read as {article} {_NAMES[fmt]} "
                        f"({type(exc).__name__}: {str(exc)[:120]}).") from None
    labels = dict(df.attrs.get("labels") or {})  # (the frames made below drop attrs)
    if not isinstance(df.index, pd.RangeIndex) or df.index.name is not None:
        df = df.reset_index()  # a named index (a key saved with the table) is a column
    # an ordered category saved by pandas or R's arrow keeps its order (Stata's value labels
    # are ordered by their codes, which need not mean an order: read as text)
    df, spans = _durations_in_units(df)
    out = _cells_of(df, name, max_rows, max_columns, keep_order=fmt != "stata")
    out.attrs["notes"] = labelled + spans
    names = set(map(str, out.columns))
    out.attrs["labels"] = {c: v for c, v in labels.items() if c in names}
    return out


_ARFF_ATTRIBUTE = re.compile(r"""@attribute\s+('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\S+)\s+(.*)""",
                             re.IGNORECASE)


def _arff_frame(data: bytes, name: str, max_rows: int) -> tuple[pd.DataFrame, list[str]]:
    """An ARFF file (Weka's, OpenML's): its ``@attribute`` lines name the columns, numeric
    ones read as numbers, nominal, string and date ones as text; ``?`` is a missing value.
    It was read as text and refused, with the advice to delete the lines above the data,
    which were its names (a stranger's download).  scipy.io.arff refuses string attributes,
    so the few rules of the format are read here (sparse data, ``{0 x, 3 y}``, is refused)."""
    text = data.decode("utf-8-sig", errors="replace")
    lines = iter(text.splitlines())
    names: list[str] = []
    numeric: list[bool] = []
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        if stripped.lower().startswith("@data"):
            break
        m = _ARFF_ATTRIBUTE.match(stripped)
        if m:
            raw = m.group(1)
            names.append(raw[1:-1] if raw[0] in "'\"" else raw)
            numeric.append(m.group(2).strip().lower().split()[0] in
                           ("numeric", "real", "integer"))
    if not names:
        raise DataError(f"{name} is an ARFF file without @attribute lines: no columns to read.")
    body = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("%")]
    if body and body[0].lstrip().startswith("{"):
        raise DataError(f"{name} is a sparse ARFF file ({{index value, ...}} rows), which "
                        "this reader does not take: save it as a dense ARFF or a CSV.")
    if len(body) > max_rows:
        raise DataError(f"{name} has {len(body):,} rows; the limit is {max_rows:,}. Sample "
                        "it and try again.")
    # a value is quoted with ' (Weka writes so) or " (which the format takes too: a review)
    rows = [next(csv.reader([ln], quotechar='"' if ln.lstrip()[:1] == '"' or (
        '"' in ln and "'" not in ln) else "'", skipinitialspace=True, escapechar="\\"))
        for ln in body]
    if any(len(r) != len(names) for r in rows):
        bad = next(i for i, r in enumerate(rows) if len(r) != len(names))
        raise DataError(f"{name}: data row {bad + 1} has {len(rows[bad])} values for "
                        f"{len(names)} attributes.")
    df = pd.DataFrame(rows, columns=names, dtype=object).replace("?", np.nan)
    for col, num in zip(names, numeric):
        if num:
            df[col] = pd.to_numeric(df[col], errors="coerce")
    return df, [f"{name} is an ARFF file (Weka, OpenML): its {len(names)} @attribute lines "
                "name the columns, and '?' is a missing value."]


def _spss_frame(data: bytes, max_rows: int) -> tuple[pd.DataFrame, list[str]]:
    """An SPSS ``.sav`` / ``.zsav`` file (pyreadstat, which reads only from a path): values
    the file declares missing (SPSS's user-missing codes, such as 99 "refused") read as
    missing; a column whose every value has a value label reads as the labels, as SPSS shows
    it (a column labelled only in part keeps its codes); dates read as dates."""
    import pyreadstat

    df, meta = _from_path(data, ".sav", pyreadstat.read_sav, row_limit=max_rows + 1,
                          user_missing=True)
    notes = []
    for col, ranges in meta.missing_ranges.items():
        numeric = pd.api.types.is_numeric_dtype(df[col])
        hit = np.zeros(len(df), dtype=bool)
        for r in ranges:
            # a text column's codes ("DK", "NA") are discrete: pyreadstat gives each as lo = hi
            hit |= (df[col].between(r["lo"], r["hi"]) if numeric else
                    df[col].astype(str).str.strip().isin({str(r["lo"]).strip(),
                                                          str(r["hi"]).strip()})).to_numpy()
        if hit.any():
            named = meta.variable_value_labels.get(col, {})
            codes = ", ".join((_object_text(float(v)) if numeric else repr(v))
                              + (f" {named[v]!r}" if v in named else "")
                              for v in sorted(df.loc[hit, col].unique())[:5])
            notes.append(f"{str(col).strip()!r}: {int(hit.sum()):,} values the file declares "
                         f"missing ({codes}) read as missing.")
            df.loc[hit, col] = np.nan
    df = _blank_missing(df)
    labels: dict[str, Any] = {}
    for col, label_set in meta.variable_value_labels.items():
        values = df[col].dropna().unique()
        if len(values) and all(v in label_set for v in values):
            # an ordinal measure (education, agreement) keeps its codes' order, so a rule can
            # say "edu >= Bachelor" instead of listing the levels below it
            ordinal = meta.variable_measure.get(col) == "ordinal"
            order = [label_set[k] for k in sorted(label_set)] if ordinal else None
            labels[col] = pd.Categorical(df[col].map(label_set), ordered=ordinal,
                                         categories=list(dict.fromkeys(order))
                                         if ordinal else None)
    if labels:
        df = df.assign(**labels)
    notes += [_labels_note(col, meta.variable_value_labels[col], "SPSS") for col in labels]
    df.attrs["labels"] = variable_labels(meta.column_names_to_labels)
    return df, notes + _variable_label_notes(meta.column_names_to_labels, "SPSS")


def _from_path(data: bytes, suffix: str, read: Any, **options: Any) -> tuple[Any, Any]:
    """``read(path, ...)`` on the bytes written to a temporary file (pyreadstat reads only
    from a path), dates as pandas dates."""
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=suffix) as f:
        f.write(data)
        f.flush()
        return read(f.name, dates_as_pandas_datetime=True, **options)


def _blank_missing(df: pd.DataFrame) -> pd.DataFrame:
    """Blank text as missing: SAS and SPSS have no missing text but the blank."""
    for col in df.columns:
        if pd.api.types.is_object_dtype(df[col]) or pd.api.types.is_string_dtype(df[col]):
            # (cell by cell: an object column can hold times of day, which stay as they are)
            df[col] = df[col].map(lambda v: v.strip() or np.nan if isinstance(v, str) else v)
    return df


def _sas_frame(data: bytes, max_rows: int) -> tuple[pd.DataFrame, list[str]]:
    """A SAS ``.sas7bdat`` or transport (``.xpt``, V5 or V8) file (pyreadstat): dates as
    dates, blank text missing, as SAS treats it."""
    import pyreadstat

    xport = data.startswith(b"HEADER RECORD")
    if xport and len(data) % 80:
        # a transport file is made of 80-byte records: a cut-off one read part of its rows
        raise ValueError(f"{len(data):,} bytes, not whole 80-byte records: the file is cut "
                         "short")
    suffix, read = (".xpt", pyreadstat.read_xport) if xport else (".sas7bdat",
                                                                  pyreadstat.read_sas7bdat)
    try:
        df, meta = _from_path(data, suffix, read, row_limit=max_rows + 1)
    except UnicodeDecodeError:  # text in Latin-1 (SAS's wlatin1 sessions), not UTF-8
        df, meta = _from_path(data, suffix, read, row_limit=max_rows + 1, encoding="latin1")
    out = _blank_missing(df)
    out.attrs["labels"] = variable_labels(meta.column_names_to_labels)
    return out, _variable_label_notes(meta.column_names_to_labels, "SAS")


#: A duration column's unit: the largest whose size its median reaches.
_DURATION_UNITS = (("days", 86_400.0), ("hours", 3_600.0), ("minutes", 60.0), ("seconds", 1.0))


def _durations_in_units(df: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Timedelta columns as numbers in a unit their size reads in, the unit in the name
    (``lead_time (days)``), with a note each.  As seconds with no unit a rule read
    ``lead_time > 4870000`` for 56 days (a review)."""
    notes = []
    for col in [c for c in df.columns if pd.api.types.is_timedelta64_dtype(df[c])]:
        seconds = df[col].dt.total_seconds()
        typical = float(seconds.abs().median()) if seconds.notna().any() else 0.0
        unit, size = next(((u, z) for u, z in _DURATION_UNITS if typical >= z),
                          _DURATION_UNITS[-1])
        named = f"{str(col).strip()} ({unit})"
        taken = {str(c).strip() for c in df.columns}
        k = 1
        while named in taken:  # a column of that name already (names are compared stripped)
            k += 1
            named = f"{str(col).strip()} ({unit}, {k})"
        df = df.assign(**{str(col): (seconds / size).round(6)}).rename(columns={col: named})
        notes.append(f"{str(col).strip()!r}: durations, read as a number of {unit} "
                     f"({named!r}).")
    return df, notes


def _cells_of(df: pd.DataFrame, name: str, max_rows: int, max_columns: int,
              keep_order: bool = False) -> pd.DataFrame:
    """A typed frame as the CSV reader's frame of cells, within the size limits and with
    distinct column names; with ``keep_order`` an ordered category stays one, its levels
    as text (:func:`rulecore.scales.level_order` reads its order)."""
    if len(df) > max_rows:
        raise DataError(f"{name} has {len(df):,} rows; the limit is {max_rows:,}. Sample it "
                        "and try again.")
    if df.shape[1] > max_columns:
        from rulecore.data import too_wide

        raise DataError(too_wide(name, df.shape[1], max_columns))
    df.columns = [str(c).strip() for c in df.columns]
    if df.columns.duplicated().any():
        dups = sorted(set(df.columns[df.columns.duplicated()]))
        raise DataError(f"{name} has duplicate column names: {', '.join(map(repr, dups))}. "
                        "Rename them so every column has its own name.")
    return pd.DataFrame({c: _ordered_cells(df[c]) if keep_order and _ordered(df[c]) else
                         _as_cells(df[c]) for c in df.columns})


def _ordered(s: pd.Series) -> bool:
    return isinstance(s.dtype, pd.CategoricalDtype) and bool(s.dtype.ordered)


def _ordered_cells(s: pd.Series) -> pd.Series:
    """An ordered category with its levels as text, in their order."""
    from rulecore.rules.terms import level_key

    levels = [_object_text(c) for c in s.cat.categories]
    if len({level_key(v) for v in levels}) < len(levels):  # 1 and 1.0: one level to a rule
        return _as_cells(s)
    return pd.Series(pd.Categorical.from_codes(s.cat.codes, categories=levels, ordered=True),
                     index=s.index, name=s.name)


def looks_like_json(text: str) -> bool:
    """JSON: an array of objects, JSON Lines, objects one after another (pretty-printed), or
    one object holding the records, judged from the text's start."""
    start = text.lstrip("\ufeff \t\n")
    if start.startswith("["):
        return start[1:].lstrip().startswith(("{", "]"))
    if not start.startswith("{"):
        return False
    after = start[1:].lstrip()
    return after.startswith('"') or after.startswith("}")  # a key, or an empty object


def _records(text: str, name: str, max_rows: int) -> list:
    """The values of a JSON text: its array, or the objects it holds one after another
    (JSON Lines, or pretty-printed over several lines); one object holding the records
    under a key (``{"data": [...]}``) gives those."""
    decoder = json.JSONDecoder()
    values, at = [], 0
    while at < len(text):
        try:
            value, end = decoder.raw_decode(text, at)
        except ValueError as exc:
            line = text.count("\n", 0, at) + 1
            raise DataError(f"{name} looks like JSON but line {line} could not be read "
                            f"({exc}). Each record must be one JSON object.") from None
        values.append(value)
        if len(values) > max_rows:
            break
        at = end
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
    if len(values) == 1 and isinstance(values[0], list):
        return values[0]
    if len(values) == 1 and isinstance(values[0], dict):
        # an API's answer: the records under one key (the longest list of objects)
        lists = [v for v in values[0].values()
                 if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)]
        if lists:
            return max(lists, key=len)
    return values


def json_frame(text: str, name: str, max_rows: int, max_columns: int) -> pd.DataFrame:
    """JSON Lines or a JSON array of objects as the CSV reader's frame: one row per object,
    nested objects flattened (``address.city``), lists and other values as text.  An export
    of events or an API's records read as CSV made the first record the header (a review:
    the target was ``"converted": true}``)."""
    records = _records(text.lstrip("\ufeff \t\n"), name, max_rows)
    if not all(isinstance(r, dict) for r in records):
        raise DataError(f"{name} is JSON, but not a list of records (objects with the same "
                        "keys): export the table as JSON Lines or CSV.")
    if len(records) > max_rows:
        raise DataError(f"{name} has more than {max_rows:,} records; the limit is "
                        f"{max_rows:,}. Sample it and try again.")
    wrapped: set[str] = set()
    if '"$' in text:  # MongoDB's export: no pass over the records where it cannot be one
        records = [_extended_json_plain(r, wrapped) for r in records]
    df = pd.json_normalize(records)
    df = df.apply(lambda s: s.map(lambda v: json.dumps(v) if isinstance(v, (list, dict))
                                  else v) if s.dtype == object else s)
    out = _cells_of(df, name, max_rows, max_columns)
    if wrapped:
        out.attrs["notes"] = [
            f"Read as MongoDB Extended JSON: {', '.join(sorted(wrapped))} values are read as "
            'the value they wrap (an id as its text, {"$date": ...} as the date).']
    return out


def _ext_date(v: Any) -> Any:
    """``{"$date": ...}``: an ISO text (relaxed mode) as it is; milliseconds since 1970
    (canonical mode, or a date outside 1970-9999) as an ISO text the date reader knows."""
    if isinstance(v, dict) and set(v) == {"$numberLong"}:
        v = v["$numberLong"]
    if isinstance(v, (int, float)) or isinstance(v, str) and v.lstrip("-").isdigit():
        return pd.Timestamp(int(v), unit="ms").isoformat()
    return v


#: MongoDB Extended JSON's wrappers (``mongoexport``, relaxed and canonical modes) of values
#: that a table holds as one cell: as written, ``{"_id": {"$oid": "65a1..."}}`` became a
#: column ``_id.$oid`` and, in canonical mode, every number a column ``x.$numberInt``.
_EXTENDED_JSON: dict[str, Callable[[Any], Any]] = {
    "$oid": str, "$uuid": str, "$symbol": str,
    "$numberInt": int, "$numberLong": int,
    "$numberDouble": float, "$numberDecimal": float,  # also "NaN" and "Infinity"
    "$date": _ext_date,
}


def _extended_json_plain(v: Any, wrapped: set[str]) -> Any:
    """``v`` with every one-key ``{"$oid": ...}``-style wrapper replaced by its value, and
    the wrappers met added to ``wrapped``; other values as they are."""
    if isinstance(v, dict):
        if len(v) == 1:
            ((key, inner),) = v.items()
            if key in _EXTENDED_JSON:
                try:
                    plain = _EXTENDED_JSON[key](inner)
                except (TypeError, ValueError, OverflowError):
                    return v
                wrapped.add(key)
                return plain
        return {k: _extended_json_plain(x, wrapped) for k, x in v.items()}
    if isinstance(v, list):
        return [_extended_json_plain(x, wrapped) for x in v]
    return v


def _value_label_notes(labels: pd.DataFrame, codes: pd.DataFrame) -> list[str]:
    """A note per Stata column read through its value labels: the rules compare the labels
    (``smoker == Yes``), while the raw file holds the codes (1), so an exported rule needs the
    mapping (a newcomer's review: the SQL selected nothing on the coded table)."""
    notes = []
    for col in labels.columns:
        if not isinstance(labels[col].dtype, pd.CategoricalDtype) or col not in codes:
            continue
        pairs = (pd.DataFrame({"code": codes[col], "label": labels[col].astype(object)})
                 .dropna().drop_duplicates().sort_values("code"))
        if pairs.empty:
            continue
        notes.append(_labels_note(col, dict(pairs.itertuples(index=False)), "Stata"))
    return notes


def _labels_note(col: Any, labels: dict, program: str) -> str:
    """``'smoker': Stata value labels are read as their text (1 = 'Yes', ...)``."""
    pairs = sorted(labels.items(), key=lambda kv: (not isinstance(kv[0], (int, float)),
                                                   kv[0] if isinstance(kv[0], (int, float))
                                                   else str(kv[0])))
    shown = ", ".join(f"{_object_text(c) if isinstance(c, float) else c} = {lab!r}"
                      for c, lab in pairs[:8])
    more = f" and {len(pairs) - 8} more" if len(pairs) > 8 else ""
    return (f"{str(col).strip()!r}: {program} value labels are read as their text "
            f"({shown}{more}); the file stores the codes.")


def variable_labels(named: dict[str, str | None]) -> dict[str, str]:
    """``{column: label}`` of a file's variable labels (Stata's, SPSS's, SAS's), those that
    say more than the name (:attr:`rulecore.data.Dataset.labels`)."""
    return {str(k).strip(): v.strip() for k, v in named.items()
            if v and v.strip() and v.strip() != str(k).strip()}


def _variable_label_notes(named: dict[str, str | None], program: str = "Stata") -> list[str]:
    """Stata's or SPSS's variable labels (``educ``: "Highest education completed"), said in
    one note: the rules name the short variables, and the labels were shown nowhere (a
    review)."""
    labels = {k: v for k, v in named.items() if v and v.strip() and v.strip() != k}
    if not labels:
        return []
    shown = "; ".join(f"{str(k).strip()!r}: {v.strip()}" for k, v in list(labels.items())[:12])
    more = f"; and {len(labels) - 12} more" if len(labels) > 12 else ""
    return [f"{program} variable labels (what each column means): {shown}{more}."]


def _as_cells(s: pd.Series) -> pd.Series:
    """One typed column as the CSV reader would hold it."""
    if pd.api.types.is_bool_dtype(s):
        return s.map({True: "TRUE", False: "FALSE"}).astype(object)
    if pd.api.types.is_numeric_dtype(s):
        if isinstance(s.dtype, pd.api.extensions.ExtensionDtype):  # Int64 / Float64 with <NA>
            return s.astype("float64") if s.isna().any() else s.to_numpy(
                dtype=s.dtype.numpy_dtype)
        return s
    if pd.api.types.is_datetime64_any_dtype(s):
        if getattr(s.dt, "tz", None) is not None:
            s = s.dt.tz_localize(None)  # the wall-clock time the table was written in
        fmt = "%Y-%m-%d" if (s.dropna() == s.dropna().dt.normalize()).all() else \
            "%Y-%m-%d %H:%M:%S"
        return s.dt.strftime(fmt).astype(object).where(s.notna())
    if pd.api.types.is_timedelta64_dtype(s):
        return s.dt.total_seconds()
    # text, categories (Stata's value labels), and objects (dates, decimals, bytes)
    present = s.notna()
    text = s.astype(object).where(present)
    return text.map(_object_text, na_action="ignore").astype(object)


def _object_text(v: Any) -> str:
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="replace")
    if isinstance(v, float):
        return format(v, ".15g")
    return _cell_text(v) if isinstance(v, (dt.date, dt.time, bool)) else str(v)
