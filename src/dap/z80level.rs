//! The adapter's Z80 level (a ROM dump, or any raw program image): instruction breakpoints
//! (`0x0010`, or `page:0x4123` in the banked window), single instructions, step over
//! `CALL`/`RST`, step out, registers and flags, the interrupt state and the LCD as variables,
//! `readMemory`/`writeMemory` on the CPU's view, `disassemble`, and data breakpoints on
//! memory writes and on ports.

use std::io::Write;

use serde_json::{json, Value as Json};
use ti82_machine::debug::{step_over_target, Z80Debug, Z80Step, Z80Stop};
use ti82_machine::{Calc, Hardware, RomFirmware, RomImage};

use super::Session;

/// Parses a DAP memory reference: `0x0010`, `16`, or `page:0x4123`.
pub fn parse_address(s: &str) -> Result<(Option<u8>, u16), String> {
    let bad = || format!("{s:?} is not an address (write 0x0010, or PAGE:0x4123)");
    let (page, addr) = match s.split_once(':') {
        Some((p, a)) => (Some(p.trim().parse::<u8>().map_err(|_| bad())?), a),
        None => (None, s),
    };
    let a = addr.trim();
    let v = match a.strip_prefix("0x").or_else(|| a.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).map_err(|_| bad())?,
        None => a.parse::<u32>().map_err(|_| bad())?,
    };
    u16::try_from(v).map(|v| (page, v)).map_err(|_| bad())
}

