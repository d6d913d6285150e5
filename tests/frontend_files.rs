//! The file and link-log subcommands, run as the built binary: `tokenize`, `detokenize`,
//! `info`, `pack`, `link-log`, their errors and exit codes, and the `--link-trace` recording.

#[path = "frontend_rom.rs"]
mod rom;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tifiles::{tokenize_source, TiFile, VarData, VarName, VarType, Variable};
use tilink::{DirectCable, Holder, HolderPoll, Progress, Requester, Timing, Wake, MID_TI82};

fn ti82(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", dir)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    stdout(o)
}

/// Exit code 1 and an error message naming `file`; returns the message.
#[track_caller]
fn bad(o: &Output, file: &str) -> String {
    let e = stderr(o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "stdout: {}\nstderr: {e}",
        stdout(o)
    );
    assert!(e.contains(file), "{e:?} does not name {file}");
    e
}

fn source(name: &str) -> (PathBuf, String) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("programs")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap();
    (p, text)
}

fn tokens_of(v: &Variable) -> &[u8] {
    match &v.data {
        VarData::Program(t) | VarData::ProtectedProgram(t) => t,
        d => panic!("not a program: {d:?}"),
    }
}

/// Tokenizes MANCALA and MANBOARD into `dir`.
fn make_programs(dir: &Path) {
    for name in ["MANCALA", "MANBOARD"] {
        let (src, _) = source(&format!("{name}.txt"));
        let out = ok(&ti82(
            dir,
            &[
                "tokenize",
                src.to_str().unwrap(),
                "-o",
                &format!("{name}.82p"),
            ],
        ));
        assert!(out.contains(&format!("prgm{name}")), "{out}");
    }
}

#[test]
fn tokenize_then_detokenize_round_trips() {
    let dir = rom::temp_dir("files-round");
    make_programs(&dir);
    let (_, text) = source("MANCALA.txt");
    let file = TiFile::read(&dir.join("MANCALA.82p"), Default::default()).unwrap();
    let [var] = file.vars() else {
        panic!("one variable expected")
    };
    assert_eq!(var.name, VarName::program("MANCALA").unwrap());
    assert_eq!(var.var_type(), VarType::Program);
    let tokens = tokenize_source(&text).unwrap();
    assert_eq!(tokens_of(var), tokens.as_slice());

    // Back to text: the same program (the tokenizer normalises spelling, e.g. a trailing
    // space after `Pause`), so tokenizing the text again gives identical bytes.
    let back = ok(&ti82(&dir, &["detokenize", "MANCALA.82p"]));
    assert_eq!(tokenize_source(&back).unwrap(), tokens);
    assert_eq!(back.lines().count(), text.lines().count());
    for (a, b) in back.lines().zip(text.lines()) {
        assert_eq!(a.trim_end(), b.trim_end());
    }
    // And through the binary again: the same file, byte for byte.
    std::fs::write(dir.join("back.txt"), &back).unwrap();
    ok(&ti82(
        &dir,
        &[
            "tokenize",
            "back.txt",
            "--name",
            "MANCALA",
            "-o",
            "again.82p",
        ],
    ));
    assert_eq!(
        std::fs::read(dir.join("again.82p")).unwrap(),
        std::fs::read(dir.join("MANCALA.82p")).unwrap()
    );

    // Display spelling: the store arrow as the calculator shows it.
    let uni = ok(&ti82(&dir, &["detokenize", "--unicode", "MANCALA.82p"]));
    assert!(uni.contains('→') && !uni.contains("->"));
    assert!(back.contains("->") && !back.contains('→'));
    assert_eq!(tokenize_source(&uni).unwrap(), tokens);

    // The default name is the stem, upper-cased; --protected; the default output name.
    std::fs::write(dir.join("hello.txt"), "Disp \"HI\"\n").unwrap();
    ok(&ti82(&dir, &["tokenize", "hello.txt", "--protected"]));
    let f = TiFile::read(&dir.join("hello.82p"), Default::default()).unwrap();
    assert_eq!(f.vars()[0].display_name(), "HELLO");
    assert_eq!(f.vars()[0].var_type(), VarType::ProtectedProgram);
    assert_eq!(
        ok(&ti82(&dir, &["detokenize", "hello.82p"])),
        "Disp \"HI\"\n"
    );

    // UUE text is read too.
    let bytes = std::fs::read(dir.join("MANCALA.82p")).unwrap();
    std::fs::write(
        dir.join("MANCALA.uue"),
        tifiles::uue::encode("MANCALA.82P", &bytes),
    )
    .unwrap();
    assert_eq!(ok(&ti82(&dir, &["detokenize", "MANCALA.uue"])), back);
    let out = ok(&ti82(&dir, &["info", "MANCALA.uue"]));
    assert!(out.contains("MANCALA.uue: 1 entry, checksum ok"), "{out}");

    // Bytes that are no token show as the visible placeholder `\xHH` and read back.
    let odd = Variable::program("ODD", vec![0x41, 0xAA, 0x42]).unwrap();
    TiFile::new("", vec![odd])
        .write(&dir.join("ODD.82p"))
        .unwrap();
    let text = ok(&ti82(&dir, &["detokenize", "ODD.82p"]));
    assert_eq!(text, "A\\xAAB\n");
    assert_eq!(tokenize_source(&text).unwrap(), [0x41, 0xAA, 0x42]);
}

