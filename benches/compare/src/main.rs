//! `compare-once ENGINE WORKLOAD [--no-calc]`: loads one workload into one
//! engine, calculates it once (unless `--no-calc`), checks the chain's last
//! cell and exits, so that a whole process can be measured: peak RSS with
//! `/usr/bin/time -v`, instructions with `valgrind --tool=callgrind`.
//! ENGINE is one of `dataflow_cells`, `dataflow_ron_cells`,
//! `dataflow_range`, `formualizer`, `formualizer_batch`, `ironcalc`; WORKLOAD is `chain_N`, the
//! chain of N cells (`chain_100000` is the bench's; `chain_1`, A1 alone,
//! is the baseline: the process with an empty sheet).

use dataflow_compare::Engine;
use std::process::ExitCode;

fn run(args: &[String]) -> Result<String, String> {
    let usage = "usage: compare-once ENGINE chain_N [--no-calc]";
    let (engine, workload) = match args {
        [e, w] | [e, w, _] => (e, w),
        _ => return Err(usage.to_string()),
    };
    let calc = match args.get(2).map(String::as_str) {
        None => true,
        Some("--no-calc") => false,
        Some(other) => return Err(format!("unknown option `{other}`; {usage}")),
    };
    let names: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    let engine = Engine::named(engine).ok_or_else(|| format!("no engine `{engine}` ({})", names.join(", ")))?;
    let n: u32 = workload
        .strip_prefix("chain_")
        .and_then(|n| n.parse().ok())
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("no workload `{workload}` (chain_N, N >= 1)"))?;
    let mut loaded = engine.load(engine.input(n))?;
    if !calc {
        return Ok(format!("{} {workload}: loaded", engine.name()));
    }
    loaded.calc()?;
    let last = loaded.last(n)?;
    if last != f64::from(n) {
        return Err(format!("{} {workload}: A{n} = {last}, not {n}", engine.name()));
    }
    Ok(format!("{} {workload}: A{n} = {last}", engine.name()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("compare-once: {e}");
            ExitCode::FAILURE
        }
    }
}
