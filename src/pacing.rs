//! Wall time to emulated time: the only place the wall clock meets the calculator.
//!
//! Each host frame the front end asks [`Pacer::budget`] how many T-states to run. At `real`
//! speed that is the wall time since the last frame × 6 000 000 T-states/s; at `N` it is N
//! times that; `turbo` runs as much as fits in most of a host frame. A long stall (the window
//! was dragged, the machine slept) is not made up all at once: the debt is capped.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use ti82_machine::CLOCK_HZ;

/// How fast the calculator runs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Speed {
    #[default]
    Real,
    /// A multiple of real time (0.01 – 1000).
    Times(f64),
    Turbo,
}

impl FromStr for Speed {
    type Err = String;
    fn from_str(s: &str) -> Result<Speed, String> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "real" | "1" | "1x" => Ok(Speed::Real),
            "turbo" | "max" => Ok(Speed::Turbo),
            _ => {
                let n: f64 = t
                    .trim_end_matches('x')
                    .parse()
                    .map_err(|_| format!("speed {s:?}: use real, a factor such as 2, or turbo"))?;
                if !(0.01..=1000.0).contains(&n) {
                    return Err(format!("speed {s:?}: a factor from 0.01 to 1000"));
                }
                Ok(Speed::Times(n))
            }
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Speed::Real => write!(f, "real"),
            Speed::Times(n) => write!(f, "{n}x"),
            Speed::Turbo => write!(f, "turbo"),
        }
    }
}

impl Speed {
    /// Emulated seconds one wall second of holding a key is worth: the factor at `real` and
    /// `N`; 1 in turbo, so a held key lasts as long on the calculator as a human press would.
    pub fn hold_factor(self) -> f64 {
        match self {
            Speed::Real | Speed::Turbo => 1.0,
            Speed::Times(n) => n,
        }
    }
}

/// The most emulated time one budget may cover (a quarter second), so a stall is not
/// followed by a burst.
const MAX_DEBT_T: u64 = CLOCK_HZ / 4;

/// Converts wall time to T-state budgets.
#[derive(Debug)]
pub struct Pacer {
    pub speed: Speed,
    last: Instant,
    /// Fraction of a T-state carried between budgets.
    carry: f64,
    /// Turbo: T-states per wall millisecond measured so far.
    turbo_rate: f64,
    /// Measured speed: (wall start, emulated T at start), from the first measurement on.
    window: Option<(Instant, u64)>,
    measured: f64,
}

impl Pacer {
    pub fn new(speed: Speed) -> Pacer {
        let now = Instant::now();
        Pacer {
            speed,
            last: now,
            carry: 0.0,
            turbo_rate: (CLOCK_HZ / 1000) as f64,
            window: None,
            measured: 0.0,
        }
    }

    /// F10: turbo, or back from turbo to `chosen` (the speed asked for; real if that was
    /// turbo too). Returns the new speed.
    pub fn toggle_turbo(&mut self, chosen: Speed) -> Speed {
        self.speed = match (self.speed, chosen) {
            (Speed::Turbo, Speed::Turbo) => Speed::Real,
            (Speed::Turbo, c) => c,
            _ => Speed::Turbo,
        };
        self.speed
    }

    /// The T-states to run for the wall time since the previous call; `frame` is the host
    /// frame length (turbo fills about 80% of it).
    pub fn budget(&mut self, frame: Duration) -> u64 {
        let now = Instant::now();
        let wall = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.budget_for(wall, frame)
    }

    /// As [`Self::budget`], for a given wall time in seconds (deterministic, for tests).
    pub fn budget_for(&mut self, wall_s: f64, frame: Duration) -> u64 {
        let factor = match self.speed {
            Speed::Real => 1.0,
            Speed::Times(n) => n,
            Speed::Turbo => {
                let t = self.turbo_rate * frame.as_secs_f64() * 1000.0 * 0.8;
                return (t as u64).clamp(CLOCK_HZ / 1000, CLOCK_HZ * 10);
            }
        };
        let want = wall_s.max(0.0) * CLOCK_HZ as f64 * factor + self.carry;
        let cap = (MAX_DEBT_T as f64 * factor.max(1.0)).min(CLOCK_HZ as f64 * 10.0);
        let want = want.min(cap);
        let whole = want.floor();
        self.carry = want - whole;
        whole as u64
    }

    /// Tells the pacer how long running `t_states` took on the host (for turbo).
    pub fn ran(&mut self, t_states: u64, took: Duration) {
        let ms = took.as_secs_f64() * 1000.0;
        if ms > 0.05 && t_states > 0 {
            let rate = t_states as f64 / ms;
            self.turbo_rate = self.turbo_rate * 0.7 + rate * 0.3;
        }
    }

    /// Updates and returns the measured speed as a multiple of real time, given the current
    /// emulated time. Averaged over about half a second.
    pub fn measure(&mut self, now_t: u64) -> f64 {
        let Some((start, t0)) = self.window else {
            self.window = Some((Instant::now(), now_t));
            return self.measured;
        };
        let wall = start.elapsed().as_secs_f64();
        if wall >= 0.5 {
            let t = now_t.saturating_sub(t0) as f64;
            self.measured = t / CLOCK_HZ as f64 / wall;
            self.window = Some((Instant::now(), now_t));
        }
        self.measured
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_and_factor_budgets() {
        let f = Duration::from_millis(16);
        let mut p = Pacer::new(Speed::Real);
        assert_eq!(p.budget_for(0.5, f), 1_500_000);
        assert_eq!(p.budget_for(10.0, f), MAX_DEBT_T);
        let mut p = Pacer::new(Speed::Times(2.0));
        assert_eq!(p.budget_for(0.01, f), 120_000);
        assert!("0".parse::<Speed>().is_err());
        assert_eq!("turbo".parse::<Speed>(), Ok(Speed::Turbo));
        assert_eq!("3".parse::<Speed>(), Ok(Speed::Times(3.0)));
        assert_eq!(p.toggle_turbo(Speed::Times(2.0)), Speed::Turbo);
        assert_eq!(p.toggle_turbo(Speed::Times(2.0)), Speed::Times(2.0));
        let mut t = Pacer::new(Speed::Turbo);
        assert_eq!(t.toggle_turbo(Speed::Turbo), Speed::Real);
    }
}
