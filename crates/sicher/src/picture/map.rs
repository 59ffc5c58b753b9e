//! The map of two-heap positions (a, b), 0 ≤ a, b ≤ N, as a PNG: one S×S square of pixels
//! per position, streamed row by row so memory does not grow with the scale.

use std::io::{self, Write};
use std::path::Path;

use super::cell::MapCell;
use super::colour::{remoteness_colour, Rgb, BACKGROUND, SAFE, UNKNOWN, UNSAFE};
use super::file::{encode_png_rows, save_atomically};
use super::legend::{self, Remoteness, LEGEND_HEIGHT, LEGEND_WIDTH};
use crate::atomic_file::Replace;
use crate::error::{Error, Result};

/// The largest width or height of a map image, in pixels: larger PNGs are impractical to
/// write and most viewers refuse them.
pub const MAX_IMAGE_SIDE: u32 = 1 << 16;

/// Memory the PNG encoder and the output buffer take whatever the image (deflate state,
/// chunk and write buffers), as counted by [`map_bytes`].
const ENCODER_BYTES: u64 = 1 << 20;

/// How a map is coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MapMode {
    /// Unsafe black (0, 0, 0), safe white (255, 255, 255); the image is exactly the map.
    #[default]
    Outcome,
    /// Safe in oranges, unsafe in blues, darker for longer remoteness, positions without a
    /// remoteness grey; a legend strip is added to the right (see the module doc).
    Remoteness,
}

/// The outcomes of every two-heap position (a, b) with 0 ≤ a, b ≤ N, row by row: the cell
/// of (a, b) is at index b·(N+1) + a, so row b of the map is drawn as pixel row b.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    max: u64,
    cells: Vec<MapCell>,
}

impl Map {
    /// Wraps `(N+1)²` cells, row by row; any other count is refused.
    pub fn new(max: u64, cells: Vec<MapCell>) -> Result<Self> {
        let expected = cell_count(max)?;
        if cells.len() as u64 != expected {
            return Err(Error::input(format!(
                "a map of 0..={max} needs {expected} cells, not {}",
                cells.len()
            )));
        }
        Ok(Map { max, cells })
    }

    /// Builds the map by asking `cell(a, b)` for every position, row by row (b outer). The
    /// allocation is checked, so a map that cannot fit in memory is an error, not an abort;
    /// callers should still check [`map_bytes`] against their budget first.
    pub fn from_fn(max: u64, mut cell: impl FnMut(u64, u64) -> MapCell) -> Result<Self> {
        let count = cell_count(max)?;
        let mut cells = Vec::new();
        usize::try_from(count)
            .ok()
            .and_then(|n| cells.try_reserve_exact(n).ok())
            .ok_or_else(|| {
                Error::resource(format!(
                    "a map of 0..={max} needs {} bytes, more than this machine can hold",
                    map_bytes(max, 1, MapMode::Outcome)
                ))
            })?;
        for b in 0..=max {
            for a in 0..=max {
                cells.push(cell(a, b));
            }
        }
        Ok(Map { max, cells })
    }

    /// N, the largest heap on the map.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The cell of position (a, b), if both are at most N.
    pub fn cell(&self, a: u64, b: u64) -> Option<MapCell> {
        if a > self.max || b > self.max {
            return None;
        }
        // Both coordinates are at most max, and (max+1)² cells exist, so this fits.
        let index = b * (self.max + 1) + a;
        self.cells.get(index as usize).copied()
    }

    /// All cells, row by row.
    pub fn cells(&self) -> &[MapCell] {
        &self.cells
    }
}

/// `(N+1)²`, or an error when it does not fit in 64 bits.
fn cell_count(max: u64) -> Result<u64> {
    max.checked_add(1)
        .and_then(|side| side.checked_mul(side))
        .ok_or_else(|| Error::resource(format!("a map of 0..={max} has too many positions")))
}

/// The image size `(width, height)` in pixels of the map of 0..=N at `scale`: `(N+1)·S`
/// square for [`MapMode::Outcome`]; for [`MapMode::Remoteness`], `(N+1)·S + LEGEND_WIDTH`
/// wide and `max((N+1)·S, LEGEND_HEIGHT)` tall. A scale of 0 and a side past
/// [`MAX_IMAGE_SIDE`] are refused.
pub fn map_png_size(max: u64, scale: u32, mode: MapMode) -> Result<(u32, u32)> {
    if scale == 0 {
        return Err(Error::input(
            "the scale must be at least 1 pixel per position",
        ));
    }
    let side = max
        .checked_add(1)
        .and_then(|n| n.checked_mul(u64::from(scale)))
        .filter(|&side| side <= u64::from(MAX_IMAGE_SIDE));
    let (width, height) = match (side, mode) {
        (Some(side), MapMode::Outcome) => (side, side),
        (Some(side), MapMode::Remoteness) => (
            side + u64::from(LEGEND_WIDTH),
            side.max(u64::from(LEGEND_HEIGHT)),
        ),
        (None, _) => (u64::MAX, u64::MAX),
    };
    if width > u64::from(MAX_IMAGE_SIDE) || height > u64::from(MAX_IMAGE_SIDE) {
        return Err(Error::resource(format!(
            "a map of 0..={max} at scale {scale} would be more than {MAX_IMAGE_SIDE} pixels wide"
        )));
    }
    Ok((width as u32, height as u32))
}

