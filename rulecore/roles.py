"""Column roles: which columns of an analyst's table are features, which is the target, and why.

Tables exported from R, spreadsheets and databases carry columns no rule should use: row
numbers, record identifiers, free text, constants, dates stored as text.  Taken as features they
give rules such as ``column 1 > 112.5`` (the row number of a sorted table).  This module looks
at each column once, on load, and gives it a *role* with a reason a person can read
(``docs/data.md`` explains every rule below):

``feature``   used to build terms;
``index``     row numbers: an unnamed first column (R's ``write.csv`` and pandas' ``to_csv``
              write the row names there), or integers equal to 0..n−1 or 1..n in file order;
``id``        an identifier: nearly every value distinct (≥ 95 % of at least 20 values) in a
              text column, or in an integer column whose name says so (``id``, ``key``,
              ``code``, ``account``, ``customer``, ``phone`` ...) or whose values are a dense
              run (auto-increment keys); also a column named plainly as an identifier
              (``id``, ``patient_id``, ``customerId``) with more than
              :data:`MAX_TEXT_LEVELS` distinct values however often they repeat (several
              visits or orders per patient or customer), or named so in any way above with
              ≥ 80 % of them distinct (``order_no`` on order lines), and the first column of
              a file without a header holding whole numbers of four digits or more, ≥ 80 %
              distinct (``breast-cancer-wisconsin.data``, where patients come back);
``text``      text with more than :data:`MAX_TEXT_LEVELS` distinct values (names, comments,
              addresses): each of its terms would cover a handful of rows;
``date``      text that parses as dates; replaced by two derived numeric features,
              ``<col> (year)`` and ``<col> (month)``;
``choices``   a form's multi-select answers (options joined by ``;`` or ``,``, a varying
              number of them per row: "tick all that apply"); replaced by one yes/no
              feature per option, ``<col>: <option>``;
``constant``, ``empty``  one value, or none.

Everything but ``feature`` is excluded by default; a user can include any column (the Data
page's roles control, ``--include`` on the command line) and exclude any feature.

:func:`choose_target` picks the most plausible class column, and :func:`target_kind` says
whether a column is classes or a continuous quantity (which is only ever used through a
threshold, never as classes).  :func:`find_leaks` flags features that alone predict the
target almost perfectly.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from rulecore.scales import LETTER_GRADE

Role = Literal["feature", "target", "index", "id", "text", "date", "choices", "constant",
               "empty", "derived", "split"]
EXCLUDED_ROLES = ("index", "id", "text", "date", "constant", "empty", "split")

#: A text column with more distinct values than this is excluded by default.  The term builder
#: keeps at most 50 levels per column anyway (``Binarizer.max_levels``): past that, most levels
#: are rare, and a rule on one of them covers a handful of rows.
MAX_TEXT_LEVELS = 50
#: Share of distinct values (among present ones) from which a column reads as an identifier.
ID_DISTINCT_SHARE = 0.95
#: ... and the fewest present values for that test (five distinct values in five rows say
#: nothing).
ID_MIN_VALUES = 20
#: ... but a column of text with every one of at least this many values distinct is one
#: however few rows the table has.
ID_TINY_VALUES = 6
#: The first column of distinct whole numbers all at least this large, in a file without a
#: header, is an identifier.
ID_FIRST_MIN = 1_000
#: Share of distinct values from which such a first column, or a column with more than
#: :data:`MAX_TEXT_LEVELS` values whose name says identifier in any way ("order_no"), reads as
#: an identifier whose records repeat (a patient or customer comes back: 645 distinct of 699
#: in ``breast-cancer-wisconsin.data``).
ID_REPEATED_SHARE = 0.8
#: The names a file without a header gets (``rulecore.data.read_csv_frame``).
_POSITIONAL = re.compile(r"^x\d+$")
#: Share of present values that must parse as dates for a text column to be a date column.
DATE_SHARE = 0.95
#: A column with at most this many distinct values can be a target of classes; a numeric one
#: with more is continuous and needs a threshold.
MAX_CLASS_LEVELS = 10
#: Most distinct values a column's labels are looked through for no answers or a pipeline's
#: stages (a sales pipeline has a dozen stages at most; more values are no classes).
MAX_STAGES = 3 * MAX_CLASS_LEVELS
#: A feature that alone predicts the target with at least this accuracy is a possible leak.
LEAK_ACCURACY = 0.99
#: ... and a category with at least this one: codes that nearly name the class (a reviewer's
#: R1 / R2 matching approved / declined in 98.5 % of rows drove a rule with no warning; a
#: newcomer's review), where a measurement this sharp is more often a real predictor (a
#: planted threshold with 3 % noise, a fish's length for its species: 0.96-0.97).
LEAK_ACCURACY_CATEGORY = 0.97
#: ... and a number's best threshold must leave at most this share of the majority class's
#: errors: a fifth.  Half, before, flagged a rare class's strong feature: frauds 0.5 % of a
#: card table, a PCA component cut once finds 8 of 15 and is right on 99.8 % of rows (a
#: stranger's creditcard.csv).  Below a 95 % majority the accuracy bar is the stricter of
#: the two.  A category keeps half: a refund flag on upheld complaints, a rare class, is a
#: leak (an adversarial review).
LEAK_ERROR_SHARE = 0.2

_UNNAMED = re.compile(r"^(|unnamed: ?0|column 1|\.\.\.1|rownames|row\.names|row_names)$",
                      re.IGNORECASE)
# Names of identifier columns, the whole name or its last word: "id", "customer_id", "order",
# "Account", "phone number" (not "orders" or "account_balance": counts and amounts).  Only an
# integer column with nearly every value distinct is judged by its name.
#: Names of registry and catalogue numbers, which name a record and nothing else: meter
#: points (MPAN, MPRN), a listing's zpid, vehicles, books, barcodes, US provider and employer
#: numbers, securities.
_REGISTRY_NUMBERS = ("mpan|mprn|zpid|pid|vin|isbn|issn|ean|upc|gtin|asin|npi|ein|duns|cusip|"
                     # NHANES' respondent sequence number (a feature in a stranger's extract)
                     "isin|sedol|geoid|seqn")
_ID_NAME = re.compile(r"(^|[^a-z])(id|ids|key|uuid|guid|code|no|nr|num|number|index|idx|#|"
                      r"account|acct|customer|client|member|user|patient|subject|ticket|"
                      r"invoice|order|serial|phone|tel|telephone|mobile|sku|imei|msisdn|"
                      r"iban|ssn|badge|employee|mrn|"
                      # registry numbers, a field trial's plot and a sports table's rank
                      # (a stranger's exports: each was a numeric feature, 'MPAN <=
                      # 1935320000000')
                      rf"{_REGISTRY_NUMBERS}|plot|rk)$|^(id|key)([^a-z]|$)", re.IGNORECASE)
# customerId, orderNo, EmployeeNumber (case matters: not "paid"; EmployeeNumber was a feature,
# a newcomer's review)
#: A short name in capitals ending in ID (Mailchimp's ``LEID``, ``EUID``), a key when its
#: numbers share one width (:func:`detect_role`).
#: (two letters at most before it, and no word: MAXBID, PAID and AID are amounts)
_SHORT_CAPS_ID = re.compile(r"(?!(AID|BID|PAID|SAID|RAID|MAID|LAID|KID|LID|RID|DID|HID)$)"
                            r"[A-Z]{1,2}ID")
_ID_CAMEL = re.compile(r"[a-z](Id|ID|Key|No|Nr|Num|Number|Code|Idx)$")
# POLICYNO, ACCTNBR, CUSTID: a mainframe's or an old database's names, in capitals and run
# together (a policy number counting up by 17 was a feature: a review's fixed-width file)
# (a record's word before the ending: AMTPAID, MAXBID and CASINO are no keys, an
# adversarial review)
_ID_CAPS = re.compile(r"^(POLICY|POL|ACCT|ACC|ACCOUNT|CUST|CUSTOMER|CLIENT|EMP|EMPL|EMPLOYEE|"
                      r"ORD|ORDER|INV|INVOICE|CLAIM|CLM|MEMBER|MBR|MEM|PAT|PATIENT|REC|RECORD|"
                      r"TXN|TRANS|TRAN|CASE|LOAN|CONTRACT|CONT|USER|USR|SERIAL|SER|PART|ITEM|"
                      r"PROD|PRODUCT|REF|DOC|VENDOR|VEND|SUPP|SUPPLIER|STORE|ENC|VISIT|ADM|"
                      r"ADMIT|APPL|APP|CARD|TICKET|TKT|SHIP|SHIPMENT|CERT|REG|EMPLOYER|DEPT_?EMP|"
                      # the unit a row describes: IPEDS' UNITID (the College Scorecard's first
                      # column, 1,500 distinct, was a numeric feature: a stranger's download),
                      # a site, school, district (NCES' LEAID), provider, household, firm
                      # (CRSP's PERMNO, Compustat's GVKEY), sample or device
                      r"UNIT|SITE|STATION|STN|FAC|FACILITY|INST|SCHOOL|SCH|DIST|DISTRICT|LEA|"
                      r"PROV|PROVIDER|HOSP|FIRM|COMPANY|LOC|PERSON|PERS|HH|HOUSEHOLD|FAM|"
                      r"FAMILY|RESP|STUDENT|STU|SUBJ|SUBJECT|SAMPLE|SAMP|SPECIMEN|DEVICE|DEV|"
                      r"ASSET|VEH|VEHICLE|PARCEL|BLDG|BUILDING|PERM|GV|"
                      # FDA's adverse event reports: primaryid, caseid (a stranger's FAERS)
                      r"PRIMARY|REPORT|EVENT)"
                      r"_?(NO|NBR|NUM|ID|KEY)$")
# Names that say identifier and nothing else ("id", "patient_id", "PatientID", "uuid"), unlike
# "code", "number" or "index" above, which also end the names of measures ("body mass index").
# Such a column is an identifier even where its values repeat (visits, orders per customer).
_PLAIN_ID_NAME = re.compile(rf"(^|[^a-z])(id|ids|uuid|guid|{_REGISTRY_NUMBERS})$|"
                            # in full: eBird's 'SAMPLING EVENT IDENTIFIER' (a checklist on
                            # both sides of the split: a stranger's download)
                            r"(^|[^a-z])identifier$|"
                            r"^id([^a-z]|$)|"
                            # a licence's or permit's number, the establishment a row is
                            # about (Chicago's food inspections: 'License #', each on three
                            # rows, was a numeric feature)
                            r"(^|[^a-z])(license|licence|permit)[\W_]*(#|no|nr|num|number|id)?$|"
                            # a patient's number in a health service's register (an NHS
                            # extract's 'NHS Number', a patient on several admissions, put
                            # patients on both sides of the split: a stranger's file)
                            r"(^|[^a-z])(nhs|chi|mrn|medical[\W_]*record)[\W_]*"
                            r"(#|no|nr|num|number|id)?$",
                            re.IGNORECASE)
_PLAIN_ID_CAMEL = re.compile(r"[a-z](Id|ID)$")
#: Target labels that are no answer, not a class (compared without capitals).
NO_ANSWER = frozenset({"unknown", "unk", "not known", "don't know", "dont know", "do not know",
                       "missing", "not available", "not applicable", "undetermined",
                       "undefined", "no answer", "not stated", "not recorded", "n.a.",
                       "n/k", "tbd", "not sure", "unsure", "prefer not to say",
                       "prefer not to answer",
                       # a survey's (BRFSS's, NHIS's) codes for no answer, as value labels
                       # write them (a stranger's Stata file)
                       "refused to answer", "declined to answer", "not ascertained",
                       "don't know/not sure", "don't know / not sure", "don't know/refused",
                       "dk/refused", "dk/na",
                       # LimeSurvey's mark for a question a respondent never reached
                       "not completed or not displayed", "not displayed"})
#: A target's class that says the outcome is not known yet (``Pending`` beside Approved and
#: Declined): its rows have no value for the target, as :data:`NO_ANSWER`'s do.  Not
#: "undecided" (a voter's answer, the middle of an agreement scale), nor "TBC" (tuberculosis
#: in German and Dutch: an adversarial review).
UNDECIDED = frozenset({"pending", "in progress", "awaiting decision", "awaiting",
                       "under review", "not yet decided", "to be decided",
                       "to be confirmed", "pending review", "pending decision"})
#: Yes and no as a one-letter code's column writes them: beside them ``U`` is "unknown"
#: (HL7's and many registries' Y / N / U), and ``Refused`` a survey's no answer.  Elsewhere
#: ``U`` is a class (an exam grade, a blood group's...), and so is ``Refused`` (a loan
#: decision beside ``Granted``).
_YES_NO_CODES = frozenset({"y", "n", "yes", "no"})


#: A sales pipeline's two closed stages (Salesforce's "Closed Won", HubSpot's "closedwon"),
#: compared by their letters only.
_CLOSED_STAGES = frozenset({"closedwon", "closedlost"})


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.casefold())


def pipeline_stages(values: Any) -> bool:
    """Whether a column's values are a sales pipeline's stages: Closed Won and Closed Lost
    among them (a CRM's opportunities export)."""
    return _CLOSED_STAGES <= {_letters(str(v)) for v in values}


#: A CRM's lifecycle stages (HubSpot's): a contact's way from subscriber to customer.
_LIFECYCLE_STAGES = frozenset({"subscriber", "lead", "marketingqualifiedlead",
                               "salesqualifiedlead", "opportunity", "customer", "evangelist"})


def lifecycle_stages(values: Any) -> bool:
    """Whether a column's values are a CRM's lifecycle stages (HubSpot's Subscriber, Lead,
    Marketing Qualified Lead, ..., Customer): Lead and Customer among them and two more
    stages, compared by their letters only."""
    letters = {_letters(str(v)) for v in values}
    return {"lead", "customer"} <= letters and len(letters & _LIFECYCLE_STAGES) >= 4


def deal_statuses(values: Any) -> bool:
    """Whether a column's values are a CRM deal's status: Won and Lost among them
    (Pipedrive's open / won / lost / deleted), compared by their letters only."""
    return {"won", "lost"} <= {_letters(str(v)) for v in values}


def no_answers(values: Any) -> list:
    """The labels among ``values`` (a target's distinct values) that are no answer: those
    of :data:`NO_ANSWER`, those of :data:`UNDECIDED` beside at most two other classes (the
    decided outcomes), and beside yes and no only, ``U`` and
    ``Refused``.  As classes they were the minority, so the default positive class: an HL7
    extract's rule predicted "DIABETES = U", and a Stata survey's "smoker = Refused" (with
    three classes, a demographic yes/no column was the default target instead: a stranger's
    file).  Compared without capitals, a typographic apostrophe as a plain one."""
    text = {v: v.strip().casefold().replace("\u2019", "'") for v in values
            if isinstance(v, str)}
    if pipeline_stages(text.values()):
        # a sales pipeline's open stages beside Closed Won and Closed Lost: deals not
        # decided yet, as Pending is (a stranger's Salesforce export counted them lost)
        return [v for v, t in text.items() if _letters(t) not in _CLOSED_STAGES]
    out = [v for v, t in text.items() if t in NO_ANSWER]
    # not decided yet beside two decided outcomes (Pending beside Approved and Declined);
    # among a workflow's states (a ticket's new, open, pending, solved, closed; 311's
    # Assigned and In Progress) a pending row is in a state of its own (157 tickets of
    # 1,600 were dropped: a stranger's Zendesk export)
    undecided = [v for v, t in text.items() if t in UNDECIDED]
    if len(text) - len(out) - len(undecided) <= 2:
        out += undecided
    if deal_statuses(text.values()):
        # a CRM's deal status (Pipedrive's open / won / lost / deleted): an open deal is not
        # decided yet, a deleted one never was (17.8 % open deals were counted as not won, a
        # stranger's export)
        out += [v for v, t in text.items() if _letters(t) in ("open", "deleted")]
    if any(t.startswith("good") for t in text.values()) and \
            any(t.startswith("bad") for t in text.values()):
        # Zendesk's satisfaction rating: a survey 'Offered' and not answered, or never
        # offered, beside Good and Bad (kept as classes, the rule told Bad from Good and the
        # unanswered together, below the majority class: a stranger's export)
        out += [v for v, t in text.items() if t in ("offered", "unoffered", "not offered")
                and v not in out]
    rest = {t for v, t in text.items() if v not in out}
    coded = [v for v, t in text.items() if t in ("u", "refused") and v not in out]
    if coded and len(rest - {text[v] for v in coded}) == 2 and \
            rest - {text[v] for v in coded} <= _YES_NO_CODES:
        out += coded
    return out


_TARGET_NAMES = {
    "target", "label", "labels", "class", "classes", "outcome", "y", "response", "result",
    # (Chicago's food inspections: 'Results' lost to a city's typo, 'CCHICAGO', a stranger's)
    "results", "outcomes",
    "diagnosis", "churn", "churned", "survived", "default", "defaulted", "fraud", "isfraud",
    "status", "disease", "resigned", "failure", "attrition", "left", "diabetes", "approved",
    "species", "category", "decision", "readmitted", "spam", "clicked", "converted",
    # outcomes named by what happened (a binary "returned" beside a product "category" lost
    # to it: a newcomer's review); among names alike, a binary column wins (choose_target)
    "returned", "cancelled", "canceled", "renewed", "won", "purchased", "bought",
    "accepted", "admitted", "overdue", "delinquent", "responded", "subscribed", "retained",
    # a genetic study's case/control column (PLINK's PHENO) and a follow-up's outcome
    "pheno", "phenotype", "readmit", "readmission", "mortality",
}
#: Target names that may as well be a comorbidity or a finding recorded beside the outcome
#: (an HL7 extract's DIABETES flag beside READMIT_30D was predicted: an analyst's review):
#: they say "outcome" only as strongly as a longer name does (:func:`_target_hint`).
_CONDITION_NAMES = {"diabetes", "disease"}

#: Words that name an outcome inside a longer name (``loan_status``, ``test_result``,
#: ``churn_flag``, ``final_outcome``): the whole name had to be one of :data:`_TARGET_NAMES`,
#: and ``loan_status`` lost to a ``verification_status`` further right (a review).
_TARGET_WORDS = {"target", "outcome", "result", "results", "status", "churn", "churned", "default",
                 "defaulted", "fraud", "diagnosis", "readmitted", "survived", "attrition",
                 "resigned", "converted", "readmit", "readmission", "mortality"}
#: Names that say "the column to predict" and nothing else: first among target names.
_GENERIC_TARGETS = {"target", "label", "labels", "class", "outcome", "y", "response", "result",
                    "results", "outcomes"}
#: What may follow that word and keep it the outcome (``churn_flag``; not ``target_audience``).
_TARGET_TAILS = {"flag", "yn", "ind", "indicator", "label", "code", "status", "class"}
#: ... and a time window, its number dropped by name_words (READMIT_30D, mortality_90_days,
#: churn_within_12m): only in a name with a number (pandas' merge suffix in ``status_y``
#: and a sales ``target_month`` are no windows: an adversarial review).
_WINDOW_TAILS = {"d", "day", "days", "w", "wk", "wks", "week", "weeks", "m", "mo", "month",
                 "months", "y", "yr", "yrs", "year", "years", "within"}
#: Words that make a ``status`` an attribute of the person or the record, not its outcome.
_ATTRIBUTE_WORDS = {"marital", "civil", "employment", "work", "job", "verification",
                    "verified", "smoking", "smoker", "socioeconomic", "housing", "residence",
                    "residential", "immigration", "citizenship", "insurance", "vaccination",
                    "education", "relationship", "family", "home"}
#: Values that make a column a person's attribute whatever its name: a mainframe's
#: ``STATUS`` of EMPLOYED / RETIRED / UNEMPLOYED is employment status, not the outcome, and
#: was predicted beside the Y/N ``FLAG`` the extract was made for (a review's fixed-width
#: file).
_ATTRIBUTE_VALUES = {"employed", "unemployed", "retired", "selfemployed", "student",
                     "homemaker", "married", "single", "divorced", "widowed", "separated",
                     "fulltime", "parttime", "contractor", "freelance"}
#: Who the row is about, not what happened to it: a survey's demographics come last, and a
#: binary gender there was taken for the class column ahead of "Would you recommend us?"
#: (a review).  Such a column is the default target only when no other binary one exists.
_DEMOGRAPHIC_NAMES = {"gender", "sex", "agegroup", "ageband", "agebracket", "agerange",
                      "race", "ethnicity", "maritalstatus", "married", "nationality",
                      "language", "country", "region", "state", "term", "bloodtype",
                      "bloodgroup", "religion", "eyecolor", "eyecolour", "haircolor",
                      "haircolour",
                      # how a sample was processed, not what it is: a transposed expression
                      # matrix's batch (B1 / B2), last, was predicted beside its tumour /
                      # normal group (a stranger's file)
                      "batch", "batchid", "plate", "plateid", "lane", "chip", "slide",
                      "flowcell", "scanner", "operator", "technician", "runid", "runbatch",
                      "sequencingrun", "extractionbatch"}

#: Names of columns that hold remarks, not outcomes: never the default target, however few
#: their values (a survey's canned "comments" were taken for the class column).
_REMARK_NAME = re.compile(r"comment|remark|\bnotes?\b|^notes?_|_notes?$|descr|feedback|memo|"
                          r"message|free.?text", re.IGNORECASE)
#: Names of rating scales: "How satisfied are you overall? (1-5)", "nps_score", "rating".
_RATING_NAME = re.compile(r"satisf|rating|\brate\b|score|likel|agree|recommend|"
                          r"\(\s*[01]\s*(-|–|to)\s*(3|4|5|7|9|10)\s*\)", re.IGNORECASE)


@dataclass(frozen=True)
class ColumnRole:
    """What a column of the table is used for, and why.

    Attributes
    ----------
    column : str
        Column name as read (after blank names became ``column <k>``).
    role : str
        ``feature``, ``target``, ``index``, ``id``, ``text``, ``date``, ``choices``,
        ``constant``, ``empty``, ``derived`` (a feature made from a date or a choices
        column), ``frequency`` (a frequency table's count of records, by which its rows
        were expanded), ``long`` (a long table's column naming what each row measured, by
        which it was pivoted to one row per record), ``margin`` (the target's margin of
        error: :func:`margin_of`) or ``copy`` (the same as an earlier feature, or one-to-one
        with it: ``rulecore.data._copy_columns``).
    included : bool
        Whether the column is a feature of the Dataset (a user may include any column).
    reason : str
        Why, in words (empty for ordinary features).
    detected : str
        The role found on load, before any choice of the user's.
    """

    column: str
    role: str
    included: bool
    reason: str = ""
    detected: str = ""

    def to_dict(self) -> dict:
        return {"column": self.column, "role": self.role, "included": self.included,
                "reason": self.reason, "detected": self.detected or self.role}


def _numeric(s: pd.Series) -> pd.Series | None:
    """``s`` as floats when every present value is a number, else None (also for typed
    dates and durations: as numbers they are nanoseconds since 1970)."""
    if pd.api.types.is_datetime64_any_dtype(s) or pd.api.types.is_timedelta64_dtype(s):
        return None
    if pd.api.types.is_bool_dtype(s):
        return s.astype(float)
    if pd.api.types.is_numeric_dtype(s):
        return s.astype(float)
    present = s.dropna()
    if present.empty:
        return None
    # a few values decide most text columns without converting them all (the slow part)
    if pd.to_numeric(present.iloc[:100], errors="coerce").isna().any():
        return None
    num = pd.to_numeric(present, errors="coerce")
    if num.isna().any():
        return None
    return pd.to_numeric(s, errors="coerce").astype(float)


def format_number(v: float) -> str:
    """``40.0`` → ``40``, ``2.5`` → ``2.5``."""
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _is_text(s: pd.Series) -> bool:
    return _numeric(s) is None


_MONTHS = r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
#: An ISO 8601 week: ``2024-W07`` or ``2024W07`` (a weekday after it, ``-3``, is allowed).
_ISO_WEEK = re.compile(r"(\d{4})-?W(\d{2})(?:-?[1-7])?")
_DATE_CHARS = re.compile(rf"(?:[\d\s:/.\-T+Z,]|{_MONTHS}|(?i:am|pm))" + "{6,40}")
_DAYS = ("%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%d-%m-%Y", "%m-%d-%Y", "%d/%m/%y", "%m/%d/%y",
         "%Y/%m/%d", "%d-%b-%Y", "%d-%b-%y", "%d %b %Y", "%b %d, %Y", "%d %B %Y", "%B %d, %Y",
         # Jira's '07/Oct/23 9:47 PM' (a stranger's export: its dates were identifiers)
         "%d/%b/%y", "%d/%b/%Y",
         # a month and year alone, as loan and billing exports write them ("Mar-2016")
         "%b-%Y", "%b %Y", "%B %Y", "%m/%Y",
         # SAS's DATE9 ("10OCT2022"), as clinical exports write it (a review: left out as
         # text with 624 distinct values); its DATETIME below
         "%d%b%Y")
#: Formats parse_dates tries, in order: ISO 8601 (with or without a time), then each day
#: format alone and with a time as spreadsheets and databases write it (``04/15/2023 02:29
#: AM``, ``15-Apr-2023``, ``15/04/2023 14:29``).
_DATE_FORMATS = ("ISO8601",) + tuple(
    day + time for day in _DAYS
    # (Airtable's '12/1/2023 3:05pm': no space before the pm, a stranger's export)
    for time in ("", " %H:%M", " %H:%M:%S", " %I:%M %p", " %I:%M:%S %p", " %I:%M%p")) + (
    "%d%b%Y:%H:%M:%S", "%d%b%Y:%H:%M") + tuple(
    # a comma before the time, as Strava and other US exports write it ("Jan 5, 2023,
    # 7:00:00 PM": a stranger's activity log left its dates out as free text)
    day + time for day in ("%b %d, %Y", "%B %d, %Y")
    for time in (", %I:%M:%S %p", ", %I:%M %p", ", %H:%M:%S", ", %H:%M"))
#: A time zone written after a time (Google Forms' ``2024/04/08 4:06:00 AM GMT+1``, ``UTC``,
#: ``CET``): dropped before parsing, so the year, month, weekday and hour are the local ones
#: the time was written in.
#: (the spaces before it from their first: from every space of a cell of 4,000 spaces, a
#: hostile table took 541 s to load, a review)
_ZONE = re.compile(r"(?<!\s)\s+(?:(?:GMT|UTC)(?:\s*[+-]\d{1,2}(?::?\d{2})?)?"
                   r"|[A-Z]{2,4}T|[A-Z]{3})$")
#: ... and an ISO 8601 offset glued to the time (``2023-08-05T18:51:52+02:00``, ``…Z``): a
#: meter's export across daylight saving holds ``+01:00`` and ``+02:00``, which pandas refuses
#: to read as one column (a review: a traceback on every page); dropped as above.
_ISO_ZONE = re.compile(r"(?:(?<=\d\d:\d\d)|(?<=T\d\d))((?::\d\d)?(?:[.,]\d+)?)\s*"
                       r"(?:[Zz]|[+-]\d\d(?::?\d\d)?)$")


#: Fewest values for a column of eight-digit numbers to read as dates (YYYYMMDD).
COMPACT_DATE_MIN_VALUES = 5


def _spans(num: pd.Series, lo: float, hi: float) -> bool:
    """Whether a column of numbers has enough values (two distinct) all in ``[lo, hi]``."""
    v = num.dropna().to_numpy(dtype=float)
    return len(v) >= COMPACT_DATE_MIN_VALUES and v.min() >= lo and v.max() <= hi and \
        len(np.unique(v)) >= 2


def _compact_dates(num: pd.Series) -> pd.Series | None:
    """Datetimes when *every* present value of a column of numbers is a date written as
    eight digits, YYYYMMDD (``19910108``), from 1900 to 2100: how databases and warehouses
    key dates.  Read as a number, the date gave rules such as ``x1 > 19910800``
    (``bands.data``).  All values must be valid dates (months 1 to 12, real days), which
    random eight-digit ids are not."""
    if not _spans(num, 19000101, 21001231) or not (num.dropna() % 1 == 0).all():
        return None
    text = num.astype("Int64").astype(str).where(num.notna(), None)
    full = pd.to_datetime(text, format="%Y%m%d", errors="coerce")
    if full[num.notna()].isna().any():
        return None
    return full


#: Words in a column name that say it holds dates (``order_date``, ``createdAt``, ``DOB``).
_DATE_WORDS = {"date", "dob", "birthday", "birthdate", "timestamp", "created", "updated",
               "modified", "opened", "closed", "signup", "joined", "dated"}
#: Excel's serial day numbers from 1954-10-03 (20000) to 2064-04-09 (60000).
_SERIAL_RANGE = (20_000, 60_000)


def name_words(name: str) -> list[str]:
    """The words of a column name, lower case (``signedOn`` -> signed, on)."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", str(name))]


#: Words naming the day something happened (``posted``, ``shipped``): a date alone or after
#: a word of :data:`_WHEN_WORDS` (``date_shipped``, ``first_admitted``), for Excel's day
#: numbers only (:func:`_serial_dates`).  Excel's day numbers in a column ``posted`` gave
#: ``posted > 45491.5`` (a stranger's claims table); ``students_enrolled`` or
#: ``revenue_booked`` of 20,000 to 60,000 are amounts (a review).
_EVENT_DAY_WORDS = {"posted", "shipped", "delivered", "booked", "issued", "admitted",
                    "discharged", "enrolled", "registered", "invoiced", "expired", "hired"}
_WHEN_WORDS = {"date", "day", "when", "first", "last"}


def _event_day_name(name: str) -> bool:
    """``posted``, ``date_shipped``, ``first_admitted``: the day something happened."""
    words = name_words(name)
    return bool(words) and words[-1] in _EVENT_DAY_WORDS and (
        len(words) == 1 or (len(words) == 2 and words[0] in _WHEN_WORDS))


def _date_name(name: str) -> bool:
    """Whether a column's name says it holds dates: a word of :data:`_DATE_WORDS`, or a last
    word ``at`` / ``on`` (``created_at``, ``signedOn``)."""
    words = name_words(name)
    return bool(words) and (any(w in _DATE_WORDS for w in words)
                            or (len(words) > 1 and words[-1] in ("at", "on")))


def _serial_dates(num: pd.Series, name: str) -> pd.Series | None:
    """Datetimes when a column of numbers named like dates (:func:`_date_name`) holds
    Excel's serial day numbers (days since 1899-12-30; a fraction is the time of day): every
    present value from 20000 to 60000.  A spreadsheet saved with its date cells unformatted
    writes them so, and read as numbers they gave rules such as ``order_date > 44927.5``."""
    if not (_date_name(name) or _event_day_name(name)) or not _spans(num, *_SERIAL_RANGE):
        return None
    # to the millisecond, as Excel keeps a time: 7:00 is 0.291666… of a day, which pandas'
    # nanoseconds made 6:59:59.999999999, hour 6 (a check of the exported Python's hours)
    return (pd.Timestamp("1899-12-30") + pd.to_timedelta(num, unit="D")).dt.round("ms")


#: Unix time in seconds from 2001-09-09 (10⁹) to 2038-01-19 (2³¹ − 1), or in milliseconds.
_EPOCH_RANGE = (1e9, 2**31 - 1)
# ("first_seen" in Unix milliseconds is a date; "times_seen" of 20,000 to 60,000 is a count,
# not Excel's day numbers, so "seen" is no date word: an adversarial review)
_EPOCH_WORDS = {"ts", "time", "epoch", "unix", "unixtime", "seen"}


#: Windows file times (100-nanosecond ticks since 1601) from 2001 to 2038, as Active
#: Directory writes ``lastLogon``, ``pwdLastSet``, ``accountExpires``; 0 and the largest
#: 64-bit number are "never", no date.
_FILETIME_RANGE = (1.262e17, 1.379e17)
_FILETIME_NEVER = (0, 2**63 - 1)
_FILETIME_1970 = 116_444_736_000_000_000  # 1970-01-01 as a Windows file time
_FILETIME_WORDS = {"logon", "pwd", "password", "expires", "lockout", "time", "timestamp",
                   "set", "last"}


def _epoch_dates(num: pd.Series, name: str) -> tuple[pd.Series | None, str]:
    """Datetimes when a column of numbers named like dates or times (``ts``, ``time``,
    ``epoch``, ``created_at``) holds Unix timestamps, seconds or milliseconds, or (named as
    Active Directory names them, ``lastLogon``, ``pwdLastSet``) Windows file times.  Read
    as numbers, a sensor log's ``ts`` was a feature a rule could cut at 1.70e9 (a review),
    and an Active Directory export's ``lastLogon`` at 1.335e17 (a stranger's)."""
    words = set(name_words(name))
    if words & _FILETIME_WORDS or _date_name(name):
        ticks = num.where(~num.isin(_FILETIME_NEVER))
        if ticks.notna().sum() >= COMPACT_DATE_MIN_VALUES and _spans(ticks, *_FILETIME_RANGE):
            # (from 1970: 1601 is before the dates pandas holds in nanoseconds)
            since_1970 = (ticks - _FILETIME_1970) / 1e7
            return (pd.to_datetime(since_1970, unit="s").dt.round("s"),
                    "Windows file times (100-nanosecond ticks since 1601)")
    if not (_date_name(name) or words & _EPOCH_WORDS):
        return None, ""
    for unit, scale in (("s", 1), ("ms", 1000)):
        if _spans(num, _EPOCH_RANGE[0] * scale, _EPOCH_RANGE[1] * scale):
            return pd.to_datetime(num, unit=unit), (
                f"Unix timestamps ({'seconds' if unit == 's' else 'milliseconds'} since "
                "1970)")
    return None, ""


def _dates_as_numbers(num: pd.Series, name: str) -> tuple[pd.Series | None, str]:
    """A column of numbers read as dates, and how they were written; ``(None, "")`` when it
    holds no dates (:func:`_compact_dates`, :func:`_serial_dates`)."""
    dates = _compact_dates(num)
    if dates is not None:
        return dates, "dates written as numbers (YYYYMMDD)"
    dates = _serial_dates(num, name)
    if dates is not None:
        return dates, "a date column holding Excel's day numbers"
    return _epoch_dates(num, name)


#: Most date formats one column may mix.
MAX_DATE_FORMATS = 3
#: How :func:`read_dates` says dates were written that no ``strptime`` format reads.
YYYYMMDD, EXCEL_DAYS, UNIX_SECONDS, UNIX_MILLISECONDS, ISO_WEEKS, PARTIAL_DATES = (
    "yyyymmdd", "excel days", "unix seconds", "unix milliseconds", "iso weeks",
    "partial dates")
WINDOWS_FILETIME = "windows filetime"

#: A date given to the day, the month or the year only: ``20220314``, ``202203``, ``2022``
#: (the FDA's FAERS) or ``2022-03-14``, ``2022-03``, ``2022`` (ISO 8601, CDISC's SDTM).
PARTIAL_DATE = re.compile(r"(\d{4})(?:(-?)(\d{2})(?:\2(\d{2}))?)?")


def partial_dates(s: pd.Series) -> tuple[pd.Series, pd.Series] | None:
    """Dates some of which are given to the month or the year only (:data:`PARTIAL_DATE`),
    and each cell's precision (``"day"``, ``"month"``, ``"year"``, ``None`` where missing);
    ``None`` unless every present cell is such a date from 1900 to 2100, at least two
    precisions are there and a quarter of the cells or more are given to the day.

    A partial date is read as its period's first day, whose year is the cell's, and whose
    month is the cell's when it has one (:func:`date_features` leaves out the parts a cell
    does not give).  Read as one number, FAERS' ``event_dt`` put 2021, 202203 and 20220314 on
    one axis: ``event_dt <= 20211231`` took in every date given to the month or the year (a
    stranger's FAERS extract)."""
    num = _numeric(s)
    if num is not None:
        present = num.dropna()
        v = present.to_numpy(dtype=float)
        # (cheaply, before any text: a year, a year and month, or a date, all whole numbers)
        if len(v) < COMPACT_DATE_MIN_VALUES or not np.isfinite(v).all() or \
                not (v % 1 == 0).all() or not (
                ((v >= 1900) & (v <= 2100)) | ((v >= 190001) & (v <= 210012))
                | ((v >= 19000101) & (v <= 21001231))).all():
            return None

        def as_text(cells: pd.Series) -> pd.Series:
            return cells.astype("int64").astype(str)
    else:
        present = s.dropna()
        if len(present) < COMPACT_DATE_MIN_VALUES or \
                not all(isinstance(v, str) for v in present.iloc[:50]):
            return None

        def as_text(cells: pd.Series) -> pd.Series:
            return cells.astype(str).str.strip()
    # (the first cells first: whole dates alone, or years alone, are another column's, and
    # the passes below over every cell of a long column of ISO dates doubled its reading)
    if as_text(present.iloc[:1000]).str.len().nunique() < 2:
        return None
    text = as_text(present)
    parts = text.str.fullmatch(PARTIAL_DATE)
    if not parts.all():
        return None
    got = text.str.extract(PARTIAL_DATE.pattern)
    year, month, day = got[0], got[2], got[3]
    precision = pd.Series(np.where(day.notna(), "day", np.where(month.notna(), "month",
                                                                "year")), index=text.index)
    if precision.nunique() < 2 or (precision == "day").mean() < 0.25:
        return None
    first = year + month.fillna("01") + day.fillna("01")
    dates = pd.to_datetime(first, format="%Y%m%d", errors="coerce")
    if dates.isna().any() or not ((dates.dt.year >= 1900) & (dates.dt.year <= 2100)).all():
        return None  # a month 13 or a day 31 of April: not dates
    return (dates.reindex(s.index),
            precision.reindex(s.index).astype(object).where(s.notna(), None))


def _partial_words(dates: pd.Series, precision: pd.Series) -> str:
    """A column of :data:`PARTIAL_DATES` (:func:`partial_dates`) as its role's reason says
    it."""
    given = precision.value_counts()
    # (years only: a year's first day is no date the file gives)
    return (f"dates from {dates.min().year} to {dates.max().year}, "
            f"{given.get('month', 0):,} of them given to the month only and "
            f"{given.get('year', 0):,} to the year only (a partial date has no month or "
            "weekday where it gives none)")


#: How :func:`read_dates` says a column of numbers was written, by its words above.
_NUMBER_DATES = {"dates written as numbers (YYYYMMDD)": YYYYMMDD,
                 "a date column holding Excel's day numbers": EXCEL_DAYS,
                 "Unix timestamps (seconds since 1970)": UNIX_SECONDS,
                 "Unix timestamps (milliseconds since 1970)": UNIX_MILLISECONDS,
                 "Windows file times (100-nanosecond ticks since 1601)": WINDOWS_FILETIME}


def parse_dates(s: pd.Series) -> pd.Series | None:
    """Datetimes when at least :data:`DATE_SHARE` of the present text values are dates
    (:func:`read_dates`, without how they were written)."""
    return read_dates(s)[0]


def read_dates(s: pd.Series) -> tuple[pd.Series | None, str]:
    """Datetimes when at least :data:`DATE_SHARE` of the present text values are dates, and
    how they were written, as a rule's exported Python reads them again
    (:class:`rulecore.data.Reading`'s ``derived``): the ``strptime`` formats read, joined by
    ``|`` (``ISO8601`` for ISO 8601, the time zone after a time dropped); or
    :data:`YYYYMMDD`, :data:`EXCEL_DAYS`, :data:`UNIX_SECONDS`,
    :data:`UNIX_MILLISECONDS`, :data:`ISO_WEEKS`; ``""`` for dates typed already.

    Formats tried in turn (:data:`_DATE_FORMATS`): ISO 8601 (``2024-03-01``, with or without
    a time), then day-first and month-first with ``/``, ``.`` or ``-``, and with a month's
    name (``15-Apr-2023``, ``Apr 15, 2023``), each alone or with a time (``04/15/2023 02:29
    PM``), a time zone after the time dropped (``4:06:00 AM GMT+1``).  One format must read
    the whole share, or up to :data:`MAX_DATE_FORMATS` together (some dates ISO, others
    ``04/13/2022``, a few ``1 Mar 2024``), each reading a twentieth of the values or more.
    Plain numbers are never dates, except dates written as eight digits, ``19910108``
    (:func:`_compact_dates`), and Excel's day numbers in a column named like dates
    (:func:`_serial_dates`).
    """
    if pd.api.types.is_datetime64_any_dtype(s):
        # typed already (a Parquet file, a frame from pandas): the local time as written, a
        # zone dropped as for text (from_frame kept such a column as nanoseconds since 1970:
        # a notebook review)
        dates = s.dt.tz_localize(None) if getattr(s.dt, "tz", None) is not None else s
        return (dates.astype("datetime64[ns]") if dates.notna().any() else None), ""
    num = _numeric(s)
    if num is not None:
        dates, how = _dates_as_numbers(num, str(s.name))
        if dates is None and (partial := partial_dates(s)) is not None:
            return partial[0], PARTIAL_DATES
        return dates, _NUMBER_DATES.get(how, "")
    if not pd.api.types.is_object_dtype(s) and not pd.api.types.is_string_dtype(s):
        return None, ""
    present = s.dropna().astype(str).str.strip()
    if present.empty:
        return None, ""
    if present.iloc[:1000].str.contains(_ZONE).mean() >= DATE_SHARE:  # vectorised, no groups
        present = present.str.replace(_ZONE, "", regex=True)
    # ISO weeks ('2024-W07', a ticket's created week): the week's Monday, so the column
    # gives a year and a month like other dates (left out as text of 52 values before: an
    # analyst's review)
    if present.iloc[:1000].str.fullmatch(_ISO_WEEK).mean() >= DATE_SHARE:
        weeks = present.str.extract(_ISO_WEEK.pattern)
        monday = pd.to_datetime(weeks[0] + "-W" + weeks[1] + "-1", format="%G-W%V-%u",
                                errors="coerce")
        return (monday.reindex(s.index), ISO_WEEKS) if monday.notna().mean() >= DATE_SHARE \
            else (None, "")
    # dates given to the day, the month or the year only (2022-03-14, 2022-03, 2022): the
    # year of each and the month of those that give it (the first cells looked at in plain
    # Python: most text columns stop there)
    if all(PARTIAL_DATE.fullmatch(v) for v in present.iloc[:200].tolist()) and \
            (partial := partial_dates(s)) is not None:
        return partial[0], PARTIAL_DATES
    # a date has digits and separators (and perhaps a month's name or AM/PM): cheap rejection
    # of ordinary text first, before any pass over the whole column
    if present.iloc[:1000].str.fullmatch(_DATE_CHARS).mean() < DATE_SHARE:
        return None, ""
    # an ISO offset wherever it is, on every row: one left beside another made pandas refuse
    # the column (3 offsets in 40 values, or offsets from row 1,001 on: an adversarial review)
    present = present.str.replace(_ISO_ZONE, r"\1", regex=True)
    try:
        return _parse_date_text(s, present)
    except (ValueError, OverflowError, TypeError):  # pandas refusing a mix: text, not a crash
        return None, ""


def _parse_date_text(s: pd.Series, present: pd.Series) -> tuple[pd.Series | None, str]:
    """:func:`read_dates` on text already stripped of its zones."""
    sample = present.iloc[:1000]
    tried = {}
    for fmt in _DATE_FORMATS:
        parsed = tried[fmt] = _plausible(pd.to_datetime(sample, format=fmt, errors="coerce"))
        if parsed.notna().mean() >= DATE_SHARE:
            fmt = _day_first_or_not(fmt, sample, parsed)
            full = _plausible(_dates_in(present, [fmt]))
            if full.notna().mean() >= DATE_SHARE:
                return full.reindex(s.index), fmt
    # up to three formats in one column (an export that wrote some dates ISO, others
    # 04/13/2022, a few typed "1 Mar 2024" by hand): the format that reads the most, then
    # the one that reads the most of the rest, and so on; each further format must read at
    # least a twentieth of the values, not a few stray cells (a review: three formats left a
    # date column out as free text, and the planted "month > 10.5" with it)
    chosen: list[str] = []
    read = pd.Series(False, index=sample.index)
    while len(chosen) < MAX_DATE_FORMATS and read.mean() < DATE_SHARE:
        # never day-first beside month-first: 04/02/2024 would be read both ways in one
        # column, a tenth of the months swapped (a review)
        orders = {_day_order(f) for f in chosen} - {None}
        allowed = [f for f in _DATE_FORMATS if _day_order(f) is None or not orders
                   or _day_order(f) in orders]
        best = max(allowed, key=lambda f: (tried[f].notna() & ~read).sum())
        gain = tried[best].notna() & ~read
        if chosen and gain.mean() < 1 - DATE_SHARE:
            return None, ""
        chosen.append(best)
        read |= gain
    if len(chosen) > 1 and read.mean() >= DATE_SHARE:
        full = _dates_in(present, chosen)
        if full.notna().mean() >= DATE_SHARE:
            return full.reindex(s.index), "|".join(chosen)
    return None, ""


#: The years a date in a table may have: a LOINC code '2345-7' read as ISO 8601 was July of
#: the year 2345, and its rule 'code (year) <= 2600' (a stranger's FHIR extract).
DATE_YEARS = (1800, 2200)


def _plausible(dates: pd.Series) -> pd.Series:
    """``dates`` with those outside :data:`DATE_YEARS` missing (not dates, but codes)."""
    year = dates.dt.year
    return dates.where((year >= DATE_YEARS[0]) & (year <= DATE_YEARS[1]))


def _day_first_or_not(fmt: str, sample: pd.Series, parsed: pd.Series) -> str:
    """``fmt``, or its month-first twin when that reads the sample as well and the dates
    say so: written with AM/PM (a 12-hour clock is the US's, and its dates are month-first),
    or in order more smoothly (a logger's rows, ten minutes apart: read day-first,
    '05/01/24' to '05/02/24' jumped a month).  Day-first formats come first in the list, so
    an ambiguous HOBO export's May was read as five Januaries (a stranger's)."""
    if _day_order(fmt) != "dm":
        return fmt
    twin = re.sub(r"%d([/.\-])%m", r"%m\1%d", fmt)
    other = _plausible(pd.to_datetime(sample, format=twin, errors="coerce"))
    if other.notna().mean() < parsed.notna().mean():
        return fmt
    if "%p" in fmt:
        return twin

    def jumps(d: pd.Series) -> float:  # the mean step between rows, in seconds
        steps = d.dropna().diff().abs().dt.total_seconds().dropna()
        return float(steps.mean()) if len(steps) else 0.0

    # (clearly smoother only: dates in no order read alike both ways, and stay day-first)
    return twin if jumps(other) < 0.5 * jumps(parsed) else fmt


def _day_order(fmt: str) -> str | None:
    """``"dm"`` for a day-first numeric format (``%d/%m/%Y``), ``"md"`` for month-first."""
    if re.search(r"%d[/.\-]%m", fmt):
        return "dm"
    if re.search(r"%m[/.\-]%d", fmt):
        return "md"
    return None


def _dates_in(text: pd.Series, formats: list[str]) -> pd.Series:
    """``text`` parsed with the first of ``formats`` that reads each value (NaT if none)."""
    out = pd.to_datetime(text, format=formats[0], errors="coerce")
    for fmt in formats[1:]:
        out = out.fillna(pd.to_datetime(text, format=fmt, errors="coerce"))
    return out


#: Multi-select answers ("tick all that apply"): Google Forms and Microsoft Forms join the
#: options ticked with ";" or ", ".  At most this many distinct options.
MAX_CHOICES = 30
#: ... and at least this share of the answers tick several options, and this share one.
CHOICES_SEVERAL = 0.1
#: The longest option's wording (Stack Overflow's 'Professional development or self-paced
#: learning from online courses', 68 characters, was over a first bound of 60: a stranger).
CHOICE_LENGTH = 120


def _unbraced(text: pd.Series) -> pd.Series:
    """PostgreSQL's arrays as it exports them (``{phone,sms}``, ``{"live chat",email}``,
    ``{}``) as the lists inside: with the braces kept, ``{phone`` and ``phone}`` and
    ``phone`` were three options (a review).  Other text as it is."""
    head = text.iloc[:200]
    if not len(head) or not head.str.match(r"^\{.*\}$").all():
        return text
    inner = text.str.replace(r"^\{(.*)\}$", r"\1", regex=True)
    # (a quoted item after ', ' too: '{Wifi, "Cable TV"}' gave "Cable TV" with its quotes
    # beside Cable TV, two options, a review)
    return inner.str.replace(r'(^|,)\s*"([^"]*)"\s*(?=,|$)', r"\1\2", regex=True)


#: Names of a column of tags, which a help desk joins by spaces in its own order (Zendesk's
#: ``tier_1 vip bug``).
_TAG_NAMES = {"tags", "tag", "labels", "keywords"}


def _choice_names(present: pd.Series, name: Any = None) -> bool:
    """Whether text joined by spaces is a form tool's multi-select answers (ODK's and
    KoboToolbox's ``settle boil``): every cell is choice names (lower case, digits and
    ``_``), and some two names come in both orders (``settle boil`` and ``boil settle``),
    as options ticked in any order do and the words of a phrase (``light blue``) do not; or
    the column is named for tags (:data:`_TAG_NAMES`: Zendesk writes its tags in its own
    order, so none came in both, and they were left out as free text: a stranger's
    export)."""
    if not present.str.fullmatch(r"[a-z0-9_]+(?: [a-z0-9_]+)*").all():
        return False
    if name is not None and _plain_name(str(name)) in _TAG_NAMES:
        return True
    pairs = {tuple(t) for t in present.str.split(" ").map(lambda w: w[:2]) if len(t) == 2}
    return any((b, a) in pairs for a, b in pairs)


#: An option ticked in this many answers or more, always with the same others, makes the
#: column a phrase with the separator in it, not options (:func:`choice_options`).
CHOICES_GLUED_ROWS = 5


def choice_options(s: pd.Series, known: bool = False) -> tuple[str, list[str]] | None:
    """``(separator, options)`` when a text column holds multi-select answers, else None.

    A form's "tick all that apply" question is one column whose cells join the options
    ticked (``API;Live chat;Reports``).  As one category it gave rules listing the
    combinations that lack an option (15 conditions ``... != API;Email support;Reports`` for
    "used Live chat"; a newcomer's review).  Read so when, split at ``;`` (or else ``,``,
    ``|`` as museum catalogues join values, or a space between a form tool's choice names,
    :func:`_choice_names`): at most :data:`MAX_CHOICES` distinct options, each in two
    answers or more, of at most :data:`CHOICE_LENGTH` characters; and the number ticked
    varies, some answers one option and some several (each at least
    :data:`CHOICES_SEVERAL` of them), which a fixed pair such as ``Paris, France`` does
    not; and no two options are always ticked together (a phrase with a comma in it), nor
    is one option of :data:`CHOICES_GLUED_ROWS` answers or more always ticked with the same
    others (``Heart failure, unspecified``).

    ``known``: the column is known to hold several values a row, joined by ``;`` (a field
    the file wrote in several columns of one name): only the options' count, repeats and
    length are asked for.
    """
    if pd.api.types.is_numeric_dtype(s):
        return None
    text = s.dropna().astype(str).str.strip()
    present = _unbraced(text)
    # an array's braces say a list of options, however many each holds: Airbnb's amenities,
    # '{Wifi,"Cable TV",Kitchen}', never one alone, were left out as free text (a stranger's
    # listings); a fixed pair such as 'Paris, France' has no braces
    # (not a JSON object's braces, '{"device": "ios"}': its fields are no options)
    arrays = present is not text and \
        not text.iloc[:200].str.match(r'^\{\s*"[^"]*"\s*:').any()
    present = present[present != ""]
    if len(present) < ID_MIN_VALUES:
        return None
    for sep in ((";",) if known else (";", ",", "|", " ")):
        # (the bar and the space looked for in the first answers first: a pass over every
        # text column of a large table is what loading spends its time on)
        if sep in "| " and not present.iloc[:2000].str.contains(sep, regex=False).any():
            continue
        if not present.str.contains(sep, regex=False).any():
            continue
        if sep == " " and not (_choice_names(present.iloc[:1000], s.name)
                               and _choice_names(present, s.name)):
            continue
        items = present.str.split(sep, regex=False).map(
            lambda parts: sorted({p.strip() for p in parts if p.strip()}))
        count = items.str.len()
        several = float((count > 1).mean())
        if not known and (several < CHOICES_SEVERAL or (
                float((count == 1).mean()) < CHOICES_SEVERAL and not (arrays and sep == ","))):
            continue
        seen = pd.Series([o for its in items for o in its]).value_counts()
        if not 2 <= len(seen) <= MAX_CHOICES or seen.min() < 2 or \
                max(len(o) for o in seen.index) > CHOICE_LENGTH:
            continue
        if known:
            return sep, sorted(seen.index, key=lambda o: (-seen[o], o))
        # two options always ticked together are one answer with the separator in it
        # ("changed my mind, also it was late" in a free-text note: two identical yes/no
        # columns, and a rule "note: too small == no" that meant "a note was written")
        ticked = pd.DataFrame({o: items.map(lambda its, o=o: o in its) for o in seen.index})
        # options as bit strings: transposing 200,000 rows into columns to compare them took
        # 10 s a call (an adversarial review)
        packed = np.packbits(ticked.to_numpy(dtype=bool).T, axis=1)
        if len({row.tobytes() for row in packed}) < len(packed):
            continue
        # nor an option always ticked with the same others, in one answer written one way:
        # 'Heart failure, unspecified' beside 'Pneumonia, unspecified' (ICD-10's
        # descriptions) split into 'Heart failure', 'Pneumonia' and 'unspecified'
        within: dict[str, set[tuple]] = {}  # the answers each option is ticked in
        for combo in set(items.map(tuple)):
            for o in combo:
                within.setdefault(o, set()).add(combo)
        if any(seen[o] >= CHOICES_GLUED_ROWS and len(c) == 1 and len(next(iter(c))) > 1
               for o, c in within.items()):
            continue
        return sep, sorted(seen.index, key=lambda o: (-seen[o], o))
    return None


def choice_features(name: str, s: pd.Series, sep: str, options: list[str]
                    ) -> dict[str, pd.Series]:
    """One yes/no column per option of a multi-select column (:func:`choice_options`),
    ``<name>: <option>``; an unanswered row is missing in each."""
    text = s.dropna().astype(str).str.strip()
    empty = (text == "{}").reindex(s.index, fill_value=False)  # an empty array: none ticked
    s = s.where(s.isna(), _unbraced(text))
    answered = s.notna() & ((s.astype(str).str.strip() != "") | empty)
    items = s.where(answered, "").astype(str).str.split(sep, regex=False).map(
        lambda parts: {p.strip() for p in parts})
    return {f"{name}: {o}": pd.Series(np.where(items.map(lambda its, o=o: o in its), "yes",
                                               "no"), index=s.index,
                                      dtype=object).where(answered)
            for o in options}


def record_key_name(name: str) -> bool:
    """Whether a column's name says it is the key of the record a row belongs to: ``id``,
    ``patient_id``, ``PatientID``, ``uuid``, or an entity (``customer``, ``patient``)."""
    return _plain_id_name(name) or _entity_name(name)


def _plain_id_name(name: str) -> bool:
    return bool(_PLAIN_ID_NAME.search(name) or _PLAIN_ID_CAMEL.search(name))


#: Names of the entity a row belongs to, when rows are its events (transactions, visits):
#: ``customer``, ``company_name``.  Such a text column whose values repeat is the record key.
_ENTITY_WORDS = {"customer", "client", "company", "account", "patient", "member", "user",
                 "subscriber", "employee", "student", "supplier", "vendor", "household",
                 "person", "borrower", "policyholder",
                 # places whose rows come back (a school's grades and subgroups, a clinic's
                 # months, a survey site's visits): a stranger's school table repeated each
                 # school on 14 rows, and a rule of school codes was certified a success
                 "school", "hospital", "clinic", "facility", "site", "farm",
                 # a document whose lines are the rows (Xero's *InvoiceNumber, an order's
                 # line items): lines of one invoice sat on both sides of the split
                 "invoice", "order"}
#: What may follow an entity in a name that names it: ``School Code``, ``account number``.
_ENTITY_KEYS = (["name"], ["code"], ["number"], ["no"], ["nbr"], ["num"], ["nr"], ["id"])


def _most_records(name: str, rows: int) -> float:
    """The most distinct values an entity's column may hold in ``rows`` rows to be the record
    each row belongs to: half the rows (each record on two rows or more, on average), or, for
    a document whose lines are the rows (an invoice, an order), nine tenths: Xero's 420
    invoices on 797 lines were split line by line (a stranger's export)."""
    words = name_words(name)
    return 0.9 * rows if words and words[0] in ("invoice", "order") else rows / 2


def _entity_name(name: str, keys: bool = False) -> bool:
    """``customer``, ``Client``, ``company_name``, ``customer name``: the whole name is an
    entity, or an entity followed by ``name``; with ``keys`` also by a key's word
    (:data:`_ENTITY_KEYS`: ``School Code``, which then holds the held-out rows together only
    where records really come back, not on one collision among employee numbers)."""
    words = name_words(name)
    # a document ('invoice', 'order') only with a key's word after it: a bare 'Order' is a
    # sort order or a bird's taxonomic order, left out as the record key (a review)
    document = bool(words) and words[0] in ("invoice", "order")
    return bool(words) and words[0] in _ENTITY_WORDS and (
        len(words) == 1 and not document or words[1:] == ["name"] and not document
        or keys and words[1:] in _ENTITY_KEYS)


#: A person's name fields, as CRMs, mailing lists and HR systems export them.
_PERSON_NAMES = {"first name", "firstname", "fname", "given name", "givenname", "forename",
                 "last name", "lastname", "lname", "surname", "family name", "familyname",
                 "middle name", "full name", "fullname", "contact name", "person name",
                 "nickname", "preferred name"}


#: ... of which these name a part only, shared by different people (not a full name,
#: which may be the record on several rows: a customer's transactions).
_NAME_PARTS = _PERSON_NAMES - {"full name", "fullname", "contact name", "person name"}


def person_name(name: str, part: bool = False) -> bool:
    """``First Name``, ``FNAME``, ``last_name``, ``Surname``: a field of a person's name
    (with ``part``: a first, last or middle name only, not ``Full Name``)."""
    words = " ".join(name_words(name))
    names = _NAME_PARTS if part else _PERSON_NAMES
    return words in names or words.replace(" ", "") in names


def _tiny_labels(present: pd.Series, n_distinct: int, n_rows: int) -> bool:
    """In a table under :data:`ID_MIN_VALUES` rows, a column with a different value in every
    row (at least :data:`ID_TINY_VALUES`): a term on it covers one row, and 'plot != P6'
    held in a 12-row table's rule (a review).  Not a column filled on a few rows of a larger
    table (12 complications in 400 rows: their presence is the signal), nor one whose values
    have an order (months, sizes, age bands) or are numbers (``<5``, ``10``, ``>60``)."""
    from rulecore.scales import level_order

    if not (ID_TINY_VALUES <= len(present) == n_distinct == n_rows < ID_MIN_VALUES):
        return False
    text = present.astype(str).str.strip()
    numbers = pd.to_numeric(text.str.lstrip("<>≤≥=~ "), errors="coerce").notna().mean()
    return numbers < 0.5 and level_order(text) is None


#: Shortest code whose leading zeros make a column of digits codes, not numbers.
CODE_MIN_WIDTH = 3


#: Words of a column name that say it holds a quantity, however its cells are padded.
QUANTITY_WORDS = frozenset({"usage", "kwh", "mwh", "wh", "amount", "amt", "qty", "quantity",
                            "count", "cnt", "balance", "bal", "units", "volume", "vol",
                            "weight", "wt", "hours", "hrs", "minutes", "mins", "seconds",
                            "secs", "days", "consumption", "price", "cost", "revenue", "sales",
                            "income", "salary", "age", "duration", "distance", "total"})


#: Words that make a name a code's, quantity words beside them or not (SAP's ``Cost
#: Center`` 0000100637, ``Sales Org`` 0001: a review).
_CODE_NAME_WORDS = frozenset({"code", "center", "centre", "org", "organization", "group",
                              "class", "band", "type", "id", "no", "nr", "number", "key"})


def zero_padded_codes(s: pd.Series) -> bool:
    """Whether a text column holds codes written with leading zeros: every present value
    digits (or, in fewer than half, digits with capital letters: ``051A``), all of one
    width (at least :data:`CODE_MIN_WIDTH`), some starting with 0
    (ZIP codes ``02134``, account codes ``000417``).  Read as numbers, ``02134`` became 2134
    and a rule said ``zip <= 4000 AND zip > 2000`` (a newcomer's review).  But a
    fixed-width extract pads every field, quantities too: a column named as a quantity
    (:data:`QUANTITY_WORDS`: ``KWH_USAGE`` ``0000000960``, ``QTY``, ``BAL_AMT``) holds
    numbers (a stranger's billing extract: its usage was a category of 565 levels)."""
    if pd.api.types.is_numeric_dtype(s):
        return False
    words = set(name_words(str(s.name)))
    if words & QUANTITY_WORDS and not words & _CODE_NAME_WORDS:
        return False
    present = s.dropna()
    if present.empty:
        return False
    head = present.iloc[:200].astype(str)
    width = len(head.iloc[0])
    if width < CODE_MIN_WIDTH or not (head.str.len() == width).all() \
            or not head.str.fullmatch(_CODE_CELL).all():
        return False
    text = present.astype(str)
    if not ((text.str.len() == width).all() and text.str.fullmatch(_CODE_CELL).all()):
        return False
    # digits, some with a letter among them (Chicago's IUCR offence codes '0910', '051A':
    # read as numbers, the letters' cells were missing values, a stranger's extract), most
    # digits only and some of those starting with 0
    digits = text.str.fullmatch(r"\d+")
    return bool(digits.mean() >= 0.5 and text[digits].str.startswith("0").any())


#: A cell of a fixed-width code: digits, or digits with capital letters among them.
_CODE_CELL = r"\d+|(?=[0-9A-Z]*\d)[0-9A-Z]+"


def detect_role(s: pd.Series, position: int, n_rows: int) -> tuple[str, str]:
    """``(role, reason)`` of one column, from its values, name and place in the table.

    ``s`` holds the values as read (text for a CSV, or typed); ``position`` is the column's
    place (0 = first); ``n_rows`` the table's row count.
    """
    name = str(s.name)
    present = s.dropna()
    if present.empty:
        return "empty", "every value is missing"
    n_distinct = int(present.nunique())
    if n_distinct == 1:
        # a whole number as the file wrote it: "every value is 2022.0" read as a float the
        # year of a World Bank export (a stranger's review)
        only = present.iloc[0]
        shown = format_number(only) if isinstance(only, (float, np.floating)) and \
            np.isfinite(only) else str(only)
        # (one line: a note written over lines broke the list of columns left out)
        shown = re.sub(r"\s+", " ", shown).strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        # (a text of spaces or nothing, as a JSON field's "" or " " is: "every value present
        # is ;" read as a broken message, a stranger's GitHub export)
        shown = shown or f"{str(only)!r} (blank text)"
        if len(present) < len(s):  # "every value" would hide the empty cells
            # (counted where a share would round to 0 % or 100 %: "0% of the cells are
            # empty" was said of 6 in 1,206, a stranger's Salesforce report)
            empty, share = len(s) - len(present), 1 - len(present) / len(s)
            said = (f"{empty:,} of {len(s):,} cells are empty" if not 0.005 <= share < 0.995
                    else f"{share:.0%} of the cells are empty")
            return "constant", f"every value present is {shown}; {said}"
        return "constant", f"every value is {shown}"
    # (row names are distinct; text repeated down an unnamed first column is a grouped
    # report's groups, filled down: QuickBooks' customers were "row names", a stranger's)
    if position == 0 and _UNNAMED.match(name.strip()) and not (
            _numeric(present) is None and n_distinct < 0.9 * len(present)):
        return "index", "unnamed first column: row names saved with the table"
    if (split := _split_column(name, present, n_distinct)) is not None:
        return "split", split
    # codes written with leading zeros (SAP's vendor 0000977425, a ZIP 02134) are text: all
    # distinct they are an identifier, not a number whose order means something (a review:
    # 600 vendor numbers in 600 rows were kept as a feature)
    # (only when all but distinct: repeated ZIP and store codes stay the categorical feature
    # they were, an adversarial review)
    num = None if zero_padded_codes(s) and n_distinct >= ID_DISTINCT_SHARE * len(present) \
        else _numeric(s)
    dates, written = _dates_as_numbers(num, name) if num is not None else (None, "")
    if dates is not None:
        return "date", f"{written} from {dates.min():%Y-%m-%d} to {dates.max():%Y-%m-%d}"
    if num is not None and (partial := partial_dates(s)) is not None:
        return "date", _partial_words(*partial)
    if num is not None:
        v = num.to_numpy()
        whole = np.isfinite(v).all() and np.all(v == np.round(v))
        if whole and len(v) == n_rows >= ID_MIN_VALUES:
            if np.array_equal(v, np.arange(n_rows)) or np.array_equal(v, np.arange(1, n_rows + 1)):
                first = 0 if v[0] == 0 else 1
                return "index", f"row numbers {first}..{first + n_rows - 1}"
        if whole and len(present) >= ID_MIN_VALUES:
            share = n_distinct / len(present)
            span = np.nanmax(v) - np.nanmin(v) + 1
            # (in lower case too, run together: FAERS' primaryid and caseid)
            named = bool(_ID_NAME.search(name) or _ID_CAMEL.search(name)
                         or _ID_CAPS.match(name if not name.islower() else name.upper()))
            # a short name in capitals ending in ID over numbers of one width, six digits or
            # more: Mailchimp's LEID was a numeric feature beside its EUID (a stranger's)
            if not named and _SHORT_CAPS_ID.fullmatch(name.strip()) and np.nanmin(v) >= 1e5:
                widths = np.char.str_len(np.abs(v).astype(np.int64).astype(str))
                named = bool((widths == widths[0]).all())
            if share >= ID_DISTINCT_SHARE and (named or span <= 2 * len(present)):
                return "id", (f"{n_distinct:,} distinct whole numbers in {len(present):,} rows: "
                              "an identifier")
            # named as an identifier, with values repeating: a rule "patient_id > 40512" would
            # use the order in which patients were registered, not anything about them
            if n_distinct > MAX_TEXT_LEVELS and (
                    _plain_id_name(name) or (named and share >= ID_REPEATED_SHARE)):
                return "id", (f"{n_distinct:,} distinct whole numbers in {len(present):,} rows, "
                              "named as an identifier: the same record on several rows "
                              "(held-out rows are split by it)")
            # the first column of a file without a header (names x1, x2, ...), whole numbers
            # of four digits or more, nearly all distinct: record numbers (wdbc.data's and
            # breast-cancer-wisconsin.data's patient ids were a feature).  A named column keeps
            # its place unless its name says id (an income first is an income).
            if position == 0 and _POSITIONAL.match(name) and np.nanmin(v) >= ID_FIRST_MIN \
                    and share >= ID_REPEATED_SHARE:
                return "id", (f"{n_distinct:,} distinct whole numbers of "
                              f"{len(str(ID_FIRST_MIN))} digits or more in {len(present):,} "
                              "rows, first in a file without a header: an identifier")
        # GA4's user_pseudo_id ("1017184582.1834854206") is a number with decimals, all but
        # distinct, and named as an identifier: a key, not a measurement
        # (large numbers only: an "ID" of 12.7 mm or a transistor's "Id (A)" is measured)
        if not whole and _plain_id_name(name) and len(present) >= ID_MIN_VALUES and \
                n_distinct >= ID_DISTINCT_SHARE * len(present) and np.nanmin(np.abs(v)) >= 1e6:
            return "id", (f"{n_distinct:,} distinct values in {len(present):,} rows, named as "
                          "an identifier")
        # an entity's number that comes back on several rows ('School Code' 0001000 on a
        # school's 14 grade and subgroup rows), as its name does below: the record
        if whole and ID_MIN_VALUES <= n_distinct <= _most_records(name, len(present)) and \
                _entity_name(name, keys=True):
            return "id", (f"{n_distinct:,} distinct values in {len(present):,} rows, named as "
                          "the record each row belongs to: the same record on several rows "
                          "(held-out rows are split by it)")
        return "feature", ""
    if (partial := partial_dates(s)) is not None:  # (read once, with each cell's precision)
        return "date", _partial_words(*partial)
    dates = parse_dates(s)
    if dates is not None:
        lo, hi = dates.min(), dates.max()
        return "date", f"dates from {lo:%Y-%m-%d} to {hi:%Y-%m-%d}"
    # options ticked before the names: "segment_ids" holding lists of segments (1;3;4) is
    # no key, though its name says ids (a review: it was left out and split the rows)
    if (choices := choice_options(s)) is not None:
        sep, options = choices
        return "choices", (f"answers ticking one or several of {len(options)} options "
                           f"(joined by {sep!r})")
    # an order's number as Shopify writes it, '#1001', on each of its line items: the record
    # each line belongs to (as free text, the lines of one order sat on both sides of the
    # split: a stranger's export)
    if ID_MIN_VALUES <= n_distinct < len(present) and _numeric(present) is None and \
            present.astype(str).str.fullmatch(r"#\d{3,}").all():
        return "id", (f"{n_distinct:,} order numbers (such as {present.iloc[0]!s}) in "
                      f"{len(present):,} rows: the order each row belongs to, its lines on "
                      "several rows (held-out rows are split by it)")
    if n_distinct > MAX_TEXT_LEVELS and _plain_id_name(name):
        return "id", (f"{n_distinct:,} distinct values in {len(present):,} rows, named as an "
                      "identifier")
    # the customer each transaction belongs to: as a category, 45 company names came back
    # on both sides of the split and a 33-condition rule of names scored 100 % held out (a
    # review); as the record key it is left out and the held-out rows are whole customers
    if n_distinct >= ID_MIN_VALUES and n_distinct <= _most_records(name, len(present)) and \
            _entity_name(name, keys=True):
        return "id", (f"{n_distinct:,} distinct values in {len(present):,} rows, named as the "
                      "record each row belongs to: the same record on several rows "
                      "(held-out rows are split by it)")
    # a person's first or last name names the row, it says nothing of it: as a category,
    # 'First Name != Mary' could join a rule (a stranger's Mailchimp audience)
    if person_name(name) and n_distinct >= 5:
        return "id", "a person's name: it names the row, it does not describe it"
    if _is_json(present):
        # {"device": "ios", "coupon": true} is a record in a cell: as a category, its rules
        # read `meta != {"device": "android", ...}` and each level is one combination
        return "text", "JSON: a structure in each cell, not a category"
    if (len(present) >= ID_MIN_VALUES and n_distinct >= ID_DISTINCT_SHARE * len(present)) or (
            _tiny_labels(present, n_distinct, n_rows)):
        words = present.astype(str).str.strip().str.count(r"\s+").mean() + 1
        # a column named as remarks is free text from two words on ("asked for discount
        # #4460", " #9719": 2.9 words a cell, read as an identifier: a stranger's review)
        prose = words >= 4 or (words >= 2 and bool(_REMARK_NAME.search(str(name))))
        what = "free text" if prose else "an identifier"
        return ("text" if prose else "id"), (
            f"{n_distinct:,} distinct values in {len(present):,} rows: {what}")
    if n_distinct > MAX_TEXT_LEVELS:
        return "text", (f"text with {n_distinct:,} distinct values (more than "
                        f"{MAX_TEXT_LEVELS}): each term would cover few rows")
    return "feature", ""


#: Names of the column that says which rows were for training and which for testing, and
#: the words of its values.
_SPLIT_NAMES = {"split", "set", "subset", "fold", "folds", "partition", "dataset", "sample",
                "kfold", "role", "usage", "usedfor", "trainortest", "traintest"}
_SPLIT_VALUES = ("train", "training", "tune", "tuning", "dev", "valid", "validation", "val",
                 "calibration", "eval", "evaluation", "holdout", "hold-out", "test", "testing")


#: Names of a yes/no column marking the rows of a split (``is_test`` 0/1, ``in_train``).
#: (not ``holdout``, a marketing control group, ``in_test`` or ``test_flag``, an A/B test's
#: arm, nor a stock's ``split``: properties of the record, a review)
_SPLIT_FLAG_NAMES = {"istest", "istrain", "intrain", "testset", "trainset", "istestset",
                     "istrainset", "isvalidation", "isval", "trainflag", "testrow", "trainrow",
                     "fortest", "fortraining", "usedfortraining", "intestset", "intrainingset",
                     "trainortest", "traintest", "testtrain"}


def _split_column(name: str, present: pd.Series, n_distinct: int) -> str | None:
    """Why a column records a train/test split (``set`` = train/test, ``fold`` = 1..5,
    ``is_test`` = 0/1), or ``None``.  Bookkeeping of an earlier analysis, not a property of
    the record: a review's case-control table had its ``set`` column chosen as the target
    (the rule predicted "set = test"), and as a feature it says which rows someone else held
    out (a stranger's ``is_test`` was a feature, and a rule could say 'is_test == 0')."""
    plain = re.sub(r"[^a-z]", "", name.lower())
    words = set(name_words(name))
    if plain in _SPLIT_FLAG_NAMES and n_distinct == 2 and {
            str(v).strip().lower() for v in present.unique()} <= {
            "0", "1", "0.0", "1.0", "true", "false", "yes", "no", "y", "n"}:
        return "which rows were held out by an earlier split (a yes/no flag), not a " \
            "property of the record"
    if n_distinct > 20 or not (plain in _SPLIT_NAMES or words & {"split", "fold", "folds"}):
        return None
    values = {str(v).strip().lower() for v in present.unique()}
    # training rows beside held-out ones: a team's roles "dev" and "test" are no split (an
    # adversarial review)
    if values <= set(_SPLIT_VALUES) and values & {"train", "training"} and len(values) >= 2:
        said = sorted(values, key=_SPLIT_VALUES.index)
        return f"which rows were for {', '.join(said[:-1])} and {said[-1]}: an earlier split, " \
            "not a property of the record"
    if words & {"fold", "kfold"} and not words & {"increase", "change", "rise", "times"}:
        # folds number the rows 0..k-1 or 1..k in near-equal parts: an antibody's "fold"
        # rise (1-16) or a poker player's "folds" (a count) are measurements
        num = pd.to_numeric(present, errors="coerce")
        if num.isna().any() or (num != num.round()).any():
            return None
        counts = num.value_counts()
        lo, hi = int(num.min()), int(num.max())
        if 2 <= n_distinct <= 20 and lo in (0, 1) and hi - lo + 1 == n_distinct and \
                counts.max() <= 1.5 * counts.min():
            return (f"cross-validation folds {lo}..{hi} of an earlier analysis, not a "
                    "property of the record")
    return None


def _is_json(present: pd.Series) -> bool:
    """Whether (nearly) every cell of a text column is a JSON object or array."""
    import json

    sample = present.astype(str).str.strip().iloc[:200]
    if sample.empty or not sample.str.match(r"^[\[{]").all():
        return False
    ok = 0
    for v in sample:
        try:
            ok += isinstance(json.loads(v), (dict, list))
        except ValueError:
            pass
    return ok >= 0.9 * len(sample)


#: A variable label that names an identifier (Stata's and SPSS's: ``Household identifier``,
#: ``Respondent ID``, ``Case number``).
_ID_LABEL = re.compile(r"(?i:\bidentifier|\bidentification (?:number|code)|"
                       r"\b(?:case|record|serial|respondent) (?:number|no\.?))\s*$|\bID\s*$")


def detect_roles(df: pd.DataFrame, labels: Mapping[str, str] | None = None
                 ) -> dict[str, tuple[str, str]]:
    """``{column: (role, reason)}`` for every column of ``df`` (see :func:`detect_role`); the
    unit of a panel (:func:`panel_unit`) is the record each row belongs to, and so is a
    column of features whose variable label (``labels``, as Stata and SPSS files carry
    them) names an identifier (:data:`_ID_LABEL`)."""
    roles = {str(c): detect_role(df[c], i, len(df)) for i, c in enumerate(df.columns)}
    unit = panel_unit(df, roles)
    if unit is not None:
        roles[unit[0]] = ("id", unit[1])
    for col, label in (labels or {}).items():
        # (a household's identifier in a survey file was a numeric feature, and one
        # household's people sat on both sides of the split: a stranger's Stata file)
        # (the label ends so, and the values are many: 'Has a national ID card', a yes/no
        # question, was an identifier, the review)
        if roles.get(str(col), ("",))[0] == "feature" and _ID_LABEL.search(str(label)) \
                and str(col) in df.columns and df[col].nunique() >= ID_MIN_VALUES:
            roles[str(col)] = ("id", f"its label says it is an identifier ({label!r}): it "
                                     "names the record, and rows of one record are held out "
                                     "together")
    return roles


def panel_unit(df: pd.DataFrame, roles: dict[str, tuple[str, str]]
               ) -> tuple[str, str] | None:
    """The unit of a panel, a row per unit and period (a World Bank download's country and
    year), and why; ``None`` for any other table.

    A text column of more than :data:`MAX_TEXT_LEVELS` values (too many for a category: it
    is left out either way), each on two rows or more and in most periods, never twice
    with one value of a period column (named so, :data:`_TIME_WORDS`, or dates, at most a
    quarter as many as the rows).  Its rows are then held out
    together: a random split put a country's other years among the training rows, and the
    held-out rows were recognised, not predicted."""
    n = len(df)
    if n < 40:
        return None
    times = [c for c in df.columns if isinstance(df[c], pd.Series) and (
        roles[str(c)][0] == "date" or _time_name(str(c))) and 2 <= df[c].nunique() <= n / 4]
    if not times:
        return None
    for c in df.columns:
        s = df[c]
        if roles[str(c)][0] != "text" or not isinstance(s, pd.Series) or s.isna().any() \
                or _numeric(s) is not None:
            continue
        counts = s.value_counts()
        if not MAX_TEXT_LEVELS < len(counts) <= n / 2 or counts.min() < 2:
            continue
        for t in times:
            pairs = pd.DataFrame({"u": s.astype(str), "t": df[t].astype(str)})
            # (seen in most periods, as a panel's units are: not a log's few days a product)
            if df[t].notna().all() and counts.median() >= 0.5 * df[t].nunique() \
                    and not pairs.duplicated().any():
                return str(c), (f"the unit of a panel: {len(counts):,} values, each on up to "
                                f"{int(counts.max())} rows, one a {str(t)!r}; its rows are "
                                "held out together (a unit's other periods would give it "
                                "away)")
    return None


#: What a date column may give, in order: the year and month of any date; the weekday and
#: the hour of a timestamp whose times of day vary (an event log: a one-week sensor log has
#: one year and one month, and its faults may come at night or on Sundays).
DATE_PARTS = ("year", "month", "weekday", "hour")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def date_feature_names(name: str) -> list[str]:
    """The names of every feature a date column ``name`` may give (:data:`DATE_PARTS`)."""
    return [f"{name} ({part})" for part in DATE_PARTS]


#: Dates without a time give their weekday when they are a log's days: at least this many
#: distinct days ...
EVENT_DAYS_MIN = 14
#: ... within at most this span (a flight table of one January: year and month were
#: constants and its weekends, the signal, were never offered, a stranger's table; birth
#: and hire dates, decades apart, give no weekday, which would only be noise).
EVENT_SPAN = pd.Timedelta(days=3 * 366)


def _log_days(present: pd.Series) -> bool:
    """Whether dates without a time are a log's days: :data:`EVENT_DAYS_MIN` distinct days
    or more within :data:`EVENT_SPAN`, on 7 days of the month or more (monthly periods, the
    1st of each month, gave a weekday of no meaning, a review).  In numpy on the distinct
    days (pandas' normalize took 0.9 s a column of 1M rows)."""
    if present.max() - present.min() > EVENT_SPAN:
        return False
    try:
        days = np.unique(present.to_numpy().astype("datetime64[D]"))
    except (TypeError, ValueError):  # a time zone kept: pandas' own way
        days = np.unique(present.dt.tz_localize(None).to_numpy().astype("datetime64[D]"))
    if len(days) < EVENT_DAYS_MIN:
        return False
    of_month = (days - days.astype("datetime64[M]")).astype(int)
    return len(np.unique(of_month)) >= 7


def date_features(name: str, dates: pd.Series, weekday: bool = False,
                  precision: pd.Series | None = None) -> dict[str, pd.Series]:
    """The features derived from a date column: its year and month (1-12) as numbers; its
    weekday (``Mon`` ... ``Sun``, a category) when the times of day vary, the dates are a
    log's days (:data:`EVENT_DAYS_MIN` distinct days within :data:`EVENT_SPAN`) or
    ``weekday`` asks for it (a user included the column: a one-week table's ``--include
    FL_DATE`` was ignored without a word, a stranger's review); and its hour (0-23, a
    number) when the times of day vary.

    ``precision`` (for :data:`PARTIAL_DATES`, the second part of :func:`partial_dates`): a
    date given to the year only has no month (missing, not January), and one without its day
    no weekday."""
    year, month, week, hour = date_feature_names(name)
    out = {year: dates.dt.year.astype(float), month: dates.dt.month.astype(float)}
    if precision is not None:
        out[month] = out[month].where(precision != "year")
        dates = dates.where(precision == "day")  # the day's parts: only where it is given
    present = dates.dropna()
    times = len(present) and (present.dt.hour * 60 + present.dt.minute).nunique() > 1
    days = not times and len(present) and _log_days(present)
    if times or days or weekday:
        out[week] = dates.dt.day_of_week.map(dict(enumerate(WEEKDAYS))).astype(object)
    if times:
        out[hour] = dates.dt.hour.astype(float)
    return out


# --------------------------------------------------------------------------- the target


TargetKind = Literal["classes", "continuous", "unusable"]
#: Most distinct values a text target may hold as classes when they are over half its rows.
MAX_TARGET_CLASSES = 100


#: Said of a target that is a sample's column of a table saved transposed: no other column
#: can be the target then, so the refusal does not ask for another (rulecore.data).
TRANSPOSED = "the table is transposed"


def target_kind(s: pd.Series) -> tuple[TargetKind, str]:
    """Whether ``s`` can be a target of classes, is continuous (needs a threshold), or
    cannot be a target at all, with the reason.

    Continuous: numeric with more than :data:`MAX_CLASS_LEVELS` distinct values, or a
    different number in every row (more than two).  Unusable:
    empty, a single value, or text with a different value in every row (an identifier).
    """
    present = s.dropna()
    if present.empty:
        return "unusable", "it is empty"
    n_distinct = int(present.nunique())
    if n_distinct < 2:
        return "unusable", f"it has a single class ({present.iloc[0]!s})"
    num = _numeric(s)
    if num is not None:
        # a different number in every row is a quantity, not classes, however few rows
        if n_distinct > MAX_CLASS_LEVELS or (n_distinct == len(present) > 2):
            return "continuous", (f"it is a number with {n_distinct:,} distinct values, not "
                                  "classes")
        return "classes", ""
    if n_distinct == len(present) and len(present) > 2:
        return "unusable", (f"it has a different value in every row ({n_distinct:,}): an "
                            "identifier, not classes")
    if n_distinct > MAX_TARGET_CLASSES and n_distinct > len(present) / 2:
        # numbers with a few words among them (a gene table with samples as columns and a
        # 'Tumor' row: 1,167 "classes", a review), or near-unique text
        numbers = pd.to_numeric(present.astype(str).str.strip(), errors="coerce").notna().mean()
        what = ("numbers with a few words among them, not classes: if each column is a "
                f"sample and each row a measurement, {TRANSPOSED} (one row per "
                "sample is needed), and no other column can be the target either; transpose "
                "it (R: t(), pandas: df.set_index(first column).T, a spreadsheet: Paste "
                "Special, Transpose) and load it again"
                if numbers >= 0.9 else "nearly an identifier, not classes")
        return "unusable", (f"it has {n_distinct:,} distinct values in {len(present):,} rows, "
                            f"{what}")
    return "classes", ""


#: A legend of codes or a range after a name, ``Outcome (1=yes, 0=no)``, ``Sex [1=m; 2=f]``,
#: ``satisfaction (1-5)``: not part of what the name says (a review: ``Sex (1=male,
#: 2=female)`` was the target beside ``Outcome (1=yes, 0=no)``, neither name recognised).
_LEGEND = re.compile(r"\s*[(\[][^()\[\]]*[=\d][^()\[\]]*[)\]]\s*$")


def _plain_name(name: str) -> str:
    return re.sub(r"[^a-z]", "", _LEGEND.sub("", str(name)).lower())


#: Class values that name an outcome (the table's target whatever its column is called):
#: ``account_state`` holding Churned / Retained.
_OUTCOME_VALUES = frozenset({"churned", "retained", "cancelled", "canceled", "renewed",
                             "defaulted", "fraud", "fraudulent", "survived", "died",
                             "deceased", "won", "lost", "passed", "failed", "approved",
                             "rejected", "denied", "converted", "resigned", "attrited",
                             "readmitted",
                             # a genetic study's phenotype (PLINK: case / control; not
                             # affected / unaffected, a body side as often: a review)
                             "case", "control"})


def _outcome_values(s: pd.Series) -> bool:
    """Whether a class column's values name an outcome: two classes, both outcome words
    (:data:`_OUTCOME_VALUES`: Churned / Retained, Approved / Rejected).  A review's
    ``account_state`` (Churned / Retained) in the middle of the table lost to the rightmost
    yes/no column, ``segment`` (B2B / B2C), and the rule predicted the segment.  One outcome
    word among others is a feature's value as often (a probation passed, failed or extended
    beside ``left_company``: an adversarial review)."""
    values = s.dropna().astype(str).str.strip().str.casefold().unique()
    # (or a pipeline's stages: Closed Won and Closed Lost beside its open stages, which
    # from_frame reads as not decided yet; Salesforce's Stage lost to a Lead Source)
    return (len(values) == 2 and all(v in _OUTCOME_VALUES for v in values)) or \
        (len(values) <= MAX_STAGES and pipeline_stages(values))


#: Words naming a column of letter grades.
_GRADE_WORDS = frozenset({"grade", "grades", "letter", "mark", "marks"})


def _letter_grades(s: pd.Series) -> bool:
    """Whether a column named as grades holds letter grades (:data:`scales.LETTER_GRADE`),
    three or more (A, B+, F)."""
    if not _GRADE_WORDS & set(name_words(str(s.name))):
        return False
    values = s.dropna().unique()
    return 3 <= len(values) <= 15 and all(LETTER_GRADE.match(str(v)) for v in values)


def _attribute_values(s: pd.Series) -> bool:
    """Whether a column's levels are all a person's employment or marital state
    (:data:`_ATTRIBUTE_VALUES`): a feature however its name reads, unless the name is a
    plain target's (a graduate's ``outcome``: Employed / Unemployed / Further study)."""
    values = {re.sub(r"[^a-z]", "", str(v).casefold()) for v in s.dropna().unique()[:50]}
    return len(values) >= 2 and values <= _ATTRIBUTE_VALUES


def _target_hint(name: str) -> int:
    """How strongly a name says "outcome": 2 for a whole name of :data:`_TARGET_NAMES`, 1 for
    a longer name with a word of :data:`_TARGET_WORDS` followed by nothing or by words of
    :data:`_TARGET_TAILS` (``loan_status``, ``test_result``, ``churn_flag``; not a status
    that belongs to a person, ``marital_status``, nor ``default_payment_method``), else 0."""
    if _plain_name(name) in _TARGET_NAMES:
        return 1 if _plain_name(name) in _CONDITION_NAMES else 2
    words = name_words(_LEGEND.sub("", str(name)))
    if len(words) < 2 or any(w in _ATTRIBUTE_WORDS for w in words):
        return 0
    tails = _TARGET_TAILS | (_WINDOW_TAILS if re.search(r"\d", str(name)) else set())
    return int(any(w in _TARGET_WORDS and all(t in tails for t in words[i + 1:])
                   for i, w in enumerate(words)))


#: What may follow an outcome's word in the name of a number that scores it (``churn_score``,
#: ``default_probability``, ``fraud_risk``): a model's output or a risk the table is about.
_SCORE_TAILS = {"score", "prob", "proba", "probability", "risk", "likelihood", "propensity",
                "prediction", "pred", "predicted"}
#: ... of which these say the number is a probability, cut at one half by default (and
#: ``score`` after an outcome's word: ``churn_score``; an ``exam_score`` is no probability).
_PROBABILITY_WORDS = {"prob", "proba", "probability", "likelihood", "propensity", "risk",
                      "predicted", "prediction", "pred"}


def is_outcome_score(name: str) -> bool:
    """Whether a numeric column's name says it scores an outcome: an outcome's word
    (:data:`_TARGET_WORDS`, ``churn``) followed by words of a score (:data:`_SCORE_TAILS`,
    at least one: ``churn_score``, ``default_probability``), or such a word then ``of`` and
    the outcome (``probability_of_default``).  A code or a measurement named with an
    outcome's word (``status_code``, ``hba1c_test_result``) is not one (an adversarial
    review)."""
    words = name_words(name)
    if any(w in _ATTRIBUTE_WORDS for w in words):
        return False
    after = any(w in _TARGET_WORDS and words[i + 1:]
                and all(t in _TARGET_TAILS | _SCORE_TAILS for t in words[i + 1:])
                and any(t in _SCORE_TAILS for t in words[i + 1:])
                for i, w in enumerate(words))
    before = len(words) >= 3 and words[0] in _SCORE_TAILS and words[1] == "of" and \
        words[-1] in _TARGET_WORDS
    return after or before


def is_rating(name: str, s: pd.Series) -> bool:
    """Whether a column is a rating scale: named like one (:data:`_RATING_NAME`) and holding
    3 to 11 whole numbers from 0 or 1 up to at most 10 (a 1–5 satisfaction, a 0–10
    likelihood to recommend)."""
    if not _RATING_NAME.search(str(name)):
        return False
    num = _numeric(s)
    if num is None:
        return False
    v = np.unique(num.dropna().to_numpy(dtype=float))
    return bool(3 <= len(v) <= 11 and np.all(v == np.round(v)) and v[0] in (0.0, 1.0)
                and v[-1] <= 10)


def rating_threshold(s: pd.Series) -> str:
    """Where a rating scale is split by default: below the middle of its values (``<= 2`` on
    1–5: the dissatisfied, the neutral 3 with the rest; ``<= 4`` on 0–10), the positive side
    being the one with fewer rows (the low side on a tie), as the minority class is
    elsewhere."""
    v = pd.to_numeric(s, errors="coerce").dropna().to_numpy(dtype=float)
    t = np.ceil((v.min() + v.max()) / 2) - 1  # the largest whole value below the middle
    low = int((v <= t).sum())
    return f"<= {format_number(t)}" if low <= len(v) - low else f"> {format_number(t)}"


#: Events a count in a table's last column is usually the outcome of (``defect_count``,
#: ``n_failures``, ``number_of_claims``), singular; a plural is read as its singular.
_EVENT_NOUNS = {"defect", "failure", "fault", "incident", "accident", "claim", "complaint",
                "error", "bug", "crash", "fall", "injury", "violation", "infection",
                "complication", "readmission", "breakdown", "outage", "return", "default",
                "relapse", "exacerbation", "event", "adverse", "fraud", "chargeback",
                "dispute", "escalation", "recall", "rejection", "reject"}
#: Words that say a column counts something (``defect_count``, ``n_failures``).
_COUNT_WORDS = {"count", "counts", "n", "num", "number", "no", "nb", "cnt", "nr", "total"}


def _singular(word: str) -> str:
    for plural, single in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("s", "")):
        if word.endswith(plural) and len(word) > len(plural) + 2:
            return word[: -len(plural)] + single
    return word


