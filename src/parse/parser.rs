//! The formula grammar, written with chumsky over the tokens of
//! [`super::lexer`], producing [`crate::ast::Expr`].
//!
//! ```text
//! formula        := "="? expr END
//! expr           := comparison
//! comparison     := concat (("=" | "<>" | "<" | ">" | "<=" | ">=") concat)*
//! concat         := additive ("&" additive)*
//! additive       := multiplicative (("+" | "-") multiplicative)*
//! multiplicative := power (("*" | "/") power)*
//! power          := postfix ("^" postfix)*
//! postfix        := prefix "%"*
//! prefix         := ("-" | "+" | "@")* intersection
//! intersection   := range (SPACE range)*
//! range          := spilled (":" spilled)*
//! spilled        := primary "#"*
//! primary        := table | call | reference | WORD | NUMBER | STRING
//!                 | ERROR | array
//! table          := WORD? BRACKET   (a structured reference, `structured.rs`)
//! grouped        := expr, with union (see below) above intersection
//! union          := intersection ("," intersection)*
//! call           := (WORD args | "(" grouped ")") args*
//! args           := "(" (")" | arg ("," arg)* ")")
//! arg            := expr | (nothing: an omitted argument)
//! reference      := SHEET? (column sep column | row sep row
//!                          | cell sep cell | cell)
//! sep            := ":" | ":." | ".:" | ".:."   (the last three: trims)
//! array          := "{" values (";" values)* "}"
//! values         := value ("," value)*
//! value          := ("-" | "+")? NUMBER | STRING | TRUE | FALSE | ERROR
//! ```
//!
//! A WORD is a cell when it reads as one (`AB12`, column up to XFD, row up
//! to 1048576), a column when it is letters up to XFD and followed by `:`
//! and another column, TRUE/FALSE when it spells one of those, and a name
//! otherwise; any WORD followed by `(` is a function (`LOG10(`, `TRUE()`).
//! A row is a plain integer (`3:5`). Two cells joined by `:` form one
//! [`RefKind::Area`], whatever the spacing; a `:` between anything else is
//! the [`BinaryOp::Range`] operator (`INDEX(a,1,1):B2`).
//!
//! SPACE is whitespace between the end of a reference operand (a word, a
//! `$` piece, a `)`, a row after `:`) and the start of another (a word, a
//! `$` piece, a sheet prefix, a `(`, a row before `:`): Excel's
//! intersection operator (`A1:A5 A3:B4`, `rowname colname`), marked by the
//! lexer. Whitespace anywhere else separates tokens and means nothing
//! (`IF( A1 , B1 )`, `A1 :B2`), and a word followed by a space and `(` is
//! still a call. Inside parentheses (not an argument list), `,` is the
//! union operator: `SUM((A1,A3:B4))` has one argument of two areas.
//!
//! Precedence, highest first (every binary operator is left-associative,
//! `^` included, as in Excel: `2^3^2` is 64). The reference operators bind
//! tightest, as in Excel: `:`, then space, then `,`. Prefix minus binds
//! tighter than `^`, so `-2^2` is `(-2)^2` = 4. The numbers are the binding
//! powers defined by [`binary_power`] and [`unary_power`], the one table
//! both the parser and the printer use:
//!
//! | power | operators                         |
//! |-------|-----------------------------------|
//! | 11    | postfix `#` (spill range)         |
//! | 10    | `:` range                         |
//! | 9     | ` ` intersection                  |
//! | 8     | `,` union (inside parentheses)    |
//! | 7     | prefix `-` `+` `@`                |
//! | 6     | postfix `%`                       |
//! | 5     | `^`                               |
//! | 4     | `*` `/`                           |
//! | 3     | `+` `-`                           |
//! | 2     | `&`                               |
//! | 1     | `=` `<>` `<` `>` `<=` `>=`        |
//!
//! The five levels from `comparison` to `power` are read as one flat chain
//! of operands and operators and folded by binding power (`climb`), which
//! builds the same trees as the levels above with one try at an operator
//! after each operand instead of one a level.
//!
//! A trim reference (`A1:.E10`, `A1.:E10`, `A1.:.E10`, `A:.A`, `1.:5`) is
//! the reference wrapped in [`UnaryOp::Trim`], and so is a call of the
//! function an xlsx stores it as (`_TRO_TRAILING(A1:E10)`, one argument),
//! which prints back as the operator when it wraps a range. Trims join
//! reference pieces only, not computed operands (`A1:.INDEX(...)`).
//!
//! An omitted argument (`IF(A1,,2)`, `IF(TRUE,)`) is an
//! [`ExprKind::Missing`]; `F()` is a call with no arguments. Omitted array
//! values (`{1,,2}`) are reported as errors. Errors inside parentheses,
//! argument lists and arrays are recovered from by skipping to the
//! matching closing bracket, so one formula can report several.

