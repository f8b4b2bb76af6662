//! Excel's defined names as dataflow names. Excel stores a name's relative
//! references relative to A1, wrapping around the sheet's edges: "the cell
//! 12 rows up", defined at D16, is stored `Main!A1048565`; "the cell to the
//! left" is `Main!XFD1`. [`rebase`] reads every relative row and column as
//! a signed offset from A1 in `[-size/2, size/2)` and anchors the name at
//! the cell nearest A1 from which every one of them lands on the sheet
//! without wrapping (`@ Main!A13 = Main!A1` for the first, `@ Main!B1 =
//! Main!A1` for the second). Bound anywhere, the name means what it meant
//! in Excel: the binder moves relative references by (cell − anchor) with
//! the same wrap-around.
//!
//! Scope: dataflow has workbook names only. A name local to a sheet
//! (`localSheetId`) is imported as a workbook name anchored on that sheet
//! when no other name has its spelling; otherwise it is an error.
//! Excel's built-in names (`_xlnm.Print_Area`, `_xlnm._FilterDatabase`, ...)
//! and its `_xleta.` names (a function passed by name, `BYROW(A1:C3, SUM)`)
//! are skipped; hidden names are imported like the others.

use super::parts::DefinedName;
use std::collections::HashMap;

/// Whether a defined name is one of Excel's built-in names, or one of the
/// hidden `_xleta.SUM` names Excel writes for a function passed by its name.
pub(super) fn built_in(def: &DefinedName) -> bool {
    ["_xlnm.", "_xleta."].iter().any(|x| def.name.get(..x.len()).is_some_and(|p| p.eq_ignore_ascii_case(x)))
}

/// The names to import, each with the sheet its anchor is on, and a
/// message for every sheet-local name that shares its spelling with another.
pub(super) fn scoped<'d>(defs: &'d [DefinedName], sheets: &[String]) -> (Vec<(&'d DefinedName, usize)>, Vec<String>) {
    let mut kept = Vec::new();
    let mut problems = Vec::new();
    let defs: Vec<&DefinedName> = defs.iter().filter(|d| !built_in(d)).collect();
    // Each spelling's definitions, found once (a workbook may have tens of
    // thousands of names).
    let mut spellings: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, d) in defs.iter().enumerate() {
        spellings.entry(d.name.to_ascii_lowercase()).or_default().push(i);
    }
    for (i, d) in defs.iter().enumerate() {
        let indices = &spellings[&d.name.to_ascii_lowercase()];
        let same: Vec<&&DefinedName> = indices.iter().map(|&j| &defs[j]).collect();
        let sheet = d.local_sheet.unwrap_or(0);
        if d.local_sheet.is_some_and(|s| s >= sheets.len()) {
            problems.push(format!(
                "the name `{}` is local to sheet number {} (localSheetId), which does not exist",
                d.name, sheet
            ));
        } else if same.len() == 1 {
            kept.push((*d, sheet));
        } else if indices.first() == Some(&i) {
            let scopes: Vec<String> = same
                .iter()
                .map(|o| {
                    o.local_sheet
                        .and_then(|s| sheets.get(s))
                        .map_or("the workbook".to_string(), |s| format!("sheet `{s}`"))
                })
                .collect();
            problems.push(format!(
                "the name `{}` is defined {} times ({}); dataflow has workbook names only, so each name needs its own spelling",
                d.name,
                same.len(),
                scopes.join(", ")
            ));
        }
    }
    (kept, problems)
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_formula;
    use crate::workbook::relative::rebase;

    fn rebased(text: &str) -> (String, (u32, u32)) {
        let mut e = parse_formula(text).unwrap();
        let anchor = rebase(&mut e);
        (e.to_string(), anchor)
    }

    #[test]
    fn names_wrapped_from_a1_get_small_offsets() {
        // "12 rows up", defined at D16: stored A1-relative with wrap-around.
        assert_eq!(rebased("Main!A1048565"), ("Main!A1".into(), (12, 0)));
        // "the cell to the left" and "the cell above-left".
        assert_eq!(rebased("Main!XFD1"), ("Main!A1".into(), (0, 1)));
        assert_eq!(rebased("Main!XFD1048576"), ("Main!A1".into(), (1, 1)));
        // Three columns right, 12 rows up.
        assert_eq!(rebased("Main!D1048565"), ("Main!D1".into(), (12, 0)));
        // Mixed and absolute references keep their absolute parts.
        assert_eq!(rebased("SUM(Main!$A1048575:$B1048576)+Main!C$5"), ("SUM(Main!$A1:$B2)+Main!C$5".into(), (2, 0)));
        // No relative reference: anchored at A1, text unchanged.
        assert_eq!(rebased("Main!$D$4:$L$12"), ("Main!$D$4:$L$12".into(), (0, 0)));
        // Forward offsets stay as they are.
        assert_eq!(rebased("ROW(Main!B3)"), ("ROW(Main!B3)".into(), (0, 0)));
    }
}