def whole_counts(s: pd.Series) -> bool:
    """Whether a numeric column holds counts of a few values: 3 to :data:`MAX_CLASS_LEVELS`
    whole numbers from 0 (0, 1, 2 defects), zero the most frequent."""
    num = _numeric(s)
    if num is None:
        return False
    v = num.dropna()
    levels = np.unique(v.to_numpy(dtype=float))
    return bool(3 <= len(levels) <= MAX_CLASS_LEVELS and levels[0] == 0
                and np.all(levels == np.round(levels))
                and (v == 0).mean() >= v.value_counts(normalize=True).max())


def names_event_count(name: str) -> bool:
    """Whether a name says it counts an outcome's events: a word of :data:`_COUNT_WORDS` and
    an event of :data:`_EVENT_NOUNS` (``defect_count``, ``n_failures``,
    ``number_of_claims``)."""
    words = name_words(_LEGEND.sub("", str(name)))
    return bool(set(words) & _COUNT_WORDS and {_singular(w) for w in words} & _EVENT_NOUNS)


def is_event_count(name: str, s: pd.Series) -> bool:
    """Whether a column counts an outcome's events: :func:`names_event_count` and
    :func:`whole_counts`.  As the target it is split at ``> 0``, "any defect", by default (a
    review's ``defect_count``, 0 / 1 / 2 and last in its table, lost to a day/night ``shift``
    column; chosen by hand, its default class was "exactly 2")."""
    return names_event_count(name) and whole_counts(s)


