//! Shared test helpers: a minimal firmware that only runs link state machines on its own
//! calculator's port (what the built-in runtime does from its firmware loop), and byte
//! helpers.
#![allow(dead_code)]

use std::any::Any;
use std::sync::{Arc, Mutex};

use machine::state::{StateError, StateWriter};
use machine::{Calc, Firmware, Hardware};
use tifiles::var::{VarData, VarName, Variable};
use tifiles::{vat, TiFloat};
use tilink::{TimedPort, Wake};

/// The side closure: polls on the calculator's own port, with its RAM at hand.
pub type Side = Box<dyn FnMut(&mut TimedPort, &[u8]) -> Wake + Send>;

/// A firmware that polls `side` whenever it asked to be, and at least every `step` T-states
/// while it waits for an edge (a firmware cannot see when the peer's changes arrive).
pub struct LinkFw {
    pub side: Arc<Mutex<Option<Side>>>,
    pub step: u64,
    pub polls: u64,
}

impl LinkFw {
    pub fn new(step: u64) -> (Self, Arc<Mutex<Option<Side>>>) {
        let side = Arc::new(Mutex::new(None));
        (
            LinkFw {
                side: side.clone(),
                step,
                polls: 0,
            },
            side,
        )
    }
}

impl Firmware for LinkFw {
    fn name(&self) -> &'static str {
        "tilink-test"
    }
    fn power_on(&mut self, _hw: &mut Hardware) {}
    fn run(&mut self, hw: &mut Hardware, until: u64) {
        let mut guard = self.side.lock().unwrap();
        while hw.now < until {
            let next = match guard.as_mut() {
                Some(side) => {
                    self.polls += 1;
                    let w = side(&mut TimedPort::new(&mut hw.link, hw.now), hw.mem.ram());
                    w.next(hw.now, self.step).max(hw.now + 1)
                }
                None => u64::MAX,
            };
            hw.now = next.min(until);
        }
    }
    fn save_state(&self, _w: &mut StateWriter) {}
    fn load_state(&mut self, _data: &[u8]) -> Result<(), StateError> {
        Ok(())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A calculator running [`LinkFw`], with an empty VAT; the handle sets its side.
pub fn link_calc(step: u64) -> (Calc, Arc<Mutex<Option<Side>>>) {
    let (fw, side) = LinkFw::new(step);
    let mut c = Calc::new(fw);
    vat::init_empty(c.ram_mut()).unwrap();
    (c, side)
}

pub fn list(n: u8, values: &[i32]) -> Variable {
    Variable {
        name: VarName::list(n).unwrap(),
        data: VarData::List(values.iter().map(|&v| TiFloat::from(v)).collect()),
    }
}

pub fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}
