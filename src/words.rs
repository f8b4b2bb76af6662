//! The wording the library's messages share, whichever layer writes them:
//! the parser's "expected 3 values", the front ends' "9 iterations". It
//! sits apart from `render` (text grids), so that the model and the parser
//! depend on no presentation module for a plural.

/// `1 cell`, `9 cells`: a count with its noun, plural unless it is one.
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(plural(1u32, "value"), "1 value");
        assert_eq!([0u64, 2, 10].map(|n| plural(n, "cell")), ["0 cells", "2 cells", "10 cells"]);
    }
}
