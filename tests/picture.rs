//! Pictures: PNG maps decoded pixel by pixel against the cells they were drawn from (synthetic
//! maps and maps filled by sicher's own search), the remoteness legend's place, terminal
//! rendering, and the plot.

use std::collections::HashSet;
use std::path::Path;

use sicher::atomic_file::Replace;
use sicher::game::{resolve, Convention, Position};
use sicher::picture::{
    map_bytes, map_png_size, remoteness_colour, render_terminal, save_map_png, save_plot_png,
    write_map_png, write_plot_png, Map, MapCell, MapMode, Rgb, Series, SeriesKind, BACKGROUND,
    LEGEND_HEIGHT, LEGEND_WIDTH, SAFE, UNSAFE,
};
use sicher::search::{SearchConfig, Solver};

struct Image {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Image {
    fn decode(bytes: &[u8]) -> Image {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).expect("PNG pixels");
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        pixels.truncate(info.buffer_size());
        Image {
            width: info.width,
            height: info.height,
            pixels,
        }
    }

    fn read(path: &Path) -> Image {
        Image::decode(&std::fs::read(path).unwrap())
    }

    fn at(&self, x: u32, y: u32) -> Rgb {
        let i = ((y * self.width + x) * 3) as usize;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }
}

fn map_png(map: &Map, scale: u32, mode: MapMode) -> Image {
    let mut bytes = Vec::new();
    write_map_png(map, scale, mode, &mut bytes).unwrap();
    Image::decode(&bytes)
}

/// Every pixel of the map area is the colour of the position it stands for.
fn assert_map_pixels(image: &Image, map: &Map, scale: u32, colour: impl Fn(MapCell) -> Rgb) {
    let side = (map.max() as u32 + 1) * scale;
    for y in 0..side {
        for x in 0..side {
            let (a, b) = (u64::from(x / scale), u64::from(y / scale));
            let cell = map.cell(a, b).unwrap();
            assert_eq!(
                image.at(x, y),
                colour(cell),
                "pixel ({x}, {y}), position ({a}, {b})"
            );
        }
    }
}

fn outcome_colour(cell: MapCell) -> Rgb {
    if cell.win {
        SAFE
    } else {
        UNSAFE
    }
}

/// A deterministic pseudo-random map (no symmetry, so a transposed picture would fail).
fn synthetic(max: u64, seed: u64) -> Map {
    let mut state = seed;
    Map::from_fn(max, |_, _| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = state >> 33;
        MapCell {
            win: r & 1 == 1,
            remoteness: Some((r >> 1) as u32 % 40),
        }
    })
    .unwrap()
}

fn searched(spec: &str, convention: Convention, max: u64) -> Map {
    let game = resolve(spec).unwrap().with_convention(convention);
    let mut solver = Solver::new(&game, SearchConfig::default());
    Map::from_fn(max, |a, b| MapCell {
        win: solver.is_win(&Position::new(vec![a, b])),
        remoteness: None,
    })
    .unwrap()
}

#[test]
fn synthetic_maps_decode_to_their_cells() {
    for (max, scale) in [(0, 1), (1, 1), (16, 1), (16, 3), (7, 8)] {
        let map = synthetic(max, max * 31 + u64::from(scale));
        let image = map_png(&map, scale, MapMode::Outcome);
        let side = (max as u32 + 1) * scale;
        assert_eq!((image.width, image.height), (side, side));
        assert_eq!(
            map_png_size(max, scale, MapMode::Outcome).unwrap(),
            (side, side)
        );
        assert_map_pixels(&image, &map, scale, outcome_colour);
    }
}

#[test]
fn nim_map_from_search_is_unsafe_exactly_on_the_diagonal() {
    let map = searched("nim", Convention::Normal, 12);
    for b in 0..=12 {
        for a in 0..=12 {
            assert_eq!(map.cell(a, b).unwrap().win, a != b, "({a}, {b})");
        }
    }
    let image = map_png(&map, 2, MapMode::Outcome);
    assert_eq!((image.width, image.height), (26, 26));
    assert_map_pixels(&image, &map, 2, outcome_colour);
}

#[test]
fn wythoff_map_from_search_is_unsafe_at_the_beatty_pairs() {
    let max = 40u64;
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut unsafe_positions = HashSet::new();
    for k in 0..=max {
        let (a, b) = (
            (k as f64 * phi).floor() as u64,
            (k as f64 * phi * phi).floor() as u64,
        );
        unsafe_positions.insert((a, b));
        unsafe_positions.insert((b, a));
    }
    let map = searched("wythoff", Convention::Normal, max);
    for b in 0..=max {
        for a in 0..=max {
            let expected = !unsafe_positions.contains(&(a, b));
            assert_eq!(map.cell(a, b).unwrap().win, expected, "({a}, {b})");
        }
    }
    let image = map_png(&map, 1, MapMode::Outcome);
    assert_map_pixels(&image, &map, 1, outcome_colour);
}

