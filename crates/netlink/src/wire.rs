//! The wire protocol between two `ti82` processes (docs/link.md, "The network cable").
//!
//! Every message is a frame: a `u32` little-endian body length, then the body, whose first
//! byte is the message type. Integers are little-endian. Before the peer is authenticated a
//! frame is at most [`MAX_HELLO_FRAME`] bytes; after, at most [`MAX_FRAME`].
//!
//! | type | message | payload |
//! |---|---|---|
//! | 1 | `Hello` (plain) | magic `"TI82LINK"`, version `u16`, model `u8` (`0x82`), room length `u8`, room (UTF-8, ≤ 64 bytes: the relay's nameplate, empty on a direct link), PAKE length `u8`, the SPAKE2 message (≤ 64 bytes) |
//! | 2 | `Refuse` (plain) | reason (UTF-8, ≤ 200 bytes) |
//! | 3 | `Packet` | seq `u32` (from 1; a packet numbered 0 is dropped), reply_to `u32` (0: none), the TI packet's bytes (≤ 65 541) |
//! | 4 | `Expired` | seq `u32`: the receiver's calculator never took that packet (or broke off) |
//! | 5 | `Cancel` | seq `u32`: the sender's calculator gave up waiting for an answer to that packet |
//! | 6 | `Ping` | id `u32` |
//! | 7 | `Pong` | id `u32` (the Ping's id, echoed) |
//! | 8 | `Bye` | — |
//! | 9 | `Confirm` | — (the first sealed message each way: it proves both sides hold the key) |
//! | 10 | sealed | an AEAD box ([`crate::secure`]) holding one message of types 3-9 |
//!
//! Only `Hello` and `Refuse` ever travel in the clear; every other message travels sealed,
//! and a plain one after the hello is refused. The session code never travels at all.
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
/// 3: SPAKE2 keyed by the session code, then every message sealed (the code never crosses
/// the wire; [`crate::secure`]).
pub const VERSION: u16 = 3;
/// The model byte of a TI-82 (its link machine ID, spec 1.3).
pub const MODEL_TI82: u8 = 0x82;
/// Longest frame body: a DATA packet of 65 535 bytes with its 6 bytes of framing, the 9 bytes
/// of our header, and some room.
pub const MAX_FRAME: usize = 65_600;
/// Longest frame body before the peer is authenticated: a hello or a refusal. A stranger
/// cannot make us hold more than this for it.
pub const MAX_HELLO_FRAME: usize = 256;
/// Longest session code, and longest relay room.
pub const MAX_CODE: usize = 64;
/// Longest PAKE message in a hello (SPAKE2 over Ed25519 sends 33 bytes).
pub const MAX_PAKE: usize = 64;
const MAX_REASON: usize = 200;
/// The type byte of a sealed frame ([`crate::secure`]).
pub const SEALED: u8 = 10;
/// The bytes a sealed frame adds to the message it holds: its type byte and the AEAD tag.
pub const SEAL_OVERHEAD: usize = 1 + 16;

/// One message between two processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    Hello {
        version: u16,
        model: u8,
        /// The relay's nameplate (public); empty on a direct link.
        room: String,
        /// This side's SPAKE2 message.
        pake: Vec<u8>,
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
    Confirm,
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
    /// A sealed frame that does not open: not sealed with the session's key, or replayed,
    /// reordered or altered on the way.
    Forged,
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
            WireError::Forged => write!(
                f,
                "a link message did not open with the session key (altered, replayed or forged)"
            ),
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

/// Longest TI packet a `Packet` carries: what fits in a sealed frame of [`MAX_FRAME`].
pub const MAX_PACKET: usize = MAX_FRAME - 9 - SEAL_OVERHEAD;

