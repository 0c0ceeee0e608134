"""A generated corpus of malformed and hostile CSV inputs (issue: hardening).

``corpus()`` returns ``(name, bytes)`` pairs: hand-written cases for every kind of trouble a
user's file can bring, each crossed with seeded mutations (delimiter, line endings, BOM,
quoting, size), giving well over 200 inputs.  Deterministic: the same list every run.
"""

from __future__ import annotations

import numpy as np

RNG_SEED = 1234


def _table(rows: list[list[object]], sep: str = ",") -> str:
    def cell(v: object) -> str:
        t = "" if v is None else str(v)
        if sep in t or '"' in t or "\n" in t:
            t = '"' + t.replace('"', '""') + '"'
        return t
    return "\n".join(sep.join(cell(v) for v in r) for r in rows) + "\n"


def _good(n: int = 30, seed: int = 0) -> list[list[object]]:
    rng = np.random.default_rng(seed)
    rows: list[list[object]] = [["age", "city", "income", "label"]]
    for _ in range(n):
        rows.append([int(rng.integers(18, 80)), str(rng.choice(["Paris", "Rome", "Oslo"])),
                     round(float(rng.normal(50000, 9000)), 2), str(rng.choice(["yes", "no"]))])
    return rows


def base_cases() -> dict[str, str | bytes]:
    """Named hand-written inputs (text or raw bytes)."""
    rng = np.random.default_rng(RNG_SEED)
    good = _good()
    cases: dict[str, str | bytes] = {
        "empty": "",
        "blank lines": "\n\n\n",
        "header only": "a,b,label\n",
        "one column": "label\nyes\nno\nyes\n",
        "one row": "a,b,label\n1,2,yes\n",
        "one class": "a,b,label\n1,2,yes\n3,4,yes\n5,6,yes\n",
        "all-NaN feature": "a,b,label\n,1,yes\n,2,no\n,3,yes\n",
        "all-NaN features": "a,b,label\n,,yes\n,,no\nNA,?,yes\n",
        "all-NaN target": "a,b,label\n1,2,\n3,4,\n",
        "constant columns": "a,b,label\n1,x,yes\n1,x,no\n1,x,yes\n",
        "mixed types": "a,b,label\n1,x,yes\nfoo,2,no\n3.5,,yes\n4,y,no\n",
        "thousands separators": _table([["amount", "n", "label"], ["1,234", 1, "a"],
                                        ["12,345.50", 2, "b"], ["7", 3, "a"],
                                        ["1,000,000", 4, "b"]]),
        "decimal commas": "x;y;label\n1,5;2;a\n2,25;3;b\n3;4,75;a\n0,5;1;b\n",
        "duplicate headers": "a,a,label\n1,2,yes\n3,4,no\n",
        "blank headers": ",b,label\n1,2,yes\n3,4,no\n5,6,yes\n",
        "long headers": ",".join(["h" * 20000, "k" * 5000, "label"]) + "\n1,2,yes\n3,4,no\n",
        # past the csv module's 131,072 characters: an issue tracker's stack trace
        "cell over the csv limit": _table(
            [["key", "description", "label"]]
            + [[f"JRA-{k}", "at Frame.run " * (12_000 if k == 3 else 1 + k % 4),
                "yes" if k % 2 else "no"] for k in range(12)]),
        "unicode and RTL names": "名前,מחיר,تسمية,label\nあ,12,ا,yes\nい,13,ب,no\nう,14,ا,yes\n",
        "emoji": "🍎,🍌,label\n1,2,😀\n3,4,😢\n5,6,😀\n",
        "formula cells": _table([["cmd", "n", "label"], ["=cmd|' /C calc'!A0", 1, "yes"],
                                 ["+SUM(A1:A9)", 2, "no"], ["@HYPERLINK(\"x\")", 3, "yes"],
                                 ["-2+3", 4, "no"], ["=1+1", 5, "yes"]]),
        "formula headers": _table([["=HYPERLINK(\"http://x\")", "+cmd", "label"], [1, 2, "a"],
                                   [3, 4, "b"], [5, 6, "a"]]),
        "formula target": _table([["a", "label"], [1, "=1+1"], [2, "@x"], [3, "=1+1"]]),
        "huge numbers": "a,b,label\n1e308,1,yes\n-1e308,2,no\n1.7e308,3,yes\n",
        "overflow to inf": "a,b,label\n1e400,1,yes\n2,2,no\n-1e999,3,yes\n",
        "inf and nan text": "a,b,label\ninf,1,yes\n-inf,2,no\nnan,3,yes\n5,4,no\n",
        "binary garbage": bytes(rng.integers(0, 256, size=2000, dtype=np.uint8)),
        "png bytes": b"\x89PNG\r\n\x1a\n" + bytes(100),
        "latin-1": "a,city,label\n1,Zürich,yes\n2,Genève,no\n".encode("latin-1"),
        "utf-8 BOM": "\ufeff" + _table(good),
        "uneven fields": "a,b,label\n1,2,yes\n3,4,no,extra,more\n5,6\n",
        "unclosed quote": 'a,b,label\n1,"2,yes\n3,4,no\n',
        "only delimiters": ",,,\n,,,\n,,,\n",
        "tab separated": _table(good, "\t"),
        "pipe separated": _table(good, "|"),
        "semicolon separated": _table(good, ";"),
        "CRLF line ends": _table(good).replace("\n", "\r\n"),
        "CR line ends": _table(good).replace("\n", "\r"),
        "no trailing newline": _table(good).rstrip("\n"),
        "whitespace padding": _table([[f"  {c}  " for c in r] for r in good]),
        "quoted everything": "\n".join(",".join(f'"{c}"' for c in r) for r in good) + "\n",
        "NUL byte": b"a,b,label\n1,2,yes\n\x00\x00,4,no\n",
        "many classes": _table([["x", "label"]] + [[i, f"c{i}"] for i in range(60)]),
        "bool target": "a,label\n1,True\n2,False\n3,True\n4,False\n",
        "numeric target": "a,label\n1,0\n2,1\n3,0\n4,1\n",
        "float target": "a,label\n1,0.5\n2,1.5\n3,0.5\n",
        "target all distinct": _table([["x", "label"]] + [[i, i * 1.1] for i in range(10)]),
        "identifier only": _table([["id", "label"]] + [[f"u{i}", i % 2] for i in range(80)]),
        "100k categorical levels": _table(
            [["code", "x", "label"]] + [[f"L{i % 100_000}", i % 7, i % 2]
                                        for i in range(120_000)]),
        "wide": _table([[f"c{j}" for j in range(300)] + ["label"]] +
                       [[int(v) for v in rng.integers(0, 5, 300)] + [i % 2] for i in range(20)]),
        "negative zero and exponents": "a,b,label\n-0,1e-5,yes\n0,2E3,no\n+3,-.5,yes\n",
        "html": b"<html><body><table><tr><td>1</td></tr></table></body></html>",
        "json": b'{"a": [1, 2, 3], "label": ["x", "y", "x"]}',
        "single cell": "label\n",
        "header with newline": '"a\nb",c,label\n1,2,yes\n3,4,no\n',
        "libsvm": "+1 1:0.5 3:-1\n-1 2:0.25 3:1\n+1 1:0.1 2:0.2\n-1 3:0.5\n",
        "libsvm broken later": "+1 1:0.5 3:-1\n-1 2:0.25\n+1 1:0.1\n-1 3:0.5\n" * 3 +
                               "+1 x:y\n",
        "libsvm huge index": "+1 1:0.5 99999999:1\n-1 2:0.25\n+1 1:0.1\n-1 3:0.5\n",
        "space separated": "a b label\n1 2 yes\n3 4 no\n5 6 yes\n",
        "space separated ragged": "a b label\n1 2 yes\n3 4 no x\n5 6 yes\n7 8\n",
        "nine codes everywhere": _table([["a", "b", "label"]] + [[-999, 999, -9]] * 15 +
                                        [[i, i, i % 2] for i in range(15)]),
        "script injection names": _table([["<script>alert(1)</script>", "'; DROP TABLE t;--",
                                           "label"], [1, 2, "a"], [3, 4, "b"], [5, 6, "a"]]),
    }
    return cases


