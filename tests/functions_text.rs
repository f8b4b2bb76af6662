//! Text and information functions in small spreadsheets: LEN, MID, LEFT,
//! RIGHT, SUBSTITUTE, FIND, SEARCH, CHAR, CODE, CONCATENATE, CONCAT,
//! TEXTJOIN, VALUE, UPPER, LOWER, TRIM, EXACT, REPT, the IS* tests and NA(),
//! with Excel's coercions, errors and element-wise behaviour inside names.

use dataflow::sheet::Sheet;
use dataflow::value::{ErrorKind, Value};

fn n(x: f64) -> Value {
    Value::Number(x)
}

fn t(s: &str) -> Value {
    Value::text(s)
}

fn err(e: ErrorKind) -> Value {
    Value::Error(e)
}

/// B1 "Hello World", B2 12.5, B3 TRUE, B4 empty, B5 ="" , B6 #N/A, B7 "ab".
fn sheet() -> Sheet {
    let mut s = Sheet::new();
    s.set("B1", "Hello World");
    s.set("B2", "12.5");
    s.set("B3", "TRUE");
    s.set("B5", "=\"\"");
    s.set("B6", "#N/A");
    s.set("B7", "ab");
    s.recalc();
    s
}

#[test]
fn len_left_right_mid() {
    let mut s = sheet();
    assert_eq!(s.eval("=LEN(B1)"), n(11.0));
    assert_eq!(s.eval("=LEN(B2)"), n(4.0), "numbers in general format");
    assert_eq!(s.eval("=LEN(B3)"), n(4.0));
    assert_eq!(s.eval("=LEN(B4)"), n(0.0));
    assert_eq!(s.eval("=LEN(\"héllo€\")"), n(6.0), "characters, not bytes");
    assert_eq!(s.eval("=LEN(B6)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=LEFT(B1)"), t("H"));
    assert_eq!(s.eval("=LEFT(B1,5)"), t("Hello"));
    assert_eq!(s.eval("=LEFT(B1,50)"), t("Hello World"));
    assert_eq!(s.eval("=LEFT(B1,0)"), t(""));
    assert_eq!(s.eval("=LEFT(B1,-1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=LEFT(1234,2.9)"), t("12"));
    assert_eq!(s.eval("=RIGHT(B1)"), t("d"));
    assert_eq!(s.eval("=RIGHT(B1,5)"), t("World"));
    assert_eq!(s.eval("=RIGHT(B1,99)"), t("Hello World"));
    assert_eq!(s.eval("=RIGHT(\"añob\",3)"), t("ñob"));
    assert_eq!(s.eval("=MID(B1,7,5)"), t("World"));
    assert_eq!(s.eval("=MID(B1,7,99)"), t("World"));
    assert_eq!(s.eval("=MID(B1,20,2)"), t(""));
    assert_eq!(s.eval("=MID(B1,0,2)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=MID(B1,1,-1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=MID(\"日本語です\",2,2)"), t("本語"));
}

#[test]
fn substitute_replaces() {
    let mut s = sheet();
    assert_eq!(s.eval("=SUBSTITUTE(\"a-b-c\",\"-\",\"+\")"), t("a+b+c"));
    assert_eq!(s.eval("=SUBSTITUTE(\"a-b-c\",\"-\",\"+\",2)"), t("a-b+c"));
    assert_eq!(s.eval("=SUBSTITUTE(\"a-b-c\",\"-\",\"+\",3)"), t("a-b-c"));
    assert_eq!(s.eval("=SUBSTITUTE(\"a-b-c\",\"-\",\"+\",0)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=SUBSTITUTE(\"aaa\",\"\",\"x\")"), t("aaa"));
    assert_eq!(s.eval("=SUBSTITUTE(\"Abc\",\"a\",\"x\")"), t("Abc"), "case-sensitive");
    assert_eq!(s.eval("=SUBSTITUTE(1.5,\".\",\",\")"), t("1,5"));
    assert_eq!(s.eval("=SUBSTITUTE(B1,\"o\",\"0\")"), t("Hell0 W0rld"));
}