#: Class codes: each of 3 to MAX_CLASS_LEVELS consecutive whole numbers from 0 or 1 holds
#: at least this share of the rows (a count's large values are rare; class codes are not).
MIN_CODE_SHARE = 0.05


def _class_codes(s: pd.Series, min_share: float = MIN_CODE_SHARE) -> bool:
    """Whether a numeric column reads as class codes (``1, 2, 3``): 3 to
    :data:`MAX_CLASS_LEVELS` consecutive whole numbers from 0 or 1, each in at least
    ``min_share`` of the rows."""
    num = _numeric(s)
    if num is None:
        return False
    v = num.dropna()
    levels = np.unique(v.to_numpy(dtype=float))
    if not 3 <= len(levels) <= MAX_CLASS_LEVELS or not np.all(levels == np.round(levels)):
        return False
    if levels[0] not in (0, 1) or not np.all(np.diff(levels) == 1):
        return False
    return bool(v.value_counts(normalize=True).min() >= min_share)


#: Words of a date column's name that say it records an outcome (``cancelled_at``).
_EVENT_WORDS = {"cancelled", "canceled", "cancellation", "cancel", "churned", "churn",
                "terminated", "termination", "resigned", "resignation", "defaulted", "default",
                "death", "died", "deceased", "readmitted", "readmission", "converted",
                "conversion", "lapsed", "attrition", "exited", "quit", "unsubscribed"}