use super::array::array;
use super::driver::Problem;
use super::lexer::{RefPart, Token, ident_ref_part};
use crate::ast::{BinaryOp, Expr, ExprKind, RefExpr, RefKind, Span, TableRef, UnaryOp};
use crate::value::ErrorKind;
use chumsky::input::ValueInput;
use chumsky::prelude::*;
use chumsky::primitive::select;
use std::iter::Peekable;
use std::vec;

/// The binding power of something that is not an operator (a literal, a
/// reference, a call, a name): higher than any operator.
pub(crate) const ATOM_POWER: u8 = 11;

/// How tightly a binary operator binds (see the table in the module doc).
pub(crate) fn binary_power(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Range => 10,
        Intersect => 9,
        Union => 8,
        Pow => 5,
        Mul | Div => 4,
        Add | Sub => 3,
        Concat => 2,
        Eq | Ne | Lt | Gt | Le | Ge => 1,
    }
}

/// How tightly a unary operator binds (see the table in the module doc).
pub(crate) fn unary_power(op: UnaryOp) -> u8 {
    match op {
        UnaryOp::Spill => 11,
        UnaryOp::Neg | UnaryOp::Plus | UnaryOp::At => 7,
        UnaryOp::Percent => 6,
        UnaryOp::Trim(_) => binary_power(BinaryOp::Range),
    }
}

/// The binary operator a token spells, if any.
pub(crate) fn binary_op(tok: &Token) -> Option<BinaryOp> {
    use BinaryOp as B;
    Some(match tok {
        Token::Colon => B::Range,
        Token::Space => B::Intersect,
        Token::Caret => B::Pow,
        Token::Star => B::Mul,
        Token::Slash => B::Div,
        Token::Plus => B::Add,
        Token::Minus => B::Sub,
        Token::Amp => B::Concat,
        Token::Eq => B::Eq,
        Token::Ne => B::Ne,
        Token::Lt => B::Lt,
        Token::Gt => B::Gt,
        Token::Le => B::Le,
        Token::Ge => B::Ge,
        _ => return None,
    })
}

/// Label of an operand in expected-token lists (see `super::errors`).
pub(crate) const EXPRESSION: &str = "an expression";
/// Label of a binary or postfix operator in expected-token lists.
pub(crate) const OPERATOR: &str = "an operator";
/// Label of what must follow a sheet prefix.
pub(crate) const REFERENCE: &str = "a reference";

pub(super) type Extra<R> = extra::Err<R>;
pub(super) type Level<'t, I, R> = Boxed<'t, 't, I, Expr, Extra<R>>;

pub(super) fn range(span: SimpleSpan) -> Span {
    span.into_range()
}

/// Stands in for a part that had an error (already reported).
pub(super) fn placeholder(span: Span) -> Expr {
    Expr::new(ExprKind::Error(ErrorKind::Value), span)
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.start..rhs.span.end;
    Expr::new(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

fn unary(op: UnaryOp, expr: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Unary { op, expr: Box::new(expr) }, span)
}

/// A word that is not a function call: boolean, cell or name.
fn word(s: &str, span: Span) -> Expr {
    let kind = if s.eq_ignore_ascii_case("TRUE") {
        ExprKind::Bool(true)
    } else if s.eq_ignore_ascii_case("FALSE") {
        ExprKind::Bool(false)
    } else if let Some((row, col)) = ident_ref_part(s).and_then(RefPart::cell) {
        ExprKind::Ref(RefExpr { sheet: None, kind: RefKind::Cell { row, col } })
    } else {
        ExprKind::Name(s.to_string())
    };
    Expr::new(kind, span)
}

/// A whole formula, with or without its leading `=`.
pub(super) fn formula<'t, I, R>() -> impl Parser<'t, I, Expr, Extra<R>>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    just(Token::Eq).or_not().ignore_then(expression()).then_ignore(end())
}

