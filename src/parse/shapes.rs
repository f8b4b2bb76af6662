//! Formulas of one shape parsed once. A workbook repeats a formula down a
//! column or across a block with only its cell references changed
//! (`=A1+1`, `=A2+1`, ...; an xlsx's shared formulas arrive expanded cell
//! by cell), and what the parser does with a token depends on the token's
//! kind and text, except for a cell: a word that reads as a cell and is
//! not followed by `(` or `[`, or a `$` piece naming a whole cell, is
//! taken as a cell whichever cell it names. The *shape* of a formula is
//! its text with each such cell token replaced by a marker of its kind
//! (bytes no UTF-8 text holds), so two formulas of one shape are the same
//! text but for their cell tokens, and lex to the same tokens but for
//! those.
//!
//! Each thread keeps the trees of the shapes it parsed last, one per slot
//! of a small table indexed by the shape's hash, for formulas up to
//! [`MAX_SHAPE`] bytes long. A shape takes its slot's place the second
//! time it is parsed (the slot notes the last shape seen), so a formula
//! met once costs its shape, not a copy of its tree. A formula
//! of a kept shape is lexed, not parsed: the kept tree is cloned, its
//! cell corners set from the new cell tokens in text order, and every
//! span moved by how much longer the cell tokens before it are. A tree is
//! kept only when that rebuilds it exactly: each of its cell tokens
//! became one corner of a reference, in text order, and no span ends
//! inside one. So the result is the parser's own, spans included
//! (`tests/properties/parse.rs` holds it to that against
//! [`super::parse_formula_afresh`]).

use super::lexer::{RefPart, Token, ident_ref_part};
use crate::ast::{Axis, Expr, ExprKind, RefKind, Span};
use chumsky::span::SimpleSpan;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};

/// Formulas longer than this many bytes are parsed afresh, not kept.
pub const MAX_SHAPE: usize = 4096;
/// How many shapes a thread keeps.
const SLOTS: usize = 64;
/// The markers of a word and of a `$` piece naming a cell: bytes that no
/// UTF-8 text holds, so a shape reads back one way only.
const WORD: u8 = 0xFF;
const PIECE: u8 = 0xFE;

/// A formula's shape: its text with each cell token a marker, and the
/// cell tokens, each with its span and the cell it names (row, column).
pub(super) struct Shape {
    key: Vec<u8>,
    hash: u64,
    cells: Vec<(Span, (Axis, Axis))>,
}

/// A kept tree and the spans of the cell tokens it was parsed from.
struct Kept {
    key: Vec<u8>,
    tree: Expr,
    cells: Vec<Span>,
}

/// A slot of the table: the tree kept, and the hash of the last shape
/// parsed that was not kept.
#[derive(Default)]
struct Slot {
    kept: Option<Kept>,
    seen: Option<u64>,
}

thread_local! {
    static KEPT: RefCell<Vec<Slot>> = RefCell::new((0..SLOTS).map(|_| Slot::default()).collect());
}

/// The shape of the formula `src` lexed to `tokens`, unless it is too long.
pub(super) fn shape(src: &str, tokens: &[(Token, SimpleSpan)]) -> Option<Shape> {
    if src.len() > MAX_SHAPE {
        return None;
    }
    let mut key = Vec::with_capacity(src.len());
    let mut cells = Vec::new();
    let mut from = 0;
    for (i, (tok, span)) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).map(|(t, _)| t);
        if matches!(next, Some(Token::LParen | Token::Bracket(_))) {
            continue;
        }
        let (cell, marker) = match tok {
            Token::Ident(s) => (ident_ref_part(s).and_then(RefPart::cell), WORD),
            Token::Ref(p) => (p.cell(), PIECE),
            _ => continue,
        };
        let Some(cell) = cell else { continue };
        key.extend_from_slice(&src.as_bytes()[from..span.start]);
        key.push(marker);
        from = span.end;
        cells.push((span.into_range(), cell));
    }
    key.extend_from_slice(&src.as_bytes()[from..]);
    let mut h = rustc_hash::FxHasher::default();
    key.hash(&mut h);
    Some(Shape { key, hash: h.finish(), cells })
}

/// The tree of a formula of shape `shape`, from the kept tree of another
/// formula of that shape, if one is kept.
pub(super) fn reuse(shape: &Shape) -> Option<Expr> {
    KEPT.with(|kept| {
        let kept = kept.borrow();
        let k = kept[slot(shape)].kept.as_ref().filter(|k| k.key == shape.key)?;
        let mut tree = k.tree.clone();
        let mut corners = shape.cells.iter().map(|(_, cell)| *cell);
        let moved = |p: usize| match k.cells.partition_point(|s| s.end <= p) {
            0 => p,
            n => p + shape.cells[n - 1].0.end - k.cells[n - 1].end,
        };
        walk(&mut tree, &mut |e| {
            e.span = moved(e.span.start)..moved(e.span.end);
            corners_of(e, &mut |corner| {
                if let Some(c) = corners.next() {
                    *corner = c;
                }
            });
        });
        Some(tree)
    })
}

