"""dataflow: a spreadsheet engine following Excel's formulas and its
iterative calculation of circular references, in process.

>>> import dataflow
>>> wb = dataflow.load("workbooks/sudoku.ron")
>>> wb.solve(puzzle="..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..").full
True

``load`` and ``loads`` read a workbook into a :class:`Workbook` (cells read
and typed as ``wb["Main!D4"]``, formulas and names edited, steps taken and
undone, views, explanations); ``batch`` runs many puzzles on every core.
The guide is ``docs/python.md`` in the repository.
"""

from __future__ import annotations

import atexit
import os
from typing import Iterable, Iterator, Optional, Sequence, Union

from ._dataflow import MAX_JOBS, Batch, ExcelError, View, Workbook, load, loads
from ._dataflow import _shutdown
from ._dataflow import batch as _batch
from ._types import Change, Diagnostic, Error, Input, LoadError, Name, Status, UsageError

__all__ = [
    "MAX_JOBS",
    "Batch",
    "Change",
    "Diagnostic",
    "Error",
    "ExcelError",
    "Input",
    "LoadError",
    "Name",
    "Status",
    "UsageError",
    "View",
    "Workbook",
    "batch",
    "load",
    "loads",
]

PathLike = Union[str, "os.PathLike[str]"]

# Before the interpreter finalizes, the batches still running stop reading
# their lines (see python/src/batch.rs).
atexit.register(_shutdown)


def batch(
    workbook: Union[Workbook, PathLike],
    puzzles: Union[Iterable[str], "os.PathLike[str]"],
    *,
    jobs: Optional[int] = None,
    parts: Optional[Sequence[str]] = None,
    collect: Sequence[str] = (),
    expect: Union[Iterable[str], PathLike, None] = None,
    show: str = "solution",
    input: Optional[str] = None,
    reset: bool = True,
) -> Batch:
    """Runs every puzzle through the workbook, in parallel, as ``dataflow
    batch`` does, and yields one dict per puzzle in input order as soon as
    it is solved (keys of the command line's JSON lines: ``line``,
    ``status``, ``iterations``, ``period``, ``ms``, ``grid``, and
    ``collected`` or ``message``).

    ``workbook`` is a path (loaded with ``parts``) or a loaded
    :class:`Workbook` (its formulas, names and constants as loaded or
    edited; values typed into cells that hold no formula are not carried,
    each puzzle starts as a fresh engine). ``puzzles`` is an iterable of
    lines (a list, an open file, a generator) or a path; ``expect`` the
    expected answers, an iterable of lines or a path. ``jobs`` worker
    threads (default: one per core, at most ``MAX_JOBS``); ``show`` the view
    or range read back; ``collect`` more views or cells read per puzzle;
    ``input`` the input filled (default: the workbook's only one);
    ``reset=False`` skips the reset protocol. The lines are read as the
    batch goes, on a thread of its own; closing the iterator (or dropping
    it) stops the batch.
    """
    if isinstance(workbook, (str, os.PathLike)):
        workbook = load(workbook, parts=list(parts) if parts else None)
    elif parts:
        raise UsageError("parts= goes with a workbook path; load(path, parts=...) the Workbook instead")
    if isinstance(puzzles, (str, bytes)):
        raise TypeError("puzzles is an iterable of lines (a list, an open file) or a pathlib.Path, not a str")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs is a number of threads, at least 1, not {jobs!r}")
    if isinstance(collect, str):
        collect = [collect]
    expected = None if expect is None else _lines(expect)
    return _batch(workbook, _lines(puzzles), expected, jobs, show, list(collect), input, reset)


def _lines(source: Union[Iterable[str], PathLike]) -> Iterable[str]:
    """Lines from an iterable, or read lazily from the file at a path."""
    if isinstance(source, (str, os.PathLike)):
        return _file_lines(os.fspath(source))
    return source


def _file_lines(path: str) -> Iterator[str]:
    """The file's lines, read as they are needed; opened at once, so a
    missing file is an error here rather than in the batch."""
    f = open(path, encoding="utf-8-sig")

    def lines() -> Iterator[str]:
        with f:
            yield from f

    return lines()
