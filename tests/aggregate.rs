//! SUM, COUNT and AVERAGE over tall references, which add whole blocks of
//! 64 rows from the grid's summaries where that is exact: every result is
//! compared, bit for bit, with a plain cell-by-cell walk in row-major
//! order (the first error wins), over ranges that start and end mid-block,
//! across edits, with fractions, text, booleans, errors and integers near
//! 2^53.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::a1;
use dataflow::testing::{Sheet, typed_value};
use dataflow::value::{ErrorKind, Value};

const ROWS: u32 = 300;
const COLS: u32 = 4;

/// A sheet and, beside it, what each of its cells holds.
struct Model {
    sheet: Sheet,
    cells: Vec<Vec<Value>>,
}

impl Model {
    /// `ROWS` x `COLS` constants from `input(row, col)` (0-based).
    fn new(input: impl Fn(u32, u32) -> String) -> Model {
        let mut m = Model { sheet: Sheet::new(), cells: vec![vec![Value::Empty; COLS as usize]; ROWS as usize] };
        for r in 0..ROWS {
            for c in 0..COLS {
                m.set(r, c, &input(r, c));
            }
        }
        m
    }

    fn set(&mut self, r: u32, c: u32, input: &str) {
        self.sheet.set(&a1(r, c), input);
        self.cells[r as usize][c as usize] = typed_value(input);
    }

    /// SUM, COUNT and AVERAGE of rows `r0..=r1`, columns `c0..=c1`, as a
    /// cell-by-cell walk gives them.
    fn expected(&self, (r0, c0, r1, c1): (u32, u32, u32, u32)) -> [Value; 3] {
        let (mut sum, mut count, mut err) = (0.0, 0u64, None);
        for row in &self.cells[r0 as usize..=r1 as usize] {
            for v in &row[c0 as usize..=c1 as usize] {
                match v {
                    Value::Number(n) => {
                        (sum, count) = if err.is_none() { (sum + n, count + 1) } else { (sum, count + 1) };
                    }
                    Value::Error(e) => _ = err.get_or_insert(*e),
                    _ => {}
                }
            }
        }
        let average = if count == 0 { Value::Error(ErrorKind::Div0) } else { Value::Number(sum / count as f64) };
        match err {
            Some(e) => [Value::Error(e), Value::Number(count as f64), Value::Error(e)],
            None => [Value::Number(sum), Value::Number(count as f64), average],
        }
    }

    /// Every range from a set of starts and ends around block edges, in
    /// every band of columns, evaluated and compared bit for bit.
    fn check_all(&mut self) {
        let edges = [0, 1, 62, 63, 64, 65, 127, 128, 129, 191, 192, 255, 256, 299];
        for (c0, c1) in [(0, 0), (1, 1), (2, 2), (3, 3), (0, 1), (0, 3), (1, 2)] {
            for &r0 in &edges {
                for &r1 in edges.iter().filter(|&&r1| r1 >= r0) {
                    self.check((r0, c0, r1, c1));
                }
            }
        }
    }

    fn check(&mut self, range: (u32, u32, u32, u32)) {
        let (r0, c0, r1, c1) = range;
        let text = format!("{}:{}", a1(r0, c0), a1(r1, c1));
        let expected = self.expected(range);
        for (f, want) in ["SUM", "COUNT", "AVERAGE"].iter().zip(expected) {
            let got = self.sheet.eval_at("F1", &format!("{f}({text})"));
            assert!(same(&got, &want), "{f}({text}): {got:?}, cell by cell {want:?}");
        }
    }
}

/// Equal values, numbers to the bit.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

#[test]
fn integers_fractions_and_mixed_cells_sum_as_cell_by_cell() {
    let mut m = Model::new(|r, c| match c {
        0 => format!("{}", r as i64 * 7 - 500),
        1 => "0.1".into(),
        2 => match r % 17 {
            3 => "text".into(),
            5 => "TRUE".into(),
            8 => "".into(),
            11 if r > 100 => "#N/A".into(),
            _ => format!("{}", r % 5),
        },
        _ => match r {
            70 => "#DIV/0!".into(),
            200 => "#NUM!".into(),
            _ => "-3".into(),
        },
    });
    m.check_all();
}

#[test]
fn integers_near_two_to_the_53_sum_as_cell_by_cell() {
    let big = 2f64.powi(53);
    let mut m = Model::new(|r, c| match (c, r % 64) {
        // 2^53 then 1s: adding one at a time stays at 2^53 (ties to even).
        (0, 0) => format!("{big}"),
        (0, _) => "1".into(),
        // Just below: the sum of a block reaches 2^53 exactly.
        (1, 0) => format!("{}", big - 63.0),
        (1, _) => "1".into(),
        (2, 0) => format!("{}", -big),
        (2, 1) => "-1".into(),
        (2, _) => "1".into(),
        // Past 2^53: not safe integers at all.
        _ => format!("{}", big * 4.0 + if r % 2 == 0 { 4.0 } else { -8.0 }),
    });
    m.check_all();
    assert!(same(&m.sheet.eval("SUM(A1:A3)"), &Value::Number(big)), "2^53+1+1 added in order");
}

#[test]
fn edits_after_summing_are_seen() {
    let mut m = Model::new(|r, c| format!("{}", (r * COLS + c) % 9));
    m.check_all();
    m.set(70, 0, "0.25");
    m.set(130, 3, "#REF!");
    m.set(5, 1, "word");
    m.set(64, 2, "123456789012");
    m.check_all();
    m.set(70, 0, "2");
    m.set(130, 3, "");
    m.check_all();
}

#[test]
fn cumulative_sums_follow_their_column() {
    let mut s = Sheet::new();
    let mut column: Vec<Value> = Vec::new();
    for r in 0..200u32 {
        let v = if r % 50 == 49 { "0.1".to_string() } else { format!("{}", r * 3) };
        s.set(&a1(r, 0), &v);
        column.push(typed_value(&v));
        s.set(&a1(r, 1), &format!("=SUM($A$1:A{})", r + 1));
    }
    let check = |s: &mut Sheet, column: &[Value]| {
        s.recalc();
        let mut sum = 0.0;
        for (r, v) in column.iter().enumerate() {
            if let Value::Number(n) = v {
                sum += n;
            }
            assert!(same(&s.value(&a1(r as u32, 1)), &Value::Number(sum)), "B{}", r + 1);
        }
    };
    check(&mut s, &column);
    s.set("A1", "0.5");
    column[0] = Value::Number(0.5);
    check(&mut s, &column);
    s.set("A1", "7");
    column[0] = Value::Number(7.0);
    check(&mut s, &column);
}