/// Bytes of memory drawing the map of 0..=N takes, including the [`Map`] itself (the caller
/// holds it while the picture is written): the cells, a few rows of pixels, the legend and
/// the encoder. Saturates at `u64::MAX` rather than overflowing, so any N can be asked.
pub fn map_bytes(max: u64, scale: u32, mode: MapMode) -> u64 {
    let cells = max
        .saturating_add(1)
        .saturating_mul(max.saturating_add(1))
        .saturating_mul(std::mem::size_of::<MapCell>() as u64);
    let width = max
        .saturating_add(1)
        .saturating_mul(u64::from(scale.max(1)))
        .saturating_add(u64::from(LEGEND_WIDTH));
    // Our row, the map row it is cut from, and the encoder's three scanlines.
    let rows = width.saturating_mul(3 * 5);
    let legend = match mode {
        MapMode::Outcome => 0,
        MapMode::Remoteness => u64::from(LEGEND_WIDTH) * u64::from(LEGEND_HEIGHT) * 3,
    };
    cells
        .saturating_add(rows)
        .saturating_add(legend)
        .saturating_add(ENCODER_BYTES)
}

/// Writes the map as an RGB8 PNG to `writer` (see [`map_png_size`] for its size and the
/// module doc for where each position is drawn).
pub fn write_map_png(map: &Map, scale: u32, mode: MapMode, writer: impl Write) -> Result<()> {
    let picture = Picture::new(map, scale, mode)?;
    let mut writer = writer;
    picture
        .encode(&mut writer)
        .map_err(|e| Error::io("PNG output", e))
}

/// Writes the map as a PNG file at `path`, through a temporary file in the same directory
/// renamed into place once complete; an existing file is replaced only with
/// [`Replace::RegularFile`].
pub fn save_map_png(
    map: &Map,
    scale: u32,
    mode: MapMode,
    path: &Path,
    replace: Replace,
) -> Result<()> {
    let picture = Picture::new(map, scale, mode)?;
    save_atomically(path, replace, |out| picture.encode(out))
}

/// A validated map ready to encode: everything that can fail for a reason other than I/O
/// has been checked.
struct Picture<'a> {
    map: &'a Map,
    scale: u32,
    mode: MapMode,
    width: u32,
    height: u32,
    longest: u32,
    legend: Vec<u8>,
}

impl<'a> Picture<'a> {
    fn new(map: &'a Map, scale: u32, mode: MapMode) -> Result<Self> {
        let (width, height) = map_png_size(map.max, scale, mode)?;
        let (longest, legend) = match mode {
            MapMode::Outcome => (0, Vec::new()),
            MapMode::Remoteness => {
                let remoteness = Remoteness::of(&map.cells);
                (remoteness.longest, legend::draw(&remoteness)?)
            }
        };
        Ok(Picture {
            map,
            scale,
            mode,
            width,
            height,
            longest,
            legend,
        })
    }

    fn colour(&self, cell: MapCell) -> Rgb {
        match (self.mode, cell.remoteness) {
            (MapMode::Outcome, _) if cell.win => SAFE,
            (MapMode::Outcome, _) => UNSAFE,
            (MapMode::Remoteness, Some(r)) => remoteness_colour(cell.win, r, self.longest),
            (MapMode::Remoteness, None) => UNKNOWN,
        }
    }

    fn encode(&self, out: &mut dyn Write) -> io::Result<()> {
        encode_png_rows((self.width, self.height), out, |stream| {
            self.rows(|row| stream.write_all(row))
        })
    }

    /// Hands every pixel row, top to bottom, to `emit` (RGB8, `width` pixels).
    fn rows(&self, mut emit: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let side = (self.map.max + 1) as usize;
        let scale = self.scale as usize;
        let map_width = side * scale;
        let mut row = vec![0u8; self.width as usize * 3];
        // Every pixel right of the map is legend or background; start from background.
        row.chunks_exact_mut(3)
            .for_each(|p| p.copy_from_slice(&BACKGROUND));
        let legend_row = LEGEND_WIDTH as usize * 3;
        for y in 0..self.height as usize {
            if y < map_width {
                if y % scale == 0 {
                    let cells = &self.map.cells[(y / scale) * side..][..side];
                    for (a, &cell) in cells.iter().enumerate() {
                        let colour = self.colour(cell);
                        for p in row[a * scale * 3..][..scale * 3].chunks_exact_mut(3) {
                            p.copy_from_slice(&colour);
                        }
                    }
                }
            } else if y == map_width {
                row[..map_width * 3]
                    .chunks_exact_mut(3)
                    .for_each(|p| p.copy_from_slice(&BACKGROUND));
            }
            if self.mode == MapMode::Remoteness {
                let target = &mut row[map_width * 3..][..legend_row];
                if y < LEGEND_HEIGHT as usize {
                    target.copy_from_slice(&self.legend[y * legend_row..][..legend_row]);
                } else if y == LEGEND_HEIGHT as usize {
                    target
                        .chunks_exact_mut(3)
                        .for_each(|p| p.copy_from_slice(&BACKGROUND));
                }
            }
            emit(&row)?;
        }
        Ok(())
    }
}