MUTATIONS = ["as is", "crlf", "bom", "semicolon", "tab", "trailing blank lines",
             "double rows", "no header", "quoted"]


def _mutate(text: str, how: str) -> str:
    if how == "crlf":
        return text.replace("\n", "\r\n")
    if how == "bom":
        return "\ufeff" + text
    if how == "semicolon":
        return text.replace(",", ";")
    if how == "tab":
        return text.replace(",", "\t")
    if how == "trailing blank lines":
        return text + "\n\n\n"
    if how == "double rows":
        lines = text.splitlines()
        return "\n".join(lines[:1] + lines[1:] * 2) + "\n"
    if how == "no header":
        return "\n".join(text.splitlines()[1:]) + "\n"
    if how == "quoted":
        return "\n".join(",".join(f'"{c}"' for c in line.split(","))
                         for line in text.splitlines()) + "\n"
    return text


#: Mutations each small text case goes through besides "as is".  Every case under all eight
#: took 469 loads and fits (42 s of the suite); three each, rotating, still put every
#: mutation on about twenty cases of every kind, and each case under three of them.
MUTATIONS_PER_CASE = 3


def corpus() -> list[tuple[str, bytes]]:
    """Every base case as is, and each small text case under MUTATIONS_PER_CASE mutations,
    rotating through MUTATIONS so that every mutation meets cases of every kind."""
    out: list[tuple[str, bytes]] = []
    others = MUTATIONS[1:]
    for i, (name, value) in enumerate(base_cases().items()):
        if isinstance(value, bytes):
            out.append((name, value))
            continue
        muts = ["as is"]
        if len(value) < 5000:
            muts += [others[(i * MUTATIONS_PER_CASE + k) % len(others)]
                     for k in range(MUTATIONS_PER_CASE)]
        out += [(f"{name} / {how}", _mutate(value, how).encode("utf-8")) for how in muts]
    return out
