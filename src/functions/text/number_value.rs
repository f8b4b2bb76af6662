//! NUMBERVALUE: text to a number with given decimal and group separators
//! (default `.` and `,`). The text is brought to the form arithmetic reads
//! (`value::parse_number`): blanks dropped anywhere, group separators
//! dropped before the decimal separator (after it they are #VALUE!), the
//! decimal separator made a point; each trailing `%` divides by 100.

use crate::value::{ErrorKind, Value, parse_number};

/// NUMBERVALUE(text, [decimal_separator], [group_separator]) on values.
/// A number is itself, empty text or an empty cell 0; separators take the
/// first character of their text, must not be empty and must differ; when
/// only the decimal separator is given and it is `,`, there is no group
/// separator (`NUMBERVALUE("1,5",",")` is 1.5).
pub fn number_value(v: &[Value]) -> Result<Value, ErrorKind> {
    let decimal = separator(v.get(1), '.')?;
    let group = match v.get(2) {
        None if decimal == ',' => None,
        g => Some(separator(g, ',')?),
    };
    if group == Some(decimal) {
        return Err(ErrorKind::Value);
    }
    let text = match &v[0] {
        Value::Number(n) => return Ok(Value::Number(*n)),
        Value::Empty => return Ok(Value::Number(0.0)),
        Value::Text(s) => s.clone(),
        Value::Error(e) => return Err(*e),
        _ => return Err(ErrorKind::Value),
    };
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let digits = compact.trim_end_matches('%');
    let percents = compact.len() - digits.len();
    if digits.is_empty() {
        return Ok(Value::Number(0.0));
    }
    let (int, frac) = match digits.split_once(decimal) {
        Some((_, f)) if f.contains(decimal) || group.is_some_and(|g| f.contains(g)) => return Err(ErrorKind::Value),
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let int: String = int.chars().filter(|&c| Some(c) != group).collect();
    if int.contains('.') || frac.is_some_and(|f| f.contains('.')) {
        return Err(ErrorKind::Value);
    }
    let plain = match frac {
        Some(f) => format!("{int}.{f}"),
        None => int,
    };
    let n = parse_number(&plain).ok_or(ErrorKind::Value)?;
    Ok(Value::num((0..percents).fold(n, |n, _| n / 100.0)))
}

/// A separator argument: the first character of its text; #VALUE! for the
/// empty text. `default` when omitted.
fn separator(v: Option<&Value>, default: char) -> Result<char, ErrorKind> {
    match v {
        None => Ok(default),
        Some(v) => v.to_text()?.chars().next().ok_or(ErrorKind::Value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nv(args: &[&str]) -> Result<Value, ErrorKind> {
        number_value(&args.iter().map(|s| Value::text(s)).collect::<Vec<_>>())
    }

    #[test]
    fn separators() {
        assert_eq!(nv(&["2.500,27", ",", "."]), Ok(Value::Number(2500.27)));
        assert_eq!(nv(&["1,2,3"]), Ok(Value::Number(123.0)));
        assert_eq!(nv(&["1.5,2"]), Err(ErrorKind::Value), "group after the decimal separator");
        assert_eq!(nv(&["1.5.2"]), Err(ErrorKind::Value));
        assert_eq!(nv(&["1.5", ",", " "]), Err(ErrorKind::Value), "a point that is no separator");
        assert_eq!(nv(&["1x000;5", ";;", "xy"]), Ok(Value::Number(1000.5)), "first characters");
        assert_eq!(nv(&["1", ",", ","]), Err(ErrorKind::Value));
        assert_eq!(nv(&["1,5", ","]), Ok(Value::Number(1.5)), "no group separator");
        assert_eq!(nv(&["1.000,5", ","]), Err(ErrorKind::Value));
        assert_eq!(nv(&["1", ""]), Err(ErrorKind::Value));
    }

    #[test]
    fn blanks_and_percents() {
        assert_eq!(nv(&[" 3 000 "]), Ok(Value::Number(3000.0)));
        assert_eq!(nv(&["9%%"]), Ok(Value::Number(0.0009)));
        assert_eq!(nv(&["1e-2 %"]), Ok(Value::Number(0.0001)));
        assert_eq!(nv(&["%5"]), Err(ErrorKind::Value));
        assert_eq!(nv(&[""]), Ok(Value::Number(0.0)));
        assert_eq!(nv(&["-"]), Err(ErrorKind::Value));
    }
}