/// The map's pixels as an RGB8 buffer with its width and height, for a caller that
/// draws around it ([`super::frame`]).
pub(super) fn map_pixels(map: &Map, scale: u32, mode: MapMode) -> Result<(Vec<u8>, u32, u32)> {
    let picture = Picture::new(map, scale, mode)?;
    let mut pixels = Vec::with_capacity(picture.width as usize * picture.height as usize * 3);
    picture
        .rows(|row| {
            pixels.extend_from_slice(row);
            Ok(())
        })
        .map_err(|e| Error::io("map pixels", e))?;
    Ok((pixels, picture.width, picture.height))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        (info.width, info.height, pixels)
    }

    #[test]
    fn sizes_follow_the_documented_rule() {
        assert_eq!(map_png_size(9, 1, MapMode::Outcome).unwrap(), (10, 10));
        assert_eq!(map_png_size(9, 3, MapMode::Outcome).unwrap(), (30, 30));
        assert_eq!(
            map_png_size(9, 3, MapMode::Remoteness).unwrap(),
            (30 + LEGEND_WIDTH, LEGEND_HEIGHT)
        );
        assert_eq!(
            map_png_size(999, 1, MapMode::Remoteness).unwrap(),
            (1000 + LEGEND_WIDTH, 1000)
        );
        assert!(map_png_size(9, 0, MapMode::Outcome).is_err());
        assert!(map_png_size(u64::MAX, 1, MapMode::Outcome).is_err());
        assert!(map_png_size(u64::MAX - 1, u32::MAX, MapMode::Remoteness).is_err());
        let limit = u64::from(MAX_IMAGE_SIDE);
        assert!(map_png_size(limit - 1, 1, MapMode::Outcome).is_ok());
        assert!(map_png_size(limit, 1, MapMode::Outcome).is_err());
        assert!(map_png_size(limit - 1, 1, MapMode::Remoteness).is_err());
    }

    #[test]
    fn memory_estimate_saturates_and_grows() {
        assert_eq!(map_bytes(u64::MAX, u32::MAX, MapMode::Remoteness), u64::MAX);
        assert!(map_bytes(1000, 1, MapMode::Outcome) > 1001 * 1001 * 8);
        assert!(map_bytes(10, 1, MapMode::Remoteness) > map_bytes(10, 1, MapMode::Outcome));
        assert_eq!(
            map_bytes(10, 0, MapMode::Outcome),
            map_bytes(10, 1, MapMode::Outcome)
        );
    }

    #[test]
    fn constructors_check_the_cell_count() {
        assert!(Map::new(2, vec![MapCell::default(); 9]).is_ok());
        assert!(Map::new(2, vec![MapCell::default(); 8]).is_err());
        assert!(Map::new(u64::MAX, Vec::new()).is_err());
        assert!(Map::from_fn(u64::MAX, |_, _| MapCell::default()).is_err());
        assert!(Map::from_fn(u64::MAX / 2, |_, _| MapCell::default()).is_err());
        let map = Map::from_fn(3, |a, b| MapCell {
            win: a != b,
            remoteness: Some((a + b) as u32),
        })
        .unwrap();
        assert_eq!(map.cell(2, 3).unwrap().remoteness, Some(5));
        assert_eq!(map.cells()[3 * 4 + 2].remoteness, Some(5));
        assert_eq!(map.cell(4, 0), None);
    }

    #[test]
    fn scaled_squares_and_legend_are_where_the_doc_says() {
        let map = Map::from_fn(4, |a, b| MapCell {
            win: a != b,
            remoteness: Some(if a == b { 2 * a as u32 } else { 1 }),
        })
        .unwrap();
        let mut bytes = Vec::new();
        write_map_png(&map, 3, MapMode::Remoteness, &mut bytes).unwrap();
        let (w, h, pixels) = decode(&bytes);
        assert_eq!((w, h), (15 + LEGEND_WIDTH, LEGEND_HEIGHT));
        let at = |x: u32, y: u32| {
            let i = ((y * w + x) * 3) as usize;
            [pixels[i], pixels[i + 1], pixels[i + 2]]
        };
        for y in 0..15 {
            for x in 0..15 {
                let cell = map.cell(u64::from(x / 3), u64::from(y / 3)).unwrap();
                let expected = remoteness_colour(cell.win, cell.remoteness.unwrap(), 8);
                assert_eq!(at(x, y), expected, "pixel ({x}, {y})");
            }
        }
        // Below the map, left of the legend: background.
        assert_eq!(at(0, 15), BACKGROUND);
        assert_eq!(at(14, LEGEND_HEIGHT - 1), BACKGROUND);
    }
}