#[test]
fn find_and_search() {
    let mut s = sheet();
    assert_eq!(s.eval("=FIND(\"o\",B1)"), n(5.0));
    assert_eq!(s.eval("=FIND(\"o\",B1,6)"), n(8.0));
    assert_eq!(s.eval("=FIND(\"O\",B1)"), err(ErrorKind::Value), "FIND is case-sensitive");
    assert_eq!(s.eval("=FIND(\"z\",B1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=FIND(\"\",B1,3)"), n(3.0));
    assert_eq!(s.eval("=FIND(\"o\",B1,0)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=FIND(\"o\",B1,13)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=FIND(\"語\",\"日本語\")"), n(3.0));
    assert_eq!(s.eval("=SEARCH(\"WORLD\",B1)"), n(7.0));
    assert_eq!(s.eval("=SEARCH(\"w?r\",B1)"), n(7.0));
    assert_eq!(s.eval("=SEARCH(\"l*w\",B1)"), n(3.0));
    assert_eq!(s.eval("=SEARCH(\"o\",B1,6)"), n(8.0));
    assert_eq!(s.eval("=SEARCH(\"~?\",\"why? not\")"), n(4.0));
    assert_eq!(s.eval("=SEARCH(\"~*\",\"a*b\")"), n(2.0));
    assert_eq!(s.eval("=SEARCH(\"x\",B1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=SEARCH(\"1\",B2)"), n(1.0));
    assert_eq!(s.eval("=ISNUMBER(SEARCH(\"ell\",B1))"), Value::Bool(true));
}

#[test]
fn char_and_code() {
    let mut s = sheet();
    assert_eq!(s.eval("=CHAR(65)"), t("A"));
    assert_eq!(s.eval("=CHAR(65.9)"), t("A"));
    assert_eq!(s.eval("=CHAR(128)"), t("€"));
    assert_eq!(s.eval("=CHAR(233)"), t("é"));
    assert_eq!(s.eval("=CHAR(0)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=CHAR(256)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=CODE(\"A\")"), n(65.0));
    assert_eq!(s.eval("=CODE(\"abc\")"), n(97.0));
    assert_eq!(s.eval("=CODE(\"€\")"), n(128.0));
    assert_eq!(s.eval("=CODE(\"日\")"), n(63.0));
    assert_eq!(s.eval("=CODE(\"\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=CODE(B2)"), n(49.0));
    assert_eq!(s.eval("=CODE(CHAR(150))"), n(150.0));
}

#[test]
fn concatenation() {
    let mut s = sheet();
    s.set("C1", "x");
    s.set("C3", "z");
    s.set("D1", "1");
    s.set("D2", "2");
    s.recalc();
    assert_eq!(s.eval("=CONCATENATE(\"a\",1,TRUE,B4)"), t("a1TRUE"));
    assert_eq!(s.eval("=CONCATENATE(B2,\"%\")"), t("12.5%"));
    assert_eq!(s.eval("=CONCATENATE(\"a\",B6)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=CONCAT(C1:D3)"), t("x12z"));
    assert_eq!(s.eval("=CONCAT(C1:D3,\"!\",{1,2;3,4})"), t("x12z!1234"));
    assert_eq!(s.eval("=CONCAT(C:C)"), t("xz"));
    assert_eq!(s.eval("=CONCAT(B5:B7)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=TEXTJOIN(\",\",TRUE,C1:C3)"), t("x,z"));
    assert_eq!(s.eval("=TEXTJOIN(\",\",FALSE,C1:C3)"), t("x,,z"));
    assert_eq!(s.eval("=TEXTJOIN(\", \",TRUE,\"a\",\"\",\"b\")"), t("a, b"));
    assert_eq!(s.eval("=TEXTJOIN(\", \",FALSE,\"a\",\"\",\"b\")"), t("a, , b"));
    assert_eq!(s.eval("=TEXTJOIN({\"-\",\"+\"},TRUE,1,2,3,4)"), t("1-2+3-4"));
    assert_eq!(s.eval("=TEXTJOIN(\"\",FALSE,C:C)"), t("xz"));
    assert_eq!(s.eval("=TEXTJOIN(\",\",TRUE,B4:B5)"), t(""));
    assert_eq!(s.eval("=TEXTJOIN(\",\",\"x\",C1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=TEXTJOIN(\",\",FALSE,C:C)"), err(ErrorKind::Value), "over 32,767 characters");
    assert_eq!(s.eval("=TEXTJOIN(\",\",TRUE,B6,C1)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=LEN(REPT(\"ab\",3))"), n(6.0));
    assert_eq!(s.eval("=REPT(\"ab\",20000)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=REPT(\"ab\",-1)"), err(ErrorKind::Value));
}

