//! Roman numerals: ROMAN writes 0 to 3999 in one of Excel's five forms,
//! from classic (form 0: 499 is CDXCIX) to simplified (form 4: ID), each
//! more concise one letting a subtractive pair reach further (VL, IL, ...);
//! ARABIC reads a numeral back, any case, a leading minus allowed, each
//! letter subtracted when a larger one follows it and added otherwise.

use crate::value::{ErrorKind, Value};

/// The letters from the largest, with their values.
const LETTERS: [(char, u32); 7] = [('M', 1000), ('D', 500), ('C', 100), ('L', 50), ('X', 10), ('V', 5), ('I', 1)];

/// ROMAN(number, [form]): `number` truncated, 0 to 3999 (0 is ""); `form`
/// 0 to 4 (truncated), TRUE for 0, FALSE for 4; anything else #VALUE!.
pub fn roman(v: &[Value]) -> Result<Value, ErrorKind> {
    let n = v[0].to_number()?.trunc();
    let form = match v.get(1) {
        None | Some(Value::Empty) => 0.0,
        Some(Value::Bool(b)) => 4.0 * f64::from(u8::from(!b)),
        Some(f) => f.to_number()?.trunc(),
    };
    if !(0.0..=3999.0).contains(&n) || !(0.0..=4.0).contains(&form) {
        return Err(ErrorKind::Value);
    }
    Ok(Value::text(&numeral(n as u32, form as usize)))
}

/// `n` (below 4000) as a numeral of `form` (0 to 4): for each decimal
/// digit whose place letter would be repeated four times or follow a
/// five (4 and 9), the subtractive pair whose smaller letter is the
/// furthest one down, at most `form` letters further than classic, that
/// still fits.
fn numeral(mut n: u32, form: usize) -> String {
    let mut out = String::new();
    for place in (0..LETTERS.len()).step_by(2) {
        let unit = LETTERS[place].1;
        let digit = n / unit;
        if digit % 5 == 4 {
            // The larger letter: the next place's (9) or the five (4).
            let big = if digit == 4 { place - 1 } else { place - 2 };
            let mut small = place;
            for _ in 0..form {
                if small + 1 < LETTERS.len() && LETTERS[big].1 - LETTERS[small + 1].1 <= n {
                    small += 1;
                } else {
                    break;
                }
            }
            out.push(LETTERS[small].0);
            out.push(LETTERS[big].0);
            // What is left is below the smaller letter: the places below write it.
            n = n + LETTERS[small].1 - LETTERS[big].1;
        } else {
            if digit >= 5 {
                out.push(LETTERS[place - 1].0);
            }
            (0..digit % 5).for_each(|_| out.push(LETTERS[place].0));
            n %= unit;
        }
    }
    out
}

/// ARABIC(text): the value of a Roman numeral, blanks around it ignored;
/// "" is 0; a letter that is not a numeral's, or more than 255
/// characters, is #VALUE!.
pub fn arabic(v: &[Value]) -> Result<Value, ErrorKind> {
    let text = match &v[0] {
        Value::Empty => return Ok(Value::Number(0.0)),
        Value::Text(t) => t.clone(),
        Value::Error(e) => return Err(*e),
        _ => return Err(ErrorKind::Value),
    };
    let t = text.trim_matches(' ');
    if t.chars().count() > 255 {
        return Err(ErrorKind::Value);
    }
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, t),
    };
    let values = digits
        .chars()
        .map(|c| LETTERS.iter().find(|(l, _)| l.eq_ignore_ascii_case(&c)).map(|(_, v)| f64::from(*v)))
        .collect::<Option<Vec<f64>>>()
        .ok_or(ErrorKind::Value)?;
    let total: f64 = values
        .iter()
        .enumerate()
        .map(|(i, &x)| if values[i + 1..].first().is_some_and(|&next| next > x) { -x } else { x })
        .sum();
    Ok(Value::Number(sign * total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: u32, form: usize) -> String {
        numeral(n, form)
    }

    #[test]
    fn microsofts_examples() {
        // https://support.microsoft.com/en-us/excel/functions/roman-function
        assert_eq!([0, 1, 2, 3, 4].map(|f| r(499, f)), ["CDXCIX", "LDVLIV", "XDIX", "VDIV", "ID"]);
        assert_eq!(r(2013, 0), "MMXIII");
        assert_eq!(r(3999, 0), "MMMCMXCIX");
        assert_eq!(r(0, 0), "");
    }

    #[test]
    fn arabic_reads_them_back() {
        for form in 0..5 {
            for n in [1, 4, 9, 14, 40, 45, 49, 90, 95, 99, 400, 450, 490, 495, 499, 900, 999, 1999, 3999] {
                let text = Value::text(&numeral(n, form));
                assert_eq!(arabic(&[text]), Ok(Value::Number(f64::from(n))), "{n} form {form}");
            }
        }
        assert_eq!(arabic(&[Value::text(" -mcmxii ")]), Ok(Value::Number(-1912.0)));
        assert_eq!(arabic(&[Value::text("ABC")]), Err(ErrorKind::Value));
    }
}
