//! CONVERT(number, from_unit, to_unit): a number in one unit of
//! measurement in another of the same group (the table below). The number
//! reads as the engineering functions read numbers (a boolean is
//! #VALUE!); a unit that is not text naming a unit, or units of different
//! groups, are #N/A. Linear units multiply by the ratio of their sizes;
//! temperatures go through degrees Celsius, so that the offsets of C, F,
//! Rank and Reau are exact where they can be (`CONVERT(68,"F","C")` is 20).
//! Lifted over arrays.
//!
//! The table of units holds every unit Microsoft's CONVERT page lists
//! (<https://support.microsoft.com/en-us/excel/functions/convert-function>),
//! in its thirteen groups, with its size in the group's base unit, and
//! which prefixes it takes. Names are case-sensitive. A unit is found by
//! its name, else as a prefix and a unit that takes it (`km`, `kibyte`,
//! `cm2`, the prefix raised to the power of a square or cubic unit).
//!
//! Sizes are the units' definitions where they are exact (the inch is
//! 0.0254 m, the pound 453.59237 g, the U.S. gallon 231 in³, the IT
//! calorie 4.1868 J, ...); the units that rest on measured constants
//! (u, eV, ly, parsec) take CODATA's and the IAU's values, which
//! Microsoft does not give. Excel's "flb" is the foot-poundal
//! (0.0421401100938048 J), not the foot-pound-force, as in LibreOffice.

use super::number;
use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, Value};

/// CONVERT(number, from_unit, to_unit).
pub fn convert(ev: &mut Eval, a: &[BExpr]) -> Value {
    args::lift_res(ev, a, |v| match v {
        [n, from, to] => {
            let n = number(n)?;
            let (from, to) = (unit(from)?, unit(to)?);
            Ok(args::num_result(between(n, from, to)))
        }
        _ => Err(ErrorKind::Value),
    })
}

/// The unit an argument names: an error passes through; anything but
/// text naming a unit is #N/A.
fn unit(v: &Value) -> Result<Found, ErrorKind> {
    match v {
        Value::Error(e) => Err(*e),
        Value::Text(s) => find(s).ok_or(ErrorKind::NA),
        _ => Err(ErrorKind::NA),
    }
}

/// `n` in `from`, in `to`; units of different groups #N/A. Two
/// temperatures of one scale (K and mK) convert as linear units.
fn between(n: f64, from: Found, to: Found) -> Result<f64, ErrorKind> {
    if from.group != to.group {
        return Err(ErrorKind::NA);
    }
    if from.group == Group::Temperature && from.name != to.name {
        return Ok(from_celsius(to_celsius(n, from), to));
    }
    Ok(n * from.size / to.size)
}

/// The absolute zero in degrees Celsius, negated.
const ZERO_C: f64 = 273.15;

/// A temperature in degrees Celsius; `size` is a kelvin's prefix.
fn to_celsius(t: f64, u: Found) -> f64 {
    match u.name {
        "C" => t,
        "F" => (t - 32.0) / 1.8,
        "Rank" => t / 1.8 - ZERO_C,
        "Reau" => t * 1.25,
        _ => t * u.size - ZERO_C,
    }
}

/// A temperature in degrees Celsius, in `u`.
fn from_celsius(c: f64, u: Found) -> f64 {
    match u.name {
        "C" => c,
        "F" => c * 1.8 + 32.0,
        "Rank" => (c + ZERO_C) * 1.8,
        "Reau" => c / 1.25,
        _ => (c + ZERO_C) / u.size,
    }
}

/// The groups: a unit converts only within its own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Group {
    Mass,
    Distance,
    Time,
    Pressure,
    Force,
    Energy,
    Power,
    Magnetism,
    Temperature,
    Volume,
    Area,
    Information,
    Speed,
}

/// Which prefixes a unit takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    None,
    Metric,
    /// Metric and binary (`ki` to `Yi`): the information units.
    Binary,
}