#[test]
fn info_and_pack() {
    let dir = rom::temp_dir("files-info");
    make_programs(&dir);
    let size = |name: &str| {
        tokenize_source(&source(&format!("{name}.txt")).1)
            .unwrap()
            .len()
            + 2
    };
    let out = ok(&ti82(&dir, &["info", "MANCALA.82p"]));
    assert!(out.contains("MANCALA.82p: 1 entry, checksum ok"), "{out}");
    let line = out.lines().find(|l| l.contains("MANCALA ")).unwrap();
    assert!(line.contains("program"), "{line}");
    assert!(
        line.contains(&format!(" {} bytes", size("MANCALA"))),
        "{line}"
    );

    let out = ok(&ti82(
        &dir,
        &[
            "pack",
            "MANBOARD.82p",
            "MANCALA.82p",
            "-o",
            "G.82g",
            "--comment",
            "the game",
        ],
    ));
    assert!(out.contains("2 variables"), "{out}");
    let g = TiFile::read(&dir.join("G.82g"), Default::default()).unwrap();
    let a = TiFile::read(&dir.join("MANBOARD.82p"), Default::default()).unwrap();
    let b = TiFile::read(&dir.join("MANCALA.82p"), Default::default()).unwrap();
    assert_eq!(g.vars(), [a.vars()[0].clone(), b.vars()[0].clone()]);
    assert_eq!(g.comment_text(), "the game");
    let out = ok(&ti82(&dir, &["info", "G.82g"]));
    assert!(out.contains("G.82g: 2 entries, checksum ok"), "{out}");
    assert!(out.contains("comment: \"the game\""), "{out}");
    let names: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("program"))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(names, ["MANBOARD", "MANCALA"]);
    assert!(out.contains(&format!(" {} bytes", size("MANBOARD"))));

    // Several programs: detokenize writes each after a `# prgmNAME` line.
    let text = ok(&ti82(&dir, &["detokenize", "G.82g"]));
    let mb = text.find("# prgmMANBOARD\n").unwrap();
    let mc = text.find("# prgmMANCALA\n").unwrap();
    assert!(mb < mc);
    let body = &text[mc + "# prgmMANCALA\n".len()..];
    assert_eq!(
        tokenize_source(body).unwrap(),
        tokens_of(&b.vars()[0]).to_vec()
    );

    // The same variable twice is refused.
    let o = ti82(&dir, &["pack", "MANCALA.82p", "G.82g", "-o", "H.82g"]);
    let e = bad(&o, "G.82g");
    assert!(e.contains("MANCALA") && e.contains("already"), "{e}");
    assert!(!dir.join("H.82g").exists());
}

