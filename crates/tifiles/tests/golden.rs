//! Golden files, one per format, written by our own code. `BLESS=1 cargo test -p
//! tifiles --test golden` re-records them; review the diff (`git diff --stat`,
//! `xxd`) before committing.

mod common;

use std::path::PathBuf;
use tifiles::{Backup, Content, ReadOptions, TiFile, VarData, Variable};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Every golden file: name and the file we expect it to hold.
pub fn files() -> Vec<(String, TiFile)> {
    let mut out = Vec::new();
    for (ext, var) in common::examples() {
        out.push((
            format!("example.{ext}"),
            TiFile::new("tifiles golden file", vec![var]),
        ));
    }
    let prot = Variable {
        data: VarData::ProtectedProgram(common::tok("Disp 1")),
        ..Variable::program("LOCKED", vec![]).unwrap()
    };
    out.push((
        "locked.82p".into(),
        TiFile::new("protected program", vec![prot]),
    ));
    let group: Vec<Variable> = common::examples()
        .into_iter()
        .map(|(_, v)| v)
        .take(5)
        .collect();
    out.push(("group.82g".into(), TiFile::new("group of five", group)));
    let backup = Backup {
        section1: (0..32u8).collect(),
        section2: vec![0x00, 0x80, 0x10, 0, 0, 0, 0, 0, 0],
        section3: vec![0x00, 0x00, 0x41, 0x24, 0x8D, 0x00],
        address: 0x8D24,
    };
    out.push((
        "backup.82b".into(),
        TiFile::backup("tiny synthetic backup", backup),
    ));
    out
}

/// The file a golden entry is kept in. Backups get a `.golden` suffix so the repository holds
/// no file that looks like a calculator's memory dump (ours is a tiny synthetic one).
fn disk_name(name: &str) -> String {
    if name.ends_with(".82b") {
        format!("{name}.golden")
    } else {
        name.to_string()
    }
}

#[test]
fn golden_files() {
    let bless = std::env::var_os("BLESS").is_some_and(|v| v == "1");
    for (name, file) in files() {
        let path = dir().join(disk_name(&name));
        let bytes = file.to_bytes().unwrap();
        if bless {
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk =
            std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e} (run with BLESS=1)"));
        assert_eq!(
            on_disk, bytes,
            "{name} differs from what we write (BLESS=1 to re-record)"
        );
        let back = TiFile::read(&path, ReadOptions::default()).unwrap();
        assert_eq!(back, file, "{name} reads back different");
        assert_eq!(
            back.extension(),
            name.rsplit('.').next().unwrap(),
            "{name} extension"
        );
    }
}

/// Header bytes and checksums checked by hand against spec 4.1 / 4.2.
#[test]
fn hand_checked_bytes() {
    // example.82n is spec 4.1's worked example (A = -2) with our comment.
    let b = std::fs::read(dir().join("example.82n")).unwrap();
    assert_eq!(b.len(), 81);
    assert_eq!(&b[..11], b"**TI82**\x1A\x0A\x00");
    assert_eq!(
        &b[0x35..],
        [
            0x18, 0x00, // data section 24 bytes
            0x0B, 0x00, 0x09, 0x00, 0x00, 0x41, 0, 0, 0, 0, 0, 0, 0, 0x09,
            0x00, // entry header
            0x80, 0x80, 0x20, 0, 0, 0, 0, 0, 0, // -2.0
            0x7E, 0x01, // checksum 0x017E, as in the spec
        ]
    );
    // example.82p: "ClrHome\nDisp \"HELLO\"\nPause \n1->A" is 16 token bytes.
    let b = std::fs::read(dir().join("example.82p")).unwrap();
    assert_eq!(&b[0x35..0x37], [15 + 2 + 16, 0]);
    assert_eq!(
        &b[0x37..0x4C],
        [
            0x0B, 0x00, 18, 0x00, 0x05, b'H', b'E', b'L', b'L', b'O', 0, 0, 0, 18, 0x00, 16, 0x00,
            0xE1, 0x3F, 0xDE, 0x2A,
        ]
    );
    let sum: u32 = b[0x37..b.len() - 2].iter().map(|&x| u32::from(x)).sum();
    assert_eq!(
        u16::from_le_bytes([b[b.len() - 2], b[b.len() - 1]]),
        sum as u16
    );
    // Picture: size word 0x02F4 after the entry header.
    let b = std::fs::read(dir().join("example.82i")).unwrap();
    assert_eq!(&b[0x37 + 13..0x37 + 17], [0xF6, 0x02, 0xF4, 0x02]);
    assert_eq!(&b[0x37 + 2..0x37 + 7], [0xF6, 0x02, 0x07, 0x60, 0x00]);
    // Window: type 0x0B, size word 154 (0x9A), data length 156.
    let b = std::fs::read(dir().join("example.82w")).unwrap();
    assert_eq!(
        &b[0x37..0x37 + 17],
        [0x0B, 0x00, 0x9C, 0x00, 0x0B, 0, 0, 0, 0, 0, 0, 0, 0, 0x9C, 0x00, 0x9A, 0x00]
    );
    // Backup (spec 4.2): 09 00, L1, 0F, L2, L3, 8D24, then each length again.
    let b = std::fs::read(dir().join(disk_name("backup.82b"))).unwrap();
    assert_eq!(&b[0x35..0x37], [32 + 9 + 6 + 17, 0]);
    assert_eq!(
        &b[0x37..0x46],
        [0x09, 0x00, 32, 0x00, 0x0F, 9, 0x00, 6, 0x00, 0x24, 0x8D, 32, 0x00, 0, 1]
    );
    let sum: u32 = b[0x37..b.len() - 2].iter().map(|&x| u32::from(x)).sum();
    assert_eq!(
        u16::from_le_bytes([b[b.len() - 2], b[b.len() - 1]]),
        sum as u16
    );
    assert_eq!(b.len(), 57 + 64);
}