/// One unit: its names, group, size in the group's base unit (gram,
/// meter, second, pascal, newton, joule, watt, tesla, liter, square
/// meter, bit, meter per second; for temperatures, see [`Temp`]), the
/// prefixes it takes and the power a prefix is raised to (2 for square
/// units, 3 for cubic).
struct Unit {
    names: &'static [&'static str],
    group: Group,
    size: f64,
    takes: Takes,
    power: i32,
}

const fn u(names: &'static [&'static str], group: Group, size: f64, takes: Takes, power: i32) -> Unit {
    Unit { names, group, size, takes, power }
}

use Group::*;
use Takes::{Binary, Metric, None as Plain};

const IN: f64 = 0.0254;
const FT: f64 = 0.3048;
const YD: f64 = 0.9144;
const MI: f64 = 1609.344;
const NMI: f64 = 1852.0;
const PICA_PT: f64 = IN / 72.0;
/// The light-year: c × 365.25 days.
const LY: f64 = 9_460_730_472_580_800.0;
/// The parsec: 648000/π astronomical units (IAU 2012).
const PARSEC: f64 = 3.085_677_581_491_367e16;
/// The U.S. survey foot, 1200/3937 m.
const SURVEY_FT: f64 = 1200.0 / 3937.0;
/// The U.S. gallon in liters (231 in³).
const GAL: f64 = 3.785_411_784;
/// The pound-force in newtons (0.45359237 kg × 9.80665 m/s²).
const LBF: f64 = 4.448_221_615_260_5;
/// The mechanical horsepower in watts (550 ft·lbf/s).
const HP: f64 = 745.699_871_582_270_2;

