//! The formula lexer: source text to tokens with byte spans, built with
//! `logos`. The lexer never aborts: text it cannot read becomes a
//! [`Token::Error`] in the stream (which the parser accepts as an operand, so
//! the problem is reported once) plus a [`ParseError`] saying what was wrong.
//! Whitespace, including newlines and indentation, separates tokens and is
//! otherwise ignored, except between two references: there it is Excel's
//! intersection operator, a [`Token::Space`] (see [`intersection_between`]).
//!
//! Reference-looking text is split three ways. Plain words such as `A1`,
//! `abc`, `sol.x` or `LOG10` are [`Token::Ident`]; the parser decides whether
//! each is a cell, a column, a boolean, a function or a name, because that
//! depends on what follows. Anything with a `$` (`$A$1`, `A$1`, `$B`, `$3`)
//! can only be a reference piece, so it is checked here and becomes a
//! [`Token::Ref`]. A sheet prefix (`Main!`, `'My Sheet'!`) is one
//! [`Token::Sheet`] token.

use super::ParseError;
use super::errors::quote;
use crate::address::{MAX_ROWS, parse_col, parse_row};
use crate::ast::{Axis, Trim};
use crate::value::ErrorKind;
use chumsky::span::SimpleSpan;
use logos::Logos;
use std::rc::Rc;

/// A number as written: its value, and the row it names when its text is
/// a row number (`3` in `3:5`). A trailing dot (`1.`, read into the number
/// before a trim's `.:`) is kept apart, so that `1.` names no row until
/// [`split_trims`] takes the dot off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Num {
    pub value: f64,
    /// The row named by the digits before any trailing dot.
    digits_row: Option<u32>,
    dot: bool,
}

impl Num {
    pub fn new(text: &str, value: f64) -> Num {
        let (digits, dot) = text.strip_suffix('.').map_or((text, false), |d| (d, true));
        Num { value, digits_row: parse_row(digits), dot }
    }
    /// The row this number names as written (`3` in `3:5`), if any.
    pub fn row(self) -> Option<u32> {
        if self.dot { None } else { self.digits_row }
    }
    /// The number without its trailing dot, when that leaves a row number.
    pub fn without_dot(self) -> Option<Num> {
        (self.dot && self.digits_row.is_some()).then_some(Num { dot: false, ..self })
    }
}

/// A piece of an A1 reference: a cell (`A1`: both), a column (`$B`) or a row
/// (`$3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RefPart {
    pub col: Option<Axis>,
    pub row: Option<Axis>,
}

impl RefPart {
    /// `(row, col)` when this piece is a whole cell.
    pub fn cell(self) -> Option<(Axis, Axis)> {
        Some((self.row?, self.col?))
    }
    /// The column when this piece is a column alone.
    pub fn column(self) -> Option<Axis> {
        if self.row.is_none() { self.col } else { None }
    }
    /// The row when this piece is a row alone.
    pub fn row_only(self) -> Option<Axis> {
        if self.col.is_none() { self.row } else { None }
    }
}

#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(error(LexError, LexError::from_lexer))]
#[logos(skip r"[ \t\r\n\u{A0}]+")]
pub(crate) enum Token {
    #[regex(r"[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?", number)]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?", number)]
    Number(Num),
    #[token("\"", string)]
    Text(String),
    #[token("#", error_literal)]
    ErrorLit(ErrorKind),
    /// A word: cell, column, boolean, function or name; the parser decides.
    #[regex(r"[\p{L}_\\][\p{L}0-9_.\\]*", |lex| Rc::from(lex.slice()))]
    Ident(Rc<str>),
    /// A reference piece with at least one `$`.
    #[regex(r"\$[A-Za-z]+(\$?[0-9]+)?|[A-Za-z]+\$[0-9]+|\$[0-9]+", dollar_ref)]
    Ref(RefPart),
    /// A structured reference's bracketed part, brackets included
    /// (`[Qty]`, `[[#This Row],[Qty]]`): see `structured.rs`.
    #[token("[", bracket)]
    Bracket(Rc<str>),
    /// `Main!` or `'My Sheet'!`, unquoted and unescaped.
    #[regex(r"[\p{L}_\\][\p{L}0-9_.\\]*!", |lex| lex.slice().trim_end_matches('!').to_string())]
    #[token("'", quoted_sheet)]
    Sheet(String),
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("^")]
    Caret,
    #[token("&")]
    Amp,
    #[token("%")]
    Percent,
    /// `#` not starting an error literal: the spill operator (`A1#`).
    Hash,
    #[token("@")]
    At,
    #[token("=")]
    Eq,
    #[token("<>")]
    Ne,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token(":")]
    Colon,
    /// A trim reference's `:` (`A1:.E10`, `A1.:E10`, `A1.:.E10`). A dot
    /// before `:` right after a word or number (`A1.`, `1.`) is split off
    /// it by [`split_trims`].
    #[token(":.", |_| Trim::Trailing)]
    #[token(".:", |_| Trim::Leading)]
    #[token(".:.", |_| Trim::Both)]
    TrimColon(Trim),
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    /// Text the lexer could not read; its error is reported separately.
    Error,
    /// Whitespace between the end of one reference and the start of
    /// another: the intersection operator. Inserted by [`lex`].
    Space,
}

