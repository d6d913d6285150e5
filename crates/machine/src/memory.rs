//! ROM, RAM and the port-02h paging logic (spec §3).
//!
//! One 256 KiB array holds everything (the mask in every index lets the compiler drop the
//! bounds check):
//!
//! | array offset | contents |
//! |---|---|
//! | 00000h – 0FFFFh | the *view*: the 64 KiB as the CPU sees them under the current mapping |
//! | 10000h – 2FFFFh | ROM pages 0 – 7 |
//! | 30000h – 37FFFh | RAM, in CPU order for the normal mapping (8000h first) |
//!
//! Two ways to read, the same bytes either way:
//!
//! * **Through the view** ([`Memory::cpu_read`]): one indexed load, as on a flat bus. A bank
//!   switch copies the newly mapped 16 KiB into the view (banks whose page stays are not
//!   copied), so this pays while switches are rare.
//! * **Paged** ([`Memory::read`]): `bias[addr >> 14] + addr`, one table read and one add
//!   more, and a switch costs nothing; the view is refilled only when view reads resume.
//!
//! The ROM firmware picks one for each run slice from how often the program switched banks
//! lately (see `RomFirmware`), so a TI-OS that switches constantly does not pay a copy per
//! switch. The choice changes speed only, never what the CPU reads.
//!
//! In the normal mapping (RAM page 1 at 8000h, RAM page 0 at C000h, no RAM below 8000h: always
//! in the simple model, and the TI-83-style model's power-on 88h) the view's upper half *is*
//! the RAM, and a CPU write is one compare and one store. Any other mapping keeps the RAM at
//! 30000h and writes through to it and to every bank of the view that shows the same page (a
//! RAM page can be mapped twice in the TI-83-style model).
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
const VIEW_SIZE: usize = 0x10000;
const ROM_BASE: usize = 0x10000;
const RAM_BASE: usize = 0x30000;
const BANK: usize = 0x4000;
/// `view_src` of a bank of the view that must be refilled before view reads.
const INVALID: usize = usize::MAX;

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
    /// Where each 16 KiB CPU bank's bytes are kept, minus the bank's own CPU address, so that
    /// `bias[addr >> 14] + addr` is their array offset: a ROM page, the RAM at 30000h, or in
    /// the normal mapping the view itself.
    bias: [usize; 4],
    /// RAM is mapped there (CPU writes to ROM are ignored, §3.1).
    writable: [bool; 4],
    /// The page each bank shows: the array offset of its home outside the view (a ROM page or
    /// a RAM page at 30000h).
    bank_src: [usize; 4],
    /// The page each bank of the view holds now, or [`INVALID`].
    view_src: [usize; 4],
    /// Some bank of the view must be refilled before view reads ([`Memory::sync_view`]).
    view_dirty: bool,
    /// Paged reads: a bank switch leaves the view to be refilled later instead of copying.
    lazy_view: bool,
    /// The normal mapping: the RAM lives in the view's upper half, not at 30000h.
    ram_in_view: bool,
    /// Bank switches that changed what a bank shows (for the firmware's choice of reads).
    pub bank_switches: u64,
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
            writable: [false; 4],
            bank_src: [INVALID; 4],
            view_src: [INVALID; 4],
            view_dirty: true,
            lazy_view: false,
            ram_in_view: false,
            bank_switches: 0,
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
        m.sync_view();
        m
    }

    /// The 16 KiB page CPU bank `bank` (0-3) shows, counted in the memory array (ROM pages
    /// 0-7, then RAM): for a debugger's page:address breakpoints.
    pub fn bank_page(&self, bank: usize) -> usize {
        self.bank_src[bank & 3] / 0x4000
    }

    pub fn model(&self) -> PagingModel {
        self.model
    }

    /// Loads a ROM image (up to 128 KiB; the rest stays zero).
    pub fn load_rom(&mut self, rom: &[u8]) {
        let n = rom.len().min(ROM_SIZE);
        self.mem[ROM_BASE..ROM_BASE + n].copy_from_slice(&rom[..n]);
        self.mem[ROM_BASE + n..ROM_BASE + ROM_SIZE].fill(0);
        for i in 0..4 {
            if !self.writable[i] {
                self.invalidate(i);
            }
        }
        if !self.lazy_view {
            self.sync_view();
        }
    }

    pub fn rom(&self) -> &[u8] {
        &self.mem[ROM_BASE..ROM_BASE + ROM_SIZE]
    }

    /// The 32 KiB of RAM as the CPU sees them at 8000h – FFFFh under the normal mapping.
    pub fn ram(&self) -> &[u8] {
        let at = if self.ram_in_view { 0x8000 } else { RAM_BASE };
        &self.mem[at..at + RAM_SIZE]
    }

    /// The RAM for the host to change. Outside the normal mapping the view's copies of RAM
    /// are refilled by [`Memory::sync_view`], which every CPU run slice calls first.
    pub fn ram_mut(&mut self) -> &mut [u8] {
        if self.ram_in_view {
            return &mut self.mem[0x8000..0x8000 + RAM_SIZE];
        }
        for i in 0..4 {
            if self.writable[i] {
                self.invalidate(i);
            }
        }
        &mut self.mem[RAM_BASE..RAM_BASE + RAM_SIZE]
    }

    /// Read of `addr` under the current mapping, whatever the view holds: the CPU's paged
    /// reads, and the host's (debugger, tests).
    #[inline(always)]
    pub fn read(&self, addr: u16) -> u8 {
        let off = self.bias[(addr >> 14) as usize].wrapping_add(addr as usize);
        self.mem[off & MASK]
    }

    /// CPU read through the view: one load. Valid once [`Memory::sync_view`] has run since
    /// the view was last left to be refilled.
    #[inline(always)]
    pub fn cpu_read(&self, addr: u16) -> u8 {
        debug_assert!(!self.view_dirty, "CPU view read before Memory::sync_view");
        self.mem[addr as usize]
    }

    /// CPU write: ignored where ROM is mapped (§3.1).
    #[inline(always)]
    pub fn write(&mut self, addr: u16, value: u8) {
        if self.ram_in_view {
            // The normal mapping: ROM below 8000h, the view's RAM above.
            if addr >= 0x8000 {
                self.mem[addr as usize] = value;
            }
        } else {
            self.write_mapped(addr, value);
        }
    }

    /// CPU write outside the normal mapping: the RAM at 30000h, and every bank of the view
    /// holding the same page.
    #[cold]
    #[inline(never)]
    fn write_mapped(&mut self, addr: u16, value: u8) {
        let bank = (addr >> 14) as usize;
        if !self.writable[bank] {
            return;
        }
        let src = self.bank_src[bank];
        self.mem[src + (addr as usize & (BANK - 1))] = value;
        for b in 0..4 {
            if self.view_src[b] == src {
                self.mem[b * BANK + (addr as usize & (BANK - 1))] = value;
            }
        }
    }

    /// Whether bank switches leave the view to be refilled (the CPU reads paged).
    pub fn lazy_view(&self) -> bool {
        self.lazy_view
    }

    /// Chooses how bank switches treat the view: `false` (view reads) copies each newly
    /// mapped bank at once, `true` (paged reads) leaves the view to be refilled by the next
    /// [`Memory::sync_view`].
    pub fn set_lazy_view(&mut self, lazy: bool) {
        self.lazy_view = lazy;
        if !lazy {
            self.sync_view();
        }
    }

    /// Refills the banks of the view that were left to be refilled. One test when none was;
    /// called before every run slice that reads through the view.
    #[inline]
    pub fn sync_view(&mut self) {
        if self.view_dirty {
            self.fill_view();
        }
    }

    fn fill_view(&mut self) {
        for i in 0..4 {
            let src = self.bank_src[i];
            if self.view_src[i] != src {
                self.mem.copy_within(src..src + BANK, i * BANK);
                self.view_src[i] = src;
            }
        }
        self.view_dirty = false;
    }

    /// Bank `i` of the view must be refilled before view reads.
    fn invalidate(&mut self, i: usize) {
        if !(self.ram_in_view && i >= 2) {
            self.view_src[i] = INVALID;
            self.view_dirty = true;
        }
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

    /// A ROM page's home in the array.
    fn rom_page(n: u8) -> (usize, bool) {
        (ROM_BASE + usize::from(n & 7) * BANK, false)
    }

    /// A RAM page's home outside the normal mapping (page 1 first, see the module comment).
    fn ram_page(n: u8) -> (usize, bool) {
        (RAM_BASE + usize::from((n & 1) ^ 1) * BANK, true)
    }

    /// A bank switch with view reads: one 16 KiB copy (out of line, so that `remap` stays
    /// small for paged reads, where switches can come every few instructions).
    #[inline(never)]
    fn copy_bank(&mut self, i: usize, src: usize) {
        self.mem.copy_within(src..src + BANK, i * BANK);
        self.view_src[i] = src;
    }

    /// Into the normal mapping (the view takes the RAM over: `src2`, `src3` are the pages of
    /// banks 2 and 3) or out of it (the RAM moves back to 30000h; the view's banks 2 and 3
    /// still hold it, unchanged).
    #[cold]
    #[inline(never)]
    fn move_ram(&mut self, normal: bool, src2: usize, src3: usize) {
        if normal {
            self.mem.copy_within(RAM_BASE..RAM_BASE + RAM_SIZE, 0x8000);
            self.view_src[2] = src2;
            self.view_src[3] = src3;
        } else {
            self.mem.copy_within(0x8000..VIEW_SIZE, RAM_BASE);
        }
        self.ram_in_view = normal;
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
        let normal = banks[2] == Self::ram_page(1)
            && banks[3] == Self::ram_page(0)
            && !banks[0].1
            && !banks[1].1;
        let all = normal != self.ram_in_view;
        if all {
            self.move_ram(normal, banks[2].0, banks[3].0);
        }
        for (i, &(src, w)) in banks.iter().enumerate() {
            // Most switches change one bank: the others keep their tables.
            if !all && self.bank_src[i] == src {
                continue;
            }
            self.bank_src[i] = src;
            self.bank_switches = self.bank_switches.wrapping_add(1);
            let home = if normal && i >= 2 { i * BANK } else { src };
            self.bias[i] = home.wrapping_sub(i * BANK);
            self.writable[i] = w;
            if self.view_src[i] != src {
                if self.lazy_view {
                    self.invalidate(i);
                } else {
                    self.copy_bank(i, src);
                }
            }
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

/// The view and the paged reads against a direct model of §3.2: a reference that keeps ROM and
/// the two RAM pages apart and decodes port 02h on every access, driven through random bank
/// switches, CPU writes, host pokes, ROM loads and changes between view and paged reads, in
/// both paging models.
#[cfg(test)]
mod view_tests {
    use super::*;

    #[derive(Clone, Copy, PartialEq, Debug)]
    enum Page {
        Rom(u8),
        Ram(u8),
    }

    struct Reference {
        model: PagingModel,
        rom: Vec<u8>,
        ram: [Vec<u8>; 2],
        mapping: u8,
        alt: bool,
    }

    impl Reference {
        /// Spec §3.2's decoding, written out per bank.
        fn banks(&self) -> [Page; 4] {
            let v = self.mapping;
            match self.model {
                PagingModel::Simple => [Page::Rom(0), Page::Rom(v & 7), Page::Ram(1), Page::Ram(0)],
                PagingModel::Ti83 => {
                    let b = if v & 0x80 != 0 {
                        Page::Ram((v >> 3) & 1)
                    } else {
                        Page::Rom((v >> 3) & 7)
                    };
                    if self.alt {
                        let (lo, hi) = if v & 0x40 != 0 {
                            (Page::Ram(0), Page::Ram(1))
                        } else {
                            (Page::Rom(v & 6), Page::Rom((v & 6) | 1))
                        };
                        [Page::Rom(0), lo, hi, b]
                    } else {
                        let a = if v & 0x40 != 0 {
                            Page::Ram(v & 1)
                        } else {
                            Page::Rom(v & 7)
                        };
                        [Page::Rom(0), a, b, Page::Ram(0)]
                    }
                }
            }
        }

        fn read(&self, addr: u16) -> u8 {
            let off = addr as usize & 0x3FFF;
            match self.banks()[addr as usize >> 14] {
                Page::Rom(n) => self.rom[n as usize * 0x4000 + off],
                Page::Ram(n) => self.ram[n as usize][off],
            }
        }

        fn write(&mut self, addr: u16, v: u8) {
            if let Page::Ram(n) = self.banks()[addr as usize >> 14] {
                self.ram[n as usize][addr as usize & 0x3FFF] = v;
            }
        }

        /// RAM in CPU order under the normal mapping: page 1 (8000h), then page 0.
        fn ram_cpu_order(&self) -> Vec<u8> {
            [self.ram[1].clone(), self.ram[0].clone()].concat()
        }
    }

    struct Rng(u32);
    impl Rng {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            self.0
        }
    }

    fn rom(seed: u8) -> Vec<u8> {
        (0..ROM_SIZE)
            .map(|i| (i as u8).wrapping_mul(7) ^ (i >> 14) as u8 ^ seed)
            .collect()
    }

    fn check_all(m: &mut Memory, r: &Reference, step: usize) {
        assert_eq!(m.ram(), &r.ram_cpu_order()[..], "ram() at step {step}");
        for addr in 0..=0xFFFFu16 {
            assert_eq!(m.read(addr), r.read(addr), "{addr:04X}h at step {step}");
        }
        m.sync_view();
        for addr in 0..=0xFFFFu16 {
            assert_eq!(m.cpu_read(addr), r.read(addr), "{addr:04X}h at step {step}");
        }
    }

    #[test]
    fn the_view_always_shows_what_the_mapping_decodes() {
        for model in [PagingModel::Simple, PagingModel::Ti83] {
            let mut rng = Rng(0x1234_5678);
            let mut m = Memory::new(model);
            let mut r = Reference {
                model,
                rom: rom(0),
                ram: [vec![0; 0x4000], vec![0; 0x4000]],
                mapping: m.port2_mapping(),
                alt: false,
            };
            m.load_rom(&r.rom);
            check_all(&mut m, &r, 0);
            for step in 1..=6000 {
                let x = rng.next();
                match x % 100 {
                    0..=59 => {
                        // CPU writes, half of them at the edges of a bank.
                        let addr = if x & 0x100 != 0 {
                            (rng.next() as u16 & 0xC000) | (rng.next() as u16 & 0x0003)
                        } else {
                            rng.next() as u16
                        };
                        let v = rng.next() as u8;
                        m.write(addr, v);
                        r.write(addr, v);
                    }
                    60..=74 => {
                        // Switches favour the normal mapping and RAM in page A.
                        let v = match rng.next() % 4 {
                            0 => 0x88 | (rng.next() as u8 & 7),
                            1 => 0xC8 | (rng.next() as u8 & 1),
                            _ => rng.next() as u8,
                        };
                        m.write_port2(v);
                        r.mapping = v;
                    }
                    75..=79 if model == PagingModel::Ti83 => {
                        let on = x & 0x200 != 0;
                        m.set_alt_map(on);
                        r.alt = on;
                    }
                    80..=89 => {
                        // The host pokes RAM (a loader, the runtime) between CPU runs.
                        let i = rng.next() as usize % RAM_SIZE;
                        let v = rng.next() as u8;
                        m.ram_mut()[i] = v;
                        r.ram[1 - i / 0x4000][i % 0x4000] = v;
                    }
                    90 => {
                        r.rom = rom(rng.next() as u8);
                        m.load_rom(&r.rom);
                    }
                    91..=93 => m.set_lazy_view(x & 0x400 != 0),
                    _ => {}
                }
                // Paged reads are right at once; view reads when the view is in use (a run
                // slice with view reads starts with a sync).
                let addr = rng.next() as u16;
                assert_eq!(m.read(addr), r.read(addr), "{addr:04X}h at step {step}");
                if !m.lazy_view {
                    m.sync_view();
                    let addr = rng.next() as u16;
                    assert_eq!(m.cpu_read(addr), r.read(addr), "{addr:04X}h at step {step}");
                }
                if step % 500 == 0 {
                    check_all(&mut m, &r, step);
                }
            }
            check_all(&mut m, &r, 6001);
        }
    }

    #[test]
    fn a_page_mapped_twice_shows_each_write_in_both_banks() {
        let mut m = Memory::new(PagingModel::Ti83);
        m.write_port2(0xC0); // page A = RAM page 0, also at C000h; bit 7 set: RAM page 0 at 8000h
        m.write(0x4010, 0x5A);
        assert_eq!(m.cpu_read(0xC010), 0x5A);
        assert_eq!(m.cpu_read(0x8010), 0x5A);
        m.write(0xC011, 0xA5);
        assert_eq!(m.cpu_read(0x4011), 0xA5);
        m.write_port2(0x88);
        assert_eq!(m.ram()[0x4010], 0x5A);
        assert_eq!(m.ram()[0x4011], 0xA5);
    }
}
