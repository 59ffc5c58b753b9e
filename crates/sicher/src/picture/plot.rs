//! A plot of one integer per heap size (nim-values, lone-heap outcomes, a misère quotient's
//! element index, ...) as a PNG: points over labelled axes, the pre-period and the first
//! period shaded (later periods in faint alternating bands when they are wide enough to
//! see), a dashed line at the heap where the periodicity proof closed, and a header with
//! the title, what is proved, and a key.
//!
//! plotters (its bitmap backend, drawing into memory) draws the shapes; all text is drawn
//! afterwards with the embedded font (`text.rs`). The PNG is encoded with the `png` crate.

use std::io::Write;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::Canvas;
use super::colour::Rgb;
use super::file::{encode_png, save_atomically};
use super::text::{self, Align};
use crate::atomic_file::Replace;
use crate::error::{Error, Result};

/// The size a caller without an opinion should use, in pixels.
pub const DEFAULT_PLOT_SIZE: (u32, u32) = (1200, 600);

/// The smallest plot, in pixels, that leaves room for the header and the axes.
pub const MIN_PLOT_SIZE: (u32, u32) = (400, 300);

/// The largest width or height of a plot, in pixels (the plot is drawn in memory whole).
pub const MAX_PLOT_SIDE: u32 = 8192;

/// Memory the encoder takes besides the pixels.
const ENCODER_BYTES: u64 = 1 << 20;

/// Where the key starts under the title and the summary, and the height of each of its
/// lines; the header (title, what is proved, key) ends a little below the last.
const KEY_TOP: u32 = 66;
const KEY_LINE: u32 = 22;

const POINT: RGBColor = RGBColor(31, 78, 161);
const PREPERIOD: RGBColor = RGBColor(255, 224, 170);
const PERIOD: RGBColor = RGBColor(190, 230, 190);
const LATER_PERIOD: RGBColor = RGBColor(228, 244, 228);
const PROOF: RGBColor = RGBColor(200, 30, 30);
const GRID: RGBColor = RGBColor(225, 225, 225);
const INK: Rgb = [0, 0, 0];

const TITLE_SIZE: f32 = 22.0;
const SUMMARY_SIZE: f32 = 16.0;
const KEY_SIZE: f32 = 14.0;
const AXIS_SIZE: f32 = 16.0;
const TICK_SIZE: f32 = 14.0;
const TICK_LENGTH: f32 = 5.0;
const SMALLEST_TEXT: f32 = 9.0;
const SWATCH: i32 = 13;
const KEY_GAP: i32 = 24;

/// What the values of a [`Series`] are; it decides the y-axis labels (words for outcomes,
/// numbers otherwise).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SeriesKind {
    /// Nim-values G(n) of a heap of size n (normal play).
    #[default]
    NimValues,
    /// Whether a lone heap of size n is safe: 1 safe, 0 unsafe (misère play); the y-axis
    /// says the words.
    Outcomes,
    /// Any other integer per heap size, such as an element index in a misère quotient.
    Integer,
}

/// One integer per heap size 0, 1, 2, ... with what is known about its periodicity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Series {
    /// The title, naming the game and the convention (the caller's words).
    pub title: String,
    /// The y-axis label, e.g. "G(n)".
    pub y_label: String,
    /// The value of heap size n at index n; at least one.
    pub values: Vec<u64>,
    /// n0 of the ultimate period: the values repeat from here on; given with `period`.
    pub preperiod: Option<u64>,
    /// The ultimate period p, at least 1; given with `preperiod`.
    pub period: Option<u64>,
    /// The largest heap size whose value the periodicity proof used, when a theorem proved
    /// the period; needs `period`.
    pub proved_at: Option<u64>,
    /// The saltus `s` of an arithmetic period (G(n + p) = G(n) + s); 0 for an ordinary one.
    pub saltus: u64,
    /// What the values are.
    pub kind: SeriesKind,
}

