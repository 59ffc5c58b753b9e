//! Pictures of solved games, from plain data: the map of two-heap positions as a PNG or as
//! Unicode half blocks in a terminal, and a plot of a per-heap series (nim-values, lone-heap
//! outcomes, ...) as a PNG.
//!
//! This module only draws: callers fill a [`Map`] or a [`Series`] from whatever engine
//! answers, check the memory estimate ([`map_bytes`], [`plot_bytes`]) against their budget,
//! and pass the result here. Nothing here prints.
//!
//! - `cell.rs`: [`MapCell`], what a map shows of one position.
//! - `map.rs`: [`Map`], the PNG map ([`write_map_png`], [`save_map_png`]), its
//!   exact size ([`map_png_size`]) and memory ([`map_bytes`]).
//! - `colour.rs`: the outcome colours and the remoteness palettes.
//! - `legend.rs`: the remoteness legend strip drawn beside a map.
//! - `terminal.rs`: [`render_terminal`], the map in half blocks for a terminal of a given size.
//! - `plot.rs`: [`Series`] and the plot ([`write_plot_png`], [`save_plot_png`]).
//! - `text.rs`: the embedded font (a DejaVu Sans subset), its licence, and drawing text.
//! - `canvas.rs`: the pixel buffer text and swatches are drawn on.
//! - `file.rs`: writing a file under a temporary name and renaming it when complete.
//! - `classes.rs`: a partizan game's two-heap positions in the four outcome classes, as
//!   a PNG or a grid of letters.
//! - `frame.rs`: the map framed with a title and numbered, named axes
//!   ([`save_framed_map_png`]), the bare map moved by [`frame_offset`].
//! - `plot_text.rs`: [`render_plot_terminal`], the plot as characters for a terminal.
//!
//! # Map geometry
//!
//! Pixel (x, y), counted from the top-left corner, shows position (a, b) = (x / S, y / S) for
//! scale S, so with `S = 1` pixel (x, y) is position (x, y). In [`MapMode::Outcome`] the
//! image is exactly `(N+1)·S` pixels square. In [`MapMode::Remoteness`] the map still starts
//! at (0, 0) and covers the same `(N+1)·S` square; a legend strip of [`LEGEND_WIDTH`] pixels
//! is added on the right, and the image is `max((N+1)·S, LEGEND_HEIGHT)` pixels tall (the
//! legend is top-aligned; anything outside the map and the legend is background).

mod canvas;
mod cell;
mod classes;
mod colour;
mod file;
mod frame;
mod legend;
mod map;
mod plot;
mod plot_text;
mod terminal;
mod text;

pub use cell::MapCell;
pub use classes::{
    classes_legend, classes_png_side, classes_text, save_classes_png, save_sequence_png,
    CLASS_COLOURS,
};
pub use colour::{remoteness_colour, Rgb, BACKGROUND, SAFE, UNKNOWN, UNSAFE};
pub use frame::{
    frame_offset, framed_map_size, save_framed_map_png, write_framed_map_png, MAX_FRAMED_SIDE,
};
pub use legend::{LEGEND_HEIGHT, LEGEND_WIDTH};
pub use map::{map_bytes, map_png_size, save_map_png, write_map_png, Map, MapMode, MAX_IMAGE_SIDE};
pub use plot::{
    plot_bytes, save_plot_png, write_plot_png, Series, SeriesKind, DEFAULT_PLOT_SIZE,
    MAX_PLOT_SIDE, MIN_PLOT_SIZE,
};
pub use plot_text::render_plot_terminal;
pub use terminal::render_terminal;
pub use text::FONT_LICENCE;
