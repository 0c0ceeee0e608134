"""The one exception family rulecore raises for problems a user can fix.

Every error meant for a person derives from :class:`RulecoreError` and carries a
plain-language message (no traceback needed to understand it).  The app catches
``RulecoreError`` and shows ``str(exc)`` with ``st.error``; the command line prints
it and exits with status 2.

Subclasses also derive from the matching built-in (``ValueError``,
``RuntimeError``) so scikit-learn's conventions keep working: ``fit`` on bad
parameters raises something that *is* a ``ValueError``.
"""

from __future__ import annotations


class RulecoreError(Exception):
    """Base class of every error rulecore reports to a user."""


class DataError(RulecoreError, ValueError):
    """The input table cannot be used as given (empty, one class, bad encoding...)."""


class ParameterError(RulecoreError, ValueError):
    """A setting is out of range or contradicts another setting."""


class SolverError(RulecoreError, RuntimeError):
    """The optimiser failed or found the problem infeasible and has no incumbent."""


__all__ = ["RulecoreError", "DataError", "ParameterError", "SolverError"]
