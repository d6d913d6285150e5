//! The simplest machine around the core: 64 KiB of RAM, ports that read FFh and ignore
//! writes. For CP/M programs, benchmarks and tests; a real machine implements [`Bus`] itself.

use crate::Bus;

/// 64 KiB of flat RAM; port reads give FFh, port writes are ignored.
pub struct FlatBus {
    pub mem: Box<[u8; 0x10000]>,
}

impl FlatBus {
    /// Zeroed memory.
    pub fn new() -> Self {
        FlatBus {
            mem: Box::new([0; 0x10000]),
        }
    }

    /// `image` at 0000h, the rest zero.
    pub fn with_image(image: &[u8]) -> Self {
        let mut bus = Self::new();
        let n = image.len().min(0x10000);
        bus.mem[..n].copy_from_slice(&image[..n]);
        bus
    }
}

impl Default for FlatBus {
    fn default() -> Self {
        Self::new()
    }
}

impl Bus for FlatBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: u64) {
        self.mem[addr as usize] = value;
    }
    #[inline(always)]
    fn port_in(&mut self, _port: u16, _t: u64) -> u8 {
        0xFF
    }
    #[inline(always)]
    fn port_out(&mut self, _port: u16, _value: u8, _t: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cpu;

    #[test]
    fn runs_a_program_and_reads_ff_from_ports() {
        // IN A,(12h) ; LD (8000h),A ; HALT
        let mut bus = FlatBus::with_image(&[0xDB, 0x12, 0x32, 0x00, 0x80, 0x76]);
        let mut cpu = Cpu::new();
        while !cpu.halted() {
            cpu.step(&mut bus);
        }
        assert_eq!(bus.mem[0x8000], 0xFF);
    }
}
