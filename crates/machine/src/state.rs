//! Save states: a versioned, checksummed file written atomically.
//!
//! File layout (all integers little-endian):
//!
//! | bytes | contents |
//! |---|---|
//! | 8 | magic `TI82STAT` |
//! | 4 | format version ([`STATE_VERSION`]) |
//! | 8 | payload length |
//! | n | payload: hardware, firmware name, firmware state |
//! | 8 | FNV-1a 64 of everything before |
//!
//! The encoding is hand-written (a few dozen lines) rather than pulling serde into the machine
//! crate, which design.md keeps lean.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use crate::hw::{Config, Generation, Hardware, CLOCK_HZ};
use crate::memory::{PagingModel, RAM_SIZE};

pub const STATE_MAGIC: &[u8; 8] = b"TI82STAT";
pub const STATE_VERSION: u32 = 2;

/// Times in a state file must be below this (about 190 years of emulated time), half the
/// core's clock range, so that no arithmetic on them can overflow or wrap afterwards.
pub(crate) const MAX_TIME: u64 = z80::T_LIMIT / 2;

pub(crate) fn time(r: &mut StateReader) -> Result<u64, StateError> {
    let t = r.u64()?;
    if t < MAX_TIME {
        Ok(t)
    } else {
        Err(StateError::Corrupt("time out of range"))
    }
}

/// Why a state could not be saved or loaded. Loading never changes the machine on error.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a TI-82 save state (bad magic)")]
    BadMagic { path: PathBuf },
    #[error("{path}: save state format version {found}, this build reads version {expected}")]
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    #[error("{path}: truncated save state ({len} bytes)")]
    Truncated { path: PathBuf, len: usize },
    #[error("{path}: checksum mismatch: the save state is corrupt")]
    Checksum { path: PathBuf },
    #[error("save state is for firmware {found:?}, this calculator runs {expected:?}")]
    Firmware { expected: String, found: String },
    #[error("save state was made with a different ROM image")]
    RomMismatch,
    #[error("corrupt save state: {0}")]
    Corrupt(&'static str),
}

/// FNV-1a, 64 bits.
pub fn fnv1a(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A little-endian byte writer.
#[derive(Default)]
pub struct StateWriter(pub Vec<u8>);

impl StateWriter {
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub fn bool(&mut self, v: bool) {
        self.0.push(u8::from(v));
    }
    pub fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Length-prefixed bytes.
    pub fn bytes(&mut self, v: &[u8]) {
        self.u64(v.len() as u64);
        self.0.extend_from_slice(v);
    }
}

/// The matching reader: every read is bounds-checked.
pub struct StateReader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> StateReader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        StateReader { data, pos: 0 }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], StateError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or(StateError::Corrupt("field runs past the end"))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    pub fn u8(&mut self) -> Result<u8, StateError> {
        Ok(self.take(1)?[0])
    }
    pub fn bool(&mut self) -> Result<bool, StateError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(StateError::Corrupt("bad boolean")),
        }
    }
    pub fn u16(&mut self) -> Result<u16, StateError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub fn u32(&mut self) -> Result<u32, StateError> {
        let mut a = [0; 4];
        a.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(a))
    }
    pub fn u64(&mut self) -> Result<u64, StateError> {
        let mut a = [0; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }
    pub fn bytes(&mut self) -> Result<&'a [u8], StateError> {
        let n = self.u64()?;
        let n = usize::try_from(n).map_err(|_| StateError::Corrupt("length too large"))?;
        self.take(n)
    }
    pub fn done(&self) -> Result<(), StateError> {
        if self.pos == self.data.len() {
            Ok(())
        } else {
            Err(StateError::Corrupt("trailing bytes"))
        }
    }
}

