//! Two calculators on the built-in runtime joined by a cable: one `Pause`s holding a list, the
//! other `Get(`s it with the silent request, through the real bit protocol on the wires.

use ti82_machine::cable;
use ti82_machine::{Calc, Key};
use tibasic::firmware::{install, program_names, program_var, read_list, BasicFirmware};
use tibasic::real::Real;

const MS: u64 = 6_000;
/// Wire delay of the test cable (T-states).
const LATENCY: u64 = ti82_machine::cable::DEFAULT_LATENCY;

fn calc_with(programs: &[(&str, &str)]) -> Calc {
    let mut calc = Calc::new(BasicFirmware::new());
    let vars: Vec<_> = programs
        .iter()
        .map(|(name, src)| {
            program_var(name, tifiles::tokens::tokenize_source(src).unwrap()).unwrap()
        })
        .collect();
    install(calc.ram_mut(), &vars).unwrap();
    calc.hardware_mut().link.enable_log();
    calc
}

fn text(calc: &Calc) -> Vec<String> {
    calc.ram()[0x8F..0x8F + 128]
        .chunks(16)
        .map(|r| tibasic::font::decode(r).trim_end().to_string())
        .collect()
}

/// Runs two linked calculators on two threads, each following its own script of
/// (emulated ms to run, key to tap afterwards).
fn two_threads(
    a: Calc,
    b: Calc,
    script_a: Vec<(u64, Option<Key>)>,
    script_b: Vec<(u64, Option<Key>)>,
) -> (Calc, Calc) {
    let run = |mut c: Calc, script: Vec<(u64, Option<Key>)>| {
        std::thread::spawn(move || {
            for (ms, key) in script {
                c.run_for(ms * MS);
                if let Some(k) = key {
                    c.press(k);
                    c.run_for(60 * MS);
                    c.release(k);
                    c.run_for(60 * MS);
                }
            }
            c.detach_link();
            c
        })
    };
    let ha = run(a, script_a);
    let hb = run(b, script_b);
    (ha.join().unwrap(), hb.join().unwrap())
}

fn start_keys(calc: &Calc, name: &str) -> Vec<(u64, Option<Key>)> {
    let names = program_names(calc.ram());
    let idx = names.iter().position(|n| n == name.as_bytes()).unwrap();
    let mut v = vec![(10, Some(Key::Prgm))];
    v.extend(std::iter::repeat_n((10, Some(Key::Down)), idx));
    v.push((10, Some(Key::Enter)));
    v.push((10, Some(Key::Enter)));
    v
}

#[test]
fn get_pulls_a_list_from_a_paused_calculator() {
    let mut a = calc_with(&[("HOLD", "{1,2,3}->L1\nPause\nDisp 7")]);
    let mut b = calc_with(&[("PULL", "Get(L1)\nDisp sum L1")]);
    cable::connect(&mut a, &mut b, LATENCY);
    let mut sa = start_keys(&a, "HOLD");
    sa.push((2_500, Some(Key::Enter)));
    sa.push((300, None));
    let mut sb = vec![(500, None)];
    sb.extend(start_keys(&b, "PULL"));
    sb.push((2_500, None));
    let (a, b) = two_threads(a, b, sa, sb);
    let l1 = read_list(b.ram(), 1).expect("L1 arrived");
    assert_eq!(
        l1,
        vec![Real::from_i64(1), Real::from_i64(2), Real::from_i64(3)]
    );
    assert!(text(&b).iter().any(|l| l.ends_with(" 6")), "{:?}", text(&b));
    assert!(text(&a).iter().any(|l| l.ends_with(" 7")), "{:?}", text(&a));

    // The link log shows the REQ sequence of spec §1.7.6: REQ, ACK, VAR, ACK, CTS, ACK,
    // DATA, ACK.
    let packets = tilink::log::packets_from_levels(b.hardware().link.log());
    let cmds: Vec<String> = packets
        .iter()
        .map(|p| match &p.packet {
            Ok(pk) => pk.cmd.to_string(),
            Err(e) => format!("broken: {e}"),
        })
        .collect();
    assert_eq!(
        cmds,
        ["REQ", "ACK", "VAR", "ACK", "CTS", "ACK", "DATA", "ACK"],
        "{packets:?}"
    );
}

#[test]
fn get_with_nobody_answering_leaves_the_variable_unchanged() {
    let mut a = calc_with(&[("BUSY", "Lbl A\nGoto A")]);
    let mut b = calc_with(&[("PULL", "{9}->L1\nGet(L1)\nDisp L1(1)")]);
    cable::connect(&mut a, &mut b, LATENCY);
    let mut sa = start_keys(&a, "BUSY");
    sa.push((4_000, None));
    let mut sb = start_keys(&b, "PULL");
    sb.push((4_000, None));
    let (_a, b) = two_threads(a, b, sa, sb);
    assert_eq!(read_list(b.ram(), 1), Some(vec![Real::from_i64(9)]));
    assert!(text(&b).iter().any(|l| l.ends_with("9")), "{:?}", text(&b));
}
