//! The function registry against itself and its documentation: every
//! category table's names are upper case and unique across categories, and
//! docs/formulas.md lists each function, with its argument count, in the
//! section of its category's module; the documentation lists no function
//! the registry lacks. What the file formats read off an entry is checked
//! against lists written down here from Excel's and LibreOffice's own: the
//! functions Excel 2007 already had (every later one is stored in an xlsx
//! as `_xlfn.NAME`).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::functions::{self, CATEGORIES};
use std::collections::HashSet;

/// The function rows of docs/formulas.md: (section heading, name, count).
fn documented() -> Vec<(String, String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/formulas.md");
    let text = std::fs::read_to_string(path).expect("docs/formulas.md");
    let (mut heading, mut rows) = (String::new(), Vec::new());
    for line in text.lines() {
        if line.starts_with('#') {
            heading = line.to_string();
        } else if let Some(row) = line.strip_prefix("| `") {
            let cells: Vec<&str> = row.split(" | ").collect();
            if let (Some((name, _)), Some(count)) = (cells[0].split_once('('), cells.get(1))
                && heading.contains("src/functions/")
            {
                rows.push((heading.clone(), name.to_string(), count.to_string()));
            }
        }
    }
    rows
}

#[test]
fn names_are_upper_case_and_unique_across_categories() {
    let mut seen = HashSet::new();
    for (category, table) in CATEGORIES {
        assert!(!table.is_empty(), "{category} has no functions");
        for f in table {
            let ok = f.name.starts_with(|c: char| c.is_ascii_uppercase())
                && f.name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '.');
            assert!(ok, "{category}: `{}` is not an upper-case function name", f.name);
            assert!(seen.insert(f.name), "{} is listed twice", f.name);
            assert!(f.min_args <= f.max_args && f.max_args <= functions::VARIADIC, "{}: argument counts", f.name);
        }
    }
}

#[test]
fn every_function_is_documented_in_its_category_with_its_count() {
    let docs = documented();
    for (category, table) in CATEGORIES {
        let module = format!("`src/functions/{category}.rs`");
        assert!(docs.iter().any(|(h, _, _)| h.contains(&module)), "no section for {module} in docs/formulas.md");
        for f in table {
            let row = docs.iter().find(|(_, name, _)| name == f.name);
            let Some((heading, _, count)) = row else { panic!("{} is not in docs/formulas.md", f.name) };
            assert!(heading.contains(&module), "{} is documented under `{heading}`, not {module}", f.name);
            assert_eq!(*count, f.arity(), "{}: documented argument count", f.name);
        }
    }
}

#[test]
fn the_documentation_lists_only_registered_functions() {
    let docs = documented();
    assert!(docs.len() >= functions::all().count());
    for (heading, name, _) in &docs {
        assert!(functions::lookup(name).is_some(), "{name} (under `{heading}`) is not a registered function");
    }
    let names: HashSet<&str> = docs.iter().map(|(_, n, _)| n.as_str()).collect();
    assert_eq!(names.len(), docs.len(), "a function is documented twice");
    let text = std::fs::read_to_string("docs/formulas.md").unwrap();
    let stated = format!("dataflow has **{} functions**", functions::all().count());
    assert!(text.contains(&stated), "docs/formulas.md does not say `{stated}`");
}

