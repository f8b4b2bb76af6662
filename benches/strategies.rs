//! The cost of the strategy parts of workbooks/sudoku.ron (docs/strategies.md):
//! milliseconds per puzzle for singles (the article's workbook), `--with
//! locked` and `--with all`, on the first puzzles of two tiers of the 17-clue
//! corpus: S+LC+P (what the strategies are for) and S (solved by singles
//! alone, where the target, all five within 3x singles, is set).
//! Each iteration runs every puzzle of the sample (input, reset protocol,
//! iteration to the fixpoint) from a loaded session, parsing and binding
//! excluded; the time reported is per puzzle. `DATAFLOW_BENCH_PUZZLES`
//! sets the sample size (default 100). Skipped, with a message, when the
//! shared corpora (../shared/corpora) are absent.

// Benchmarks fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use dataflow::session::Session;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

const CORPUS: &str = "../shared/corpora/9x9/royle_17clue_49151";

/// The workbooks compared: the `--with` parts of each.
const COMBINATIONS: [(&str, &[&str]); 3] = [("singles", &[]), ("locked", &["locked"]), ("all", &["all"])];

/// The first `n` puzzles of a tier, or None when the corpus is absent.
fn tier(name: &str, n: usize) -> Option<Vec<String>> {
    let read = |suffix: &str| std::fs::read_to_string(format!("{CORPUS}{suffix}")).ok();
    let (tiers, puzzles) = (read(".tiers.txt")?, read(".txt")?);
    let sample: Vec<String> =
        tiers.lines().zip(puzzles.lines()).filter(|(t, _)| *t == name).map(|(_, p)| p.to_string()).take(n).collect();
    assert_eq!(sample.len(), n, "tier {name} has fewer than {n} puzzles");
    Some(sample)
}

fn sample_size() -> usize {
    std::env::var("DATAFLOW_BENCH_PUZZLES").ok().and_then(|n| n.parse().ok()).filter(|&n| n > 0).unwrap_or(100)
}

/// Solves every puzzle once; the time taken per puzzle.
fn run(base: &Session, puzzles: &[String]) -> Duration {
    let start = Instant::now();
    for p in puzzles {
        let mut s = base.fresh();
        s.set_input("puzzle", p).unwrap();
        s.reset().unwrap();
        black_box(s.recalc());
    }
    start.elapsed() / puzzles.len() as u32
}

fn strategies(c: &mut Criterion) {
    let n = sample_size();
    let (Some(hard), Some(easy)) = (tier("S+LC+P", n), tier("S", n)) else {
        eprintln!("skipping: {CORPUS}.* is absent (the shared puzzle corpora sit beside the project)");
        return;
    };
    let mut group = c.benchmark_group("strategies");
    // One iteration is a whole sample of puzzles: few, long iterations.
    group.sampling_mode(SamplingMode::Flat).sample_size(10).warm_up_time(Duration::from_millis(100));
    for (name, with) in COMBINATIONS {
        let with: Vec<String> = with.iter().map(|w| w.to_string()).collect();
        let base = Session::load_with(Path::new("workbooks/sudoku.ron"), &with).expect("workbooks/sudoku.ron loads");
        for (tier, puzzles) in [("S+LC+P", &hard), ("S", &easy)] {
            group.bench_function(format!("{tier}/{name}/ms_per_puzzle_of_{n}"), |b| {
                b.iter_custom(|iters| (0..iters).map(|_| run(&base, puzzles)).sum())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, strategies);
criterion_main!(benches);
