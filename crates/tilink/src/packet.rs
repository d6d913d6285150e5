//! Packets (spec 1.1 – 1.6): machine IDs, commands, checksums, building, and a streaming parser
//! that takes one byte at a time, never panics and never holds more than its length limit.

use std::fmt;

use tifiles::var::{Header, VarName, VarType};

/// Machine ID of a computer talking to a TI-82 (spec 1.3).
pub const MID_COMPUTER: u8 = 0x02;
/// Machine ID of every packet a TI-82 sends (spec 1.3).
pub const MID_TI82: u8 = 0x82;
/// Machine ID of a CBL/CBR talking to a TI-82 (spec 1.3).
pub const MID_CBL: u8 = 0x12;

/// SKIP/EXIT rejection codes (spec 1.4).
pub const REJECT_EXIT: u8 = 0x01;
pub const REJECT_SKIP: u8 = 0x02;
pub const REJECT_MEMORY: u8 = 0x03;

/// Size of a screenshot: 96 × 64 pixels, 12 bytes a row (spec 1.7.5).
pub const SCREEN_BYTES: usize = 768;
/// Longest variable header: 11 bytes (spec 1.5, 1.6 item 4).
pub const MAX_HEADER: usize = 11;
/// Longest data part the parser accepts by default: the 16-bit length field's maximum.
pub const MAX_DATA: usize = 0xFFFF;

/// A command ID (spec 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `0x06` VAR (TI: RTS): a variable header follows.
    Var,
    /// `0x09` CTS (TI: RDY).
    Cts,
    /// `0x15` DATA (XDP).
    Data,
    /// `0x36` SKIP/EXIT (TI: EOR), one rejection code.
    Skip,
    /// `0x56` ACK.
    Ack,
    /// `0x5A` ERR (TI: CHK): bad checksum, resend.
    Err,
    /// `0x6D` SCR: screenshot request.
    Scr,
    /// `0x92` EOT (TI: DONE).
    Eot,
    /// `0xA2` REQ (TI: GET): silent variable request.
    Req,
    /// `0xC9` RTS (TI: SEND): silent send request.
    Rts,
    /// Any other ID (other models' commands; the TI-82 neither sends nor answers them).
    Other(u8),
}

impl Command {
    pub fn from_byte(b: u8) -> Command {
        match b {
            0x06 => Command::Var,
            0x09 => Command::Cts,
            0x15 => Command::Data,
            0x36 => Command::Skip,
            0x56 => Command::Ack,
            0x5A => Command::Err,
            0x6D => Command::Scr,
            0x92 => Command::Eot,
            0xA2 => Command::Req,
            0xC9 => Command::Rts,
            x => Command::Other(x),
        }
    }

    pub fn to_byte(self) -> u8 {
        match self {
            Command::Var => 0x06,
            Command::Cts => 0x09,
            Command::Data => 0x15,
            Command::Skip => 0x36,
            Command::Ack => 0x56,
            Command::Err => 0x5A,
            Command::Scr => 0x6D,
            Command::Eot => 0x92,
            Command::Req => 0xA2,
            Command::Rts => 0xC9,
            Command::Other(x) => x,
        }
    }

    /// Whether data (and a checksum) follow the length field. Decided from the command ID
    /// alone (spec 1.6 item 2): the length of ACK, CTS, ERR, SCR and EOT is junk. Other models'
    /// data-less commands (VER, RDY, CNT, KEY and the ID requests) are data-less too; for any
    /// other unknown ID the length is trusted (as libticalcs does), within the parser's limit.
    pub fn has_data(self) -> bool {
        match self {
            Command::Var | Command::Data | Command::Skip | Command::Req | Command::Rts => true,
            Command::Cts | Command::Ack | Command::Err | Command::Scr | Command::Eot => false,
            Command::Other(x) => !matches!(x, 0x2D | 0x68 | 0x6E | 0x74 | 0x78 | 0x87),
        }
    }

    /// Longest data part this command may carry (spec 1.6 item 4: headers ≤ 11 bytes).
    pub fn max_data(self) -> usize {
        match self {
            Command::Var | Command::Req | Command::Rts => MAX_HEADER,
            Command::Skip => 16,
            _ if !self.has_data() => 0,
            _ => MAX_DATA,
        }
    }

    /// Short name as in spec 1.4.
    pub fn name(self) -> &'static str {
        match self {
            Command::Var => "VAR",
            Command::Cts => "CTS",
            Command::Data => "DATA",
            Command::Skip => "SKIP/EXIT",
            Command::Ack => "ACK",
            Command::Err => "ERR",
            Command::Scr => "SCR",
            Command::Eot => "EOT",
            Command::Req => "REQ",
            Command::Rts => "RTS",
            Command::Other(_) => "?",
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Other(x) => write!(f, "CMD {x:02X}"),
            c => f.write_str(c.name()),
        }
    }
}

