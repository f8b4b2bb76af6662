"""Views as rows, text, NumPy arrays and HTML; a cell explained; an Excel
file loaded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BINARY, SUDOKU

import dataflow

COMPACT = """(
    sheets: ["Main"],
    cells: { "Main!A1": 1, "Main!B1": 2, "Main!A2": 3, "Main!B2": "", "Main!C1": "=A1+B1", "Main!D3": "x" },
    views: {
        "marks": (range: "Main!A1:D4", group: (2, 2), compact: true, blank: "-"),
        "plain": (range: "Main!A3:D3"),
    },
)"""


def test_a_view_is_a_list_of_rows_with_the_command_lines_text(ellis: dataflow.Workbook) -> None:
    ellis.solve()
    view = ellis.view("solution")
    assert len(view) == 9 and view.shape == (9, 9) and view.area == "Main!D16:L24"
    assert view[0] == ellis["Main!D16:L16"][0]
    assert view[-1] == view[8] and view[1:3] == [view[1], view[2]]
    assert list(view) == view.rows == ellis["Main!D16:L24"]
    with pytest.raises(IndexError):
        view[9]
    text = view.text.splitlines()
    assert text[0] == "2 4 5 | 9 8 1 | 3 7 6"
    assert text[3] == "------+-------+------"
    assert str(view) == view.text


def test_numpy_arrays_of_a_view(ellis: dataflow.Workbook) -> None:
    np = pytest.importorskip("numpy")
    ellis.solve()
    board = ellis.view("solution").to_numpy()
    assert board.dtype == np.float64 and board.shape == (9, 9)
    assert (np.sort(board, axis=1) == np.arange(1, 10)).all()
    candidates = np.asarray(ellis.view("candidates"))
    assert candidates.shape == (27, 27) and np.isnan(candidates).sum() == 27 * 27 - 81
    mixed = dataflow.loads(COMPACT).view("plain").to_numpy()
    assert mixed.dtype == object


def test_to_numpy_without_numpy_says_so(ellis: dataflow.Workbook, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match="needs NumPy"):
        ellis.view("solution").to_numpy()


def test_html_highlights_the_cells_the_last_step_changed(ellis: dataflow.Workbook) -> None:
    ellis.reset()
    changes = ellis.step()
    view = ellis.view("candidates")
    in_view = [c.cell for c in changes if c.cell in set(view.changed)]
    assert in_view and sorted(view.changed) == sorted(in_view)
    html = view._repr_html_()
    assert html.count("<td") == 27 * 27
    assert html.count('class="df-changed') == len(in_view)
    assert html.count("background:#ffe08a") == len(in_view)
    assert html.count("border-right:2px solid #333") == 27 * 8, "a rule after every 3 columns but the last"
    assert html.count("border-bottom:2px solid #333") == 27 * 8


def test_a_compact_view_shows_pencil_marks() -> None:
    wb = dataflow.loads(COMPACT)
    wb.recalc()
    view = wb.view("marks")
    assert view.compact == (2, 2) and len(view) == 4
    assert view.text == "123   3\n  -   x\n"
    html = view._repr_html_()
    assert html.count('<table class="df-marks">') == 4
    assert html.count('class="df-changed') == 1 + 1, "C1 changed: its mark and its board cell"
    assert html.count("background:#ffe08a") == 1 and html.count("box-shadow") == 1, "the mark lit, the cell outlined"
    marks = html.split('<table class="df-marks">')[1].split("</table>")[0]
    assert [m.split(">")[1].split("<")[0] for m in marks.split("<td")[1:]] == ["1", "2", "3", "&nbsp;"]


def test_explain_gives_the_reasons_of_a_view_with_a_reason_area() -> None:
    wb = dataflow.load(SUDOKU, parts=["reasons"])
    first = wb.explain("Main!AA5")[0]
    # step 2: 6 -> "" (blank)  because Main!E16 "" -> 4 (step 1), Main!L16 "" -> 6 (step 1), ...
    #   why Main!E16: hidden single: 4 has one place in column 2
    assert first["causes"][0]["reason"] == "hidden single: 4 has one place in column 2"
    assert first["causes"][1]["reason"] == "hidden single: 6 has one place in column 9"
    assert first["reason"] is None, "the candidates view has no reason area"
    placed = wb.explain("Main!G16")[0]
    assert placed["reason"] == "naked single: only 9 left in r1c4"
    assert dataflow.load(SUDOKU).explain("Main!AA5")[0]["causes"][0]["reason"] is None, "without the part"


def test_explain_a_candidate(ellis: dataflow.Workbook) -> None:
    ellis.solve()
    history = ellis.explain("Main!AA5")
    assert history, "AA5 changes while the puzzle is solved"
    # As `dataflow explain workbooks/sudoku.ron Main!AA5` tells it:
    # step 2: 6 -> "" (blank)  because Main!E16 "" -> 4 (step 1), Main!L16 "" -> 6 (step 1), ...
    first = history[0]
    assert (first["step"], first["old"], first["new"]) == (2, 6.0, "")
    assert first["causes"][0] == {"cell": "Main!E16", "old": "", "new": 4.0, "step": 1, "reason": None}
    assert [c["cell"] for c in first["causes"]] == ["Main!E16", "Main!L16", "Main!H18", "Main!I18"]
    steps = [r["step"] for r in history]
    assert steps == sorted(steps) and steps[0] >= 1
    for r in history:
        assert r["old"] != r["new"]
        assert all(c["step"] <= r["step"] for c in r["causes"])
    assert history[-1]["new"] == ellis["Main!AA5"]
    with pytest.raises(dataflow.UsageError, match="input `puzzle`"):
        ellis.explain("Main!D4")
    with pytest.raises(dataflow.UsageError, match="one cell"):
        ellis.explain("Main!D4:E5")


@pytest.mark.skipif(not BINARY.exists(), reason="needs target/release/dataflow (cargo build --release)")
def test_an_excel_file_loads(tmp_path: Path) -> None:
    book = tmp_path / "sudoku.xlsx"
    subprocess.run([str(BINARY), "export", str(SUDOKU), "-o", str(book)], check=True, capture_output=True)
    wb = dataflow.load(book)
    assert wb.recalc().converged
    ron = dataflow.load(SUDOKU)
    ron.solve()
    assert wb["Main!D16:L24"] == ron["Main!D16:L24"]