#: The columns a survey tool writes about each response (Qualtrics, SurveyMonkey), as
#: :func:`_plain_name` has them.
_SURVEY_METADATA = {"startdate", "enddate", "status", "ipaddress", "progress",
                    "durationinseconds", "finished", "recordeddate", "responseid",
                    "recipientlastname", "recipientfirstname", "recipientemail",
                    "externalreference", "externaldatareference", "locationlatitude",
                    "locationlongitude", "distributionchannel", "userlanguage", "respondentid",
                    "collectorid", "emailaddress", "firstname", "lastname",
                    "customdata",
                    # ODK Central's and KoboToolbox's own columns, LimeSurvey's (a stranger's
                    # forms: ODK's ReviewState and Kobo's option flags were predicted)
                    "submissiondate", "start", "end", "today", "deviceid", "subscriberid",
                    "simserial", "phonenumber", "metainstanceid", "metainstancename",
                    "instanceid", "key", "submitterid", "submittername",
                    "attachmentspresent", "attachmentsexpected", "reviewstate", "edits",
                    "formversion", "id", "uuid", "submissiontime", "validationstatus",
                    "submittedby", "version", "xformid", "index", "parentindex",
                    "parenttablename", "submitdate", "lastpage", "startlanguage", "seed",
                    "datestamp", "ipaddr", "refurl", "token", "interviewtime", "grouptime"}
