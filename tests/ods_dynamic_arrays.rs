//! The Excel 365 array functions in an `.ods` export: each is written by
//! the name LibreOffice gives it in OpenFormula (`COM.MICROSOFT.FILTER`,
//! as LibreOffice's own table of ODFF names has them: its
//! `formula/inc/core_resource.hrc`), and, since LibreOffice 7.4 (the
//! version the registry records) has none of them, the export warns for
//! each formula that calls one.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod export;

use dataflow::export::{Format, export as export_to};
use dataflow::functions::lookup;
use dataflow::session::Session;
use export::{part, render, temp};

/// Each function, with a call of it.
const CALLS: [(&str, &str); 19] = [
    ("FILTER", "FILTER(A1:A3,A1:A3>1)"),
    ("SORT", "SORT(A1:A3)"),
    ("SORTBY", "SORTBY(A1:A3,B1:B3)"),
    ("UNIQUE", "UNIQUE(A1:A3)"),
    ("TAKE", "TAKE(A1:A3,2)"),
    ("DROP", "DROP(A1:A3,1)"),
    ("EXPAND", "EXPAND(A1:A3,4)"),
    ("VSTACK", "VSTACK(A1:A3,B1:B3)"),
    ("HSTACK", "HSTACK(A1:A3,B1:B3)"),
    ("CHOOSEROWS", "CHOOSEROWS(A1:A3,1)"),
    ("CHOOSECOLS", "CHOOSECOLS(A1:B3,2)"),
    ("TOCOL", "TOCOL(A1:B3)"),
    ("TOROW", "TOROW(A1:B3)"),
    ("WRAPROWS", "WRAPROWS(A1:A3,2)"),
    ("WRAPCOLS", "WRAPCOLS(A1:A3,2)"),
    ("TEXTSPLIT", "TEXTSPLIT(\"a,b\",\",\")"),
    ("RANDARRAY", "RANDARRAY(2)"),
    ("SEQUENCE", "SEQUENCE(3)"),
    ("TRIMRANGE", "TRIMRANGE(A1:A9)"),
];

#[test]
fn the_registry_gives_each_libreoffices_name_and_no_libreoffice_7_4() {
    for (name, _) in CALLS {
        let f = lookup(name).unwrap_or_else(|| panic!("{name} is registered"));
        assert_eq!(f.openformula_name(), format!("COM.MICROSOFT.{name}"), "{name}");
        assert!(!f.in_libreoffice, "{name}: LibreOffice 7.4 lacks it");
        assert!(f.xlfn(), "{name} is newer than Excel 2007");
    }
}

#[test]
fn an_ods_export_writes_their_names_and_warns_for_each() {
    let mut cells = String::from("\"A1\": 1, \"A2\": 3, \"A3\": 2, \"B1\": 3, \"B2\": 2, \"B3\": 1,\n");
    for (i, (_, call)) in CALLS.iter().enumerate() {
        cells.push_str(&format!("\"D{}\": \"=ROWS({})\",\n", i + 1, call.replace('"', "\\\"")));
    }
    let ron = format!("Workbook(\n    sheets: [\"Main\"],\n    cells: {{\n{cells}    }},\n)");
    let path = temp("ods_dynamic_arrays.ron");
    std::fs::write(&path, ron).unwrap();
    let mut s = Session::load(&path).unwrap_or_else(|d| panic!("{}", render(&d)));
    s.recalc();
    let out = export_to(&s, Format::Ods).unwrap_or_else(|p| panic!("{p:?}"));
    let content = part(&out.bytes, "content.xml");
    for (i, (name, _)) in CALLS.iter().enumerate() {
        assert!(content.contains(&format!("of:=ROWS(COM.MICROSOFT.{name}(")), "{name}: {content}");
        let warning = format!("Main!D{} calls {name}, which LibreOffice 7.4 does not have", i + 1);
        assert!(out.warnings.contains(&warning), "{warning}: {:?}", out.warnings);
    }
}
