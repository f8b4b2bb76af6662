"""Batch throughput through Python against `dataflow batch`, on the same
puzzles, and the cost of a cell read and a step on the Ellis workbook.

    python python/benches/throughput.py [--runs 5]

Needs the package installed and target/release/dataflow built (cargo build
--release). Prints medians over the runs: puzzles per second for the command
line (`--format jsonl`, output discarded) and for `dataflow.batch` (every
dict built), with one job and with the default (one per core), and the CPU
seconds each took (steadier than the wall time on a busy machine); then timeit
medians of `wb["Main!D4"]`, of a `step()` while solving (its change list
built) and of a `step()` with nothing left to do.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import time
import timeit
from pathlib import Path
from typing import Optional

import dataflow

ROOT = Path(__file__).resolve().parents[2]
SUDOKU = ROOT / "workbooks" / "sudoku.ron"
PUZZLES = ROOT / "workbooks" / "puzzles" / "9x9" / "royle_17clue_2000.txt"
SOLUTIONS = PUZZLES.with_name("royle_17clue_2000.solutions.txt")
BINARY = ROOT / "target" / "release" / "dataflow"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli(jobs: Optional[int]) -> tuple[float, float]:
    """Wall and CPU seconds of `dataflow batch` (all its threads)."""
    args = [str(BINARY), "batch", str(SUDOKU), "--input", f"puzzle=@{PUZZLES}", "--expect", str(SOLUTIONS)]
    args += ["--format", "jsonl"] + (["--jobs", str(jobs)] if jobs else [])
    start, cpu = time.perf_counter(), children_cpu()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, children_cpu() - cpu


def python(jobs: Optional[int]) -> tuple[float, float]:
    """Wall and CPU seconds of `dataflow.batch` (this process's threads)."""
    start, cpu = time.perf_counter(), time.process_time()
    n = sum(1 for _ in dataflow.batch(SUDOKU, PUZZLES, expect=SOLUTIONS, jobs=jobs))
    assert n == 2000
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    for jobs in (1, None):
        # Interleaved, so a load beside the run weighs on both alike.
        times = [(cli(jobs), python(jobs)) for _ in range(runs)]
        c = statistics.median(t[0][0] for t in times)
        p = statistics.median(t[1][0] for t in times)
        c_cpu = statistics.median(t[0][1] for t in times)
        p_cpu = statistics.median(t[1][1] for t in times)
        label = f"jobs={jobs or 'default'}"
        print(f"{label}: dataflow batch {2000 / c:.0f} puzzles/s ({c:.2f} s, cpu {c_cpu:.2f} s), "
              f"dataflow.batch {2000 / p:.0f} puzzles/s ({p:.2f} s, cpu {p_cpu:.2f} s), "
              f"python/cli wall {p / c:.3f}, cpu {p_cpu / c_cpu:.3f}")
    wb = dataflow.load(SUDOKU)
    wb.solve()
    read = timeit.repeat(lambda: wb["Main!D4"], number=10000, repeat=runs)
    print(f'wb["Main!D4"]: {statistics.median(read) / 10000 * 1e6:.2f} µs')
    steps = []
    for _ in range(20 * runs):
        wb.reset()
        while True:
            start = time.perf_counter()
            changes = wb.step()
            elapsed = time.perf_counter() - start
            if not changes:
                break
            steps.append(elapsed)
    print(f"step() while solving: median {statistics.median(steps) * 1e3:.3f} ms over {len(steps)} steps")
    idle = timeit.repeat(wb.step, number=1000, repeat=runs)
    print(f"step() with nothing to do: {statistics.median(idle) / 1000 * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