fn expression<'t, I, R>() -> impl Parser<'t, I, Expr, Extra<R>> + Clone
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    // `plain` is an expression as an argument or a whole formula; `grouped`
    // the inside of parentheses, where `,` is the union operator. Each is
    // made with `recursive`, whose handle to itself is weak: a parser
    // declared with `Recursive::declare` and defined through its own clone
    // holds itself, and was never freed (about 5 KB a formula parsed).
    recursive(|plain| {
        let plain = plain.boxed();
        let grouped = recursive(|grouped| {
            let union = just(Token::Comma).to(BinaryOp::Union).labelled(OPERATOR).boxed();
            operators(binary_level(references(plain.clone(), grouped.boxed()), union))
        });
        operators(references(plain, grouped.boxed()))
    })
}

/// The reference levels (spill, range, intersection) over a primary that
/// reads `plain` expressions (arguments) and `grouped` ones (parentheses).
fn references<'t, I, R>(plain: Level<'t, I, R>, grouped: Level<'t, I, R>) -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    let hash = just(Token::Hash).to_span().labelled(OPERATOR);
    let spilled = primary(plain, grouped)
        .foldl(hash.repeated(), |x: Expr, span: SimpleSpan| {
            let span = x.span.start..span.end;
            unary(UnaryOp::Spill, x, span)
        })
        .boxed();
    let range_level = binary_level(spilled, operator(BinaryOp::Range));
    binary_level(range_level, operator(BinaryOp::Intersect))
}

/// The prefix, postfix and arithmetic levels on top of reference operands.
fn operators<'t, I, R>(references: Level<'t, I, R>) -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    let prefix_op = select! {
        Token::Minus = e => (UnaryOp::Neg, e.span()),
        Token::Plus = e => (UnaryOp::Plus, e.span()),
        Token::At = e => (UnaryOp::At, e.span()),
    };
    let prefix = prefix_op
        .repeated()
        .foldr(references, |(op, span): (UnaryOp, SimpleSpan), x| {
            let span = span.start..x.span.end;
            unary(op, x, span)
        })
        .labelled(EXPRESSION);

    let percent = just(Token::Percent).to_span().labelled(OPERATOR);
    let postfix = prefix.foldl(percent.repeated(), |x: Expr, span: SimpleSpan| {
        let span = x.span.start..span.end;
        unary(UnaryOp::Percent, x, span)
    });

    // The arithmetic and comparison levels are read as one flat chain of
    // operands and operators, then folded by binding power: one attempt at
    // an operator after each operand, not one a level.
    let op = select(|tok: Token, _| binary_op(&tok).filter(|&op| binary_power(op) <= binary_power(BinaryOp::Pow)));
    let postfix = postfix.boxed();
    postfix
        .clone()
        .then(op.labelled(OPERATOR).then(postfix).repeated().collect::<Vec<_>>())
        .map(|(first, rest)| climb(first, &mut rest.into_iter().peekable(), 0))
        .boxed()
}

/// Folds a chain `lhs op operand op operand ...` by binding power, every
/// operator left-associative: takes the operators binding at least `min`
/// and leaves the rest for the caller. Recursion goes one level a tighter
/// power, so at most as deep as there are powers.
fn climb(mut lhs: Expr, rest: &mut Peekable<vec::IntoIter<(BinaryOp, Expr)>>, min: u8) -> Expr {
    while let Some((op, mut rhs)) = rest.next_if(|(op, _)| binary_power(*op) >= min) {
        let power = binary_power(op);
        while rest.peek().is_some_and(|(next, _)| binary_power(*next) > power) {
            rhs = climb(rhs, rest, power + 1);
        }
        lhs = binary(op, lhs, rhs);
    }
    lhs
}

type OpParser<'t, I, R> = Boxed<'t, 't, I, BinaryOp, Extra<R>>;

/// The token of one binary operator.
fn operator<'t, I, R>(op: BinaryOp) -> OpParser<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    select(move |tok: Token, _| binary_op(&tok).filter(|&o| o == op)).labelled(OPERATOR).boxed()
}

/// `operand (op operand)*` folded to the left.
fn binary_level<'t, I, R>(operand: Level<'t, I, R>, op: OpParser<'t, I, R>) -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    operand.clone().foldl(op.then(operand).repeated(), |lhs, (op, rhs)| binary(op, lhs, rhs)).boxed()
}

