//! Writing a picture: as an RGB8 PNG (every picture's one encoder, whole or row by row),
//! and through [`crate::atomic_file`]: under a temporary name beside the destination,
//! synced, then given its final name, so an interrupted run never leaves a half image
//! under the final name and a file that appeared meanwhile is only replaced when
//! replacing was asked for.

use std::io::{self, Write};
use std::path::Path;

use crate::atomic_file::{AtomicFile, Replace};
use crate::error::{Error, Result};

/// Writes `path` with what `encode` produces; errors name `path`, the file the user
/// asked for.
pub(super) fn save_atomically(
    path: &Path,
    replace: Replace,
    encode: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let mut file = AtomicFile::create(path, replace)?;
    encode(&mut file).map_err(|e| Error::io(path, e))?;
    file.commit()
}

/// Encodes RGB8 pixels held whole (`width` x `height`, row by row) as a PNG.
pub(super) fn encode_png(
    pixels: &[u8],
    (width, height): (u32, u32),
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut writer = rgb_encoder(out, width, height).write_header()?;
    writer.write_image_data(pixels)?;
    writer.finish()?;
    Ok(())
}

/// Encodes a PNG `width` x `height` whose RGB8 rows `rows` writes, top to bottom, as it
/// makes them (a map too large to hold whole is streamed).
pub(super) fn encode_png_rows(
    (width, height): (u32, u32),
    out: &mut dyn Write,
    rows: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut writer = rgb_encoder(out, width, height).write_header()?;
    let mut stream = writer.stream_writer()?;
    rows(&mut stream)?;
    stream.finish()?;
    writer.finish()?;
    Ok(())
}

/// A PNG encoder for 8-bit RGB.
fn rgb_encoder(out: &mut dyn Write, width: u32, height: u32) -> png::Encoder<'_, &mut dyn Write> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
}
