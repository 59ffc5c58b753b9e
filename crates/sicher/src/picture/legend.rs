//! The remoteness legend: a strip of fixed size drawn to the right of a remoteness map, with
//! one shaded bar per outcome showing exactly the shades its remoteness values get.

use super::canvas::Canvas;
use super::cell::MapCell;
use super::colour::{remoteness_colour, Rgb, BACKGROUND, UNKNOWN};
use super::text::{self, Align};
use crate::error::Result;

/// Width in pixels of the legend strip a remoteness map adds on its right.
pub const LEGEND_WIDTH: u32 = 190;

/// Height in pixels of the legend; a remoteness map shorter than this is padded below with
/// background so the legend fits.
pub const LEGEND_HEIGHT: u32 = 240;

/// Left edges of the unsafe and safe bars, and the bars' size.
const BAR_X: [usize; 2] = [10, 100];
const BAR_WIDTH: usize = 22;
const BAR_TOP: usize = 52;
const BAR_HEIGHT: usize = 150;
const FRAME: Rgb = [90, 90, 90];

/// What the legend has to show about a map's remoteness values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Remoteness {
    /// The longest remoteness on the map: the darkest shade of both families.
    pub longest: u32,
    /// The shortest and longest remoteness of unsafe positions, if any has one.
    pub unsafe_range: Option<(u32, u32)>,
    /// The same for safe positions.
    pub safe_range: Option<(u32, u32)>,
    /// Whether some position has no remoteness (drawn in [`UNKNOWN`]).
    pub unknown: bool,
}

impl Remoteness {
    /// Scans the cells once.
    pub fn of(cells: &[MapCell]) -> Self {
        let mut r = Remoteness::default();
        for cell in cells {
            let Some(value) = cell.remoteness else {
                r.unknown = true;
                continue;
            };
            r.longest = r.longest.max(value);
            let range = if cell.win {
                &mut r.safe_range
            } else {
                &mut r.unsafe_range
            };
            *range = Some(match *range {
                None => (value, value),
                Some((lo, hi)) => (lo.min(value), hi.max(value)),
            });
        }
        r
    }
}

/// Draws the legend as `LEGEND_WIDTH × LEGEND_HEIGHT` RGB8 pixels, row by row.
pub(super) fn draw(remoteness: &Remoteness) -> Result<Vec<u8>> {
    let (w, h) = (LEGEND_WIDTH as usize, LEGEND_HEIGHT as usize);
    let mut pixels = vec![0u8; w * h * 3];
    let mut canvas = Canvas::new(&mut pixels, w, h);
    canvas.fill((0, 0), (w as i64, h as i64), BACKGROUND);
    let ink = [0, 0, 0];
    let at = |x: usize, y: usize| (x as f32, y as f32);
    text::draw(
        &mut canvas,
        "remoteness",
        at(BAR_X[0], 6),
        16.0,
        ink,
        Align::Left,
    )?;
    let families = [
        ("unsafe", false, remoteness.unsafe_range),
        ("safe", true, remoteness.safe_range),
    ];
    for (column, (name, win, range)) in families.into_iter().enumerate() {
        let x = BAR_X[column];
        text::draw(&mut canvas, name, at(x, 30), 14.0, ink, Align::Left)?;
        let Some((lo, hi)) = range else {
            text::draw(&mut canvas, "none", at(x, BAR_TOP), 13.0, ink, Align::Left)?;
            continue;
        };
        draw_bar(&mut canvas, x, win, lo, hi, remoteness.longest);
        let label_x = x + BAR_WIDTH + 6;
        text::draw(
            &mut canvas,
            &lo.to_string(),
            at(label_x, BAR_TOP - 2),
            13.0,
            ink,
            Align::Left,
        )?;
        if hi != lo {
            let y = BAR_TOP + BAR_HEIGHT - 14;
            text::draw(
                &mut canvas,
                &hi.to_string(),
                at(label_x, y),
                13.0,
                ink,
                Align::Left,
            )?;
        }
    }
    if remoteness.unknown {
        let (x, y) = (BAR_X[0] as i64, 216);
        canvas.fill((x, y), (x + 14, y + 14), FRAME);
        canvas.fill((x + 1, y + 1), (x + 13, y + 13), UNKNOWN);
        text::draw(
            &mut canvas,
            "no value",
            at(BAR_X[0] + 20, 215),
            13.0,
            ink,
            Align::Left,
        )?;
    }
    Ok(pixels)
}

/// A framed vertical bar, `lo` at the top to `hi` at the bottom; when `lo == hi` it is one
/// solid shade.
fn draw_bar(canvas: &mut Canvas, x: usize, win: bool, lo: u32, hi: u32, longest: u32) {
    let (x, top) = (x as i64, BAR_TOP as i64);
    let (width, height) = (BAR_WIDTH as i64, BAR_HEIGHT as i64);
    canvas.fill((x - 1, top - 1), (x + width + 1, top + height + 1), FRAME);
    let span = u64::from(hi - lo);
    let steps = (BAR_HEIGHT - 1) as u64;
    for row in 0..BAR_HEIGHT {
        // Rounded to the nearest value so both ends show exactly lo and hi.
        let value = u64::from(lo) + (span * row as u64 + steps / 2) / steps;
        let colour = remoteness_colour(win, value as u32, longest);
        let y = top + row as i64;
        canvas.fill((x, y), (x + width, y + 1), colour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(pixels: &[u8], x: usize, y: usize) -> Rgb {
        let i = (y * LEGEND_WIDTH as usize + x) * 3;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    }

    #[test]
    fn bars_run_from_the_shortest_to_the_longest_shade() {
        let r = Remoteness {
            longest: 9,
            unsafe_range: Some((0, 8)),
            safe_range: Some((1, 9)),
            unknown: true,
        };
        let pixels = draw(&r).unwrap();
        let bottom = BAR_TOP + BAR_HEIGHT - 1;
        assert_eq!(
            pixel(&pixels, BAR_X[0] + 5, BAR_TOP),
            remoteness_colour(false, 0, 9)
        );
        assert_eq!(
            pixel(&pixels, BAR_X[0] + 5, bottom),
            remoteness_colour(false, 8, 9)
        );
        assert_eq!(
            pixel(&pixels, BAR_X[1] + 5, BAR_TOP),
            remoteness_colour(true, 1, 9)
        );
        assert_eq!(
            pixel(&pixels, BAR_X[1] + 5, bottom),
            remoteness_colour(true, 9, 9)
        );
        assert_eq!(pixel(&pixels, BAR_X[0] + 7, 223), UNKNOWN);
        // Text was drawn: the title row holds dark pixels.
        let dark = (0..LEGEND_WIDTH as usize)
            .flat_map(|x| (6..20).map(move |y| (x, y)))
            .filter(|&(x, y)| pixel(&pixels, x, y)[0] < 100)
            .count();
        assert!(dark > 20, "{dark} dark pixels in the title");
    }

    #[test]
    fn scans_ranges_per_outcome() {
        let cells = [
            MapCell {
                win: false,
                remoteness: Some(0),
            },
            MapCell {
                win: true,
                remoteness: Some(7),
            },
            MapCell {
                win: true,
                remoteness: Some(3),
            },
            MapCell {
                win: false,
                remoteness: None,
            },
        ];
        let r = Remoteness::of(&cells);
        assert_eq!(r.longest, 7);
        assert_eq!(r.unsafe_range, Some((0, 0)));
        assert_eq!(r.safe_range, Some((3, 7)));
        assert!(r.unknown);
    }
}
