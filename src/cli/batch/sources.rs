//! Where `batch` reads its puzzles: `--input NAME=@SPEC`, repeated for
//! more, each SPEC a file, a directory (its puzzle files: every `*.txt` in
//! it, by name, but the companions `X.anything.txt` of an `X.txt` beside
//! them, such as `X.solutions.txt`), or `-` (standard input, read as it
//! comes). Lines are read one at a time, never a whole file first; blank
//! lines are skipped but counted, so a puzzle keeps its line number. The
//! expected answers come from `--expect FILE` (one input file) or
//! `--expect auto` (each `X.txt` with `X.solutions.txt` beside it, when
//! there is one), read line by line beside the puzzles.
//!
//! `--input` values naming another input (`regions=@maps.txt`, after the
//! puzzles' `puzzle=@givens.txt`) are companion files, one file each: line
//! k of each fills its input for the k-th puzzle (a jigsaw's region map
//! beside its givens). A companion that ends before the puzzles ends the
//! batch there, with its name and line.

use super::pool::{Puzzle, Puzzles};
use crate::app::Failure;
use dataflow::workbook::InputDef;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One source of puzzles, with the file of its expected answers.
#[derive(Clone, Debug)]
pub struct Source {
    /// `None`: standard input.
    pub path: Option<PathBuf>,
    pub expect: Option<PathBuf>,
}

impl Source {
    /// How the source is named in messages and in the JSON lines.
    fn name(&self) -> String {
        self.path.as_ref().map_or_else(|| "-".to_string(), |p| p.display().to_string())
    }
}

/// What the `--input` values name.
pub struct Found {
    /// The input the puzzles fill (empty: the workbook's only input).
    pub name: String,
    pub sources: Vec<Source>,
    /// Whether the JSON lines name the file (several files, or a directory).
    pub named: bool,
    /// The companion files: each other input named, with its file.
    pub companions: Vec<(String, PathBuf)>,
}

/// The puzzle sources of the `--input` values (`NAME=@SPEC` each; the
/// first input named is the puzzles', every other a companion), paired
/// with their expected answers.
pub fn sources(inputs: &[String], expect: Option<&Path>) -> Result<Found, Failure> {
    let usage = Failure::Usage;
    if inputs.is_empty() {
        return Err(usage(
            "batch takes exactly one --input NAME=@FILE per file of puzzles (@DIR: a directory's puzzle files; \
             @-: standard input)"
                .into(),
        ));
    }
    let mut name: Option<&str> = None;
    let mut found = Vec::new();
    let mut companions: Vec<(String, PathBuf)> = Vec::new();
    let mut named = false;
    for input in inputs {
        let (n, spec) =
            input.split_once('=').ok_or_else(|| usage(format!("--input `{input}`: expected NAME=@FILE")))?;
        let path = spec
            .strip_prefix('@')
            .ok_or_else(|| usage(format!("--input `{input}`: batch reads a file: NAME=@FILE, @DIR or @-")))?;
        let path = Path::new(path);
        if let Some(first) = name.filter(|first| !first.eq_ignore_ascii_case(n)) {
            if n.is_empty() || first.is_empty() {
                return Err(usage(format!(
                    "--input `{input}`: name both inputs when a companion file fills another (NAME=@FILE)"
                )));
            }
            if companions.iter().any(|(c, _)| c.eq_ignore_ascii_case(n)) {
                return Err(usage(format!("--input `{input}`: a companion input takes one file")));
            }
            if path.as_os_str() == "-" || path.is_dir() {
                return Err(usage(format!(
                    "--input `{input}`: an input other than the puzzles' `{first}` is a companion: it reads one file, \
                     line by line beside the puzzles"
                )));
            }
            File::open(path).map_err(|e| usage(format!("cannot read `{}`: {e}", path.display())))?;
            companions.push((n.to_string(), path.to_path_buf()));
            continue;
        }
        named |= name.is_some();
        name = Some(n);
        if path.as_os_str() == "-" {
            found.push(None);
        } else if path.is_dir() {
            named = true;
            found.extend(directory(path)?.into_iter().map(Some));
        } else {
            File::open(path).map_err(|e| usage(format!("cannot read `{}`: {e}", path.display())))?;
            found.push(Some(path.to_path_buf()));
        }
    }
    let sources = pair(found, expect)?;
    Ok(Found { name: name.unwrap_or_default().to_string(), sources, named, companions })
}