/// An operand; `expr` parses arguments, `grouped` the inside of parentheses.
fn primary<'t, I, R>(expr: Level<'t, I, R>, grouped: Level<'t, I, R>) -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    let literal = select! {
        Token::Number(n) = e => Expr::new(ExprKind::Number(n.value), range(e.span())),
        Token::Text(s) = e => Expr::new(ExprKind::Text(s), range(e.span())),
        Token::ErrorLit(k) = e => Expr::new(ExprKind::Error(k), range(e.span())),
        Token::Error = e => placeholder(range(e.span())),
    };
    let word = select! { Token::Ident(s) = e => word(&s, range(e.span())) };
    let incomplete =
        select! { Token::Ref(p) = e if p.cell().is_none() => (p, e.span()) }.validate(|(p, span), _, emitter| {
            let example = match (p.col, p.row) {
                (Some(c), _) => format!("{0}:{0}", super::print::column_text(c)),
                (_, Some(r)) => format!("{0}:{0}", super::print::row_text(r)),
                _ => String::new(),
            };
            emitter.emit(R::custom(span, format!("incomplete reference: write a range such as `{example}`")));
            placeholder(range(span))
        });

    let parens = grouped
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .map_with(|mut x, e| {
            x.span = range(e.span());
            x
        })
        .recover_with(via_parser(nested_delimiters(
            Token::LParen,
            Token::RParen,
            [(Token::LBrace, Token::RBrace)],
            |span| placeholder(range(span)),
        )));

    // A call suffix: `LAMBDA(x, x+1)(5)`, `(f)(2)`, `F(1)(2)` (see [`ExprKind::Call`]).
    // Labelled as an operator: an error after a call or `)` need not offer `(`.
    let suffix = call_args(expr.clone()).map_with(|args, e| (args, range(e.span()))).labelled(OPERATOR);
    let callable =
        call(expr).or(parens).foldl(suffix.repeated(), |callee: Expr, (mut args, span): (Vec<Expr>, Span)| {
            let span = callee.span.start..span.end;
            args.insert(0, callee);
            Expr::new(ExprKind::Call { name: String::new(), args }, span)
        });
    choice((table(), callable, super::reference::reference(), word, literal, incomplete, array()))
        .labelled(EXPRESSION)
        .boxed()
}

/// A structured reference: `Sales[Qty]`, or inside a table `[@Qty]`.
fn table<'t, I, R>() -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    let bracket = select! { Token::Bracket(b) => b };
    let qualified = select! { Token::Ident(s) => Some(s.to_string()) }.then(bracket);
    let alone = bracket.map(|b| (None, b));
    qualified
        .or(alone)
        .validate(|(table, text), e, emitter| {
            let span = range(e.span());
            match super::structured::specifier(&text) {
                Ok((rows, columns)) => Expr::new(ExprKind::Table(TableRef { table, rows, columns }), span),
                Err(m) => {
                    emitter.emit(R::custom(e.span(), m));
                    placeholder(span)
                }
            }
        })
        .boxed()
}

/// `NAME(args)` (see [`call_args`]).
fn call<'t, I, R>(expr: Level<'t, I, R>) -> Level<'t, I, R>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    select! { Token::Ident(name) => name.to_uppercase() }
        .then(call_args(expr))
        .map_with(|(name, args), e| super::trim::trim_call(name, args, range(e.span())))
        .boxed()
}

/// `"(" (")" | arg ("," arg)* ")")`; an omitted argument is an
/// [`ExprKind::Missing`] with an empty span where it would be.
fn call_args<'t, I, R>(expr: Level<'t, I, R>) -> Boxed<'t, 't, I, Vec<Expr>, Extra<R>>
where
    I: ValueInput<'t, Token = Token, Span = SimpleSpan>,
    R: Problem<'t, I>,
{
    let missing = select! { Token::Comma = e => e.span(), Token::RParen = e => e.span() }
        .rewind()
        .map(|span: SimpleSpan| Expr::new(ExprKind::Missing, span.start..span.start));
    let args = just(Token::RParen).to(Vec::new()).or(expr
        .or(missing)
        .separated_by(just(Token::Comma))
        .at_least(1)
        .collect::<Vec<_>>()
        .then_ignore(just(Token::RParen)));
    just(Token::LParen)
        .ignore_then(args)
        .recover_with(via_parser(nested_delimiters(
            Token::LParen,
            Token::RParen,
            [(Token::LBrace, Token::RBrace)],
            |_| Vec::new(),
        )))
        .boxed()
}
