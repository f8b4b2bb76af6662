//! What an xlsx package may hold before calamine reads it. calamine reads
//! a sheet's shared strings and styles whole, into memory: a small file
//! whose `sharedStrings.xml` inflates to gigabytes, or whose `styles.xml`
//! lists tens of millions of formats, would abort the process. So every
//! part is checked first: its size as the zip's directory states it, and,
//! for a part whose compressed data could inflate past the cap, its size
//! as it actually inflates (a directory can lie), read through and
//! dropped. The shared strings and the cell formats are also counted while
//! they inflate: more of them than a workbook has cells cannot be needed.

use super::parts::{MAX_PART_BYTES, Zip};
use crate::grid::MAX_GRID_CELLS;
use std::io::{Read, Seek};

/// Compressed parts at most this large cannot inflate past the cap
/// (deflate inflates at most about 1,032 times), so they are not read.
const SMALL_COMPRESSED: u64 = MAX_PART_BYTES / 1032;

/// The parts whose elements calamine keeps one by one, and the element
/// counted in each.
const COUNTED: [(&str, &[u8]); 2] = [("xl/sharedStrings.xml", b"<si"), ("xl/styles.xml", b"<xf")];

/// Checks every part of the package; the first problem names its part.
pub(in crate::workbook) fn check<R: Read + Seek>(zip: &mut Zip<R>) -> Result<(), String> {
    for i in 0..zip.len() {
        let mut file = zip.by_index(i).map_err(|e| format!("cannot read the package's part {i}: {e}"))?;
        let name = file.name().map_err(|e| format!("the package's part {i} has no readable name: {e}"))?.to_string();
        if file.size() > MAX_PART_BYTES {
            return Err(format!("the part `{name}` unpacks to {} bytes, more than {MAX_PART_BYTES}", file.size()));
        }
        let counted = COUNTED.iter().find(|(part, _)| name.eq_ignore_ascii_case(part)).map(|(_, tag)| *tag);
        if file.compressed_size() <= SMALL_COMPRESSED && counted.is_none() {
            continue;
        }
        let (bytes, tags) = inflate(&mut file, counted).map_err(|e| format!("cannot read the part `{name}`: {e}"))?;
        if bytes > MAX_PART_BYTES {
            return Err(format!("the part `{name}` unpacks to more than {MAX_PART_BYTES} bytes"));
        }
        if tags > MAX_GRID_CELLS {
            return Err(format!(
                "the part `{name}` lists more than {MAX_GRID_CELLS} entries, more than a workbook has cells"
            ));
        }
    }
    Ok(())
}

/// Reads `file` through, at most one byte past the cap; returns the bytes
/// read and how many times `tag` occurs (0 without one).
fn inflate(file: &mut impl Read, tag: Option<&[u8]>) -> std::io::Result<(u64, u64)> {
    let mut limited = file.take(MAX_PART_BYTES + 1);
    let mut buf = vec![0u8; 1 << 16];
    let (mut bytes, mut tags) = (0u64, 0u64);
    // The last bytes of the previous chunk, so a tag split between two
    // chunks is counted once.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = limited.read(&mut buf)?;
        if n == 0 {
            return Ok((bytes, tags));
        }
        bytes += n as u64;
        if let Some(tag) = tag {
            let mut window = std::mem::take(&mut carry);
            window.extend_from_slice(&buf[..n]);
            tags += count(&window, tag);
            let keep = window.len().min(tag.len() - 1);
            carry = window[window.len() - keep..].to_vec();
        }
    }
}

/// Occurrences of `tag` in `text` followed by a space, `>` or `/` (so
/// `<si` does not count `<sis`).
fn count(text: &[u8], tag: &[u8]) -> u64 {
    text.windows(tag.len() + 1)
        .filter(|w| w.starts_with(tag) && matches!(w[tag.len()], b' ' | b'>' | b'/' | b'\t' | b'\n' | b'\r'))
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_counted_across_chunks_and_not_as_prefixes() {
        let text = "<si><t>a</t></si><sis/><si/>".repeat(30_000);
        let (bytes, tags) = inflate(&mut text.as_bytes(), Some(b"<si")).expect("reads");
        assert_eq!((bytes, tags), (text.len() as u64, 60_000));
    }
}