/// The puzzle files of a directory, by name (see the module's paragraph).
fn directory(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| Failure::usage(format!("cannot read `{}`: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let stems: Vec<String> = files.iter().map(|p| stem(p)).collect();
    let companion = |s: &str| s.split_once('.').is_some_and(|(x, _)| stems.iter().any(|t| t == x));
    let puzzles: Vec<PathBuf> =
        files.iter().zip(&stems).filter(|(_, s)| !companion(s)).map(|(p, _)| p.clone()).collect();
    if puzzles.is_empty() {
        return Err(Failure::usage(format!("`{}` has no puzzle files (*.txt)", dir.display())));
    }
    Ok(puzzles)
}

/// A file's name without its last `.txt`.
fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Pairs each source with its expected answers (see the module's paragraph).
fn pair(found: Vec<Option<PathBuf>>, expect: Option<&Path>) -> Result<Vec<Source>, Failure> {
    let auto = |path: &Option<PathBuf>| {
        let p = path.as_ref()?.with_file_name(format!("{}.solutions.txt", stem(path.as_ref()?)));
        p.is_file().then_some(p)
    };
    match (expect, found.as_slice()) {
        (None, _) => Ok(found.into_iter().map(|path| Source { path, expect: None }).collect()),
        (Some(e), _) if e.as_os_str() == "auto" => {
            Ok(found.into_iter().map(|path| Source { expect: auto(&path), path }).collect())
        }
        (Some(e), [Some(path)]) => Ok(vec![Source { path: Some(path.clone()), expect: Some(e.to_path_buf()) }]),
        (Some(_), [None]) => Err(Failure::usage("--expect FILE pairs with an input file, not standard input")),
        (Some(_), _) => Err(Failure::usage(
            "--expect FILE pairs with one input file; with several, --expect auto reads each X.txt's X.solutions.txt",
        )),
    }
}

/// Checks each source's expected answers before the run, reading them
/// line by line: enough lines for its puzzles, each one a line of `def`.
/// Returns the number of puzzles in the files when `count` (for a progress
/// bar; `None` when standard input is one of the sources).
pub fn check(sources: &[Source], def: &InputDef, count: bool) -> Result<Option<usize>, Failure> {
    let usage = Failure::Usage;
    let mut total = Some(0);
    for s in sources {
        let Some(path) = &s.path else {
            total = None;
            continue;
        };
        if !count && s.expect.is_none() {
            continue;
        }
        let puzzles = lines(path).map_err(usage)?.try_fold(0, |n, l| l.map(|_| n + 1)).map_err(usage)?;
        total = total.map(|t| t + puzzles);
        let Some(expect) = &s.expect else { continue };
        // Too few lines is reported before a line that does not read.
        let (mut expected, mut unreadable) = (0, None);
        for l in lines(expect).map_err(usage)? {
            let (n, line) = l.map_err(usage)?;
            expected += 1;
            if let (None, Err(m)) = (&unreadable, def.canonical(&line)) {
                unreadable = Some(format!("--expect line {n}: {m}"));
            }
        }
        let of = match sources.len() {
            1 => String::new(),
            _ => format!(" (`{}` for `{}`)", expect.display(), path.display()),
        };
        if expected < puzzles {
            return Err(usage(format!("--expect has {expected} lines for {puzzles} puzzles{of}")));
        }
        if let Some(m) = unreadable {
            return Err(usage(format!("{m}{of}")));
        }
    }
    Ok(total.filter(|_| count))
}

/// The non-blank lines of a file with their 1-based numbers.
fn lines(path: &Path) -> Result<Lines, String> {
    let file = File::open(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    Ok(numbered(Box::new(BufReader::new(file)), path.display().to_string()))
}

type Lines = Box<dyn Iterator<Item = Result<(usize, String), String>> + Send>;

/// The longest line `batch` reads: 1 MiB, far more than any board's
/// puzzle (a 25×25 one is 625 symbols), so that a file with no line breaks
/// (`/dev/zero`) is an error at its first line, not memory exhausted.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The non-blank lines read from `reader` as they come, numbered from 1
/// (blank lines counted), without their `\n` or `\r\n`; bytes that are not
/// UTF-8 read as U+FFFD (a symbol no alphabet has: that puzzle is an
/// error). A line longer than [`MAX_LINE_BYTES`] is an error, and the
/// last item.
fn numbered(mut reader: Box<dyn BufRead + Send>, name: String) -> Lines {
    let (mut n, mut done) = (0, false);
    Box::new(std::iter::from_fn(move || {
        while !done {
            let mut bytes = Vec::new();
            match (&mut reader).take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut bytes) {
                Err(e) => {
                    done = true;
                    return Some(Err(format!("cannot read `{name}`: {e}")));
                }
                Ok(0) => return None,
                Ok(_) => n += 1,
            }
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
            } else if bytes.len() > MAX_LINE_BYTES {
                done = true;
                return Some(Err(format!(
                    "`{name}` line {n} is longer than {MAX_LINE_BYTES} bytes, the most a line may have"
                )));
            }
            let text = String::from_utf8_lossy(&bytes);
            let line = text.strip_suffix('\r').unwrap_or(&text);
            if !line.trim().is_empty() {
                return Some(Ok((n, line.to_string())));
            }
        }
        None
    }))
}

/// Every puzzle of the sources in order, read as they come; each expected
/// line read beside its puzzle and spelled in `def`'s alphabet, and a line
/// of each companion file beside it.
pub fn puzzles(found: Found, def: InputDef) -> Puzzles {
    let Found { sources, named, companions, .. } = found;
    let plain = given(sources, def, named);
    if companions.is_empty() {
        return plain;
    }
    let mut opened = Vec::new();
    for (input, path) in companions {
        match lines(&path) {
            Ok(l) => opened.push((Arc::<str>::from(input), path.display().to_string(), l)),
            Err(m) => return Box::new(std::iter::once(Err(m))),
        }
    }
    let mut failed = false;
    Box::new(plain.map_while(move |p| {
        if failed {
            return None;
        }
        let mut p = match p {
            Ok(p) => p,
            Err(m) => {
                failed = true;
                return Some(Err(m));
            }
        };
        for (input, name, lines) in &mut opened {
            match lines.next() {
                Some(Ok((_, line))) => p.with.push((input.clone(), line)),
                Some(Err(m)) => {
                    failed = true;
                    return Some(Err(m));
                }
                None => {
                    failed = true;
                    return Some(Err(format!(
                        "`{name}` (input `{input}`) has no line for the puzzle on line {}: it ended first",
                        p.line
                    )));
                }
            }
        }
        Some(Ok(p))
    }))
}

/// The puzzles of the sources alone (see [`puzzles`]).
fn given(sources: Vec<Source>, def: InputDef, named: bool) -> Puzzles {
    let def = Arc::new(def);
    Box::new(sources.into_iter().flat_map(move |s| -> Puzzles {
        let file: Option<Arc<str>> = named.then(|| s.name().into());
        let opened = match &s.path {
            None => Ok(numbered(Box::new(BufReader::new(std::io::stdin())), "-".into())),
            Some(p) => lines(p),
        };
        let expected = s.expect.as_deref().map(lines).transpose();
        let (mut input, mut expected) = match (opened, expected) {
            (Ok(i), Ok(e)) => (i, e),
            (Err(m), _) | (_, Err(m)) => return Box::new(std::iter::once(Err(m))),
        };
        let def = def.clone();
        Box::new(std::iter::from_fn(move || {
            let (line, text) = match input.next()? {
                Ok(l) => l,
                Err(m) => return Some(Err(m)),
            };
            let expected = match expected.as_mut().and_then(Iterator::next) {
                Some(Ok((n, e))) => match def.canonical(&e) {
                    Ok(e) => Some(e),
                    Err(m) => return Some(Err(format!("--expect line {n}: {m}"))),
                },
                Some(Err(m)) => return Some(Err(m)),
                None => None,
            };
            // `puzzle,solution`: a line may carry its expected answer after
            // a comma (when the input's symbols have none), which wins.
            let (text, expected) = match text.split_once(',') {
                Some((puzzle, answer)) if !def.alphabet.contains(',') && !def.blanks.contains(',') => {
                    match def.canonical(answer.trim()) {
                        Ok(answer) => (puzzle.to_string(), Some(answer)),
                        Err(m) => return Some(Err(format!("line {line}: the answer after the comma: {m}"))),
                    }
                }
                _ => (text, expected),
            };
            Some(Ok(Puzzle { file: file.clone(), line, text, expected, with: Vec::new() }))
        }))
    }))
}
