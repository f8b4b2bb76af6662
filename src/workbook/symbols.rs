//! Reading an input line through an input's alphabet. A line is either
//! symbols, one per cell (`..3.2.6..`, whitespace dropped), or numbers
//! separated by whitespace (`12 10 8 0 .`, as seed puzzles of 16x16 boards
//! are listed), told apart by its tokens (see [`is_numbers`]: digits and
//! blanks only, one token per cell or one a number of two digits within the
//! alphabet). A
//! symbol matches the alphabet and the blanks in either case when no two of
//! them differ only by case (`a` for `A` in `0123456789ABCDEF`). Errors name
//! the position and the symbol. The alphabet itself is checked here too, for
//! the workbook file and for `--alphabet`.

use super::model::InputDef;
use crate::Error;
use crate::value::Value;

/// A cell of an input line: blank, or the number k (1-based) of symbol k.
pub type Symbol = Option<usize>;

impl InputDef {
    /// Decodes a line such as `..3.2.6..9..` or `12 10 0 8` into values for
    /// the input's cells.
    pub fn decode(&self, line: &str) -> Result<Vec<Value>, Error> {
        let symbols = self.symbols(line)?;
        let want = self.area.size() as usize;
        if symbols.len() != want {
            let what = if self.numbers(line) { "numbers" } else { "symbols" };
            return Err(Error::Input(format!(
                "input `{}` needs {want} {what} for {}, got {}",
                self.name,
                self.area,
                symbols.len()
            )));
        }
        Ok(symbols.into_iter().map(|s| s.map_or(Value::Empty, |k| Value::Number(k as f64))).collect())
    }

    /// A line written as this input reads it (symbols or numbers, either
    /// case), spelled in its alphabet, blanks as `.`: how `batch --expect`
    /// compares an expected line with what a view shows.
    pub fn canonical(&self, line: &str) -> Result<String, Error> {
        let alphabet: Vec<char> = self.alphabet.chars().collect();
        Ok(self.symbols(line)?.into_iter().map(|s| s.map_or('.', |k| alphabet[k - 1])).collect())
    }

    /// The cells a line gives, whatever its length.
    pub fn symbols(&self, line: &str) -> Result<Vec<Symbol>, Error> {
        if self.numbers(line) {
            return line.split_whitespace().enumerate().map(|(i, t)| self.number(i + 1, t)).collect();
        }
        let fold = !case_ambiguous(&format!("{}{}", self.alphabet, self.blanks));
        let same = |a: char, b: char| a == b || (fold && a.to_lowercase().eq(b.to_lowercase()));
        let symbols = line.chars().filter(|c| !c.is_whitespace());
        symbols
            .enumerate()
            .map(|(i, ch)| {
                if self.blanks.chars().any(|b| same(b, ch)) {
                    Ok(None)
                } else if let Some(k) = self.alphabet.chars().position(|a| same(a, ch)) {
                    Ok(Some(k + 1))
                } else {
                    Err(Error::Input(format!(
                        "input `{}`: symbol `{ch}` at position {} is not in the alphabet `{}` nor a blank (`{}`)",
                        self.name,
                        i + 1,
                        self.alphabet,
                        self.blanks
                    )))
                }
            })
            .collect()
    }

    /// Whether this input reads `line` as numbers (see [`is_numbers`]).
    fn numbers(&self, line: &str) -> bool {
        is_numbers(line, self.alphabet.chars().count(), &self.blanks, self.area.size())
    }

    /// Token `i` (1-based) of a line of numbers: 1 to the alphabet's
    /// length, or a blank (`0`, `.` or one of the input's blanks).
    fn number(&self, i: usize, token: &str) -> Result<Symbol, Error> {
        let n = self.alphabet.chars().count();
        let blank = token == "0" || token == "." || (token.chars().count() == 1 && self.blanks.contains(token));
        if blank {
            return Ok(None);
        }
        match token.parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => Ok(Some(k)),
            _ => Err(Error::Input(format!(
                "input `{}`: `{token}` at position {i} is not a number from 1 to {n} nor a blank (`0`, `.`): the line \
                 is read as numbers separated by spaces",
                self.name
            ))),
        }
    }
}

/// Whether a line is numbers separated by whitespace, for an alphabet of
/// `n` symbols and an input of `cells` cells: several tokens, each digits
/// or one blank character (`0`, `.`, one of `blanks`), and either one token
/// per cell or one of them a number of two or more digits from 10 to `n`
/// (`12 10 8 0`). So a line of single digits, one per cell, is numbers
/// whatever the alphabet (`1 0 8 …` is 1, blank, 8 under `0123456789ABCDEF`
/// too, as `1 0 8 10 …` is). A line of symbols grouped by spaces
/// (`..3.2.6.. 9..3.5..1`, `G. .`, `003 020 600`) stays symbols.
fn is_numbers(line: &str, n: usize, blanks: &str, cells: u64) -> bool {
    let number = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let blank = |t: &str| t == "." || (t.chars().count() == 1 && blanks.contains(t));
    let mut tokens = line.split_whitespace();
    let two_digits = |t: &str| t.len() > 1 && !t.starts_with('0') && t.parse::<usize>().is_ok_and(|k| k <= n);
    tokens.clone().nth(1).is_some()
        && tokens.clone().all(|t| number(t) || blank(t))
        && (tokens.clone().count() as u64 == cells || tokens.any(|t| number(t) && two_digits(t)))
}

