//! The workbook's date system beyond the formula corpus (which runs in the
//! 1900 system): formulas in the 1904 system, a live engine switched from
//! one to the other, the system kept through RON, xlsx (`date1904`) and
//! ods (`table:null-date`), and `--now` pinning TODAY and NOW.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod export;

use common::{dataflow, expect_exit};
use dataflow::address::{CellAddr, parse_a1};
use dataflow::export::{Format, export};
use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use dataflow::value::date::DateSystem;
use export::{part, render, round_trip, temp};

fn n(x: f64) -> Value {
    Value::Number(x)
}

fn text(s: &str) -> Value {
    Value::text(s)
}

/// 1,462 days: from 1900-01-00 to 1904-01-01.
const SHIFT: f64 = 1462.0;

fn sheet_1904() -> Sheet {
    let mut s = Sheet::new();
    s.settings_mut().date_system = DateSystem::D1904;
    s
}

#[test]
fn formulas_count_from_1904() {
    let mut s = sheet_1904();
    s.set("B1", "0");
    s.set("B2", "=DATE(2008,1,1)");
    s.recalc();
    assert_eq!(s.value("B2"), n(39_448.0 - SHIFT));
    for (formula, want) in [
        ("=YEAR(B1)", n(1904.0)),
        ("=MONTH(B1)", n(1.0)),
        ("=DAY(B1)", n(1.0)),
        // 1904-01-01 was a Friday
        ("=WEEKDAY(B1)", n(6.0)),
        ("=TEXT(B1,\"yyyy-mm-dd dddd\")", text("1904-01-01 Friday")),
        ("=TEXT(B2,\"d mmm yyyy\")", text("1 Jan 2008")),
        ("=DATE(1904,1,1)", n(0.0)),
        ("=DATE(1903,12,31)", Value::Error(dataflow::value::ErrorKind::Num)),
        ("=DATE(9999,12,31)", n(2_957_003.0)),
        ("=DATE(9999,12,32)", Value::Error(dataflow::value::ErrorKind::Num)),
        ("=YEAR(2957004)", Value::Error(dataflow::value::ErrorKind::Num)),
        ("=DATEVALUE(\"1/1/1904\")", n(0.0)),
        ("=DATEVALUE(\"12/31/1903\")", Value::Error(dataflow::value::ErrorKind::Value)),
        ("=\"2024-01-31\"+1", n(45_323.0 - SHIFT)),
        ("=\"1/1/1903\"+0", Value::Error(dataflow::value::ErrorKind::Value)),
        ("=TODAY()", n(46_354.0 - SHIFT)),
        ("=NOW()-TODAY()", n(Sheet::NOW - 46_354.0)),
        ("=EDATE(B2,1)", n(39_479.0 - SHIFT)),
        ("=EOMONTH(B1,-1)", Value::Error(dataflow::value::ErrorKind::Num)),
        ("=WORKDAY(B1,1)", n(3.0)),
        ("=NETWORKDAYS(B1,B1+6)", n(5.0)),
        ("=DATEDIF(B1,B2,\"Y\")", n(104.0)),
        ("=YEARFRAC(B1,B2)", n(104.0)),
        ("=DAYS360(B1,B2)", n(104.0 * 360.0)),
        ("=ISOWEEKNUM(B1)", n(53.0)),
        // times do not depend on the system
        ("=TIME(12,0,0)", n(0.5)),
        ("=HOUR(B1+0.75)", n(18.0)),
    ] {
        assert_eq!(s.eval(formula), want, "{formula}");
    }
}

#[test]
fn changing_the_system_on_a_live_engine_recalculates_what_depends_on_it() {
    let mut s = Sheet::new();
    s.set("A1", "=YEAR(1)");
    s.set("A2", "=\"1/1/2000\"+0");
    s.set("A3", "=TEXT(0,\"yyyy\")");
    s.recalc();
    assert_eq!((s.value("A1"), s.value("A2"), s.value("A3")), (n(1900.0), n(36_526.0), text("1900")));
    s.settings_mut().date_system = DateSystem::D1904;
    s.mark_all_dirty();
    s.recalc();
    // Nothing was folded to its 1900 value at binding.
    assert_eq!((s.value("A1"), s.value("A2"), s.value("A3")), (n(1904.0), n(36_526.0 - SHIFT), text("1904")));
}

const RON_1904: &str = r#"Workbook(
    sheets: ["Main"],
    calc: (iterate: false, date_system: "1904"),
    cells: {
        "A1": 0,
        "A2": "=DATE(2020,1,1)",
        "A3": "=TEXT(A2,\"yyyy-mm-dd\")",
        "A4": "=YEAR(A1)",
    },
)"#;

