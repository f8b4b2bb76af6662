"""Batches of puzzles on the pool, compared with `dataflow batch`."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from typing import Any, Iterator

import pytest
from conftest import BINARY, PUZZLES, ROOT, SUDOKU, lines

import dataflow

SAMPLE = PUZZLES / "royle_17clue_2000.txt"
SAMPLE_SOLUTIONS = PUZZLES / "royle_17clue_2000.solutions.txt"

# What `cargo run --release -- batch workbooks/sudoku.ron --input
# puzzle=@workbooks/puzzles/9x9/royle_17clue_2000.txt --expect
# workbooks/puzzles/9x9/royle_17clue_2000.solutions.txt --format jsonl`
# counted (its summary line on stderr) when this test was written; the test
# runs the binary itself when target/release/dataflow exists.
MEASURED = {"solved": 871, "unsolved": 1129}


def command_line(*args: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """`dataflow batch ... --format jsonl`: its JSON lines and summary."""
    run = subprocess.run([str(BINARY), "batch", *args, "--format", "jsonl"], cwd=ROOT, capture_output=True, text=True, check=True)
    summary = json.loads(run.stderr.strip().splitlines()[-1])["summary"]
    return [json.loads(line) for line in run.stdout.splitlines()], summary


def without_ms(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "ms" and not (k == "period" and v is None)} for r in results]


def test_two_thousand_puzzles_count_as_on_the_command_line() -> None:
    results = list(dataflow.batch(SUDOKU, SAMPLE, expect=SAMPLE_SOLUTIONS))
    assert [r["line"] for r in results] == list(range(1, 2001)), "in input order"
    counts = {k: n for k, n in Counter(r["status"] for r in results).items()}
    if BINARY.exists():
        cli, summary = command_line(str(SUDOKU), "--input", f"puzzle=@{SAMPLE}", "--expect", str(SAMPLE_SOLUTIONS))
        assert without_ms(results) == without_ms(cli), "every line as the command line writes it"
        expected = {k: summary[k] for k in ("solved", "unsolved", "wrong", "not_converged", "oscillating", "errors")}
        expected["error"] = expected.pop("errors")
        assert counts == {k: n for k, n in expected.items() if n}
    assert counts == MEASURED
    solutions = lines(SAMPLE_SOLUTIONS)
    assert all(r["grid"] == solutions[r["line"] - 1] for r in results if r["status"] == "solved")


def test_a_loaded_workbook_with_parts_collected_cells_and_one_job() -> None:
    wb = dataflow.load(SUDOKU, parts=["locked"])
    puzzles = lines(PUZZLES / "project_euler_96.txt")[:12]
    solutions = lines(PUZZLES / "project_euler_96.solutions.txt")
    one = list(dataflow.batch(wb, puzzles, jobs=1, collect=["status", "Main!D27"], expect=solutions))
    two = list(dataflow.batch(wb, puzzles, jobs=2, collect=["status", "Main!D27"], expect=solutions))
    assert without_ms(one) == without_ms(two)
    assert all(set(r["collected"]) == {"status", "Main!D27"} for r in one)
    assert all(r["collected"]["Main!D27"] == "solve" for r in one)
    assert {r["collected"]["status"] for r in one if r["status"] == "solved"} == {"solved"}
    if BINARY.exists():
        path = PUZZLES / "project_euler_96.txt"
        cli, _ = command_line(str(SUDOKU), "--with", "locked", "--input", f"puzzle=@{path}", "--collect", "status")
        assert [(r["status"], r["grid"], r["collected"]["status"]) for r in one] == [
            (r["status"], r["grid"], r["collected"]["status"]) for r in cli[:12]
        ]
    # The workbook itself is left as it was.
    assert wb.status is None


def test_lines_are_numbered_as_in_a_file_and_bad_ones_are_errors() -> None:
    wb = dataflow.load(SUDOKU)
    grid = lines(PUZZLES / "project_euler_96.txt")[1]
    results = list(dataflow.batch(wb, ["", grid + "\n", "   ", "123\r\n"]))
    assert [(r["line"], r["status"]) for r in results] == [(2, "solved"), (4, "error")]
    assert "81 symbols" in results[1]["message"] and results[1]["grid"] == ""
    with pytest.raises(TypeError, match="not a str"):
        dataflow.batch(wb, grid)
    with pytest.raises(dataflow.UsageError, match="fewer than the puzzles"):
        list(dataflow.batch(wb, [grid, grid], expect=[grid]))
    with pytest.raises(dataflow.UsageError, match="neither a view"):
        dataflow.batch(wb, [grid], show="nowhere")
    with pytest.raises(dataflow.UsageError, match="parts= goes with a workbook path"):
        dataflow.batch(wb, [grid], parts=["locked"])


def test_an_error_from_the_puzzles_comes_after_the_puzzles_before_it() -> None:
    grid = lines(PUZZLES / "project_euler_96.txt")[1]

    def puzzles() -> Iterator[str]:
        yield grid
        raise RuntimeError("the source broke")

    got = []
    with pytest.raises(RuntimeError, match="the source broke"):
        for r in dataflow.batch(SUDOKU, puzzles()):
            got.append(r["status"])
    assert got == ["solved"]


def test_a_batch_dropped_early_stops_without_hanging() -> None:
    endless = itertools.cycle(lines(SAMPLE))
    start = time.monotonic()
    results = dataflow.batch(SUDOKU, endless, jobs=2)
    first = [next(results) for _ in range(20)]
    assert [r["line"] for r in first] == list(range(1, 21))
    results.close()
    assert list(results) == []
    with dataflow.batch(SUDOKU, itertools.cycle(lines(SAMPLE))) as again:
        next(again)
    del again
    dropped = dataflow.batch(SUDOKU, itertools.cycle(lines(SAMPLE)))
    next(dropped)
    del dropped
    assert time.monotonic() - start < 20


def test_waiting_for_results_releases_the_interpreter() -> None:
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        n = sum(1 for _ in dataflow.batch(SUDOKU, lines(SAMPLE)[:300], jobs=1))
    finally:
        stop.set()
        counter.join()
    assert n == 300
    assert ticks > 10, "the other thread ran while the batch worked"


def test_the_interpreter_exits_cleanly_while_a_batch_reads_its_lines() -> None:
    # The reader thread is inside a generator (sleeping) when the script
    # ends: it must not take the interpreter's lock while Python finalizes.
    script = f"""
import time, dataflow
def slow():
    for line in open({str(SAMPLE)!r}):
        time.sleep(0.002)
        yield line
results = dataflow.batch({str(SUDOKU)!r}, slow())
print(next(results)["status"])
"""
    for _ in range(3):
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
        assert (run.returncode, run.stdout) == (0, "solved\n"), run.stderr