/// The frame (length prefix and body) of a message.
pub fn encode(m: &Msg) -> Vec<u8> {
    let mut b = Vec::with_capacity(16);
    match m {
        Msg::Hello {
            version,
            model,
            room,
            pake,
        } => {
            b.push(1);
            b.extend_from_slice(&MAGIC);
            b.extend_from_slice(&version.to_le_bytes());
            b.push(*model);
            put_str(&mut b, room, MAX_CODE);
            let n = pake.len().min(MAX_PAKE);
            b.push(n as u8);
            b.extend_from_slice(&pake[..n]);
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
            b.extend_from_slice(&bytes[..bytes.len().min(MAX_PACKET)]);
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
        Msg::Confirm => b.push(9),
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
/// empty room and PAKE message): the rest of it may be laid out differently.
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
                    room: String::new(),
                    pake: Vec::new(),
                });
            }
            let model = *b.get(11).ok_or(WireError::Malformed("short hello"))?;
            let room = str_at(b, 12, MAX_CODE)?;
            let at = 13 + room.len();
            let n = usize::from(*b.get(at).ok_or(WireError::Malformed("short hello"))?);
            if n > MAX_PAKE {
                return Err(WireError::Malformed("PAKE message too long"));
            }
            let pake = b
                .get(at + 1..at + 1 + n)
                .ok_or(WireError::Malformed("short hello"))?
                .to_vec();
            exact(
                at + 1 + n,
                Msg::Hello {
                    version,
                    model,
                    room,
                    pake,
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
            if b.len() > 9 + MAX_PACKET {
                return Err(WireError::Malformed("packet too long"));
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
        Some(9) => exact(1, Msg::Confirm),
        Some(&SEALED) => Err(WireError::Malformed(
            "a sealed frame where a plain one belongs",
        )),
        Some(_) => Err(WireError::Malformed("unknown message type")),
        None => Err(WireError::Malformed("empty message")),
    }
}

/// Reads frames from a stream whose reads may time out: the bytes of a frame read so far are
/// kept across a timeout, so a timeout never desynchronizes the stream. It reads no byte past
/// the frame it is reading, and refuses a length over its cap before reading the body.
#[derive(Debug)]
pub struct FrameReader {
    buf: Vec<u8>,
    cap: usize,
}

impl FrameReader {
    /// A reader of frames of at most `cap` body bytes.
    pub fn new(cap: usize) -> FrameReader {
        FrameReader {
            buf: Vec::new(),
            cap,
        }
    }

    /// Changes the cap (raised once the peer is authenticated).
    pub fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// Bytes of a frame read so far and not yet returned.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// The next frame body. A read that times out (`WouldBlock` or `TimedOut`) returns that
    /// error with nothing lost: call again to go on with the same frame.
    pub fn next(&mut self, r: &mut impl Read) -> Result<Vec<u8>, WireError> {
        loop {
            if let Some(body) = self.step(r)? {
                return Ok(body);
            }
        }
    }

    /// At most one read: the frame body when it is complete, else `None` (a caller with a
    /// deadline looks at its clock between reads, however the bytes trickle in).
    pub fn step(&mut self, r: &mut impl Read) -> Result<Option<Vec<u8>>, WireError> {
        let want = if self.buf.len() < 4 {
            4 - self.buf.len()
        } else {
            let n =
                u32::from_le_bytes([self.buf[0], self.buf[1], self.buf[2], self.buf[3]]) as usize;
            if n > self.cap {
                return Err(WireError::TooLong(n));
            }
            if self.buf.len() == 4 + n {
                let body = self.buf.split_off(4);
                self.buf.clear();
                return Ok(Some(body));
            }
            4 + n - self.buf.len()
        };
        let mut chunk = [0u8; 16 * 1024];
        let take = want.min(chunk.len());
        match r.read(&mut chunk[..take]) {
            Ok(0) => Err(WireError::Io(std::io::ErrorKind::UnexpectedEof.into())),
            Ok(k) => {
                self.buf.extend_from_slice(&chunk[..k]);
                Ok(None)
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(None),
            Err(e) => Err(WireError::Io(e)),
        }
    }
}

/// Reads one frame body (blocking), refusing lengths over [`MAX_FRAME`] before allocating.
pub fn read_frame(r: &mut impl Read) -> Result<Vec<u8>, WireError> {
    FrameReader::new(MAX_FRAME).next(r)
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
                room: "42".into(),
                pake: vec![0x53; 33],
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
            Msg::Confirm,
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
        for bad in [
            &[][..],
            &[11],
            &[10, 0],
            &[9, 0],
            &[4, 1],
            &[3, 1, 2],
            &[8, 0],
            &[1],
        ] {
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
                room: String::new(),
                pake: Vec::new(),
            }
        );
    }

    /// A stream that times out after every `every` bytes, as a socket with a read timeout
    /// does while a peer trickles.
    struct Trickle<'a> {
        rest: &'a [u8],
        since: usize,
        every: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.since == self.every {
                self.since = 0;
                return Err(std::io::ErrorKind::WouldBlock.into());
            }
            let n = buf
                .len()
                .min(self.rest.len())
                .min(self.every - self.since)
                .min(1);
            buf[..n].copy_from_slice(&self.rest[..n]);
            self.rest = &self.rest[n..];
            self.since += n;
            Ok(n)
        }
    }

    #[test]
    fn a_timeout_mid_frame_keeps_the_stream_in_step() {
        let msgs = [
            Msg::Ping { id: 1 },
            Msg::Packet {
                seq: 1,
                reply_to: 0,
                bytes: (0..300u32).map(|i| i as u8).collect(),
            },
            Msg::Bye,
        ];
        let stream: Vec<u8> = msgs.iter().flat_map(encode).collect();
        let mut t = Trickle {
            rest: &stream,
            since: 0,
            every: 3,
        };
        let mut fr = FrameReader::new(MAX_FRAME);
        let mut got = Vec::new();
        let mut timeouts = 0;
        while got.len() < msgs.len() {
            match fr.next(&mut t) {
                Ok(body) => got.push(decode(&body).unwrap()),
                Err(WireError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    timeouts += 1
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(got, msgs);
        assert!(
            timeouts > 100,
            "the stream timed out mid-frame ({timeouts} times)"
        );
    }

    #[test]
    fn a_long_frame_is_refused_before_its_body_under_the_hello_cap() {
        let f = encode(&Msg::Packet {
            seq: 1,
            reply_to: 0,
            bytes: vec![0; 1000],
        });
        let mut r = &f[..];
        assert!(matches!(
            FrameReader::new(MAX_HELLO_FRAME).next(&mut r),
            Err(WireError::TooLong(1009))
        ));
        // Only the length was read.
        assert_eq!(r.len(), f.len() - 4);
    }
}