impl Series {
    /// The line under the title: what is proved about the period, in words.
    pub fn proof_summary(&self) -> String {
        let s = self.saltus;
        match (self.preperiod, self.period, self.proved_at) {
            (Some(n0), Some(p), Some(k)) if s > 0 => {
                format!(
                    "period {p}, saltus {s} from n = {n0}, proved with the values up to n = {k}"
                )
            }
            (Some(n0), Some(p), None) if s > 0 => {
                format!("apparent period {p}, saltus {s} from n = {n0}, not proved")
            }
            (Some(n0), Some(p), Some(k)) => {
                format!("period {p} from n = {n0}, proved with the values up to n = {k}")
            }
            (Some(n0), Some(p), None) => {
                format!("apparent period {p} from n = {n0}, not proved")
            }
            _ => format!(
                "no period found in n = 0..={}",
                self.values.len().saturating_sub(1)
            ),
        }
    }

    fn check(&self) -> Result<()> {
        if self.values.is_empty() {
            return Err(Error::input("a plot needs at least one value"));
        }
        if self.preperiod.is_some() != self.period.is_some() {
            return Err(Error::input("a period and its pre-period come together"));
        }
        if self.period == Some(0) {
            return Err(Error::input("a period is at least 1"));
        }
        if self.proved_at.is_some() && self.period.is_none() {
            return Err(Error::input("a proof needs a period"));
        }
        if self.kind == SeriesKind::Outcomes {
            if let Some(v) = self.values.iter().find(|&&v| v > 1) {
                return Err(Error::input(format!(
                    "lone-heap outcomes are 0 or 1, not {v}"
                )));
            }
        }
        Ok(())
    }
}

/// Bytes of memory drawing a plot of this size takes: the pixels, held whole, and the
/// encoder.
pub fn plot_bytes((width, height): (u32, u32)) -> u64 {
    u64::from(width) * u64::from(height) * 3 + ENCODER_BYTES
}

/// Draws the plot at `size` (width, height) in pixels and writes it as an RGB8 PNG to
/// `writer`. The size must lie within [`MIN_PLOT_SIZE`] and [`MAX_PLOT_SIDE`].
pub fn write_plot_png(series: &Series, size: (u32, u32), writer: impl Write) -> Result<()> {
    let pixels = render(series, size)?;
    let mut writer = writer;
    encode_png(&pixels, size, &mut writer).map_err(|e| Error::io("PNG output", e))
}

/// Draws the plot and writes it as a PNG file at `path`, through a temporary file in the
/// same directory renamed into place once complete; an existing file is replaced only with
/// [`Replace::RegularFile`].
pub fn save_plot_png(
    series: &Series,
    size: (u32, u32),
    path: &Path,
    replace: Replace,
) -> Result<()> {
    let pixels = render(series, size)?;
    save_atomically(path, replace, |out| encode_png(&pixels, size, out))
}

/// The plot's RGB8 pixels, row by row.
fn render(series: &Series, size: (u32, u32)) -> Result<Vec<u8>> {
    series.check()?;
    let (width, height) = size;
    if width < MIN_PLOT_SIZE.0
        || height < MIN_PLOT_SIZE.1
        || width > MAX_PLOT_SIDE
        || height > MAX_PLOT_SIDE
    {
        return Err(Error::input(format!(
            "a plot is {}x{} to {MAX_PLOT_SIDE}x{MAX_PLOT_SIDE} pixels, not {width}x{height}",
            MIN_PLOT_SIZE.0, MIN_PLOT_SIZE.1
        )));
    }
    let mut pixels = Vec::new();
    let bytes = plot_bytes(size) - ENCODER_BYTES;
    pixels
        .try_reserve_exact(bytes as usize)
        .map_err(|_| Error::resource(format!("a {width}x{height} plot needs {bytes} bytes")))?;
    pixels.resize(bytes as usize, 255);

    let layout = Layout::new(series, size)?;
    let labels = draw_shapes(series, &layout, &mut pixels, size)
        .map_err(|e| Error::internal(format!("drawing the plot: {e}")))?;
    let mut canvas = Canvas::new(&mut pixels, width as usize, height as usize);
    for label in &labels {
        if label.backdrop {
            let width = text::width(&label.text, label.size)?;
            let left = match label.align {
                Align::Left => label.at.0,
                Align::Centre => label.at.0 - width / 2.0,
                Align::Right => label.at.0 - width,
            };
            let (top, height) = (label.at.1, text::height(label.size)?);
            let corner = |x: f32, y: f32| (x.round() as i64, y.round() as i64);
            canvas.shade(
                corner(left - 3.0, top - 1.0),
                corner(left + width + 3.0, top + height + 1.0),
                [255, 255, 255],
                0.85,
            );
        }
        if label.upwards {
            text::draw_upwards(&mut canvas, &label.text, label.at, label.size, label.colour)?;
        } else {
            let (text, at, size) = (&label.text, label.at, label.size);
            text::draw(&mut canvas, text, at, size, label.colour, label.align)?;
        }
    }
    Ok(pixels)
}