#[test]
fn subtraction_and_misere_kayles_maps_from_search() {
    // subtraction:1,3,4 has nim-values 0 1 0 1 2 3 2, period 7: a two-heap position is
    // unsafe exactly when both heaps have the same value.
    let g = |n: u64| [0, 1, 0, 1, 2, 3, 2][(n % 7) as usize];
    let map = searched("subtraction:1,3,4", Convention::Normal, 20);
    for b in 0..=20 {
        for a in 0..=20 {
            assert_eq!(map.cell(a, b).unwrap().win, g(a) != g(b), "({a}, {b})");
        }
    }
    let image = map_png(&map, 3, MapMode::Outcome);
    assert_map_pixels(&image, &map, 3, outcome_colour);

    let map = searched("kayles", Convention::Misere, 9);
    // Misère: no move left is a win for the player to move; a lone pin loses.
    assert!(map.cell(0, 0).unwrap().win);
    assert!(!map.cell(1, 0).unwrap().win && !map.cell(0, 1).unwrap().win);
    assert!(map.cell(1, 1).unwrap().win);
    let image = map_png(&map, 4, MapMode::Outcome);
    assert_eq!((image.width, image.height), (40, 40));
    assert_map_pixels(&image, &map, 4, outcome_colour);
}

#[test]
fn remoteness_legend_lies_outside_the_map() {
    for (max, scale) in [(9u64, 2u32), (300, 1)] {
        let map = synthetic(max, 7 + max);
        let longest = map
            .cells()
            .iter()
            .filter_map(|c| c.remoteness)
            .max()
            .unwrap();
        let image = map_png(&map, scale, MapMode::Remoteness);
        let side = (max as u32 + 1) * scale;
        let expected = (side + LEGEND_WIDTH, side.max(LEGEND_HEIGHT));
        assert_eq!((image.width, image.height), expected);
        assert_eq!(
            map_png_size(max, scale, MapMode::Remoteness).unwrap(),
            expected
        );
        assert_map_pixels(&image, &map, scale, |cell| {
            remoteness_colour(cell.win, cell.remoteness.unwrap(), longest)
        });
        // The legend, right of the map, shows the lightest and darkest shade of each family.
        let legend: HashSet<Rgb> = (side..image.width)
            .flat_map(|x| (0..LEGEND_HEIGHT).map(move |y| (x, y)))
            .map(|(x, y)| image.at(x, y))
            .collect();
        for win in [false, true] {
            let values = map.cells().iter().filter(|c| c.win == win);
            let values: Vec<u32> = values.filter_map(|c| c.remoteness).collect();
            for end in [values.iter().min(), values.iter().max()] {
                let shade = remoteness_colour(win, *end.unwrap(), longest);
                assert!(legend.contains(&shade), "win {win}: {shade:?}");
            }
        }
        // Below the map (when the legend is taller) and below the legend: background.
        for y in side..image.height {
            assert_eq!(image.at(0, y), BACKGROUND);
        }
        for y in LEGEND_HEIGHT..image.height {
            assert_eq!(image.at(image.width - 1, y), BACKGROUND);
        }
    }
}

#[test]
fn terminal_rendering_of_a_tiny_map() {
    let map = searched("wythoff", Convention::Normal, 5);
    let expected = [
        "  0",
        "0 ▀ ▄",
        "   ▀   ▄",
        "     ▄",
        "█ ▀ ▄ unsafe, blank safe; across: heap a, down: heap b (two per line)",
    ]
    .map(|line| format!("{line}\n"))
    .concat();
    assert_eq!(render_terminal(&map, 80, 24).unwrap(), expected);

    let cropped = [
        "  0",
        "0 ▀ ▄",
        "█ ▀ ▄ unsafe, blank safe; across: heap a, down: heap b (two per line)",
        "cropped to fit: a 0..=5, b 0..=1 of 0..=5",
    ]
    .map(|line| format!("{line}\n"))
    .concat();
    assert_eq!(render_terminal(&map, 80, 4).unwrap(), cropped);
}