#: Survey-tool names as generic as any table's: they count only beside a tool's own.
_GENERIC_METADATA = frozenset({"id", "start", "end", "today", "key", "index", "version",
                               "token", "seed", "edits", "status", "progress", "finished"})
#: Values of a person's sex or gender: a demographic however its column is named
#: (LimeSurvey's ``G01Q02``: Female / Male was predicted, a stranger's survey).
_GENDER_VALUES = frozenset({"female", "male", "f", "m", "woman", "man", "women", "men",
                            "girl", "boy", "nonbinary", "other", "diverse", "femme", "homme",
                            "weiblich", "männlich", "mujer", "hombre"})


def _gender_values(s: pd.Series) -> bool:
    """Whether a column's levels are a person's sex or gender (:data:`_GENDER_VALUES`),
    with at least two of female / male (or their words)."""
    values = {re.sub(r"[^a-zä]", "", str(v).casefold()) for v in s.dropna().unique()[:20]}
    return len(values) >= 2 and values <= _GENDER_VALUES and \
        len(values - {"nonbinary", "other", "diverse"}) >= 2


#: A raw REDCap export's name of a form's status column, ``<form>_complete``.
_FORM_COMPLETE = re.compile(r"[a-z][a-z0-9_]*_complete")
#: REDCap's form statuses, as labels and as raw codes (0 Incomplete, 1 Unverified, 2 Complete).
_FORM_STATUSES = frozenset({"Incomplete", "Unverified", "Complete"})


