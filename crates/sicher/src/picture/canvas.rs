//! An RGB8 pixel buffer to draw text and swatches on, clipping whatever falls outside.

use super::colour::Rgb;

/// `width × height` pixels, row by row, three bytes each.
pub(super) struct Canvas<'a> {
    pixels: &'a mut [u8],
    width: usize,
    height: usize,
}

impl<'a> Canvas<'a> {
    /// Wraps a buffer of exactly `width × height × 3` bytes.
    pub fn new(pixels: &'a mut [u8], width: usize, height: usize) -> Self {
        debug_assert_eq!(pixels.len(), width * height * 3);
        Canvas {
            pixels,
            width,
            height,
        }
    }

    /// Fills the half-open rectangle `[x0, x1) × [y0, y1)`.
    pub fn fill(&mut self, (x0, y0): (i64, i64), (x1, y1): (i64, i64), colour: Rgb) {
        let (x0, x1) = (self.clip_x(x0), self.clip_x(x1));
        let (y0, y1) = (self.clip_y(y0), self.clip_y(y1));
        for y in y0..y1 {
            for p in self.pixels[(y * self.width + x0) * 3..(y * self.width + x1) * 3]
                .chunks_exact_mut(3)
            {
                p.copy_from_slice(&colour);
            }
        }
    }

    /// Paints `colour` with opacity `alpha` over the half-open rectangle `[x0, x1) × [y0, y1)`.
    pub fn shade(&mut self, (x0, y0): (i64, i64), (x1, y1): (i64, i64), colour: Rgb, alpha: f32) {
        for y in y0.max(0)..y1.min(self.height as i64) {
            for x in x0.max(0)..x1.min(self.width as i64) {
                self.blend(x, y, colour, alpha);
            }
        }
    }

    /// Paints `colour` over pixel (x, y) with opacity `alpha` in 0..=1.
    pub fn blend(&mut self, x: i64, y: i64, colour: Rgb, alpha: f32) {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return;
        }
        let alpha = alpha.clamp(0.0, 1.0);
        let i = (y as usize * self.width + x as usize) * 3;
        for (c, &target) in self.pixels[i..i + 3].iter_mut().zip(&colour) {
            let mixed = f32::from(*c) + (f32::from(target) - f32::from(*c)) * alpha;
            *c = mixed.round() as u8;
        }
    }

    fn clip_x(&self, x: i64) -> usize {
        x.clamp(0, self.width as i64) as usize
    }

    fn clip_y(&self, y: i64) -> usize {
        y.clamp(0, self.height as i64) as usize
    }
}
