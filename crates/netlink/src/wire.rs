//! The wire protocol between two `ti82` processes (docs/link.md, "The network cable").
//!
//! Every message is a frame: a `u32` little-endian body length (at most [`MAX_FRAME`]), then
//! the body, whose first byte is the message type. Integers are little-endian.
//!
//! | type | message | payload |
//! |---|---|---|
//! | 1 | `Hello` | magic `"TI82LINK"`, version `u16`, model `u8` (`0x82`), code length `u8`, code (UTF-8, ≤ 64 bytes) |
//! | 2 | `Refuse` | reason (UTF-8, ≤ 200 bytes) |
//! | 3 | `Packet` | seq `u32` (from 1; a packet numbered 0 is dropped), reply_to `u32` (0: none), the TI packet's bytes (≤ 65 541) |
//! | 4 | `Expired` | seq `u32`: the receiver's calculator never took that packet (or broke off) |
//! | 5 | `Cancel` | seq `u32`: the sender's calculator gave up waiting for an answer to that packet |
//! | 6 | `Ping` | id `u32` |
//! | 7 | `Pong` | id `u32` (the Ping's id, echoed) |
//! | 8 | `Bye` | — |
//!
//! The magic and version come first in `Hello` and keep their place in every version, so any
//! two versions can refuse each other with a clear message. No message carries the sender's
//! clock: the round-trip time is measured on our own clock from `Ping` to `Pong`, so a peer
//! cannot feed us a time at all.

use std::fmt;
use std::io::{Read, Write};

/// The first bytes of every `Hello`.
pub const MAGIC: [u8; 8] = *b"TI82LINK";
/// This build's protocol version. 2: a `Get(` takes one round trip (the holder's endpoint
/// plays the requester's ACK and CTS, docs/link.md), so a version-1 peer would wait for them.
pub const VERSION: u16 = 2;
/// The model byte of a TI-82 (its link machine ID, spec 1.3).
pub const MODEL_TI82: u8 = 0x82;
/// Longest frame body: a DATA packet of 65 535 bytes with its 6 bytes of framing, the 9 bytes
/// of our header, and some room.
pub const MAX_FRAME: usize = 65_600;
/// Longest session code.
pub const MAX_CODE: usize = 64;
const MAX_REASON: usize = 200;

/// One message between two processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    Hello {
        version: u16,
        model: u8,
        code: String,
    },
    Refuse {
        reason: String,
    },
    Packet {
        seq: u32,
        reply_to: u32,
        bytes: Vec<u8>,
    },
    Expired {
        seq: u32,
    },
    Cancel {
        seq: u32,
    },
    Ping {
        id: u32,
    },
    Pong {
        id: u32,
    },
    Bye,
}

/// What can be wrong with a frame.
#[derive(Debug)]
pub enum WireError {
    Io(std::io::Error),
    /// A frame longer than [`MAX_FRAME`] was announced.
    TooLong(usize),
    /// A `Hello` without our magic: not a `ti82` link on the other end.
    NotTi82,
    /// A frame that does not decode.
    Malformed(&'static str),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Io(e) => write!(f, "{e}"),
            WireError::TooLong(n) => {
                write!(
                    f,
                    "the peer announced a {n}-byte message (limit {MAX_FRAME})"
                )
            }
            WireError::NotTi82 => write!(f, "the peer is not a ti82 link (no TI82LINK hello)"),
            WireError::Malformed(what) => write!(f, "malformed link message: {what}"),
        }
    }
}

impl std::error::Error for WireError {}

impl From<std::io::Error> for WireError {
    fn from(e: std::io::Error) -> Self {
        WireError::Io(e)
    }
}

fn put_str(out: &mut Vec<u8>, s: &str, max: usize) {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    out.push(end as u8);
    out.extend_from_slice(&s.as_bytes()[..end]);
}

/// The frame (length prefix and body) of a message.
pub fn encode(m: &Msg) -> Vec<u8> {
    let mut b = Vec::with_capacity(16);
    match m {
        Msg::Hello {
            version,
            model,
            code,
        } => {
            b.push(1);
            b.extend_from_slice(&MAGIC);
            b.extend_from_slice(&version.to_le_bytes());
            b.push(*model);
            put_str(&mut b, code, MAX_CODE);
        }
        Msg::Refuse { reason } => {
            b.push(2);
            put_str(&mut b, reason, MAX_REASON);
        }
        Msg::Packet {
            seq,
            reply_to,
            bytes,
        } => {
            b.push(3);
            b.extend_from_slice(&seq.to_le_bytes());
            b.extend_from_slice(&reply_to.to_le_bytes());
            b.extend_from_slice(&bytes[..bytes.len().min(MAX_FRAME - 9)]);
        }
        Msg::Expired { seq } => {
            b.push(4);
            b.extend_from_slice(&seq.to_le_bytes());
        }
        Msg::Cancel { seq } => {
            b.push(5);
            b.extend_from_slice(&seq.to_le_bytes());
        }
        Msg::Ping { id } => {
            b.push(6);
            b.extend_from_slice(&id.to_le_bytes());
        }
        Msg::Pong { id } => {
            b.push(7);
            b.extend_from_slice(&id.to_le_bytes());
        }
        Msg::Bye => b.push(8),
    }
    let mut out = Vec::with_capacity(b.len() + 4);
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(&b);
    out
}

