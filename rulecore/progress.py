"""Progress of long fits, told to whoever listens: the app's status box, the CLI's stderr.

A fit on a million rows takes tens of seconds in stages (terms, screening, the MIP; for rule
sets the inner cross-validation and column generation).  The estimators keep scikit-learn's
``fit(X, y)`` signature, so the listener is not a parameter: it is set around the call, for
the current thread (or task) only, and every stage calls :func:`say`::

    from rulecore import progress

    with progress.listening(print):
        model.fit(X, y)        # prints "408 candidate terms on 750,000 rows", ...

With no listener, :func:`say` does nothing.  Work sent to other processes (joblib's loky
workers, Dask) does not report; the parent reports as each piece comes back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Listener = Callable[[str], None]

_listener: ContextVar[Listener | None] = ContextVar("rulecore_progress", default=None)


@contextmanager
def listening(callback: Listener | None) -> Iterator[None]:
    """Send every :func:`say` message inside the ``with`` block to ``callback(message)``.

    ``None`` silences the block (e.g. a nested fit whose stages would only be noise).
    """
    token = _listener.set(callback)
    try:
        yield
    finally:
        _listener.reset(token)


def say(message: str) -> None:
    """Tell the current listener, if any, what the fit is doing now."""
    callback = _listener.get()
    if callback is not None:
        callback(message)


def active() -> bool:
    """Whether anyone listens (to skip computing a message nobody reads)."""
    return _listener.get() is not None