def _form_status(name: str, s: pd.Series, columns: Sequence[str] = ()) -> bool:
    """Whether a column is REDCap's status of a form: ``Complete?`` in an export of labels,
    ``<form>_complete`` in a raw one, holding REDCap's statuses (Incomplete / Unverified /
    Complete, or 0 / 1 / 2 with a 2 among them).  It says how far data entry went, never the
    outcome: 'Complete? = Incomplete' was predicted, by whether the survey had a timestamp
    (a stranger's study).  By its values too: a yes/no ``course_complete`` is an outcome
    (the name alone took it from the default target, a review)."""
    name = name.strip()
    if name != "Complete?" and not _FORM_COMPLETE.fullmatch(name):
        return False
    values = {str(v).strip() for v in s.dropna().unique()[:10]}
    codes = {v.removesuffix(".0") for v in values}
    # (0 and 1 alone, no form marked Complete yet, in a table REDCap exported: a study under
    # way made 'baseline_complete' the default target, a review)
    redcap = bool(columns) and (str(columns[0]) == "record_id" or any(
        str(c).startswith("redcap_") for c in columns) or sum(
        bool(_FORM_COMPLETE.fullmatch(str(c))) for c in columns) >= 2)
    return values <= _FORM_STATUSES or codes <= {"0", "1", "2"} and ("2" in codes or redcap)


#: A target's second class needs at least this many rows for the column to be chosen by
#: default (a user may still choose it).
MIN_DEFAULT_CLASS_ROWS = 5


def _one_class_but_few(s: pd.Series) -> bool:
    """Whether all of ``s``'s rows but fewer than :data:`MIN_DEFAULT_CLASS_ROWS` hold one
    value (blanks counted as a value: a tick column's empty cells are its 'no')."""
    # the first rows decide most columns without counting all of them (a 1M-row table's
    # 62 columns took 60 s counted whole, a review)
    head = s.iloc[:1000].value_counts(dropna=False)
    if len(head) >= 2 and int(head.iloc[1:].sum()) >= MIN_DEFAULT_CLASS_ROWS:
        return False
    counts = s.value_counts(dropna=False)
    return len(counts) >= 2 and len(s) - int(counts.iloc[0]) < MIN_DEFAULT_CLASS_ROWS


def option_flag(name: str, columns: Iterable[str]) -> bool:
    """Whether a column is a form tool's yes/no flag for one option of a multi-select
    question that is itself a column (KoboToolbox's ``water/treatment/boil`` beside
    ``water/treatment``): the answer's detail, never the target."""
    columns = columns if isinstance(columns, (set, frozenset)) else set(map(str, columns))
    # the name's own prefixes looked up, not every column tried (a wide table's 2,000
    # columns made that four million comparisons)
    return any(name[:i] in columns for i, ch in enumerate(name) if ch in "/.")


def _mostly_unanswered(s: pd.Series) -> bool:
    """Whether more than nine tenths of ``s``'s rows are blank or no answer
    (:func:`no_answers`: ``NA``, ``Unknown``) while two values or more answer the rest (a
    column of one value or a blank is a yes/no target: ``Escalated`` or nothing).  A REDCap
    outcome on each record's follow-up row, a third of the rows, stays a target."""
    values = s.dropna().unique()
    if len(values) > MAX_STAGES:
        return False
    nos = set(no_answers(values))
    if len(values) - len(nos) < 2:
        return False
    unanswered = s.isna() | s.isin(nos)
    return float(unanswered.mean()) > 0.9


def _answer_levels(s: pd.Series) -> int:
    """Distinct values of ``s`` but those that are no answer (:func:`no_answers`), when at
    least two remain."""
    values = s.dropna().unique()
    if len(values) > MAX_STAGES:
        return len(values)  # not a column of classes: no pass over its labels
    answered = len(values) - len(no_answers(values))
    return answered if answered >= 2 else len(values)


#: Words that name an outcome in a column's name, as a target's values or a condition do
#: ('passed', 'Loan Approved', 'Heart Disease', 'hired', 'Late'): such a target in the middle
#: of a table is named, no guess (a review).
_OUTCOME_NAME_WORDS = _OUTCOME_VALUES | _CONDITION_NAMES | frozenset({
    "success", "successful", "failure", "failures", "rejected", "malignant", "verdict",
    "hired", "promoted", "approval", "stroke", "cancer", "tumor", "tumour", "claim", "claims",
    "late", "delayed", "delay", "overdue", "arrears", "bankrupt", "bankruptcy", "dropout",
    "dropped", "attrition", "subscribed", "clicked", "responded", "conversion", "purchase",
    "purchased", "returned", "spam", "accepted", "admission", "admitted", "death", "mortality",
    "infection", "relapse", "recurrence", "complication", "complications", "pass", "fail"})


def _survey_meta(cols: list[str]) -> list[str]:
    """A survey tool's own columns among ``cols`` (Qualtrics' Status, Finished, ...;
    KoboToolbox's _id, _uuid, ...), or [] when fewer than five are there."""
    meta = [c for c in cols if _plain_name(c) in _SURVEY_METADATA]
    # (names as generic as 'id', 'start', 'version' count only beside three of a tool's
    # own: a CI job table's id, version, start, end and status changed its target, a review)
    if len(meta) < 5 or sum(_plain_name(c) not in _GENERIC_METADATA for c in meta) < 3:
        return []
    # (KoboToolbox starts each of its own columns with '_': _gps_latitude, _submitted_by)
    return meta + [c for c in cols if c.startswith("_") and c not in meta]


def target_guessed(df: pd.DataFrame, target: str,
                   roles: dict[str, tuple[str, str]] | None = None) -> bool:
    """Whether :func:`choose_target`'s ``target`` is a guess: nothing in the table says it
    is the outcome.  Its name says so (``churn``, ``loan_status``, ``churn_score``, a rating,
    a count of an outcome's events, an outcome's date), or its values do (Churned /
    Retained), or the export convention does: it is the table's last column that is no row
    number, identifier or constant, or a file without a header puts it last (UCI's).  A
    guess was an instrument's ``Method Code`` in an EPA download, a college's ``MAIN``
    campus flag in the College Scorecard, a bank statement's ``Type`` (a stranger's
    downloads): said as a guess, with how to choose."""
    roles = roles if roles is not None else detect_roles(df)
    cols = [str(c) for c in df.columns]
    s = df[target]
    if _target_hint(target) or _plain_name(target) in _TARGET_NAMES \
            or is_outcome_score(target) or is_rating(target, s) \
            or is_event_count(target, s) or set(name_words(target)) & _EVENT_WORDS \
            or set(name_words(target)) & _OUTCOME_NAME_WORDS:
        return False
    # a survey tool's own columns after the questions (KoboToolbox's _id, _uuid, ...): the
    # last question is the table's last column, as choose_target reads it (a review)
    meta = _survey_meta(cols)
    cols = [c for c in cols if c not in meta] or cols
    if _POSITIONAL.match(target) and all(_POSITIONAL.match(c) for c in cols):
        return False
    if _outcome_values(s) or lifecycle_stages(s.dropna().unique()[:MAX_STAGES]):
        return False
    # the last column of an app's export that repeats the field's name is no outcome the
    # file was laid out around: Strava appends its newer fields under old names, and ends
    # on a second 'Commute' (a stranger's export)
    if repeated_name(target, cols):
        return True
    last = next((c for c in reversed(cols)
                 if roles.get(c, ("feature",))[0] not in ("id", "index", "empty", "constant")),
                cols[-1])
    return target != last


