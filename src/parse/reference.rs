//! References in formulas: a cell, an area of two cells, whole columns
//! or whole rows, each with an optional sheet prefix (`reference` in the
//! grammar of [`super::parser`]), and a sheet-qualified name. A WORD or a
//! `$` piece is taken as a column, row or cell part here only where it
//! reads as one ([`super::lexer::RefPart`]); what follows a sheet prefix and
//! is no reference is reported as such.

use super::driver::Problem;
use super::lexer::{Token, ident_ref_part};
use super::parser::{Level, REFERENCE, placeholder, range};
use crate::ast::{Axis, Expr, ExprKind, RefExpr, RefKind, Trim};
use chumsky::input::ValueInput;
use chumsky::prelude::*;
use chumsky::primitive::select;
use std::rc::Rc;

fn column_part(tok: Token) -> Option<Axis> {
    match tok {
        Token::Ref(p) => p.column(),
        Token::Ident(s) => ident_ref_part(&s)?.column(),
        _ => None,
    }
}

fn row_part(tok: Token) -> Option<Axis> {
    match tok {
        Token::Ref(p) => p.row_only(),
        Token::Number(n) => Some(Axis { index: n.row()?, abs: false }),
        _ => None,
    }
}

fn cell_part(tok: Token) -> Option<(Axis, Axis)> {
    match tok {
        Token::Ref(p) => p.cell(),
        Token::Ident(s) => ident_ref_part(&s)?.cell(),
        _ => None,
    }
}

/// A reference with an optional sheet prefix: a cell, an area of two
/// cells, whole columns or whole rows.
pub(super) fn reference<'t, I, R>() -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    // `:`, or a trim reference's `:.`, `.:`, `.:.`.
    let colon = select! { Token::Colon => None, Token::TrimColon(t) => Some(t) };
    let column = select(|tok, _| column_part(tok));
    let row = select(|tok, _| row_part(tok));
    // A cell not followed by `(`: `A1:LOG10(5)` is a range to a call.
    let cell = select(|tok, _| cell_part(tok)).then_ignore(just(Token::LParen).not());
    let body = choice((
        column.then(colon).then(column).map(|((c0, t), c1)| (RefKind::Cols { c0, c1 }, t)),
        row.then(colon).then(row).map(|((r0, t), r1)| (RefKind::Rows { r0, r1 }, t)),
        cell.clone().then(colon.then(cell).or_not()).map(|((r0, c0), end)| match end {
            Some((t, (r1, c1))) => (RefKind::Area { r0, c0, r1, c1 }, t),
            None => (RefKind::Cell { row: r0, col: c0 }, None),
        }),
    ));
    let sheet = select! { Token::Sheet(s) => s };
    // After a sheet prefix an operand that is not a reference is reported
    // as such and skipped; a bracket, separator or operator is left for the
    // rest of the formula.
    let not_reference = select(|tok: Token, e| {
        let operand = tok.ends_operand() && !matches!(tok, Token::RParen | Token::RBrace | Token::Percent);
        operand.then(|| e.span())
    });
    // `Sheet1!Rate`: a name qualified by its sheet (Excel's sheet-local
    // names) is the workbook's name: dataflow has workbook names only.
    // TRUE and FALSE are no names (`x!TRUE` is not a reference).
    let boolean = |s: &str| s.eq_ignore_ascii_case("TRUE") || s.eq_ignore_ascii_case("FALSE");
    let name = select! { Token::Ident(s) if !boolean(&s) => s }.then_ignore(just(Token::LParen).not());
    let after = body.clone().map(Qualified::Ref).or(name.map(Qualified::Name)).or(not_reference.map(Qualified::Not));
    let qualified = sheet.then(after.labelled(REFERENCE)).validate(|(sheet, kind), e, emitter| match kind {
        Qualified::Ref((kind, t)) => super::trim::trimmed(RefExpr { sheet: Some(sheet), kind }, t, range(e.span())),
        Qualified::Name(n) => Expr::new(ExprKind::Name(n.to_string()), range(e.span())),
        Qualified::Not(span) => {
            let msg = format!("expected a reference after `{}`", super::print::sheet_prefix(&sheet));
            emitter.emit(R::custom(span, msg));
            placeholder(range(e.span()))
        }
    });
    let plain = body.map_with(|(kind, t), e| super::trim::trimmed(RefExpr { sheet: None, kind }, t, range(e.span())));
    qualified.or(plain).boxed()
}

/// What follows a sheet prefix.
enum Qualified {
    Ref((RefKind, Option<Trim>)),
    Name(Rc<str>),
    /// An operand that is not a reference, at this span.
    Not(SimpleSpan),
}