#[test]
fn bad_inputs_exit_1_and_name_the_file() {
    let dir = rom::temp_dir("files-bad");
    make_programs(&dir);
    let good = std::fs::read(dir.join("MANBOARD.82p")).unwrap();

    // Truncated.
    std::fs::write(dir.join("short.82p"), &good[..good.len() / 2]).unwrap();
    for cmd in ["detokenize", "info"] {
        let e = bad(&ti82(&dir, &[cmd, "short.82p"]), "short.82p");
        assert!(e.contains("offset") && e.contains("ends early"), "{e}");
    }
    let e = bad(
        &ti82(&dir, &["pack", "MANCALA.82p", "short.82p", "-o", "x.82g"]),
        "short.82p",
    );
    assert!(e.contains("ends early"), "{e}");
    assert!(!dir.join("x.82g").exists());

    // Bad checksum: info still lists the entries, says both sums, exits 1.
    let mut broken = good.clone();
    broken[80] ^= 0x01;
    std::fs::write(dir.join("sum.82p"), &broken).unwrap();
    let stored = u16::from_le_bytes([good[good.len() - 2], good[good.len() - 1]]);
    let computed = broken[55..broken.len() - 2]
        .iter()
        .fold(0u16, |s, &b| s.wrapping_add(u16::from(b)));
    let o = ti82(&dir, &["info", "MANCALA.82p", "sum.82p"]);
    let e = bad(&o, "sum.82p");
    assert!(e.contains("bad checksum"), "{e}");
    let out = stdout(&o);
    assert!(out.contains("MANCALA.82p: 1 entry, checksum ok"), "{out}");
    assert!(
        out.contains(&format!(
            "sum.82p: 1 entry, checksum BAD: stored {stored:04X}, computed {computed:04X}"
        )),
        "{out}"
    );
    assert!(out
        .lines()
        .any(|l| l.contains("program") && l.contains("MANBOARD")));
    let e = bad(&ti82(&dir, &["detokenize", "sum.82p"]), "sum.82p");
    assert!(e.contains("checksum"), "{e}");

    // Garbage, and a missing file.
    std::fs::write(
        dir.join("junk.82p"),
        b"hello, this is not a calculator file",
    )
    .unwrap();
    let e = bad(&ti82(&dir, &["detokenize", "junk.82p"]), "junk.82p");
    assert!(e.contains("not a TI-82 file"), "{e}");
    bad(&ti82(&dir, &["info", "nothere.82p"]), "nothere.82p");
    bad(&ti82(&dir, &["tokenize", "nothere.txt"]), "nothere.txt");

    // Source text that is no token: file, line and column.
    std::fs::write(dir.join("oops.txt"), "Disp 1\nA$B\n").unwrap();
    let e = bad(&ti82(&dir, &["tokenize", "oops.txt"]), "oops.txt:2:2");
    assert!(e.contains("no token"), "{e}");
    assert!(!dir.join("oops.82p").exists());
    // A stem that is no program name.
    std::fs::write(dir.join("my-prog.txt"), "Disp 1\n").unwrap();
    let e = bad(&ti82(&dir, &["tokenize", "my-prog.txt"]), "my-prog.txt");
    assert!(e.contains("--name"), "{e}");
    ok(&ti82(
        &dir,
        &["tokenize", "my-prog.txt", "--name", "MYPROG"],
    ));
    bad(
        &ti82(&dir, &["tokenize", "my-prog.txt", "--name", "TOOLONGNAME"]),
        "TOOLONGNAME",
    );
    // A file with no program.
    let l1 = Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(vec![tifiles::TiFloat::from(4)]),
    };
    TiFile::new("", vec![l1])
        .write(&dir.join("L1.82l"))
        .unwrap();
    let e = bad(&ti82(&dir, &["detokenize", "L1.82l"]), "L1.82l");
    assert!(e.contains("no program"), "{e}");
}

