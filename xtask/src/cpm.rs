//! `cargo xtask cpm FILE.COM`: runs a CP/M program on the core.
//!
//! The machine is 64 KiB of flat RAM with a minimal CP/M page zero:
//!
//! * 0000h: `HALT` (warm boot: the run stops when PC reaches 0000h, before executing it),
//! * 0005h: `JP BDOS` with the BDOS entry at `BDOS` (FE00h), which holds a `RET`, so the
//!   word at 0006h is the top of the TPA as programs such as ZEXALL expect,
//! * the program loaded at 0100h, SP = FE00h with 0000h pushed (a final `RET` warm-boots).
//!
//! The BDOS is trapped when PC reaches 0005h: function 2 prints E, function 9 prints the
//! `$`-terminated string at DE, function 0 warm-boots; any other function is reported once
//! on stderr and otherwise ignored. After the trap the CPU executes `JP BDOS` and `RET`
//! itself, so the T-state count is that of a real machine with a zero-cost BDOS.
//!
//! The trap costs one compare per instruction: the run loop checks `pc < 8 || halted` after
//! each `Cpu::step` and does everything else outside the hot path.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use z80::{Cpu, FlatBus};

/// Where CP/M programs are loaded and start.
const TPA: u16 = 0x0100;
/// The (fake) BDOS entry: a `RET`. The TPA ends just below it.
const BDOS: u16 = 0xFE00;

/// What a finished run did.
#[derive(Debug)]
pub struct Outcome {
    /// Instructions executed (`Cpu::step` calls, the trapped BDOS code included).
    pub instructions: u64,
    pub t_states: u64,
}

/// Runs the CP/M program `image` until it warm-boots, writing its console output to `out`
/// (flushed after every BDOS call). `name` is used in error messages.
pub fn run_image(name: &str, image: &[u8], out: &mut dyn Write) -> Result<Outcome> {
    let tpa_size = (BDOS - TPA) as usize;
    if image.len() > tpa_size {
        bail!(
            "{name}: {} bytes is too large for the TPA ({tpa_size} bytes from {TPA:04X}h to {:04X}h)",
            image.len(),
            BDOS - 1
        );
    }
    let mut bus = FlatBus::new();
    let mem = &mut bus.mem;
    mem[0x0000] = 0x76; // HALT: never executed, the run stops at PC = 0000h
    mem[0x0005] = 0xC3; // JP BDOS
    mem[0x0006..0x0008].copy_from_slice(&BDOS.to_le_bytes());
    mem[BDOS as usize] = 0xC9; // RET
    mem[TPA as usize..TPA as usize + image.len()].copy_from_slice(image);
    // The return address of the program: a final RET warm-boots.
    mem[BDOS as usize - 2] = 0x00;
    mem[BDOS as usize - 1] = 0x00;

    let mut cpu = Cpu::new();
    cpu.pc = TPA;
    cpu.sp = BDOS - 2;
    let t0 = cpu.t();
    let mut instructions = 0u64;
    let mut warned = [false; 256];
    loop {
        cpu.step(&mut bus);
        instructions += 1;
        if cpu.pc >= 8 && !cpu.halted() {
            continue;
        }
        // The cold path: page zero or HALT.
        if cpu.halted() {
            bail!(
                "{name}: HALT at {:04X}h with no interrupt source: the program would hang",
                cpu.pc.wrapping_sub(1)
            );
        }
        match cpu.pc {
            0x0000 => break,
            0x0005 => {
                let [_, func] = cpu.bc().to_be_bytes();
                match func {
                    0 => break,
                    2 => out.write_all(&[cpu.de().to_be_bytes()[1]])?,
                    9 => {
                        let mut addr = cpu.de();
                        let start = addr;
                        let mut text = Vec::new();
                        while bus.mem[addr as usize] != b'$' {
                            text.push(bus.mem[addr as usize]);
                            addr = addr.wrapping_add(1);
                            if addr == start {
                                bail!("{name}: BDOS 9 string at {start:04X}h has no '$'");
                            }
                        }
                        out.write_all(&text)?;
                    }
                    f => {
                        if !warned[f as usize] {
                            warned[f as usize] = true;
                            eprintln!(
                                "cpm: {name}: BDOS function {f} is not supported and was ignored"
                            );
                        }
                    }
                }
                out.flush()?;
            }
            _ => {}
        }
    }
    out.flush()?;
    Ok(Outcome {
        instructions,
        t_states: cpu.t() - t0,
    })
}

pub fn run(file: &Path) -> Result<()> {
    let image = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let name = file.display().to_string();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let start = Instant::now();
    let outcome = run_image(&name, &image, &mut out)?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{}: {} instructions, {} T-states in {:.2} s: {:.1} emulated MHz",
        name,
        outcome.instructions,
        outcome.t_states,
        secs,
        outcome.t_states as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workspace's tests/z80 folder.
    fn tests_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/z80")
    }

    #[test]
    fn cpmhello_prints_its_computed_results() {
        let image = std::fs::read(tests_dir().join("cpmhello.com")).unwrap();
        let mut out = Vec::new();
        let outcome = run_image("cpmhello.com", &image, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Hello from CP/M!\r\nsum 1..100 = 5050\r\n123*45 = 5535\r\nfib(20) = 6765\r\n"
        );
        assert!(outcome.instructions > 100);
        assert!(outcome.t_states > 4 * outcome.instructions);
    }

    #[test]
    fn a_final_ret_warm_boots() {
        // LD DE,msg; LD C,9; CALL 5; RET; msg: "ok$"
        let image = [
            0x11, 0x09, 0x01, 0x0E, 0x09, 0xCD, 0x05, 0x00, 0xC9, b'o', b'k', b'$',
        ];
        let mut out = Vec::new();
        let outcome = run_image("t.com", &image, &mut out).unwrap();
        assert_eq!(out, b"ok");
        // LD DE (10) + LD C (7) + CALL (17) + JP (10) + RET (10) + RET (10)
        assert_eq!(outcome.t_states, 64);
        assert_eq!(outcome.instructions, 6);
    }

    #[test]
    fn errors_name_the_file() {
        let big = vec![0u8; 0x10000];
        let err = run_image("big.com", &big, &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("big.com"), "{err}");
        let err = run(Path::new("no/such/file.com")).unwrap_err();
        assert!(format!("{err:#}").contains("no/such/file.com"), "{err:#}");
    }

    #[test]
    fn halt_is_an_error_not_a_hang() {
        let err = run_image("h.com", &[0xF3, 0x76], &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("HALT at 0101h"), "{err}");
    }
}
