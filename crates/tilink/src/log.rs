//! The link log: line transitions → bytes with their times (the machine crate's
//! [`machine::LinkLog`]) → packets (who sent it, machine ID, command, variable name) → text
//! lines, for `ti82 link-log`.

use std::fmt::Write as _;

use machine::link::LinkLog;

use crate::packet::{Command, Packet, PacketError, Parser, MID_CBL, MID_COMPUTER, MID_TI82};
use crate::transport::{ByteRecord, Dir, T_PER_SECOND};

/// Who sent a logged packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Known exactly: sent or received by the side that kept the log.
    Known(Dir),
    /// Inferred from machine IDs and the packet flow: party 0 spoke first, party 1 answered.
    Party(u8),
}

/// One packet (or a broken one) as it went over the wires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogPacket {
    /// Start of its first byte, end of its last (T-states).
    pub start: u64,
    pub end: u64,
    pub side: Side,
    /// Its bytes, as on the wire.
    pub bytes: Vec<u8>,
    pub packet: Result<Packet, PacketError>,
}

/// Turns bytes (value, start, end, direction if known) into packets. A pause longer than
/// `gap` T-states inside a packet drops the partial packet (spec 2.3: resynchronise at a
/// packet boundary).
pub fn packets_from_bytes(
    bytes: impl IntoIterator<Item = (u8, u64, u64, Option<Dir>)>,
    gap: u64,
) -> Vec<LogPacket> {
    let mut out: Vec<LogPacket> = Vec::new();
    let mut parser = Parser::new();
    let mut cur: Vec<u8> = Vec::new();
    let (mut start, mut last_end, mut dir) = (0u64, 0u64, None);
    for (value, s, e, d) in bytes {
        if !cur.is_empty() && s.saturating_sub(last_end) > gap {
            out.push(LogPacket {
                start,
                end: last_end,
                side: Side::Party(0),
                bytes: std::mem::take(&mut cur),
                packet: Err(PacketError::Truncated(parser.pending())),
            });
            parser.reset();
        }
        if cur.is_empty() {
            start = s;
            dir = d;
        }
        cur.push(value);
        last_end = e;
        if let Some(r) = parser.push(value) {
            out.push(LogPacket {
                start,
                end: e,
                side: Side::Party(0),
                bytes: std::mem::take(&mut cur),
                packet: r,
            });
            if let Some(d) = dir {
                if let Some(p) = out.last_mut() {
                    p.side = Side::Known(d);
                }
            }
        }
    }
    if !cur.is_empty() {
        out.push(LogPacket {
            start,
            end: last_end,
            side: dir.map_or(Side::Party(0), Side::Known),
            packet: Err(PacketError::Truncated(cur.len())),
            bytes: cur,
        });
    }
    infer_parties(&mut out);
    out
}

/// Packets from a transport's own byte records (directions exact).
pub fn packets_from_records(records: &[ByteRecord]) -> Vec<LogPacket> {
    packets_from_bytes(
        records
            .iter()
            .map(|r| (r.value, r.start, r.end, Some(r.dir))),
        T_PER_SECOND,
    )
}

/// Packets from the level changes one link port recorded ([`machine::LinkPort::log`]).
pub fn packets_from_levels(events: &[(u64, u8)]) -> Vec<LogPacket> {
    let bytes = LinkLog::default().decode(events);
    packets_from_bytes(
        bytes.iter().map(|b| (b.value, b.start, b.end, None)),
        T_PER_SECOND,
    )
}

/// Who sent each packet whose direction is not known. When the log holds exactly two machine
/// IDs (a computer `02` and a TI-82 `82`), the ID says it. Otherwise (two TI-82s, both `82`)
/// the packet flow of spec 1.7 does: every packet but ACK is answered by the other side;
/// after an ACK the side that acknowledged goes on (CTS, VAR after REQ, DATA after CTS)
/// unless what it acknowledged was DATA, whose sender goes on (next VAR, next section, EOT).
fn infer_parties(ps: &mut [LogPacket]) {
    let mut mids: Vec<u8> = Vec::new();
    for p in ps.iter() {
        if let Ok(pk) = &p.packet {
            if !mids.contains(&pk.mid) {
                mids.push(pk.mid);
            }
        }
    }
    let by_mid = mids.len() == 2;
    let mut prev: Option<(u8, Command)> = None; // (party, cmd)
    let mut acked: Option<Command> = None;
    for p in ps.iter_mut() {
        if matches!(p.side, Side::Known(_)) {
            continue;
        }
        let Ok(pk) = &p.packet else {
            continue;
        };
        let party = if by_mid {
            u8::from(pk.mid != mids[0])
        } else {
            match prev {
                None => 0,
                Some((pp, Command::Ack)) if acked != Some(Command::Data) => pp,
                Some((pp, _)) => 1 - pp,
            }
        };
        if pk.cmd == Command::Ack {
            acked = prev.map(|(_, c)| c);
        }
        prev = Some((party, pk.cmd));
        p.side = Side::Party(party);
    }
}

fn mid_name(mid: u8) -> String {
    match mid {
        MID_TI82 => "TI82".into(),
        MID_COMPUTER => "PC".into(),
        MID_CBL => "CBL".into(),
        m => format!("{m:02X}"),
    }
}

impl LogPacket {
    /// One text line: start time, duration, sender, description, bytes (up to 24 shown).
    pub fn to_line(&self) -> String {
        let mut s = format!(
            "{:>12} {:>8}  ",
            self.start,
            self.end.saturating_sub(self.start)
        );
        let who = match self.side {
            Side::Known(Dir::Sent) => "out".to_string(),
            Side::Known(Dir::Received) => "in ".to_string(),
            Side::Party(p) => format!("{}  ", if p == 0 { 'A' } else { 'B' }),
        };
        s += &who;
        match &self.packet {
            Ok(p) => {
                let _ = write!(s, " {:<5} {}", mid_name(p.mid), p.describe());
            }
            Err(e) => {
                let _ = write!(s, " ?     error: {e}");
            }
        }
        s += "  [";
        for (i, b) in self.bytes.iter().take(24).enumerate() {
            if i > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{b:02X}");
        }
        if self.bytes.len() > 24 {
            let _ = write!(s, " … +{}", self.bytes.len() - 24);
        }
        s.push(']');
        s
    }
}

/// The whole log as text: a header line, then one line per packet.
pub fn format_log(ps: &[LogPacket]) -> String {
    let mut s = String::from("     T-state    T len  who  ID    packet  [bytes]\n");
    for p in ps {
        s += &p.to_line();
        s.push('\n');
    }
    s
}