pub(crate) fn write_hardware(w: &mut StateWriter, hw: &Hardware) {
    let c = &hw.config;
    w.u8(match c.generation {
        Generation::Classic => 0,
        Generation::Parcus => 1,
    });
    w.u8(match c.paging {
        PagingModel::Simple => 0,
        PagingModel::Ti83 => 1,
    });
    w.bool(c.port_mirrors);
    w.bool(c.lcd_drop_when_busy);
    w.bool(c.key_ghosting);
    w.bool(c.test_ports);
    w.u8(c.lcd_ghost_frames);
    for b in [
        c.port2_reads_f8,
        c.port14_battery,
        c.lcd_6bit_left_pixels,
        c.on_release_interrupt,
        c.timer_fixed_rate,
        c.link_agnostic_until_known,
        c.generation_from_port4,
    ] {
        w.bool(b);
    }
    w.u8(c.lcd_busy_t);
    w.bool(hw.generation_known);

    w.u64(hw.now);
    w.bytes(hw.mem.ram());
    w.u8(hw.mem.port2_mapping());
    w.u8(hw.mem.port2());
    w.bool(hw.mem.alt_map());
    w.u32(hw.mem.unmapped_ram_writes);

    let l = &hw.lcd;
    w.bytes(&l.ram);
    for b in [l.word8, l.on, l.step_y, l.inc, l.test_mode] {
        w.bool(b);
    }
    for b in [l.x, l.y, l.z, l.contrast, l.latch, l.opa1, l.opa2] {
        w.u8(b);
    }
    w.u64(l.busy_until);
    w.u64(l.busy_violations);

    w.bytes(&hw.keypad.down);
    w.u8(hw.keypad.mask);

    let (own, peer, incoming) = hw.link.parts();
    w.u8(own);
    w.u8(peer);
    w.u64(incoming.len() as u64);
    for &(t, p) in incoming {
        w.u64(t);
        w.u8(p);
    }

    let i = &hw.irq;
    w.u8(i.port3);
    w.bool(i.on_pending);
    w.bool(i.timer_pending);
    w.bool(i.on_held);
    w.u64(i.next_tick);
    w.u64(i.period);
    w.u64(i.timer_ticks);

    w.u8(hw.port0);
    w.u8(hw.port4);
    w.bool(hw.halted);
    w.bool(hw.test_exit.is_some());
    w.u8(hw.test_exit.unwrap_or(0));
    w.bytes(&hw.test_out);
    w.u64(hw.unknown_port_accesses);
}

