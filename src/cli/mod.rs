//! Command-line interface (clap). Results go to stdout, diagnostics and
//! warnings to stderr, both through `app::print`/`app::warn` (never
//! `println!`, which panics on a closed pipe). Exit codes: 0 success (also
//! when the reader of stdout stops early, as `| head` does), 1 workbook
//! errors, 2 usage.

pub mod batch;
mod eval;
mod explain;
mod export;
mod graph;
mod import;
mod names;
pub mod output;
pub(crate) mod run;
mod trace;
pub(crate) mod watch;
mod watch_corpus;

use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

pub use crate::app::Failure;
use dataflow::policy::{MAX_ITERATIONS_LIMIT, MIN_ITERATIONS};

/// `--max-iter`'s range, `policy`'s bounds (clap's ranges are `i64`).
const ITERATIONS: std::ops::RangeInclusive<i64> = MIN_ITERATIONS as i64..=MAX_ITERATIONS_LIMIT as i64;
use crate::app::warn;

#[derive(Parser, Debug)]
#[command(name = "dataflow", version, about = "A spreadsheet engine with Excel's formulas and iterative calculation")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Load a workbook, apply inputs and the reset protocol, recalculate, print views.
    Run(RunArgs),
    /// Load a workbook and report every problem, its optional parts and the cycles found; run
    /// nothing unless asked (--run).
    Check {
        workbook: PathBuf,
        /// Check with these optional parts of the workbook turned on (comma-separated or repeated; `all`).
        #[arg(long = "with", value_name = "PART", value_delimiter = ',')]
        with: Vec<String>,
        /// Then run the workbook once with its own inputs and reset protocol, as `run` does: print
        /// the status line, and warn on stderr about each view left holding error values (#VALUE!,
        /// #REF!, ...: a broken strategy board), naming the first cell and its error. The exit
        /// code stays 0.
        #[arg(long)]
        run: bool,
    },
    /// Evaluate a formula in a cell's context after recalculation.
    Eval {
        #[command(flatten)]
        common: CommonArgs,
        /// The formula, e.g. "=SUM(Main!D16:L24)" or a name. An array or a reference to several
        /// cells prints whole, as Excel's F9 shows it ({1;2;3}: `,` between columns, `;` between
        /// rows, text quoted, an empty cell as 0); a name is evaluated for the --at cell. "{=...}"
        /// evaluates it as an array formula entered over --at and prints the array as a grid.
        formula: String,
        /// The cell whose context the formula is evaluated in (default A1 of the first sheet);
        /// for "{=...}" a range is the block the array formula is entered over.
        #[arg(long, default_value = "A1")]
        at: String,
        /// Print the cells a reference-valued formula points to instead of its value.
        #[arg(long)]
        refs: bool,
        /// Evaluate after N iterations of the recalculation (one pass each; 0: as the reset
        /// protocol left it), not after it converges.
        #[arg(long, value_name = "N")]
        iteration: Option<u32>,
        /// Print each sub-expression's value in the order it is calculated, innermost first,
        /// as Excel's Evaluate Formula shows them (IF: only the branch taken), then the result.
        #[arg(long, conflicts_with = "refs")]
        steps: bool,
    },
    /// Run every line of puzzle files (or of standard input, as it comes: --input NAME=@-)
    /// through a workbook and compare with expected lines (--expect, or the line's own after a
    /// comma: `puzzle,solution`). An --input naming another input is a companion file, read
    /// line by line beside the puzzles (a jigsaw's region maps: --input regions=@maps.txt). Exit 1 after the output when a record could not be run
    /// (status error), 2 for a usage error.
    Batch {
        #[command(flatten)]
        common: CommonArgs,
        /// The view or range read back through the input's alphabet.
        #[arg(long, value_name = "VIEW|RANGE", default_value = "solution")]
        show: String,
        /// Also read this view or cell per puzzle: into each JSON line (under "collected"),
        /// and, for a single cell, into the summary as counts per value. Repeatable.
        #[arg(long, value_name = "VIEW|CELL")]
        collect: Vec<String>,
        /// A file whose line i is the expected result for puzzle i (one input file), or `auto`:
        /// each input file X.txt graded against X.solutions.txt beside it, when there is one.
        #[arg(long, value_name = "FILE|auto")]
        expect: Option<PathBuf>,
        /// Worker threads (default: one per core; more than 256 run 256); at most 64 puzzles per
        /// thread are in flight.
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        /// Output: a summary (text); one JSON object per puzzle (jsonl), or one CSV row per puzzle
        /// after a header row (csv: file, line, status, iterations, period, ms, grid, each --collect,
        /// message), each written in input order as soon as it is solved, and the summary on
        /// stderr (JSON after jsonl, text after csv).
        #[arg(long, value_enum, default_value_t = BatchFormat::Text)]
        format: BatchFormat,
    },
    /// Step through iterations interactively (or as plain text), watching cells change.
    Step(StepArgs),
    /// Serve a stepper for the workbook as a web page on a local address: every view as a grid,
    /// stepping, scrubbing, explanations, edits, parts, and a reload when a formula file is saved.
    Serve(crate::serve::ServeArgs),
    /// Re-run whenever the workbook or a formula file it includes changes (with --corpus: a
    /// sample of puzzles, counting solved, wrong, gave up and oscillating, and what changed).
    Watch(WatchArgs),
    /// List the workbook's names as Excel's Name Manager does: each name, its scope and
    /// anchor, its formula as written, its value (at its anchor, or at --at), what uses it,
    /// and its comment.
    Names {
        #[command(flatten)]
        common: CommonArgs,
        /// Only these names (case-insensitive); default: every name.
        names: Vec<String>,
        /// Evaluate every name at this cell instead of at its anchor.
        #[arg(long, value_name = "CELL")]
        at: Option<String>,
    },
    /// Explain a formula cell: each change of its value, step by step, with the precedents
    /// whose change caused it.
    Explain {
        #[command(flatten)]
        common: CommonArgs,
        /// The cell, e.g. Main!Q4.
        cell: String,
    },
    /// Print the dependency graph as Graphviz DOT (render with `dot -Tsvg`).
    Graph {
        workbook: PathBuf,
        /// Only this cell's precedents and dependents.
        #[arg(long, value_name = "CELL")]
        cell: Option<String>,
        /// Show names as nodes between the cells that use them and the areas they reach.
        #[arg(long)]
        names: bool,
    },
    /// Write an Excel workbook (.xlsx) or an OpenDocument spreadsheet (.ods) as a RON workbook
    /// and a formula file (and its cached values as a state file for `run --state`), so its
    /// formulas can be edited as text.
    Import {
        /// The Excel workbook or OpenDocument spreadsheet.
        workbook: PathBuf,
        /// The directory written to: BOOK.ron, BOOK.dfl and, when the workbook has cached
        /// values, BOOK.state.ron (created if missing).
        #[arg(long, short, value_name = "DIR")]
        out: PathBuf,
        /// Overwrite those files when they exist (without it, an existing file is an error).
        #[arg(long)]
        force: bool,
    },
    /// Write the workbook, calculated as `run` does, for Excel (.xlsx) or LibreOffice (.ods),
    /// with its values as the file's cached results.
    Export {
        #[command(flatten)]
        common: CommonArgs,
        /// The file written: BOOK.xlsx or BOOK.ods.
        #[arg(long, short, value_name = "FILE")]
        out: std::path::PathBuf,
        /// Overwrite the file when it exists.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Args, Debug)]
pub struct StepArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Print each iteration as text instead of the interactive view (default when stdout is not a terminal).
    #[arg(long)]
    pub plain: bool,
    /// Views or ranges to show (default: every view).
    #[arg(long = "show", value_name = "VIEW|RANGE")]
    pub show: Vec<String>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchFormat {
    Text,
    Jsonl,
    Csv,
}

/// Options shared by the commands that calculate.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// The workbook file (.ron, .xlsx for an Excel workbook, .ods for LibreOffice's).
    pub workbook: PathBuf,
    /// Maximum iterations for circular references (overrides the workbook).
    #[arg(long = "max-iter", value_name = "N", value_parser = clap::value_parser!(u32).range(ITERATIONS))]
    pub max_iter: Option<u32>,
    /// Maximum change for convergence (overrides the workbook).
    #[arg(long = "max-change", value_name = "X")]
    pub max_change: Option<f64>,
    /// Order of cells within an iteration: row-major (Excel) or synchronous.
    #[arg(long, value_name = "ORDER")]
    pub order: Option<dataflow_order::OrderArg>,
    /// Fill a named input: NAME=SYMBOLS, NAME=@FILE (line 1) or NAME=@FILE:LINE; a line is symbols
    /// (either case when unambiguous) or numbers separated by spaces ("12 10 0 8 ...", 0 or . blank).
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// Read the inputs through these symbols instead of the workbook's alphabet, for this run
    /// (symbol k is the number k; e.g. 0123456789ABCDEF; either case when unambiguous).
    #[arg(long, value_name = "SYMBOLS")]
    pub alphabet: Option<String>,
    /// Set a cell after the reset protocol: CELL=VALUE (a number, TRUE, text, #N/A).
    #[arg(long = "set", value_name = "CELL=VALUE")]
    pub sets: Vec<String>,
    /// How the workbook's strategy parts take turns: simplest (the default: simplest first,
    /// back to the singles after each success, as seed 002) or together (every strategy searches
    /// at once); sets the cell named `strategies_order`, as --set strategies_order=ORDER would.
    #[arg(long = "order-strategies", value_name = "ORDER", value_parser = ["simplest", "together"])]
    pub order_strategies: Option<String>,
    /// Skip the workbook's reset protocol and iterate from never-calculated cells.
    #[arg(long = "no-reset")]
    pub no_reset: bool,
    /// Turn on optional parts of the workbook (comma-separated or repeated; `all`: every one;
    /// `dataflow check` lists them).
    #[arg(long = "with", value_name = "PART", value_delimiter = ',')]
    pub with: Vec<String>,
    /// What TODAY and NOW read, in local time, for reproducible runs: 2026-11-28T17:30:00,
    /// "2026-11-28 17:30" or 2026-11-28 (default: the system clock, local time).
    #[arg(long, value_name = "DATE[THH:MM[:SS]]", value_parser = dataflow::value::date::Clock::parse)]
    pub now: Option<dataflow::value::date::Clock>,
}