#[test]
fn uue_wrapped_golden_reads() {
    for (name, file) in files() {
        let bytes = std::fs::read(dir().join(disk_name(&name))).unwrap();
        let text = format!(
            "From: someone\nSubject: {name}\n\n{}\n-- \nsig\n",
            tifiles::uue::encode(&name, &bytes)
        );
        let back = TiFile::parse(&name, text.as_bytes(), ReadOptions::default()).unwrap();
        assert_eq!(back, file);
    }
}

#[test]
fn bad_files_name_file_offset_problem() {
    let good = std::fs::read(dir().join("example.82n")).unwrap();
    let parse = |b: &[u8]| TiFile::parse("x.82n", b, ReadOptions::default()).unwrap_err();
    let mut sig = good.clone();
    sig[..8].copy_from_slice(b"**TI83**");
    let e = parse(&sig);
    assert_eq!(
        e.to_string(),
        "x.82n: offset 0 (0x0): this is a TI-83 file, not a TI-82 file"
    );
    let e = parse(b"hello world, this is not a calculator file at all......................");
    assert!(e.to_string().contains("not a TI-82 file"), "{e}");
    let e = parse(&good[..60]);
    assert_eq!(e.offset, 53);
    assert!(e.to_string().contains("file ends early"), "{e}");
    let mut sum = good.clone();
    *sum.last_mut().unwrap() ^= 1;
    let e = parse(&sum);
    assert_eq!(e.offset, 79);
    assert!(e.to_string().contains("bad checksum"), "{e}");
    let ok = TiFile::parse(
        "x",
        &sum,
        ReadOptions {
            ignore_checksum: true,
        },
    )
    .unwrap();
    assert!(matches!(&ok.content, Content::Vars(v) if v.len() == 1));
    let mut len = good.clone();
    len[0x37 + 2] = 10;
    fix_sum(&mut len);
    let e = parse(&len);
    assert!(e.to_string().contains("bad length"), "{e}");
    let mut extra = good.clone();
    extra.push(0);
    assert!(parse(&extra).to_string().contains("extra"));
    // A list whose count disagrees with its length.
    let l = std::fs::read(dir().join("example.82l")).unwrap();
    let mut bad = l.clone();
    bad[0x37 + 15] = 6;
    fix_sum(&mut bad);
    let e = parse(&bad);
    assert_eq!(e.offset, 0x37 + 15);
    assert!(e.to_string().contains("list data"), "{e}");
    // Broken UUE names the file too.
    let e = TiFile::parse(
        "post.txt",
        b"hi\nbegin 644 a.82p\nM\x01\n",
        ReadOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("post.txt: offset 3"), "{e}");
}

fn fix_sum(b: &mut [u8]) {
    let n = b.len();
    let s = tifiles::file::checksum(&b[0x37..n - 2]).to_le_bytes();
    b[n - 2..].copy_from_slice(&s);
}
