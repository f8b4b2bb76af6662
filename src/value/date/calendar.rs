//! The calendar formulas are evaluated under, per thread: the workbook's
//! date system and the clock TODAY and NOW read (see `value::date`'s
//! text). [`Calendar::enter`] makes one the calendar in effect until its
//! guard is dropped; [`system`] and [`now`] read it and note that they
//! did ([`Entered::consulted`]), so that the binder keeps no constant
//! whose value depends on it.

use super::{DateSystem, SECONDS_PER_DAY, day_of, iso};
use std::cell::Cell;

/// What TODAY and NOW read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Clock {
    /// The system clock, in local time, read once per recalculation.
    #[default]
    System,
    /// A fixed moment, as a 1900-system serial (days and the fraction of
    /// the day): for reproducible runs (`--now`).
    Fixed(f64),
}

impl Clock {
    /// A clock stopped at `text`: `2026-11-28T17:30:00`, `2026-11-28 17:30`
    /// or `2026-11-28` (local time; seconds may have decimals).
    pub fn parse(text: &str) -> Result<Clock, String> {
        iso::timestamp(text)
            .map(Clock::Fixed)
            .ok_or_else(|| format!("`{text}` is not a date and time such as 2026-11-28T17:30:00"))
    }
}

/// The system clock now, in local time, as a 1900-system serial.
fn system_now() -> f64 {
    use chrono::{Datelike, Timelike};
    let now = chrono::Local::now().naive_local();
    let day = day_of(i64::from(now.year()), i64::from(now.month()), i64::from(now.day()));
    let secs = f64::from(now.num_seconds_from_midnight()) + f64::from(now.nanosecond() % 1_000_000_000) / 1e9;
    day as f64 + secs / SECONDS_PER_DAY
}

/// The calendar formulas are evaluated under: the workbook's date system
/// and the clock TODAY and NOW read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Calendar {
    pub system: DateSystem,
    pub clock: Clock,
}

/// The calendar in effect on this thread; `now` once read (or fixed).
#[derive(Clone, Copy, Debug, Default)]
struct State {
    system: DateSystem,
    now: Option<f64>,
    /// Whether something read the date system or the clock since the
    /// calendar was entered.
    consulted: bool,
}

thread_local! {
    static CURRENT: Cell<State> = Cell::new(State::default());
}

impl Calendar {
    pub fn new(system: DateSystem, clock: Clock) -> Calendar {
        Calendar { system, clock }
    }

    /// Makes this the calendar in effect on this thread until the guard is
    /// dropped (the one before is then restored). The system clock is read
    /// at most once while it is in effect: every TODAY and NOW of one
    /// recalculation sees the same moment.
    pub fn enter(self) -> Entered {
        let now = match self.clock {
            Clock::Fixed(t) => Some(t),
            Clock::System => None,
        };
        let state = State { system: self.system, now, consulted: false };
        Entered { before: CURRENT.with(|c| c.replace(state)) }
    }
}

/// The guard of an entered [`Calendar`].
#[must_use = "the calendar is in effect until the guard is dropped"]
pub struct Entered {
    before: State,
}

impl Entered {
    /// Whether anything read the date system (a date function, text read
    /// as a date) or the clock (TODAY, NOW, a date typed without its year)
    /// since this calendar was entered: a value that depends on the
    /// calendar is not kept as a constant.
    pub fn consulted(&self) -> bool {
        CURRENT.with(|c| c.get().consulted)
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.before));
    }
}

/// The date system in effect.
pub fn system() -> DateSystem {
    CURRENT.with(|c| {
        let mut s = c.get();
        s.consulted = true;
        c.set(s);
        s.system
    })
}

/// The moment TODAY and NOW read, as a 1900-system serial: the fixed
/// clock, or the system clock read once per entered calendar.
pub fn now() -> f64 {
    CURRENT.with(|c| {
        let mut s = c.get();
        let t = *s.now.get_or_insert_with(system_now);
        s.consulted = true;
        c.set(s);
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(Clock::parse("2026-11-28T17:30:00"), Ok(Clock::Fixed(46_354.0 + 17.5 / 24.0)));
        assert_eq!(Clock::parse("2026-11-28"), Ok(Clock::Fixed(46_354.0)));
        assert_eq!(Clock::parse("2026-11-28 06:00"), Ok(Clock::Fixed(46_354.25)));
        for bad in ["2026-02-30", "26-11-28", "2026-11-28T25:00", "now", "2026-11-28T1:3"] {
            assert!(Clock::parse(bad).is_err(), "{bad}");
        }
        let fixed = Calendar::new(DateSystem::D1904, Clock::Fixed(46_354.5));
        {
            let g = fixed.enter();
            assert!(!g.consulted());
            assert_eq!(now(), 46_354.5);
            assert!(g.consulted());
        }
        {
            let g = fixed.enter();
            assert_eq!(system(), DateSystem::D1904);
            assert!(g.consulted());
        }
        assert_eq!(system(), DateSystem::D1900, "restored");
        let g = Calendar::default().enter();
        assert_eq!(now(), now(), "read once");
        drop(g);
    }
}
