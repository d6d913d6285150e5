//! One run of a `cargo xtask bench-z80` workload on our core (`ti82-z80`), in a binary of its
//! own so the peer's code cannot change this one's layout (and the other way round).
//! Usage: `bench-z80-ours WORKLOAD [LOOPS]`; prints `ok SECS T INSTRUCTIONS DIGEST SUMMARY`.

#[path = "../z80work.rs"]
mod work;
#[path = "../z80_ours.rs"]
mod z80_ours;

fn main() {
    work::main_with("ours", z80_ours::run)
}
