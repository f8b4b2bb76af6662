//! Formulas in OpenFormula's syntax (ODF 1.2+, the `of:` namespace), as
//! LibreOffice writes them in `.ods` files: references in brackets
//! (`[.A1]`, `[$Main.$D$4:.L12]`), `;` between arguments, arrays as
//! `{1;2|3;4}` (`;` between columns, `|` between rows), `!` for
//! intersection and `~` for union, `TRUE()`/`FALSE()`. Every operand that
//! is itself an operation is parenthesised, so precedence never differs.
//! Excel functions whose OpenFormula name differs get LibreOffice's name
//! (`COM.MICROSOFT.TEXTJOIN`), which their registry entry gives
//! (`FnSpec::openformula`).

use crate::address::{MAX_COLS, MAX_ROWS, col_name};
use crate::ast::{Axis, BinaryOp, Expr, ExprKind, RefExpr, RefKind, UnaryOp};
use crate::functions;
use crate::value::Value;

/// `of:=...`
pub(crate) fn formula(e: &Expr) -> String {
    let mut out = String::from("of:=");
    write(&mut out, e);
    out
}

fn write(out: &mut String, e: &Expr) {
    if let Some(call) = super::operator_call(e) {
        return write(out, &call);
    }
    match &e.kind {
        ExprKind::Number(_) | ExprKind::Text(_) | ExprKind::Error(_) => out.push_str(&e.to_string()),
        ExprKind::Bool(b) => out.push_str(if *b { "TRUE()" } else { "FALSE()" }),
        ExprKind::Array(rows) => array(out, rows),
        ExprKind::Ref(r) => reference(out, r),
        ExprKind::Name(n) => out.push_str(n),
        // As Excel writes it; LibreOffice reads a table's structured
        // references when the table is a database range of the same name.
        ExprKind::Table(t) => out.push_str(&t.to_string()),
        ExprKind::Missing => {}
        // A call suffix (`LAMBDA(x,x+1)(5)`), which LibreOffice lacks: written as Excel's.
        ExprKind::Call { name, .. } if name.is_empty() => out.push_str(&e.to_string()),
        ExprKind::Call { name, args } => {
            out.push_str(functions::lookup(name).map_or(name.as_str(), |f| f.openformula_name()));
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push(';');
                }
                write(out, a);
            }
            out.push(')');
        }
        ExprKind::Unary { op: UnaryOp::Percent, expr } => {
            operand(out, expr);
            out.push('%');
        }
        // OpenFormula has no trim reference: the TRIMRANGE call it means.
        ExprKind::Unary { op: UnaryOp::Trim(t), expr } => {
            out.push_str(functions::lookup::TRIMRANGE.openformula_name());
            out.push('(');
            write(out, expr);
            out.push_str(&format!(";{0};{0})", *t as u8));
        }
        ExprKind::Unary { op, expr } => {
            out.push(if *op == UnaryOp::Neg { '-' } else { '+' });
            operand(out, expr);
        }
        ExprKind::Binary { op, lhs, rhs } => {
            operand(out, lhs);
            out.push_str(match op {
                BinaryOp::Intersect => "!",
                BinaryOp::Union => "~",
                op => op.symbol(),
            });
            operand(out, rhs);
        }
    }
}

/// An operand, in parentheses when it is an operation.
fn operand(out: &mut String, e: &Expr) {
    let wrap = matches!(e.kind, ExprKind::Unary { .. } | ExprKind::Binary { .. });
    if wrap {
        out.push('(');
    }
    write(out, e);
    if wrap {
        out.push(')');
    }
}

fn array(out: &mut String, rows: &[Vec<Value>]) {
    out.push('{');
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        for (j, v) in row.iter().enumerate() {
            if j > 0 {
                out.push(';');
            }
            match v {
                Value::Bool(b) => out.push_str(if *b { "TRUE()" } else { "FALSE()" }),
                v => out.push_str(&Expr::new(literal(v), 0..0).to_string()),
            }
        }
    }
    out.push('}');
}

fn literal(v: &Value) -> ExprKind {
    match v {
        Value::Number(n) => ExprKind::Number(*n),
        Value::Text(t) => ExprKind::Text(t.to_string()),
        Value::Error(e) => ExprKind::Error(*e),
        _ => ExprKind::Missing,
    }
}

/// `[.A1]`, `[$Main.A1:.B2]`; whole columns and rows as their cells.
fn reference(out: &mut String, r: &RefExpr) {
    let first = |out: &mut String| {
        out.push('[');
        if let Some(s) = &r.sheet {
            out.push_str(&sheet(s));
        }
        out.push('.');
    };
    first(out);
    let abs = |index| Axis { index, abs: true };
    let (a, b) = match r.kind {
        RefKind::Cell { row, col } => ((row, col), None),
        RefKind::Area { r0, c0, r1, c1 } => ((r0, c0), Some((r1, c1))),
        RefKind::Cols { c0, c1 } => ((abs(0), c0), Some((abs(MAX_ROWS - 1), c1))),
        RefKind::Rows { r0, r1 } => ((r0, abs(0)), Some((r1, abs(MAX_COLS - 1)))),
    };
    cell(out, a);
    if let Some(b) = b {
        out.push_str(":.");
        cell(out, b);
    }
    out.push(']');
}

fn cell(out: &mut String, (row, col): (Axis, Axis)) {
    let dollar = |a: Axis| if a.abs { "$" } else { "" };
    out.push_str(&format!("{}{}{}{}", dollar(col), col_name(col.index), dollar(row), row.index + 1));
}

/// `$Main`, `$'My Sheet'` (a sheet written in a reference is absolute).
pub(super) fn sheet(name: &str) -> String {
    let plain = name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if plain { format!("${name}") } else { format!("$'{}'", name.replace('\'', "''")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_formula;

    fn of(text: &str) -> String {
        formula(&parse_formula(text).unwrap())
    }

    #[test]
    fn formulas_print_in_openformula_syntax() {
        assert_eq!(of("SUM(A1:B2,Main!$C$3)+1"), "of:=SUM([.A1:.B2];[$Main.$C$3])+1");
        assert_eq!(of("IF(state=\"reset\",{1,2;3,4},TRUE)"), "of:=IF(state=\"reset\";{1;2|3;4};TRUE())");
        assert_eq!(of("-(1+2)*3%"), "of:=(-(1+2))*(3%)");
        assert_eq!(
            of("TEXTJOIN(\",\",TRUE,'My Sheet'!A:A)"),
            "of:=COM.MICROSOFT.TEXTJOIN(\",\";TRUE();[$'My Sheet'.A$1:.A$1048576])"
        );
        assert_eq!(of("SUM(A1:B2 B1:C3,(A1,C3))"), "of:=SUM([.A1:.B2]![.B1:.C3];[.A1]~[.C3])");
    }
}
