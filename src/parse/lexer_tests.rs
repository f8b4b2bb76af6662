//! Token-level tests of the lexer: cell-like words, `$` pieces, sheet
//! prefixes, error literals, numbers, strings, trim operators, and bad
//! input that becomes error tokens without stopping the lexer.

use super::*;

/// The tokens of `src` and the messages of its lexing errors.
fn lexed(src: &str) -> (Vec<Token>, Vec<String>) {
    let (tokens, errors) = lex(src);
    (tokens.into_iter().map(|(t, _)| t).collect(), errors.into_iter().map(|e| e.message).collect())
}

fn tokens(src: &str) -> Vec<Token> {
    let (tokens, errors) = lexed(src);
    assert!(errors.is_empty(), "{src:?}: {errors:?}");
    tokens
}

fn rel(index: u32) -> Option<Axis> {
    Some(Axis { index, abs: false })
}

fn abs(index: u32) -> Option<Axis> {
    Some(Axis { index, abs: true })
}

fn ident(text: &str) -> Token {
    Token::Ident(text.into())
}

fn num(text: &str, value: f64) -> Token {
    Token::Number(Num::new(text, value))
}

#[test]
fn plain_words_are_one_ident_whatever_they_name() {
    for word in ["A1", "TAX2024", "XFD1048576", "XFE1", "A1048577", "sol.x", "LOG10", "_x", "Été"] {
        assert_eq!(tokens(word), [ident(word)], "{word}");
    }
    // Which of them are cells is decided later, from the sheet's size.
    assert_eq!(ident_ref_part("A1"), Some(RefPart { col: rel(0), row: rel(0) }));
    assert_eq!(ident_ref_part("TAX2024"), Some(RefPart { col: rel(13_569), row: rel(2023) }));
    assert_eq!(ident_ref_part("XFD1048576"), Some(RefPart { col: rel(16_383), row: rel(1_048_575) }));
    assert_eq!(ident_ref_part("XFE1"), None);
    assert_eq!(ident_ref_part("A1048577"), None);
    assert_eq!(ident_ref_part("AB"), Some(RefPart { col: rel(27), row: None }));
    assert_eq!(tokens("A1:B2"), [ident("A1"), Token::Colon, ident("B2")]);
}

#[test]
fn dollars_make_reference_pieces() {
    assert_eq!(tokens("$A$1"), [Token::Ref(RefPart { col: abs(0), row: abs(0) })]);
    assert_eq!(tokens("A$1"), [Token::Ref(RefPart { col: rel(0), row: abs(0) })]);
    assert_eq!(tokens("$A1"), [Token::Ref(RefPart { col: abs(0), row: rel(0) })]);
    assert_eq!(tokens("$B"), [Token::Ref(RefPart { col: abs(1), row: None })]);
    assert_eq!(tokens("$3"), [Token::Ref(RefPart { col: None, row: abs(2) })]);
    assert_eq!(
        tokens("$D$4:L$12"),
        [
            Token::Ref(RefPart { col: abs(3), row: abs(3) }),
            Token::Colon,
            Token::Ref(RefPart { col: rel(11), row: abs(11) })
        ]
    );
    assert_eq!(lexed("$XFE$1"), (vec![Token::Error], vec!["column XFE is beyond XFD".to_string()]));
    assert_eq!(lexed("A$2000000"), (vec![Token::Error], vec!["row 2000000 is beyond 1048576".to_string()]));
}

#[test]
fn sheet_prefixes_are_one_token() {
    assert_eq!(tokens("Sheet1!A1"), [Token::Sheet("Sheet1".into()), ident("A1")]);
    assert_eq!(tokens("'My Sheet'!A1"), [Token::Sheet("My Sheet".into()), ident("A1")]);
    assert_eq!(tokens("'It''s'!$A$1")[0], Token::Sheet("It's".into()));
    assert_eq!(tokens("'2019'!A1")[0], Token::Sheet("2019".into()));
    // A forgotten `!` before a reference: the sheet stands in, reported once.
    assert_eq!(
        lexed("'My Sheet'A1"),
        (
            vec![Token::Sheet("My Sheet".into()), ident("A1")],
            vec!["a quoted sheet name must be followed by `!`".to_string()]
        )
    );
    assert_eq!(lexed("''!A1").1, ["empty sheet name"]);
    assert_eq!(lexed("'abc'"), (vec![Token::Error], vec![LexError::SheetWithoutBang(None).message()]));
    assert_eq!(lexed("'Unclosed!A1").1, ["unterminated sheet name: missing closing `'`"]);
}

#[test]
fn error_literals_in_any_case() {
    for kind in ErrorKind::ALL {
        assert_eq!(tokens(kind.text()), [Token::ErrorLit(kind)]);
        assert_eq!(tokens(&kind.text().to_lowercase()), [Token::ErrorLit(kind)]);
    }
    assert_eq!(tokens("#DIV/0!+1"), [Token::ErrorLit(ErrorKind::Div0), Token::Plus, num("1", 1.0)]);
    assert_eq!(tokens("#N/A"), [Token::ErrorLit(ErrorKind::NA)]);
    assert_eq!(lexed("#FOO!"), (vec![Token::Error], vec!["unknown error literal `#FOO!`".to_string()]));
}

