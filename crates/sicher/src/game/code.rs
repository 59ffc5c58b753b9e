//! Octal and hexadecimal take-and-break codes such as `0.77` (Kayles) or `0.[3]` (Nim).
//!
//! Digit `d_t` of the code says what may be left of one heap after removing `t` tokens
//! from it: bit 1 nothing, bit 2 one heap, bit 4 two heaps, bit 8 three heaps (hexadecimal
//! only). `d_0` removes nothing, so only its splitting bits (4 and 8) mean anything.

use std::fmt;

use crate::error::{quote, Error, Result};

/// Whether a code is written in octal (bits 1, 2, 4) or hexadecimal (bits 1, 2, 4, 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Radix {
    /// Octal digits 0-7.
    Octal,
    /// Hexadecimal digits 0-F.
    Hex,
}

/// A parsed take-and-break code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeBreakCode {
    radix: Radix,
    /// `digits[t]` is `d_t`; `digits[0]` is the digit before the point.
    digits: Vec<u8>,
    /// When set, the last digit repeats for every larger `t`.
    repeats: bool,
}

impl TakeBreakCode {
    /// Parses a code such as `0.77`, `4.07`, `0.[3]` or (hexadecimal) `0.8F`.
    pub fn parse(text: &str, radix: Radix) -> Result<Self> {
        let kind = match radix {
            Radix::Octal => "octal",
            Radix::Hex => "hexadecimal",
        };
        let bad = |why: String| Error::input(format!("{kind} code {}: {why}", quote(text)));
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(Error::input(format!(
                "empty {kind} code (expected something like `0.77`)"
            )));
        }
        let (head, tail) = match trimmed.split_once('.') {
            Some((head, tail)) => (if head.is_empty() { "0" } else { head }, tail),
            None => return Err(bad("expected a point, as in `0.77`".into())),
        };
        let mut digits = Vec::with_capacity(tail.len() + 1);
        if head.chars().count() != 1 {
            return Err(bad("expected exactly one digit before the point".into()));
        }
        let digit_value = |c: char, column: usize| -> Result<u8> {
            let value = c.to_digit(16).map(|d| d as u8);
            match (value, radix) {
                (Some(d), Radix::Hex) => Ok(d),
                (Some(d), Radix::Octal) if d < 8 => Ok(d),
                (Some(_), Radix::Octal) => Err(bad(format!(
                    "`{c}` at character {column} is not an octal digit (0-7); write hexadecimal codes as `hex:...`"
                ))),
                (None, _) => Err(bad(format!(
                    "{} at character {column} is not a digit",
                    quote(&c.to_string())
                ))),
            }
        };
        let d0 = digit_value(head.chars().next().unwrap_or('0'), 1)?;
        if d0 & 3 != 0 {
            return Err(bad(format!(
                "the digit before the point is {d0:X}, but removing nothing can only split a heap (use 0, 4, 8 or C)"
            )));
        }
        digits.push(d0);
        let mut repeats = false;
        let mut chars = tail.char_indices().peekable();
        let offset = head.len() + 2;
        while let Some((i, c)) = chars.next() {
            if c == '[' {
                let inner: String = chars
                    .by_ref()
                    .take_while(|&(_, c)| c != ']')
                    .map(|(_, c)| c)
                    .collect();
                let closed = tail[i + 1..].contains(']');
                if !closed {
                    return Err(bad("`[` is never closed".into()));
                }
                if inner.chars().count() != 1 {
                    return Err(bad(
                        "brackets hold exactly one repeating digit, as in `0.[3]`".into(),
                    ));
                }
                let c = inner.chars().next().unwrap_or('0');
                digits.push(digit_value(c, offset + i + 1)?);
                repeats = true;
                if chars.peek().is_some() {
                    return Err(bad("the repeating digit in brackets must come last".into()));
                }
                break;
            }
            digits.push(digit_value(c, offset + i)?);
        }
        if digits.len() == 1 {
            return Err(bad("no digits after the point".into()));
        }
        if repeats && digits.last() == Some(&0) {
            // A repeating zero is just a finite code.
            repeats = false;
        }
        // One canonical spelling per game: `0.770` is `0.77`, `0.3[3]` is `0.[3]`; `d_1`
        // always stays, so the code prints as something that parses again (`4.0`).
        while !repeats && digits.len() > 2 && digits.last() == Some(&0) {
            digits.pop();
        }
        while repeats && digits.len() > 2 && digits[digits.len() - 2] == digits[digits.len() - 1] {
            digits.pop();
        }
        Ok(TakeBreakCode {
            radix,
            digits,
            repeats,
        })
    }

    /// The code's radix.
    pub fn radix(&self) -> Radix {
        self.radix
    }

    /// `d_t`: what may be left after removing `t` tokens from one heap.
    #[inline]
    pub fn digit(&self, t: u64) -> u8 {
        match self.digits.get(t as usize) {
            Some(&d) if t < self.digits.len() as u64 => d,
            _ if self.repeats => *self.digits.last().unwrap_or(&0),
            _ => 0,
        }
    }

    /// Largest `t` with a non-zero digit, or `None` when the code repeats forever.
    pub fn last_nonzero(&self) -> Option<u64> {
        if self.repeats {
            None
        } else {
            self.digits
                .iter()
                .rposition(|&d| d != 0)
                .map(|t| t as u64)
                .or(Some(0))
        }
    }

    /// True when the code repeats its last digit forever.
    pub fn repeats(&self) -> bool {
        self.repeats
    }

    /// Number of explicit digits including `d_0`.
    pub fn explicit_len(&self) -> u64 {
        self.digits.len() as u64
    }

    /// Most heaps a move may leave where it took one: 3 with a bit 8 anywhere, 2 with a
    /// bit 4, else 1 (the explicit digits include the repeating one).
    pub fn max_parts(&self) -> u32 {
        let bits = self.digits.iter().fold(0, |acc, &d| acc | d);
        if bits & 8 != 0 {
            3
        } else if bits & 4 != 0 {
            2
        } else {
            1
        }
    }

    /// True when `d_0` splits a heap without removing a token.
    pub fn splits_without_taking(&self) -> bool {
        self.digits[0] & 0b1100 != 0
    }
}