/// Sum of the data bytes, low 16 bits (spec 1.2).
pub fn checksum(data: &[u8]) -> u16 {
    tifiles::file::checksum(data)
}

/// One packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Machine ID of the sender (spec 1.3).
    pub mid: u8,
    pub cmd: Command,
    /// The length field of a data-less packet as it was on the wire (junk the TI-82 leaves
    /// there, spec 1.1); ignored for data packets, whose length is `data.len()`.
    pub junk_len: u16,
    pub data: Vec<u8>,
}

/// Why bytes are not a packet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PacketError {
    #[error("{cmd} packet announces {len} data bytes, at most {max} allowed")]
    TooLong {
        cmd: Command,
        len: usize,
        max: usize,
    },
    #[error("{} packet checksum {got:04X}, data sums to {want:04X}", packet.cmd)]
    Checksum {
        got: u16,
        want: u16,
        packet: Box<Packet>,
    },
    #[error("packet truncated after {0} bytes")]
    Truncated(usize),
}

impl Packet {
    /// A data-less packet (length written `00 00`, spec 1.1).
    pub fn bare(mid: u8, cmd: Command) -> Packet {
        Packet {
            mid,
            cmd,
            junk_len: 0,
            data: Vec::new(),
        }
    }

    pub fn with_data(mid: u8, cmd: Command, data: Vec<u8>) -> Packet {
        Packet {
            mid,
            cmd,
            junk_len: 0,
            data,
        }
    }

    pub fn ack(mid: u8) -> Packet {
        Packet::bare(mid, Command::Ack)
    }
    pub fn cts(mid: u8) -> Packet {
        Packet::bare(mid, Command::Cts)
    }
    pub fn eot(mid: u8) -> Packet {
        Packet::bare(mid, Command::Eot)
    }
    pub fn err(mid: u8) -> Packet {
        Packet::bare(mid, Command::Err)
    }
    pub fn scr(mid: u8) -> Packet {
        Packet::bare(mid, Command::Scr)
    }
    /// SKIP/EXIT with a rejection code.
    pub fn skip(mid: u8, code: u8) -> Packet {
        Packet::with_data(mid, Command::Skip, vec![code])
    }
    /// VAR with a header (11 bytes, or 9 for a backup).
    pub fn var(mid: u8, header: &Header) -> Packet {
        Packet::with_data(mid, Command::Var, header.to_bytes())
    }
    /// REQ for a variable (size field 0, spec 1.7.6).
    pub fn req(mid: u8, ty: VarType, name: VarName) -> Packet {
        let h = Header::Var { size: 0, ty, name };
        Packet::with_data(mid, Command::Req, h.to_bytes())
    }
    pub fn data(mid: u8, data: Vec<u8>) -> Packet {
        Packet::with_data(mid, Command::Data, data)
    }

    /// The bytes on the wire. Data longer than 65535 bytes is cut (never built by this crate).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = vec![self.mid, self.cmd.to_byte()];
        if self.cmd.has_data() {
            let data = &self.data[..self.data.len().min(MAX_DATA)];
            v.extend_from_slice(&(data.len() as u16).to_le_bytes());
            if !data.is_empty() {
                v.extend_from_slice(data);
                v.extend_from_slice(&checksum(data).to_le_bytes());
            }
        } else {
            v.extend_from_slice(&self.junk_len.to_le_bytes());
        }
        v
    }

    /// Parses one packet from the start of `bytes`; returns it and the bytes used.
    pub fn parse(bytes: &[u8]) -> Result<(Packet, usize), PacketError> {
        let mut p = Parser::new();
        for (i, &b) in bytes.iter().enumerate() {
            if let Some(r) = p.push(b) {
                return r.map(|pk| (pk, i + 1));
            }
        }
        Err(PacketError::Truncated(bytes.len()))
    }

    /// The variable header of a VAR, REQ or RTS packet.
    pub fn header(&self) -> Option<Header> {
        match self.cmd {
            Command::Var | Command::Req | Command::Rts => Header::parse(&self.data).ok(),
            _ => None,
        }
    }

    /// The rejection code of a SKIP/EXIT packet.
    pub fn reject_code(&self) -> Option<u8> {
        (self.cmd == Command::Skip)
            .then(|| self.data.first().copied())
            .flatten()
    }

    /// One-line description: command, variable type and name, sizes, codes.
    pub fn describe(&self) -> String {
        let mut s = self.cmd.to_string();
        match self.cmd {
            Command::Var | Command::Req | Command::Rts => match self.header() {
                Some(Header::Var { size, ty, name }) => {
                    s += &format!(" {ty} {} size {size}", name.display(ty));
                }
                Some(Header::Backup {
                    len1,
                    len2,
                    len3,
                    address,
                }) => {
                    s += &format!(" backup {len1}+{len2}+{len3} bytes at {address:04X}");
                }
                None => s += &format!(" bad header ({} bytes)", self.data.len()),
            },
            Command::Data => s += &format!(" {} bytes", self.data.len()),
            Command::Skip => {
                s += &match self.reject_code() {
                    Some(REJECT_EXIT) => " 01 exit".to_string(),
                    Some(REJECT_SKIP) => " 02 skip".to_string(),
                    Some(REJECT_MEMORY) => " 03 out of memory".to_string(),
                    Some(c) => format!(" {c:02X}"),
                    None => " (no code)".to_string(),
                }
            }
            _ if !self.cmd.has_data() && self.junk_len != 0 => {
                s += &format!(" (length field {:04X})", self.junk_len);
            }
            _ => {
                if !self.data.is_empty() {
                    s += &format!(" {} bytes", self.data.len());
                }
            }
        }
        s
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Mid,
    Cmd,
    Len0,
    Len1,
    Data,
    Sum0,
    Sum1,
}

