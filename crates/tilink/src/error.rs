//! Typed errors of the link layers.

use std::fmt;

use crate::packet::{PacketError, REJECT_EXIT, REJECT_MEMORY, REJECT_SKIP};

/// What a side was waiting for when it timed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// Both lines high before sending a bit (spec 2.2 step 1).
    LinesIdle,
    /// The receiver's acknowledge of a bit (step 3).
    BitAck,
    /// The other side releasing its line (steps 4/5).
    BitRelease,
    /// The first bit of a byte.
    Bit,
    /// The first byte of a reply packet (spec 1.7.8).
    Reply,
}

impl fmt::Display for Waiting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Waiting::LinesIdle => "both lines high before a bit",
            Waiting::BitAck => "the acknowledge of a bit",
            Waiting::BitRelease => "the release of a line",
            Waiting::Bit => "the next bit",
            Waiting::Reply => "a reply packet",
        })
    }
}

/// Why a transfer ended badly. Every error leaves our side with both lines released.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("link timeout at T-state {at}: no {what}")]
    Timeout { what: Waiting, at: u64 },
    #[error("the peer held both lines low (abort) at T-state {at}")]
    Abort { at: u64 },
    #[error("bad packet: {0}")]
    Packet(#[from] PacketError),
    #[error("gave up after {0} checksum errors")]
    Retries(u32),
    #[error("unexpected {got} while waiting for {expected}")]
    Unexpected { got: String, expected: &'static str },
    #[error("the peer refused: {}", reject_text(*.code))]
    Rejected { code: u8 },
    #[error("bad variable data: {0}")]
    Variable(#[from] tifiles::VarError),
    #[error("the transfer has already finished")]
    Finished,
}

fn reject_text(code: u8) -> String {
    match code {
        REJECT_EXIT => "EXIT (01)".into(),
        REJECT_SKIP => "SKIP (02)".into(),
        REJECT_MEMORY => "out of memory (03)".into(),
        c => format!("code {c:02X}"),
    }
}

impl LinkError {
    /// A timeout of any kind (the peer did not answer or vanished).
    pub fn is_timeout(&self) -> bool {
        matches!(self, LinkError::Timeout { .. })
    }
}
