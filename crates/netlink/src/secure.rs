//! Authentication and sealing (docs/link.md, "Security"): the session code never crosses the
//! wire, as in magic-wormhole.
//!
//! 1. Each side sends a plain `Hello` holding its SPAKE2 message (symmetric mode over
//!    Ed25519, RustCrypto's `spake2`), keyed by the session code; the identity binds the
//!    protocol version and the relay room. A SPAKE2 message tells an eavesdropper, a relay
//!    or a stranger nothing about the code; an active attacker gets one guess per exchange.
//! 2. From the shared key, HKDF-SHA256 derives one ChaCha20-Poly1305 key per direction (the
//!    sender's SPAKE2 message first in the label, so the two directions never share a key
//!    and a reflected hello is refused).
//! 3. Every later message travels sealed: the nonce is the direction's message counter, so a
//!    dropped, replayed, reordered or altered frame does not open. The first sealed message
//!    each way is `Confirm`: a side whose code differs cannot open it, and refuses.
//!
//! It is sans-IO (bytes in, bytes out), so the fuzz target and the tests drive it directly.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hkdf::Hkdf;
use sha2::Sha256;
use spake2::{Ed25519Group, Identity, Password, Spake2};

use crate::wire::{self, Msg, WireError, MODEL_TI82, SEALED};

/// Why a handshake did not give a channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthError {
    /// The peer speaks another protocol version.
    Version { ours: u16, theirs: u16 },
    /// The peer's model byte is not a TI-82's.
    Model(u8),
    /// The peer's key differs from ours: its session code is not ours.
    WrongCode,
    /// The peer sent our own hello back.
    Reflected,
    /// The peer refused us, with its reason.
    Refused(String),
    /// A message that does not belong in a handshake, or does not decode.
    Protocol(String),
}

