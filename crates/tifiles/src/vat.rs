//! The TI-82 variable allocation table in emulated RAM (spec 7), on a 32 KiB
//! slice holding `0x8000`–`0xFFFF`.
//!
//! Layout (spec 7.1–7.3; see `docs/files.md` for the decisions): variable data
//! grows up from `userMem` (`0x8D24`) to `tempMem`; then the FP stack
//! (`fpBase`..`FPS`); free memory; the operator stack (`OPS`..`OPBase`);
//! temporary VAT entries (`OPBase`..`pTemp`); permanent VAT entries from `pTemp+1`
//! up to `symTable` (`0xFE6E`), each stored downward from its top byte.
//!
//! Creating appends data at `tempMem` and an entry below the last one, moving the
//! FP stack up and the temporaries and operator stack down, as the OS does;
//! deleting and resizing close or open the gap and fix every data address above
//! it. Reads never panic and never trust a pointer without a bounds check.

use crate::file::Backup;
use crate::float::TiFloat;
use crate::var::{VarData, VarError, VarName, VarType, Variable};

/// First address of the slice.
pub const RAM_BASE: u16 = 0x8000;
/// Size of the slice.
pub const RAM_SIZE: usize = 0x8000;
/// Start of user memory (variable data).
pub const USER_MEM: u16 = 0x8D24;
/// Top byte of the VAT.
pub const SYM_TABLE: u16 = 0xFE6E;
/// Word: first free byte after user data.
pub const TEMP_MEM: u16 = 0x8D0A;
/// Word: bottom of the FP stack.
pub const FP_BASE: u16 = 0x8D0C;
/// Word: top of the FP stack.
pub const FPS: u16 = 0x8D0E;
/// Word: top of the operator stack (just below the VAT).
pub const OP_BASE: u16 = 0x8D10;
/// Word: current operator-stack pointer.
pub const OPS: u16 = 0x8D12;
/// Word: byte just below the last permanent VAT entry.
pub const P_TEMP: u16 = 0x8D18;

/// Something wrong with the RAM image or a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VatError {
    #[error("RAM slice is {0} bytes, expected 32768")]
    SliceSize(usize),
    #[error("system pointer at {addr:#06x} holds {value:#06x}, outside {lo:#06x}..={hi:#06x}")]
    BadPointer {
        addr: u16,
        value: u16,
        lo: u16,
        hi: u16,
    },
    #[error("VAT entry at {0:#06x} runs past the VAT")]
    BadEntry(u16),
    #[error("data of {name} at {addr:#06x} ({len} bytes) is outside user memory")]
    BadData { name: String, addr: u16, len: usize },
    #[error("no room: need {need} bytes, {free} free")]
    NoMemory { need: usize, free: usize },
    #[error("{0} cannot be kept in RAM")]
    NotInRam(VarType),
    #[error("{0}")]
    Var(#[from] VarError),
}

/// One VAT entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VatEntry {
    /// The type byte as stored (bit 5 = selected equation).
    pub type_byte: u8,
    /// Address of the entry's top byte (the type byte).
    pub entry_addr: u16,
    /// Entry length in bytes (6, or name length + 4 for programs).
    pub entry_len: u16,
    /// Address of the data in user memory.
    pub data_addr: u16,
    pub name: VarName,
}

impl VatEntry {
    /// Type (type byte masked with `0x1F`).
    pub fn var_type(&self) -> VarType {
        VarType::from_byte(self.type_byte & 0x1F)
    }
    /// Name as text.
    pub fn display_name(&self) -> String {
        self.name.display(self.var_type())
    }
    /// True for names the OS keeps for itself (spec 3.9): programs `!` and `#`,
    /// real `Ans`, the list `01 2E`.
    pub fn is_internal(&self) -> bool {
        matches!(self.name.bytes(), [0x21] | [0x23] | [0x72] | [0x01, 0x2E])
    }
}

fn check(ram: &[u8]) -> Result<(), VatError> {
    if ram.len() != RAM_SIZE {
        return Err(VatError::SliceSize(ram.len()));
    }
    Ok(())
}

fn idx(addr: u16) -> usize {
    usize::from(addr.wrapping_sub(RAM_BASE))
}

fn rd(ram: &[u8], addr: u16) -> u8 {
    if addr < RAM_BASE {
        return 0;
    }
    ram.get(idx(addr)).copied().unwrap_or(0)
}

/// Read a little-endian word (0 outside the slice).
pub fn word(ram: &[u8], addr: u16) -> u16 {
    u16::from_le_bytes([rd(ram, addr), rd(ram, addr.wrapping_add(1))])
}

