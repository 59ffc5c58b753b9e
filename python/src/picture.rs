//! `game.picture(max)` and `game.plot(max)`: PNGs held in memory, shown by Jupyter
//! (`_repr_png_`) and written with `.save(path)`.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sicher::atomic_file::{write_bytes, Replace};
use sicher::picture::{write_map_png, write_plot_png, MapMode, DEFAULT_PLOT_SIZE};
use sicher::survey::{heap_series_with, map_bytes_needed, plot_bytes_needed, two_heap_map};
use sicher::{memory, Hint};

use crate::errors::to_py;
use crate::game::PyGame;
use crate::interrupt::on_helper_thread;

/// A PNG picture: Jupyter shows it; ``.save(path)`` writes it; ``.png`` is its bytes.
#[pyclass(module = "sicher", frozen)]
pub struct Picture {
    png: Vec<u8>,
    /// Width in pixels.
    #[pyo3(get)]
    width: u32,
    /// Height in pixels.
    #[pyo3(get)]
    height: u32,
    /// What it shows, in words.
    #[pyo3(get)]
    title: String,
    /// Pixels across a notebook shows it (its pixels kept sharp): at least
    /// [`MIN_DISPLAY_WIDTH`] unless asked otherwise.
    #[pyo3(get)]
    display_width: u32,
}

/// The narrowest a notebook shows a picture unless asked: a map of heaps up to 60 is 61
/// pixels, a thumbnail on a screen.
pub const MIN_DISPLAY_WIDTH: u32 = 480;

impl Picture {
    fn new(png: Vec<u8>, title: String) -> Self {
        // The IHDR chunk follows the 8-byte signature: length, type, width, height.
        let word = |at: usize| {
            png.get(at..at + 4)
                .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        };
        let (width, height) = (word(16), word(20));
        Picture {
            png,
            width,
            height,
            title,
            display_width: width.max(MIN_DISPLAY_WIDTH),
        }
    }

    /// Shows it `width` pixels across in a notebook (`None`: the default).
    pub fn show_at(&mut self, width: Option<u32>) {
        if let Some(width) = width {
            self.display_width = width;
        }
    }
}

/// Base64 (RFC 4648, padded), for the picture's HTML in a notebook.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(word >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[pymethods]
impl Picture {
    /// The PNG, for Jupyter's display.
    fn _repr_png_<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.png)
    }

    /// What Jupyter shows: the PNG, and HTML that draws it ``display_width`` pixels
    /// across with sharp pixels (a map has a pixel or a few per position).
    #[pyo3(signature = (include=None, exclude=None))]
    fn _repr_mimebundle_<'py>(
        &self,
        py: Python<'py>,
        include: Option<Bound<'py, PyAny>>,
        exclude: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let _ = (include, exclude);
        let bundle = pyo3::types::PyDict::new(py);
        bundle.set_item("image/png", PyBytes::new(py, &self.png))?;
        let html = format!(
            "<img src=\"data:image/png;base64,{}\" width=\"{}\" style=\"image-rendering: pixelated\" alt=\"{}\">",
            base64(&self.png),
            self.display_width,
            self.title.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
        );
        bundle.set_item("text/html", html)?;
        Ok(bundle)
    }

    /// The PNG file's bytes.
    #[getter]
    fn png<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.png)
    }

    /// Writes the PNG to ``path`` (whole or not at all; an existing file is replaced
    /// only with ``force=True``, as the command line's ``--force``; ``overwrite=`` is
    /// its deprecated old name).
    #[pyo3(signature = (path, force=None, overwrite=None))]
    fn save(
        &self,
        py: Python<'_>,
        path: PathBuf,
        force: Option<bool>,
        overwrite: Option<bool>,
    ) -> PyResult<()> {
        let force = crate::errors::force_or_overwrite(py, force, overwrite)?;
        let replace = if force {
            Replace::RegularFile
        } else {
            Replace::Never
        };
        py.detach(|| write_bytes(&path, &self.png, replace))
            .map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<sicher.Picture {}: {} x {} pixels>",
            self.title, self.width, self.height
        )
    }
}

/// The map of two-heap positions.
pub fn map(
    py: Python<'_>,
    game: &PyGame,
    max: u64,
    remoteness: bool,
    scale: u32,
) -> PyResult<Picture> {
    let mode = if remoteness {
        MapMode::Remoteness
    } else {
        MapMode::Outcome
    };
    memory::check_fits(
        &format!("a map of {0} x {0} positions", u128::from(max) + 1),
        map_bytes_needed(max, scale, mode),
        Hint::LowerMax,
    )
    .map_err(to_py)?;
    let png = game.with_chain(py, |chain, watch| {
        let map = two_heap_map(chain, max, remoteness, &mut |_| watch.poll())?;
        let mut png = Vec::new();
        write_map_png(&map, scale, mode, &mut png)?;
        Ok(png)
    })?;
    let title = format!(
        "{}, {} play, two heaps up to {max}",
        game.game.title(),
        game.game.convention
    );
    Ok(Picture::new(png, title))
}

/// The plot of the per-heap series.
pub fn plot(
    py: Python<'_>,
    game: &sicher::Game,
    max: u64,
    width: Option<u32>,
    height: Option<u32>,
) -> PyResult<Picture> {
    let size = (
        width.unwrap_or(DEFAULT_PLOT_SIZE.0),
        height.unwrap_or(DEFAULT_PLOT_SIZE.1),
    );
    memory::check_fits("the plot", plot_bytes_needed(size, max), Hint::LowerMax).map_err(to_py)?;
    let png = on_helper_thread(py, |watch| {
        let series = heap_series_with(game, max, &mut |_| watch.poll(), watch.cancel())?;
        let mut png = Vec::new();
        write_plot_png(&series, size, &mut png)?;
        Ok(png)
    })?;
    let title = format!(
        "{}, {} play, heaps 0..={max}",
        game.title(),
        game.convention
    );
    Ok(Picture::new(png, title))
}
