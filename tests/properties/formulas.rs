//! Generators of formula text: a token soup (any order of the pieces the
//! lexer knows, with random spacing) and a grammar-ish generator whose
//! output is mostly well-formed: literals, references of every shape (with
//! `$`, sheet prefixes quoted or not), names, calls with omitted arguments,
//! prefix and postfix operators, every binary operator, intersections (a
//! space between references) and unions in parentheses.

use proptest::prelude::*;

/// Reference-looking pieces, with and without `$` and sheet prefixes.
fn reference() -> impl Strategy<Value = String> {
    let col = prop_oneof![Just("A"), Just("B"), Just("E"), Just("XFD"), Just("AB"), Just("xfe")];
    let row = prop_oneof![Just("1"), Just("3"), Just("5"), Just("1048576"), Just("1048577"), Just("0")];
    let cell = (any::<bool>(), col.clone(), any::<bool>(), row.clone())
        .prop_map(|(dc, c, dr, r)| format!("{}{c}{}{r}", if dc { "$" } else { "" }, if dr { "$" } else { "" }));
    let piece = prop_oneof![
        4 => cell.clone(),
        2 => (cell.clone(), cell).prop_map(|(a, b)| format!("{a}:{b}")),
        1 => (col.clone(), col).prop_map(|(a, b)| format!("{a}:{b}")),
        1 => (row.clone(), row).prop_map(|(a, b)| format!("${a}:{b}")),
    ];
    const NAMED: [&str; 8] = ["", "", "", "Main!", "'My Sheet'!", "'A1'!", "'it''s'!", "Sheet1!"];
    let sheet = prop_oneof![
        4 => proptest::sample::select(&NAMED[..]).prop_map(String::from),
        1 => "[a-zA-Z0-9 _.'!é\\$#\"]{1,6}".prop_map(|s| format!("'{}'!", s.replace('\'', "''"))),
    ];

    (sheet, piece).prop_map(|(s, p)| format!("{s}{p}"))
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..100).prop_map(|n| n.to_string()),
        Just("0.5".to_string()),
        Just(".25".to_string()),
        Just("1e5".to_string()),
        Just("1E-300".to_string()),
        Just("1e308".to_string()),
        Just("123456789012345678".to_string()),
        Just("3.".to_string()),
        any::<f64>().prop_filter("finite", |n| n.is_finite()).prop_map(|n| format!("{}", n.abs())),
    ]
}

fn text() -> impl Strategy<Value = String> {
    "[a-z \"é,;]{0,6}".prop_map(|s| format!("\"{}\"", s.replace('"', "\"\"")))
}

fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => number(),
        2 => text(),
        1 => prop_oneof![Just("TRUE"), Just("false"), Just("#N/A"), Just("#DIV/0!"), Just("#REF!"), Just("#NAME?")]
            .prop_map(String::from),
        1 => Just("{1,2;3,4}".to_string()),
        1 => Just("{\"a\",TRUE,#N/A}".to_string()),
    ]
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![Just("x"), Just("sol_board"), Just("_a"), Just("a.b"), Just("\\n"), Just("é"), Just("R1C1")]
        .prop_map(String::from)
}

fn function() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = dataflow::functions::all().map(|f| f.name).collect();
    prop_oneof![4 => proptest::sample::select(names), 1 => Just("nope"), 1 => Just("sum")].prop_map(String::from)
}

const BINARY: [&str; 14] = ["+", "-", "*", "/", "^", "&", "=", "<>", "<", ">", "<=", ">=", ":", " "];

/// A mostly well-formed formula, up to a few levels deep.
pub fn formula() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![3 => literal(), 3 => reference(), 1 => name()];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            2 => (inner.clone(), proptest::sample::select(&BINARY[..]), inner.clone())
                .prop_map(|(a, op, b)| format!("{a}{op}{b}")),
            1 => (prop_oneof![Just("-"), Just("+"), Just("--")], inner.clone()).prop_map(|(op, e)| format!("{op}{e}")),
            1 => inner.clone().prop_map(|e| format!("{e}%")),
            1 => inner.clone().prop_map(|e| format!("({e})")),
            // Intersections and unions of references.
            1 => (reference(), reference()).prop_map(|(a, b)| format!("{a} {b}")),
            1 => proptest::collection::vec(reference(), 2..4).prop_map(|r| format!("({})", r.join(","))),
            // Calls, some arguments omitted.
            2 => (function(), proptest::collection::vec(prop_oneof![4 => inner.clone(), 1 => Just(String::new())], 0..4))
                .prop_map(|(f, args)| format!("{f}({})", args.join(","))),
        ]
    })
}

/// The pieces the lexer knows (and a few it does not), in any order.
pub fn token_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        3 => reference(),
        2 => literal(),
        1 => name(),
        1 => function(),
        3 => proptest::sample::select(&[
            "+", "-", "*", "/", "^", "&", "=", "<", ">", "<=", ">=", "<>", ":", "%", ",", ";", "(", ")", "{", "}",
            "$", "!", "'", "\"", "#", " ", "\n", "\t", "\r", "@", "'Main'", "''", "#NUM", "1e999", "é",
        ][..])
        .prop_map(String::from),
    ];
    proptest::collection::vec((token, prop_oneof![3 => Just(""), 1 => Just(" ")]), 0..16)
        .prop_map(|t| t.into_iter().map(|(tok, sep)| format!("{tok}{sep}")).collect())
}
