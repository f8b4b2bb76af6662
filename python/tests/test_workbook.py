"""A workbook through the API: solving, stepping back and forth, editing,
values both ways, errors."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from conftest import PUZZLES, SUDOKU, lines

import dataflow
from dataflow import ExcelError


def every_cell(wb: dataflow.Workbook) -> list[Any]:
    """All the values a step can change: the boards and the state cell."""
    return [wb["Main!D4:L12"], wb["Main!D16:L24"], wb["Main!P4:AP30"], wb["Main!D27"]]


def test_solves_project_euler_96_grid_2(ellis: dataflow.Workbook) -> None:
    grid = lines(PUZZLES / "project_euler_96.txt")[1]
    solution = lines(PUZZLES / "project_euler_96.solutions.txt")[1]
    status = ellis.solve(puzzle=grid)
    assert status.converged and status.full
    assert status.grid == solution
    assert status.iterations > 1 and status.period is None
    assert ellis.status == status
    rows = ellis.view("solution").rows
    assert "".join(f"{x:.0f}" for row in rows for x in row) == solution
    # The givens stay where the puzzle put them.
    assert ellis["Main!D4"] == float(grid[0])


def test_steps_forward_and_back_restore_every_value_exactly(ellis: dataflow.Workbook) -> None:
    ellis.reset(puzzle=lines(PUZZLES / "project_euler_96.txt")[1])
    seen = [every_cell(ellis)]
    for _ in range(4):
        changes = ellis.step()
        assert changes, "each of the first steps changes cells"
        for c in changes:
            assert c.old != c.new
            assert ellis[c.cell] == c.new
        seen.append(every_cell(ellis))
    assert seen[-1] != seen[0]
    for state in reversed(seen[:-1]):
        assert ellis.back()
        assert every_cell(ellis) == state
    for state in seen[1:]:
        assert ellis.forward()
        assert every_cell(ellis) == state
    assert not ellis.forward()
    # A step taken again from a state gone back to gives the same values.
    ellis.back()
    ellis.step()
    assert every_cell(ellis) == seen[-1]


def test_a_reset_is_one_step_back() -> None:
    wb = dataflow.load(SUDOKU)
    before = every_cell(wb)
    wb.solve(puzzle=lines(PUZZLES / "project_euler_96.txt")[0])
    assert wb.back(), "the recalculation"
    assert wb.back(), "the reset with its input"
    assert every_cell(wb) == before
    assert not wb.back()


def test_a_formula_edited_and_undone(ellis: dataflow.Workbook) -> None:
    ellis.solve()
    solved = every_cell(ellis)
    original = ellis.formula("Main!D16")
    assert original is not None and original.startswith("=IF(in_cell_from_sol, in_cell_from_sol,")
    ellis.set_formula("Main!D16", "=D4*10")
    assert ellis.formula("Main!D16") == "=D4*10"
    ellis.recalc()
    assert ellis["Main!D16"] == 20.0
    assert ellis.back(), "the recalculation"
    assert ellis.back(), "the edit"
    assert ellis.formula("Main!D16") == original
    assert every_cell(ellis) == solved
    assert ellis.forward()
    assert ellis.formula("Main!D16") == "=D4*10"


def test_typing_over_a_formula_replaces_it_as_excel_does() -> None:
    ron = '(sheets: ["Main"], cells: { "Main!A1": 21, "Main!B1": "=A1*2", "Main!C1": "=B1+1" })'
    wb = dataflow.loads(ron)
    wb.recalc()
    assert (wb["B1"], wb["C1"]) == (42.0, 43.0)
    wb["B1"] = 5
    assert wb.formula("B1") is None
    wb.recalc()
    assert wb["C1"] == 6.0
    wb.back()
    wb.back()
    assert wb.formula("B1") == "=A1*2"
    wb["A1"] = "=not a formula"
    assert wb["A1"] == "=not a formula", "a str is text, never parsed"
    wb["A1"] = None
    assert wb["A1"] is None
    wb.set_formula("D1:D3", "=ROW(A1)+1")
    wb.recalc()
    assert wb["D1:D3"] == [[2.0], [3.0], [4.0]], "Ctrl+Enter: relative to the range's top-left cell"
    assert wb.formula("D3") == "=ROW(A1)+1", "as written, for the whole range"
    wb.set_formula("A1:A3", "{=ROW(A1:A3)*2}")
    wb.recalc()
    assert wb["A1:A3"] == [[2.0], [4.0], [6.0]]
    assert wb.formula("A2") == "{=ROW(A1:A3)*2}"
    with pytest.raises(dataflow.UsageError, match="array formula"):
        wb["A2"] = 1
    wb.clear("A1:A3")
    assert wb["A1:A3"] == [[None], [None], [None]]


def test_values_both_ways() -> None:
    wb = dataflow.loads('(sheets: ["Main"], cells: { "Main!A1": "=1/0", "Main!A2": "=NA()" })')
    wb.recalc()
    assert wb["A1"] == ExcelError("#div/0!")
    assert wb["A1"].code == "#DIV/0!"
    assert repr(wb["A2"]) == "ExcelError('#N/A')"
    assert wb["A1"] != wb["A2"] and len({wb["A1"], ExcelError("#DIV/0!")}) == 1
    assert pickle.loads(pickle.dumps(wb["A2"])) == wb["A2"]
    with pytest.raises(ValueError):
        ExcelError("#OOPS!")
    wb["B1:C2"] = [[1, "x"], [True, ExcelError("#N/A")]]
    assert wb["B1:C2"] == [[1.0, "x"], [True, ExcelError("#N/A")]]
    wb["D1:D2"] = 7
    assert wb["D1:D2"] == [[7.0], [7.0]]
    with pytest.raises(ValueError, match="rows of that shape"):
        wb["B1:C2"] = [[1, 2, 3]]
    with pytest.raises(ValueError, match="rows of that shape"):
        wb["B1:C2"] = ["ab", "cd"]
    assert wb["B1:C2"] == [[1.0, "x"], [True, ExcelError("#N/A")]], "a refused value sets nothing"
    with pytest.raises(ValueError, match="finite"):
        wb["B1"] = float("nan")
    with pytest.raises(TypeError):
        wb["B1"] = object()  # type: ignore[assignment]


def test_names_inputs_and_views(ellis: dataflow.Workbook) -> None:
    names = {n.name: n for n in ellis.names}
    assert names["state"].formula == "=Main!$D$27"
    assert ellis.inputs == [dataflow.Input("puzzle", "Main!D4:L12", "123456789", ".0")]
    assert ellis.views == ["input", "solution", "candidates"]
    ellis.define_name("given", "=Main!$D$4", anchor="Main!A1")
    ellis.set_formula("Main!A1", "=given*3")
    ellis.recalc()
    assert ellis["Main!A1"] == 6.0
    assert {n.name for n in ellis.names} >= {"given", "state"}


def test_errors_are_exceptions_located_in_their_file() -> None:
    ron = '(sheets: ["Main"], include: ["f.dfl"], cells: { "Main!A1": 21 })'
    dfl = "cells Main!B1 = A1*2\ncells Main!C1 = SUM(A1,\n"
    with pytest.raises(dataflow.LoadError) as raised:
        dataflow.loads(ron, files={"f.dfl": dfl})
    [d] = raised.value.diagnostics
    assert (d.file, d.line, d.column) == ("f.dfl", 2, 23)
    assert "expected an expression" in d.label
    assert "f.dfl:2:23" in str(raised.value)
    # A misspelt function is found when the formulas are bound, in its cell.
    with pytest.raises(dataflow.LoadError) as raised:
        dataflow.loads(ron, files={"f.dfl": "cells Main!B1 = A1*2\ncells Main!C1 = SUMM(A1) + 1\n"})
    [d] = raised.value.diagnostics
    assert (d.file, d.line, d.column, d.cell) == ("f.dfl", 2, 17, "Main!C1")
    assert d.message == "unknown function `SUMM`"
    wb = dataflow.loads(ron, files={"f.dfl": "cells Main!B1 = A1*2\n"})
    with pytest.raises(dataflow.LoadError) as raised:
        wb.set_formula("B1", "=nowhere+1")
    assert raised.value.diagnostics[0].cell == "Main!B1"
    assert wb.formula("B1") == "=A1*2", "a refused edit changes nothing"
    with pytest.raises(dataflow.UsageError, match="unknown sheet"):
        wb["Nope!A1"]
    with pytest.raises(dataflow.UsageError, match="no input named"):
        wb.reset(puzzle="1")
    with pytest.raises(dataflow.UsageError, match="no view named"):
        wb.view("board")
    with pytest.raises(dataflow.UsageError, match="no part of that name"):
        dataflow.load(SUDOKU, parts=["nope"])
    with pytest.raises(dataflow.LoadError, match="unknown workbook format"):
        dataflow.load("book.numbers")
    assert issubclass(dataflow.LoadError, dataflow.Error)


def test_a_line_of_the_wrong_length_is_a_usage_error(ellis: dataflow.Workbook) -> None:
    with pytest.raises(dataflow.UsageError, match="81 symbols"):
        ellis.solve(puzzle="123")
    assert ellis.status is None, "nothing ran"