/// Whether two of these symbols differ only by case (`a` and `A`): then
/// symbols match exactly, never in the other case.
fn case_ambiguous(symbols: &str) -> bool {
    let folded: Vec<String> = symbols.chars().map(|c| c.to_lowercase().collect()).collect();
    folded.iter().enumerate().any(|(i, f)| folded[i + 1..].contains(f))
}

/// The symbol the number `x` stands for in `alphabet`: symbol k for the
/// whole number k from 1 to the alphabet's length, else `None`. One rule
/// for inputs read back, `batch` answers and views.
pub fn symbol_of(alphabet: &[char], x: f64) -> Option<char> {
    (x.fract() == 0.0 && x >= 1.0 && x <= alphabet.len() as f64).then(|| alphabet[x as usize - 1])
}

/// Why `alphabet` cannot be an input's or a view's alphabet (empty, a
/// symbol twice, whitespace), with a short label for the place, or None.
pub fn alphabet_problem(alphabet: &str) -> Option<(String, &'static str)> {
    if alphabet.is_empty() {
        return Some(("an alphabet cannot be empty".into(), "empty alphabet"));
    }
    if let Some((_, c)) = alphabet.char_indices().find(|&(i, c)| alphabet[i + c.len_utf8()..].contains(c)) {
        return Some((format!("`{c}` appears twice in the alphabet"), "repeated symbol"));
    }
    let c = alphabet.chars().find(|c| c.is_whitespace())?;
    Some((format!("an alphabet cannot hold whitespace ({c:?}): {DROPPED}"), "whitespace"))
}

/// Why whitespace is refused in an alphabet or in blanks.
pub(crate) const DROPPED: &str = "input lines drop whitespace, so it can never be typed";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::Area;

    fn input(alphabet: &str, blanks: &str, cells: u32) -> InputDef {
        let area = Area::new(0, 0, 0, 0, cells - 1);
        InputDef { name: "p".into(), area, alphabet: alphabet.into(), blanks: blanks.into(), value: None, check: None }
    }

    #[test]
    fn lines_of_numbers() {
        let hex = input("123456789ABCDEFG", ".", 5);
        let n = |k: f64| Value::Number(k);
        assert_eq!(hex.decode("12 10 0 . 16").unwrap(), [n(12.0), n(10.0), Value::Empty, Value::Empty, n(16.0)]);
        // Single characters separated by spaces are symbols, as before;
        // so are symbols grouped by spaces.
        assert_eq!(hex.decode("1 2 . G A").unwrap(), [n(1.0), n(2.0), Value::Empty, n(16.0), n(10.0)]);
        assert_eq!(hex.canonical("G. .1 2").unwrap(), "G..12");
        let sudoku = input("123456789", ".0", 9);
        assert_eq!(sudoku.canonical("003 020 600").unwrap(), "..3.2.6..");
        assert_eq!(sudoku.canonical("..3 .2. 6..").unwrap(), "..3.2.6..");
        assert!(
            hex.decode("12 17 0 0 1")
                .unwrap_err()
                .to_string()
                .contains("`17` at position 2 is not a number from 1 to 16")
        );
        assert!(hex.decode("12 1").unwrap_err().to_string().contains("needs 5 numbers"));
        assert_eq!(hex.canonical("16 1 0 10").unwrap(), "G1.A");
        // One token per cell is numbers whatever the alphabet: `1 0 8 0`
        // reads as `1 0 8 10` does, 0 blank, never as the symbols 1, 0, 8.
        let zero = input("0123456789ABCDEF", ".", 4);
        assert_eq!(
            zero.decode("1 0 8 0").unwrap(),
            zero.decode("1 0 8 10").unwrap()[..3].iter().cloned().chain([Value::Empty]).collect::<Vec<_>>()
        );
        assert_eq!(zero.canonical("1 0 8 0").unwrap(), "0.7.");
        assert_eq!(zero.canonical("1 0 8 10").unwrap(), "0.79");
        // Grouped symbols, fewer tokens than cells, stay symbols.
        assert_eq!(zero.canonical("108 0").unwrap(), "1080");
    }

    #[test]
    fn either_case_when_unambiguous() {
        let hex = input("0123456789ABCDEF", ".", 3);
        assert_eq!(hex.canonical("a0f").unwrap(), "A0F");
        let mixed = input("abAB", ".", 2);
        assert_eq!(mixed.canonical("aB").unwrap(), "aB");
        assert!(mixed.canonical("c").unwrap_err().to_string().contains("symbol `c` at position 1"));
        let blanks = input("ABC", "x", 2);
        assert_eq!(blanks.canonical("Xa").unwrap(), ".A", "blanks fold too");
    }

    #[test]
    fn alphabets() {
        assert_eq!(alphabet_problem("").unwrap().0, "an alphabet cannot be empty");
        assert_eq!(alphabet_problem("ABA").unwrap().0, "`A` appears twice in the alphabet");
        assert!(alphabet_problem("A B").unwrap().0.contains("whitespace"));
        assert_eq!(alphabet_problem("0123456789ABCDEF"), None);
    }
}
