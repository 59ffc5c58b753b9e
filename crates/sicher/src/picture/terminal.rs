//! The map in a terminal: one character column per heap size a, and Unicode half blocks to
//! put two heap sizes b in each character row (the upper half is row b, the lower half row
//! b + 1). Unsafe positions are ink (`▀`, `▄`, `█`), safe ones blank, so the text reads the
//! same in any colour scheme and through a pipe.
//!
//! Layout, top to bottom: a line of column labels (every 10 heap sizes), the map rows with a
//! row label every 10 heap sizes (10 is even, so a labelled size always sits in an upper
//! half), then a key line and, when the map did not fit, a line saying what is shown.
//! No line is longer than the width given, nor are there more lines than the height given;
//! trailing blanks are trimmed.

use std::fmt::Write as _;

use super::map::Map;
use crate::error::{Error, Result};

/// Distance between axis labels, in heap sizes.
const LABEL_EVERY: u64 = 10;

const KEY: &str = "█ ▀ ▄ unsafe, blank safe; across: heap a, down: heap b (two per line)";

/// Renders `map` for a terminal of `cols` columns and `rows` lines, cropping to the largest
/// top-left corner that fits and saying so. Too small a terminal to show one position with
/// its labels is an error.
pub fn render_terminal(map: &Map, cols: usize, rows: usize) -> Result<String> {
    let side = map.max().saturating_add(1);
    let full_lines = side.div_ceil(2);
    let full_margin = margin(map.max());
    let fits = full_lines.saturating_add(2) <= rows as u64
        && (full_margin as u64).saturating_add(side) <= cols as u64;
    let (shown_b, margin, shown_a) = if fits {
        (side, full_margin, side)
    } else {
        let lines = rows.saturating_sub(3) as u64;
        let shown_b = side.min(lines * 2);
        let margin = margin(shown_b.saturating_sub(1));
        let shown_a = side.min(cols.saturating_sub(margin) as u64);
        (shown_b, margin, shown_a)
    };
    if shown_b == 0 || shown_a == 0 {
        return Err(Error::input(format!(
            "a terminal of {cols}x{rows} is too small to draw the map"
        )));
    }
    // Both are at most the terminal's size now, so they fit in usize.
    let (shown_a, shown_b) = (shown_a as usize, shown_b as usize);

    let mut out = String::new();
    // The widest line is the margin, the map and a label hanging past its last column;
    // never `cols` itself, which may be anything.
    let mut header = vec![' '; cols.min(margin + shown_a + 24)];
    for a in (0..shown_a).step_by(LABEL_EVERY as usize) {
        let label = a.to_string();
        let start = margin + a;
        if start + label.len() <= header.len() {
            header[start..start + label.len()]
                .iter_mut()
                .zip(label.chars())
                .for_each(|(slot, c)| *slot = c);
        }
    }
    push_line(&mut out, &header.iter().collect::<String>());

    let unsafe_at = |a: usize, b: usize| map.cell(a as u64, b as u64).is_some_and(|cell| !cell.win);
    let mut line = String::with_capacity(margin + shown_a * 3);
    for upper in (0..shown_b).step_by(2) {
        line.clear();
        if (upper as u64).is_multiple_of(LABEL_EVERY) {
            let _ = write!(line, "{upper:>width$} ", width = margin - 1);
        } else {
            line.extend(std::iter::repeat_n(' ', margin));
        }
        let has_lower = upper + 1 < shown_b;
        for a in 0..shown_a {
            let top = unsafe_at(a, upper);
            let bottom = has_lower && unsafe_at(a, upper + 1);
            line.push(match (top, bottom) {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => ' ',
            });
        }
        push_line(&mut out, &line);
    }

    push_line(&mut out, &truncate(KEY, cols));
    if !fits {
        let note = format!(
            "cropped to fit: a 0..={}, b 0..={} of 0..={}",
            shown_a - 1,
            shown_b - 1,
            map.max()
        );
        push_line(&mut out, &truncate(&note, cols));
    }
    Ok(out)
}

/// Columns left of the map: the widest row label up to `last_b`, and a space.
fn margin(last_b: u64) -> usize {
    let widest = last_b - last_b % LABEL_EVERY;
    widest.to_string().len() + 1
}

fn truncate(text: &str, cols: usize) -> String {
    text.chars().take(cols).collect()
}

fn push_line(out: &mut String, line: &str) {
    out.push_str(line.trim_end());
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::MapCell;

    fn nim(max: u64) -> Map {
        Map::from_fn(max, |a, b| MapCell {
            win: a != b,
            remoteness: None,
        })
        .unwrap()
    }

    #[test]
    fn a_tiny_map_in_full() {
        let expected = "  0\n\
                        0 ▀▄\n  \x20\x20▀\n"
            .to_string()
            + KEY
            + "\n";
        assert_eq!(render_terminal(&nim(2), 80, 24).unwrap(), expected);
    }

    #[test]
    fn crops_to_the_terminal_and_says_so() {
        let text = render_terminal(&nim(100), 50, 10).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10);
        assert!(lines.iter().all(|l| l.chars().count() <= 50));
        assert_eq!(lines[0], "   0         10        20        30        40");
        assert!(lines[6].starts_with("10 "));
        assert_eq!(lines[9], "cropped to fit: a 0..=46, b 0..=13 of 0..=100");
        // The diagonal: row b = 2k has its unsafe cell at column 3 + 2k.
        assert_eq!(lines[1].chars().nth(3), Some('▀'));
        assert_eq!(lines[1].chars().nth(4), Some('▄'));
    }

    #[test]
    fn refuses_a_terminal_too_small_and_never_panics() {
        assert!(render_terminal(&nim(5), 80, 3).is_err());
        assert!(render_terminal(&nim(5), 2, 24).is_err());
        assert!(render_terminal(&nim(5), 0, 0).is_err());
        for cols in 0..12 {
            for rows in 0..8 {
                if let Ok(text) = render_terminal(&nim(12), cols, rows) {
                    assert!(text.lines().count() <= rows);
                    assert!(text.lines().all(|l| l.chars().count() <= cols));
                }
            }
        }
    }
}