static UNITS: &[Unit] = &[
    // weight and mass, in grams
    u(&["g"], Mass, 1.0, Metric, 1),
    u(&["sg"], Mass, LBF / FT * 1000.0, Plain, 1),
    u(&["lbm"], Mass, 453.592_37, Plain, 1),
    u(&["u"], Mass, 1.660_538_782e-24, Metric, 1),
    u(&["ozm"], Mass, 453.592_37 / 16.0, Plain, 1),
    u(&["grain"], Mass, 0.064_798_91, Plain, 1),
    u(&["cwt", "shweight"], Mass, 45_359.237, Plain, 1),
    u(&["uk_cwt", "lcwt", "hweight"], Mass, 50_802.345_44, Plain, 1),
    u(&["stone"], Mass, 6_350.293_18, Plain, 1),
    u(&["ton"], Mass, 907_184.74, Plain, 1),
    u(&["uk_ton", "LTON", "brton"], Mass, 1_016_046.908_8, Plain, 1),
    // distance, in meters
    u(&["m"], Distance, 1.0, Metric, 1),
    u(&["mi"], Distance, MI, Plain, 1),
    u(&["Nmi"], Distance, NMI, Plain, 1),
    u(&["in"], Distance, IN, Plain, 1),
    u(&["ft"], Distance, FT, Plain, 1),
    u(&["yd"], Distance, YD, Plain, 1),
    u(&["ang"], Distance, 1e-10, Metric, 1),
    u(&["ell"], Distance, 45.0 * IN, Plain, 1),
    u(&["ly"], Distance, LY, Metric, 1),
    u(&["parsec", "pc"], Distance, PARSEC, Metric, 1),
    u(&["Picapt", "Pica"], Distance, PICA_PT, Plain, 1),
    u(&["pica"], Distance, IN / 6.0, Plain, 1),
    u(&["survey_mi"], Distance, 5280.0 * SURVEY_FT, Plain, 1),
    // time, in seconds
    u(&["yr"], Time, 365.25 * 86400.0, Plain, 1),
    u(&["day", "d"], Time, 86400.0, Plain, 1),
    u(&["hr"], Time, 3600.0, Plain, 1),
    u(&["mn", "min"], Time, 60.0, Plain, 1),
    u(&["sec", "s"], Time, 1.0, Metric, 1),
    // pressure, in pascals
    u(&["Pa", "p"], Pressure, 1.0, Metric, 1),
    u(&["atm", "at"], Pressure, 101_325.0, Metric, 1),
    u(&["mmHg"], Pressure, 133.322_387_415, Metric, 1),
    u(&["psi"], Pressure, LBF / (IN * IN), Plain, 1),
    u(&["Torr"], Pressure, 101_325.0 / 760.0, Plain, 1),
    // force, in newtons
    u(&["N"], Force, 1.0, Metric, 1),
    u(&["dyn", "dy"], Force, 1e-5, Metric, 1),
    u(&["lbf"], Force, LBF, Plain, 1),
    u(&["pond"], Force, 0.009_806_65, Metric, 1),
    // energy, in joules
    u(&["J"], Energy, 1.0, Metric, 1),
    u(&["e"], Energy, 1e-7, Metric, 1),
    u(&["c"], Energy, 4.184, Metric, 1),
    u(&["cal"], Energy, 4.1868, Metric, 1),
    u(&["eV", "ev"], Energy, 1.602_176_487e-19, Metric, 1),
    u(&["HPh", "hh"], Energy, HP * 3600.0, Plain, 1),
    u(&["Wh", "wh"], Energy, 3600.0, Metric, 1),
    u(&["flb"], Energy, 0.453_592_37 * FT * FT, Plain, 1),
    u(&["BTU", "btu"], Energy, 1_055.055_852_62, Plain, 1),
    // power, in watts
    u(&["HP", "h"], Power, HP, Plain, 1),
    u(&["PS"], Power, 735.498_75, Plain, 1),
    u(&["W", "w"], Power, 1.0, Metric, 1),
    // magnetism, in teslas
    u(&["T"], Magnetism, 1.0, Metric, 1),
    u(&["ga"], Magnetism, 1e-4, Metric, 1),
    // temperature: sizes are unused (see `Temp`)
    u(&["C", "cel"], Temperature, 1.0, Plain, 1),
    u(&["F", "fah"], Temperature, 1.0, Plain, 1),
    u(&["K", "kel"], Temperature, 1.0, Metric, 1),
    u(&["Rank"], Temperature, 1.0, Plain, 1),
    u(&["Reau"], Temperature, 1.0, Plain, 1),
    // volume, in liters
    u(&["tsp"], Volume, GAL / 768.0, Plain, 1),
    u(&["tspm"], Volume, 0.005, Plain, 1),
    u(&["tbs"], Volume, GAL / 256.0, Plain, 1),
    u(&["oz"], Volume, GAL / 128.0, Plain, 1),
    u(&["cup"], Volume, GAL / 16.0, Plain, 1),
    u(&["pt", "us_pt"], Volume, GAL / 8.0, Plain, 1),
    u(&["uk_pt"], Volume, 4.546_09 / 8.0, Plain, 1),
    u(&["qt"], Volume, GAL / 4.0, Plain, 1),
    u(&["uk_qt"], Volume, 4.546_09 / 4.0, Plain, 1),
    u(&["gal"], Volume, GAL, Plain, 1),
    u(&["uk_gal"], Volume, 4.546_09, Plain, 1),
    u(&["l", "L", "lt"], Volume, 1.0, Metric, 1),
    u(&["ang3", "ang^3"], Volume, 1e-27, Metric, 3),
    u(&["barrel"], Volume, 42.0 * GAL, Plain, 1),
    u(&["bushel"], Volume, 35.239_070_166_88, Plain, 1),
    u(&["ft3", "ft^3"], Volume, FT * FT * FT * 1000.0, Plain, 1),
    u(&["in3", "in^3"], Volume, IN * IN * IN * 1000.0, Plain, 1),
    u(&["ly3", "ly^3"], Volume, LY * LY * LY * 1000.0, Plain, 1),
    u(&["m3", "m^3"], Volume, 1000.0, Metric, 3),
    u(&["mi3", "mi^3"], Volume, MI * MI * MI * 1000.0, Plain, 1),
    u(&["yd3", "yd^3"], Volume, YD * YD * YD * 1000.0, Plain, 1),
    u(&["Nmi3", "Nmi^3"], Volume, NMI * NMI * NMI * 1000.0, Plain, 1),
    u(&["Picapt3", "Picapt^3", "Pica3", "Pica^3"], Volume, PICA_PT * PICA_PT * PICA_PT * 1000.0, Plain, 1),
    u(&["GRT", "regton"], Volume, 100.0 * FT * FT * FT * 1000.0, Plain, 1),
    u(&["MTON"], Volume, 40.0 * FT * FT * FT * 1000.0, Plain, 1),
    // area, in square meters
    u(&["uk_acre"], Area, 4_046.856_422_4, Plain, 1),
    u(&["us_acre"], Area, 43_560.0 * SURVEY_FT * SURVEY_FT, Plain, 1),
    u(&["ang2", "ang^2"], Area, 1e-20, Metric, 2),
    u(&["ar"], Area, 100.0, Metric, 1),
    u(&["ft2", "ft^2"], Area, FT * FT, Plain, 1),
    u(&["ha"], Area, 10_000.0, Plain, 1),
    u(&["in2", "in^2"], Area, IN * IN, Plain, 1),
    u(&["ly2", "ly^2"], Area, LY * LY, Plain, 1),
    u(&["m2", "m^2"], Area, 1.0, Metric, 2),
    u(&["Morgen"], Area, 2500.0, Plain, 1),
    u(&["mi2", "mi^2"], Area, MI * MI, Plain, 1),
    u(&["Nmi2", "Nmi^2"], Area, NMI * NMI, Plain, 1),
    u(&["Picapt2", "Pica2", "Pica^2", "Picapt^2"], Area, PICA_PT * PICA_PT, Plain, 1),
    u(&["yd2", "yd^2"], Area, YD * YD, Plain, 1),
    // information, in bits
    u(&["bit"], Information, 1.0, Binary, 1),
    u(&["byte"], Information, 8.0, Binary, 1),
    // speed, in meters per second
    u(&["admkn"], Speed, 6080.0 * FT / 3600.0, Plain, 1),
    u(&["kn"], Speed, NMI / 3600.0, Plain, 1),
    u(&["m/h", "m/hr"], Speed, 1.0 / 3600.0, Metric, 1),
    u(&["m/s", "m/sec"], Speed, 1.0, Metric, 1),
    u(&["mph"], Speed, MI / 3600.0, Plain, 1),
];

