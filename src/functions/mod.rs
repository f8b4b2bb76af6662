//! The function registry. Each category module exports one const table,
//! `FUNCTIONS`, of [`FnSpec`] entries whose bodies live in the same file;
//! [`lookup()`] searches them all. A function receives its arguments
//! unevaluated (so IF, IFERROR, CHOOSE and LET evaluate only what they need)
//! together with the evaluator; the shared helpers in [`args`] read them
//! with Excel's coercions.
//!
//! Each entry also states the function's *contract*: whether it is
//! volatile, whether it returns a reference, and how it uses each argument
//! ([`Arg`]). The binder (`eval::bind`) and the dependency walk
//! (`eval::deps`) read the contract, never a function's name. It states
//! too what the file formats need to know of the function: the Excel
//! version that brought it ([`Excel`]; an xlsx writes the newer ones as
//! `_xlfn.NAME`), LibreOffice's OpenFormula name where it differs, and
//! whether LibreOffice 7.4 has it. The writers (`export`) ask the entry;
//! they keep no list of names.

pub mod args;
pub mod arrays;
pub mod criteria;
pub mod database;
pub mod date;
pub mod distributions;
pub mod engineering;
pub mod finance;
pub mod info;
pub mod lambda;
pub mod logical;
pub mod lookup;
pub mod math;
pub mod stats;
#[cfg(test)]
mod tests_dense;
pub mod text;
pub mod text_more;

use crate::eval::{BExpr, Eval};
use crate::value::Value;
use std::fmt;

/// How a function is evaluated: unevaluated arguments in, a value out.
pub type EvalFn = fn(&mut Eval, &[BExpr]) -> Value;

/// Upper bound used for "any number of arguments" (Excel allows 255).
pub const VARIADIC: usize = 255;

/// How a function uses one of its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Evaluated and read as a value, or walked as a range (SUM's, COUNTIF's).
    Value,
    /// Only its rectangle (position and size) is used, never its cells:
    /// ROW's and COLUMNS' argument, INDEX's base. A call whose arguments are
    /// all constants then folds at binding; when the function returns a
    /// reference (INDEX), what the result points into may still be read.
    Position,
    /// A reference from which the function computes, at run time, the
    /// reference it returns (OFFSET's base): anything on its sheet may be read.
    Reachable,
    /// A range read at the size of argument `n`, from its own top-left cell
    /// (SUMIF's sum range takes the size of its criteria range).
    SizedLike(usize),
    /// Evaluated as an array formula in any cell (SUMPRODUCT's arguments).
    Array,
    /// LET's arguments: name/value pairs, each name in scope for the
    /// arguments after it, then the calculation.
    Scoped,
    /// A text naming the reference the function returns (INDIRECT's): read
    /// as a value, and what it names, anywhere in the workbook, may be read.
    Address,
    /// A function the call applies (MAP's, BYROW's): a LAMBDA, or a
    /// function's bare name (`BYROW(A1:C3, SUM)`, see `lambda`). What its
    /// body reads counts as read.
    Function,
}

/// The Excel version that brought a function. The file format knows the
/// functions of Excel 2007 and before by their names; every later one is a
/// "future function" an xlsx stores as `_xlfn.NAME` ([`FnSpec::xlfn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Excel {
    /// Excel 2007 or before (SUM, IFERROR, SUMIFS, ...).
    V2007,
    /// Excel 2010 (the dotted names: STDEV.S, RANK.EQ, ...).
    V2010,
    /// Excel 2013 (IFNA, XOR, BASE, ...).
    V2013,
    /// Excel 2016 (FORECAST.ETS, ...).
    V2016,
    /// Excel 2019 (IFS, SWITCH, TEXTJOIN, ...).
    V2019,
    /// Excel 2021 (LET, XLOOKUP, SEQUENCE, ...).
    V2021,
    /// Excel 2024 (TEXTBEFORE, TEXTAFTER, ...).
    V2024,
    /// Excel for Microsoft 365 only, in no perpetual version yet
    /// (REGEXTEST, REGEXEXTRACT, REGEXREPLACE).
    V365,
}