fn u32_at(b: &[u8], i: usize) -> Result<u32, WireError> {
    let s = b
        .get(i..i + 4)
        .ok_or(WireError::Malformed("too short for its type"))?;
    Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn str_at(b: &[u8], i: usize, max: usize) -> Result<String, WireError> {
    let n = usize::from(*b.get(i).ok_or(WireError::Malformed("missing text"))?);
    if n > max {
        return Err(WireError::Malformed("text too long"));
    }
    let s = b
        .get(i + 1..i + 1 + n)
        .ok_or(WireError::Malformed("text cut short"))?;
    String::from_utf8(s.to_vec()).map_err(|_| WireError::Malformed("text not UTF-8"))
}

/// Decodes a frame body. A `Hello` of another version decodes to its version alone (model 0,
/// empty code): the rest of it may be laid out differently.
pub fn decode(b: &[u8]) -> Result<Msg, WireError> {
    let exact = |n: usize, m: Msg| {
        if b.len() == n {
            Ok(m)
        } else {
            Err(WireError::Malformed("wrong length for its type"))
        }
    };
    match b.first() {
        Some(1) => {
            if b.get(1..9) != Some(&MAGIC[..]) {
                return Err(WireError::NotTi82);
            }
            let v = b.get(9..11).ok_or(WireError::Malformed("short hello"))?;
            let version = u16::from_le_bytes([v[0], v[1]]);
            if version != VERSION {
                return Ok(Msg::Hello {
                    version,
                    model: 0,
                    code: String::new(),
                });
            }
            let model = *b.get(11).ok_or(WireError::Malformed("short hello"))?;
            let code = str_at(b, 12, MAX_CODE)?;
            exact(
                13 + code.len(),
                Msg::Hello {
                    version,
                    model,
                    code,
                },
            )
        }
        Some(2) => {
            let reason = str_at(b, 1, MAX_REASON)?;
            exact(2 + reason.len(), Msg::Refuse { reason })
        }
        Some(3) => {
            if b.len() < 9 + 2 {
                return Err(WireError::Malformed("packet too short"));
            }
            Ok(Msg::Packet {
                seq: u32_at(b, 1)?,
                reply_to: u32_at(b, 5)?,
                bytes: b[9..].to_vec(),
            })
        }
        Some(4) => exact(5, Msg::Expired { seq: u32_at(b, 1)? }),
        Some(5) => exact(5, Msg::Cancel { seq: u32_at(b, 1)? }),
        Some(6) => exact(5, Msg::Ping { id: u32_at(b, 1)? }),
        Some(7) => exact(5, Msg::Pong { id: u32_at(b, 1)? }),
        Some(8) => exact(1, Msg::Bye),
        Some(_) => Err(WireError::Malformed("unknown message type")),
        None => Err(WireError::Malformed("empty message")),
    }
}

/// Reads one frame body (blocking), refusing lengths over [`MAX_FRAME`] before allocating.
pub fn read_frame(r: &mut impl Read) -> Result<Vec<u8>, WireError> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let n = u32::from_le_bytes(len) as usize;
    if n > MAX_FRAME {
        return Err(WireError::TooLong(n));
    }
    let mut body = vec![0u8; n];
    r.read_exact(&mut body)?;
    Ok(body)
}

/// Reads and decodes one message.
pub fn read_msg(r: &mut impl Read) -> Result<Msg, WireError> {
    decode(&read_frame(r)?)
}

/// Writes one message.
pub fn write_msg(w: &mut impl Write, m: &Msg) -> Result<(), WireError> {
    w.write_all(&encode(m))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for m in [
            Msg::Hello {
                version: VERSION,
                model: MODEL_TI82,
                code: "MANCALA".into(),
            },
            Msg::Refuse {
                reason: "wrong session code".into(),
            },
            Msg::Packet {
                seq: 7,
                reply_to: 6,
                bytes: vec![0x82, 0x56, 0, 0],
            },
            Msg::Expired { seq: 1 },
            Msg::Cancel { seq: u32::MAX },
            Msg::Ping { id: 3 },
            Msg::Pong { id: 3 },
            Msg::Bye,
        ] {
            let f = encode(&m);
            assert_eq!(read_msg(&mut &f[..]).unwrap(), m);
        }
    }

    #[test]
    fn bad_frames() {
        // Too long is refused before reading the body.
        let mut f = ((MAX_FRAME + 1) as u32).to_le_bytes().to_vec();
        f.push(8);
        assert!(matches!(
            read_frame(&mut &f[..]),
            Err(WireError::TooLong(_))
        ));
        assert!(matches!(
            decode(b"\x01HTTP/1.1 200"),
            Err(WireError::NotTi82)
        ));
        for bad in [&[][..], &[9], &[4, 1], &[3, 1, 2], &[8, 0], &[1]] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
        // Another version: only the version is read.
        let mut h = vec![1];
        h.extend_from_slice(&MAGIC);
        h.extend_from_slice(&7u16.to_le_bytes());
        h.extend_from_slice(b"whatever follows");
        assert_eq!(
            decode(&h).unwrap(),
            Msg::Hello {
                version: 7,
                model: 0,
                code: String::new()
            }
        );
    }
}
