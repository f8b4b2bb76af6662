//! How a formula's tokens meet the grammar of `parser`. The grammar is
//! built once a thread, not once a formula (building and dropping it cost
//! about as much as parsing a short formula, and a workbook has
//! thousands), so it reads owned tokens as a stream. It is built twice,
//! over two error types: [`EmptyErr`], which tracks nothing, parses every
//! formula first, and [`Rich`], which records what each failed alternative
//! expected (half the work of a parse), runs again only on a formula that
//! failed, to say what went wrong. The grammar is the same with either
//! error type and its choices never look at an error's content, so the
//! quick parse succeeds exactly when the worded one does
//! (`quick_tests.rs` checks it over the formula corpus and the bad
//! formulas of the error tests).

use super::lexer::Token;
use super::parser::{Extra, formula};
use crate::ast::Expr;
use chumsky::error::{EmptyErr, LabelError};
use chumsky::input::{Input, MappedInput, Stream};
use chumsky::prelude::*;

/// What the grammar asks of its error type: chumsky's, with the labels of
/// expected-token lists and messages of its own. [`Rich`] says what went
/// wrong; [`EmptyErr`] only that something did, and costs nothing to track.
pub(crate) trait Problem<'t, I: Input<'t>>:
    chumsky::error::Error<'t, I> + LabelError<'t, I, &'static str> + 't
{
    fn custom(span: SimpleSpan, msg: impl Into<String>) -> Self;
}

impl<'t, I: Input<'t, Token = Token, Span = SimpleSpan>> Problem<'t, I> for Rich<'t, Token> {
    fn custom(span: SimpleSpan, msg: impl Into<String>) -> Self {
        Rich::custom(span, msg.into())
    }
}

impl<'t, I: Input<'t>> Problem<'t, I> for EmptyErr {
    fn custom(_: SimpleSpan, _: impl Into<String>) -> Self {
        EmptyErr::default()
    }
}

/// The tokens of one formula, as the parser reads them: owned, so that one
/// parser serves every formula a thread reads.
type Tokens = MappedInput<
    'static,
    Token,
    SimpleSpan,
    Stream<std::vec::IntoIter<(Token, SimpleSpan)>>,
    fn((Token, SimpleSpan)) -> (Token, SimpleSpan),
>;

thread_local! {
    static QUICK: Boxed<'static, 'static, Tokens, Expr, Extra<EmptyErr>> = formula().boxed();
    static WORDED: Boxed<'static, 'static, Tokens, Expr, Extra<Rich<'static, Token>>> = formula().boxed();
}

fn input(tokens: &[(Token, SimpleSpan)], eoi: SimpleSpan) -> Tokens {
    Stream::from_iter(tokens.to_vec()).map(eoi, |t| t)
}

/// The quick parse: the tree, and whether anything went wrong.
pub(super) fn quick(tokens: &[(Token, SimpleSpan)], eoi: SimpleSpan) -> (Option<Expr>, bool) {
    let (expr, errors) = QUICK.with(|quick| quick.parse(input(tokens, eoi)).into_output_errors());
    (expr, !errors.is_empty())
}

/// The worded parse: the tree, and every error found.
pub(super) fn worded(tokens: &[(Token, SimpleSpan)], eoi: SimpleSpan) -> (Option<Expr>, Vec<Rich<'static, Token>>) {
    WORDED.with(|worded| worded.parse(input(tokens, eoi)).into_output_errors())
}

/// Parses the tokens of a whole formula ending at `eoi`, with or without
/// its leading `=`: the tree, if any, and every error found.
pub(super) fn parse(tokens: &[(Token, SimpleSpan)], eoi: SimpleSpan) -> (Option<Expr>, Vec<Rich<'static, Token>>) {
    match quick(tokens, eoi) {
        (Some(expr), false) => (Some(expr), Vec::new()),
        _ => worded(tokens, eoi),
    }
}