/// The metric prefixes, two-letter `da` first; `e` is deka too.
const METRIC: &[(&str, f64)] = &[
    ("da", 1e1),
    ("Y", 1e24),
    ("Z", 1e21),
    ("E", 1e18),
    ("P", 1e15),
    ("T", 1e12),
    ("G", 1e9),
    ("M", 1e6),
    ("k", 1e3),
    ("h", 1e2),
    ("e", 1e1),
    ("d", 1e-1),
    ("c", 1e-2),
    ("m", 1e-3),
    ("u", 1e-6),
    ("n", 1e-9),
    ("p", 1e-12),
    ("f", 1e-15),
    ("a", 1e-18),
    ("z", 1e-21),
    ("y", 1e-24),
];

/// The binary prefixes, 2¹⁰ to 2⁸⁰.
const BINARY: &[(&str, i32)] =
    &[("ki", 10), ("Mi", 20), ("Gi", 30), ("Ti", 40), ("Pi", 50), ("Ei", 60), ("Zi", 70), ("Yi", 80)];

/// A unit as written: its group, its size with the prefix applied, and
/// for temperatures which scale it is.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    pub group: Group,
    pub size: f64,
    pub name: &'static str,
}

/// The unit of that name, without a prefix.
fn plain(name: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.names.contains(&name))
}

/// Reads a unit name: the unit itself, else a prefix and a unit that
/// takes it. None when there is no such unit.
pub fn find(name: &str) -> Option<Found> {
    let found = |u: &'static Unit, mult: f64| Found { group: u.group, size: u.size * mult, name: u.names[0] };
    if let Some(u) = plain(name) {
        return Some(found(u, 1.0));
    }
    for &(p, bits) in BINARY {
        if let Some(u) = name.strip_prefix(p).and_then(plain).filter(|u| u.takes == Binary) {
            return Some(found(u, 2f64.powi(bits)));
        }
    }
    METRIC.iter().find_map(|&(p, mult)| {
        let u = name.strip_prefix(p).and_then(plain).filter(|u| u.takes != Plain)?;
        Some(found(u, mult.powi(u.power)))
    })
}