/// Streaming packet parser (spec 1.6): feed bytes with [`Parser::push`]; it returns a packet
/// or an error when one is complete, then starts over. The data buffer grows byte by byte and
/// never beyond the command's limit (11 for headers, `max_data` for DATA), so garbage cannot
/// make it allocate much.
#[derive(Clone, Debug)]
pub struct Parser {
    stage: Stage,
    mid: u8,
    cmd: Command,
    len: usize,
    sum: u16,
    data: Vec<u8>,
    max_data: usize,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new()
    }
}

impl Parser {
    pub fn new() -> Parser {
        Parser::with_limit(MAX_DATA)
    }

    /// A parser that rejects DATA packets longer than `max_data` bytes.
    pub fn with_limit(max_data: usize) -> Parser {
        Parser {
            stage: Stage::Mid,
            mid: 0,
            cmd: Command::Ack,
            len: 0,
            sum: 0,
            data: Vec::new(),
            max_data: max_data.min(MAX_DATA),
        }
    }

    /// Whether the parser is between packets.
    pub fn is_idle(&self) -> bool {
        self.stage == Stage::Mid
    }

    /// Bytes of the current packet received so far.
    pub fn pending(&self) -> usize {
        match self.stage {
            Stage::Mid => 0,
            Stage::Cmd => 1,
            Stage::Len0 => 2,
            Stage::Len1 => 3,
            Stage::Data => 4 + self.data.len(),
            Stage::Sum0 => 4 + self.data.len(),
            Stage::Sum1 => 5 + self.data.len(),
        }
    }

    /// Capacity of the internal buffer (for allocation checks).
    pub fn buffer_capacity(&self) -> usize {
        self.data.capacity()
    }

    /// Drops a partial packet.
    pub fn reset(&mut self) {
        self.stage = Stage::Mid;
        self.data = Vec::new();
    }

    fn finish(&mut self) -> Packet {
        self.stage = Stage::Mid;
        let data = std::mem::take(&mut self.data);
        Packet {
            mid: self.mid,
            cmd: self.cmd,
            junk_len: if self.cmd.has_data() {
                0
            } else {
                self.len as u16
            },
            data,
        }
    }

    /// Takes one byte; returns a complete packet or an error (after which it starts over).
    pub fn push(&mut self, b: u8) -> Option<Result<Packet, PacketError>> {
        match self.stage {
            Stage::Mid => {
                self.mid = b;
                self.stage = Stage::Cmd;
            }
            Stage::Cmd => {
                self.cmd = Command::from_byte(b);
                self.stage = Stage::Len0;
            }
            Stage::Len0 => {
                self.len = usize::from(b);
                self.stage = Stage::Len1;
            }
            Stage::Len1 => {
                self.len |= usize::from(b) << 8;
                if !self.cmd.has_data() || self.len == 0 {
                    // Spec 1.1/1.6: no data, no checksum; the length may be junk.
                    return Some(Ok(self.finish()));
                }
                let max = if self.cmd == Command::Data {
                    self.max_data
                } else {
                    self.cmd.max_data().min(self.max_data)
                };
                if self.len > max {
                    let (cmd, len) = (self.cmd, self.len);
                    self.reset();
                    return Some(Err(PacketError::TooLong { cmd, len, max }));
                }
                self.data = Vec::with_capacity(self.len.min(1024));
                self.sum = 0;
                self.stage = Stage::Data;
            }
            Stage::Data => {
                if self.data.len() == self.data.capacity() {
                    // Grow by doubling, but never past the announced (bounded) length.
                    let left = self.len.saturating_sub(self.data.len());
                    self.data
                        .reserve_exact(left.min(self.data.capacity().max(64)));
                }
                self.data.push(b);
                if self.data.len() >= self.len {
                    self.stage = Stage::Sum0;
                }
            }
            Stage::Sum0 => {
                self.sum = u16::from(b);
                self.stage = Stage::Sum1;
            }
            Stage::Sum1 => {
                self.sum |= u16::from(b) << 8;
                let got = self.sum;
                let p = self.finish();
                let want = checksum(&p.data);
                if got != want {
                    return Some(Err(PacketError::Checksum {
                        got,
                        want,
                        packet: Box::new(p),
                    }));
                }
                return Some(Ok(p));
            }
        }
        None
    }
}