impl CommonArgs {
    /// The application layer's options.
    pub fn options(&self) -> crate::app::Options {
        crate::app::Options {
            workbook: self.workbook.clone(),
            max_iter: self.max_iter,
            max_change: self.max_change,
            order: self.order.map(Into::into),
            inputs: self.inputs.clone(),
            alphabet: self.alphabet.clone(),
            sets: self
                .order_strategies
                .iter()
                .map(|o| format!("{}={o}", crate::app::STRATEGIES_ORDER))
                .chain(self.sets.iter().cloned())
                .collect(),
            no_reset: self.no_reset,
            with: self.with.clone(),
            now: self.now,
        }
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// A view name or a range (e.g. solution, Main!D16:L24); default: every view.
    #[arg(long = "show", value_name = "VIEW|RANGE")]
    pub show: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Report, per iteration, every cell that changed (from what to what).
    #[arg(long)]
    pub trace: bool,
    /// Follow these cells through the run, iteration by iteration.
    #[arg(long = "trace-cell", value_name = "CELL")]
    pub trace_cells: Vec<String>,
    /// Write the trace to FILE instead of stderr.
    #[arg(long = "trace-file", value_name = "FILE")]
    pub trace_file: Option<PathBuf>,
    /// Start from the values saved in FILE (when it exists) and save them back afterwards,
    /// like repeated F9 on a saved workbook.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct WatchArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Run this file of puzzles (one per line, for the workbook's input) on every change, and
    /// show the counts and which puzzles changed since the last run.
    #[arg(long, value_name = "FILE")]
    pub corpus: Option<PathBuf>,
    /// With --corpus: the expected solutions, line by line.
    #[arg(long, value_name = "FILE", requires = "corpus")]
    pub expect: Option<PathBuf>,
    /// With --corpus: run N puzzles spread evenly over the file.
    #[arg(long, value_name = "N", requires = "corpus", value_parser = clap::value_parser!(u32).range(1..))]
    pub sample: Option<u32>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The views as grids, then the run's status.
    Text,
    /// One JSON object: the status and every range's values.
    Json,
    /// Every range's values as CSV (a `# RANGE` line before each when there are several).
    Csv,
}

/// The `--order` values.
pub mod dataflow_order {
    use dataflow::policy::Order;