fn load(name: &str, ron: &str) -> Session {
    let path = temp(name);
    std::fs::write(&path, ron).unwrap();
    let mut s = Session::load(&path).unwrap_or_else(|d| panic!("{}", render(&d)));
    s.recalc();
    s
}

fn cell(s: &Session, a1: &str) -> Value {
    let (row, col) = parse_a1(a1).unwrap();
    s.engine().grid().get(CellAddr::new(0, row, col)).clone()
}

#[test]
fn the_1904_system_is_read_from_ron_and_kept_through_xlsx() {
    let s = load("dates_1904.ron", RON_1904);
    assert_eq!(s.workbook().calc.date_system, DateSystem::D1904);
    assert_eq!(cell(&s, "A2"), n(43_831.0 - SHIFT));
    assert_eq!(cell(&s, "A3"), text("2020-01-01"));
    assert_eq!(cell(&s, "A4"), n(1904.0));
    let out = export(&s, Format::Xlsx).unwrap_or_else(|p| panic!("{p:?}"));
    assert!(part(&out.bytes, "xl/workbook.xml").contains(r#"date1904="1""#));
    let (mut back, _) = round_trip(&s);
    assert_eq!(back.workbook().calc.date_system, DateSystem::D1904);
    back.recalc();
    assert_eq!(cell(&back, "A2"), n(43_831.0 - SHIFT), "the serial stored is the 1904 one");
    assert_eq!(cell(&back, "A3"), text("2020-01-01"));
}

#[test]
fn the_1900_system_writes_no_date1904_and_ods_says_its_null_date() {
    let s = load("dates_1900.ron", &RON_1904.replace(r#", date_system: "1904""#, ""));
    assert_eq!(s.workbook().calc.date_system, DateSystem::D1900);
    assert_eq!(cell(&s, "A3"), text("2020-01-01"));
    let out = export(&s, Format::Xlsx).unwrap();
    assert!(!part(&out.bytes, "xl/workbook.xml").contains("date1904"));
    let (back, _) = round_trip(&s);
    assert_eq!(back.workbook().calc.date_system, DateSystem::D1900);
    let ods = export(&s, Format::Ods).unwrap();
    assert!(!part(&ods.bytes, "content.xml").contains("null-date"));
    let ods = export(&load("dates_1904_ods.ron", RON_1904), Format::Ods).unwrap();
    assert!(part(&ods.bytes, "content.xml").contains(r#"<table:null-date table:date-value="1904-01-01"/>"#));
}

#[test]
fn a_bad_date_system_is_a_located_error() {
    let path = temp("dates_bad_system.ron");
    std::fs::write(&path, RON_1904.replace(r#""1904""#, r#""1905""#)).unwrap();
    let d = Session::load(&path).err().expect("1905 is refused");
    let shown = render(&d);
    assert!(shown.contains("unknown date system `1905`"), "{shown}");
}

#[test]
fn now_pins_today_and_now_on_the_command_line() {
    let path = temp("dates_now.ron");
    std::fs::write(&path, RON_1904).unwrap();
    let p = path.to_str().unwrap();
    let out = expect_exit(0, &["eval", p, "=TODAY()+NOW()", "--now", "2026-11-28T06:00"]);
    assert_eq!(out.stdout.trim(), (2.0 * (46_354.0 - SHIFT) + 0.25).to_string());
    let out = expect_exit(0, &["eval", p, "=TEXT(NOW(),\"yyyy-mm-dd h:mm:ss\")", "--now", "2026-11-28 17:30:15"]);
    assert_eq!(out.stdout.trim(), "2026-11-28 17:30:15");
    let out = dataflow(&["eval", p, "=TODAY()", "--now", "2026-02-30"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("2026-02-30"), "{}", out.stderr);
}

/// A workbook saved as strict Open XML gives its dates as ISO text
/// (`<c t="d"><v>2009-05-11</v>`): they are read as serial numbers.
#[test]
#[ignore = "needs ../shared/excel-files (run by .ci/run when it is there)"]
fn strict_open_xml_dates_are_serial_numbers() {
    let path = std::path::Path::new(
        "../shared/excel-files/files/ExcelDataReader__ExcelDataReader/src/TestData/strict/Test_num_double_date_bool_string.xlsx",
    );
    assert!(path.exists(), "{} is absent: this test needs ../shared", path.display());
    let mut s = Session::load(path).unwrap_or_else(|d| panic!("{}", render(&d)));
    s.recalc();
    // C1 holds 2009-05-11; C2 is =C1+7.
    assert_eq!(cell(&s, "C1"), n(39_944.0));
    assert_eq!(cell(&s, "C2"), n(39_951.0));
}