type DrawResult<T> = std::result::Result<
    T,
    DrawingAreaErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>,
>;

/// Text drawn once plotters has drawn the shapes.
struct Label {
    text: String,
    /// The anchor: see [`text::draw`] and [`text::draw_upwards`].
    at: (f32, f32),
    size: f32,
    colour: Rgb,
    align: Align,
    upwards: bool,
    /// Lighten what lies under the text first, so it reads over points and shading.
    backdrop: bool,
}

impl Label {
    fn new(text: impl Into<String>, at: (i32, i32), size: f32, align: Align) -> Self {
        Label {
            text: text.into(),
            at: (at.0 as f32, at.1 as f32),
            size,
            colour: INK,
            align,
            upwards: false,
            backdrop: false,
        }
    }
}

/// Everything about the plot's geometry that needs text measured first.
struct Layout {
    x_range: (f64, f64),
    y_range: (f64, f64),
    x_ticks: Vec<f64>,
    y_ticks: Vec<(f64, String)>,
    y_area: u32,
    /// The key under the title, line by line: each entry's swatch colour, text, and width
    /// in pixels with its swatch; each line fits the picture's width when any entry can.
    key: Vec<Vec<(RGBColor, String, i32)>>,
    /// Height of the header above the chart.
    header: u32,
    tick_height: f32,
    /// Text sizes of the title and the summary, shrunk from the defaults where a line would
    /// not fit.
    title_size: f32,
    summary_size: f32,
}

impl Layout {
    fn new(series: &Series, (width, height): (u32, u32)) -> Result<Self> {
        let last = series.values.len() as u64 - 1;
        let x_max = last.max(series.proved_at.unwrap_or(0)) as f64;
        let x_pad = 0.5 + x_max * 0.01;
        let room = width as f32 - 16.0;
        let key = key_lines(series, room)?;
        let header = KEY_TOP + KEY_LINE * key.len() as u32 + 4;
        let chart_height = f64::from(height.saturating_sub(header));
        let (y_range, y_ticks) = match series.kind {
            SeriesKind::Outcomes => (
                (-0.4, 1.4),
                vec![
                    (0.0, "unsafe (0)".to_string()),
                    (1.0, "safe (1)".to_string()),
                ],
            ),
            SeriesKind::NimValues | SeriesKind::Integer => {
                let top = series.values.iter().copied().max().unwrap_or(0).max(1) as f64;
                let pad = (top * 0.04).max(0.5);
                let ticks = nice_ticks(top, chart_height / 45.0);
                let labelled = ticks.into_iter().map(|t| (t, integer(t))).collect();
                ((-pad, top + pad), labelled)
            }
        };
        let mut widest = 0f32;
        for (_, label) in &y_ticks {
            widest = widest.max(text::width(label, TICK_SIZE)?);
        }
        let axis_label = text::height(AXIS_SIZE)?;
        let y_area = (TICK_LENGTH + 4.0 + widest + 10.0 + axis_label + 8.0).ceil() as u32;

        let title_size = text::shrunk(
            TITLE_SIZE,
            text::width(&series.title, TITLE_SIZE)?,
            room,
            SMALLEST_TEXT,
        );
        let summary = series.proof_summary();
        let summary_size = text::shrunk(
            SUMMARY_SIZE,
            text::width(&summary, SUMMARY_SIZE)?,
            room,
            SMALLEST_TEXT,
        );

        Ok(Layout {
            x_range: (-x_pad, x_max + x_pad),
            y_range,
            x_ticks: nice_ticks(x_max.max(1.0), f64::from(width) / 90.0)
                .into_iter()
                .filter(|&t| t <= x_max)
                .collect(),
            y_ticks,
            y_area,
            key,
            header,
            tick_height: text::height(TICK_SIZE)?,
            title_size,
            summary_size,
        })
    }
}

