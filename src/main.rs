//! The `dataflow` command line: run, check, eval and batch a workbook.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = dataflow::cli::Cli::parse();
    dataflow::cli::main(cli)
}