#[test]
fn usage_errors_exit_2() {
    let dir = rom::temp_dir("files-usage");
    for args in [
        &["tokenize"][..],
        &["detokenize"],
        &["detokenize", "a.82p", "--bogus"],
        &["info"],
        &["pack", "a.82p"],
        &["pack", "-o", "g.82g"],
        &["link-log"],
        &["link-log", "a", "b"],
    ] {
        let o = ti82(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("Usage"), "{args:?}");
    }
}

/// A `Get(L1)` between two TI-82s over a direct cable; returns side A's line changes.
fn get_l1_levels() -> Vec<(u64, u8)> {
    let l1 = Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(vec![tifiles::TiFloat::from(4), tifiles::TiFloat::from(0)]),
    };
    let mut held = vec![l1.clone()];
    let mut req = Requester::new(MID_TI82, Timing::default(), VarType::List, l1.name);
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut got = None;
    let mut cable = DirectCable::new(30);
    cable.a.enable_log();
    cable.run(
        u64::MAX / 2,
        |ep| match req.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                got.get_or_insert(r);
                Wake::NEVER
            }
        },
        |ep| match holder.poll(ep, &mut held) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(_) => Wake::at(ep.now + 1),
        },
    );
    assert_eq!(got.unwrap().unwrap(), l1);
    cable.a.log().to_vec()
}

#[test]
fn link_log_decodes_a_trace() {
    let dir = rom::temp_dir("files-linklog");
    let levels = get_l1_levels();
    // The trace as docs/link.md describes it, written here by hand.
    let mut text = String::from("# ti82 link trace 1\n# a comment\n\n");
    for (t, lv) in &levels {
        text += &format!("{t} {} {}\n", lv & 1, lv >> 1);
    }
    std::fs::write(dir.join("get.trace"), &text).unwrap();
    let out = ok(&ti82(&dir, &["link-log", "get.trace"]));
    let packets: Vec<&str> = out.lines().filter(|l| l.starts_with("P ")).collect();
    // Spec 1.7.6: REQ, ACK, VAR, ACK, CTS, ACK, DATA, ACK; A asked, B held L1.
    let want = [
        ("A", "REQ list L1"),
        ("B", "ACK"),
        ("B", "VAR list L1"),
        ("A", "ACK"),
        ("A", "CTS"),
        ("B", "ACK"),
        ("B", "DATA"),
        ("A", "ACK"),
    ];
    assert_eq!(packets.len(), want.len(), "{out}");
    for (line, (who, what)) in packets.iter().zip(want) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f[3], who, "{line}");
        assert_eq!(f[4], "TI82", "{line}");
        assert!(line.contains(&format!("TI82  {what}")), "{line}");
    }
    // Every byte with its times; as many as the packets hold.
    let bytes: Vec<&str> = out.lines().filter(|l| l.starts_with("B ")).collect();
    // Up to 24 bytes are shown, then `… +N`.
    let in_packets: usize = packets
        .iter()
        .map(|l| {
            let shown = l.rsplit('[').next().unwrap().trim_end_matches(']');
            shown
                .split_whitespace()
                .map(|w| match w.strip_prefix('+') {
                    Some(n) => n.parse().unwrap(),
                    None => usize::from(w != "…"),
                })
                .sum::<usize>()
        })
        .sum();
    assert_eq!(bytes.len(), in_packets);
    let first: Vec<&str> = bytes[0].split_whitespace().collect();
    assert_eq!(first[4], "82", "{}", bytes[0]);
    assert!(first[1].parse::<u64>().unwrap() < first[2].parse::<u64>().unwrap());
    assert!(out.contains(&format!("# {} line changes", levels.len())));

    // Bad traces: exit 1, file and line named.
    std::fs::write(dir.join("junk.trace"), "hello\n").unwrap();
    let e = bad(&ti82(&dir, &["link-log", "junk.trace"]), "junk.trace");
    assert!(e.contains("line 1"), "{e}");
    std::fs::write(dir.join("b.trace"), "# ti82 link trace 1\n10 1 0\n5 1 1\n").unwrap();
    let e = bad(&ti82(&dir, &["link-log", "b.trace"]), "b.trace");
    assert!(e.contains("line 3"), "{e}");
    std::fs::write(dir.join("c.trace"), "# ti82 link trace 1\n10 2 0\n").unwrap();
    let e = bad(&ti82(&dir, &["link-log", "c.trace"]), "c.trace");
    assert!(e.contains("line 2") && e.contains("TIP"), "{e}");
    std::fs::write(dir.join("d.log"), crate_log_text(&levels)).unwrap();
    let e = bad(&ti82(&dir, &["link-log", "d.log"]), "d.log");
    assert!(e.contains("--link-trace"), "{e}");
    bad(&ti82(&dir, &["link-log", "none.trace"]), "none.trace");
}