/// Keeps `tree`, parsed from a formula of shape `shape`, when the shape
/// was the last one seen in its slot and [`reuse`] rebuilds the tree
/// exactly for the formulas of that shape; else notes the shape as seen.
pub(super) fn keep(shape: Shape, tree: &Expr) {
    let at = slot(&shape);
    let again = KEPT.with(|kept| {
        let seen = &mut kept.borrow_mut()[at].seen;
        let again = *seen == Some(shape.hash);
        *seen = Some(shape.hash);
        again
    });
    if !again {
        return;
    }
    let spans: Vec<Span> = shape.cells.iter().map(|(s, _)| s.clone()).collect();
    let inside = |p: usize| spans.get(spans.partition_point(|s| s.end <= p)).is_some_and(|s| s.start < p);
    let mut found = Vec::with_capacity(spans.len());
    let mut fits = true;
    let mut copy = tree.clone();
    walk(&mut copy, &mut |e| {
        fits &= !inside(e.span.start) && !inside(e.span.end);
        corners_of(e, &mut |corner| found.push(*corner));
    });
    if !fits || !found.iter().eq(shape.cells.iter().map(|(_, c)| c)) {
        return;
    }
    KEPT.with(|kept| {
        kept.borrow_mut()[at] = Slot { kept: Some(Kept { key: shape.key, tree: copy, cells: spans }), seen: None }
    });
}

fn slot(shape: &Shape) -> usize {
    (shape.hash % SLOTS as u64) as usize
}

/// Calls `f` on every node of `e`, a node before its children and the
/// children in text order.
fn walk(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    f(e);
    match &mut e.kind {
        ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| walk(a, f)),
        ExprKind::Unary { expr, .. } => walk(expr, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk(lhs, f);
            walk(rhs, f);
        }
        // The leaves: literals, references, names, omitted arguments.
        _ => {}
    }
}

/// Calls `f` on each cell corner (row, column) of the reference `e`, in
/// text order; nothing for any other node.
fn corners_of(e: &mut Expr, f: &mut impl FnMut(&mut (Axis, Axis))) {
    let ExprKind::Ref(r) = &mut e.kind else { return };
    match &mut r.kind {
        RefKind::Cell { row, col } => corner(row, col, f),
        RefKind::Area { r0, c0, r1, c1 } => {
            corner(r0, c0, f);
            corner(r1, c1, f);
        }
        RefKind::Cols { .. } | RefKind::Rows { .. } => {}
    }
}

fn corner(row: &mut Axis, col: &mut Axis, f: &mut impl FnMut(&mut (Axis, Axis))) {
    let mut c = (*row, *col);
    f(&mut c);
    (*row, *col) = c;
}

#[cfg(test)]
mod tests {
    use super::super::{lexer, parse_formula_afresh};
    use super::*;

    fn shape_of(src: &str) -> Shape {
        let (tokens, errors) = lexer::lex(src);
        assert!(errors.is_empty(), "{src}: {errors:?}");
        shape(src, &tokens).unwrap_or_else(|| panic!("{src} has no shape"))
    }

    /// The tree `then` gets from the kept tree of `first`, if any.
    fn reused(first: &str, then: &str) -> Option<Expr> {
        KEPT.with(|kept| kept.borrow_mut().iter_mut().for_each(|k| *k = Slot::default()));
        let tree = parse_formula_afresh(first).unwrap_or_else(|e| panic!("{first}: {e:?}"));
        // Seen once, kept the second time.
        keep(shape_of(first), &tree);
        assert!(reuse(&shape_of(first)).is_none(), "{first} kept at first sight");
        keep(shape_of(first), &tree);
        reuse(&shape_of(then))
    }

    #[test]
    fn a_formula_of_a_kept_shape_is_rebuilt_not_parsed() {
        for (first, then) in [
            ("=A1+1", "=B22+1"),
            ("= SUM( $A$1:A1 ) * 2", "= SUM( $A$1:AB1234 ) * 2"),
            ("Main!A1:B2 C3", "Main!XFD1:B2 D4"),
            ("IF(A1.:.B2,,A$3)", "IF(Q10.:.R20,,ZZ$30)"),
        ] {
            let fresh = parse_formula_afresh(then).unwrap_or_else(|e| panic!("{then}: {e:?}"));
            assert_eq!(reused(first, then), Some(fresh), "{first} then {then}");
        }
    }

    #[test]
    fn other_shapes_and_unkept_trees_are_not_reused() {
        for (first, then) in [
            ("=A1+1", "=A1+2"),
            ("=A1 +1", "=A1+1"),
            ("=A1+1", "=$A1+1"),
            ("=C3", "=$C$3"),
            ("=LOG10(1)", "=LOG11(1)"),
            ("=\"A1\"&A1", "=\"B1\"&A1"),
        ] {
            assert_eq!(reused(first, then), None, "{first} then {then}");
        }
        // Past the length kept, a formula has no shape.
        let long = format!("={}", "A1+".repeat(MAX_SHAPE / 3) + "1");
        assert!(shape(&long, &lexer::lex(&long).0).is_none());
    }
}
