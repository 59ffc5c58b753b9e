//! Positions from text, one per line: whole blocks are read and lines parsed in place, so
//! a batch of millions of positions is bound by answering, not by reading.

use std::io::Read;

use super::{Heap, Position};
use crate::error::{Error, Result};

/// Calls `each(heaps)` for every line of `input` (heaps ascending, zeros dropped), in
/// order; an error (in parsing or from `each`) stops the batch and names the line. Lines
/// end with `\n`, `\r\n` or a lone `\r` (old Mac text), so no two lines run together.
pub fn for_each_line(
    mut input: impl Read,
    mut each: impl FnMut(&[Heap]) -> Result<()>,
) -> Result<()> {
    // Filled up to `filled`; zeroed once, not per read: a producer that writes a line
    // at a time makes every read a short one.
    let mut block: Vec<u8> = vec![0; 1 << 20];
    let mut filled = 0;
    // Bytes before `scanned` hold no line end: a long line read in many pieces is
    // searched once.
    let mut scanned = 0;
    let mut heaps = Vec::new();
    let mut number = 0usize;
    let mut finished = false;
    // Whatever went wrong on a line names it (I/O errors name their file instead).
    let at_line = |number: usize, error: Error| error.context(format_args!("stdin line {number}"));
    while !finished {
        if filled == block.len() {
            block.resize(block.len() * 2, 0);
        }
        let read = loop {
            match input.read(&mut block[filled..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other.map_err(|e| Error::io("<stdin>", e))?,
            }
        };
        filled += read;
        finished = read == 0;
        let mut line_start = 0;
        let mut at = scanned;
        while let Some(found) = block[at..filled]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        {
            let end = at + found;
            // `\r` then `\n` is one line end; a `\r` last in the block waits for the
            // next read to say which it is (unless the input has ended).
            let ending = match (block[end], block.get(end + 1).filter(|_| end + 1 < filled)) {
                (b'\r', Some(b'\n')) => 2,
                (b'\r', None) if !finished => break,
                _ => 1,
            };
            number += 1;
            parse_heaps(&block[line_start..end], &mut heaps).map_err(|e| at_line(number, e))?;
            each(&heaps).map_err(|e| at_line(number, e))?;
            at = end + ending;
            line_start = at;
        }
        if finished && line_start < filled {
            // The last line, without a line end.
            number += 1;
            parse_heaps(&block[line_start..filled], &mut heaps).map_err(|e| at_line(number, e))?;
            each(&heaps).map_err(|e| at_line(number, e))?;
            line_start = filled;
        }
        // What is left of the block is the start of a line; a `\r` waiting for its
        // partner is searched again.
        scanned = match block[line_start..filled].last() {
            Some(b'\r') => filled - line_start - 1,
            _ => filled - line_start,
        };
        block.copy_within(line_start..filled, 0);
        filled -= line_start;
    }
    Ok(())
}

/// Parses one line of heap sizes into ascending zero-free heaps, without allocating in
/// the common case; anything unusual gets the standard parser's message.
fn parse_heaps(line: &[u8], heaps: &mut Vec<Heap>) -> Result<()> {
    heaps.clear();
    let mut current: Option<Heap> = None;
    for &byte in line {
        match byte {
            b'0'..=b'9' => {
                let digit = (byte - b'0') as Heap;
                let next = current
                    .unwrap_or(0)
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(digit));
                match next {
                    Some(v) => current = Some(v),
                    None => return slow_parse(line, heaps),
                }
            }
            b' ' | b',' | b'\t' | b'\r' | b'\n' => {
                if let Some(v) = current.take() {
                    if v > 0 {
                        heaps.push(v);
                    }
                }
            }
            _ => return slow_parse(line, heaps),
        }
    }
    if let Some(v) = current.filter(|&v| v > 0) {
        heaps.push(v);
    }
    heaps.sort_unstable();
    Ok(())
}

fn slow_parse(line: &[u8], heaps: &mut Vec<Heap>) -> Result<()> {
    let text = String::from_utf8_lossy(line);
    *heaps = Position::parse_line(&text)?.into_heaps();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_parser_matches_the_standard_one() {
        let mut heaps = Vec::new();
        for line in [
            "3 4 5\n",
            "5,0 3\r\n",
            "",
            "\n",
            "12 x",
            "1 -2",
            "99999999999999999999999",
        ] {
            let fast = parse_heaps(line.as_bytes(), &mut heaps).map(|()| heaps.clone());
            let slow = Position::parse_line(line.trim_end()).map(Position::into_heaps);
            match (fast, slow) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{line:?}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("{line:?}: {a:?} vs {b:?}"),
            }
        }
    }

    #[test]
    fn lines_are_numbered_and_the_batch_stops_at_the_first_bad_one() {
        let mut seen = Vec::new();
        let err = for_each_line(&b"1 2\n\n3 x\n4\n"[..], |heaps| {
            seen.push(heaps.to_vec());
            Ok(())
        })
        .unwrap_err();
        assert_eq!(seen, vec![vec![1, 2], vec![]]);
        assert!(err.to_string().starts_with("stdin line 3: "), "{err}");
    }

    /// Reads `text` in pieces of `piece` bytes, as a pipe may deliver it.
    struct Pieces<'a> {
        text: &'a [u8],
        piece: usize,
    }

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.piece.min(buf.len()).min(self.text.len());
            buf[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line_and_crlf_is_one_line_end() {
        for (text, expected) in [
            ("1 2\r3 4\r", vec![vec![1, 2], vec![3, 4]]),
            ("1 2\r\n3 4\r\n", vec![vec![1, 2], vec![3, 4]]),
            ("1 2\r\r\n3", vec![vec![1, 2], vec![], vec![3]]),
            ("5\n\r6", vec![vec![5], vec![], vec![6]]),
            ("7\r", vec![vec![7]]),
            ("", vec![]),
            ("\n", vec![vec![]]),
        ] {
            for piece in [1, 2, 3, 64] {
                let mut seen = Vec::new();
                let input = Pieces {
                    text: text.as_bytes(),
                    piece,
                };
                for_each_line(input, |heaps| {
                    seen.push(heaps.to_vec());
                    Ok(())
                })
                .unwrap();
                assert_eq!(seen, expected, "{text:?} in pieces of {piece}");
            }
        }
    }
}
