"""Ordered scales: columns of words whose levels have an order (docs/terms.md, "Ordered
scales").

A survey's ``Strongly disagree … Strongly agree``, a ticket's ``Low / Medium / High`` or a
shirt's ``S / M / L`` are categories with an order.  Read unordered, "at most Neutral" takes
two conditions (``q3 != Agree AND q3 != Strongly agree``), and a rule that costs a penalty
per condition may not afford them; read in order it is one, ``q3 <= Neutral``.

A column is *ordinal* when it is a pandas ordered ``Categorical`` (its categories give the
order) or when every level it holds is a word of one of the known :data:`SCALES`, at least
three of its steps present (two levels are one split either way: ``x == High`` is
``x > Low``); answers that are no step (``Don't know``, :data:`NO_ANSWER`) may sit beside
them.  So is a column of version numbers (``1.9.3 < 1.10.0 < 2.0.0``), and one whose levels
are all bands of numbers that do not overlap (age groups
``18-24``, ``25-34``, ``65+``; income bands ``$25,000-$49,999``; :func:`band`), ordered by
their numbers.  A level outside the order (such an answer, or one not seen in training) is read as
missing, as text is in a column of numbers.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

#: Known scales, lowest step first; each step lists its spellings (compared without capitals,
#: spaces collapsed).  Grades (A–F) are left out: "grade <= C" reads as the alphabet, not as
#: "C or worse".  A label with its code ("1. White") is judged by its words (the code alone
#: need not be an order).
SCALES: tuple[tuple[tuple[str, ...], ...], ...] = (
    # the Braun-Blanquet cover-abundance scale of vegetation surveys (r: one or a few
    # plants, +: few, 1 to 5: cover up to 5 %, ... over 75 %): read unordered, a stranger's
    # quadrats gave 'Lolium perenne != r AND != 1 AND != +'
    (("r",), ("+",), ("1",), ("2",), ("3",), ("4",), ("5",)),
    # ... and its extended form, step 2 split by cover (2m < 2a < 2b: a review)
    (("r",), ("+",), ("1",), ("2m",), ("2a",), ("2b",), ("3",), ("4",), ("5",)),
    (("strongly disagree", "completely disagree", "totally disagree"),
     ("disagree",),
     ("somewhat disagree", "slightly disagree", "mildly disagree", "tend to disagree",
      "mostly disagree"),
     ("neutral", "neither agree nor disagree", "neither agree or disagree", "undecided"),
     ("somewhat agree", "slightly agree", "mildly agree", "tend to agree", "mostly agree"),
     ("agree",),
     ("strongly agree", "completely agree", "totally agree")),
    (("extremely dissatisfied",),
     ("very dissatisfied",),
     ("dissatisfied", "unsatisfied"),
     ("somewhat dissatisfied", "slightly dissatisfied"),
     ("neutral", "neither satisfied nor dissatisfied", "neither satisfied or dissatisfied"),
     ("somewhat satisfied", "slightly satisfied"),
     ("satisfied",),
     ("very satisfied",),
     ("extremely satisfied",)),
    (("very unlikely", "extremely unlikely"),
     ("unlikely",),
     ("somewhat unlikely",),
     ("neutral", "neither likely nor unlikely"),
     ("somewhat likely",),
     ("likely",),
     ("very likely", "extremely likely")),
    (("not at all important", "not important"),
     ("slightly important", "of little importance", "low importance"),
     ("moderately important", "somewhat important"),
     ("important",),
     ("very important",),
     ("extremely important",)),
    (("none",),
     ("very low", "lowest"),
     ("low",),
     ("medium", "moderate", "med", "mid", "normal", "average"),
     ("high",),
     ("very high", "highest"),
     ("critical", "urgent")),
    (("never",),
     ("rarely", "seldom"),
     ("sometimes", "occasionally"),
     ("often", "frequently"),
     ("usually", "mostly"),
     ("always",)),
    (("very poor", "terrible"),
     ("poor", "bad"),
     ("fair", "average", "ok", "okay"),
     ("good",),
     ("very good",),
     ("excellent",)),
    # the Ames housing data's quality codes (Kaggle's House Prices: ExterQual, HeatingQC,
    # KitchenQual: poor, fair, typical, good, excellent); unordered, 'HeatingQC != Ex AND
    # HeatingQC != Gd' stood for 'HeatingQC <= TA' (a stranger's download)
    (("po",), ("fa",), ("ta",), ("gd",), ("ex",)),
    (("none",),
     ("mild",),
     ("moderate",),
     ("severe",),
     ("very severe",)),
    # German, French and Spanish satisfaction and agreement, and German low / high: a
    # German HR export's 'Zufriedenheit' gave three '!=' where '<= unzufrieden' was meant
    # (a stranger's table)
    (("sehr unzufrieden", "völlig unzufrieden", "ganz unzufrieden"),
     ("unzufrieden",),
     ("eher unzufrieden",),
     ("neutral", "weder noch", "weder zufrieden noch unzufrieden", "teils/teils",
      "teils teils", "teils-teils"),
     ("eher zufrieden",),
     ("zufrieden",),
     ("sehr zufrieden", "völlig zufrieden", "ganz zufrieden")),
    (("stimme überhaupt nicht zu", "stimme gar nicht zu", "trifft überhaupt nicht zu",
      "trifft gar nicht zu"),
     ("stimme nicht zu", "trifft nicht zu"),
     ("stimme eher nicht zu", "trifft eher nicht zu"),
     ("neutral", "weder noch", "teils/teils", "teils teils", "teils-teils"),
     ("stimme eher zu", "trifft eher zu"),
     ("stimme zu", "trifft zu"),
     ("stimme voll und ganz zu", "stimme voll zu", "trifft voll und ganz zu",
      "trifft voll zu")),
    (("sehr niedrig",), ("niedrig", "gering"), ("mittel", "mittelmäßig"), ("hoch",),
     ("sehr hoch",)),
    (("très insatisfait", "pas du tout satisfait"),
     ("insatisfait", "pas satisfait"),
     ("plutôt insatisfait", "peu satisfait", "plutôt pas satisfait"),
     ("neutre", "ni satisfait ni insatisfait"),
     ("plutôt satisfait", "assez satisfait"),
     ("satisfait",),
     ("très satisfait", "tout à fait satisfait")),
    (("pas du tout d'accord", "tout à fait en désaccord"),
     ("pas d'accord", "en désaccord"),
     ("plutôt pas d'accord", "plutôt en désaccord"),
     ("neutre", "ni d'accord ni pas d'accord"),
     ("plutôt d'accord",),
     ("d'accord",),
     ("tout à fait d'accord", "entièrement d'accord")),
    (("muy insatisfecho", "muy insatisfecha"),
     ("insatisfecho", "insatisfecha"),
     ("neutral", "ni satisfecho ni insatisfecho", "ni satisfecha ni insatisfecha"),
     ("satisfecho", "satisfecha"),
     ("muy satisfecho", "muy satisfecha")),
    (("totalmente en desacuerdo", "muy en desacuerdo"),
     ("en desacuerdo",),
     ("neutral", "ni de acuerdo ni en desacuerdo"),
     ("de acuerdo",),
     ("totalmente de acuerdo", "muy de acuerdo")),
    # months and weekdays: a calendar's order (January first, Monday first as ISO 8601 has
    # it); read unordered, a summer rule took 15 "month != ..." conditions (a review)
    tuple((m.lower(), m[:3].lower()) + (("sept",) if m == "September" else ())
          for m in ("January", "February", "March", "April", "May", "June", "July",
                    "August", "September", "October", "November", "December")),
    tuple((d.lower(), d[:3].lower()) + extra for d, extra in (
        ("Monday", ()), ("Tuesday", ("tues",)), ("Wednesday", ()), ("Thursday", ("thur",
                                                                              "thurs")),
        ("Friday", ()), ("Saturday", ()), ("Sunday", ()))),
    (("xxs", "2xs"),
     ("xs", "extra small"),
     ("s", "small"),
     ("m", "medium"),
     ("l", "large"),
     ("xl", "extra large"),
     ("xxl", "2xl"),
     ("xxxl", "3xl")),
)

#: The month and weekday scales: every step is known and spelled one way, so a column of
#: them is read with its whole calendar, the steps it lacks written in its style.  A table
#: without July read 'month <= Aug AND month > May' and then said no to July (an adversarial
#: review): a level missing from the order reads as missing.
_CALENDARS = SCALES[-3:-1]


def _whole_calendar(scale: tuple[tuple[str, ...], ...], present: dict[int, str]
                    ) -> tuple[str, ...]:
    """Every step of a calendar ``scale``, the ``present`` ones ({step: level}) as written,
    the others as the present ones are: abbreviated (``Jul``) or whole (``July``), in capitals,
    small letters or title case."""
    texts = list(present.values())
    # "May" is both: the other months say which
    told = [_word(t).rstrip(".") != scale[i][0] for i, t in present.items()
            if scale[i][0] != scale[i][1]]
    short = bool(told) and all(told)
    case = (str.upper if all(t.isupper() for t in texts) else
            str.lower if all(t.islower() for t in texts) else str.title)
    return tuple(present.get(i) or case(step[1] if short else step[0])
                 for i, step in enumerate(scale))


#: Answers that are no step of a scale ("Don't know" beside Disagree … Agree): a column may
#: hold them and still be a scale, where they read as missing (compared without capitals).
NO_ANSWER = frozenset({"don't know", "dont know", "do not know", "not sure", "unsure",
                       "no opinion", "prefer not to say", "prefer not to answer", "no answer",
                       "not applicable", "n/a", "na", "unknown", "refused", "dk",
                       # French and Spanish (a review: "Sans opinion" was read as a step)
                       "sans opinion", "ne sait pas", "nsp", "ne sais pas", "no sabe",
                       "ns/nc", "no opina", "sin opinión"})

#: Most levels a known scale has; a column with more distinct values is not one.
_MAX_STEPS = max(len(s) for s in SCALES)
#: Most bands of numbers an ordered column may have (five-year age groups 0-4 … 85+: 18).
MAX_BANDS = 30
_SPACES = re.compile(r"[\s_]+")


def _word(level: Any) -> str:
    return _SPACES.sub(" ", str(level).strip().casefold())


_STEP: list[dict[str, int]] = [{w: i for i, step in enumerate(scale) for w in step}
                               for scale in SCALES]


# "2.0-2.5" is no code; "1 - Critical" and "1-Low" are (a ticket system's); "18 - 24" is a
# band, not the code 18 of "24"
_CODED = re.compile(r"^\s*\d{1,3}\s*(?:[=:)]\s*|\.\s+|-\s*(?=[^\W\d]))(\S.*)$")
_NUM = r"[$€£]?\s*(\d[\d,]*(?:\.\d+)?)\s*([kKmM])?"
#: Bands of numbers: "18-24", "25 to 34", "$25,000-$49,999", "65+", "65 and over",
#: "under 18", "<18", "10k-20k".
_BANDS = (
    (re.compile(rf"^{_NUM}\s*(?:-|–|—|to)\s*{_NUM}$"), "between"),
    (re.compile(rf"^(?:>=?|≥|over|above|more than|at least)\s*{_NUM}$|"
                rf"^{_NUM}\s*(?:\+|and (?:over|above|older|up)|or (?:more|older|over))$"),
     "above"),
    (re.compile(rf"^(?:<=?|≤|under|below|less than|up to)\s*{_NUM}$"), "below"),
)


def _amount(digits: str, scale: str | None) -> float:
    return float(digits.replace(",", "")) * {"k": 1e3, "m": 1e6}.get((scale or "").lower(), 1)


#: Units a band may name after its numbers ("2-4 years", "10+ years", "0-10%").
_BAND_UNITS = re.compile(r"\s*(?:%|percent|years?|yrs?|months?|weeks?|days?|hours?|hrs?)"
                         r"(?![a-z])")
_POINT = re.compile(rf"^{_NUM}$")


def band(level: str, points: bool = False) -> tuple[float, float] | None:
    """``(low, high)`` of a band of numbers written as text ("18-24": (18, 24), "65+":
    (65, inf), "under 18": (-inf, 18), "0-10%", "10+ years"), or None; with ``points`` a
    lone number is a band of one ("1 year": (1, 1)), as an employment length has it beside
    "< 1 year" and "10+ years"."""
    w = _BAND_UNITS.sub("", _word(level)).strip()
    if points and (m := _POINT.match(w)):
        v = _amount(m.group(1), m.group(2))
        return v, v
    for pattern, kind in _BANDS:
        m = pattern.match(w)
        if not m:
            continue
        g = [x for x in m.groups()]
        if kind == "between":
            lo, hi = _amount(g[0], g[1]), _amount(g[2], g[3])
            return (lo, hi) if lo < hi else None
        g = [x for x in g if x is not None]
        num = next(x for x in g if x[0].isdigit())
        unit = next((x for x in g if x.lower() in ("k", "m")), None)
        v = _amount(num, unit)
        return (v, np.inf) if kind == "above" else (-np.inf, v)
    return None


def _band_order(levels: list) -> tuple[str, ...] | None:
    """Levels that are all bands of numbers, in order, when the bands do not overlap."""
    spans = [band(v) for v in levels]
    if any(spans) and None in spans:  # lone numbers beside bands ("1 year" by "< 1 year")
        spans = [band(v, points=True) for v in levels]
    if None in spans:
        return None
    ranked = sorted(zip(spans, levels))
    for (a, _), (b, _) in zip(ranked, ranked[1:]):
        if a[1] > b[0]:  # "18-30" beside "25-40": not one scale
            return None
    return tuple(str(v) for _, v in ranked)


_VERSION = re.compile(r"^[vV]?(\d+)\.(\d+)\.(\d+)$")
#: Most levels of a column of version numbers read in order.
MAX_VERSIONS = 500


def _version_order(levels: Any) -> tuple[str, ...] | None:
    """Version numbers (``1.9.3``, ``1.10.0``, ``v2.0.0``: three parts; four are an IP
    address as often) in version order, part by part as numbers; ``None`` for other levels.
    Read unordered, a crash rule listed four ``app_version != ...`` (a review); as text
    ``1.10.0`` sorts before ``1.9.3``."""
    if not 1 <= len(levels) <= MAX_VERSIONS:
        return None
    keys = []
    for v in levels:
        m = _VERSION.match(str(v).strip())
        if m is None:
            return None
        keys.append((tuple(int(g) for g in m.groups()), str(v)))
    if len({k for k, _ in keys}) < len(keys):
        return None  # "1.2.0" and "v1.2.0": one version twice, no order between them
    return tuple(v for _, v in sorted(keys))


#: Credit ratings, lowest (default) first: S&P's and Fitch's letters with their notches, and
#: Moody's.  Read unordered, an issuer table's default rule took 14 ``!=`` conditions and
#: still said CCC issuers would not default (a review); in order it is ``rating <= BB-``.
_RATINGS = (
    ("D", "SD", "RD", "C", "CC", "CCC-", "CCC", "CCC+", "B-", "B", "B+", "BB-", "BB", "BB+",
     "BBB-", "BBB", "BBB+", "A-", "A", "A+", "AA-", "AA", "AA+", "AAA"),
    ("C", "Ca", "Caa3", "Caa2", "Caa1", "B3", "B2", "B1", "Ba3", "Ba2", "Ba1", "Baa3", "Baa2",
     "Baa1", "A3", "A2", "A1", "Aa3", "Aa2", "Aa1", "Aaa"),
)
#: Steps of each rating scale that nothing else is written as: S&P's double and triple B,
#: Moody's with a small letter.
_RATING_MARKS = ({"BBB+", "BBB", "BBB-", "BB+", "BB", "BB-"},
                 {s for s in _RATINGS[1] if s != s.upper()})
#: Not a rating: not rated, withdrawn (read as missing beside the ratings).
_NOT_RATED = frozenset({"NR", "WR", "N/R", "NOT RATED"})


def _rating_order(levels: Any) -> tuple[str, ...] | None:
    """The levels in credit-rating order (:data:`_RATINGS`), written exactly so (capitals
    matter: Moody's ``Ba1`` is no S&P step), with three of them at least and one no single
    letter (``A``, ``B``, ``C`` alone are plans or zones as often); ``None`` otherwise."""
    text = [str(v).strip() for v in levels]
    rated = [t for t in text if t.upper() not in _NOT_RATED]
    if len(rated) < 3 or all(len(t) == 1 for t in rated):
        return None
    for scale, marks in zip(_RATINGS, _RATING_MARKS):
        # a step only ratings have: battery sizes (AAA, AA, C, D), letter grades (A+, B-),
        # wells (A1 … B3) and language levels (A1 … B2) are no ratings (an adversarial
        # review read them in a rating's order)
        if set(rated) <= set(scale) and set(rated) & marks:
            if all(str(v) == t for v, t in zip(levels, text)):
                # the whole scale, as the calendars: a rating the table lacks (a new issuer's
                # B-) falls in its place instead of reading as missing
                return scale
            return tuple(str(v) for v, t in sorted(zip(levels, text),
                                                    key=lambda p: scale.index(p[1])
                                                    if p[1] in scale else -1)
                         if t in scale)
    return None


_ORDINAL = re.compile(r"^\s*(\d{1,4})\s*(?:st|nd|rd|th|\.)?\s*$", re.IGNORECASE)
_ORDINAL_SUFFIX = re.compile(r"\d\s*(?:st|nd|rd|th)\s*$", re.IGNORECASE)


#: A letter grade, with a plus or minus or not (``B+``, ``A-``, ``C``): F lowest, A+ highest.
LETTER_GRADE = re.compile(r"^\s*([A-DF])\s*([+\-−]?)\s*$")


def _grade_order(levels: Any) -> tuple[str, ...] | None:
    """Letter grades in order, lowest first (``F < D- < D < D+ < … < A+``), when some grade
    carries a plus or a minus: then the letters are grades, not the alphabet ("grade <= C"
    read alone as A, B or C, which is why bare letters are no scale here; a stranger's
    ``B+``, ``A-`` were unordered and the rule never used them).  ``None`` otherwise."""
    parsed = [LETTER_GRADE.match(str(v)) for v in levels]
    if not all(parsed) or not any(m.group(2) for m in parsed):
        return None
    def rank(m: re.Match) -> tuple[int, int]:
        letter = "FDCBA".index(m.group(1))
        return letter, {"-": -1, "−": -1, "": 0, "+": 1}[m.group(2)]

    keys = [rank(m) for m in parsed]
    if len(set(keys)) < len(keys):
        return None
    return tuple(str(v) for _, v in sorted(zip(keys, levels)))


_SUB_GRADE = re.compile(r"^([A-G])([1-5])$")


def _sub_grade_order(levels: Any) -> tuple[str, ...] | None:
    """A loan's sub-grades (Lending Club's ``A1`` … ``G5``) in order, best highest as the
    letter grades and the credit ratings are: ``G5 < G4 < … < A2 < A1``.  Read unordered, a
    rule listed seven ``sub_grade != …`` conditions (a stranger's export).  ``None`` unless
    every level is a letter A-G and a digit 1-5, with five letters or more, each with two
    numbers or more (one letter's seats, ``A1`` … ``A4``, a plate's wells ``A1`` … ``C3``
    and language levels ``A1`` … ``C2``, whose C2 is the highest, are no such scale)."""
    parsed = [_SUB_GRADE.match(str(v)) for v in levels]
    if not parsed or not all(parsed):
        return None
    digits: dict[str, set[str]] = {}
    for m in parsed:
        digits.setdefault(m.group(1), set()).add(m.group(2))
    if len(digits) < 5 or any(len(d) < 2 for d in digits.values()):
        return None
    return tuple(sorted((str(v) for v in levels), key=lambda v: ("ABCDEFG".index(v[0]),
                                                                 int(v[1])), reverse=True))


def _ordinal_order(levels: Any) -> tuple[str, ...] | None:
    """Places written as English ordinals (``1st``, ``2nd``, ``3rd``, ``11th``), in their
    numbers' order; a few other levels beside them (``PL`` for a pit-lane start, ``DNF``)
    are off the scale, read as missing, as a rating's ``NR`` is.  Read unordered, a race's
    grid gave 17 ``grid != 5th`` conditions where ``grid <= 4th`` was meant (an analyst's
    review).  ``None`` unless three or more levels carry a suffix and at most one other is
    beside them."""
    text = [str(v) for v in levels]
    places = {t: _ORDINAL.match(t) for t in text}
    ordinal = [t for t, m in places.items() if m and _ORDINAL_SUFFIX.search(t)]
    # one level off the scale at most: two (DNF, DSQ) would both read as missing, one
    # level, and a rule lost the one that mattered (an adversarial review)
    if len(ordinal) < 3 or len(text) - len(ordinal) > 1:
        return None
    numbered = sorted(ordinal, key=lambda t: int(places[t].group(1)))
    if len({int(places[t].group(1)) for t in numbered}) < len(numbered):
        return None  # '1st' and '1 st': one place twice
    return tuple(numbered)


def level_order(s: pd.Series, min_levels: int = 3) -> tuple[str, ...] | None:
    """The order of a column's levels, lowest first, as the levels are written; ``None``
    when the column is not an ordered scale.

    An ordered pandas ``Categorical`` gives all its categories, when at least ``min_levels``
    of them are present (and no two are one level as text: ``1`` and ``1.0``); a column of
    text gives its levels sorted on the first known scale (:data:`SCALES`) that holds every
    one of them, one step each, or as bands of numbers (:func:`band`), when it holds
    ``min_levels`` levels or more.  Three to call a column ordinal (two levels are one
    split either way); one for a column known to be ordinal (a fold of the rows may hold
    fewer levels than the table: a review).
    """
    from rulecore.rules.terms import level_key

    if isinstance(s.dtype, pd.CategoricalDtype):
        if not s.dtype.ordered:
            return None
        order = tuple(str(c) for c in s.cat.categories)
        if len({level_key(c) for c in order}) < len(order):
            return None  # "1" and "1.0" are one level to a rule: no order between them
        codes = s.cat.codes.to_numpy()
        # at most one level asked for: any present row will do, no count of the levels
        seen = int((codes >= 0).any()) if min_levels <= 1 else len(np.unique(codes[codes >= 0]))
        return order if seen >= min_levels else None
    if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
        return None
    levels = s.dropna().unique()
    if not all(isinstance(v, str) for v in levels):
        return None
    versions = _version_order(levels)
    if versions is not None:
        return versions if len(versions) >= min_levels else None
    ratings = _rating_order(levels)
    if ratings is not None:
        return ratings if len(ratings) >= min_levels else None
    places = _ordinal_order(levels)
    if places is not None:
        return places if len(places) >= min_levels else None
    grades = _grade_order(levels)
    if grades is not None:
        return grades if len(grades) >= min_levels else None
    subs = _sub_grade_order(levels)
    if subs is not None:
        return subs if len(subs) >= min_levels else None
    # a statistics package's labels carry their code ("1. Strongly disagree", "2 = 18-24",
    # "9. Don't know"): the words after it decide, as the code alone need not be an order
    coded = [_CODED.match(str(v)) for v in levels]
    words = [_word(m.group(1) if all(coded) else v) for m, v in zip(coded, levels)]
    kept = [(w, v) for w, v in zip(words, levels) if w not in NO_ANSWER]
    if not max(min_levels, 1) <= len(kept) <= MAX_BANDS:
        return None
    words, levels = [w for w, _ in kept], [v for _, v in kept]
    for k, step in enumerate(_STEP) if len(levels) <= _MAX_STEPS else ():
        ranked = [step.get(w) for w in words]
        if None not in ranked and len(set(ranked)) == len(ranked):
            if SCALES[k] in _CALENDARS and not all(coded):
                return _whole_calendar(SCALES[k], dict(zip(ranked, map(str, levels))))
            return tuple(str(v) for _, v in sorted(zip(ranked, levels)))
    order = _band_order(words)
    if order is None:
        return None
    return tuple(str(levels[words.index(w)]) for w in order)


def ranks(column: pd.Series | np.ndarray, order: tuple[str, ...]) -> np.ndarray:
    """Each cell's position in ``order`` (0 = lowest) as floats; NaN where the cell is
    missing or not a level of the order (a level never seen in training).

    Levels compare as :func:`rulecore.rules.terms.level_keys` does (``2`` and ``2.0`` are
    one level)."""
    from rulecore.rules.terms import level_key, level_keys

    position = {level_key(v): float(i) for i, v in enumerate(order)}
    keys = pd.Series(level_keys(pd.Series(column)), dtype=object)
    return keys.map(position).to_numpy(dtype=float, na_value=np.nan)


def describe(order: tuple[str, ...], most: int = 4) -> str:
    """``Low < Medium < High``, shortened in the middle past ``most`` levels."""
    shown = list(order) if len(order) <= most else \
        list(order[: most - 1]) + ["…", order[-1]]
    return " < ".join(shown)
