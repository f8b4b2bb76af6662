//! Array constants (`{1,2;3,4}`): rows of literal values, all rows the
//! same length; each missing or invalid value and each row of another
//! length is reported where it is, and the constant stands as `#VALUE!`
//! placeholders so the rest of the formula is still read.

use super::driver::Problem;
use super::lexer::Token;
use super::parser::{Level, placeholder, range};
use crate::ast::{Expr, ExprKind};
use crate::value::{ErrorKind, Value};
use chumsky::input::ValueInput;
use chumsky::prelude::*;

/// `{1,2;3,4}`: rows of literal values, all rows the same length.
pub(super) fn array<'t, I, R>() -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    let sign = select! { Token::Minus => -1.0, Token::Plus => 1.0 };
    let number = sign.or_not().then(select! { Token::Number(n) => n.value });
    let number = number.map(|(sign, n)| Value::Number(sign.unwrap_or(1.0) * n));
    let other = select! {
        Token::Text(s) => Value::text(&s),
        Token::ErrorLit(k) => Value::Error(k),
        Token::Error => Value::Error(ErrorKind::Value),
        Token::Ident(s) if s.eq_ignore_ascii_case("TRUE") => Value::Bool(true),
        Token::Ident(s) if s.eq_ignore_ascii_case("FALSE") => Value::Bool(false),
    };
    let missing = select! {
        Token::Comma = e => e.span(),
        Token::Semi = e => e.span(),
        Token::RBrace = e => e.span(),
    }
    .rewind()
    .validate(|span, _, emitter| {
        emitter.emit(R::custom(span, "missing value in array constant"));
        Value::Error(ErrorKind::Value)
    });
    let invalid = select! {
        tok = e if !matches!(tok, Token::Comma | Token::Semi | Token::RBrace | Token::LBrace) => e.span(),
    }
    .validate(|span, _, emitter| {
        let msg = "array constants hold only numbers, text, TRUE/FALSE and error values";
        emitter.emit(R::custom(span, msg));
        Value::Error(ErrorKind::Value)
    });
    let values = choice((number, other, missing, invalid))
        .separated_by(just(Token::Comma))
        .at_least(1)
        .collect::<Vec<_>>()
        .map_with(|values, e| (values, e.span()));
    values
        .separated_by(just(Token::Semi))
        .at_least(1)
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBrace), just(Token::RBrace))
        .validate(|rows, e, emitter| {
            let width = rows[0].0.len();
            for (values, span) in &rows[1..] {
                if values.len() != width {
                    let msg = format!(
                        "array rows must have the same length: this row has {}, the first has {}",
                        plural(values.len()),
                        plural(width)
                    );
                    emitter.emit(R::custom(*span, msg));
                }
            }
            let rows = rows.into_iter().map(|(values, _)| values).collect();
            Expr::new(ExprKind::Array(rows), range(e.span()))
        })
        .recover_with(via_parser(nested_delimiters(
            Token::LBrace,
            Token::RBrace,
            [(Token::LParen, Token::RParen)],
            |span| placeholder(range(span)),
        )))
        .boxed()
}

fn plural(n: usize) -> String {
    crate::words::plural(n as u64, "value")
}
