//! Packets: golden bytes from the spec, round trips (proptest), and a seeded fuzz of the
//! streaming parser (no panic, no hang, bounded allocation).

use proptest::prelude::*;
use tifiles::var::{Header, VarName, VarType};
use tilink::packet::{checksum, Command, Packet, PacketError, Parser, MAX_DATA};
use tilink::{MID_COMPUTER, MID_TI82};

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

#[test]
fn checksum_example() {
    // Spec 1.2.
    assert_eq!(checksum(&hex("00 80 12 56 34 78 85 25 55")), 0x0293);
}

#[test]
fn golden_var_real_a() {
    // Spec 1.7.1: VAR size 9, type 0, name "A".
    let h = Header::Var {
        size: 9,
        ty: VarType::Real,
        name: VarName::real('A').unwrap(),
    };
    let p = Packet::var(MID_COMPUTER, &h);
    assert_eq!(
        p.to_bytes(),
        hex("02 06 0B 00 09 00 00 41 00 00 00 00 00 00 00 4A 00")
    );
    assert_eq!(p.describe(), "VAR real A size 9");
}

#[test]
fn golden_list_l1_header() {
    // Spec 1.7.1: L1 = {1,2,3} announced with 29 bytes.
    let h = Header::Var {
        size: 29,
        ty: VarType::List,
        name: VarName::list(1).unwrap(),
    };
    assert_eq!(
        Packet::var(MID_COMPUTER, &h).to_bytes(),
        hex("02 06 0B 00 1D 00 01 5D 00 00 00 00 00 00 00 7B 00")
    );
}

#[test]
fn golden_req_and_data() {
    // Spec 1.7.6: REQ for real A, and the DATA answer 1.2563478852555.
    let req = Packet::req(MID_COMPUTER, VarType::Real, VarName::real('A').unwrap());
    assert_eq!(
        req.to_bytes(),
        hex("02 A2 0B 00 00 00 00 41 00 00 00 00 00 00 00 41 00")
    );
    let data = Packet::data(MID_TI82, hex("00 80 12 56 34 78 85 25 55"));
    assert_eq!(
        data.to_bytes(),
        hex("82 15 09 00 00 80 12 56 34 78 85 25 55 93 02")
    );
}

#[test]
fn golden_bare_packets() {
    assert_eq!(Packet::ack(MID_TI82).to_bytes(), hex("82 56 00 00"));
    assert_eq!(Packet::cts(MID_TI82).to_bytes(), hex("82 09 00 00"));
    assert_eq!(Packet::eot(MID_COMPUTER).to_bytes(), hex("02 92 00 00"));
    assert_eq!(Packet::scr(MID_COMPUTER).to_bytes(), hex("02 6D 00 00"));
    assert_eq!(Packet::err(MID_TI82).to_bytes(), hex("82 5A 00 00"));
    // Spec 1.7.6: a built-in TI-82 sends EXIT as 82 36 01 00 01 01 00.
    assert_eq!(
        Packet::skip(MID_TI82, 1).to_bytes(),
        hex("82 36 01 00 01 01 00")
    );
}

#[test]
fn golden_screen_var_and_backup_header() {
    // Spec 1.7.5: PrintScreen's VAR.
    let h = Header::Var {
        size: 0x300,
        ty: VarType::Screen,
        name: VarName::default(),
    };
    assert_eq!(
        Packet::var(MID_TI82, &h).to_bytes(),
        hex("82 06 0B 00 00 03 0E 00 00 00 00 00 00 00 00 11 00")
    );
    // Spec 1.7.4: a backup header.
    let b = Header::Backup {
        len1: 0x07FC,
        len2: 0x08FA,
        len3: 0x01BC,
        address: 0x8D24,
    };
    let bytes = hex("02 06 09 00 FC 07 0F FA 08 BC 01 24 8D 82 03");
    assert_eq!(Packet::var(MID_COMPUTER, &b).to_bytes(), bytes);
    let (p, n) = Packet::parse(&bytes).unwrap();
    assert_eq!(n, bytes.len());
    assert_eq!(p.header(), Some(b));
}

