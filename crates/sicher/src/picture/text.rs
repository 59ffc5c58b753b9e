//! Text: the one font pictures use, embedded so no system font is needed (a DejaVu Sans
//! subset, Latin-1 and a few symbols, 31 kB; see `assets/fonts/README.md`), laid out and
//! rasterised with ab_glyph.
//!
//! sicher lays glyphs out itself rather than through plotters' `ab_glyph` text path, which
//! drops each glyph's left side bearing and so runs letters together ("closes" reads
//! "doses").

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};

use super::canvas::Canvas;
use super::colour::Rgb;
use crate::error::{Error, Result};

const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// The licence of the embedded font (Bitstream Vera and Arev font licences), which must
/// travel with every copy of the binary.
pub const FONT_LICENCE: &str = include_str!("../../assets/fonts/LICENSE-DejaVu.txt");

/// Where the anchor point lies along the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Align {
    Left,
    Centre,
    Right,
}

fn font() -> Result<&'static FontRef<'static>> {
    static FONT_REF: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT_REF
        .get_or_init(|| FontRef::try_from_slice(FONT).ok())
        .as_ref()
        .ok_or_else(|| Error::internal("the embedded font could not be read"))
}

/// The advance width of `text` at `size` pixels per em.
pub(super) fn width(text: &str, size: f32) -> Result<f32> {
    let mut end = 0.0;
    lay_out(text, size, |_, caret, _| end = caret)?;
    Ok(end)
}

/// `size`, or less so that text `width` wide at `size` fits in `room`; never below
/// `smallest` (a longer line is clipped at the picture's edge).
pub(super) fn shrunk(size: f32, width: f32, room: f32, smallest: f32) -> f32 {
    if width <= room {
        size
    } else {
        (size * room / width).max(smallest)
    }
}

/// From the top of the tallest letter to the bottom of the deepest, at `size`.
pub(super) fn height(size: f32) -> Result<f32> {
    let scaled = font()?.as_scaled(PxScale::from(size));
    Ok(scaled.ascent() - scaled.descent())
}

/// Draws `text` with its top at `top` and its anchor at `x`.
pub(super) fn draw(
    canvas: &mut Canvas,
    text: &str,
    (x, top): (f32, f32),
    size: f32,
    colour: Rgb,
    align: Align,
) -> Result<()> {
    // Whole pixels here; ab_glyph has already placed each glyph at its fractional caret.
    let left = (x - offset(text, size, align)?).round() as i64;
    let top = top.round() as i64;
    rasterise(text, size, |vx, vy, coverage| {
        canvas.blend(left + vx, top + vy, colour, coverage);
    })
}

/// Draws `text` turned a quarter left, reading upwards, with the top of its letters at
/// `left` and its middle at height `centre`.
pub(super) fn draw_upwards(
    canvas: &mut Canvas,
    text: &str,
    (left, centre): (f32, f32),
    size: f32,
    colour: Rgb,
) -> Result<()> {
    let bottom = (centre + width(text, size)? / 2.0).round() as i64;
    let left = left.round() as i64;
    rasterise(text, size, |vx, vy, coverage| {
        canvas.blend(left + vy, bottom - vx, colour, coverage);
    })
}

fn offset(text: &str, size: f32, align: Align) -> Result<f32> {
    Ok(match align {
        Align::Left => 0.0,
        Align::Centre => width(text, size)? / 2.0,
        Align::Right => width(text, size)?,
    })
}

/// Visits the glyphs of `text` in order: each glyph's id, the caret after it, and its
/// caret before it (kerning included).
fn lay_out(
    text: &str,
    size: f32,
    mut visit: impl FnMut(ab_glyph::GlyphId, f32, f32),
) -> Result<()> {
    let scaled = font()?.as_scaled(PxScale::from(size));
    let mut caret = 0.0;
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(previous) = previous {
            caret += scaled.kern(previous, id);
        }
        let start = caret;
        caret += scaled.h_advance(id);
        visit(id, caret, start);
        previous = Some(id);
    }
    Ok(())
}

/// Coverage of every pixel of `text` laid out with its top-left corner at (0, 0), as
/// (x, y, coverage in 0..=1); coordinates may be slightly negative where a glyph overhangs.
fn rasterise(text: &str, size: f32, mut put: impl FnMut(i64, i64, f32)) -> Result<()> {
    let font = font()?;
    let ascent = font.as_scaled(PxScale::from(size)).ascent();
    lay_out(text, size, |id, _, start| {
        let glyph = id.with_scale_and_position(size, point(start, ascent));
        if let Some(outlined) = font.outline_glyph(glyph) {
            let bounds = outlined.px_bounds();
            outlined.draw(|x, y, coverage| {
                // px_bounds are whole pixels, so these are exact.
                put(
                    bounds.min.x as i64 + i64::from(x),
                    bounds.min.y as i64 + i64::from(y),
                    coverage,
                );
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_font_reads_and_licence_is_present() {
        assert!(font().is_ok());
        assert!(FONT_LICENCE.contains("Bitstream Vera"));
        assert!(FONT_LICENCE.contains("Tavmjong Bah"));
    }

    #[test]
    fn text_is_drawn_where_asked() {
        let (w, h) = (120, 40);
        let mut pixels = vec![255u8; w * h * 3];
        let mut canvas = Canvas::new(&mut pixels, w, h);
        let size = 16.0;
        let advance = width("closes", size).unwrap();
        assert!(advance > 30.0 && advance < 70.0, "{advance}");
        draw(
            &mut canvas,
            "closes",
            (60.0, 10.0),
            size,
            [0, 0, 0],
            Align::Centre,
        )
        .unwrap();
        let dark: Vec<(usize, usize)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| pixels[(y * w + x) * 3] < 128)
            .collect();
        let min_x = dark.iter().map(|p| p.0).min().unwrap() as f32;
        let max_x = dark.iter().map(|p| p.0).max().unwrap() as f32;
        let min_y = dark.iter().map(|p| p.1).min().unwrap();
        let max_y = dark.iter().map(|p| p.1).max().unwrap() as f32;
        // Centred on x = 60 within a pixel or two, and inside the line's height.
        assert!(
            ((min_x + max_x) / 2.0 - 60.0).abs() <= 2.0,
            "{min_x}..{max_x}"
        );
        assert!(min_y >= 10 && max_y <= 10.0 + height(size).unwrap());
    }
}
