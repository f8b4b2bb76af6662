//! Trim references (`A1:.E10` trailing, `A1.:E10` leading, `A1.:.E10`
//! both, `A:.A`): the lexer's `:.`, `.:` and `.:.` tokens come whole
//! except where a leading dot was read into the word or number before it
//! ([`split_trims`] moves it back); the parser wraps the reference in
//! [`UnaryOp::Trim`] ([`trimmed`]), and reads Excel's stored form
//! `_TRO_TRAILING(A1:E10)` as the same ([`trim_call`]).

use super::lexer::{Token, ident_ref_part};
use crate::ast::{Expr, ExprKind, RefExpr, Span, Trim, UnaryOp};
use chumsky::span::SimpleSpan;

/// Splits the dot of a leading trim (`A1.:E10`, `A.:.A`, `1.:10`) off the
/// word or number before it, where the lexer read it as part of that
/// token (`A1.` is a word, `1.` a number): a reference piece directly
/// followed by `:` or `:.` becomes the piece and `.:` or `.:.`. Other
/// words keep their dot (`x.:A1` is the name `x.` and a range).
pub(super) fn split_trims(mut tokens: Vec<(Token, SimpleSpan)>) -> Vec<(Token, SimpleSpan)> {
    for i in 1..tokens.len() {
        let (before, after) = tokens.split_at_mut(i);
        let ((prev, prev_span), (next, next_span)) = (&mut before[i - 1], &mut after[0]);
        let joined = match next {
            Token::Colon => Trim::Leading,
            Token::TrimColon(Trim::Trailing) => Trim::Both,
            _ => continue,
        };
        if prev_span.end != next_span.start {
            continue;
        }
        let piece = match prev {
            Token::Ident(s) => {
                s.strip_suffix('.').filter(|p| ident_ref_part(p).is_some()).map(|p| Token::Ident(p.into()))
            }
            Token::Number(n) => n.without_dot().map(Token::Number),
            _ => None,
        };
        if let Some(piece) = piece {
            *prev = piece;
            *prev_span = (prev_span.start..prev_span.end - 1).into();
            *next = Token::TrimColon(joined);
            *next_span = (next_span.start - 1..next_span.end).into();
        }
    }
    tokens
}

/// A reference, wrapped in its trim when written with one.
pub(super) fn trimmed(r: RefExpr, trim: Option<Trim>, span: Span) -> Expr {
    let r = Expr::new(ExprKind::Ref(r), span.clone());
    match trim {
        Some(t) => Expr::new(ExprKind::Unary { op: UnaryOp::Trim(t), expr: Box::new(r) }, span),
        None => r,
    }
}

/// A call; the one-argument call of a trim reference's stored function
/// (`_TRO_TRAILING(A1:E10)`, as an xlsx holds `A1:.E10`) is the trim.
pub(super) fn trim_call(name: String, mut args: Vec<Expr>, span: Span) -> Expr {
    let trim = Trim::ALL.into_iter().find(|t| t.stored_name() == name);
    match trim {
        Some(t) if args.len() == 1 && args[0].kind != ExprKind::Missing => {
            Expr::new(ExprKind::Unary { op: UnaryOp::Trim(t), expr: Box::new(args.remove(0)) }, span)
        }
        _ => Expr::new(ExprKind::Call { name, args }, span),
    }
}
