"""The small records and exceptions the extension module returns and raises.

They are plain Python (named tuples and exception classes) so that they
pickle, print and compare as Python users expect; the extension imports them
from here when it builds one.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional


class Diagnostic(NamedTuple):
    """One problem in a workbook or an edit, located where it can be.

    ``line`` and ``column`` are 1-based (columns count characters, as editors
    do); all three location fields are None for a problem with no place in a
    file (a file that cannot be read). ``cell`` is the cell whose formula
    showed the problem, when there is one (``"Main!B1"``).
    """

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    message: str
    label: str
    note: Optional[str]
    cell: Optional[str]


class Change(NamedTuple):
    """A cell whose value a step, a recalculation or a typed value changed."""

    cell: str
    old: Any
    new: Any


class Name(NamedTuple):
    """A workbook name: its formula as written, relative to ``anchor``."""

    name: str
    anchor: str
    formula: str


class Input(NamedTuple):
    """A named input: the range a line of symbols fills, and how it reads."""

    name: str
    area: str
    alphabet: str
    blanks: str


class Status(NamedTuple):
    """The last run (``recalc``, ``step``, ``reset``, ``solve``) of a workbook.

    ``iterations``, ``converged``, ``period`` (the oscillation's, else None),
    ``max_change`` and ``evaluated`` are that run's report. When the workbook
    has one input and a view named ``solution`` (a puzzle, as ``dataflow
    batch`` reads it), ``grid`` is that view read now as a line of the
    input's symbols (``.`` blank, ``?`` outside the alphabet) and ``full``
    says whether every cell holds a symbol; both are None otherwise.
    """

    iterations: int
    converged: bool
    period: Optional[int]
    max_change: float
    evaluated: int
    grid: Optional[str]
    full: Optional[bool]


class Error(Exception):
    """The base of the errors dataflow raises."""


class LoadError(Error):
    """A workbook, or an edit of one, has problems; each is in ``diagnostics``.

    ``str(error)`` is the report as the command line prints it (file, line,
    column and a caret under the place).
    """

    diagnostics: list[Diagnostic]

    def __init__(self, message: str, diagnostics: list[Diagnostic]) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


class UsageError(Error):
    """A request the workbook cannot carry out: a bad cell reference, a cell
    holding a formula, an unknown input or view, a line of the wrong length."""