/// The registry's functions that Excel 2007 already had: the file format's
/// own, stored in an xlsx by their plain names. IFERROR, the *IFS family
/// (COUNTIFS, SUMIFS, AVERAGEIFS) and the Analysis ToolPak functions
/// (ISEVEN, QUOTIENT, DEC2HEX, EDATE, NETWORKDAYS, ...) are Excel 2007's; MAXIFS and MINIFS
/// are not. Every other one is on Microsoft's list of "future functions"
/// (which rust_xlsxwriter's `_xlfn.` table mirrors).
#[rustfmt::skip]
const EXCEL_2007: &[&str] = &[
    // math
    "MOD", "INT", "ABS", "ROUND", "SQRT", "POWER", "COS", "SIN", "PI", "EXP", "LN", "PRODUCT", "SUMSQ", "QUOTIENT",
    "SIGN", "TRUNC", "ROUNDUP", "ROUNDDOWN", "CEILING", "FLOOR", "EVEN", "ODD", "DEC2HEX", "HEX2DEC", "MMULT",
    "TRANSPOSE",
    // logical
    "IF", "IFERROR", "AND", "OR", "NOT", "CHOOSE", "TRUE", "FALSE",
    // lookup
    "INDEX", "MATCH", "ROW", "COLUMN", "ROWS", "COLUMNS", "OFFSET", "INDIRECT", "VLOOKUP", "HLOOKUP", "LOOKUP",
    "ADDRESS", "AREAS",
    // stats
    "SUM", "COUNT", "COUNTA", "COUNTBLANK", "MAX", "MIN", "MAXA", "MINA", "AVERAGE", "AVERAGEA", "SUMPRODUCT",
    "SMALL", "LARGE", "MEDIAN", "MODE", "RANK", "FREQUENCY", "COUNTIF", "COUNTIFS", "SUMIF", "AVERAGEIF", "SUMIFS",
    "AVERAGEIFS",
    // text
    "LEN", "MID", "LEFT", "RIGHT", "SUBSTITUTE", "FIND", "SEARCH", "CHAR", "CODE", "CONCATENATE", "VALUE", "TEXT",
    "UPPER", "LOWER", "TRIM", "PROPER", "CLEAN", "EXACT", "REPT",
    // info
    "ISNUMBER", "ISTEXT", "ISNONTEXT", "ISLOGICAL", "ISBLANK", "ISERROR", "ISERR", "ISNA", "ISEVEN", "ISODD", "ISREF",
    "ERROR.TYPE", "TYPE", "N", "T", "NA",
    // date
    "DATE", "TIME", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "WEEKDAY", "WEEKNUM", "DATEVALUE",
    "TIMEVALUE", "EDATE", "EOMONTH", "DAYS360", "DATEDIF", "YEARFRAC", "NETWORKDAYS", "WORKDAY", "TODAY", "NOW",
    // math, added with the financial functions (ISO.CEILING came with Excel
    // 2010, but Microsoft's list of future functions names it bare)
    "LOG", "LOG10", "SQRTPI", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "SINH", "COSH", "TANH", "ASINH", "ACOSH",
    "ATANH", "DEGREES", "RADIANS", "GCD", "LCM", "FACT", "FACTDOUBLE", "COMBIN", "PERMUT", "MULTINOMIAL", "MROUND",
    "ISO.CEILING", "ROMAN", "SUBTOTAL", "RAND", "RANDBETWEEN", "SUMX2MY2", "SUMX2PY2", "SUMXMY2", "SERIESSUM",
    "MINVERSE", "MDETERM",
    // finance
    "PV", "FV", "PMT", "IPMT", "PPMT", "NPER", "RATE", "CUMIPMT", "CUMPRINC", "ISPMT", "NPV", "XNPV", "IRR", "XIRR",
    "MIRR", "FVSCHEDULE", "SLN", "SYD", "DB", "DDB", "VDB", "EFFECT", "NOMINAL", "DOLLARDE", "DOLLARFR",
    // finance: securities (the Analysis ToolPak's)
    "ACCRINT", "ACCRINTM", "COUPDAYBS", "COUPDAYS", "COUPDAYSNC", "COUPNCD", "COUPNUM", "COUPPCD", "PRICE", "YIELD",
    "DURATION", "MDURATION", "PRICEDISC", "YIELDDISC", "DISC", "INTRATE", "RECEIVED", "PRICEMAT", "YIELDMAT", "TBILLEQ",
    "TBILLPRICE", "TBILLYIELD", "ODDFPRICE", "ODDFYIELD", "ODDLPRICE", "ODDLYIELD", "AMORDEGRC", "AMORLINC",
    // stats: statistics
    "VAR", "VARA", "VARP", "VARPA", "STDEV", "STDEVA", "STDEVP", "STDEVPA", "AVEDEV", "DEVSQ", "GEOMEAN", "HARMEAN",
    "TRIMMEAN", "KURT", "SKEW", "PERCENTILE", "QUARTILE", "PERCENTRANK", "CORREL", "PEARSON", "COVAR", "SLOPE",
    "INTERCEPT", "RSQ", "STEYX", "FORECAST", "PROB", "LINEST", "LOGEST", "TREND", "GROWTH",
    // distributions
    "NORMDIST", "NORMINV", "NORMSDIST", "NORMSINV", "LOGNORMDIST", "LOGINV", "STANDARDIZE", "FISHER", "FISHERINV",
    "CONFIDENCE", "BINOMDIST", "CRITBINOM", "NEGBINOMDIST", "HYPGEOMDIST", "POISSON", "EXPONDIST", "GAMMADIST",
    "GAMMAINV", "BETADIST", "BETAINV", "WEIBULL", "TDIST", "TINV", "CHIDIST", "CHIINV", "FDIST", "FINV", "TTEST",
    "FTEST", "ZTEST", "CHITEST", "GAMMALN", "ERF", "ERFC",
    // database
    "DSUM", "DCOUNT", "DCOUNTA", "DAVERAGE", "DGET", "DMAX", "DMIN", "DPRODUCT", "DSTDEV", "DSTDEVP", "DVAR", "DVARP",
    // text_more
    "HYPERLINK",
    // information
    "CELL", "INFO",
    // engineering (DEC2HEX and HEX2DEC are listed with math)
    "BIN2DEC", "BIN2HEX", "BIN2OCT", "DEC2BIN", "DEC2OCT", "HEX2BIN", "HEX2OCT", "OCT2BIN", "OCT2DEC", "OCT2HEX",
    "DELTA", "GESTEP",
    "COMPLEX", "IMREAL", "IMAGINARY", "IMABS", "IMARGUMENT", "IMCONJUGATE", "IMSUM", "IMPRODUCT", "IMSUB", "IMDIV",
    "IMPOWER", "IMSQRT", "IMEXP", "IMLN", "IMLOG10", "IMLOG2", "IMSIN", "IMCOS",
    // text, added with Excel 365's text functions
    "REPLACE", "LENB", "LEFTB", "RIGHTB", "MIDB", "FINDB", "SEARCHB", "REPLACEB", "FIXED", "DOLLAR",
    // engineering: Bessel functions and CONVERT
    "BESSELI", "BESSELJ", "BESSELK", "BESSELY", "CONVERT",
];