fn set_word(ram: &mut [u8], addr: u16, v: u16) {
    let i = idx(addr);
    if let Some(s) = ram.get_mut(i..i + 2) {
        s.copy_from_slice(&v.to_le_bytes());
    }
}

fn ptr(ram: &[u8], addr: u16, lo: u16, hi: u16) -> Result<u16, VatError> {
    let value = word(ram, addr);
    if value < lo || value > hi {
        return Err(VatError::BadPointer {
            addr,
            value,
            lo,
            hi,
        });
    }
    Ok(value)
}

/// The system pointers of spec 7.2 that the VAT code uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pointers {
    pub temp_mem: u16,
    pub fp_base: u16,
    pub fps: u16,
    pub ops: u16,
    pub op_base: u16,
    pub p_temp: u16,
}

impl Pointers {
    /// Read and sanity-check them (each in range and in order).
    pub fn read(ram: &[u8]) -> Result<Pointers, VatError> {
        check(ram)?;
        let p_temp = ptr(ram, P_TEMP, USER_MEM, SYM_TABLE)?;
        let op_base = ptr(ram, OP_BASE, USER_MEM, p_temp)?;
        let ops = ptr(ram, OPS, USER_MEM, op_base)?;
        let temp_mem = ptr(ram, TEMP_MEM, USER_MEM, ops)?;
        let fp_base = ptr(ram, FP_BASE, temp_mem, ops)?;
        let fps = ptr(ram, FPS, fp_base, ops)?;
        Ok(Pointers {
            temp_mem,
            fp_base,
            fps,
            ops,
            op_base,
            p_temp,
        })
    }

    fn write(&self, ram: &mut [u8]) {
        set_word(ram, TEMP_MEM, self.temp_mem);
        set_word(ram, FP_BASE, self.fp_base);
        set_word(ram, FPS, self.fps);
        set_word(ram, OPS, self.ops);
        set_word(ram, OP_BASE, self.op_base);
        set_word(ram, P_TEMP, self.p_temp);
    }

    /// Free bytes between the FP stack and the operator stack.
    pub fn free(&self) -> usize {
        usize::from(self.ops.saturating_sub(self.fps))
    }
}

/// Make the RAM an empty variable table: no variables, empty stacks. For the
/// built-in runtime, which keeps its variables in the OS layout.
pub fn init_empty(ram: &mut [u8]) -> Result<(), VatError> {
    check(ram)?;
    Pointers {
        temp_mem: USER_MEM,
        fp_base: USER_MEM,
        fps: USER_MEM,
        ops: SYM_TABLE,
        op_base: SYM_TABLE,
        p_temp: SYM_TABLE,
    }
    .write(ram);
    Ok(())
}

/// Visits the entries from `from` down to `to`, stopping early when `visit` returns `Some`.
fn walk_until<T>(
    ram: &[u8],
    from: u16,
    to: u16,
    mut visit: impl FnMut(VatEntry) -> Option<T>,
) -> Result<Option<T>, VatError> {
    let mut p = from;
    while p > to {
        let type_byte = rd(ram, p);
        let data_addr =
            u16::from_le_bytes([rd(ram, p.wrapping_sub(1)), rd(ram, p.wrapping_sub(2))]);
        let t = type_byte & 0x1F;
        let (name, len) = if t == 5 || t == 6 {
            let n = rd(ram, p.wrapping_sub(3));
            if n > 8 || p < to.saturating_add(4 + u16::from(n)) {
                return Err(VatError::BadEntry(p));
            }
            let mut b = [0u8; 8];
            for (k, slot) in b.iter_mut().enumerate().take(usize::from(n)) {
                *slot = rd(ram, p - 4 - k as u16);
            }
            (VarName(b), 4 + u16::from(n))
        } else {
            if p < to.saturating_add(6) {
                return Err(VatError::BadEntry(p));
            }
            let b = [rd(ram, p - 3), rd(ram, p - 4), rd(ram, p - 5)];
            (VarName::from_bytes(&b), 6)
        };
        let found = visit(VatEntry {
            type_byte,
            entry_addr: p,
            entry_len: len,
            data_addr,
            name,
        });
        if found.is_some() {
            return Ok(found);
        }
        p -= len;
    }
    Ok(None)
}

fn walk(ram: &[u8], from: u16, to: u16) -> Result<Vec<VatEntry>, VatError> {
    let mut out = Vec::new();
    walk_until(ram, from, to, |e| {
        out.push(e);
        None::<()>
    })?;
    Ok(out)
}