#[test]
fn value_parses_text() {
    let mut s = sheet();
    assert_eq!(s.eval("=VALUE(\"12\")"), n(12.0));
    assert_eq!(s.eval("=VALUE(\" 1.5e2 \")"), n(150.0));
    assert_eq!(s.eval("=VALUE(\"50%\")"), n(0.5));
    assert_eq!(s.eval("=VALUE(\"1,234\")"), n(1234.0));
    assert_eq!(s.eval("=VALUE(\"$12.50\")"), n(12.5));
    assert_eq!(s.eval("=VALUE(\"(3)\")"), n(-3.0));
    assert_eq!(s.eval("=VALUE(\"6:00\")"), n(0.25));
    assert_eq!(s.eval("=VALUE(B2)"), n(12.5));
    assert_eq!(s.eval("=VALUE(B4)"), n(0.0));
    assert_eq!(s.eval("=VALUE(\"abc\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=VALUE(\"\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=VALUE(TRUE)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=VALUE(B6)"), err(ErrorKind::NA));
}

#[test]
fn case_trim_exact() {
    let mut s = sheet();
    assert_eq!(s.eval("=UPPER(B1)"), t("HELLO WORLD"));
    assert_eq!(s.eval("=LOWER(\"ÀB\")"), t("àb"));
    assert_eq!(s.eval("=TRIM(\"  a   b  \")"), t("a b"));
    assert_eq!(s.eval("=EXACT(\"a\",\"A\")"), Value::Bool(false));
    assert_eq!(s.eval("=EXACT(\"1\",1)"), Value::Bool(true));
}

#[test]
fn is_functions() {
    let mut s = sheet();
    assert_eq!(s.eval("=ISNUMBER(B2)"), Value::Bool(true));
    assert_eq!(s.eval("=ISNUMBER(\"3\")"), Value::Bool(false));
    assert_eq!(s.eval("=ISNUMBER(B4)"), Value::Bool(false));
    assert_eq!(s.eval("=ISTEXT(B1)"), Value::Bool(true));
    assert_eq!(s.eval("=ISTEXT(B5)"), Value::Bool(true), "a formula's \"\" is text");
    assert_eq!(s.eval("=ISTEXT(B2)"), Value::Bool(false));
    assert_eq!(s.eval("=ISNONTEXT(B4)"), Value::Bool(true));
    assert_eq!(s.eval("=ISLOGICAL(B3)"), Value::Bool(true));
    assert_eq!(s.eval("=ISBLANK(B4)"), Value::Bool(true));
    assert_eq!(s.eval("=ISBLANK(B5)"), Value::Bool(false));
    assert_eq!(s.eval("=ISBLANK(\"\")"), Value::Bool(false));
    assert_eq!(s.eval("=ISBLANK(Z99)"), Value::Bool(true));
    assert_eq!(s.eval("=ISERROR(B6)"), Value::Bool(true));
    assert_eq!(s.eval("=ISERROR(1/0)"), Value::Bool(true));
    assert_eq!(s.eval("=ISERROR(B1)"), Value::Bool(false));
    assert_eq!(s.eval("=ISERR(B6)"), Value::Bool(false));
    assert_eq!(s.eval("=ISERR(1/0)"), Value::Bool(true));
    assert_eq!(s.eval("=ISNA(NA())"), Value::Bool(true));
    assert_eq!(s.eval("=NA()"), err(ErrorKind::NA));
}