/// The key's entries, filled greedily into lines no wider than `room`.
fn key_lines(series: &Series, room: f32) -> Result<Vec<Vec<(RGBColor, String, i32)>>> {
    let mut entries = vec![(POINT, series.y_label.clone())];
    if let (Some(n0), Some(p)) = (series.preperiod, series.period) {
        if n0 > 0 {
            entries.push((PREPERIOD, format!("pre-period n < {n0}")));
        }
        let end = n0.saturating_add(p - 1);
        entries.push((PERIOD, format!("one period, n = {n0}..={end}")));
    }
    if let Some(k) = series.proved_at {
        entries.push((PROOF, format!("proof closes at n = {k}")));
    }
    let mut lines: Vec<Vec<(RGBColor, String, i32)>> = vec![Vec::new()];
    let mut used = 0;
    for (colour, label) in entries {
        let width = SWATCH + 6 + text::width(&label, KEY_SIZE)?.ceil() as i32;
        let line = lines.last_mut().expect("never empty");
        if !line.is_empty() && (used + KEY_GAP + width) as f32 > room {
            lines.push(vec![(colour, label, width)]);
            used = width;
        } else {
            used += if line.is_empty() {
                width
            } else {
                KEY_GAP + width
            };
            line.push((colour, label, width));
        }
    }
    Ok(lines)
}

fn integer(value: f64) -> String {
    // Ticks are never negative; `as` saturates rather than wrapping past u64::MAX.
    format!("{}", value.round() as u64)
}

