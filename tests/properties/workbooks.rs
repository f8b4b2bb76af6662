//! Generators of small workbooks over `A1:E5`: each cell empty, a constant
//! or a formula calling random functions of the registry (with argument
//! counts they accept) over references inside the box. References are
//! generated as markers (`«n»` a cell, `«n:m»` an area, by cell number) and
//! resolved afterwards, so the same formulas serve workbooks with cycles
//! (any cell) and acyclic ones (only cells earlier in a random order).

use dataflow::functions::{Arg, FnSpec};
use proptest::prelude::*;

/// The box the workbooks live in: `SIDE` × `SIDE` cells from A1.
pub const SIDE: usize = 5;
pub const CELLS: usize = SIDE * SIDE;

/// `A1`-style name of cell number `i` (row by row).
pub fn cell(i: usize) -> String {
    format!("{}{}", char::from(b'A' + (i % SIDE) as u8), i / SIDE + 1)
}

/// What a cell holds.
#[derive(Clone, Debug)]
pub enum Content {
    Empty,
    Constant(String),
    /// Formula text with reference markers, without the `=`.
    Formula(String),
}

/// The functions a workbook may call: all of them, or for acyclic
/// workbooks only those that read no more than the references they are
/// given (not OFFSET or INDIRECT, which read at run time, nor SUMIF's sum
/// range, which grows to the size of its criteria range and may reach a
/// later cell) and give the same value each time (not volatile).
fn functions(acyclic: bool) -> Vec<&'static FnSpec> {
    let wider = |f: &FnSpec| f.args.iter().any(|a| matches!(a, Arg::Reachable | Arg::Address | Arg::SizedLike(_)));
    dataflow::functions::all().filter(|f| !acyclic || !(f.volatile || wider(f))).collect()
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0..CELLS).prop_map(|i| format!("«{i}»")),
        2 => (0..CELLS, 0..CELLS).prop_map(|(i, j)| format!("«{i}:{j}»")),
        // The spill of a cell (`#REF!` unless it holds a dynamic-array formula).
        1 => (0..CELLS).prop_map(|i| format!("«{i}»#")),
        3 => (-3i32..10).prop_map(|n| n.to_string()),
        1 => Just("nm".to_string()),
        1 => proptest::sample::select(&[
            "0.5", "\"\"", "\"a\"", "\"1\"", "\"A1\"", "\"B2:C3\"", "\">2\"", "\"a*\"", "\"0.0\"", "TRUE", "FALSE",
            "#N/A", "#DIV/0!", "{1,2;3,4}", "{\"a\",TRUE}",
        ][..])
        .prop_map(String::from),
    ]
}

/// An intersection, a union or (unless `acyclic`: what it reads is a box
/// around both sides, which may hold later cells) a range between a
/// computed reference and a cell.
fn reference_operator(acyclic: bool, inner: BoxedStrategy<String>) -> BoxedStrategy<String> {
    let area = || (0..CELLS, 0..CELLS).prop_map(|(i, j)| format!("«{i}:{j}»"));
    let intersection = (area(), area()).prop_map(|(a, b)| format!("({a} {b})"));
    let union = (area(), 0..CELLS).prop_map(|(a, b)| format!("SUM(({a},«{b}»))"));
    if acyclic {
        return prop_oneof![intersection, union].boxed();
    }
    let range = (area(), inner.clone(), inner, 0..CELLS).prop_map(|(a, r, c, k)| format!("(INDEX({a},{r},{c}):«{k}»)"));
    prop_oneof![intersection, union, range].boxed()
}

/// A formula of at most a few levels; `acyclic` leaves out the functions
/// and operators said above.
pub fn formula(acyclic: bool) -> impl Strategy<Value = String> {
    let ops = &["+", "-", "*", "/", "^", "&", "=", "<>", "<", ">="][..];
    let fns = functions(acyclic);
    leaf().prop_recursive(3, 16, 4, move |inner| {
        prop_oneof![
            2 => (inner.clone(), proptest::sample::select(ops), inner.clone())
                .prop_map(|(a, op, b)| format!("({a}{op}{b})")),
            1 => reference_operator(acyclic, inner.clone()),
            1 => inner.clone().prop_map(|e| format!("-{e}%")),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("LET(x,{a},x*{b}+x)")),
            // LAMBDA called inline and through MAP over whatever `a` is.
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("MAP({a},LAMBDA(v,v*{b}))")),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("LAMBDA(x,y,x&y)({a},{b})")),
            4 => (proptest::sample::select(fns.clone()), proptest::collection::vec(inner, 0..5)).prop_map(|(f, args)| {
                let n = args.len().clamp(f.min_args, f.max_args.min(f.min_args + 3));
                let args: Vec<String> = (0..n).map(|i| args.get(i).cloned().unwrap_or_else(|| "1".into())).collect();
                format!("{}({})", f.name, args.join(","))
            }),
        ]
    })
}

fn constant() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (-5i32..20).prop_map(|n| n.to_string()),
        1 => proptest::sample::select(&["0.25", "abc", "TRUE", "#N/A", "A1", ">1"][..]).prop_map(String::from),
    ]
}

/// The contents of every cell of the box.
pub fn contents(acyclic: bool) -> impl Strategy<Value = Vec<Content>> {
    let content = prop_oneof![
        2 => Just(Content::Empty),
        2 => constant().prop_map(Content::Constant),
        3 => formula(acyclic).prop_map(Content::Formula),
    ];
    proptest::collection::vec(content, CELLS)
}

/// Replaces the markers of `text`: `«n»` by what `cell_for(n)` gives (a
/// cell, or any text standing for it), `«n:m»` by the area
/// `area_for(n, m)` gives.
pub fn resolve(text: &str, cell_for: impl Fn(usize) -> String, area_for: impl Fn(usize, usize) -> String) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('«') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('»').map(|e| start + e).expect("a closed marker");
        let inside = &rest[start + '«'.len_utf8()..end];
        let number = |s: &str| s.parse::<usize>().expect("a cell number");
        match inside.split_once(':') {
            Some((a, b)) => out.push_str(&area_for(number(a), number(b))),
            None => out.push_str(&cell_for(number(inside))),
        }
        rest = &rest[end + '»'.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// The rectangle spanned by cells `i` and `j`, as text, and its cells.
pub fn rectangle(i: usize, j: usize) -> (String, Vec<usize>) {
    let (r0, r1) = ((i / SIDE).min(j / SIDE), (i / SIDE).max(j / SIDE));
    let (c0, c1) = ((i % SIDE).min(j % SIDE), (i % SIDE).max(j % SIDE));
    let cells = (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| r * SIDE + c)).collect();
    (format!("{}:{}", cell(r0 * SIDE + c0), cell(r1 * SIDE + c1)), cells)
}
