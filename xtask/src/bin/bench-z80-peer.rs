//! One run of a `cargo xtask bench-z80` workload on the peer core (the published `z80` crate,
//! v2, MIT), in a binary of its own so our core's code cannot change this one's layout.
//! Usage: `bench-z80-peer WORKLOAD [LOOPS]`; prints `ok SECS T INSTRUCTIONS DIGEST SUMMARY`.

#[path = "../z80work.rs"]
mod work;
#[path = "../z80_peer.rs"]
mod z80_peer;

fn main() {
    work::main_with("peer", z80_peer::run)
}
