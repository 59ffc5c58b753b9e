//! Positions from text, one per line: whole blocks are read and lines parsed in place, so
//! a batch of millions of positions is bound by answering, not by reading.

use std::io::Read;

use super::{Heap, Position};
use crate::error::{Error, Result};

/// Calls `each(heaps)` for every line of `input` (heaps ascending, zeros dropped), in
/// order; an error (in parsing or from `each`) stops the batch and names the line.
pub fn for_each_line(
    mut input: impl Read,
    mut each: impl FnMut(&[Heap]) -> Result<()>,
) -> Result<()> {
    // Filled up to `filled`; zeroed once, not per read: a producer that writes a line
    // at a time makes every read a short one.
    let mut block: Vec<u8> = vec![0; 1 << 20];
    let mut filled = 0;
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
        // What was kept from earlier reads holds no newline: only the new bytes are searched.
        let searched = filled;
        filled += read;
        finished = read == 0;
        // Complete lines only, unless the input has ended.
        let end = if finished {
            filled
        } else {
            match block[searched..filled].iter().rposition(|&b| b == b'\n') {
                Some(at) => searched + at + 1,
                None => continue,
            }
        };
        let mut lines = block[..end].split(|&b| b == b'\n');
        if block[..end].last() == Some(&b'\n') || end == 0 {
            lines.next_back();
        }
        for line in lines {
            number += 1;
            parse_heaps(line, &mut heaps).map_err(|e| at_line(number, e))?;
            each(&heaps).map_err(|e| at_line(number, e))?;
        }
        block.copy_within(end..filled, 0);
        filled -= end;
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
}
