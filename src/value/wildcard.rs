//! Excel's wildcard patterns, as criteria, MATCH, the lookups and SEARCH
//! read them: `?` any one character, `*` any run, `~` escaping the next
//! `?`, `*` or `~`; case-insensitive, positions counted in characters.

/// Case folding for comparisons that keeps one char per char (so positions
/// stay valid): the lower-case form when it is a single character.
fn fold_char(c: char) -> char {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum WildTok {
    Lit(char),
    /// `?`: any one character.
    One,
    /// `*`: any run of characters.
    Any,
}

/// An Excel wildcard pattern (`?`, `*`, `~` escaping `?`, `*` and `~`),
/// case-insensitive: criteria, MATCH and SEARCH.
#[derive(Clone, Debug, PartialEq)]
pub struct Wildcard(Vec<WildTok>);

impl Wildcard {
    pub fn new(p: &str) -> Self {
        let mut toks = Vec::new();
        let mut it = p.chars().peekable();
        while let Some(c) = it.next() {
            toks.push(match c {
                '~' if matches!(it.peek(), Some('*' | '?' | '~')) => WildTok::Lit(it.next().unwrap_or('~')),
                '?' => WildTok::One,
                '*' => WildTok::Any,
                c => WildTok::Lit(fold_char(c)),
            });
        }
        Wildcard(toks)
    }

    /// True when `p` holds a wildcard or escape, so plain equality will not do.
    pub fn has_wildcards(p: &str) -> bool {
        p.contains(['*', '?', '~'])
    }

    /// Whether the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        self.glob(text, true)
    }

    /// The first character index at or after `from` where a match starts
    /// in `text` (SEARCH).
    pub fn find(&self, text: &str, from: usize) -> Option<usize> {
        let starts = text.char_indices().map(|(i, _)| i).chain([text.len()]);
        starts.enumerate().skip(from).find(|&(_, at)| self.glob(&text[at..], false)).map(|(n, _)| n)
    }

    /// Matches the pattern against `text`; with `whole` the text must be
    /// used up, otherwise a match of any prefix counts. Walks `text` by
    /// char boundaries, backtracking to the last `*` only.
    fn glob(&self, text: &str, whole: bool) -> bool {
        let (p, mut pi, mut ti) = (&self.0, 0, 0);
        let mut star: Option<(usize, usize)> = None;
        let char_at = |i: usize| text[i..].chars().next();
        loop {
            if pi == p.len() && (!whole || ti == text.len()) {
                return true;
            }
            let c = char_at(ti);
            let next = ti + c.map_or(0, char::len_utf8);
            match (p.get(pi), c) {
                (Some(WildTok::Any), _) => {
                    star = Some((pi, ti));
                    pi += 1;
                    continue;
                }
                (Some(WildTok::One), Some(_)) => {
                    (pi, ti) = (pi + 1, next);
                    continue;
                }
                (Some(WildTok::Lit(x)), Some(c)) if *x == fold_char(c) => {
                    (pi, ti) = (pi + 1, next);
                    continue;
                }
                _ => {}
            }
            // Mismatch: the last `*` takes one more char, or there is none.
            match star.and_then(|(sp, st)| char_at(st).map(|c| (sp, st + c.len_utf8()))) {
                Some((sp, st)) => {
                    star = Some((sp, st));
                    (pi, ti) = (sp + 1, st);
                }
                None => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        let m = |p: &str, t: &str| Wildcard::new(p).matches(t);
        assert!(m("a*c", "ABBC"));
        assert!(m("a?c", "abc") && !m("a?c", "ac"));
        assert!(m("*", "") && m("*x*", "box"));
        assert!(m("~*", "*") && !m("~*", "a"));
        assert!(m("a~?", "A?") && !m("a~?", "ab"));
        assert!(m("~~", "~") && m("~x", "~x"));
        assert!(!m("abc", "abcd"));
        assert!(m("a*b*c", "abcbc") && !m("*?", "") && m("?*é", "xyÉ") && m("**a", "ba") && m("*a?", "aaa"));
        assert!(m("é*", "Étude") && m("?é?", "ÉÉÉ") && !m("a*b*c", "axxbyy"));
        let hay = "xxAbcab";
        assert_eq!(Wildcard::new("a?c").find(hay, 0), Some(2));
        assert_eq!(Wildcard::new("ab").find(hay, 3), Some(5));
        assert_eq!(Wildcard::new("").find(hay, 4), Some(4));
        assert_eq!(Wildcard::new("").find(hay, 7), Some(7), "at the end");
        assert_eq!(Wildcard::new("z*").find(hay, 0), None);
        assert_eq!(Wildcard::new("b").find("ééb", 1), Some(2), "positions count characters");
    }
}