    #[derive(clap::ValueEnum, Clone, Copy, Debug)]
    pub enum OrderArg {
        RowMajor,
        Synchronous,
    }

    impl From<OrderArg> for Order {
        fn from(o: OrderArg) -> Order {
            match o {
                OrderArg::RowMajor => Order::RowMajor,
                OrderArg::Synchronous => Order::Synchronous,
            }
        }
    }
}

/// Runs a parsed command line.
pub fn main(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Check { workbook, with, run } => run::check(&workbook, &with, run),
        Command::Eval { common, formula, at, refs, iteration, steps } => {
            eval::eval(&common.options(), &formula, &at, eval::How { refs, iteration, steps })
        }
        Command::Batch { common, show, collect, expect, jobs, format } => {
            batch::batch(&common.options(), &show, &collect, expect.as_deref(), jobs, format)
        }
        Command::Step(args) => crate::tui::step(&args.common.options(), &args.show, args.plain),
        Command::Watch(args) => watch::watch(&args),
        Command::Serve(args) => crate::serve::serve(&args),
        Command::Names { common, names: wanted, at } => names::names(&common.options(), &wanted, at.as_deref()),
        Command::Explain { common, cell } => explain::explain_cell(&common.options(), &cell),
        Command::Graph { workbook, cell, names } => graph::graph(&workbook, cell.as_deref(), names),
        Command::Import { workbook, out, force } => import::import(&workbook, &out, force),
        Command::Export { common, out, force } => export::export(&common, &out, force),
    };
    match result {
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Workbook(diags)) => {
            for d in &diags {
                warn(&d.render(crate::app::color_wanted(std::io::stderr().is_terminal())));
            }
            let n = dataflow::diagnostic::problem_count(&diags);
            warn(&format!("{} found", crate::app::plural(n as u64, "problem")));
            ExitCode::from(1)
        }
        Err(Failure::Usage(m)) => {
            warn(&format!("error: {m}"));
            ExitCode::from(2)
        }
        Err(Failure::Partial(m)) => {
            warn(&format!("error: {m}"));
            ExitCode::from(1)
        }
    }
}
