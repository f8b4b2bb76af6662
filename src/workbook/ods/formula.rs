//! OpenFormula (the `of:` formulas of `.ods` files) back to Excel's
//! syntax, the reverse of `export/openformula.rs`: references in brackets
//! (`[.A1]`, `[$Main.$D$4:.L12]`, `[$'My Sheet'.A1]`) lose them and take
//! `Sheet!`; `;` between arguments becomes `,`; an inline array's `;`
//! (between columns) and `|` (between rows) become `,` and `;`; `!`
//! (intersection) becomes a space and `~` (union) a `,`, the operands in
//! parentheses; `TRUE()` and `FALSE()` become `TRUE` and `FALSE`; a
//! function LibreOffice names otherwise (`COM.MICROSOFT.TEXTJOIN`) gets
//! Excel's name from the registry. Strings and error literals are copied
//! as they are. The result is parsed by dataflow's parser, which reports
//! what it cannot read.

use crate::functions;
use crate::parse::sheet_prefix;

/// The Excel text of an OpenFormula formula (with or without `of:=`/`=`).
pub(super) fn to_excel(of: &str) -> Result<String, String> {
    let text = of.strip_prefix("of:").unwrap_or(of);
    let text = text.strip_prefix('=').unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    // One frame per open `(`, `{` and the top level: where its current
    // argument starts in `out`, and whether a union is in it.
    let mut frames: Vec<(usize, bool, char)> = vec![(0, false, ' ')];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' => {
                let end = string_end(&chars, i);
                out.extend(&chars[i..end]);
                i = end;
                continue;
            }
            '[' => {
                let end = chars[i..].iter().position(|&c| c == ']').map(|n| i + n).ok_or("a `[` is not closed")?;
                out.push_str(&reference(&chars[i + 1..end].iter().collect::<String>())?);
                i = end + 1;
                continue;
            }
            '#' => {
                let rest: String = chars[i..].iter().collect();
                let err = crate::value::ErrorKind::ALL
                    .iter()
                    .map(|e| e.text())
                    .filter(|t| rest.to_uppercase().starts_with(t))
                    .max_by_key(|t| t.len())
                    .ok_or_else(|| format!("`{}` is not an error literal", rest.chars().take(8).collect::<String>()))?;
                out.push_str(err);
                i += err.chars().count();
                continue;
            }
            '(' | '{' => {
                out.push(c);
                frames.push((out.len(), false, c));
            }
            ')' | '}' => {
                close_argument(&mut out, &mut frames);
                frames.pop();
                if frames.is_empty() {
                    return Err(format!("a `{c}` closes nothing"));
                }
                out.push(c);
            }
            ';' => {
                close_argument(&mut out, &mut frames);
                out.push(',');
                if let Some(f) = frames.last_mut() {
                    f.0 = out.len();
                }
            }
            '|' if frames.last().is_some_and(|f| f.2 == '{') => out.push(';'),
            '!' => out.push(' '),
            '~' => {
                if let Some(f) = frames.last_mut() {
                    f.1 = true;
                }
                out.push(',');
            }
            c if c.is_alphabetic() || c == '_' => {
                let end = chars[i..]
                    .iter()
                    .position(|&c| !(c.is_alphanumeric() || c == '_' || c == '.'))
                    .map_or(chars.len(), |n| i + n);
                let word: String = chars[i..end].iter().collect();
                let called = chars.get(end) == Some(&'(');
                if called
                    && chars.get(end + 1) == Some(&')')
                    && ["TRUE", "FALSE"].contains(&word.to_uppercase().as_str())
                {
                    out.push_str(&word.to_uppercase());
                    i = end + 2;
                    continue;
                }
                out.push_str(if called { excel_name(&word) } else { &word });
                i = end;
                continue;
            }
            c => out.push(c),
        }
        i += 1;
    }
    close_argument(&mut out, &mut frames);
    Ok(out)
}

/// Ends the argument of the innermost frame: a union in it is put in
/// parentheses, as Excel needs (`SUM((A1,C3))`).
fn close_argument(out: &mut String, frames: &mut [(usize, bool, char)]) {
    if let Some(f) = frames.last_mut()
        && f.1
    {
        out.insert(f.0, '(');
        out.push(')');
        f.1 = false;
    }
}

/// The index just past the string starting at `i` (`""` inside it is a quote).
fn string_end(chars: &[char], i: usize) -> usize {
    let mut j = i + 1;
    while j < chars.len() {
        if chars[j] == '"' {
            if chars.get(j + 1) == Some(&'"') {
                j += 2;
                continue;
            }
            return j + 1;
        }
        j += 1;
    }
    chars.len()
}

/// Excel's name of a function LibreOffice writes under another name.
fn excel_name(of_name: &str) -> &str {
    functions::all()
        .find(|f| f.openformula.is_some_and(|n| n.eq_ignore_ascii_case(of_name)))
        .map_or(of_name, |f| f.name)
}