impl fmt::Display for TakeBreakCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}.", self.digits[0])?;
        let n = self.digits.len();
        for (t, d) in self.digits.iter().enumerate().skip(1) {
            if self.repeats && t + 1 == n {
                write!(f, "[{d:X}]")?;
            } else {
                write!(f, "{d:X}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kayles_and_nim() {
        let kayles = TakeBreakCode::parse("0.77", Radix::Octal).unwrap();
        assert_eq!(
            (
                kayles.digit(0),
                kayles.digit(1),
                kayles.digit(2),
                kayles.digit(3)
            ),
            (0, 7, 7, 0)
        );
        assert_eq!(kayles.last_nonzero(), Some(2));
        let nim = TakeBreakCode::parse("0.[3]", Radix::Octal).unwrap();
        assert_eq!(nim.digit(1_000_000), 3);
        assert_eq!(nim.last_nonzero(), None);
        assert_eq!(nim.to_string(), "0.[3]");
        assert_eq!(
            TakeBreakCode::parse("4.07", Radix::Octal).unwrap().digit(0),
            4
        );
    }

    #[test]
    fn rejects_malformed_codes() {
        for bad in [
            "", "0.78", "0.", "077", "0.[3", "0.[33]", "0.[3]7", "1.7", "0.x",
        ] {
            assert!(
                TakeBreakCode::parse(bad, Radix::Octal).is_err(),
                "{bad} accepted"
            );
        }
        assert!(TakeBreakCode::parse("0.8F", Radix::Hex).is_ok());
    }

    #[test]
    fn prints_one_canonical_spelling_that_parses_again() {
        for (text, canonical) in [
            ("4.0", "4.0"),
            ("0.0", "0.0"),
            ("0.770", "0.77"),
            ("0.3[3]", "0.[3]"),
            ("0.33[3]", "0.[3]"),
            ("0.7[0]", "0.7"),
            ("0.13[7]", "0.13[7]"),
        ] {
            let code = TakeBreakCode::parse(text, Radix::Octal).unwrap();
            assert_eq!(code.to_string(), canonical, "{text}");
            assert_eq!(TakeBreakCode::parse(canonical, Radix::Octal).unwrap(), code);
        }
    }
}