/// Draws every shape with plotters and returns the text to draw over it.
fn draw_shapes(
    series: &Series,
    layout: &Layout,
    pixels: &mut [u8],
    size: (u32, u32),
) -> DrawResult<Vec<Label>> {
    let mut labels = Vec::new();
    let root = BitMapBackend::with_buffer(pixels, size).into_drawing_area();
    root.fill(&WHITE)?;
    let (header, body) = root.split_vertically(layout.header);
    draw_header(series, layout, &header, &mut labels)?;

    let (x_lo, x_hi) = layout.x_range;
    let (y_lo, y_hi) = layout.y_range;
    let mut chart = ChartBuilder::on(&body)
        .margin_left(6)
        .margin_right(28)
        .margin_bottom(6)
        .margin_top(6)
        .x_label_area_size(56)
        .y_label_area_size(layout.y_area)
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)?;
    let (x_pixels, y_pixels) = chart.plotting_area().get_pixel_range();
    let pixels_per_heap = f64::from(x_pixels.end - x_pixels.start) / (x_hi - x_lo);

    // Shading first, so the grid, the points and the proof line stay on top of it.
    if let (Some(n0), Some(p)) = (series.preperiod, series.period) {
        let band = |from: f64, to: f64, colour: RGBColor| {
            let from = from.max(x_lo);
            let to = to.min(x_hi);
            (from < to).then(|| Rectangle::new([(from, y_lo), (to, y_hi)], colour.filled()))
        };
        let start = n0 as f64 - 0.5;
        let p = p as f64;
        if n0 > 0 {
            chart.draw_series(band(x_lo, start, PREPERIOD))?;
        }
        chart.draw_series(band(start, start + p, PERIOD))?;
        if p * pixels_per_heap >= 3.0 {
            // Every other later period, so the repetition shows at a glance.
            let mut from = start + 2.0 * p;
            while from < x_hi {
                chart.draw_series(band(from, from + p, LATER_PERIOD))?;
                from += 2.0 * p;
            }
        }
    }

    let grid = |points: Vec<(f64, f64)>| PathElement::new(points, GRID);
    chart.draw_series(
        layout
            .x_ticks
            .iter()
            .map(|&t| grid(vec![(t, y_lo), (t, y_hi)])),
    )?;
    chart.draw_series(
        layout
            .y_ticks
            .iter()
            .map(|(t, _)| grid(vec![(x_lo, *t), (x_hi, *t)])),
    )?;

    let (left, bottom) = (x_pixels.start, y_pixels.end - 1);
    let line = |points: Vec<(i32, i32)>| PathElement::new(points, BLACK);
    root.draw(&line(vec![
        (left, y_pixels.start),
        (left, bottom),
        (x_pixels.end - 1, bottom),
    ]))?;
    let tick = TICK_LENGTH as i32;
    for &t in &layout.x_ticks {
        let (x, _) = chart.backend_coord(&(t, y_lo));
        root.draw(&line(vec![(x, bottom), (x, bottom + tick)]))?;
        labels.push(Label::new(
            integer(t),
            (x, bottom + tick + 3),
            TICK_SIZE,
            Align::Centre,
        ));
    }
    for (t, label) in &layout.y_ticks {
        let (_, y) = chart.backend_coord(&(x_lo, *t));
        root.draw(&line(vec![(left - tick, y), (left, y)]))?;
        let top = y - (layout.tick_height / 2.0).round() as i32;
        labels.push(Label::new(
            label.clone(),
            (left - tick - 4, top),
            TICK_SIZE,
            Align::Right,
        ));
    }
    let centre_x = (x_pixels.start + x_pixels.end) / 2;
    let centre_y = (y_pixels.start + y_pixels.end) / 2;
    let below_ticks = bottom + tick + 3 + layout.tick_height.ceil() as i32 + 6;
    labels.push(Label::new(
        "heap size n",
        (centre_x, below_ticks),
        AXIS_SIZE,
        Align::Centre,
    ));
    labels.push(Label {
        upwards: true,
        ..Label::new(
            series.y_label.clone(),
            (8, centre_y),
            AXIS_SIZE,
            Align::Left,
        )
    });

    let radius = (pixels_per_heap / 3.0).clamp(1.0, 4.0).round() as i32;
    chart.draw_series(
        series
            .values
            .iter()
            .enumerate()
            .map(|(n, &v)| Circle::new((n as f64, v as f64), radius, POINT.filled())),
    )?;

    if let Some(k) = series.proved_at {
        let k = k as f64;
        let dashes = 40;
        let step = (y_hi - y_lo) / f64::from(dashes);
        chart.draw_series((0..dashes).step_by(2).map(|i| {
            let y = y_lo + step * f64::from(i);
            PathElement::new(vec![(k, y), (k, y + step)], PROOF.stroke_width(2))
        }))?;
        let (x, _) = chart.backend_coord(&(k, y_hi));
        let (dx, align) = if k > (x_lo + x_hi) / 2.0 {
            (-7, Align::Right)
        } else {
            (7, Align::Left)
        };
        let text = format!("proof closes at n = {}", k as u64);
        labels.push(Label {
            colour: rgb(PROOF),
            backdrop: true,
            ..Label::new(text, (x + dx, y_pixels.start + 4), KEY_SIZE, align)
        });
    }
    root.present()?;
    Ok(labels)
}

/// The title, the proof summary, and a key of the marks and shadings, each line centred.
fn draw_header(
    series: &Series,
    layout: &Layout,
    header: &DrawingArea<BitMapBackend, Shift>,
    labels: &mut Vec<Label>,
) -> DrawResult<()> {
    let centre = header.dim_in_pixel().0 as i32 / 2;
    labels.push(Label::new(
        series.title.clone(),
        (centre, 8),
        layout.title_size,
        Align::Centre,
    ));
    labels.push(Label::new(
        series.proof_summary(),
        (centre, 38),
        layout.summary_size,
        Align::Centre,
    ));

    let swatch = SWATCH;
    for (row, line) in layout.key.iter().enumerate() {
        let y = (KEY_TOP + KEY_LINE * row as u32) as i32;
        let total =
            line.iter().map(|entry| entry.2).sum::<i32>() + KEY_GAP * (line.len() as i32 - 1);
        let mut x = (centre - total / 2).max(4);
        for (colour, text, width) in line {
            let corners = [(x, y + 2), (x + swatch, y + 2 + swatch)];
            if *colour == POINT {
                let middle = (x + swatch / 2, y + 2 + swatch / 2);
                header.draw(&Circle::new(middle, 4, colour.filled()))?;
            } else if *colour == PROOF {
                let mid = x + swatch / 2;
                let stroke = vec![(mid, y), (mid, y + 4 + swatch)];
                header.draw(&PathElement::new(stroke, colour.stroke_width(2)))?;
            } else {
                header.draw(&Rectangle::new(corners, colour.filled()))?;
                header.draw(&Rectangle::new(corners, RGBColor(120, 120, 120)))?;
            }
            let at = (x + swatch + 6, y);
            labels.push(Label::new(text.clone(), at, KEY_SIZE, Align::Left));
            x += width + KEY_GAP;
        }
    }
    Ok(())
}