/// The text inside `[...]`: `.A1`, `$Main.A1:.B2`, `$'My Sheet'.$A$1`,
/// `.A1:$Other.B2` (one sheet only: dataflow has no 3-D references).
fn reference(inner: &str) -> Result<String, String> {
    let mut parts = Vec::new();
    let mut rest = inner;
    loop {
        let (sheet, after) = sheet_of(rest)?;
        let after = after.strip_prefix('.').ok_or_else(|| format!("`[{inner}]` is not a reference"))?;
        let end = after.find(':').unwrap_or(after.len());
        parts.push((sheet, &after[..end]));
        if end == after.len() {
            break;
        }
        rest = &after[end + 1..];
    }
    if parts.iter().any(|(_, cell)| cell.contains("#REF!")) {
        return Ok("#REF!".to_string());
    }
    let first = parts[0].0.clone();
    if parts.iter().skip(1).any(|(s, _)| s.as_ref().is_some_and(|s| Some(s) != first.as_ref())) {
        return Err(format!("`[{inner}]` spans sheets, which dataflow cannot read"));
    }
    let cells: Vec<&str> = parts.iter().map(|(_, c)| *c).collect();
    let cells = whole(&cells).unwrap_or_else(|| cells.join(":"));
    Ok(match first {
        Some(s) => format!("{}{}", sheet_prefix(&s), cells),
        None => cells,
    })
}

/// Whole columns (`A$1:B$1048576` as `A:B`) and whole rows (`$A1:$XFD2`
/// as `1:2`), as OpenFormula has no other way to write them.
fn whole(cells: &[&str]) -> Option<String> {
    let [a, b] = cells else { return None };
    let split = |c: &str| {
        let digits = c.find(|ch: char| ch.is_ascii_digit())?;
        let (col, row) = c.split_at(digits);
        Some((col.to_string(), row.to_string()))
    };
    let ((ca, ra), (cb, rb)) = (split(a)?, split(b)?);
    let (ra, rb) = (ra.trim_start_matches('$'), rb.trim_start_matches('$'));
    let last_row = crate::address::MAX_ROWS.to_string();
    if ca.ends_with('$') && cb.ends_with('$') && ra == "1" && rb == last_row {
        let col = |c: &str| c.trim_end_matches('$').to_string();
        return Some(format!("{}:{}", col(&ca), col(&cb)));
    }
    let last_col = crate::address::col_name(crate::address::MAX_COLS - 1);
    let (na, nb) = (ca.trim_matches('$'), cb.trim_matches('$'));
    if na == "A" && nb == last_col && ca.starts_with('$') && cb.starts_with('$') {
        let row = |c: &str, r: &str| format!("{}{r}", if c.ends_with('$') { "$" } else { "" });
        return Some(format!("{}:{}", row(&ca, ra), row(&cb, rb)));
    }
    None
}

/// The sheet a reference part starts with (`$Main`, `'My Sheet'`), if
/// any, and what follows it.
fn sheet_of(text: &str) -> Result<(Option<String>, &str), String> {
    let t = text.strip_prefix('$').unwrap_or(text);
    if let Some(q) = t.strip_prefix('\'') {
        let mut name = String::new();
        let mut chars = q.char_indices();
        while let Some((i, c)) = chars.next() {
            if c == '\'' {
                if q[i + 1..].starts_with('\'') {
                    name.push('\'');
                    chars.next();
                    continue;
                }
                return Ok((Some(name), &q[i + 1..]));
            }
            name.push(c);
        }
        return Err(format!("the sheet name in `{text}` is not closed"));
    }
    match t.find('.') {
        Some(0) => Ok((None, t)),
        Some(n) => Ok((Some(t[..n].to_string()), &t[n..])),
        None => Err(format!("`{text}` is not a reference")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openformula_reads_back_as_excel() {
        let t = |s: &str| to_excel(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(t("of:=SUM([.A1:.B2];[$Main.$C$3])+1"), "SUM(A1:B2,Main!$C$3)+1");
        assert_eq!(t("of:=IF(state=\"re;[x]\";{1;2|3;4};TRUE())"), "IF(state=\"re;[x]\",{1,2;3,4},TRUE)");
        assert_eq!(
            t("of:=COM.MICROSOFT.TEXTJOIN(\",\";TRUE();[$'My Sheet'.A$1:.A$1048576])"),
            "TEXTJOIN(\",\",TRUE,'My Sheet'!A:A)"
        );
        assert_eq!(t("of:=SUM([.A1:.B2]![.B1:.C3];[.A1]~[.C3])"), "SUM(A1:B2 B1:C3,(A1,C3))");
        assert_eq!(t("=[.A1]/0+#DIV/0!"), "A1/0+#DIV/0!");
        assert_eq!(t("ROW([$Main.XEP1048574])"), "ROW(Main!XEP1048574)");
        assert_eq!(t("[.#REF!]"), "#REF!");
        assert!(to_excel("[$A.A1:$B.B2]").is_err());
    }

    /// What the exporter writes reads back as the formula it was made from.
    #[test]
    fn exported_formulas_read_back() {
        let cases = ["SUM(A1:B2,Main!$C$3)+1", "-(1+2)*3%", "IF(A1<>\"\",{1,2;3,4},FALSE)", "INDEX(A:A,2)&\"x\""];
        for f in cases.into_iter().chain(["SUM($B:C,Main!2:$3)", "(A1,C3)"]) {
            let e = crate::parse::parse_formula(f).expect("parses");
            let of = crate::export::openformula_text(&e);
            let back = crate::parse::parse_formula(&to_excel(&of).expect("reads")).expect("parses back");
            assert_eq!(back.to_string(), e.to_string(), "{of}");
        }
    }
}
