//! The map with a frame: a title above, the first heap's axis below and the second
//! heap's on the left, each with ticks, numbers and its name. The map itself is the
//! bare picture of [`super::map`], pixel for pixel, moved by [`frame_offset`].

use std::io::Write;
use std::path::Path;

use super::canvas::Canvas;
use super::colour::{Rgb, BACKGROUND};
use super::file::{encode_png, save_atomically};
use super::map::{map_pixels, map_png_size, Map, MapMode};
use super::text::{self, Align};
use crate::atomic_file::Replace;
use crate::error::{Error, Result};

/// Largest side of a framed map, in pixels: it is drawn in memory whole (a bare map is
/// streamed row by row instead, up to [`super::MAX_IMAGE_SIDE`]).
pub const MAX_FRAMED_SIDE: u32 = 8192;

const LEFT: u32 = 64;
const TOP: u32 = 40;
const RIGHT: u32 = 24;
const BOTTOM: u32 = 52;
const TITLE_SIZE: f32 = 16.0;
/// The smallest title size: below it, a long title is cut at the picture's edge.
const SMALLEST_TITLE: f32 = 8.0;
const TICK_SIZE: f32 = 12.0;
const LABEL_SIZE: f32 = 14.0;
const TICK_LENGTH: i64 = 5;
const INK: Rgb = [0, 0, 0];
const RULE: Rgb = [120, 120, 120];

/// Where the bare map's top-left pixel lies in the framed picture: position (a, b) is at
/// pixel `(x + a·S, y + b·S)`.
pub fn frame_offset() -> (u32, u32) {
    (LEFT, TOP)
}

/// The framed picture's size: the bare map's ([`map_png_size`]) and the margins; past
/// [`MAX_FRAMED_SIDE`] it is refused.
pub fn framed_map_size(max: u64, scale: u32, mode: MapMode) -> Result<(u32, u32)> {
    let (width, height) = map_png_size(max, scale, mode)?;
    let (width, height) = (width + LEFT + RIGHT, height + TOP + BOTTOM);
    if width.max(height) > MAX_FRAMED_SIDE {
        return Err(Error::resource(format!(
            "a framed map is drawn whole in memory, at most {MAX_FRAMED_SIDE} pixels a side, not {width} x {height}; lower --max or --scale, or leave out --axes"
        )));
    }
    Ok((width, height))
}

/// A step between ticks of 1, 2 or 5 times a power of ten giving about `wanted` ticks
/// across `0..=max`.
fn tick_step(max: u64, wanted: u64) -> u64 {
    let raw = (max / wanted.max(1)).max(1);
    let mut power = 1u64;
    while power.saturating_mul(10) <= raw {
        power *= 10;
    }
    [1, 2, 5, 10]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= raw)
        .unwrap_or(power * 10)
}

/// Draws the framed map into a buffer: (pixels, width, height).
fn draw(map: &Map, scale: u32, mode: MapMode, title: &str) -> Result<(Vec<u8>, u32, u32)> {
    let (width, height) = framed_map_size(map.max(), scale, mode)?;
    let (bare, bare_width, bare_height) = map_pixels(map, scale, mode)?;
    let (w, h) = (width as usize, height as usize);
    let mut pixels = vec![0u8; w * h * 3];
    pixels
        .chunks_exact_mut(3)
        .for_each(|p| p.copy_from_slice(&BACKGROUND));
    let (left, top) = (LEFT as usize, TOP as usize);
    for (y, row) in bare.chunks_exact(bare_width as usize * 3).enumerate() {
        let at = ((top + y) * w + left) * 3;
        pixels[at..at + row.len()].copy_from_slice(row);
    }
    let mut canvas = Canvas::new(&mut pixels, w, h);
    let side = i64::from((map.max() as u32 + 1) * scale);
    let (x0, y0) = (i64::from(LEFT), i64::from(TOP));
    // A rule around the map, one pixel outside it, so white safe cells meet an edge.
    canvas.fill((x0 - 1, y0 - 1), (x0 + side + 1, y0), RULE);
    canvas.fill((x0 - 1, y0 + side), (x0 + side + 1, y0 + side + 1), RULE);
    canvas.fill((x0 - 1, y0 - 1), (x0, y0 + side + 1), RULE);
    canvas.fill((x0 + side, y0 - 1), (x0 + side + 1, y0 + side + 1), RULE);
    draw_title(&mut canvas, title, width)?;
    // Ticks at the middle of their positions' squares, numbered.
    let wanted = (u64::from(bare_height.min(bare_width)) / 60).clamp(2, 10);
    let step = tick_step(map.max(), wanted);
    let centre = |n: u64| i64::from(scale) * n as i64 + i64::from(scale) / 2;
    let mut n = 0;
    while n <= map.max() {
        let along = centre(n);
        let label = n.to_string();
        // The first heap, across, below the map.
        canvas.fill(
            (x0 + along, y0 + side + 1),
            (x0 + along + 1, y0 + side + 1 + TICK_LENGTH),
            INK,
        );
        text::draw(
            &mut canvas,
            &label,
            ((x0 + along) as f32, (y0 + side + 2 + TICK_LENGTH) as f32),
            TICK_SIZE,
            INK,
            Align::Centre,
        )?;
        // The second heap, down, left of the map.
        canvas.fill(
            (x0 - 1 - TICK_LENGTH, y0 + along),
            (x0 - 1, y0 + along + 1),
            INK,
        );
        let tick_text = text::height(TICK_SIZE)?;
        text::draw(
            &mut canvas,
            &label,
            (
                (x0 - 3 - TICK_LENGTH) as f32,
                (y0 + along) as f32 - tick_text / 2.0,
            ),
            TICK_SIZE,
            INK,
            Align::Right,
        )?;
        n += step;
    }
    text::draw(
        &mut canvas,
        "first heap a (across)",
        (
            (x0 + side / 2) as f32,
            (y0 + side + 24 + TICK_LENGTH) as f32,
        ),
        LABEL_SIZE,
        INK,
        Align::Centre,
    )?;
    text::draw_upwards(
        &mut canvas,
        "second heap b (down)",
        (4.0, (y0 + side / 2) as f32),
        LABEL_SIZE,
        INK,
    )?;
    Ok((pixels, width, height))
}

