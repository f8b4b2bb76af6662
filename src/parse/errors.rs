//! Turns chumsky's parse errors into [`ParseError`]s with short messages
//! written for people editing a formula: "unexpected `)`", "expected an
//! expression after `+`", "unclosed `(`". The message quotes the source text
//! at the error (never a token's debug form), and an error at the end of
//! the formula points at the token it concerns (the dangling operator, the
//! unclosed bracket) rather than at an empty span past the end.

use super::ParseError;
use super::lexer::Token;
use super::parser::{EXPRESSION, OPERATOR, REFERENCE};
use chumsky::error::{Rich, RichPattern, RichReason};
use chumsky::span::SimpleSpan;

/// Tokens with their spans, as lexed.
type Tokens = [(Token, SimpleSpan)];

/// The longest piece of source quoted in a message, in characters.
const MAX_QUOTE: usize = 24;

/// Converts one chumsky error. `tokens` are the lexed tokens of `src`.
/// Errors about a token the lexer could not read are dropped: the lexer
/// has reported that text already.
pub(crate) fn convert(err: &Rich<'_, Token>, src: &str, tokens: &Tokens) -> Option<ParseError> {
    let span = err.span().into_range();
    let (expected, found) = match err.reason() {
        RichReason::Custom(message) => {
            return Some(ParseError { span, message: message.clone() });
        }
        RichReason::ExpectedFound { found: Some(tok), .. } if **tok == Token::Error => return None,
        RichReason::ExpectedFound { expected, found } => (expected, found.is_some()),
    };
    Some(explain(expected, found, span, src, tokens))
}

/// Words an "expected this, found that" error; `found` is false at the end
/// of the formula.
fn explain(
    expected: &[RichPattern<'_, Token>],
    found: bool,
    span: std::ops::Range<usize>,
    src: &str,
    tokens: &Tokens,
) -> ParseError {
    let labels: Vec<String> = expected.iter().filter_map(describe).collect();
    let wanted = [EXPRESSION, REFERENCE].into_iter().find(|l| labels.iter().any(|x| x == l));

    // The token just before the error, unless it is the formula's leading `=`.
    let prev_index = tokens.iter().rposition(|(_, s)| s.end <= span.start);
    let prev =
        prev_index.filter(|&i| !(i == 0 && tokens[0].0 == Token::Eq)).map(|i| (&tokens[i].0, tokens[i].1.into_range()));
    let dangling = prev.as_ref().filter(|(tok, _)| !tok.ends_operand());

    if found {
        let text = quote(&src[span.clone()]);
        let message = match (wanted, dangling) {
            (Some(what), Some((_, at))) => {
                format!("expected {what} after `{}`, found `{text}`", quote(&src[at.clone()]))
            }
            _ => format!("unexpected `{text}`{}", expected_phrase(&labels)),
        };
        return ParseError { span, message };
    }

    // At the end of the formula.
    if let Some(what) = wanted {
        return match prev {
            Some((_, at)) => {
                let message = format!("expected {what} after `{}`", quote(&src[at.clone()]));
                ParseError { span: at, message }
            }
            None => ParseError { span: 0..src.len(), message: "empty formula".into() },
        };
    }
    for (open, close) in [(Token::LParen, Token::RParen), (Token::LBrace, Token::RBrace)] {
        if labels.contains(&format!("`{}`", token_text(&close)))
            && let Some(at) = unclosed(tokens, &open, &close)
        {
            let (open, close) = (token_text(&open), token_text(&close));
            let message = format!("unclosed `{open}`: missing `{close}`");
            return ParseError { span: at, message };
        }
    }
    ParseError { span, message: format!("unexpected end of formula{}", expected_phrase(&labels)) }
}

/// What an expected pattern means in a message, or None for patterns that
/// would only add noise.
fn describe(pattern: &RichPattern<'_, Token>) -> Option<String> {
    match pattern {
        RichPattern::Label(l) => Some(l.to_string()),
        RichPattern::Token(t) => match &**t {
            t if super::parser::binary_op(t).is_some() => Some(OPERATOR.into()),
            t => Some(format!("`{}`", token_text(t))),
        },
        RichPattern::EndOfInput => Some("the end of the formula".into()),
        _ => None,
    }
}

/// ", expected a, b or c" from labels, deduplicated; empty when there are
/// none.
fn expected_phrase(labels: &[String]) -> String {
    let mut unique: Vec<&str> = Vec::new();
    for l in labels {
        if !unique.contains(&l.as_str()) {
            unique.push(l);
        }
    }
    // The end of the formula reads best last.
    unique.sort_by_key(|l| l.starts_with("the end"));
    match unique.as_slice() {
        [] => String::new(),
        [one] => format!(", expected {one}"),
        [init @ .., last] => format!(", expected {} or {last}", init.join(", ")),
    }
}

/// The text of a punctuation token, for messages.
fn token_text(tok: &Token) -> &'static str {
    match tok {
        Token::LParen => "(",
        Token::RParen => ")",
        Token::LBrace => "{",
        Token::RBrace => "}",
        Token::Comma => ",",
        Token::Semi => ";",
        Token::Percent => "%",
        Token::Hash => "#",
        Token::At => "@",
        Token::Colon => ":",
        Token::Eq => "=",
        Token::Plus => "+",
        Token::Minus => "-",
        _ => "token",
    }
}

/// The span of the innermost bracket `open` left unclosed at the end.
fn unclosed(tokens: &Tokens, open: &Token, close: &Token) -> Option<std::ops::Range<usize>> {
    let mut stack = Vec::new();
    for (tok, span) in tokens {
        if tok == open {
            stack.push(span.into_range());
        } else if tok == close {
            stack.pop();
        }
    }
    stack.pop()
}

/// Source text for a message, shortened when long.
pub(crate) fn quote(s: &str) -> String {
    if s.chars().count() <= MAX_QUOTE {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX_QUOTE - 1).collect();
        format!("{head}…")
    }
}
