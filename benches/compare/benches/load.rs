//! dataflow against formualizer and IronCalc in one criterion run (issue
//! 31): the chain `A1 = 1`, `A{i} = A{i-1}+1` down to row 100,000, handed
//! to each engine as cell texts (see the crate's `lib.rs` for each
//! engine's path). Two groups, one function an engine:
//! `load/chain_100000/ENGINE` goes from the texts to an engine ready to
//! calculate (parsed, graph built; IronCalc has no graph), and
//! `load_and_calc/chain_100000/ENGINE` adds the first calculation, which
//! is the fair comparison (each engine defers different work to it).
//! Before measuring, every engine loads and calculates the chain once and
//! the bench panics unless A100000 holds 100000. The texts are cloned for
//! each iteration outside the timing, and what was loaded is dropped
//! outside it too (`iter_batched`).

// Benches fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use dataflow_compare::Engine;
use std::hint::black_box;
use std::time::Duration;

const N: u32 = 100_000;

fn check(engine: Engine) {
    let mut loaded = engine.load(engine.input(N)).unwrap_or_else(|e| panic!("{}: {e}", engine.name()));
    loaded.calc().unwrap_or_else(|e| panic!("{}: {e}", engine.name()));
    let last = loaded.last(N).unwrap_or_else(|e| panic!("{}: {e}", engine.name()));
    assert_eq!(last, f64::from(N), "{}: A{N} = {last}", engine.name());
}

fn groups(c: &mut Criterion) {
    Engine::ALL.into_iter().for_each(check);
    for (group, calc) in [("load", false), ("load_and_calc", true)] {
        let mut g = c.benchmark_group(format!("{group}/chain_{N}"));
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(10));
        for engine in Engine::ALL {
            let input = engine.input(N);
            g.bench_function(engine.name(), |b| {
                b.iter_batched(
                    || input.clone(),
                    |input| {
                        let mut loaded = engine.load(black_box(input)).unwrap();
                        if calc {
                            loaded.calc().unwrap();
                        }
                        loaded
                    },
                    BatchSize::LargeInput,
                )
            });
        }
        g.finish();
    }
}

criterion_group!(benches, groups);
criterion_main!(benches);