pub fn hex(a: u16) -> String {
    format!("0x{a:04X}")
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn unbase64(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for ch in s.bytes().filter(|b| !b.is_ascii_whitespace()) {
        if ch == b'=' {
            break;
        }
        let v = B64
            .iter()
            .position(|&b| b == ch)
            .ok_or("data is not base64")? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

/// A ROM dump (validated), or a raw program image of at most 16 KiB placed at 0000h.
pub fn load_image(path: &str) -> Result<RomImage, String> {
    // A device or a pipe could be read forever: only a regular file no larger than a dump.
    let meta = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?;
    if !meta.is_file() || meta.len() > 1 << 20 {
        return Err(format!(
            "{path}: not a ROM dump or program image (a regular file up to 1 MiB)"
        ));
    }
    match RomImage::load(path) {
        Ok(r) => Ok(r),
        Err(ti82_machine::RomError::Truncated { size, .. }) if size <= 0x4000 => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            Ok(RomImage::from_program(&bytes))
        }
        Err(e) => Err(e.to_string()),
    }
}

pub fn new_calc(rom: RomImage, stop_on_entry: bool) -> Calc {
    let mut calc = Calc::from_rom(rom);
    if let Some(fw) = calc
        .firmware_mut()
        .as_any_mut()
        .downcast_mut::<RomFirmware>()
    {
        let mut d = Z80Debug::default();
        if stop_on_entry {
            d.mode = Z80Step::Entry;
        }
        fw.debug = Some(Box::new(d));
    }
    calc
}

impl<W: Write> Session<W> {
    pub(super) fn z80(&mut self) -> Result<(&mut RomFirmware, &mut Hardware), String> {
        self.parts("not a Z80 session")
    }

    pub(super) fn z80_debug(&mut self) -> Result<&mut Z80Debug, String> {
        let (fw, _) = self.z80()?;
        fw.debug.as_deref_mut().ok_or_else(|| "no debugger".into())
    }

    pub(super) fn z80_is(&mut self) -> bool {
        self.z80().is_ok()
    }

    pub(super) fn set_instruction_breakpoints(&mut self, args: &Json) -> Result<Json, String> {
        let mut plain = Vec::new();
        let mut paged = Vec::new();
        let mut answers = Vec::new();
        for b in args["breakpoints"].as_array().cloned().unwrap_or_default() {
            let r = b["instructionReference"].as_str().unwrap_or("");
            let off = b["offset"].as_i64().unwrap_or(0);
            match parse_address(r) {
                Ok((page, a)) => {
                    let a = i64::from(a).wrapping_add(off) as u16;
                    match page {
                        Some(p) => paged.push((p, a)),
                        None => plain.push(a),
                    }
                    answers.push(json!({"verified": true, "instructionReference": hex(a)}));
                }
                Err(e) => answers.push(json!({"verified": false, "message": e})),
            }
        }
        let d = self.z80_debug()?;
        d.set_breakpoints(&plain);
        d.paged = paged;
        Ok(json!({ "breakpoints": answers }))
    }

    pub(super) fn z80_data_breakpoints(&mut self, args: &Json) -> Result<Json, String> {
        let mut mem = Vec::new();
        let mut ports = Vec::new();
        let mut answers = Vec::new();
        for b in args["breakpoints"].as_array().cloned().unwrap_or_default() {
            let id = b["dataId"].as_str().unwrap_or("");
            let parsed = if let Some(p) = id.strip_prefix("port:") {
                parse_address(p).map(|(_, v)| ports.push(v as u8))
            } else {
                parse_address(id.strip_prefix("mem:").unwrap_or(id)).map(|(_, a)| mem.push((a, 1)))
            };
            answers.push(match parsed {
                Ok(()) => json!({"verified": true}),
                Err(e) => json!({"verified": false, "message": e}),
            });
        }
        let d = self.z80_debug()?;
        d.mem_watch = mem;
        d.port_watch = ports;
        Ok(json!({ "breakpoints": answers }))
    }

    pub(super) fn z80_data_info(&mut self, args: &Json) -> Json {
        let name = args["name"].as_str().unwrap_or("");
        let id = match name.strip_prefix("port ") {
            Some(p) => format!("port:{}", p.trim()),
            None => format!("mem:{name}"),
        };
        json!({"dataId": id, "description": format!("{name} is written"),
            "accessTypes": ["write"]})
    }

    pub(super) fn z80_stack(&mut self) -> Result<Json, String> {
        let (fw, hw) = self.z80()?;
        let pc = fw.cpu.pc;
        let ins = z80::disasm::disassemble(|a| hw.mem.cpu_read(a), pc);
        Ok(
            json!({"stackFrames": [{"id": 1, "name": format!("{}: {}", hex(pc), ins.text),
            "line": 0, "column": 0, "instructionPointerReference": hex(pc)}],
            "totalFrames": 1}),
        )
    }

    pub(super) fn z80_scopes(&mut self) -> Json {
        json!({"scopes": [
            {"name": "Registers", "variablesReference": 1, "expensive": false},
            {"name": "Interrupts", "variablesReference": 2, "expensive": false},
            {"name": "LCD", "variablesReference": 3, "expensive": false},
        ]})
    }

    pub(super) fn z80_variables(&mut self, args: &Json) -> Result<Json, String> {
        let r = args["variablesReference"].as_i64().unwrap_or(0);
        let (fw, hw) = self.z80()?;
        let c = &fw.cpu;
        let w = |n: &str, v: u16| json!({"name": n, "value": hex(v), "variablesReference": 0});
        let b = |n: &str, v: u8| json!({"name": n, "value": format!("0x{v:02X}"), "variablesReference": 0});
        let vars = match r {
            1 => vec![
                json!({"name": "AF", "value": hex(c.af()), "variablesReference": 4}),
                w("BC", c.bc()),
                w("DE", c.de()),
                w("HL", c.hl()),
                w("IX", c.ix),
                w("IY", c.iy),
                w("SP", c.sp),
                w("PC", c.pc),
                w("AF'", c.af_alt),
                w("BC'", c.bc_alt),
                w("DE'", c.de_alt),
                w("HL'", c.hl_alt),
                b("I", c.i),
                b("R", c.r()),
                json!({"name": "IM", "value": c.im.to_string(), "variablesReference": 0}),
                json!({"name": "IFF1", "value": c.iff1.to_string(), "variablesReference": 0}),
                json!({"name": "IFF2", "value": c.iff2.to_string(), "variablesReference": 0}),
            ],
            4 => {
                let f = c.f();
                ["S", "Z", "Y", "H", "X", "P/V", "N", "C"]
                    .iter()
                    .enumerate()
                    .map(|(i, n)| {
                        json!({"name": n, "value": ((f >> (7 - i)) & 1).to_string(),
                            "variablesReference": 0})
                    })
                    .collect()
            }
            2 => {
                let (on, timer) = hw.irq.pending();
                vec![
                    b("mask (port 03h)", hw.irq.mask()),
                    json!({"name": "ON pending", "value": on.to_string(), "variablesReference": 0}),
                    json!({"name": "timer pending", "value": timer.to_string(), "variablesReference": 0}),
                    json!({"name": "halted", "value": c.halted().to_string(), "variablesReference": 0}),
                    json!({"name": "IM", "value": c.im.to_string(), "variablesReference": 0}),
                    json!({"name": "IFF1", "value": c.iff1.to_string(), "variablesReference": 0}),
                ]
            }
            3 => {
                let l = &hw.lcd;
                vec![
                    json!({"name": "display on", "value": l.display_on().to_string(), "variablesReference": 0}),
                    json!({"name": "contrast", "value": l.contrast().to_string(), "variablesReference": 0}),
                    json!({"name": "row (x)", "value": l.x().to_string(), "variablesReference": 0}),
                    json!({"name": "column (y)", "value": l.y().to_string(), "variablesReference": 0}),
                    json!({"name": "z (scroll)", "value": l.z().to_string(), "variablesReference": 0}),
                    json!({"name": "word length", "value": if l.word8() { "8" } else { "6" }, "variablesReference": 0}),
                ]
            }
            _ => return Err("no such variables reference".into()),
        };
        Ok(json!({ "variables": vars }))
    }

    pub(super) fn read_memory(&mut self, args: &Json) -> Result<Json, String> {
        let (_, a) = parse_address(args["memoryReference"].as_str().unwrap_or(""))?;
        let start = i64::from(a).wrapping_add(args["offset"].as_i64().unwrap_or(0)) as u16;
        let count = args["count"].as_u64().unwrap_or(0).min(0x10000) as usize;
        let (_, hw) = self.z80()?;
        let bytes: Vec<u8> = (0..count)
            .map(|i| hw.mem.cpu_read(start.wrapping_add(i as u16)))
            .collect();
        Ok(json!({"address": hex(start), "data": base64(&bytes)}))
    }

    pub(super) fn write_memory(&mut self, args: &Json) -> Result<Json, String> {
        let (_, a) = parse_address(args["memoryReference"].as_str().unwrap_or(""))?;
        let start = i64::from(a).wrapping_add(args["offset"].as_i64().unwrap_or(0)) as u16;
        let data = unbase64(args["data"].as_str().unwrap_or(""))?;
        let (_, hw) = self.z80()?;
        let mut written = 0;
        for (i, &v) in data.iter().enumerate() {
            let at = start.wrapping_add(i as u16);
            hw.mem.write(at, v);
            if hw.mem.cpu_read(at) == v {
                written += 1;
            }
        }
        Ok(json!({"bytesWritten": written}))
    }

    pub(super) fn disassemble(&mut self, args: &Json) -> Result<Json, String> {
        let (_, a) = parse_address(args["memoryReference"].as_str().unwrap_or(""))?;
        let base = i64::from(a).wrapping_add(args["offset"].as_i64().unwrap_or(0)) as u16;
        let skip = args["instructionOffset"]
            .as_i64()
            .unwrap_or(0)
            .clamp(-4096, 4096);
        let count = args["instructionCount"].as_u64().unwrap_or(0).min(4096) as usize;
        let (_, hw) = self.z80()?;
        let read = |x: u16| hw.mem.cpu_read(x);
        // Z80 instructions differ in length: to go back, decode forward from a few bytes
        // before and keep the instructions that end at the base.
        let mut at = base;
        if skip < 0 {
            let back = (-skip) as usize;
            let mut starts = Vec::new();
            let mut x = base.wrapping_sub((back * 4) as u16);
            while x != base && starts.len() < back * 8 {
                starts.push(x);
                let n = u16::from(z80::disasm::disassemble(read, x).len.max(1));
                let next = x.wrapping_add(n);
                if base.wrapping_sub(x) < n {
                    break;
                }
                x = next;
            }
            at = starts
                .len()
                .checked_sub(back)
                .map_or(base.wrapping_sub(back as u16), |i| starts[i]);
        } else {
            for _ in 0..skip {
                at = at.wrapping_add(u16::from(z80::disasm::disassemble(read, at).len.max(1)));
            }
        }
        let mut out = Vec::new();
        for _ in 0..count {
            let ins = z80::disasm::disassemble(read, at);
            let bytes: Vec<String> = (0..u16::from(ins.len))
                .map(|i| format!("{:02X}", read(at.wrapping_add(i))))
                .collect();
            out.push(json!({"address": hex(at), "instruction": ins.text,
                "instructionBytes": bytes.join(" ")}));
            at = at.wrapping_add(u16::from(ins.len.max(1)));
        }
        Ok(json!({ "instructions": out }))
    }

    /// `next`: over a `CALL`/`RST`, else one instruction.
    pub(super) fn z80_next(&mut self) -> Result<Z80Step, String> {
        let (fw, hw) = self.z80()?;
        let pc = fw.cpu.pc;
        Ok(match step_over_target(hw, pc) {
            Some(ret) => Z80Step::Over { ret, sp: fw.cpu.sp },
            None => Z80Step::Instruction,
        })
    }

    pub(super) fn z80_out(&mut self) -> Result<Z80Step, String> {
        let (fw, _) = self.z80()?;
        Ok(Z80Step::Out { sp: fw.cpu.sp })
    }

    pub(super) fn z80_evaluate(&mut self, expr: &str) -> Result<Json, String> {
        let (fw, hw) = self.z80()?;
        let c = &fw.cpu;
        let e = expr.trim();
        let v = match e.to_ascii_uppercase().as_str() {
            "AF" => c.af(),
            "BC" => c.bc(),
            "DE" => c.de(),
            "HL" => c.hl(),
            "IX" => c.ix,
            "IY" => c.iy,
            "SP" => c.sp,
            "PC" => c.pc,
            "A" => u16::from(c.a()),
            _ => {
                // (ADDR): the byte there.
                let inner = e
                    .strip_prefix('(')
                    .and_then(|x| x.strip_suffix(')'))
                    .ok_or_else(|| format!("{e:?}: a register or (ADDRESS)"))?;
                let (_, a) = parse_address(inner)?;
                u16::from(hw.mem.cpu_read(a))
            }
        };
        Ok(json!({"result": hex(v), "variablesReference": 0}))
    }

    /// The stopped event's body for a Z80 stop.
    pub(super) fn z80_stop_body(stop: &Z80Stop) -> Json {
        let (reason, text) = match stop {
            Z80Stop::Entry => ("entry", None),
            Z80Stop::Step => ("step", None),
            Z80Stop::Pause => ("pause", None),
            Z80Stop::Breakpoint(a) => ("instruction breakpoint", Some(hex(*a))),
            Z80Stop::Memory { addr, value } => (
                "data breakpoint",
                Some(format!("{} written: 0x{value:02X}", hex(*addr))),
            ),
            Z80Stop::Port { port, write, value } => (
                "data breakpoint",
                Some(format!(
                    "port 0x{port:02X} {}: 0x{value:02X}",
                    if *write { "written" } else { "read" }
                )),
            ),
        };
        let mut body = json!({"reason": reason, "threadId": super::THREAD,
            "allThreadsStopped": true});
        if let Some(t) = text {
            body["description"] = json!(t);
        }
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for data in [&b""[..], b"a", b"ab", b"abc", b"\x00\xFF\x10\x20"] {
            assert_eq!(unbase64(&base64(data)).unwrap(), data);
        }
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
    }

    #[test]
    fn addresses() {
        assert_eq!(parse_address("0x0010").unwrap(), (None, 0x10));
        assert_eq!(parse_address("16").unwrap(), (None, 16));
        assert_eq!(parse_address("2:0x4123").unwrap(), (Some(2), 0x4123));
        assert!(parse_address("0x10000").is_err());
        assert!(parse_address("x").is_err());
    }
}