fn crate_log_text(levels: &[(u64, u8)]) -> String {
    ti82::capture::link_log_text(levels)
}

/// The front end records a trace (`--link-trace`): two calculators on one cable (the machine
/// crate's link test program sends 300 bytes, as `--pair` runs them), and `ti82 link-log` on
/// the trace prints exactly what `--link-log` wrote.
#[test]
fn front_end_records_a_trace() {
    let prog = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/machine/tests/roms/link.bin");
    let Ok(code) = std::fs::read(&prog) else {
        eprintln!("skipped: {} is missing", prog.display());
        return;
    };
    let dir = rom::temp_dir("files-trace");
    let args = ti82::cli::MachineArgs {
        link_log: Some(dir.join("a.log")),
        link_trace: Some(dir.join("a.trace")),
        ..Default::default()
    };
    let rom = ti82_machine::RomImage::from_program(&code);
    let a = ti82_machine::Calc::from_rom(rom.clone());
    let b = ti82_machine::Calc::from_rom(rom);
    let (a, b) = ti82_machine::cable::connect(a, b, ti82_machine::cable::DEFAULT_LATENCY);
    let ((a, wire_a), (b, wire_b)) = (a.into_parts(), b.into_parts());
    let mut ma = ti82::app::Machine::with_calc(a, "a".into(), None, &args, Vec::new()).unwrap();
    ma.wire = wire_a;
    let mut mb = ti82::app::Machine::with_calc(
        b,
        "b".into(),
        None,
        &ti82::cli::MachineArgs::default(),
        Vec::new(),
    )
    .unwrap();
    mb.wire = wire_b;
    ma.player.push(&ti82::script::parse("HOLD ENTER").unwrap());
    ti82::app::advance_pair(&mut ma, &mut mb, 6_000_000).unwrap();
    let msgs = ma.finish().unwrap();
    assert!(msgs.iter().any(|m| m.contains("link trace saved")));
    let trace = std::fs::read_to_string(dir.join("a.trace")).unwrap();
    assert!(trace.starts_with("# ti82 link trace 1\n"));
    // 300 bytes of 8 bits, 4 changes a bit.
    assert_eq!(
        trace.lines().filter(|l| !l.starts_with('#')).count(),
        300 * 8 * 4
    );
    let out = ok(&ti82(&dir, &["link-log", "a.trace"]));
    assert_eq!(out, std::fs::read_to_string(dir.join("a.log")).unwrap());
    let want: Vec<String> = (0..300u32)
        .map(|i| format!("{:02X}", (i * 7 + 3) as u8))
        .collect();
    let got: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("B "))
        .map(|l| l.split_whitespace().nth(4).unwrap())
        .collect();
    assert_eq!(got, want);
}