#: A name numbered by the reader for a file that names several columns alike
#: (``Commute (2)``: :func:`rulecore.data._numbered_names`).
_NUMBERED_NAME = re.compile(r"^(.*\S) \((\d+)\)$")


#: A record's last-modified time: ``Updated On``, ``LAST_CHANGED``, ``Last Modified Date``,
#: ``updated_at``, ``Date Modified``, ``Last Updated``.
_LAST_CHANGED = re.compile(
    r"(?i)^(last[\W_]*)?(updated?|modified|modify|changed?|edited)"
    r"([\W_]*(on|at|date|time|timestamp|datetime))?$|"
    r"^(date|time|timestamp)[\W_]*(last[\W_]*)?(updated|modified|changed|edited)$|"
    r"^last[\W_]*(update|modification|change|edit)([\W_]*(on|at|date|time))?$")


def last_changed(name: str) -> bool:
    """Whether a date column is named as the time its record was last changed."""
    return bool(_LAST_CHANGED.match(str(name).strip()))


def repeated_name(name: str, names: Collection[str]) -> list[str]:
    """The columns of ``names`` that the file named alike with ``name`` and the reader
    numbered, ``name`` among them (``Commute (1)``, ``Commute (2)``), else ``[]``."""
    m = _NUMBERED_NAME.match(str(name))
    if not m:
        return []
    alike = [c for c in names if (n := _NUMBERED_NAME.match(str(c))) and n.group(1) == m.group(1)]
    return alike if len(alike) >= 2 and f"{m.group(1)} (1)" in alike else []


def base_name(name: str) -> str:
    """``name`` without the number the reader gave a repeated name (``Commute (2)`` is
    ``Commute``)."""
    m = _NUMBERED_NAME.match(str(name))
    return m.group(1) if m else str(name)


#: A Census Bureau variable's margin of error: ``DP03_0128PM`` beside its estimate
#: ``DP03_0128PE``, ``B19013_001M`` beside ``B19013_001E``.
_CENSUS_MARGIN = re.compile(r"^(\w*\d)(P?)M$")
#: Words naming a margin of error in a column's name (``income_moe``, ``Median income
#: (Margin of Error)``, ``MOE - Population``).
_MARGIN_WORDS = re.compile(r"(?i)(?<![a-z])(moe|margin[\W_]*of[\W_]*error)(?![a-z])")


def margin_of(name: str, names: Collection[str]) -> str | None:
    """The column among ``names`` (a set, for wide tables: it is asked of every column)
    whose margin of error ``name`` is, else None.

    Census exports (ACS data profiles, detailed tables) give each estimate a margin of error
    beside it: ``DP03_0128PM`` for ``DP03_0128PE``, ``B19013_001M`` for ``B19013_001E``;
    other tables name it (``income_moe`` for ``income``).  A margin comes from its estimate's
    own sampling (a percentage's margin grows with the percentage up to 50 %): beside that
    estimate as the target it tells the target, not its causes, and as the default target it
    was the last column of an ACS download, chosen over the estimates (a stranger's table).
    """
    name = str(name)
    census = _CENSUS_MARGIN.match(name)
    if census:
        estimate = f"{census.group(1)}{census.group(2)}E"
        return estimate if estimate in names else None
    if not _MARGIN_WORDS.search(name):
        return None
    bare = _squashed(_MARGIN_WORDS.sub("", name))
    if not bare:
        return None
    return next((str(n) for n in names if str(n) != name and not _MARGIN_WORDS.search(str(n))
                 and _squashed(str(n)) == bare), None)


