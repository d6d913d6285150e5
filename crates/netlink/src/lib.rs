//! The byte-level network link cable (docs/link.md, "The network cable").
//!
//! Two processes cannot share a wire-exact cable (every few hundred T-states of emulated time
//! would cost a network round trip). Here each process plugs a local [`ByteEndpoint`] into its
//! calculator's own cable; the endpoint does the bit handshakes with TI-82 timing and hands
//! whole TI packets to a network thread, which carries them to the other process over TCP
//! (the [`wire`] protocol: versioned hello, a PAKE keyed by the session code, sealed framed
//! messages, heartbeats).
//!
//! - [`endpoint`]: the virtual far calculator on our cable, and readiness (expiry, cancel).
//! - [`wire`]: the messages between processes.
//! - [`secure`]: the PAKE handshake keyed by the session code, and the sealed channel.
//! - [`net`]: the network thread (listen, connect, relay client, latency injection, RTT).
//! - [`cable`]: [`NetCable`], the calculator, its endpoint and the network together, paced.
//! - [`relay`]: `ti82 relay`, which pairs two clients by room code.

pub mod cable;
pub mod endpoint;
pub mod net;
pub mod relay;
pub mod secure;
pub mod wire;

pub use cable::{ClockReport, NetCable, Pace};
pub use endpoint::{ByteEndpoint, EndpointStats, Outgoing};
pub use net::{parse_addr, Delay, Event, LinkState, Mode, NetConfig, NetError, NetHandle};
pub use relay::Relay;
