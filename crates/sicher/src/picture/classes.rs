//! Maps of a partizan game's two-heap positions in the four outcome classes, from plain
//! data: a PNG where pixel (x, y) is the position (x, y) (scaled), and a text grid of the
//! class letters.

use std::io::{self, Write};
use std::path::Path;

use super::colour::Rgb;
use super::file::{encode_png_rows, save_atomically};
use super::map::MAX_IMAGE_SIDE;
use crate::atomic_file::Replace;
use crate::error::{Error, Result};
use crate::value::OutcomeClass;

/// The colour of each class, with its name in words for the legend.
pub const CLASS_COLOURS: [(OutcomeClass, Rgb, &str); 4] = [
    (OutcomeClass::L, [40, 90, 200], "blue"),
    (OutcomeClass::R, [200, 50, 50], "red"),
    (OutcomeClass::N, [255, 255, 255], "white"),
    (OutcomeClass::P, [0, 0, 0], "black"),
];

fn colour(class: OutcomeClass) -> Rgb {
    CLASS_COLOURS
        .iter()
        .find(|(c, _, _)| *c == class)
        .map_or([150, 150, 150], |&(_, rgb, _)| rgb)
}

/// The legend in words, one line per class: `blue: L, Left wins whoever starts`.
pub fn classes_legend() -> Vec<String> {
    CLASS_COLOURS
        .iter()
        .map(|(class, _, name)| format!("{name}: {class}, {}", class.in_words()))
        .collect()
}

/// The side in pixels of a classes map of heaps up to `max` at `scale`, refused past
/// the largest image side.
pub fn classes_png_side(max: u64, scale: u32) -> Result<u32> {
    (max + 1)
        .checked_mul(u64::from(scale))
        .filter(|&side| scale > 0 && side <= u64::from(MAX_IMAGE_SIDE))
        .map(|side| side as u32)
        .ok_or_else(|| {
            Error::input(format!(
                "a map of heaps up to {max} at scale {scale} is wider than {MAX_IMAGE_SIDE} pixels"
            ))
        })
}

/// Writes `classes` (row by row: position (a, b) at `b * (max + 1) + a`) as a PNG.
pub fn save_classes_png(
    classes: &[OutcomeClass],
    max: u64,
    scale: u32,
    path: &Path,
    replace: Replace,
) -> Result<()> {
    let side = classes_png_side(max, scale)?;
    if classes.len() as u64 != (max + 1) * (max + 1) {
        return Err(Error::internal("a classes map of the wrong size"));
    }
    save_atomically(path, replace, |out| encode(classes, max, scale, side, out))
}

fn encode(
    classes: &[OutcomeClass],
    max: u64,
    scale: u32,
    side: u32,
    out: &mut dyn Write,
) -> io::Result<()> {
    encode_png_rows((side, side), out, |stream| {
        let n = (max + 1) as usize;
        let mut row = vec![0u8; side as usize * 3];
        for b in 0..n {
            for (a, pixels) in row.chunks_exact_mut(3 * scale as usize).enumerate() {
                let rgb = colour(classes[b * n + a]);
                pixels
                    .chunks_exact_mut(3)
                    .for_each(|p| p.copy_from_slice(&rgb));
            }
            for _ in 0..scale {
                stream.write_all(&row)?;
            }
        }
        Ok(())
    })
}

/// The class letters as text: one line per second heap `b`, one letter per first heap
/// `a`.
pub fn classes_text(classes: &[OutcomeClass], max: u64) -> String {
    let n = (max + 1) as usize;
    let mut text = String::with_capacity(n * (n + 1));
    for row in classes.chunks(n) {
        text.extend(row.iter().map(|c| c.letter()));
        text.push('\n');
    }
    text
}

/// Colour of the lines marking where the period starts and where its first repetition
/// starts.
const MARK: Rgb = [150, 150, 150];

/// Writes the one-heap outcome sequence as a PNG of `width × height` pixels: heap `n` a
/// vertical band in its class's colour, grey lines at the heaps in `marks` (the
/// pre-period's end and one period later).
pub fn save_sequence_png(
    classes: &[OutcomeClass],
    marks: &[u64],
    (width, height): (u32, u32),
    path: &Path,
    replace: Replace,
) -> Result<()> {
    if classes.is_empty()
        || width == 0
        || height == 0
        || width > MAX_IMAGE_SIDE
        || height > MAX_IMAGE_SIDE
    {
        return Err(Error::input(format!(
            "a plot of {} heaps in {width} x {height} pixels cannot be drawn",
            classes.len()
        )));
    }
    let n = classes.len() as u64;
    let mut row = vec![0u8; width as usize * 3];
    for (x, pixel) in row.chunks_exact_mut(3).enumerate() {
        let heap = x as u64 * n / u64::from(width);
        // A mark is drawn on the pixel column where its heap's band begins.
        let marked = marks
            .iter()
            .any(|&m| m > 0 && m < n && m * u64::from(width) / n == x as u64);
        let rgb = if marked {
            MARK
        } else {
            colour(classes[heap as usize])
        };
        pixel.copy_from_slice(&rgb);
    }
    save_atomically(path, replace, |out| {
        encode_png_rows((width, height), out, |stream| {
            for _ in 0..height {
                stream.write_all(&row)?;
            }
            Ok(())
        })
    })
}