/// A function other modules recognise by what it is rather than by its
/// contract: the kernel compiler (`eval::kernel`) turns IF, AND, OR and NOT
/// into flat operations and INDEX of a shared array into a leaf; position
/// analysis (`eval::bind::position`) knows that ROW of a reference depends
/// on its rows alone and COLUMN on its columns; the program knows which
/// cells call SUBTOTAL or AGGREGATE, which those two leave out. Set on the function's own
/// entry and compared as an enum, never by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intrinsic {
    If,
    And,
    Or,
    Not,
    Index,
    Row,
    Column,
    Subtotal,
    Aggregate,
    /// ANCHORARRAY: the binder's `A1#`.
    AnchorArray,
    /// SINGLE: the binder's `@`.
    Single,
    /// LAMBDA: its parameters become slots, as LET's variables (the binder).
    Lambda,
    /// COUNTIF: its value depends only on how many cells of its range meet
    /// its criterion ([`Criterion::matches`](criteria::Criterion::matches)),
    /// so a shared count is kept across writes that leave those as they
    /// were (`engine::share::counted`).
    CountIf,
    /// COUNTIFS: likewise, by how many positions of its ranges meet all
    /// their criteria (`engine::share::ifs`).
    CountIfs,
}

/// One entry of a category table: the name, the argument counts, the
/// contract and the body.
pub struct FnSpec {
    /// Upper-case name, as looked up.
    pub name: &'static str,
    pub min_args: usize,
    pub max_args: usize,
    /// Gives a new value on every evaluation (RAND, NOW): never folded.
    pub volatile: bool,
    /// May return a reference (`Value::Ref`) rather than a value.
    pub returns_ref: bool,
    /// How each argument is used; the last entry repeats for the remaining
    /// arguments, and no entry means every argument is [`Arg::Value`].
    pub args: &'static [Arg],
    pub eval: EvalFn,
    /// The Excel version that brought it.
    pub since: Excel,
    /// LibreOffice's name for it in OpenFormula, where that differs from
    /// `name` (`COM.MICROSOFT.TEXTJOIN`).
    pub openformula: Option<&'static str>,
    /// Whether LibreOffice 7.4 has it (an `.ods` export warns otherwise).
    pub in_libreoffice: bool,
    /// Which function it is, for the few other modules treat apart.
    pub intrinsic: Option<Intrinsic>,
    /// Whether an xlsx stores it as `_xlfn._xlws.NAME` (FILTER, SORT).
    pub xlws: bool,
    /// For a test of one value (ISNUMBER, ISERROR): the test itself, which
    /// the function applies to its argument's value (element by element
    /// over an array), so that compiled forms can apply it to a scalar.
    pub test: Option<fn(&Value) -> bool>,
}

impl FnSpec {
    /// A plain function: not volatile, returns a value, reads every argument.
    pub const fn new(name: &'static str, min_args: usize, max_args: usize, eval: EvalFn) -> Self {
        FnSpec {
            name,
            min_args,
            max_args,
            volatile: false,
            returns_ref: false,
            args: &[],
            eval,
            since: Excel::V2007,
            openformula: None,
            in_libreoffice: true,
            intrinsic: None,
            xlws: false,
            test: None,
        }
    }

    /// The same function with these argument kinds.
    pub const fn args(self, args: &'static [Arg]) -> Self {
        FnSpec { args, ..self }
    }

    /// The same function, returning a reference.
    pub const fn returns_ref(self) -> Self {
        FnSpec { returns_ref: true, ..self }
    }

    /// The same function, volatile.
    pub const fn volatile(self) -> Self {
        FnSpec { volatile: true, ..self }
    }

    /// The same function, brought by that version of Excel.
    pub const fn since(self, since: Excel) -> Self {
        FnSpec { since, ..self }
    }

    /// The same function, which LibreOffice calls `name` in OpenFormula.
    pub const fn openformula(self, name: &'static str) -> Self {
        FnSpec { openformula: Some(name), ..self }
    }

    /// The same function, which LibreOffice 7.4 does not have.
    pub const fn not_in_libreoffice(self) -> Self {
        FnSpec { in_libreoffice: false, ..self }
    }