#[test]
fn is_blank_of_an_empty_formula_result() {
    let mut s = Sheet::new();
    s.set("A2", "=C1");
    s.set("A3", "=ISBLANK(A2)");
    s.set("A4", "=ISBLANK(C1)");
    s.recalc();
    assert_eq!(s.value("A2"), n(0.0), "a formula reading an empty cell shows 0");
    assert_eq!(s.value("A3"), Value::Bool(false));
    assert_eq!(s.value("A4"), Value::Bool(true));
}

#[test]
fn lifted_inside_names() {
    let mut s = sheet();
    s.set("C1", "apple");
    s.set("C2", "kiwi");
    s.set("C3", "fig");
    s.name("lens", "=LEN(C1:C3)");
    s.name("firsts", "=LEFT(C1:C3,{1,2})");
    s.name("kinds", "=ISTEXT(B1:B7)");
    s.name("joined", "=C1:C3&\"!\"");
    s.recalc();
    assert_eq!(s.eval("=SUM(lens)"), n(12.0));
    assert_eq!(s.eval("=ROWS(firsts)*10+COLUMNS(firsts)"), n(32.0));
    assert_eq!(s.eval("=INDEX(firsts,2,2)"), t("ki"));
    assert_eq!(s.eval("=SUM(--kinds)"), n(3.0));
    assert_eq!(s.eval("=CONCAT(joined)"), t("apple!kiwi!fig!"));
    assert_eq!(s.eval("=TEXTJOIN(\"/\",TRUE,UPPER(lens&\"x\"))"), t("5X/4X/3X"));
    assert_eq!(s.eval_at("A2", "=TEXTJOIN(\"/\",TRUE,UPPER(C1:C3))"), t("KIWI"), "outside names, intersection");
    assert_eq!(s.eval("=SUM(LEN({\"a\",\"bb\";\"ccc\",\"\"}))"), n(6.0));
    // In a cell, a range argument meets the cell's row.
    s.set("D2", "=LEN(C1:C3)");
    s.recalc();
    assert_eq!(s.value("D2"), n(4.0));
}

#[test]
fn more_lifted_inside_names() {
    let mut s = sheet();
    s.set("C1", "apple");
    s.set("C2", "kiwi");
    s.set("C3", "fig");
    s.name("mids", "=MID(C1:C3,2,2)");
    s.name("rights", "=RIGHT(C1:C3)");
    s.name("subs", "=SUBSTITUTE(C1:C3,\"i\",\"I\")");
    s.name("found", "=IFERROR(FIND(\"i\",C1:C3),0)");
    s.name("searched", "=ISNUMBER(SEARCH(\"?i\",C1:C3))");
    s.name("chars", "=CHAR({72,105})");
    s.name("codes", "=CODE(C1:C3)");
    s.name("vals", "=VALUE({\"1\",\"2.5\",\"x\"})");
    s.name("blanks", "=ISBLANK(B3:B5)");
    s.name("errs", "=ISERROR(B5:B7)");
    s.recalc();
    assert_eq!(s.eval("=CONCAT(mids)"), t("ppiwig"));
    assert_eq!(s.eval("=CONCAT(rights)"), t("eig"));
    assert_eq!(s.eval("=CONCAT(subs)"), t("applekIwIfIg"));
    assert_eq!(s.eval("=SUM(found)"), n(4.0));
    assert_eq!(s.eval("=SUM(--searched)"), n(2.0));
    assert_eq!(s.eval("=CONCAT(chars)"), t("Hi"));
    assert_eq!(s.eval("=SUM(codes)"), n(97.0 + 107.0 + 102.0));
    assert_eq!(s.eval("=INDEX(vals,1,3)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=SUM(IFERROR(vals,0))"), n(3.5));
    assert_eq!(s.eval("=SUM(--blanks)"), n(1.0));
    assert_eq!(s.eval("=SUM(--errs)"), n(1.0));
}