fn kayles_series() -> Series {
    let kayles = resolve("kayles").unwrap();
    let values = sicher::theory::grundy::nim_values(
        &kayles.ruleset,
        sicher::theory::grundy::Method::Fast,
        201,
    )
    .unwrap()
    .into_iter()
    .map(u64::from)
    .collect();
    Series {
        title: "kayles (0.77), normal play: nim-values".into(),
        y_label: "G(n)".into(),
        values,
        preperiod: Some(71),
        period: Some(12),
        proved_at: Some(167),
        saltus: 0,
        kind: SeriesKind::NimValues,
    }
}

fn assert_non_trivial(image: &Image) {
    let colours: HashSet<Rgb> = image
        .pixels
        .chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    assert!(colours.len() > 50, "{} colours", colours.len());
    let inked = image
        .pixels
        .chunks_exact(3)
        .filter(|p| p != &[255, 255, 255])
        .count();
    let share = inked as f64 / f64::from(image.width * image.height);
    assert!(
        share > 0.05 && share < 0.95,
        "{share} of the pixels are inked"
    );
}

#[test]
fn plots_decode_at_the_requested_size_and_are_not_blank() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kayles.png");
    save_plot_png(&kayles_series(), (1000, 500), &path, Replace::Never).unwrap();
    let image = Image::read(&path);
    assert_eq!((image.width, image.height), (1000, 500));
    assert_non_trivial(&image);

    let outcomes = Series {
        title: "subtraction:1,3,4, misère play: lone-heap outcomes".into(),
        y_label: "lone heap".into(),
        values: (0..60u64)
            .map(|n| u64::from(![1, 3].contains(&(n % 7))))
            .collect(),
        preperiod: Some(0),
        period: Some(7),
        proved_at: Some(11),
        saltus: 0,
        kind: SeriesKind::Outcomes,
    };
    let mut bytes = Vec::new();
    write_plot_png(&outcomes, (640, 360), &mut bytes).unwrap();
    let image = Image::decode(&bytes);
    assert_eq!((image.width, image.height), (640, 360));
    assert_non_trivial(&image);

    let index = Series {
        title: "an element index per heap, no period".into(),
        y_label: "index".into(),
        values: (0..3000u64).map(|n| n * n % 1013).collect(),
        kind: SeriesKind::Integer,
        ..Series::default()
    };
    let mut bytes = Vec::new();
    write_plot_png(&index, (800, 400), &mut bytes).unwrap();
    assert_non_trivial(&Image::decode(&bytes));
}

#[test]
fn files_are_renamed_into_place_and_failures_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("map.png");
    std::fs::write(&path, b"old").unwrap();
    let map = synthetic(20, 1);
    let refused = save_map_png(&map, 2, MapMode::Outcome, &path, Replace::Never).unwrap_err();
    // The hint the binary words as `--force`.
    assert_eq!(
        refused.hint(),
        Some(&sicher::error::Hint::Overwrite),
        "{refused}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"old");
    save_map_png(&map, 2, MapMode::Outcome, &path, Replace::RegularFile).unwrap();
    assert_eq!(Image::read(&path).width, 42);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("map.png")]);

    // Missing directories are made, as for tables.
    let nested = dir.path().join("new-dir").join("map.png");
    save_map_png(&map, 1, MapMode::Outcome, &nested, Replace::Never).unwrap();
    assert_eq!(Image::read(&nested).width, 21);
    std::fs::remove_dir_all(dir.path().join("new-dir")).unwrap();

    // Refused before anything is written.
    let path = dir.path().join("zero.png");
    assert!(save_map_png(&map, 0, MapMode::Outcome, &path, Replace::Never).is_err());
    assert!(save_plot_png(&kayles_series(), (10, 10), &path, Replace::Never).is_err());
    assert!(!path.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn impossible_requests_are_errors_not_panics() {
    assert!(map_png_size(u64::MAX, 1, MapMode::Outcome).is_err());
    assert!(map_png_size(10, 0, MapMode::Remoteness).is_err());
    assert!(map_png_size(1 << 40, u32::MAX, MapMode::Outcome).is_err());
    assert_eq!(map_bytes(u64::MAX, u32::MAX, MapMode::Remoteness), u64::MAX);
    assert!(map_bytes(1 << 20, 1, MapMode::Outcome) > 1 << 40);
    assert!(Map::from_fn(u64::MAX, |_, _| MapCell::default()).is_err());
    assert!(Map::from_fn(1 << 31, |_, _| MapCell::default()).is_err());
    assert!(Map::new(3, vec![MapCell::default(); 15]).is_err());
    let empty = Series::default();
    assert!(write_plot_png(&empty, (800, 400), Vec::new()).is_err());
    assert!(render_terminal(&synthetic(3, 3), 1, 1).is_err());
}