#[test]
fn every_function_newer_than_excel_2007_carries_the_xlfn_prefix() {
    for name in EXCEL_2007 {
        assert!(functions::lookup(name).is_some(), "{name} is listed as Excel 2007's but not registered");
    }
    for f in functions::all() {
        let classic = EXCEL_2007.contains(&f.name);
        assert_eq!(f.xlfn(), !classic, "{}: since {:?}, Excel 2007's: {classic}", f.name, f.since);
        assert_eq!(f.since == functions::Excel::V2007, classic, "{}: since {:?}", f.name, f.since);
    }
}

/// The functions LibreOffice names otherwise than `COM.MICROSOFT.NAME`
/// in OpenFormula (its `sc/source/filter/oox/formulabase.cxx` tables):
/// Excel's legacy distributions whose OpenFormula namesake has another
/// definition, and Excel 2010's functions that are OpenFormula's own.
const OPENFORMULA_OWN: &[(&str, &str)] = &[
    ("NORMSDIST", "LEGACY.NORMSDIST"),
    ("NORMSINV", "LEGACY.NORMSINV"),
    ("TDIST", "LEGACY.TDIST"),
    ("CHIDIST", "LEGACY.CHIDIST"),
    ("CHIINV", "LEGACY.CHIINV"),
    ("FDIST", "LEGACY.FDIST"),
    ("FINV", "LEGACY.FINV"),
    ("CHITEST", "LEGACY.CHITEST"),
    ("F.DIST", "FDIST"),
    ("F.INV", "FINV"),
    ("SKEW.P", "SKEWP"),
];

#[test]
fn openformula_names_differ_and_are_libreoffices_microsoft_ones() {
    for f in functions::all() {
        if let Some(of) = f.openformula {
            let microsoft = of == format!("COM.MICROSOFT.{}", f.name);
            assert!(microsoft || OPENFORMULA_OWN.contains(&(f.name, of)), "{}: {of}", f.name);
        }
        assert!(f.in_libreoffice || f.openformula.is_some(), "{}: LibreOffice 7.4 lacks it, under which name?", f.name);
    }
    let mut lacking: Vec<&str> = functions::all().filter(|f| !f.in_libreoffice).map(|f| f.name).collect();
    lacking.sort_unstable();
    let newer_text = [
        "ARRAYTOTEXT",
        "REGEXEXTRACT",
        "REGEXREPLACE",
        "REGEXTEST",
        "TEXTAFTER",
        "TEXTBEFORE",
        "TEXTSPLIT",
        "VALUETOTEXT",
    ];
    lacking.retain(|f| !newer_text.contains(f));
    // Excel 365's array-shaping functions (src/functions/arrays.rs).
    let dynamic_arrays = [
        "CHOOSECOLS",
        "CHOOSEROWS",
        "DROP",
        "EXPAND",
        "FILTER",
        "HSTACK",
        "RANDARRAY",
        "SORT",
        "SORTBY",
        "TAKE",
        "TOCOL",
        "TOROW",
        "UNIQUE",
        "VSTACK",
        "WRAPCOLS",
        "WRAPROWS",
    ];
    lacking.retain(|f| !dynamic_arrays.contains(f));
    // LAMBDA and the functions taking functions (src/functions/lambda.rs).
    let lambdas = [
        "BYCOL",
        "BYROW",
        "GROUPBY",
        "ISOMITTED",
        "LAMBDA",
        "MAKEARRAY",
        "MAP",
        "PERCENTOF",
        "PIVOTBY",
        "REDUCE",
        "SCAN",
    ];
    lacking.retain(|f| !lambdas.contains(f));
    // Excel 365's TRIMRANGE (src/functions/lookup/trimrange.rs).
    lacking.retain(|f| *f != "TRIMRANGE");
    assert_eq!(
        lacking,
        ["ANCHORARRAY", "LET", "SEQUENCE", "SINGLE", "XLOOKUP", "XMATCH"],
        "LibreOffice 7.4 lacks these alone"
    );
}
