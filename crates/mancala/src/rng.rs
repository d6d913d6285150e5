//! A small seeded generator: the engine's easy levels and the tests' random games use it, so every
//! run with the same seed plays the same moves.

/// xorshift64* (Marsaglia's xorshift with a multiplicative output step). Not cryptographic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a seed (any value; zero is replaced by a fixed non-zero constant).
    pub fn new(seed: u64) -> XorShift {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
        }
    }
}