/// The permanent variables, top of the VAT first (creation order).
pub fn entries(ram: &[u8]) -> Result<Vec<VatEntry>, VatError> {
    let p = Pointers::read(ram)?;
    walk(ram, SYM_TABLE, p.p_temp)
}

/// The temporary entries between `pTemp` and `OPBase` (normally none).
pub fn temp_entries(ram: &[u8]) -> Result<Vec<VatEntry>, VatError> {
    let p = Pointers::read(ram)?;
    walk(ram, p.p_temp, p.op_base)
}

/// Find a permanent variable by type and exact name bytes.
pub fn find(ram: &[u8], ty: VarType, name: &VarName) -> Result<Option<VatEntry>, VatError> {
    // Called for every variable access of a running program: walks without allocating.
    let p = Pointers::read(ram)?;
    walk_until(ram, SYM_TABLE, p.p_temp, |e| {
        (e.var_type() == ty && e.name == *name).then_some(e)
    })
}

/// Size in bytes of an entry's data in user memory (reads the size word).
pub fn data_size(ram: &[u8], e: &VatEntry) -> Result<usize, VatError> {
    let a = e.data_addr;
    let w = usize::from(word(ram, a));
    Ok(match e.var_type() {
        VarType::Real => 9,
        VarType::List => 2 + 9 * w,
        VarType::Matrix => {
            2 + 9 * usize::from(rd(ram, a)) * usize::from(rd(ram, a.wrapping_add(1)))
        }
        VarType::Equation
        | VarType::Program
        | VarType::ProtectedProgram
        | VarType::Picture
        | VarType::Gdb => 2 + w,
        t => return Err(VatError::NotInRam(t)),
    })
}

/// The data bytes of an entry, checked to lie inside user memory.
pub fn data_bytes<'a>(ram: &'a [u8], e: &VatEntry) -> Result<&'a [u8], VatError> {
    let p = Pointers::read(ram)?;
    let len = data_size(ram, e)?;
    let bad = || VatError::BadData {
        name: e.display_name(),
        addr: e.data_addr,
        len,
    };
    let start = e.data_addr;
    let end = usize::from(start) + len;
    if start < USER_MEM || end > usize::from(p.temp_mem) {
        return Err(bad());
    }
    ram.get(idx(start)..idx(start) + len).ok_or_else(bad)
}

/// Read an entry's value.
pub fn read_value(ram: &[u8], e: &VatEntry) -> Result<Variable, VatError> {
    let d = data_bytes(ram, e)?;
    Ok(Variable {
        name: e.name,
        data: VarData::parse(e.var_type(), d)?,
    })
}

/// Read a variable by type and name; `Ok(None)` if it does not exist.
pub fn read(ram: &[u8], ty: VarType, name: &VarName) -> Result<Option<Variable>, VatError> {
    match find(ram, ty, name)? {
        Some(e) => read_value(ram, &e).map(Some),
        None => Ok(None),
    }
}

/// `L1`…`L6` as reals (`n` = 1…6); `Ok(None)` if the list does not exist (spec 7.4).
pub fn read_list(ram: &[u8], n: u8) -> Result<Option<Vec<TiFloat>>, VatError> {
    let Some(name) = VarName::list(n) else {
        return Ok(None);
    };
    match read(ram, VarType::List, &name)? {
        Some(Variable {
            data: VarData::List(l),
            ..
        }) => Ok(Some(l)),
        _ => Ok(None),
    }
}

fn fix_addresses(
    ram: &mut [u8],
    p: &Pointers,
    from: u16,
    delta: i32,
    skip: Option<u16>,
) -> Result<(), VatError> {
    let mut all = walk(ram, SYM_TABLE, p.p_temp)?;
    all.extend(walk(ram, p.p_temp, p.op_base)?);
    for e in all {
        if Some(e.entry_addr) == skip || e.data_addr < from {
            continue;
        }
        let v = (i32::from(e.data_addr) + delta) as u16;
        // Stored high byte at p-2, low byte at p-1 (spec 7.3).
        let i = idx(e.entry_addr);
        ram[i - 1] = v as u8;
        ram[i - 2] = (v >> 8) as u8;
    }
    Ok(())
}

