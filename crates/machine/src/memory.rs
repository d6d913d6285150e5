//! ROM, RAM and the port-02h paging logic (spec §3).
//!
//! All of ROM and RAM live in one flat 256 KiB array so that a CPU read is one table look-up
//! and one masked index (the mask lets the compiler drop the bounds check):
//!
//! | array offset | contents |
//! |---|---|
//! | 00000h – 1FFFFh | ROM pages 0 – 7 |
//! | 20000h – 27FFFh | RAM, in CPU order for the normal mapping (8000h first) |
//! | 28000h – 2FFFFh | unused |
//! | 30000h – 33FFFh | write sink: writes to ROM land here and are never read back |
//!
//! RAM page numbering follows the TI-83-style model (§3.2): "RAM page 1" is what the CPU sees
//! at 8000h and "RAM page 0" at C000h. We store page 1 first so that [`Memory::ram`] is the
//! 32 KiB exactly as the CPU sees them at 8000h – FFFFh in both paging models (the halves
//! swap of TilEm/Wabbitemu only matters when importing their save states).

/// ROM size: 8 pages of 16 KiB.
pub const ROM_SIZE: usize = 0x20000;
/// RAM size.
pub const RAM_SIZE: usize = 0x8000;
const ARRAY: usize = 0x40000;
const MASK: usize = ARRAY - 1;
const RAM_BASE: u32 = 0x20000;
const SINK: usize = 0x30000;

/// How port 02h is decoded (spec §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PagingModel {
    /// MAME: page = value AND 07h at 4000h; RAM always linear at 8000h.
    Simple,
    /// TilEm's TI-83-style model (bits 2:0/6 page A, 5:3/7 page B, port 04h bit 0 alternate
    /// mapping). The spec's recommendation, and our default.
    #[default]
    Ti83,
}

/// The memory of one calculator.
#[derive(Clone)]
pub struct Memory {
    mem: Box<[u8; ARRAY]>,
    /// Array offset of each 16 KiB CPU bank, minus the bank's own CPU address, so that
    /// `bias[addr >> 14] + addr` is the array offset of `addr` (one add on the fast path).
    bias: [usize; 4],
    /// The same for writes; a ROM bank's points at the write sink, so writes need no branch.
    wbias: [usize; 4],
    writable: [bool; 4],
    model: PagingModel,
    /// Last value written to port 02h, which decides the mapping.
    mapping: u8,
    /// What port 02h reads: `port2`, or a power-on value until the first write (§3.3).
    port2: u8,
    /// Port 04h bit 0 (alternate mapping in the TI-83-style model).
    alt_map: bool,
    /// Writes to port 02h that left no RAM at 8000h (logged for the curious, §3.2).
    pub unmapped_ram_writes: u32,
}

