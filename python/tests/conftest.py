"""Shared places and fixtures: the repository's workbooks and puzzles, and
the command line's binary when `cargo build --release` (or `cargo test
--release`) has made it."""

from __future__ import annotations

from pathlib import Path

import pytest

import dataflow

ROOT = Path(__file__).resolve().parents[2]
SUDOKU = ROOT / "workbooks" / "sudoku.ron"
PUZZLES = ROOT / "workbooks" / "puzzles" / "9x9"
BINARY = ROOT / "target" / "release" / "dataflow"


def lines(path: Path) -> list[str]:
    """The non-blank lines of a file."""
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def ellis() -> dataflow.Workbook:
    """Charlie Ellis's solver, freshly loaded (PE96 grid 2 as its input)."""
    return dataflow.load(SUDOKU)