impl Token {
    /// True for tokens that end an operand, after which `+`/`-` are binary
    /// and `(` would not open a new operand.
    pub fn ends_operand(&self) -> bool {
        use Token::*;
        matches!(
            self,
            Number(_)
                | Text(_)
                | ErrorLit(_)
                | Ident(_)
                | Ref(_)
                | Bracket(_)
                | Percent
                | Hash
                | RParen
                | RBrace
                | Error
        )
    }
}

/// What went wrong while lexing, turned into a message by [`LexError::message`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LexError {
    Unexpected(String),
    UnterminatedString,
    UnterminatedSheet,
    UnterminatedBracket,
    /// With the name when a reference follows (`'My Sheet'A1`).
    SheetWithoutBang(Option<String>),
    EmptySheet,
    UnknownErrorLiteral(String),
    NumberTooLarge(String),
    BadReference(String),
    /// A `#` with no error name after it: the spill operator, no error.
    Hash,
}

impl Default for LexError {
    fn default() -> Self {
        LexError::Unexpected(String::new())
    }
}

impl LexError {
    fn from_lexer(lex: &mut logos::Lexer<'_, Token>) -> Self {
        LexError::Unexpected(lex.slice().to_string())
    }

    /// The token standing in for the unreadable text: the sheet prefix that
    /// was meant when that is clear, so parsing goes on as if it were
    /// written right; else [`Token::Error`].
    fn stand_in(self) -> Token {
        match self {
            LexError::SheetWithoutBang(Some(name)) => Token::Sheet(name),
            LexError::EmptySheet => Token::Sheet(String::new()),
            LexError::Hash => Token::Hash,
            _ => Token::Error,
        }
    }

    pub fn message(&self) -> String {
        match self {
            LexError::Unexpected(s) => format!("unexpected `{}`", quote(s)),
            LexError::UnterminatedString => "unterminated string: missing closing `\"`".into(),
            LexError::UnterminatedSheet => "unterminated sheet name: missing closing `'`".into(),
            LexError::UnterminatedBracket => "unterminated structured reference: missing closing `]`".into(),
            LexError::SheetWithoutBang(Some(_)) => "a quoted sheet name must be followed by `!`".into(),
            LexError::SheetWithoutBang(None) => {
                "a quoted sheet name must be followed by `!` (text is written in double quotes)".into()
            }
            LexError::EmptySheet => "empty sheet name".into(),
            LexError::UnknownErrorLiteral(s) => format!("unknown error literal `{}`", quote(s)),
            LexError::NumberTooLarge(s) => format!("number `{}` is too large", quote(s)),
            LexError::BadReference(m) => m.clone(),
            LexError::Hash => "`#` after something other than a cell".into(),
        }
    }
}

/// After an opening `[`: the whole bracketed text (nested brackets and `'`
/// escapes included).
fn bracket(lex: &mut logos::Lexer<'_, Token>) -> Result<Rc<str>, LexError> {
    let whole = &lex.source()[lex.span().start..];
    match super::structured::bracket_len(whole) {
        Some(n) => {
            lex.bump(n - 1);
            Ok(Rc::from(lex.slice()))
        }
        None => {
            lex.bump(lex.remainder().len());
            Err(LexError::UnterminatedBracket)
        }
    }
}

fn number(lex: &mut logos::Lexer<'_, Token>) -> Result<Num, LexError> {
    let text = lex.slice();
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(Num::new(text, value)),
        _ => Err(LexError::NumberTooLarge(text.to_string())),
    }
}

/// After an opening `"`: everything up to the closing quote, with `""`
/// standing for one `"`.
fn string(lex: &mut logos::Lexer<'_, Token>) -> Result<String, LexError> {
    let (text, len) = quoted(lex.remainder(), '"').ok_or_else(|| {
        lex.bump(lex.remainder().len());
        LexError::UnterminatedString
    })?;
    lex.bump(len);
    Ok(text)
}

