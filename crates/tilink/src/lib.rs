//! The TI-82 link protocol on emulated wires.
//!
//! Layers, bottom up (spec references are to `../shared/spec/ti82-software.md` §1–2 and
//! `ti82-hardware.md` §7; the decisions on uncertain points are in `docs/link.md`):
//!
//! 1. [`packet`]: machine IDs, commands, checksums, the streaming [`Parser`].
//! 2. [`transport`]: [`ByteTransport`], the four-phase bit handshake with timeouts, as a
//!    non-blocking state machine polled with a [`machine::LinkEndpoint`] and the current
//!    emulated time; every poll says when to poll next ([`Wake`]).
//! 3. [`link`]: [`PacketLink`], whole packets, reply timeouts, ERR/resend.
//! 4. [`seq`]: the transfer sequences ([`SendVars`], [`ReceiveVars`], [`Requester`],
//!    [`Holder`], [`Screenshot`]).
//! 5. [`drive`]: running them on wires ([`DirectCable`], [`VirtualCable`] for a virtual
//!    computer on a [`machine::Calc`]'s cable).
//! 6. [`log`]: line changes → bytes → packets → text.
//!
//! Nothing here reads the wall clock or blocks; time is the T-state clock of the side that
//! polls.

//! A `Get(L1)` between a requester and an idle holder, over two ports joined with a 30 T-state
//! wire delay:
//!
//! ```
//! use tifiles::{VarData, VarName, VarType, Variable, TiFloat};
//! use tilink::{DirectCable, Holder, HolderPoll, Progress, Requester, Timing, Wake, MID_TI82};
//!
//! let l1 = Variable {
//!     name: VarName::list(1).unwrap(),
//!     data: VarData::List(vec![TiFloat::from(4), TiFloat::from(0)]),
//! };
//! let mut held = vec![l1.clone()]; // the holder's VarSource
//! let mut req = Requester::new(MID_TI82, Timing::default(), VarType::List, l1.name);
//! let mut holder = Holder::new(MID_TI82, Timing::default());
//! let mut got = None;
//! DirectCable::new(30).run(
//!     u64::MAX / 2,
//!     |ep| match req.poll(ep) {
//!         Progress::Pending(w) => w,
//!         Progress::Done(r) => {
//!             got.get_or_insert(r);
//!             Wake::NEVER
//!         }
//!     },
//!     |ep| match holder.poll(ep, &mut held) {
//!         HolderPoll::Pending(w) => w,
//!         HolderPoll::Event(_) => Wake::at(ep.now + 1),
//!     },
//! );
//! assert_eq!(got.unwrap().unwrap(), l1);
//! ```

#![forbid(unsafe_code)]

pub mod drive;
pub mod error;
pub mod link;
pub mod log;
pub mod packet;
pub mod seq;
pub mod state;
pub mod transport;

pub use drive::{DirectCable, VirtualCable};
pub use error::{LinkError, Waiting};
pub use link::{LinkEvent, PacketLink};
pub use packet::{Command, Packet, PacketError, Parser, MID_CBL, MID_COMPUTER, MID_TI82};
pub use seq::{
    Decision, Holder, HolderEvent, HolderPoll, Outgoing, Progress, RamVars, ReceiveVars, Received,
    Requester, Screenshot, SendReport, SendVars, VarSource,
};
pub use transport::{ByteEvent, ByteRecord, ByteTransport, Dir, TimedPort, Timing, Wake};