/// Open `n` bytes of user memory at `at` (≤ tempMem), moving data and the FP stack
/// up and fixing data addresses ≥ `at` (except the entry `skip`).
fn insert_mem(ram: &mut [u8], at: u16, n: usize, skip: Option<u16>) -> Result<Pointers, VatError> {
    let mut p = Pointers::read(ram)?;
    if n > p.free() {
        return Err(VatError::NoMemory {
            need: n,
            free: p.free(),
        });
    }
    ram.copy_within(idx(at)..idx(p.fps), idx(at) + n);
    ram[idx(at)..idx(at) + n].fill(0);
    fix_addresses(ram, &p, at, n as i32, skip)?;
    let n16 = n as u16;
    p.temp_mem += n16;
    p.fp_base += n16;
    p.fps += n16;
    p.write(ram);
    Ok(p)
}

/// Remove `n` bytes of user memory at `at`, the reverse of [`insert_mem`].
fn delete_mem(ram: &mut [u8], at: u16, n: usize) -> Result<Pointers, VatError> {
    let mut p = Pointers::read(ram)?;
    let end = usize::from(at) + n;
    if end > usize::from(p.temp_mem) || at < USER_MEM {
        return Err(VatError::BadData {
            name: "memory block".into(),
            addr: at,
            len: n,
        });
    }
    ram.copy_within(idx(at) + n..idx(p.fps), idx(at));
    fix_addresses(ram, &p, end as u16, -(n as i32), None)?;
    let n16 = n as u16;
    p.temp_mem -= n16;
    p.fp_base -= n16;
    p.fps -= n16;
    ram[idx(p.fps)..idx(p.fps) + n].fill(0);
    p.write(ram);
    Ok(p)
}

/// The bytes a new variable of type `ty` named `name` and `data_len` bytes of data takes in
/// RAM: the data and its VAT entry (spec 7.3: 6 bytes, a program's 4 + its name), as
/// [`store`] needs them free.
pub fn space_needed(ty: VarType, name: &VarName, data_len: usize) -> usize {
    data_len + entry_bytes(ty.to_byte(), 0, name, ty.is_program()).len()
}

fn entry_bytes(ty: u8, addr: u16, name: &VarName, program: bool) -> Vec<u8> {
    // Bytes from the top of the entry downward.
    let mut e = vec![ty, addr as u8, (addr >> 8) as u8];
    if program {
        let n = name.0.iter().position(|&b| b == 0).unwrap_or(8);
        e.push(n as u8);
        e.extend_from_slice(&name.0[..n]);
    } else {
        e.extend_from_slice(&name.0[..3]);
    }
    e
}

fn ram_type(data: &VarData) -> Result<VarType, VatError> {
    let t = data.var_type();
    match t {
        VarType::Real
        | VarType::List
        | VarType::Matrix
        | VarType::Equation
        | VarType::Program
        | VarType::ProtectedProgram
        | VarType::Picture
        | VarType::Gdb => Ok(t),
        _ => Err(VatError::NotInRam(t)),
    }
}

/// Create a variable, or replace the value of an existing one with the same type
/// and name (resized in place; its VAT position and type-byte flags are kept).
/// A program or protected program replaces either kind of the same name.
pub fn store(ram: &mut [u8], var: &Variable) -> Result<VatEntry, VatError> {
    let ty = ram_type(&var.data)?;
    var.data.check()?;
    let bytes = var.data.to_bytes();
    let existing = entries(ram)?.into_iter().find(|e| {
        e.name == var.name && (e.var_type() == ty || (ty.is_program() && e.var_type().is_program()))
    });
    if let Some(e) = existing {
        let old = data_bytes(ram, &e)?.len();
        let end = e.data_addr + old as u16;
        if bytes.len() > old {
            insert_mem(ram, end, bytes.len() - old, Some(e.entry_addr))?;
        } else if bytes.len() < old {
            delete_mem(ram, end - (old - bytes.len()) as u16, old - bytes.len())?;
        }
        let i = idx(e.data_addr);
        ram[i..i + bytes.len()].copy_from_slice(&bytes);
        let type_byte = (e.type_byte & !0x1F) | ty.to_byte();
        ram[idx(e.entry_addr)] = type_byte;
        return Ok(VatEntry { type_byte, ..e });
    }
    let p = Pointers::read(ram)?;
    let need = space_needed(ty, &var.name, bytes.len());
    if need > p.free() {
        return Err(VatError::NoMemory {
            need,
            free: p.free(),
        });
    }
    // Data at the end of user memory.
    let addr = p.temp_mem;
    let mut p = insert_mem(ram, addr, bytes.len(), None)?;
    ram[idx(addr)..idx(addr) + bytes.len()].copy_from_slice(&bytes);
    // Entry just below the last permanent one: move temporaries and the operator
    // stack down to make room.
    let ebytes = entry_bytes(ty.to_byte(), addr, &var.name, ty.is_program());
    let n = ebytes.len() as u16;
    let lo = idx(p.ops);
    let hi = idx(p.p_temp) + 1;
    ram.copy_within(lo..hi, lo - usize::from(n));
    let top = p.p_temp;
    for (k, b) in ebytes.iter().enumerate() {
        ram[idx(top) - k] = *b;
    }
    p.p_temp -= n;
    p.op_base -= n;
    p.ops -= n;
    p.write(ram);
    Ok(VatEntry {
        type_byte: ty.to_byte(),
        entry_addr: top,
        entry_len: n,
        data_addr: addr,
        name: var.name,
    })
}