def _squashed(name: str) -> str:
    """A name's letters and digits, lower case (digits kept: var1_moe is var1's, not
    var2's)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


#: Words of a name that says a column is a period of time (``Time Code``, ``fiscal_year``).
_TIME_WORDS = {"time", "year", "yr", "period", "quarter", "month", "week", "date", "day"}


def _time_name(name: str) -> bool:
    """Whether ``name`` names a period of time (:data:`_TIME_WORDS`): no outcome to predict."""
    return bool(set(name_words(name)) & _TIME_WORDS)


#: A period's code: a year, a fiscal year, a quarter, a half or a month of one (World Bank's
#: ``YR2015``, ``2015Q1``, ``FY2024``, ``2015M01``, ``Q1-2024``).
_PERIOD_CODE = re.compile(r"^(?:(?:YR|FY)\s?)?\d{4}(?:\s?[-/]?\s?(?:Q[1-4]|H[12]|M\d{2}))?$|"
                          r"^(?:Q[1-4]|H[12])\s?[-/ ]\s?\d{4}$", re.IGNORECASE)


def _period_codes(s: pd.Series) -> bool:
    """Whether a text column's values are all periods' codes (:data:`_PERIOD_CODE`)."""
    values = s.dropna().astype(str).str.strip().unique()[:200]
    return len(values) >= 2 and all(_PERIOD_CODE.match(v) for v in values)


def choose_target(df: pd.DataFrame, roles: dict[str, tuple[str, str]] | None = None,
                  said: list[str] | None = None) -> str:
    """The most plausible class column of ``df`` (:func:`_choose_target`), or the column
    it follows up (:func:`follow_up_of`) where that column's value is a yes or the column
    is named as the outcome or a status: a survey's question asked only where another was
    answered yes, a status's detail filled only on one status.  What was passed over and
    why is appended to ``said``."""
    roles = roles if roles is not None else detect_roles(df)
    target = _choose_target(df, roles)
    if _target_hint(target):
        return target
    gate = follow_up_of(df, target)
    # (followed only to a yes, or to a column named as the outcome or a status: a target
    # blank where it is not known yet, a test split's labels, open loans' 'repaid', a survey
    # wave that did not ask it, is the outcome, not a follow-up of the split, the stage or
    # the wave: an adversarial review)
    if gate is None or roles[gate[0]][0] != "feature" or not (
            _target_hint(gate[0]) or str(gate[1]).strip().casefold() in _YES_WORDS):
        return target
    if said is not None:
        blank = float(df[target].isna().mean())
        said.append(f"{target!r} is filled only where {gate[0]!r} is {str(gate[1])!r} "
                    f"({blank:.0%} of the rows are blank): it follows up on that column, "
                    f"so {gate[0]!r} is taken as the outcome. Choose {target!r} as the "
                    "target to predict it on the rows that have it.")
    return gate[0]


#: Answers that say yes, after which a survey asks a follow-up (:func:`choose_target`).
_YES_WORDS = frozenset({"yes", "y", "true", "1", "1.0", "oui", "ja", "sí", "si"})
#: A column filled on at most this share of the rows may be another's follow-up
#: (:func:`follow_up_of`).
FOLLOW_UP_FILLED = 0.6


def follow_up_of(df: pd.DataFrame, col: str) -> tuple[str, Any] | None:
    """``(column, value)`` when ``col`` is filled on exactly the rows where that other
    column holds that value, and blank on the rest (at least 40 % of the rows, at least 5
    rows filled): skip logic, a question asked only where another was answered yes
    (KoboToolbox's ``ors_given`` after ``diarrhea_2wk``), or a status's detail
    (Mailchimp's ``UNSUB_CAMPAIGN_ID`` on unsubscribed members).  Such a column was the
    default target, its blank rows dropped (a stranger's exports).  Else None.  Columns of
    at most :data:`MAX_STAGES` values are looked at, nearest first."""
    if col not in df.columns:
        return None
    filled = df[col].notna().to_numpy()
    k = int(filled.sum())
    if k < 5 or k > FOLLOW_UP_FILLED * len(df):
        return None
    i = list(df.columns).index(col)
    order = sorted((j for j in range(df.shape[1]) if j != i), key=lambda j: abs(j - i))
    for j in order:
        other = df.iloc[:, j]
        values = other[filled]
        if values.isna().any():
            continue
        first = values.iloc[0]
        if not (values == first).all():
            continue
        if other.nunique() > MAX_STAGES or other.nunique() < 2:
            continue
        if bool(((other == first).to_numpy() == filled).all()):
            return str(df.columns[j]), first
    return None


def _choose_target(df: pd.DataFrame, roles: dict[str, tuple[str, str]] | None = None
                   ) -> str:
    """The most plausible class column of ``df``.

    Among columns that are features by role: first those named like a target (``class``,
    ``label``, ``outcome``, ``churn`` ...), then those whose values name an outcome
    (``Churned`` / ``Retained``: :func:`_outcome_values`), then letter grades in a column
    named as grades when the last column is no class, then a last column of 3 or more
    text classes when two or more binary columns (flags) stand beside it, then a last column
    counting an outcome's events (``defect_count``: :func:`is_event_count`), then binary
    columns, then rating scales
    (:func:`is_rating`), then text columns with at most :data:`MAX_CLASS_LEVELS` levels that
    are not remarks (``comments``, ``notes``; a count is a number: it is a target only when
    chosen); the rightmost of a tier wins (a target is
    usually last).  A last column named like a target but constant or empty is returned, so
    that the refusal names it.  Without any class column: the last column when it is
    constant or empty (again so that the refusal names it), else class codes (``1, 2, 3``:
    :func:`_class_codes`) in the last or first column, else the rightmost continuous
    numeric column (to be used through a threshold), else the last column.  Raises nothing.
    """
    roles = roles if roles is not None else detect_roles(df)
    cols = [str(c) for c in df.columns]
    eligible = [c for c in cols if roles[c][0] == "feature"]
    # a survey tool's own columns (Qualtrics: Status, Finished, DistributionChannel, ...)
    # describe the response, not what was asked: its 1 % 'Spam' Status was the target (an
    # analyst's review)
    meta = _survey_meta(cols)
    eligible = [c for c in eligible if c not in meta] or eligible
    names = set(cols)
    eligible = [c for c in eligible if not option_flag(c, names)] or eligible
    eligible = [c for c in eligible if not _form_status(c, df[c], cols)] or eligible
    # an estimate's margin of error is no outcome (an ACS download's last column)
    named = set(cols)
    eligible = [c for c in eligible if margin_of(c, named) is None] or eligible
    # a class of a handful of rows is no outcome to learn: a HOBO logger's 'End Of File',
    # 'Logged' on its last row, was the default target (a stranger's export)
    # (unless named as the outcome: 4 churned of 50 customers are still what to predict)
    eligible = [c for c in eligible if _target_hint(c) or not _one_class_but_few(df[c])] \
        or eligible
    # nor one of two values or more answered on a tenth of the rows, blank or 'NA' on the rest
    # (Kaggle's PoolQC, 'NA' for no pool on 1,455 of 1,460 houses: 1,455 rows were dropped
    # and a rule learned from 3, a stranger's download)
    eligible = [c for c in eligible if _target_hint(c) or not _mostly_unanswered(df[c])] \
        or eligible
    # the table's last column, as the export convention places a target, is the last one
    # asked: KoboToolbox and LimeSurvey put their own columns after the questions
    asked = [c for c in cols if c not in meta] if len(meta) >= 5 else cols
    kinds = {c: target_kind(df[c])[0] for c in eligible}
    # (classes counted without a no answer: yes / no / Refused is a yes/no target)
    levels = {c: _answer_levels(df[c]) for c in eligible}

    def rank(c: str) -> tuple:
        if kinds[c] != "classes":
            return (0,)
        # "Outcome" before "Diabetes" (both target names; a disease may be a comorbidity:
        # a review's table took Diabetes, rightmost, beside its Outcome)
        # ("label" of many values is a product's or a shipment's as often: twelve product
        # labels beat a yes/no 'returned', a stranger's table)
        # (more than a target's usual classes, MAX_CLASS_LEVELS; seven topics stay one)
        generic = _plain_name(c) in _GENERIC_TARGETS and not (
            _plain_name(c) in ("label", "labels") and levels[c] > MAX_CLASS_LEVELS)
        return (1, _target_hint(c), generic, levels[c] == 2, cols.index(c))

    # (a last column ticked on a handful of rows is not a target left unusable: read with
    # its blanks as the other class, a HOBO logger's 'End Of File' was learned, a stranger's)
    last_unusable = roles[cols[-1]][0] in ("constant", "empty") and \
        not _one_class_but_few(df[cols[-1]])
    if last_unusable and _plain_name(cols[-1]) in _TARGET_NAMES:
        return cols[-1]  # meant as the target: it is refused with its reason (one class)
    # Numbers with a few values (counts, ratings) can be classes when a user says so, but
    # by default only binary columns and text with a few levels are taken as classes, and
    # a column of remarks only when named like a target.
    classes = [c for c in eligible if kinds[c] == "classes"
               and (levels[c] == 2 or _numeric(df[c]) is None)
               and (not _REMARK_NAME.search(c) or _plain_name(c) in _TARGET_NAMES)]
    # a CRM's lifecycle stages are its funnel's outcome, before any column named a status
    # (HubSpot's 'Marketing contact status', a billing flag, was predicted: a stranger)
    # (a column named as the outcome still wins: 'Churned' beside the stages, the review)
    funnel = [c for c in classes if lifecycle_stages(df[c].dropna().unique()[:MAX_STAGES])]
    if funnel and not any(_target_hint(c) == 2 for c in classes):
        return funnel[-1]
    hinted = [c for c in classes if _target_hint(c)]
    # an employment STATUS is left for a flag only when it is the one name hinting an
    # outcome (beside a 'category' it stayed the target, as before: an adversarial review)
    if hinted and all(_plain_name(c) not in _GENERIC_TARGETS and _attribute_values(df[c])
                      for c in hinted):
        hinted = []
    if hinted:
        return max(hinted, key=rank)
    said = [c for c in classes if _outcome_values(df[c])]
    if said:  # no name says outcome, but the values do
        return max(said, key=rank)
    # a course's letter grades, where the last column is no class (Moodle's gradebook ends
    # with 'Course total (Letter)' and a constant 'Last downloaded from this course': a forum
    # post graded 1 or 2 was the guess, a stranger's export); a last yes/no made from the
    # grades stays the target
    graded = [c for c in classes if _letter_grades(df[c])]
    if graded and cols[-1] not in classes:
        return graded[-1]
    # a file without a header (x1 ... xn) puts its class last, as UCI's files do: heart
    # disease's x14, grades 0-4, lost to x9, a yes/no symptom (a stranger's
    # processed.cleveland.data)
    if all(_POSITIONAL.match(c) for c in cols) and cols[-1] in eligible \
            and kinds[cols[-1]] == "classes" and _class_codes(df[cols[-1]], 0.01):
        return cols[-1]
    # ... or first, as UCI's mushroom file: a yes/no first column (edible e, poisonous p)
    # before a last column of many kinds (the habitat, u/g/m/d/p/w/l) is the class
    if all(_POSITIONAL.match(c) for c in cols) and cols[0] in eligible and \
            kinds[cols[0]] == "classes" and df[cols[0]].nunique() == 2 and \
            not (cols[-1] in eligible and kinds[cols[-1]] == "classes"
                 and df[cols[-1]].nunique() == 2):
        return cols[0]
    # the date an outcome happened, blank where it did not (cancelled_at, churn_date): the
    # outcome is whether it has one (from_frame), and a yes/no flag beside it was predicted
    # instead (a review: "autopay = N", a rule that never fired)
    # (last in the table, by the export convention: a date of death beside a readmission
    # flag, or an invoice's currency conversion date, are no outcome to predict: an
    # adversarial review)
    last = cols[-1]
    if roles[last][0] == "date" and set(name_words(last)) & _EVENT_WORDS and \
            0.01 <= float(df[last].isna().mean()) <= 0.99:
        return last
    # then binary columns, then a rating scale (split at a threshold by from_frame): a
    # survey's "How satisfied are you overall? (1-5)" is what it asks about, not its "plan";
    # beside a yes/no column (renewed, left_company) a rating is a feature.  Demographics
    # (gender, age band) only when no other binary column exists.
    # a count of an outcome's events at the table's end (defect_count: 0, 1, 2) is the
    # target by the export convention, split at > 0 by from_frame, before the yes/no columns
    # that describe the rows (a review: a day/night shift was predicted instead)
    if last in eligible and kinds[last] == "classes" and is_event_count(last, df[last]):
        return last
    binary = [c for c in classes if levels[c] == 2]
    # a column of signs, + and - (a genome's strand beside its outcome), is the target only
    # when no other yes/no column is (it was, last, once '-' stopped reading as missing: an
    # adversarial review)
    signs = {c for c in binary  # two values each: unique() in C, not a set of every cell
             if {str(v).strip() for v in df[c].dropna().unique()} <= {"+", "-"}}
    # Several yes/no columns are flags that describe the rows; beside them a text column of
    # a few classes at the table's end is the target by the export convention (a review's
    # support tickets: `queue`, five levels, last, lost to `password_reset_requested`, one
    # of three Yes/No flags, and the rule predicted a flag from the queue).
    last = next((c for c in reversed(asked) if roles[c][0] not in ("id", "index", "empty",
                                                                   "constant")), cols[-1])
    # (answered on most rows: a survey's last, follow-up question, asked of those who said
    # no and blank for 44 % of a stranger's respondents, is no outcome)
    if len(binary) >= 2 and last in classes and levels[last] >= 3 \
            and _plain_name(last) not in _DEMOGRAPHIC_NAMES and \
            float(df[last].isna().mean()) < 0.2:
        return last
    if binary:
        return max(binary, key=lambda c: (_plain_name(c) not in _DEMOGRAPHIC_NAMES and
                                          not _gender_values(df[c]),
                                          c not in signs, cols.index(c)))
    # a number named as an outcome's score (churn_score beside a plan of three levels: the
    # plan was predicted, worse than its majority, a review), split at a threshold
    scores = [c for c in eligible if kinds[c] == "continuous" and is_outcome_score(c)]
    if scores:
        return scores[-1]
    ratings = [c for c in eligible if is_rating(c, df[c])]
    if ratings:
        return ratings[-1]
    # a period is no outcome: a World Bank panel's 'Time Code' (YR2015 ..., beside 'Time')
    # was predicted by 'Time <= 2015.5' and called certified optimal (a stranger's download)
    fallback = [c for c in classes if not _period_codes(df[c])]
    if fallback:
        return max(fallback, key=rank)
    if classes and not any(kinds[c] == "continuous" for c in eligible):
        return max(classes, key=rank)
    if last_unusable:
        return cols[-1]
    # Class codes at the table's edge: UCI-style files (wine.data) put the class, 1, 2, 3, in
    # the first or last column and have no header; read as "a count", the continuous last
    # column was split at its median instead.  Last before first.
    edge = [c for c in dict.fromkeys([cols[-1], cols[0]]) if c in eligible
            and kinds[c] == "classes" and _class_codes(df[c])]
    if edge:
        return edge[0]
    continuous = [c for c in eligible if kinds[c] == "continuous"]
    if continuous:
        named = [c for c in continuous if _plain_name(c) in _TARGET_NAMES]
        return (named or continuous)[-1]
    return cols[-1]


_THRESHOLD = re.compile(r"^\s*(>=|<=|>|<)\s*([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?)\s*$")


def parse_threshold(text: str) -> tuple[str, float] | None:
    """``">40"`` → ``(">", 40.0)``; ``None`` when ``text`` is not a comparison with a number."""
    m = _THRESHOLD.match(str(text))
    return (m.group(1), float(m.group(2))) if m else None


def median_threshold(s: pd.Series) -> str:
    """``"> m"`` with ``m`` the median of a numeric column (rows above it are positive).

    Rounded to the fewest significant digits that still split the values as the median does,
    so the caption reads ``hours > 40``, not ``hours > 40.000000001``.
    """
    v = pd.to_numeric(s, errors="coerce").dropna().to_numpy(dtype=float)
    m = float(np.median(v))
    above = (v > m).sum()
    if above == 0:  # the median is the maximum: split below it instead
        return f">= {format_number(m)}"
    for digits in range(1, 16):
        r = float(f"{m:.{digits}g}")
        if (v > r).sum() == above:
            return f"> {format_number(r)}"
    return f"> {format_number(m)}"


def default_threshold(name: str, s: pd.Series) -> tuple[str, str]:
    """Where a numeric target is cut by default, and why in words: one half for a
    probability (a column named as a probability or risk, :data:`_PROBABILITY_WORDS`, or as an
    outcome's score, :func:`is_outcome_score`, all of whose values lie in [0, 1], a twentieth
    of the rows or more on each side), else the median (:func:`median_threshold`)."""
    v = pd.to_numeric(s, errors="coerce").dropna().to_numpy(dtype=float)
    probability = bool(set(name_words(name)) & _PROBABILITY_WORDS) or is_outcome_score(name)
    if len(v) and v.min() >= 0 and v.max() <= 1 and probability:
        above = float(np.mean(v > 0.5))
        if 0.05 <= above <= 0.95:
            return "> 0.5", "one half, as a probability from 0 to 1 is"
    return median_threshold(s), "its median"


def threshold_labels(column: str, op: str, value: float) -> tuple[str, str, str]:
    """``(target name, positive label, negative label)`` of a thresholded numeric target.

    The target reads ``hours > 40`` and its classes ``yes``/``no``, so a rule reads
    "predict hours > 40 = yes when ...".
    """
    return f"{column} {op} {format_number(value)}", "yes", "no"


# --------------------------------------------------------------------------- leaks


class BalancedAccuracy(float):
    """An accuracy that is the mean of the two classes' accuracies (a leak
    :func:`find_leaks` found on a rare class, where the plain accuracy may be the majority's
    own): :func:`accuracy_words` says so."""


def accuracy_words(value: float) -> str:
    """``96.9% accuracy``, or of a :class:`BalancedAccuracy` ``97.8% balanced accuracy
    (each class's accuracy averaged)``."""
    if isinstance(value, BalancedAccuracy):
        return f"{value:.1%} balanced accuracy (each class's accuracy averaged)"
    return f"{value:.1%} accuracy"


def single_column_accuracy(x: pd.Series, y: np.ndarray, categorical: bool,
                           balanced: bool = False) -> float:
    """Best training accuracy of a rule on this column alone (``y`` 0/1).

    Categorical: each level (missing is a level) predicts its majority class.  Numeric: the
    best single threshold, either side positive, with the missing values a group that
    predicts its own majority class.  ``balanced``: each class's rows weigh a half in all
    (the mean of the two classes' accuracies, fitted so).  ``O(n log n)``.
    """
    y = np.asarray(y).astype(np.int64)
    n = len(y)
    if n == 0:
        return float("nan")
    # each row's weight: 1/n (rows counted, divided at the end: exact), or 1/(2 × its
    # class's rows)
    n_pos = y.sum()
    if balanced and 0 < n_pos < n:
        w, scale = np.where(y == 1, 0.5 / n_pos, 0.5 / (n - n_pos)), 1.0
    else:
        w, scale = np.ones(n, dtype=np.int64), float(n)
    wp, wn = w * y, w * (1 - y)  # each row's weight as a positive, as a negative

    def correct(group: np.ndarray) -> float:  # a group predicting its weightier class
        return max(wp[group].sum(), wn[group].sum())

    if categorical:
        # a level per handful of rows fits any labels: only few-level columns can testify,
        # but whether a cell is there at all can (a flight's departure time, hhmm codes of
        # hundreds of values, is blank exactly when the flight was cancelled: 'DEP_TIME is
        # missing' was certified a success, unwarned, a stranger's BTS table)
        if x.nunique() > max(2, n // 20):
            miss = x.isna().to_numpy()
            if not miss.any():
                return float("nan")
            return float((correct(miss) + correct(~miss)) / scale)
        codes = pd.factorize(x.astype(object).where(x.notna(), "\0missing"))[0]
        return float(np.maximum(np.bincount(codes, weights=wp),
                                np.bincount(codes, weights=wn)).sum() / scale)
    v = pd.to_numeric(x, errors="coerce").to_numpy(dtype=float)
    miss = ~np.isfinite(v)
    correct_missing = correct(miss) if miss.any() else 0.0
    v, p, q = v[~miss], wp[~miss], wn[~miss]
    if not len(v):
        return float(correct_missing / scale)
    order = np.argsort(v, kind="stable")
    v, p, q = v[order], p[order], q[order]
    # cut after position k (k = 0..len): left = v[:k]; only cuts between distinct values count
    pos_left = np.concatenate([[0], np.cumsum(p)])
    neg_left = np.concatenate([[0], np.cumsum(q)])
    valid = np.concatenate([[True], v[1:] != v[:-1], [True]])
    pos_right = pos_left[-1] - pos_left
    neg_right = neg_left[-1] - neg_left
    high_positive = neg_left + pos_right     # rows above the cut predicted 1
    low_positive = pos_left + neg_right      # rows at or below the cut predicted 1
    best = np.maximum(high_positive, low_positive)[valid].max()
    return float((best + correct_missing) / scale)


def restated_target(X: pd.DataFrame, y: pd.Series | np.ndarray, kinds: dict[str, str],
                    max_rows: int = 50_000, seed: int = 0) -> dict[str, dict[Any, Any]]:
    """Categorical features that are the target in other words: each of their values goes
    with one class, every class has such a value, and reading the class off the value is
    right on at least :data:`LEAK_ACCURACY` of the rows.

    A leak of another kind than :func:`find_leaks`' (a column recorded after the outcome
    that predicts one class): a relabel of the whole target ("moved to higher tier" for
    *upgrade*, a status code beside its label).  It predicted all 4 classes of a stranger's
    table, and the Data page warned of it as of a real cause, once per class (a review).
    Only targets of three classes or more: with two, a yes/no column that matches the target
    may as well be a cause that decides it (a test result) as a consequence (a refund for an
    upheld complaint), and :func:`find_leaks`' warning, which says both, is the right one.
    Large tables are checked on a fixed random sample of ``max_rows`` rows.

    Returns ``{column: {value: class}}`` (missing is a value: ``None``).
    """
    idx = _checked_rows(len(y), max_rows, seed)
    class_of, classes = pd.factorize(pd.Series(np.asarray(y)[idx]))
    n, K = len(idx), len(classes)
    out: dict[str, dict[Any, Any]] = {}
    if K < 3:
        return out
    for col in X.columns:
        if kinds.get(col) != "categorical":
            continue
        value_of, values = pd.factorize(X[col].iloc[idx], use_na_sentinel=False)
        # a value per handful of rows fits any labels (as in single_column_accuracy); a
        # relabel has about one value per class
        if not K <= len(values) <= min(2 * K, n // 20):
            continue
        table = _value_class_table(value_of, class_of, len(values), K)
        majority = table.argmax(axis=1)
        if table.max(axis=1).sum() < LEAK_ACCURACY * n or len(set(majority)) < K:
            continue  # wrong too often, or some class has no value of its own
        out[str(col)] = {(None if pd.isna(v) else v): classes[c]
                         for v, c in zip(values, majority)}
    return out


#: How often a column's value must read the target one row earlier (in file order) to be
#: called the last outcome (:func:`lagged_target`); and it must be wrong there at most half
#: as often as on its own row.
LAG_ACCURACY = 0.95


def _value_class_table(value_of: np.ndarray, class_of: np.ndarray, n_values: int,
                       n_classes: int) -> np.ndarray:
    """Rows per (value, class): codes from ``pd.factorize``, shape (n_values, n_classes)."""
    return np.bincount(value_of * n_classes + class_of,
                       minlength=n_values * n_classes).reshape(-1, n_classes)


def lagged_target(X: pd.DataFrame, y: pd.Series | np.ndarray, max_rows: int = 200_000
                  ) -> dict[str, float]:
    """Features of few values (at most 2 per class) that read the *previous* row's target:
    yesterday's outcome in a daily log (``failed_prev_day``), ``{column: share of rows}``.

    A stranger's machine log (20 machines × 60 days, each machine's days in order) had
    ``failed_prev_day``, the target one day earlier: the rule was ``failed_prev_day == 1``,
    certified and 90 % accurate, with no word that it repeats the last outcome, can never
    predict a first failure, and hid the planted cause.  Such a column is named when its
    value reads the row before's target on at least :data:`LAG_ACCURACY` of the rows, with
    at most half the errors it makes reading its own row's (a column that is the target
    itself is :func:`find_leaks`' to say; errors, not accuracies, so that a rare class's
    last outcome is found too), and on at least 10 rows per value.  File order only: a log
    sorted by day across machines is not checked.  The first ``max_rows`` rows are read
    (consecutive rows are what is compared: 0.04 s for a million rows × 21 columns)."""
    class_of, classes = pd.factorize(pd.Series(np.asarray(y)[:max_rows]),
                                     use_na_sentinel=False)
    n, K = len(class_of), len(classes)
    out: dict[str, float] = {}
    if n < 20:
        return out
    for col in X.columns:
        value_of, values = pd.factorize(X[col].iloc[:max_rows], use_na_sentinel=False)
        d = len(values)
        if not 2 <= d <= 2 * K or n < 10 * d:
            continue
        # the share of rows whose (previous, own) class is the one its value most often goes
        # with
        lag = _value_class_table(value_of[1:], class_of[:-1], d, K).max(axis=1).sum() / (n - 1)
        same = _value_class_table(value_of, class_of, d, K).max(axis=1).sum() / n
        if lag >= LAG_ACCURACY and 1 - lag <= 0.5 * (1 - same):
            out[str(col)] = float(lag)
    return out


def _checked_rows(n: int, max_rows: int, seed: int) -> np.ndarray:
    """The rows a whole-table check reads: all ``n``, or a fixed random sample of
    ``max_rows`` of them, in order."""
    idx = np.arange(n)
    if n > max_rows:
        idx = np.sort(np.random.default_rng(seed).choice(idx, max_rows, replace=False))
    return idx


#: Class names too plain to say a column was named after the class.
_PLAIN_CLASS_WORDS = {"true", "false", "yes", "no", "positive", "negative", "other", "none",
                      "unknown", "high", "low", "medium", "good", "bad", "normal", "class"}


def named_after_class(name: str, label: Any) -> bool:
    """Whether a column's name holds a word of the class's name (compared by their first
    five letters: ``Refunded Amount`` for ``refunded``, ``Refund date`` for ``Refunded``,
    ``Became a Customer Date`` for ``Customer``), a word of four letters or more that is
    not a plain one (:data:`_PLAIN_CLASS_WORDS`)."""
    words = {w[:5] for w in name_words(str(label))
             if len(w) >= 4 and w not in _PLAIN_CLASS_WORDS and not w.isdigit()}
    return bool(words) and bool(words & {w[:5] for w in name_words(name) if len(w) >= 4})


def find_leaks(X: pd.DataFrame, y: np.ndarray, kinds: dict[str, str],
               max_rows: int = 50_000, seed: int = 0) -> dict[str, float]:
    """Features that alone predict ``y`` (0/1) with at least :data:`LEAK_ACCURACY` accuracy
    (a category: :data:`LEAK_ACCURACY_CATEGORY`), or whose two classes' accuracies average so
    much (a rare class found whole, the others hardly ever taken for it).

    Such a column is often recorded after the outcome (a cancellation date for churn, a
    refund for a complaint): a rule on it looks perfect and is useless.  A column counts only
    when it also leaves at most a fifth of the majority class's errors (a number,
    :data:`LEAK_ERROR_SHARE`; a category half), so a 99.5 % majority does not flag every
    column, nor a rare class's strong measurement.  A column is judged on the rows where it
    has a value too (four fifths of the rows or more, both classes there; its accuracy over
    every row is returned): blanks of both classes hid a definitional leak.
    Large tables are checked on a fixed random sample of ``max_rows`` rows.

    Returns ``{column: accuracy}`` (a :class:`BalancedAccuracy` where that is what found it).
    """
    y = np.asarray(y).astype(np.int64)
    idx = _checked_rows(len(y), max_rows, seed)
    ys = y[idx]
    base = max(ys.mean(), 1 - ys.mean()) if len(ys) else 1.0
    out = {}
    for col in X.columns:
        category = kinds.get(col) == "categorical"
        bar = LEAK_ACCURACY_CATEGORY if category else LEAK_ACCURACY
        x = X[col].iloc[idx]
        acc = single_column_accuracy(x, ys, category)
        share = 0.5 if category else LEAK_ERROR_SHARE
        if acc >= bar and (1 - acc) <= share * (1 - base):
            out[str(col)] = acc
            continue
        # ... or by each class's accuracy, their mean over the bar: eBird's REVIEWED is 1 on
        # every unapproved record (set because the record was flagged for review) and on 4 %
        # of the others, 96 % accurate beside a 92.5 % majority, under the bar, yet it finds
        # every unapproved record, and 'REVIEWED == 1' was certified, unwarned (a stranger's
        # export).  (Ten rows of each class at least; said as a balanced accuracy: the plain
        # one may be the majority's own.)
        # (both classes' accuracies are then 2 × bar − 1 at least, and so is the plain one:
        # most columns are passed over on it, without a second fit)
        if min(ys.sum(), len(ys) - ys.sum()) >= 10 and acc >= 2 * bar - 1:
            balanced = single_column_accuracy(x, ys, category, balanced=True)
            if balanced >= bar:
                out[str(col)] = BalancedAccuracy(balanced)
                continue
        # ... or on the rows where it has a value: 3 % of blanks of
        # both classes held a labour survey's hours worked (0 unless employed) at 98.4 %,
        # and 'hrs_last_week > 5' was certified, unwarned (a stranger's Stata file)
        # (both classes there, ten rows each at least: where the column is present on one
        # class only, as a ticket's 'Solved at', every column of it "told" the other class
        # perfectly, a first version's noise)
        # (four fifths of the rows at least, and the accuracy said is over every row, as
        # the warnings word it: a review found 100 % said of a column right on 80.8 %)
        there = x.notna().to_numpy()
        if not 0.8 * len(ys) <= there.sum() < len(ys):
            continue  # (most columns: nothing missing, or too much)
        yt = ys[there]
        if min(yt.sum(), len(yt) - yt.sum()) >= 10:
            base_t = max(yt.mean(), 1 - yt.mean())
            acc_t = single_column_accuracy(x[there], yt, category)
            if acc_t >= bar and (1 - acc_t) <= share * (1 - base_t) and acc > base:
                out[str(col)] = acc
    return out