/// After an opening `'`: a quoted sheet name (`''` is one `'`) and its `!`.
fn quoted_sheet(lex: &mut logos::Lexer<'_, Token>) -> Result<String, LexError> {
    let (name, len) = quoted(lex.remainder(), '\'').ok_or_else(|| {
        lex.bump(lex.remainder().len());
        LexError::UnterminatedSheet
    })?;
    lex.bump(len);
    if !lex.remainder().starts_with('!') {
        // Followed by a reference, the `!` was forgotten; otherwise this was
        // probably meant as text.
        let reference_follows = lex.remainder().starts_with(|c: char| c.is_ascii_alphanumeric() || c == '$');
        return Err(LexError::SheetWithoutBang(reference_follows.then_some(name)));
    }
    lex.bump(1);
    if name.is_empty() {
        return Err(LexError::EmptySheet);
    }
    Ok(name)
}

/// Reads quoted text whose opening quote was already consumed: the unescaped
/// text and the byte length consumed including the closing quote, or None
/// when the quote is never closed.
fn quoted(rest: &str, quote: char) -> Option<(String, usize)> {
    let mut text = String::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != quote {
            text.push(c);
        } else if chars.peek().is_some_and(|&(_, next)| next == quote) {
            text.push(quote);
            chars.next();
        } else {
            return Some((text, i + 1));
        }
    }
    None
}

/// After `#`: one of Excel's seven error literals (any case), else an
/// unknown-literal error spanning the word that follows.
fn error_literal(lex: &mut logos::Lexer<'_, Token>) -> Result<ErrorKind, LexError> {
    let rest = lex.remainder();
    for kind in ErrorKind::ALL {
        let body = &kind.text()[1..];
        if rest.get(..body.len()).is_some_and(|s| s.eq_ignore_ascii_case(body)) {
            lex.bump(body.len());
            return Ok(kind);
        }
    }
    // Every error's name starts with a letter: anything else after `#` is
    // the spill operator (`A1#`, `A1#/2`).
    if !rest.starts_with(|c: char| c.is_alphabetic()) {
        return Err(LexError::Hash);
    }
    let mut len = rest.find(|c: char| !(c.is_alphanumeric() || matches!(c, '/' | '_' | '.'))).unwrap_or(rest.len());
    if rest[len..].starts_with(['!', '?']) {
        len += 1;
    }
    lex.bump(len);
    Err(LexError::UnknownErrorLiteral(lex.slice().to_string()))
}

fn dollar_ref(lex: &mut logos::Lexer<'_, Token>) -> Result<RefPart, LexError> {
    ref_part(lex.slice()).map_err(LexError::BadReference)
}

/// Parses a reference piece: `[$]letters[$]digits`, `[$]letters` or
/// `[$]digits`. Errors name the column or row that does not exist.
pub(crate) fn ref_part(s: &str) -> Result<RefPart, String> {
    let (col_abs, rest) = strip_dollar(s);
    let split = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    let (letters, rest) = rest.split_at(split);
    let (row_abs, digits) = strip_dollar(rest);
    let (col_abs, row_abs) = if letters.is_empty() { (false, col_abs) } else { (col_abs, row_abs) };
    let col = match letters {
        "" => None,
        l => Some(Axis { index: column(l)?, abs: col_abs }),
    };
    let row = match digits {
        "" => None,
        d => Some(Axis { index: row(d)?, abs: row_abs }),
    };
    if col.is_none() && row.is_none() {
        return Err(format!("`{s}` is not a reference"));
    }
    Ok(RefPart { col, row })
}

fn strip_dollar(s: &str) -> (bool, &str) {
    match s.strip_prefix('$') {
        Some(rest) => (true, rest),
        None => (false, s),
    }
}

fn column(letters: &str) -> Result<u32, String> {
    parse_col(letters).ok_or_else(|| format!("column {} is beyond XFD", quote(&letters.to_ascii_uppercase())))
}

fn row(digits: &str) -> Result<u32, String> {
    parse_row(digits).ok_or_else(|| match digits.parse::<u64>() {
        Ok(n) if n <= u64::from(MAX_ROWS) => {
            format!("row `{digits}` does not exist (rows are 1 to {MAX_ROWS})")
        }
        _ => format!("row {} is beyond {MAX_ROWS}", quote(digits)),
    })
}

/// Reads a plain word as a cell (`AB12`) or a column (`AB`) when it is one
/// of the sheet's; words past XFD or row 1048576 are names.
pub(crate) fn ident_ref_part(s: &str) -> Option<RefPart> {
    let split = s.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(s.len());
    let (letters, digits) = s.split_at(split);
    let col = Some(Axis { index: parse_col(letters)?, abs: false });
    let row = match digits {
        "" => None,
        d => Some(Axis { index: parse_row(d)?, abs: false }),
    };
    Some(RefPart { col, row })
}