    /// The same function, which other modules recognise as `which`.
    pub const fn intrinsic(self, which: Intrinsic) -> Self {
        FnSpec { intrinsic: Some(which), ..self }
    }

    /// The same function, a test of one value: `test` is its rule.
    pub const fn test(self, test: fn(&Value) -> bool) -> Self {
        FnSpec { test: Some(test), ..self }
    }

    /// The same function, which an xlsx stores as `_xlfn._xlws.NAME`.
    pub const fn xlws(self) -> Self {
        FnSpec { xlws: true, ..self }
    }

    /// The prefix an xlsx stores before its name: `_xlfn.` for one newer
    /// than Excel 2007, `_xlfn._xlws.` for the worksheet ones that Excel
    /// writes so (FILTER, SORT), none for the others.
    pub fn xlsx_prefix(&self) -> &'static str {
        match (self.xlfn(), self.xlws) {
            (true, true) => "_xlfn._xlws.",
            (true, false) => "_xlfn.",
            (false, _) => "",
        }
    }

    /// Whether an xlsx stores it as `_xlfn.NAME`: it is newer than Excel 2007.
    pub fn xlfn(&self) -> bool {
        self.since > Excel::V2007
    }

    /// Its name in OpenFormula, as LibreOffice writes it.
    pub fn openformula_name(&self) -> &'static str {
        self.openformula.unwrap_or(self.name)
    }

    /// How argument `i` (0-based) is used.
    pub fn arg(&self, i: usize) -> Arg {
        self.args.get(i).or(self.args.last()).copied().unwrap_or(Arg::Value)
    }

    /// True for LET-like functions, whose arguments bind local names.
    pub fn is_scoped(&self) -> bool {
        self.arg(0) == Arg::Scoped
    }

    /// True when argument `i` only gives a position and nothing it names is
    /// read, through the function or its result (ROW's, not INDEX's base).
    pub fn position_only(&self, i: usize) -> bool {
        self.arg(i) == Arg::Position && !self.returns_ref
    }

    /// The argument counts as the documentation gives them: `2`, `2–3`,
    /// `1–255`.
    pub fn arity(&self) -> String {
        match (self.min_args, self.max_args) {
            (a, b) if a == b => format!("{a}"),
            (a, b) => format!("{a}–{b}"),
        }
    }

    /// The binding message for a call with `got` arguments, when that is
    /// not allowed: `IF takes 2 to 3 arguments, got 1`.
    pub fn arity_error(&self, got: usize) -> Option<String> {
        if (self.min_args..=self.max_args).contains(&got) {
            return None;
        }
        let range = match (self.min_args, self.max_args) {
            (a, b) if a == b => format!("{a}"),
            (_, VARIADIC) if got > VARIADIC => format!("at most {VARIADIC}"),
            (a, VARIADIC) => format!("at least {a}"),
            (a, b) => format!("{a} to {b}"),
        };
        let one = self.max_args == 1 || (self.min_args == 1 && self.max_args == VARIADIC && got < VARIADIC);
        let noun = if one { "argument" } else { "arguments" };
        Some(format!("{} takes {range} {noun}, got {got}", self.name))
    }
}

impl fmt::Debug for FnSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

impl PartialEq for FnSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// Every category: its module's name (`src/functions/<name>.rs`) and table,
/// searched in this order.
pub const CATEGORIES: [(&str, &[FnSpec]); 14] = [
    ("math", math::FUNCTIONS),
    ("logical", logical::FUNCTIONS),
    ("lookup", lookup::FUNCTIONS),
    ("stats", stats::FUNCTIONS),
    ("text", text::FUNCTIONS),
    ("info", info::FUNCTIONS),
    ("finance", finance::FUNCTIONS),
    ("distributions", distributions::FUNCTIONS),
    ("date", date::FUNCTIONS),
    ("database", database::FUNCTIONS),
    ("text_more", text_more::FUNCTIONS),
    ("engineering", engineering::FUNCTIONS),
    ("arrays", arrays::FUNCTIONS),
    ("lambda", lambda::FUNCTIONS),
];