fn rgb(c: RGBColor) -> Rgb {
    [c.0, c.1, c.2]
}

/// Tick positions 0, s, 2s, ... up to `top` with s a whole 1, 2 or 5 times a power of ten,
/// about `wanted` of them (at least two: 0 and one step).
fn nice_ticks(top: f64, wanted: f64) -> Vec<f64> {
    let wanted = wanted.max(2.0);
    let raw = (top / wanted).max(1.0);
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power);
    let count = (top / step).floor() as usize;
    (0..=count).map(|i| i as f64 * step).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_ticks(10.0, 5.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(nice_ticks(1.0, 8.0), vec![0.0, 1.0]);
        assert_eq!(nice_ticks(3.0, 10.0), vec![0.0, 1.0, 2.0, 3.0]);
        let t = nice_ticks(1234.0, 10.0);
        assert_eq!(t[1], 200.0);
        assert_eq!(*t.last().unwrap(), 1200.0);
    }

    #[test]
    fn refuses_what_cannot_be_drawn() {
        let ok = Series {
            title: "t".into(),
            y_label: "G(n)".into(),
            values: vec![0, 1, 2],
            ..Series::default()
        };
        assert!(render(&ok, MIN_PLOT_SIZE).is_ok());
        assert!(render(&ok, (MIN_PLOT_SIZE.0 - 1, 600)).is_err());
        assert!(render(&ok, (MAX_PLOT_SIDE + 1, 600)).is_err());
        assert!(render(&ok, (0, 0)).is_err());
        let bad = [
            Series {
                values: vec![],
                ..ok.clone()
            },
            Series {
                period: Some(2),
                ..ok.clone()
            },
            Series {
                preperiod: Some(0),
                period: Some(0),
                ..ok.clone()
            },
            Series {
                proved_at: Some(4),
                ..ok.clone()
            },
            Series {
                kind: SeriesKind::Outcomes,
                ..ok.clone()
            },
        ];
        for series in bad {
            assert!(render(&series, DEFAULT_PLOT_SIZE).is_err(), "{series:?}");
        }
    }

    #[test]
    fn extreme_values_draw_without_panicking() {
        let series = Series {
            title: "x".repeat(500),
            y_label: "y".repeat(300),
            values: vec![u64::MAX, 0, u64::MAX / 3],
            preperiod: Some(u64::MAX - 1),
            period: Some(u64::MAX),
            proved_at: Some(u64::MAX),
            saltus: 0,
            kind: SeriesKind::Integer,
        };
        assert!(render(&series, MIN_PLOT_SIZE).is_ok());
        let one = Series {
            values: vec![0],
            ..Series::default()
        };
        assert!(render(&one, MIN_PLOT_SIZE).is_ok());
    }

    #[test]
    fn summary_says_what_is_proved() {
        let mut s = Series {
            values: vec![0; 200],
            ..Series::default()
        };
        assert_eq!(s.proof_summary(), "no period found in n = 0..=199");
        s.preperiod = Some(71);
        s.period = Some(12);
        assert_eq!(
            s.proof_summary(),
            "apparent period 12 from n = 71, not proved"
        );
        s.proved_at = Some(167);
        assert_eq!(
            s.proof_summary(),
            "period 12 from n = 71, proved with the values up to n = 167"
        );
    }
}
