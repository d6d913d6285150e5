//! Save states and RAM the runtime did not write: bit-flipped and truncated states of the
//! built-in runtime are refused or, when they load, run (keys, a program) without a panic;
//! a VAT whose data addresses point at the top of the address space gives `ERR:MEMORY`.

use std::path::Path;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{install, program_var, start_program, BasicFirmware};
use tibasic::value::ErrorKind;

const MS: u64 = 6_000;

fn calc_with(src: &str) -> Calc {
    let mut calc = Calc::new(BasicFirmware::new());
    let tokens = tifiles::tokens::tokenize_source(src).expect("source");
    install(calc.ram_mut(), &[program_var("T", tokens).expect("name")]).expect("fits");
    calc.run_for(50 * MS);
    calc
}

fn fw(calc: &Calc) -> &BasicFirmware {
    BasicFirmware::of(calc).expect("runtime firmware")
}

/// Keys that reach every screen: menus, prompts, the PRGM menu, errors.
const KEYS: [Option<Key>; 10] = [
    Some(Key::Enter),
    Some(Key::Down),
    Some(Key::Up),
    Some(Key::K1),
    Some(Key::K0),
    Some(Key::Prgm),
    Some(Key::Clear),
    Some(Key::Alpha),
    Some(Key::Matrx),
    None, // ON
];

fn run_with_keys(calc: &mut Calc, seed: u32) {
    for i in 0..4 {
        let k = KEYS[(seed as usize + i) % KEYS.len()];
        if let Some(k) = k {
            calc.press(k);
            calc.run_for(30 * MS);
            calc.release(k);
        } else {
            calc.set_on(true);
            calc.run_for(30 * MS);
            calc.set_on(false);
        }
        calc.run_for(30 * MS);
    }
}

#[test]
fn garbage_runtime_states_are_refused_or_run_without_panic() {
    let programs = [
        "Menu(\"M\",\"A\",A,\"B\",B\nLbl A\nLbl B\nDisp 1",
        "Prompt A,B\nDisp A+B",
        "{1,2,3}->L1\nFor(I,1,3)\nL1(I)->A\nPause\nEnd",
        "0->A\nWhile A<50\nA+1->A\nEnd\nGet(L2",
    ];
    let mut x: u32 = 0x82;
    let mut loaded = 0;
    for src in programs {
        let mut calc = calc_with(src);
        start_program(&mut calc, "T").expect("installed");
        calc.run_for(300 * MS);
        let good = calc.state_bytes();
        let payload = &good[20..good.len() - 8];
        for i in 0..150 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let mut p = payload.to_vec();
            // Flip bits in the firmware's part (after the 32K of RAM and the LCD) more often
            // than in the rest, and sometimes truncate or set a 32-bit field to FFFFFFFFh.
            let fw_start = p.len().saturating_sub(2_000);
            let at = if i % 3 == 0 {
                x as usize % p.len()
            } else {
                fw_start + x as usize % (p.len() - fw_start)
            };
            match i % 5 {
                0 => p.truncate(at),
                1 => {
                    let end = (at + 4).min(p.len());
                    p[at..end].fill(0xFF);
                }
                _ => p[at] ^= 1 << (x >> 28 & 7),
            }
            let mut victim = calc_with("Disp 2");
            if victim
                .restore_bytes(
                    Path::new("garbage.state"),
                    &ti82_machine::state::envelope(&p),
                )
                .is_ok()
            {
                loaded += 1;
                run_with_keys(&mut victim, x);
            }
        }
    }
    // Many mutations land in RAM or the LCD, where any value is valid: those states load and
    // must then run.
    assert!(loaded > 100, "only {loaded} mutated states loaded");
}

/// Points the data address of real variable `A` (VAT entry bytes at entry-1, entry-2, spec
/// §7.3) at `addr`.
fn move_data_of_a(calc: &mut Calc, addr: u16) {
    let name = tifiles::var::VarName::from_bytes(b"A");
    let e = tifiles::vat::find(calc.ram(), tifiles::var::VarType::Real, &name)
        .expect("VAT")
        .expect("A exists");
    let at = usize::from(e.entry_addr - 0x8000);
    let [lo, hi] = addr.to_le_bytes();
    calc.ram_mut()[at - 1] = lo;
    calc.ram_mut()[at - 2] = hi;
}

#[test]
fn a_vat_address_near_ffffh_is_err_memory_not_a_panic() {
    for addr in [0xFFF8u16, 0xFFFF, 0x0000, 0x7FFF] {
        let mut calc = calc_with("A+1->B");
        let mut setup = calc_with("5->A");
        start_program(&mut setup, "T").expect("installed");
        setup.run_for(300 * MS);
        calc.ram_mut().copy_from_slice(setup.ram());
        // Reinstall T as the reading program.
        install(
            calc.ram_mut(),
            &[program_var(
                "T",
                tifiles::tokens::tokenize_source("A+1->B\n7->A").unwrap(),
            )
            .unwrap()],
        )
        .unwrap();
        move_data_of_a(&mut calc, addr);
        start_program(&mut calc, "T").expect("installed");
        calc.run_for(300 * MS);
        let err = fw(&calc).last_error().map(|e| e.kind.clone());
        assert_eq!(err, Some(ErrorKind::Memory), "data at {addr:04X}");
    }
}

#[test]
fn a_list_whose_data_runs_past_ffffh_is_err_memory() {
    let mut calc = calc_with("{1,2,3}->L1\nPause\nL1(3)->B");
    start_program(&mut calc, "T").expect("installed");
    calc.run_for(300 * MS);
    let name = tifiles::var::VarName::from_bytes(&[0x5D, 0]);
    let e = tifiles::vat::find(calc.ram(), tifiles::var::VarType::List, &name)
        .expect("VAT")
        .expect("L1 exists");
    // Length word 3 kept at the top of memory: element 3 would end past FFFFh.
    let at = usize::from(e.entry_addr - 0x8000);
    calc.ram_mut()[at - 1] = 0xE8;
    calc.ram_mut()[at - 2] = 0xFF;
    calc.ram_mut()[0x7FE8] = 3;
    calc.ram_mut()[0x7FE9] = 0;
    calc.press(Key::Enter);
    calc.run_for(60 * MS);
    calc.release(Key::Enter);
    calc.run_for(300 * MS);
    let err = fw(&calc).last_error().map(|e| e.kind.clone());
    assert_eq!(err, Some(ErrorKind::Memory));
}