#[test]
fn junk_lengths_accepted() {
    // Spec 1.1: ACK after a 9-byte header, after a 2044-byte packet; CTS 82 09 09 00;
    // spec 1.7.7: EOT 82 92 0B 00.
    for (bytes, cmd) in [
        (hex("82 56 09 00"), Command::Ack),
        (hex("82 56 FC 07"), Command::Ack),
        (hex("82 09 09 00"), Command::Cts),
        (hex("82 92 0B 00"), Command::Eot),
        (hex("82 5A 34 12"), Command::Err),
        (hex("02 6D FF FF"), Command::Scr),
    ] {
        let (p, n) = Packet::parse(&bytes).unwrap();
        assert_eq!((p.cmd, n), (cmd, 4));
        assert!(p.data.is_empty());
        assert_eq!(p.to_bytes(), bytes, "junk length kept for the log");
    }
}

#[test]
fn bad_checksum_reported_with_packet() {
    let mut b = hex("82 15 09 00 00 80 12 56 34 78 85 25 55 93 02");
    b[14] = 0x03;
    match Packet::parse(&b) {
        Err(PacketError::Checksum { got, want, packet }) => {
            assert_eq!((got, want), (0x0393, 0x0293));
            assert_eq!(packet.cmd, Command::Data);
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn rom_dumper_var_rejected() {
    // Spec 1.6 item 4: an oversized VAR (length 0x1F) is rejected before any data is kept.
    let mut p = Parser::new();
    let mut res = None;
    for b in hex("02 06 1F 00") {
        res = p.push(b);
    }
    assert!(matches!(
        res,
        Some(Err(PacketError::TooLong {
            len: 0x1F,
            max: 11,
            ..
        }))
    ));
    assert_eq!(p.buffer_capacity(), 0);
}

#[test]
fn data_limit() {
    let mut p = Parser::with_limit(768);
    let mut res = None;
    for b in [0x82, 0x15, 0x01, 0x03] {
        res = p.push(b);
    }
    assert!(matches!(
        res,
        Some(Err(PacketError::TooLong { len: 769, .. }))
    ));
}

fn arb_packet() -> impl Strategy<Value = Packet> {
    (
        any::<u8>(),
        any::<u8>(),
        any::<u16>(),
        prop::collection::vec(any::<u8>(), 0..400),
    )
        .prop_map(|(mid, c, junk, mut data)| {
            let cmd = Command::from_byte(c);
            if cmd.has_data() {
                data.truncate(cmd.max_data());
                Packet::with_data(mid, cmd, data)
            } else {
                Packet {
                    mid,
                    cmd,
                    junk_len: junk,
                    data: Vec::new(),
                }
            }
        })
}

proptest! {
    #[test]
    fn packet_round_trip(p in arb_packet()) {
        let bytes = p.to_bytes();
        let (q, n) = Packet::parse(&bytes).unwrap();
        prop_assert_eq!(n, bytes.len());
        prop_assert_eq!(q, p);
    }

    #[test]
    fn stream_of_packets(ps in prop::collection::vec(arb_packet(), 0..20)) {
        let mut parser = Parser::new();
        let mut got = Vec::new();
        for p in &ps {
            for b in p.to_bytes() {
                if let Some(r) = parser.push(b) {
                    got.push(r.unwrap());
                }
            }
        }
        prop_assert!(parser.is_idle());
        prop_assert_eq!(got, ps);
    }

    #[test]
    fn parse_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = Packet::parse(&bytes);
    }
}

/// xorshift64*: a seeded, deterministic byte source for the fuzz test.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn fuzz_streaming_parser() {
    for seed in 1..=8u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut parser = Parser::new();
        let (mut ok, mut bad) = (0u32, 0u32);
        for i in 0..300_000u32 {
            // Mostly noise, sometimes a plausible header to reach the data paths.
            let r = rng.next();
            let b = match (i % 4, r % 7) {
                (1, 0) => 0x15,
                (1, 1) => 0x06,
                (1, 2) => 0x56,
                _ => (r >> 8) as u8,
            };
            match parser.push(b) {
                Some(Ok(_)) => ok += 1,
                Some(Err(_)) => bad += 1,
                None => {}
            }
            assert!(parser.buffer_capacity() <= MAX_DATA);
            assert!(parser.pending() <= 4 + MAX_DATA + 2);
        }
        assert!(ok + bad > 0, "seed {seed}: the parser made progress");
    }
}