impl std::fmt::Display for AuthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuthError::Version { ours, theirs } if theirs < ours => write!(
                f,
                "link protocol version mismatch: the peer speaks version {theirs}, this ti82 speaks {ours}: the peer must update its ti82"
            ),
            AuthError::Version { ours, theirs } => write!(
                f,
                "link protocol version mismatch: the peer speaks version {theirs}, this ti82 speaks {ours}: update this ti82"
            ),
            AuthError::Model(m) => write!(f, "the peer is not a TI-82 (model byte {m:#04x})"),
            AuthError::WrongCode => {
                write!(f, "wrong session code (the two sides' codes differ)")
            }
            AuthError::Reflected => write!(f, "the peer sent our own hello back"),
            AuthError::Refused(why) => write!(f, "refused: {why}"),
            AuthError::Protocol(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for AuthError {}

/// One side's handshake in progress: its hello is sent, the peer's is awaited.
pub struct Handshake {
    spake: Spake2<Ed25519Group>,
    mine: Vec<u8>,
    version: u16,
}

/// The SPAKE2 identity: both sides must use the same, and it binds what they agreed on
/// besides the code.
fn identity(version: u16, room: &str) -> Identity {
    let mut id = b"ti82 link ".to_vec();
    id.extend_from_slice(&version.to_le_bytes());
    id.extend_from_slice(room.as_bytes());
    Identity::new(&id)
}

impl Handshake {
    /// Starts a handshake keyed by `code`; returns it and the hello to send. `room` is the
    /// relay's nameplate (empty on a direct link); `version` is what we announce (tests of
    /// the refusal announce another).
    pub fn start(code: &str, room: &str, version: u16) -> (Handshake, Msg) {
        let (spake, mine) = Spake2::<Ed25519Group>::start_symmetric(
            &Password::new(code.as_bytes()),
            &identity(version, room),
        );
        Handshake::started(spake, mine, room, version)
    }

    /// [`Handshake::start`] with a predictable secret drawn from `seed`, for the fuzz target
    /// and tests that must replay the same bytes. Never for a real link: anyone who knows
    /// the seed can read it.
    pub fn start_seeded(code: &str, room: &str, version: u16, seed: u64) -> (Handshake, Msg) {
        let (spake, mine) = Spake2::<Ed25519Group>::start_symmetric_with_rng(
            &Password::new(code.as_bytes()),
            &identity(version, room),
            SeededRng(seed | 1),
        );
        Handshake::started(spake, mine, room, version)
    }

    fn started(
        spake: Spake2<Ed25519Group>,
        mine: Vec<u8>,
        room: &str,
        version: u16,
    ) -> (Handshake, Msg) {
        let hello = Msg::Hello {
            version,
            model: MODEL_TI82,
            room: room.to_string(),
            pake: mine.clone(),
        };
        (
            Handshake {
                spake,
                mine,
                version,
            },
            hello,
        )
    }

    /// Takes the peer's first frame body (its hello): the channel, whose first sealed message
    /// ([`Channel::confirm`]) goes out next.
    pub fn finish(self, peer_frame: &[u8]) -> Result<Channel, AuthError> {
        let theirs = match wire::decode(peer_frame) {
            Ok(Msg::Hello { version, .. }) if version != self.version => {
                return Err(AuthError::Version {
                    ours: self.version,
                    theirs: version,
                })
            }
            Ok(Msg::Hello { model, .. }) if model != MODEL_TI82 => {
                return Err(AuthError::Model(model))
            }
            Ok(Msg::Hello { pake, .. }) => pake,
            Ok(Msg::Refuse { reason }) => return Err(AuthError::Refused(reason)),
            Ok(_) => {
                return Err(AuthError::Protocol(
                    "the peer did not start with a hello".into(),
                ))
            }
            Err(e) => return Err(AuthError::Protocol(e.to_string())),
        };
        if theirs == self.mine {
            return Err(AuthError::Reflected);
        }
        let shared = self
            .spake
            .finish(&theirs)
            .map_err(|e| AuthError::Protocol(format!("bad PAKE message: {e:?}")))?;
        let hk = Hkdf::<Sha256>::new(None, &shared);
        let key = |from: &[u8], to: &[u8]| {
            let mut info = b"ti82 link v3 key ".to_vec();
            info.extend_from_slice(from);
            info.extend_from_slice(to);
            let mut k = [0u8; 32];
            hk.expand(&info, &mut k)
                .expect("32 bytes is a valid HKDF-SHA256 length");
            ChaCha20Poly1305::new(Key::from_slice(&k))
        };
        Ok(Channel {
            sealer: Sealer {
                cipher: key(&self.mine, &theirs),
                seq: 0,
            },
            opener: Opener {
                cipher: key(&theirs, &self.mine),
                seq: 0,
                confirmed: false,
            },
        })
    }
}

/// A xorshift generator dressed as a cryptographic one, for [`Handshake::start_seeded`] only.
struct SeededRng(u64);

impl rand_core::RngCore for SeededRng {
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

// Only for replayable fuzzing and tests (see `start_seeded`).
impl rand_core::CryptoRng for SeededRng {}

/// Both directions of an authenticated link.
pub struct Channel {
    pub sealer: Sealer,
    pub opener: Opener,
}

impl Channel {
    /// The frame to send right after the hello exchange: a sealed `Confirm`.
    pub fn confirm(&mut self) -> Vec<u8> {
        self.sealer.seal(&Msg::Confirm)
    }
}

fn nonce(seq: u64) -> Nonce {
    let mut n = [0u8; 12];
    n[..8].copy_from_slice(&seq.to_le_bytes());
    *Nonce::from_slice(&n)
}

/// Our direction: seals messages in order.
pub struct Sealer {
    cipher: ChaCha20Poly1305,
    seq: u64,
}

impl Sealer {
    /// The frame (length prefix and sealed body) of `m`.
    pub fn seal(&mut self, m: &Msg) -> Vec<u8> {
        let plain = wire::encode(m);
        let body = &plain[4..];
        let boxed = self
            .cipher
            .encrypt(
                &nonce(self.seq),
                Payload {
                    msg: body,
                    aad: &[SEALED],
                },
            )
            .expect("ChaCha20-Poly1305 seals any message under 256 GiB");
        self.seq += 1;
        let mut out = Vec::with_capacity(4 + 1 + boxed.len());
        out.extend_from_slice(&((boxed.len() + 1) as u32).to_le_bytes());
        out.push(SEALED);
        out.extend_from_slice(&boxed);
        out
    }
}

/// The peer's direction: opens messages in order.
pub struct Opener {
    cipher: ChaCha20Poly1305,
    seq: u64,
    confirmed: bool,
}

impl Opener {
    /// Opens one frame body. The first must be the peer's `Confirm` (else the peer's key is
    /// not ours: [`AuthError::WrongCode`], or its refusal); after it, any message but a hello,
    /// a refusal or a second `Confirm`.
    pub fn open(&mut self, body: &[u8]) -> Result<Msg, OpenError> {
        if body.first() != Some(&SEALED) {
            if !self.confirmed {
                if let Ok(Msg::Refuse { reason }) = wire::decode(body) {
                    return Err(OpenError::Auth(AuthError::Refused(reason)));
                }
                return Err(OpenError::Auth(AuthError::Protocol(
                    "the peer sent a plain message after the hello".into(),
                )));
            }
            return Err(OpenError::Wire(WireError::Malformed(
                "a plain message after the hello",
            )));
        }
        let plain = match self.cipher.decrypt(
            &nonce(self.seq),
            Payload {
                msg: &body[1..],
                aad: &[SEALED],
            },
        ) {
            Ok(p) => p,
            Err(_) if !self.confirmed => return Err(OpenError::Auth(AuthError::WrongCode)),
            Err(_) => return Err(OpenError::Wire(WireError::Forged)),
        };
        self.seq += 1;
        let m = wire::decode(&plain).map_err(OpenError::Wire)?;
        match (self.confirmed, m) {
            (false, Msg::Confirm) => {
                self.confirmed = true;
                Ok(Msg::Confirm)
            }
            (false, _) => Err(OpenError::Auth(AuthError::Protocol(
                "the peer did not confirm the key first".into(),
            ))),
            (true, Msg::Hello { .. } | Msg::Refuse { .. } | Msg::Confirm) => Err(OpenError::Wire(
                WireError::Malformed("a handshake message after the handshake"),
            )),
            (true, m) => Ok(m),
        }
    }

    /// Whether the peer's `Confirm` has opened.
    pub fn confirmed(&self) -> bool {
        self.confirmed
    }
}

/// Why a sealed frame was refused.
#[derive(Debug)]
pub enum OpenError {
    /// During the handshake: the peer is not authenticated.
    Auth(AuthError),
    /// After it: the stream is broken or forged.
    Wire(WireError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Auth(e) => write!(f, "{e}"),
            OpenError::Wire(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{decode, encode, VERSION};

    fn body(frame: &[u8]) -> &[u8] {
        &frame[4..]
    }

    fn pair(a: &str, b: &str) -> (Result<Channel, AuthError>, Result<Channel, AuthError>) {
        let (ha, hello_a) = Handshake::start(a, "", VERSION);
        let (hb, hello_b) = Handshake::start(b, "", VERSION);
        (
            ha.finish(body(&encode(&hello_b))),
            hb.finish(body(&encode(&hello_a))),
        )
    }

    #[test]
    fn the_same_code_opens_both_ways_and_the_code_is_never_sent() {
        let (ha, hello_a) = Handshake::start("MANCALA", "", VERSION);
        let hello_bytes = encode(&hello_a);
        assert!(!hello_bytes
            .windows(7)
            .any(|w| w.eq_ignore_ascii_case(b"MANCALA")));
        let (hb, hello_b) = Handshake::start("MANCALA", "", VERSION);
        let mut a = ha.finish(body(&encode(&hello_b))).unwrap();
        let mut b = hb.finish(body(&hello_bytes)).unwrap();
        let ca = a.confirm();
        let cb = b.confirm();
        assert_eq!(b.opener.open(body(&ca)).unwrap(), Msg::Confirm);
        assert_eq!(a.opener.open(body(&cb)).unwrap(), Msg::Confirm);
        let m = Msg::Packet {
            seq: 1,
            reply_to: 0,
            bytes: b"MANCALA".to_vec(),
        };
        let f = a.sealer.seal(&m);
        assert!(!f.windows(7).any(|w| w == b"MANCALA"), "sealed: {f:02X?}");
        assert_eq!(b.opener.open(body(&f)).unwrap(), m);
        let f = b.sealer.seal(&Msg::Ping { id: 9 });
        assert_eq!(a.opener.open(body(&f)).unwrap(), Msg::Ping { id: 9 });
    }

    #[test]
    fn a_wrong_code_does_not_open_the_confirm() {
        let (a, b) = pair("RIGHT", "WRONG");
        let (mut a, mut b) = (a.unwrap(), b.unwrap());
        let cb = b.confirm();
        assert!(matches!(
            a.opener.open(body(&cb)),
            Err(OpenError::Auth(AuthError::WrongCode))
        ));
        let ca = a.confirm();
        assert!(matches!(
            b.opener.open(body(&ca)),
            Err(OpenError::Auth(AuthError::WrongCode))
        ));
    }

    #[test]
    fn replayed_reordered_altered_and_plain_frames_do_not_open() {
        let (a, b) = pair("X", "X");
        let (mut a, mut b) = (a.unwrap(), b.unwrap());
        let c = a.confirm();
        b.opener.open(body(&c)).unwrap();
        let one = a.sealer.seal(&Msg::Ping { id: 1 });
        let two = a.sealer.seal(&Msg::Ping { id: 2 });
        // Reordered: the second frame where the first belongs.
        assert!(matches!(
            b.opener.open(body(&two)),
            Err(OpenError::Wire(WireError::Forged))
        ));
        b.opener.open(body(&one)).unwrap();
        // Replayed.
        assert!(b.opener.open(body(&one)).is_err());
        // Altered.
        let mut bad = two.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(b.opener.open(body(&bad)).is_err());
        b.opener.open(body(&two)).unwrap();
        // A plain message after the handshake.
        assert!(b.opener.open(body(&encode(&Msg::Bye))).is_err());
        // A sealed hello after the handshake.
        let h = a.sealer.seal(&Msg::Confirm);
        assert!(b.opener.open(body(&h)).is_err());
    }

    #[test]
    fn refusals_versions_models_and_reflections() {
        let (h, hello) = Handshake::start("X", "", VERSION);
        assert_eq!(
            h.finish(body(&encode(&hello))).err(),
            Some(AuthError::Reflected)
        );
        let (h, _) = Handshake::start("X", "", VERSION);
        let (_, old) = Handshake::start("X", "", 2);
        let e = h.finish(body(&encode(&old))).err().unwrap();
        assert_eq!(e, AuthError::Version { ours: 3, theirs: 2 });
        assert!(e.to_string().contains("must update"), "{e}");
        let (h, _) = Handshake::start("X", "", VERSION);
        let mut f = encode(&Msg::Hello {
            version: VERSION,
            model: 0x83,
            room: String::new(),
            pake: vec![0x53; 33],
        });
        assert_eq!(h.finish(body(&f)).err(), Some(AuthError::Model(0x83)));
        let (h, _) = Handshake::start("X", "", VERSION);
        f = encode(&Msg::Refuse {
            reason: "busy".into(),
        });
        assert_eq!(
            h.finish(body(&f)).err(),
            Some(AuthError::Refused("busy".into()))
        );
        // A PAKE message that is not a point.
        let (h, _) = Handshake::start("X", "", VERSION);
        f = encode(&Msg::Hello {
            version: VERSION,
            model: MODEL_TI82,
            room: String::new(),
            pake: vec![0x53; 5],
        });
        assert!(matches!(h.finish(body(&f)), Err(AuthError::Protocol(_))));
        // A plain refusal where the confirm belongs is read as the refusal it is.
        let (a, _) = pair("X", "X");
        let mut a = a.unwrap();
        let refusal = encode(&Msg::Refuse {
            reason: "wrong session code".into(),
        });
        assert!(matches!(
            a.opener.open(body(&refusal)),
            Err(OpenError::Auth(AuthError::Refused(_)))
        ));
        assert!(decode(body(&refusal)).is_ok());
    }

    #[test]
    fn the_room_is_part_of_the_key() {
        let (ha, hello_a) = Handshake::start("CODE", "1", VERSION);
        let (hb, hello_b) = Handshake::start("CODE", "2", VERSION);
        let mut a = ha.finish(body(&encode(&hello_b))).unwrap();
        let mut b = hb.finish(body(&encode(&hello_a))).unwrap();
        let c = b.confirm();
        assert!(a.opener.open(body(&c)).is_err());
    }
}