/// `ti82 run --headless --link-trace` writes a trace even when nothing was sent.
#[test]
fn headless_run_writes_a_trace() {
    let dir = rom::temp_dir("files-headless");
    let rom_path = rom::write_rom(&dir);
    let o = ti82(
        &dir,
        &[
            "run",
            "--headless",
            "--rom",
            rom_path.to_str().unwrap(),
            "--wait-ms",
            "20",
            "--link-trace",
            "t.trace",
        ],
    );
    ok(&o);
    assert!(stderr(&o).contains("link trace saved"), "{}", stderr(&o));
    let out = ok(&ti82(&dir, &["link-log", "t.trace"]));
    assert!(
        out.contains("# 0 line changes, 0 bytes, 0 packets"),
        "{out}"
    );
}

// ------------------------------------------------------------------ memory backups

/// `ti82 backup` writes a calculator's memory as a .82b; `--load FILE.82b` restores it into a
/// fresh built-in calculator, where the programs run; the state of a run becomes a backup
/// that brings back the same VAT and values.
#[test]
fn backups_written_and_restored() {
    let dir = rom::temp_dir("backup");
    std::fs::write(dir.join("HI.txt"), "Disp \"HI THERE\"\nDisp 6*7").unwrap();
    std::fs::write(dir.join("SQ.txt"), "For(I,1,3)\nDisp I²\nEnd").unwrap();
    ok(&ti82(&dir, &["tokenize", "HI.txt"]));
    ok(&ti82(&dir, &["tokenize", "SQ.txt"]));
    let out = ok(&ti82(
        &dir,
        &[
            "backup", "--fresh", "--load", "HI.82p", "SQ.82p", "-o", "two.82b",
        ],
    ));
    assert_eq!(out.trim(), "two.82b: a memory backup, 2 variables");
    let info = ok(&ti82(&dir, &["info", "two.82b"]));
    assert!(info.contains("backup"), "{info}");

    // Restored into a fresh calculator: its memory is the backup's (MANBOARD and MANCALA,
    // which a fresh calculator has, are gone), and the programs run.
    let shown = ok(&ti82(
        &dir,
        &[
            "run",
            "--headless",
            "--no-rom",
            "--fresh",
            "--load",
            "two.82b",
            "--run",
            "HI",
            "--print-text",
        ],
    ));
    assert!(shown.contains("HI THERE"), "{shown}");
    // Without --run a fresh calculator would start MANBOARD and MANCALA: the backup has
    // neither, so nothing starts, and it says so.
    let o = ti82(
        &dir,
        &[
            "run",
            "--headless",
            "--no-rom",
            "--fresh",
            "--load",
            "two.82b",
        ],
    );
    ok(&o);
    assert!(stderr(&o).contains("not started"), "{}", stderr(&o));
    assert!(
        shown.lines().any(|l| l.trim_end().ends_with("42")),
        "{shown}"
    );

    // A run's state as a backup: 5→A typed on the keypad, the state saved, backed up,
    // restored: the same VAT, A = 5.
    keys_to_backup(&dir, "5 STO> ALPHA MATH ENTER", "typed");
    let mut calc = ti82_machine::Calc::new(tibasic::firmware::BasicFirmware::new());
    calc.load_state(dir.join("typed.state")).unwrap();
    let before = tifiles::vat::entries(calc.ram()).unwrap();
    let TiFile {
        content: tifiles::Content::Backup(b),
        ..
    } = TiFile::read(&dir.join("typed.82b"), Default::default()).unwrap()
    else {
        panic!("not a backup");
    };
    let mut fresh = tibasic::firmware::calc_with_sources(&[]).unwrap();
    tibasic::firmware::restore_backup(&mut fresh, &b).unwrap();
    assert_eq!(tifiles::vat::entries(fresh.ram()).unwrap(), before);
    let a = tifiles::vat::read(fresh.ram(), VarType::Real, &VarName::real('A').unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(a.data.to_bytes(), tibasic::real::Real::from_i64(5).to_bcd());
}

/// `keys` typed on a fresh built-in calculator, its state saved as `NAME.state` and written
/// as the backup `NAME.82b` by `ti82 backup`.
fn keys_to_backup(dir: &std::path::Path, keys: &str, name: &str) {
    let state = format!("{name}.state");
    ok(&ti82(
        dir,
        &[
            "run",
            "--headless",
            "--no-rom",
            "--fresh",
            "--keys",
            keys,
            "--save-state",
            &state,
        ],
    ));
    let backup = format!("{name}.82b");
    ok(&ti82(dir, &["backup", "--state", &state, "-o", &backup]));
}

/// The MODE settings travel with a backup (docs/calculator.md, "MODE settings in RAM"):
/// Fix 2, Degree and Dot chosen on the MODE screen, the state saved, `ti82 backup`, and the
/// backup loaded into a fresh calculator: `sin 90` is 1 (Degree) and shows as `1.00`, `1/3`
/// as `.33` (Fix 2).
#[test]
fn a_backup_carries_the_mode_settings() {
    let dir = rom::temp_dir("backup-modes");
    keys_to_backup(
        &dir,
        "CLEAR MODE DOWN RIGHT RIGHT RIGHT ENTER DOWN RIGHT ENTER DOWN DOWN RIGHT ENTER CLEAR",
        "modes",
    );
    let shown = ok(&ti82(
        &dir,
        &[
            "run",
            "--headless",
            "--no-rom",
            "--fresh",
            "--load",
            "modes.82b",
            "--keys",
            "CLEAR SIN 9 0 ENTER 1 / 3 ENTER",
            "--print-text",
        ],
    ));
    let lines: Vec<&str> = shown.lines().map(str::trim_end).collect();
    assert!(lines.iter().any(|l| l.ends_with("1.00")), "{shown}");
    assert!(lines.iter().any(|l| l.ends_with(".33")), "{shown}");
    // The same keys in a fresh calculator without the backup: Radian, Float.
    let plain = ok(&ti82(
        &dir,
        &[
            "run",
            "--headless",
            "--no-rom",
            "--fresh",
            "--keys",
            "CLEAR SIN 9 0 ENTER 1 / 3 ENTER",
            "--print-text",
        ],
    ));
    assert!(plain.contains(".8939966636"), "{plain}");
    assert!(plain.contains(".3333333333"), "{plain}");
}

#[test]
fn a_broken_backup_is_refused_by_name() {
    let dir = rom::temp_dir("backup-bad");
    std::fs::write(dir.join("HI.txt"), "Disp 1").unwrap();
    ok(&ti82(&dir, &["tokenize", "HI.txt"]));
    ok(&ti82(
        &dir,
        &["backup", "--fresh", "--load", "HI.82p", "-o", "one.82b"],
    ));
    let mut bytes = std::fs::read(dir.join("one.82b")).unwrap();
    // The VAT (section 3) ends the data, before the file's checksum: its last entry's data
    // address (as in tifiles' vat test) moved to the top of RAM. The checksum is made right
    // again, so only the content is wrong.
    let n = bytes.len();
    bytes[n - 4] = 0xFF;
    bytes[n - 5] = 0xF0;
    let sum: u16 = bytes[0x37..n - 2]
        .iter()
        .fold(0u16, |s, &b| s.wrapping_add(u16::from(b)));
    bytes[n - 2..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(dir.join("broken.82b"), &bytes).unwrap();
    let o = ti82(
        &dir,
        &[
            "run",
            "--headless",
            "--no-rom",
            "--fresh",
            "--load",
            "broken.82b",
        ],
    );
    let e = bad(&o, "broken.82b");
    assert!(e.contains("restoring the backup"), "{e}");
    let o = ti82(&dir, &["backup", "--state", "nowhere.state", "-o", "x.82b"]);
    bad(&o, "nowhere.state");
}
