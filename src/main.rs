//! The `dataflow` binary: run, check, eval, batch, step, watch and graph a
//! workbook. The engine is the `dataflow` library; this crate holds its
//! front ends: [`cli`] (clap arguments and the commands), [`tui`] (stepping
//! through iterations), [`serve`] (the stepper as a web page) and the [`app`] layer both stand on.

mod app;
mod cli;
mod serve;
mod tui;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main(cli::Cli::parse())
}
