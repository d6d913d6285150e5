//! One round of `cargo xtask bench-machine`'s machine part (the whole TI-82), in a binary of
//! its own so the bare core's code cannot change this one's layout (and the other way round).
//! Usage: `bench-machine-calc machine [ROUNDS]`; prints `ok SECS T DIGEST TICKS`.

#[path = "../machine_parts.rs"]
mod parts;

fn main() {
    parts::main_with(|part| (part == "machine").then(parts::machine_round))
}