pub(crate) fn read_hardware(r: &mut StateReader) -> Result<Hardware, StateError> {
    let generation = match r.u8()? {
        0 => Generation::Classic,
        1 => Generation::Parcus,
        _ => return Err(StateError::Corrupt("bad generation")),
    };
    let paging = match r.u8()? {
        0 => PagingModel::Simple,
        1 => PagingModel::Ti83,
        _ => return Err(StateError::Corrupt("bad paging model")),
    };
    let config = Config {
        generation,
        paging,
        port_mirrors: r.bool()?,
        lcd_drop_when_busy: r.bool()?,
        key_ghosting: r.bool()?,
        test_ports: r.bool()?,
        lcd_ghost_frames: r.u8()?,
        port2_reads_f8: r.bool()?,
        port14_battery: r.bool()?,
        lcd_6bit_left_pixels: r.bool()?,
        on_release_interrupt: r.bool()?,
        timer_fixed_rate: r.bool()?,
        link_agnostic_until_known: r.bool()?,
        generation_from_port4: r.bool()?,
        lcd_busy_t: r.u8()?,
    };
    let generation_known = r.bool()?;
    let mut hw = Hardware::new(config);
    hw.generation_known = generation_known;
    hw.now = time(r)?;
    let ram = r.bytes()?;
    if ram.len() != RAM_SIZE {
        return Err(StateError::Corrupt("RAM size"));
    }
    hw.mem.ram_mut().copy_from_slice(ram);
    let port2 = r.u8()?;
    let port2_read = r.u8()?;
    let alt = r.bool()?;
    hw.mem.restore_regs(port2, port2_read, alt);
    hw.mem.unmapped_ram_writes = r.u32()?;

    let lram = r.bytes()?;
    if lram.len() != hw.lcd.ram.len() {
        return Err(StateError::Corrupt("LCD RAM size"));
    }
    let l = &mut hw.lcd;
    l.ram.copy_from_slice(lram);
    l.word8 = r.bool()?;
    l.on = r.bool()?;
    l.step_y = r.bool()?;
    l.inc = r.bool()?;
    l.test_mode = r.bool()?;
    l.x = r.u8()? & 63;
    l.y = r.u8()? & 31;
    l.z = r.u8()? & 63;
    l.contrast = r.u8()? & 63;
    l.latch = r.u8()?;
    l.opa1 = r.u8()? & 3;
    l.opa2 = r.u8()? & 3;
    l.busy_until = time(r)?;
    // Counters grow by at most one per T-state: the time bound keeps `+= 1` from overflowing.
    l.busy_violations = time(r)?;

    let down = r.bytes()?;
    if down.len() != 8 {
        return Err(StateError::Corrupt("keypad size"));
    }
    hw.keypad.down.copy_from_slice(down);
    hw.keypad.mask = r.u8()?;

    let own = r.u8()?;
    let peer = r.u8()?;
    let n = r.u64()?;
    if n > 1 << 20 {
        return Err(StateError::Corrupt("link queue too long"));
    }
    let mut incoming = VecDeque::new();
    for _ in 0..n {
        incoming.push_back((time(r)?, r.u8()? & 3));
    }
    hw.link.restore(own, peer, incoming);

    let i = &mut hw.irq;
    i.port3 = r.u8()?;
    i.on_pending = r.bool()?;
    i.timer_pending = r.bool()?;
    i.on_held = r.bool()?;
    i.next_tick = time(r)?;
    i.period = r.u64()?;
    if !(1..=CLOCK_HZ).contains(&i.period) {
        return Err(StateError::Corrupt("timer period out of range"));
    }
    i.timer_ticks = time(r)?;
    i.update_line_at();

    hw.port0 = r.u8()?;
    hw.port4 = r.u8()?;
    hw.halted = r.bool()?;
    let has_exit = r.bool()?;
    let exit = r.u8()?;
    hw.test_exit = has_exit.then_some(exit);
    hw.test_out = r.bytes()?.to_vec();
    hw.unknown_port_accesses = time(r)?;
    Ok(hw)
}

/// Wraps a payload in the file envelope.
pub fn envelope(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 28);
    out.extend_from_slice(STATE_MAGIC);
    out.extend_from_slice(&STATE_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Checks the envelope and returns the payload.
pub(crate) fn open_envelope<'a>(path: &Path, data: &'a [u8]) -> Result<&'a [u8], StateError> {
    let path = path.to_path_buf();
    if data.len() < 8 || &data[..8] != STATE_MAGIC {
        return Err(StateError::BadMagic { path });
    }
    if data.len() < 20 {
        return Err(StateError::Truncated {
            path,
            len: data.len(),
        });
    }
    let version = u32::from_le_bytes([data[8], data[9], data[10], data[11]]);
    if version != STATE_VERSION {
        return Err(StateError::Version {
            path,
            found: version,
            expected: STATE_VERSION,
        });
    }
    let mut l = [0u8; 8];
    l.copy_from_slice(&data[12..20]);
    let len = u64::from_le_bytes(l);
    let total = usize::try_from(len)
        .ok()
        .and_then(|n| n.checked_add(28))
        .unwrap_or(usize::MAX);
    if data.len() < total {
        return Err(StateError::Truncated {
            path,
            len: data.len(),
        });
    }
    if data.len() > total {
        return Err(StateError::Corrupt("trailing bytes after the checksum"));
    }
    let body = &data[..total - 8];
    let mut s = [0u8; 8];
    s.copy_from_slice(&data[total - 8..]);
    if fnv1a(body) != u64::from_le_bytes(s) {
        return Err(StateError::Checksum { path });
    }
    Ok(&data[20..total - 8])
}

/// Writes `data` to `path` atomically: a temporary file beside it, then a rename.
pub(crate) fn write_atomic(path: &Path, data: &[u8]) -> Result<(), StateError> {
    use std::io::Write;
    let io = |source| StateError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(data).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}
