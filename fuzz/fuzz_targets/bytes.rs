//! The input read a byte at a time, shared by the fuzz targets.

/// Reads the input a byte at a time; zeros once it runs out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    /// A byte taken modulo `n` (0 when `n` is 0).
    #[allow(dead_code)] // not every target uses it
    pub fn small(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.byte() as usize % n
        }
    }

    pub fn left(&self) -> usize {
        self.0.len()
    }
}
