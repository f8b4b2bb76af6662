//! Properties of the workbook loader: a small workbook file and the formula
//! file it includes, mutated (characters deleted, inserted, duplicated or
//! replaced by RON and `.dfl` fragments), or a workbook file of random
//! fields and values, never make loading and binding panic, and every
//! problem reported is located inside one of the two files (a span within
//! its text) and renders.

use dataflow::diagnostic::Diagnostic;
use dataflow::session::Session;
use proptest::prelude::*;
use proptest::sample::Index;
use std::path::{Path, PathBuf};

const BOOK: &str = r##"// A small workbook with one of everything.
Workbook(
    sheets: ["Main", "My Sheet"],
    calc: (iterate: true, max_iterations: 10, max_change: 0.001, order: "row-major"),
    include: ["f.dfl"],
    cells: {
        "Main!A1": 1,
        "Main!A2": "=A1+1",
        "Main!B1:B3": "=ROW()*2",
        "'My Sheet'!C1": r#"=IF(Main!A1="x",1,2)"#,
        "Main!C1:C2": "{=ROW(A1:A2)}",
        "D5": true,
        "Main!E1": "#N/A",
        "Main!E3": "=\"a\"\"b\" & left",
    },
    names: {
        "left": (formula: "=Main!A1", anchor: "Main!B1", comment: "the cell to the left"),
    },
    inputs: { "puzzle": (range: "Main!D1:D3", alphabet: "123", blanks: ".", value: "1.3") },
    views: { "all": (range: "Main!A1:E5", group: (1, 1), blank: " ") },
    reset: (set: { "Main!E2": "reset" }, then: { "Main!E2": "solve" }),
)
"##;

const DFL: &str = "# The total.
name total @ Main!A1 =
    SUM(Main!$A$1:$A$2)
    +left

name state = Main!$E$2
cells Main!F1:F3 = IF(state=\"reset\", 0, F1+1)
cells 'My Sheet'!G1:G2 = {=ROW(A1:A2)*2}
";

/// Fragments of both formats, to insert.
#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "\"", "'", "(", ")", "{", "}", "[", "]", ",", ":", "=", "!", "$", "#", "@", "//", "/*", "*/", "\n", "\r", "\t",
    " ", "\\", "r#\"", "\"#", "\u{2028}", "é", "Main!", "A1", "B2:C3", "sheets", "cells", "names", "include", "calc",
    "inputs", "views", "reset", "formula", "anchor", "range", "iterate", "true", "()", "-1", "1e999", "\"=1+\"",
    "\"=SUM(A1:A3)\"", "\"Main!A1\"", "\"x\"", "\nname x = 1\n", "\ncells Main!A9 = A9+1\n", "name ", "cells ", " = ",
    "{=", "#N/A", "\"f.dfl\"",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete(Index, usize),
    Insert(Index, String),
    Duplicate(Index, usize),
    Replace(Index, usize, String),
}

fn insertion() -> impl Strategy<Value = String> {
    // No digits of its own: a digit typed into a cell key makes a tall sheet,
    // whose cost is the performance issue's, not a loader bug.
    prop_oneof![3 => proptest::sample::select(FRAGMENTS).prop_map(String::from), 1 => "[^0-9]{1,4}"]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), 1usize..8).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<Index>(), insertion()).prop_map(|(i, s)| Edit::Insert(i, s)),
        (any::<Index>(), 1usize..12).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        (any::<Index>(), 1usize..4, insertion()).prop_map(|(i, n, s)| Edit::Replace(i, n, s)),
    ]
}

/// `text` with the edits applied, positions counted in characters.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let at = |i: &Index| i.index(chars.len() + 1);
        match e {
            Edit::Delete(i, n) => {
                let s = at(i);
                chars.drain(s..(s + n).min(chars.len()));
            }
            Edit::Insert(i, t) => {
                let s = at(i);
                chars.splice(s..s, t.chars());
            }
            Edit::Duplicate(i, n) => {
                let s = at(i);
                let copy: Vec<char> = chars[s..(s + n).min(chars.len())].to_vec();
                chars.splice(s..s, copy);
            }
            Edit::Replace(i, n, t) => {
                let s = at(i);
                chars.splice(s..(s + n).min(chars.len()), t.chars());
            }
        }
    }
    chars.into_iter().collect()
}

/// A directory of this test's own for the two files (reused by every run).
fn dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("properties-{test}"));
    std::fs::create_dir_all(&d).expect("a temporary directory");
    d
}