impl Packet {
    pub(crate) fn save(&self, w: &mut crate::state::StateWriter) {
        w.u8(self.mid);
        w.u8(self.cmd.to_byte());
        w.u16(self.junk_len);
        w.bytes(&self.data);
    }

    pub(crate) fn load(
        r: &mut crate::state::StateReader,
    ) -> Result<Packet, crate::state::StateError> {
        let (mid, cmd, junk_len) = (r.u8()?, Command::from_byte(r.u8()?), r.u16()?);
        let data = r.bytes()?;
        if data.len() > MAX_DATA {
            return Err(crate::state::corrupt("link: packet size"));
        }
        Ok(Packet {
            mid,
            cmd,
            junk_len,
            data: data.to_vec(),
        })
    }
}

impl Parser {
    pub(crate) fn save(&self, w: &mut crate::state::StateWriter) {
        let stage = match self.stage {
            Stage::Mid => 0,
            Stage::Cmd => 1,
            Stage::Len0 => 2,
            Stage::Len1 => 3,
            Stage::Data => 4,
            Stage::Sum0 => 5,
            Stage::Sum1 => 6,
        };
        w.u8(stage);
        w.u8(self.mid);
        w.u8(self.cmd.to_byte());
        w.u64(self.len as u64);
        w.u16(self.sum);
        w.bytes(&self.data);
        w.u64(self.max_data as u64);
    }

    pub(crate) fn load(
        r: &mut crate::state::StateReader,
    ) -> Result<Parser, crate::state::StateError> {
        let bad = || crate::state::corrupt("link: packet parser");
        let stage = match r.u8()? {
            0 => Stage::Mid,
            1 => Stage::Cmd,
            2 => Stage::Len0,
            3 => Stage::Len1,
            4 => Stage::Data,
            5 => Stage::Sum0,
            6 => Stage::Sum1,
            _ => return Err(bad()),
        };
        let (mid, cmd) = (r.u8()?, Command::from_byte(r.u8()?));
        let len = crate::state::get_usize(r)?;
        let sum = r.u16()?;
        let data = r.bytes()?.to_vec();
        let max_data = crate::state::get_usize(r)?;
        if len > MAX_DATA || data.len() > len || max_data > MAX_DATA {
            return Err(bad());
        }
        Ok(Parser {
            stage,
            mid,
            cmd,
            len,
            sum,
            data,
            max_data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_packet_bytes() {
        // Spec 1.4: a SKIP packet looks like 82 36 01 00 02 02 00.
        assert_eq!(
            Packet::skip(MID_TI82, REJECT_SKIP).to_bytes(),
            [0x82, 0x36, 0x01, 0x00, 0x02, 0x02, 0x00]
        );
    }

    #[test]
    fn junk_length_is_ignored() {
        // Spec 1.1: ACK written as 82 56 FC 07 after a 2044-byte packet.
        let (p, n) = Packet::parse(&[0x82, 0x56, 0xFC, 0x07, 0x99]).unwrap();
        assert_eq!(n, 4);
        assert_eq!(p.cmd, Command::Ack);
        assert_eq!(p.junk_len, 0x07FC);
        assert_eq!(p.to_bytes(), [0x82, 0x56, 0xFC, 0x07]);
    }

    #[test]
    fn oversized_var_rejected() {
        // Spec 1.6 item 4: TiLP's ROM dumper sends VAR with length 0x1F.
        let r = Packet::parse(&[0x02, 0x06, 0x1F, 0x00]);
        assert!(matches!(r, Err(PacketError::TooLong { len: 0x1F, .. })));
    }
}
