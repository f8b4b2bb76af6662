//! Where a workbook's files come from. Loading reads the workbook file and
//! the formula files it includes through a [`Files`]: [`Disk`] reads the
//! file system (the command line's way), [`MemoryFiles`] holds texts given
//! by name, so a notebook, a browser page or a test builds a workbook
//! without touching the disk. Paths are cleaned (`a/./b`, `a/../b`) before
//! they are looked up, so `formulas/x.dfl` and `workbooks/../formulas/x.dfl`
//! name one file in either.

use std::collections::HashMap;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Why a file could not be read; the loader words the message and places
/// it at the file's mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    NotFound,
    /// It exists but is a directory, a FIFO, a device or a socket (which
    /// could never be read, or would block the reader forever).
    NotRegular(&'static str),
    /// Its bytes are not UTF-8 text (for a text file).
    NotText,
    Other(String),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::NotFound => f.write_str("file not found"),
            FileError::NotRegular(what) => write!(f, "it is {what}"),
            FileError::NotText => f.write_str("not UTF-8 text"),
            FileError::Other(m) => f.write_str(m),
        }
    }
}

/// A source of files, looked up by path.
pub trait Files: Send + Sync {
    /// The bytes of the file at `path` (cleaned, see [`clean`]).
    fn read(&self, path: &Path) -> Result<Vec<u8>, FileError>;

    /// The size in bytes of the file at `path`, when it can be told
    /// without reading it (so a huge file is refused before it is read).
    fn size(&self, _path: &Path) -> Option<u64> {
        None
    }

    /// The file at `path` as text, a leading byte-order mark dropped.
    fn read_text(&self, path: &Path) -> Result<String, FileError> {
        let text = String::from_utf8(self.read(path)?).map_err(|_| FileError::NotText)?;
        Ok(match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        })
    }
}

/// The file system: regular files only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Files for Disk {
    fn read(&self, path: &Path) -> Result<Vec<u8>, FileError> {
        if let Some(what) = not_regular(path) {
            return Err(FileError::NotRegular(what));
        }
        std::fs::read(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => FileError::NotFound,
            _ => FileError::Other(e.to_string()),
        })
    }

    fn size(&self, path: &Path) -> Option<u64> {
        std::fs::metadata(path).ok().map(|m| m.len())
    }
}

/// Files held in memory, by path: `formulas/x.dfl` → its text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryFiles {
    files: HashMap<PathBuf, Vec<u8>>,
}

impl MemoryFiles {
    pub fn new() -> MemoryFiles {
        MemoryFiles::default()
    }

    /// Adds (or replaces) the file at `path`.
    pub fn insert(&mut self, path: impl AsRef<Path>, contents: impl Into<Vec<u8>>) {
        self.files.insert(clean(path.as_ref()), contents.into());
    }

    /// [`MemoryFiles::insert`], chained.
    pub fn with(mut self, path: impl AsRef<Path>, contents: impl Into<Vec<u8>>) -> MemoryFiles {
        self.insert(path, contents);
        self
    }
}

impl<P: AsRef<Path>, T: Into<Vec<u8>>> FromIterator<(P, T)> for MemoryFiles {
    fn from_iter<I: IntoIterator<Item = (P, T)>>(iter: I) -> MemoryFiles {
        let mut files = MemoryFiles::new();
        iter.into_iter().for_each(|(p, t)| files.insert(p, t));
        files
    }
}

impl Files for MemoryFiles {
    fn read(&self, path: &Path) -> Result<Vec<u8>, FileError> {
        self.files.get(&clean(path)).cloned().ok_or(FileError::NotFound)
    }
}

/// What the file at `path` is when it exists but is not a regular file (a
/// directory, a FIFO, a device, a socket), which could never be read or
/// would block the reader forever; None otherwise.
pub(crate) fn not_regular(path: &Path) -> Option<&'static str> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Removes `.` and resolves `..` against the preceding component, so
/// messages show `formulas/x.dfl` rather than `workbooks/../formulas/x.dfl`.
pub fn clean(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.is_empty() { PathBuf::from(".") } else { out.iter().collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_paths() {
        assert_eq!(clean(Path::new("workbooks/../formulas/./x.dfl")), PathBuf::from("formulas/x.dfl"));
        assert_eq!(clean(Path::new("../a/b")), PathBuf::from("../a/b"));
        assert_eq!(clean(Path::new("x.dfl")), PathBuf::from("x.dfl"));
        assert_eq!(clean(Path::new("./")), PathBuf::from("."));
    }

    #[test]
    fn memory_files_are_found_under_any_spelling_of_their_path() {
        let files = MemoryFiles::new().with("formulas/x.dfl", "\u{feff}cells A1 = 1");
        assert_eq!(files.read_text(Path::new("a/../formulas/./x.dfl")).as_deref(), Ok("cells A1 = 1"));
        assert_eq!(files.read(Path::new("formulas/y.dfl")), Err(FileError::NotFound));
        let bad = MemoryFiles::new().with("b.dfl", vec![0xff, 0xfe, 0x00]);
        assert_eq!(bad.read_text(Path::new("b.dfl")), Err(FileError::NotText));
    }

    #[test]
    fn disk_refuses_what_is_not_a_regular_file() {
        let dir = std::env::temp_dir();
        assert_eq!(Disk.read(&dir), Err(FileError::NotRegular("a directory")));
        assert_eq!(Disk.read(&dir.join("no-such-file-here.dfl")), Err(FileError::NotFound));
    }
}