/// Writes the two files, loads and binds them; on success recalculates
/// within the cap, else checks that every diagnostic is located in one of
/// the two texts and renders.
fn check(test: &str, book: &str, dfl: &str) -> Result<(), TestCaseError> {
    let d = dir(test);
    std::fs::write(d.join("book.ron"), book).expect("written");
    std::fs::write(d.join("f.dfl"), dfl).expect("written");
    match Session::load(&d.join("book.ron")) {
        Ok(mut s) => {
            let cap = s.engine().settings.max_iterations;
            let report = s.recalc();
            prop_assert!(report.iterations <= cap);
        }
        Err(diags) => {
            prop_assert!(!diags.is_empty());
            for diag in &diags {
                located(diag, &[book, dfl])?;
                prop_assert!(!diag.render(false).is_empty());
            }
        }
    }
    Ok(())
}

/// The diagnostic has a file, that file is one of `texts` (as loaded: a
/// workbook file's byte-order mark is dropped) and the span lies inside it.
fn located(diag: &Diagnostic, texts: &[&str]) -> Result<(), TestCaseError> {
    let Some(file) = &diag.file else {
        return Err(TestCaseError::fail(format!("unlocated: {}", diag.message)));
    };
    prop_assert!(texts.iter().any(|t| t.strip_prefix('\u{feff}').unwrap_or(t) == file.text), "{}", diag.message);
    let span = &diag.span;
    prop_assert!(span.start <= span.end && span.end <= file.text.len(), "{:?} outside the text: {}", span, diag);
    Ok(())
}

/// A field name of the workbook file or of one of its parts, or no field.
fn field() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(
        &["sheets", "calc", "include", "cells", "names", "inputs", "views", "reset", "other", "iterate", "range"][..],
    )
}

/// A workbook file of random fields with random values.
fn random_book() -> impl Strategy<Value = String> {
    let scalar = prop_oneof![
        proptest::sample::select(
            &[
                "\"Main\"",
                "\"Main!A1\"",
                "\"A1:B2\"",
                "\"=A1+1\"",
                "\"=\"",
                "\"{=1}\"",
                "\"#N/A\"",
                "\"f.dfl\"",
                "\"'My Sheet'!A1\"",
                "\"row-major\"",
                "true",
                "()",
                "0",
                "-1",
                "1.5",
                "32768",
                "\"\"",
            ][..]
        )
        .prop_map(String::from),
        "[a-z!:=\"]{0,6}".prop_map(|s| format!("{s:?}")),
    ];
    let value = scalar.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
            proptest::collection::vec((inner.clone(), inner.clone()), 0..4).prop_map(|v| format!(
                "{{{}}}",
                v.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ")
            )),
            proptest::collection::vec((field(), inner), 0..4).prop_map(|v| format!(
                "({})",
                v.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ")
            )),
        ]
    });
    proptest::collection::vec((field(), value), 0..6).prop_map(|fields| {
        let fields: Vec<String> = fields.iter().map(|(k, v)| format!("    {k}: {v},\n")).collect();
        format!("Workbook(\n    sheets: [\"Main\"],\n{})\n", fields.concat())
    })
}

proptest! {
    #![proptest_config(super::config(128))]

    #[test]
    fn mutated_workbooks_load_or_report_located_problems(
        book_edits in proptest::collection::vec(edit(), 0..4),
        dfl_edits in proptest::collection::vec(edit(), 0..4),
    ) {
        check("mutated", &mutate(BOOK, &book_edits), &mutate(DFL, &dfl_edits))?;
    }

    #[test]
    fn random_workbooks_load_or_report_located_problems(book in random_book()) {
        check("random", &book, DFL)?;
    }
}

#[test]
fn the_unmutated_workbook_loads() {
    check("plain", BOOK, DFL).expect("it loads");
    assert!(Session::load(&dir("plain").join("book.ron")).is_ok());
}

#[test]
fn default_value_of_the_wrong_length_is_located() {
    let book = BOOK.replace(r#"value: "1.3""#, r#"value: "1.""#);
    let d = dir("default");
    std::fs::write(d.join("book.ron"), &book).expect("written");
    std::fs::write(d.join("f.dfl"), DFL).expect("written");
    let diags = Session::load(&d.join("book.ron")).err().expect("a problem");
    let file = diags[0].file.as_ref().expect("located in the workbook file");
    let line = file.text[..diags[0].span.start].lines().last().unwrap_or("");
    assert!(line.contains("puzzle"), "at the input: {}", diags[0]);
}