/// Delete a variable; `Ok(false)` if it does not exist.
pub fn delete(ram: &mut [u8], ty: VarType, name: &VarName) -> Result<bool, VatError> {
    let Some(e) = find(ram, ty, name)? else {
        return Ok(false);
    };
    let size = data_bytes(ram, &e)?.len();
    delete_mem(ram, e.data_addr, size)?;
    let mut p = Pointers::read(ram)?;
    let n = e.entry_len;
    // Close the gap: everything from OPS up to just below the entry moves up.
    let lo = idx(p.ops);
    let hi = idx(e.entry_addr) + 1 - usize::from(n);
    ram.copy_within(lo..hi, lo + usize::from(n));
    ram[lo..lo + usize::from(n)].fill(0);
    p.p_temp += n;
    p.op_base += n;
    p.ops += n;
    p.write(ram);
    Ok(true)
}

/// Set or clear an equation's "selected" bit (type byte `0x20`).
pub fn set_selected(ram: &mut [u8], name: &VarName, selected: bool) -> Result<bool, VatError> {
    let Some(e) = find(ram, VarType::Equation, name)? else {
        return Ok(false);
    };
    let i = idx(e.entry_addr);
    ram[i] = if selected {
        ram[i] | 0x20
    } else {
        ram[i] & !0x20
    };
    Ok(true)
}

/// Start of backup section 1 (spec 7.6).
pub const BACKUP_SECTION1: u16 = 0x8528;

/// Copy the three backup sections out of RAM (spec 7.6): `0x8528`–`0x8D23`,
/// user memory up to `tempMem`, and the VAT from `pTemp+1` to `symTable`.
pub fn backup_from_ram(ram: &[u8]) -> Result<Backup, VatError> {
    let p = Pointers::read(ram)?;
    Ok(Backup {
        section1: ram[idx(BACKUP_SECTION1)..idx(USER_MEM)].to_vec(),
        section2: ram[idx(USER_MEM)..idx(p.temp_mem)].to_vec(),
        section3: ram[idx(p.p_temp) + 1..=idx(SYM_TABLE)].to_vec(),
        address: USER_MEM,
    })
}

/// Write a backup into RAM (spec 7.6): section 1 at `0x8528`, section 2 at its
/// address, section 3 ending at `0xFE6E`. Section 1 carries the system pointers. The
/// backup is put together in a copy first and checked there (the pointers, every VAT
/// entry, every variable's data inside user memory): a backup that fails leaves `ram` as
/// it was.
pub fn restore_backup(ram: &mut [u8], b: &Backup) -> Result<(), VatError> {
    check(ram)?;
    let mut copy = ram.to_vec();
    place_backup(&mut copy, b)?;
    for e in entries(&copy)? {
        read_value(&copy, &e)?;
    }
    ram.copy_from_slice(&copy);
    Ok(())
}

fn place_backup(ram: &mut [u8], b: &Backup) -> Result<(), VatError> {
    let bad = |len: usize| VatError::BadData {
        name: "backup section".into(),
        addr: b.address,
        len,
    };
    let s1 = idx(BACKUP_SECTION1);
    let s2 = usize::from(b.address)
        .checked_sub(usize::from(RAM_BASE))
        .ok_or_else(|| bad(b.section2.len()))?;
    let s3_end = idx(SYM_TABLE) + 1;
    let s3 = s3_end
        .checked_sub(b.section3.len())
        .ok_or_else(|| bad(b.section3.len()))?;
    if s1 + b.section1.len() > s2 || s2 + b.section2.len() > s3 {
        return Err(bad(b.section1.len() + b.section2.len()));
    }
    ram[s1..s1 + b.section1.len()].copy_from_slice(&b.section1);
    ram[s2..s2 + b.section2.len()].copy_from_slice(&b.section2);
    ram[s3..s3_end].copy_from_slice(&b.section3);
    Pointers::read(ram)?;
    Ok(())
}