/// True when `s` lexes as one [`Token::Ident`] (so it can be written as a
/// sheet name without quotes).
pub(crate) fn is_ident(s: &str) -> bool {
    let mut lex = Token::lexer(s);
    matches!(lex.next(), Some(Ok(Token::Ident(_)))) && lex.span() == (0..s.len())
}

/// True when `tok` (after `before`) can end a reference operand: a word, a
/// `$` reference piece, a `)`, or a row number after `:` (`3:5`).
pub(crate) fn ends_reference(before: Option<&Token>, tok: &Token) -> bool {
    matches!(tok, Token::Ident(_) | Token::Ref(_) | Token::RParen)
        || matches!((before, tok), (Some(Token::Colon | Token::TrimColon(_)), Token::Number(_)))
}

/// True when `tok` (before `after`) can start a reference operand: a word,
/// a `$` reference piece, a sheet prefix, a `(`, or a row number before `:`.
pub(crate) fn starts_reference(tok: &Token, after: Option<&Token>) -> bool {
    matches!(tok, Token::Ident(_) | Token::Ref(_) | Token::Sheet(_) | Token::LParen)
        || matches!((tok, after), (Token::Number(_), Some(Token::Colon | Token::TrimColon(_))))
}

/// Whether whitespace between the tokens `[before] prev | next [after]` is
/// the intersection operator: it ends one reference operand and starts
/// another. A word that is not a cell, followed by `(`, stays a function
/// call (`SUM (A1)`); a cell is intersected (`A1:A5 (A2,A3)`).
pub(crate) fn intersection_between(before: Option<&Token>, prev: &Token, next: &Token, after: Option<&Token>) -> bool {
    let call = match (prev, next) {
        (Token::Ident(s), Token::LParen) => ident_ref_part(s).and_then(RefPart::cell).is_none(),
        _ => false,
    };
    ends_reference(before, prev) && starts_reference(next, after) && !call
}

/// Inserts a [`Token::Space`] wherever whitespace separates two references
/// (see [`intersection_between`]); the token spans the whitespace.
fn mark_intersections(tokens: Vec<(Token, SimpleSpan)>) -> Vec<(Token, SimpleSpan)> {
    let mut out: Vec<(Token, SimpleSpan)> = Vec::with_capacity(tokens.len());
    for (i, (tok, span)) in tokens.iter().enumerate() {
        if let Some((prev, prev_span)) = i.checked_sub(1).map(|p| &tokens[p])
            && prev_span.end < span.start
        {
            let before = i.checked_sub(2).map(|b| &tokens[b].0);
            let after = tokens.get(i + 1).map(|(t, _)| t);
            if intersection_between(before, prev, tok, after) {
                out.push((Token::Space, (prev_span.end..span.start).into()));
            }
        }
        out.push((tok.clone(), *span));
    }
    out
}

/// Lexes a whole formula. Every lexing problem is returned as an error and
/// leaves a [`Token::Error`] in the stream; adjacent unreadable characters
/// are reported together (their message is written once the run ends, so a
/// long run costs its length, not its square).
pub(crate) fn lex(src: &str) -> (Vec<(Token, SimpleSpan)>, Vec<ParseError>) {
    let mut tokens = Vec::new();
    let mut errors: Vec<ParseError> = Vec::new();
    // The errors for runs of unreadable characters, whose message is written at the end.
    let mut runs: Vec<usize> = Vec::new();
    // End of the last unreadable-character error, to merge runs of them.
    let mut run_end = None;
    for (result, span) in Token::lexer(src).spanned() {
        match result {
            Ok(tok) => {
                tokens.push((tok, span.into()));
                run_end = None;
            }
            Err(LexError::Unexpected(_)) if run_end == Some(span.start) && !errors.is_empty() => {
                let last = errors.len() - 1;
                errors[last].span.end = span.end;
                if let Some(last) = tokens.last_mut() {
                    last.1 = errors[errors.len() - 1].span.clone().into();
                }
                run_end = Some(span.end);
            }
            Err(LexError::Hash) => {
                tokens.push((Token::Hash, span.into()));
                run_end = None;
            }
            Err(e) => {
                if matches!(e, LexError::Unexpected(_)) {
                    run_end = Some(span.end);
                    runs.push(errors.len());
                } else {
                    run_end = None;
                }
                errors.push(ParseError { span: span.clone(), message: e.message() });
                tokens.push((e.stand_in(), span.into()));
            }
        }
    }
    for i in runs {
        let err = &mut errors[i];
        err.message = LexError::Unexpected(src[err.span.clone()].to_string()).message();
    }
    (mark_intersections(super::trim::split_trims(tokens)), errors)
}

#[cfg(test)]
#[path = "lexer_tests.rs"]
mod tests;