#[test]
fn numbers_keep_their_text() {
    assert_eq!(tokens("1e3"), [num("1e3", 1000.0)]);
    assert_eq!(tokens(".5"), [num(".5", 0.5)]);
    assert_eq!(tokens("2."), [num("2.", 2.0)]);
    assert_eq!(tokens("1E-3"), [num("1E-3", 0.001)]);
    assert_eq!(tokens("3:5"), [num("3", 3.0), Token::Colon, num("5", 5.0)]);
    assert_eq!(tokens("50%"), [num("50", 50.0), Token::Percent]);
    assert_eq!(lexed("1e999"), (vec![Token::Error], vec!["number `1e999` is too large".to_string()]));
}

#[test]
fn strings_double_their_quotes() {
    assert_eq!(tokens(r#""a""b""#), [Token::Text("a\"b".into())]);
    assert_eq!(tokens(r#""""#), [Token::Text(String::new())]);
    assert_eq!(tokens(r#""say ""hi""""#), [Token::Text("say \"hi\"".into())]);
    assert_eq!(tokens(r#""a"&"b""#), [Token::Text("a".into()), Token::Amp, Token::Text("b".into())]);
    assert_eq!(lexed(r#""abc"#), (vec![Token::Error], vec!["unterminated string: missing closing `\"`".to_string()]));
}

#[test]
fn operators_and_whitespace() {
    use Token::*;
    assert_eq!(
        tokens("= <> <= >= < > + - * / ^ & % : , ; ( ) { }"),
        [
            Eq, Ne, Le, Ge, Lt, Gt, Plus, Minus, Star, Slash, Caret, Amp, Percent, Colon, Comma, Semi, LParen, RParen,
            LBrace, RBrace
        ]
    );
    assert_eq!(tokens("SUM(\n\tA1 ,\r\n B2\u{A0})").len(), 6);
}

/// `#` after an operand with no error name is the spill operator; `@` the
/// implicit-intersection one. Neither is an error.
#[test]
fn spill_and_at_operators() {
    assert_eq!(tokens("A1#"), [ident("A1"), Token::Hash]);
    assert_eq!(tokens("SUM(A1#)"), [ident("SUM"), Token::LParen, ident("A1"), Token::Hash, Token::RParen]);
    assert_eq!(tokens("@A1"), [Token::At, ident("A1")]);
    assert_eq!(tokens("A1#/2"), [ident("A1"), Token::Hash, Token::Slash, num("2", 2.0)]);
    let (_, errors) = lex("A1#*2+@B1:B3");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(tokens("#REF!"), [Token::ErrorLit(ErrorKind::Ref)]);
}

#[test]
fn bad_input_becomes_an_error_token_and_lexing_goes_on() {
    let (tokens, errors) = lex("1 ~? 2 + #BAD! + \"open");
    let kinds: Vec<&Token> = tokens.iter().map(|(t, _)| t).collect();
    assert_eq!(
        kinds,
        [&num("1", 1.0), &Token::Error, &num("2", 2.0), &Token::Plus, &Token::Error, &Token::Plus, &Token::Error]
    );
    // Adjacent unreadable characters are one token and one error.
    assert_eq!(tokens[1].1, SimpleSpan::from(2..4));
    let messages: Vec<(std::ops::Range<usize>, &str)> =
        errors.iter().map(|e| (e.span.clone(), e.message.as_str())).collect();
    assert_eq!(
        messages,
        [
            (2..4, "unexpected `~?`"),
            (9..14, "unknown error literal `#BAD!`"),
            (17..22, "unterminated string: missing closing `\"`")
        ]
    );
}

#[test]
fn long_runs_of_bad_text_give_short_messages() {
    // 100,000 unreadable characters: one error spanning them all, written
    // once (rebuilding it per character took seconds), quoted shortened.
    let src = format!("1+{}+~~", "~".repeat(100_000));
    let (tokens, errors) = lex(&src);
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0].span, 2..100_002);
    assert_eq!(errors[0].message, format!("unexpected `{}…`", "~".repeat(23)));
    assert_eq!(errors[1].message, "unexpected `~~`");
    assert_eq!(tokens[2].1.into_range(), 2..100_002);
    let (_, errors) = lexed(&format!("#{}", "X".repeat(1000)));
    assert!(errors[0].len() < 60, "{errors:?}");
    let (_, errors) = lexed(&format!("${}1", "Q".repeat(1000)));
    assert!(errors[0].len() < 60, "{errors:?}");
}

#[test]
fn trim_operators_are_one_token_and_take_their_dot_back_from_the_piece_before() {
    use crate::ast::Trim::{Both, Leading, Trailing};
    let trim = Token::TrimColon;
    assert_eq!(tokens("A1:.E10"), [ident("A1"), trim(Trailing), ident("E10")]);
    assert_eq!(tokens("A1.:E10"), [ident("A1"), trim(Leading), ident("E10")]);
    assert_eq!(tokens("A1.:.E10"), [ident("A1"), trim(Both), ident("E10")]);
    assert_eq!(tokens("A.:.C"), [ident("A"), trim(Both), ident("C")]);
    assert_eq!(tokens("1.:10"), [num("1", 1.0), trim(Leading), num("10", 10.0)]);
    assert_eq!(tokens("5:.20"), [num("5", 5.0), trim(Trailing), num("20", 20.0)]);
    let dollar = Token::Ref(RefPart { col: abs(0), row: abs(0) });
    assert_eq!(tokens("$A$1.:.$A$1"), [dollar.clone(), trim(Both), dollar]);
    // A word that is no reference piece keeps its dot; so does a spaced one.
    assert_eq!(tokens("name.:A1"), [ident("name."), Token::Colon, ident("A1")]);
    assert_eq!(tokens("A1. :B2"), [ident("A1."), Token::Colon, ident("B2")]);
}