/// The title in the top margin: one line when it fits, else two (split after its first
/// ": "), at the largest size down to [`SMALLEST_TITLE`] that fits the picture's width.
fn draw_title(canvas: &mut Canvas, title: &str, width: u32) -> Result<()> {
    let room = width.saturating_sub(16) as f32;
    let lines: Vec<&str> = if text::width(title, TITLE_SIZE)? <= room {
        vec![title]
    } else {
        match title.split_once(": ") {
            Some((first, second)) => vec![first, second],
            None => vec![title],
        }
    };
    // Two lines share the margin: each at most half of it, less a little leading.
    let size = if lines.len() == 1 {
        TITLE_SIZE
    } else {
        TITLE_SIZE * 0.8
    };
    let widest = lines
        .iter()
        .map(|line| text::width(line, size))
        .collect::<Result<Vec<f32>>>()?
        .into_iter()
        .fold(0.0, f32::max);
    let size = text::shrunk(size, widest, room, SMALLEST_TITLE);
    let step = text::height(size)? + 1.0;
    let top = if lines.len() == 1 { 10.0 } else { 3.0 };
    for (i, line) in lines.iter().enumerate() {
        text::draw(
            canvas,
            line,
            (8.0, top + step * i as f32),
            size,
            INK,
            Align::Left,
        )?;
    }
    Ok(())
}

/// Writes the framed map (title, axes with ticks and names, the map at
/// [`frame_offset`]) as an RGB8 PNG to `writer`.
pub fn write_framed_map_png(
    map: &Map,
    scale: u32,
    mode: MapMode,
    title: &str,
    mut writer: impl Write,
) -> Result<()> {
    let (pixels, width, height) = draw(map, scale, mode, title)?;
    encode_png(&pixels, (width, height), &mut writer).map_err(|e| Error::io("PNG output", e))
}

/// Writes the framed map as a PNG file at `path`, atomically as [`super::save_map_png`].
pub fn save_framed_map_png(
    map: &Map,
    scale: u32,
    mode: MapMode,
    title: &str,
    path: &Path,
    replace: Replace,
) -> Result<()> {
    let (pixels, width, height) = draw(map, scale, mode, title)?;
    save_atomically(path, replace, |out| {
        encode_png(&pixels, (width, height), out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(tick_step(400, 5), 100);
        assert_eq!(tick_step(60, 5), 20);
        assert_eq!(tick_step(3, 5), 1);
        assert_eq!(tick_step(1000, 8), 200);
    }

    #[test]
    fn the_map_sits_at_the_offset_inside_a_larger_picture() {
        let map = Map::from_fn(20, |a, b| super::super::MapCell {
            win: a != b,
            remoteness: None,
        })
        .unwrap();
        let mut bytes = Vec::new();
        write_framed_map_png(&map, 2, MapMode::Outcome, "nim, normal play", &mut bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(
            (info.width, info.height),
            framed_map_size(20, 2, MapMode::Outcome).unwrap()
        );
        let (x0, y0) = frame_offset();
        let at = |x: u32, y: u32| {
            let i = ((y * info.width + x) * 3) as usize;
            [pixels[i], pixels[i + 1], pixels[i + 2]]
        };
        for a in 0..=20u32 {
            for b in 0..=20u32 {
                let expected = if a == b { [0, 0, 0] } else { [255, 255, 255] };
                assert_eq!(at(x0 + 2 * a, y0 + 2 * b), expected, "({a}, {b})");
            }
        }
        // Ink in the title's band and in both margins: the title and the axes' numbers.
        let inked = |xs: std::ops::Range<u32>, ys: std::ops::Range<u32>| {
            ys.flat_map(|y| xs.clone().map(move |x| (x, y)))
                .any(|(x, y)| at(x, y)[0] < 128)
        };
        assert!(inked(x0..info.width, 0..y0 - 2), "no title");
        assert!(inked(0..x0 - 2, y0..info.height), "no numbers on the left");
        assert!(
            inked(x0..info.width, y0 + 43..info.height),
            "no numbers below"
        );
    }
}
