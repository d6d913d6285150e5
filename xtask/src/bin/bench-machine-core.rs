//! One round of `cargo xtask bench-machine`'s bare-core parts (the Z80 core on a flat bus, with
//! the machine's timer or without interrupts), in a binary of its own so the machine's code
//! cannot change this one's layout. Usage: `bench-machine-core timer-core|bare-core [ROUNDS]`;
//! prints `ok SECS T DIGEST TICKS`.

#[path = "../machine_parts.rs"]
mod parts;

fn main() {
    parts::main_with(|part| match part {
        "timer-core" => Some(parts::timer_core_round()),
        "bare-core" => Some(parts::bare_core_round()),
        _ => None,
    })
}