impl Memory {
    pub fn new(model: PagingModel) -> Self {
        let mut m = Memory {
            mem: vec![0u8; ARRAY]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| Box::new([0u8; ARRAY])),
            bias: [0; 4],
            wbias: [0; 4],
            writable: [false; 4],
            model,
            // §3.3 [U]: we map ROM page 0 at 4000h at reset; in the TI-83-style model the
            // register is preset to 88h (RAM page 1 at 8000h) so RAM is where the ROM expects.
            mapping: match model {
                PagingModel::Simple => 0x00,
                PagingModel::Ti83 => 0x88,
            },
            port2: 0,
            alt_map: false,
            unmapped_ram_writes: 0,
        };
        m.port2 = m.mapping;
        m.remap();
        m
    }

    pub fn model(&self) -> PagingModel {
        self.model
    }

    /// Loads a ROM image (up to 128 KiB; the rest stays zero).
    pub fn load_rom(&mut self, rom: &[u8]) {
        let n = rom.len().min(ROM_SIZE);
        self.mem[..n].copy_from_slice(&rom[..n]);
        self.mem[n..ROM_SIZE].fill(0);
    }

    pub fn rom(&self) -> &[u8] {
        &self.mem[..ROM_SIZE]
    }

    /// The 32 KiB of RAM as the CPU sees them at 8000h – FFFFh under the normal mapping.
    pub fn ram(&self) -> &[u8] {
        &self.mem[RAM_BASE as usize..RAM_BASE as usize + RAM_SIZE]
    }

    pub fn ram_mut(&mut self) -> &mut [u8] {
        &mut self.mem[RAM_BASE as usize..RAM_BASE as usize + RAM_SIZE]
    }

    /// CPU read.
    #[inline(always)]
    pub fn read(&self, addr: u16) -> u8 {
        let off = self.bias[(addr >> 14) as usize].wrapping_add(addr as usize);
        self.mem[off & MASK]
    }

    /// CPU write: ignored where ROM is mapped (§3.1).
    #[inline(always)]
    pub fn write(&mut self, addr: u16, value: u8) {
        let off = self.wbias[(addr >> 14) as usize].wrapping_add(addr as usize);
        self.mem[off & MASK] = value;
    }

    /// What port 02h reads: the last value written (or the power-on read value).
    pub fn port2(&self) -> u8 {
        self.port2
    }

    /// The value that decides the mapping (the last written, or the power-on mapping).
    pub fn port2_mapping(&self) -> u8 {
        self.mapping
    }

    /// Port 02h reads `v` until first written, the mapping staying as it is (§3.3 [E]: TilEm
    /// reads F8h).
    pub fn set_unwritten_read(&mut self, v: u8) {
        self.port2 = v;
    }

    pub fn alt_map(&self) -> bool {
        self.alt_map
    }

    pub fn write_port2(&mut self, value: u8) {
        self.mapping = value;
        self.port2 = value;
        self.remap();
    }

    /// Port 04h bit 0 (only the TI-83-style model uses it).
    pub fn set_alt_map(&mut self, on: bool) {
        if self.alt_map != on {
            self.alt_map = on;
            self.remap();
        }
    }

    pub(crate) fn restore_regs(&mut self, mapping: u8, port2: u8, alt_map: bool) {
        self.mapping = mapping;
        self.port2 = port2;
        self.alt_map = alt_map;
        self.remap();
    }

    fn rom_page(n: u8) -> (u32, bool) {
        (u32::from(n & 7) * 0x4000, false)
    }

    fn ram_page(n: u8) -> (u32, bool) {
        // RAM page 1 is stored first (see the module comment).
        (RAM_BASE + u32::from((n & 1) ^ 1) * 0x4000, true)
    }

    fn remap(&mut self) {
        let v = self.mapping;
        let banks = match self.model {
            PagingModel::Simple => [
                Self::rom_page(0),
                Self::rom_page(v & 7),
                Self::ram_page(1),
                Self::ram_page(0),
            ],
            PagingModel::Ti83 => {
                let a = if v & 0x40 != 0 {
                    Self::ram_page(v & 1)
                } else {
                    Self::rom_page(v & 7)
                };
                let page_b = |n: u8| {
                    if v & 0x80 != 0 {
                        Self::ram_page((v >> 3) & 1)
                    } else {
                        Self::rom_page(n)
                    }
                };
                if !self.alt_map {
                    [
                        Self::rom_page(0),
                        a,
                        page_b((v >> 3) & 7),
                        Self::ram_page(0),
                    ]
                } else {
                    // Alternate mapping: A with bit 0 cleared, A with bit 0 set, then B.
                    let (lo, hi) = if v & 0x40 != 0 {
                        (Self::ram_page(0), Self::ram_page(1))
                    } else {
                        (Self::rom_page(v & 6), Self::rom_page((v & 6) | 1))
                    };
                    [Self::rom_page(0), lo, hi, page_b((v >> 3) & 7)]
                }
            }
        };
        for (i, (b, w)) in banks.iter().enumerate() {
            self.bias[i] = (*b as usize).wrapping_sub(i * 0x4000);
            let target = if *w { *b as usize } else { SINK };
            self.wbias[i] = target.wrapping_sub(i * 0x4000);
            self.writable[i] = *w;
        }
        if !self.writable[2] {
            self.unmapped_ram_writes = self.unmapped_ram_writes.saturating_add(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rom() -> Vec<u8> {
        (0..ROM_SIZE).map(|i| (i / 0x4000) as u8 + 0x10).collect()
    }

    #[test]
    fn paging_both_models() {
        for model in [PagingModel::Simple, PagingModel::Ti83] {
            let mut m = Memory::new(model);
            m.load_rom(&rom());
            assert_eq!(m.read(0x0000), 0x10);
            assert_eq!(m.read(0x4000), 0x10);
            for p in 0..8u8 {
                let v = if model == PagingModel::Ti83 {
                    0x88 | p
                } else {
                    p
                };
                m.write_port2(v);
                assert_eq!(m.read(0x4123), 0x10 + p);
                assert_eq!(m.port2(), v);
            }
            m.write(0x4000, 0xAA);
            m.write(0x0000, 0xAA);
            assert_eq!(m.read(0x4000), 0x17);
            assert_eq!(m.read(0x0000), 0x10);
            m.write(0x8000, 1);
            m.write(0xFFFF, 2);
            assert_eq!(m.ram()[0], 1);
            assert_eq!(m.ram()[0x7FFF], 2);
        }
    }

    #[test]
    fn ti83_model_ram_in_page_a() {
        let mut m = Memory::new(PagingModel::Ti83);
        m.write(0xC000, 0x5A); // RAM page 0
        m.write_port2(0x88 | 0x40); // page A = RAM page 0
        assert_eq!(m.read(0x4000), 0x5A);
        m.write(0x4001, 0x77);
        assert_eq!(m.read(0xC001), 0x77);
        m.write_port2(0x01); // bit 7 clear: ROM page 0 at 8000h, RAM unmapped there
        m.write(0x8000, 0x99);
        assert_eq!(m.read(0x8000), 0);
        assert!(m.unmapped_ram_writes > 0);
    }
}