/// The function called `name` (any case), if there is one.
pub fn lookup(name: &str) -> Option<&'static FnSpec> {
    all().find(|f| f.name.eq_ignore_ascii_case(name))
}

/// The function an operator is written for: `A1#` is ANCHORARRAY(A1),
/// `@x` is SINGLE(x); the binder binds the operator as that call.
pub fn operator(op: crate::ast::UnaryOp) -> Option<&'static FnSpec> {
    let which = match op {
        crate::ast::UnaryOp::Spill => Intrinsic::AnchorArray,
        crate::ast::UnaryOp::At => Intrinsic::Single,
        _ => return None,
    };
    all().find(|f| f.intrinsic == Some(which))
}

/// Every registered function, for documentation and tests.
pub fn all() -> impl Iterator<Item = &'static FnSpec> {
    CATEGORIES.into_iter().flat_map(|(_, table)| table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_kinds_repeat_the_last() {
        let sumif = lookup("sumif").expect("SUMIF");
        assert_eq!((sumif.arg(0), sumif.arg(2)), (Arg::Value, Arg::SizedLike(0)));
        let offset = lookup("OFFSET").expect("OFFSET");
        assert_eq!((offset.arg(0), offset.arg(1), offset.arg(4)), (Arg::Reachable, Arg::Value, Arg::Value));
        assert_eq!(lookup("SUMPRODUCT").expect("SUMPRODUCT").arg(7), Arg::Array);
        assert_eq!(lookup("SUM").expect("SUM").arg(3), Arg::Value);
        assert!(lookup("LET").expect("LET").is_scoped() && !lookup("IF").expect("IF").is_scoped());
        let index = lookup("INDEX").expect("INDEX");
        assert!(index.arg(0) == Arg::Position && !index.position_only(0), "INDEX's result is read");
        assert!(lookup("COLUMNS").expect("COLUMNS").position_only(0));
    }

    #[test]
    fn each_intrinsic_marks_the_one_function_of_its_name() {
        use Intrinsic::*;
        let named = [
            (If, "IF"),
            (And, "AND"),
            (Or, "OR"),
            (Not, "NOT"),
            (Index, "INDEX"),
            (Row, "ROW"),
            (Column, "COLUMN"),
            (Subtotal, "SUBTOTAL"),
            (Aggregate, "AGGREGATE"),
            (AnchorArray, "ANCHORARRAY"),
            (Single, "SINGLE"),
            (Lambda, "LAMBDA"),
            (CountIf, "COUNTIF"),
            (CountIfs, "COUNTIFS"),
        ];
        for (which, name) in named {
            let marked: Vec<&str> = all().filter(|f| f.intrinsic == Some(which)).map(|f| f.name).collect();
            assert_eq!(marked, [name], "{which:?}");
        }
        assert_eq!(all().filter(|f| f.intrinsic.is_some()).count(), named.len());
    }

    #[test]
    fn arity_messages() {
        let msg = |name: &str, got| lookup(name).expect(name).arity_error(got);
        assert_eq!(msg("IF", 2), None);
        assert_eq!(msg("IF", 1).as_deref(), Some("IF takes 2 to 3 arguments, got 1"));
        assert_eq!(msg("LEN", 0).as_deref(), Some("LEN takes 1 argument, got 0"));
        assert_eq!(msg("ROW", 2).as_deref(), Some("ROW takes 0 to 1 argument, got 2"));
        assert_eq!(msg("SUM", 0).as_deref(), Some("SUM takes at least 1 argument, got 0"));
        assert_eq!(msg("CHOOSE", 1).as_deref(), Some("CHOOSE takes at least 2 arguments, got 1"));
        assert_eq!(msg("MOD", 3).as_deref(), Some("MOD takes 2 arguments, got 3"));
        assert_eq!(msg("NA", 1).as_deref(), Some("NA takes 0 arguments, got 1"));
        assert_eq!(lookup("TEXTJOIN").expect("TEXTJOIN").arity(), "3–255");
        assert_eq!(lookup("EXACT").expect("EXACT").arity(), "2");
    }
}
