//! `sicher picture` and `sicher plot` through the binary: every pixel of the PNG against an
//! independent reference, sizes, the terminal drawing, the plot, and one-line errors.

use crate::common;

use common::{run, Reference, Rules};

/// Decodes an RGB8 PNG into (width, height, pixels).
fn decode(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

fn check_map(game: &str, rules: Rules, misere: bool, max: u64, scale: u32) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("map.png");
    let (max_arg, scale_arg) = (max.to_string(), scale.to_string());
    let mut args = vec![
        "picture",
        game,
        "--max",
        &max_arg,
        "--scale",
        &scale_arg,
        "-o",
        path.to_str().unwrap(),
        "--quiet",
    ];
    if misere {
        args.push("--misere");
    }
    let (code, _, stderr) = run(&args, None);
    assert_eq!(code, 0, "{game}: {stderr}");
    let (width, height, pixels) = decode(&path);
    let side = (max as u32 + 1) * scale;
    assert_eq!((width, height), (side, side), "{game}");
    let mut reference = Reference::new(rules, misere);
    for y in 0..side {
        for x in 0..side {
            let (a, b) = (u64::from(x / scale), u64::from(y / scale));
            let expected: [u8; 3] = if reference.win(&[a, b]) {
                [255, 255, 255]
            } else {
                [0, 0, 0]
            };
            let at = ((y * width + x) * 3) as usize;
            assert_eq!(
                pixels[at..at + 3],
                expected,
                "{game} misere={misere}: pixel ({x}, {y}) is position ({a}, {b})"
            );
        }
    }
}

#[test]
fn every_pixel_is_the_outcome_of_its_position() {
    check_map("nim", Rules::Nim, false, 20, 1);
    check_map("wythoff", Rules::Wythoff, false, 30, 2);
    check_map(
        "subtraction:1,3,4",
        Rules::Subtraction(vec![1, 3, 4]),
        false,
        25,
        3,
    );
    let kayles = Rules::Code {
        hex: false,
        digits: vec![0, 7, 7],
        repeat: false,
    };
    check_map("kayles", kayles, true, 12, 2);
}

#[test]
fn remoteness_maps_put_the_legend_beside_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.png");
    let (code, _, stderr) = run(
        &[
            "picture",
            "nim",
            "--max",
            "9",
            "--scale",
            "4",
            "--remoteness",
            "-o",
            path.to_str().unwrap(),
            "--quiet",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let (width, height, _) = decode(&path);
    assert!(width > 40 && height >= 40, "{width} x {height}");
}

#[test]
fn the_terminal_map_has_axes_and_the_unsafe_diagonal() {
    let (code, stdout, stderr) = run(&["picture", "nim", "--max", "20"], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("10"), "{stdout}");
    // Nim's unsafe positions (a, a) lie on the diagonal: half blocks in every line.
    assert!(
        stdout
            .lines()
            .filter(|l| l.contains('▀') || l.contains('▄'))
            .count()
            >= 10,
        "{stdout}"
    );
}

#[test]
fn the_plot_is_written_and_not_blank() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.png");
    let (code, stdout, stderr) = run(
        &[
            "plot",
            "kayles",
            "--max",
            "300",
            "-o",
            path.to_str().unwrap(),
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["period"], 12);
    assert_eq!(report["preperiod"], 71);
    let (width, height, pixels) = decode(&path);
    assert_eq!((width, height), (1200, 600));
    let colours: std::collections::HashSet<&[u8]> = pixels.chunks(3).collect();
    assert!(colours.len() > 20, "{} colours", colours.len());
    // A second write without --force is refused; misère subtraction plots outcomes.
    let (code, _, stderr) = run(
        &[
            "plot",
            "kayles",
            "--max",
            "30",
            "-o",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!((code, stderr.lines().count()), (2, 1), "{stderr}");
    let (code, _, stderr) = run(
        &[
            "plot",
            "subtraction:1,3,4",
            "--misere",
            "--max",
            "60",
            "-o",
            dir.path().join("m.png").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn impossible_pictures_are_one_line_errors() {
    for args in [
        &[
            "picture",
            "nim",
            "--max",
            "18446744073709551615",
            "-o",
            "/tmp/never.png",
        ][..],
        &[
            "picture",
            "nim",
            "--max",
            "10",
            "--scale",
            "0",
            "-o",
            "/tmp/never.png",
        ],
        &["plot", "wythoff", "--max", "10", "-o", "/tmp/never.png"],
        // Misère quotients stop at 65536 heap sizes.
        &[
            "plot",
            "kayles",
            "--max",
            "70000",
            "--misere",
            "-o",
            "/tmp/never.png",
        ],
    ] {
        let (code, _, stderr) = run(args, None);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn misere_plots_of_splitting_games_show_quotient_elements() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.png");
    let (code, stdout, stderr) = run(
        &[
            "plot",
            "kayles",
            "--misere",
            "--max",
            "40",
            "-o",
            path.to_str().unwrap(),
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["values"], 41);
    let (width, height, pixels) = decode(&path);
    assert_eq!((width, height), (1200, 600));
    let colours: std::collections::HashSet<&[u8]> = pixels.chunks(3).collect();
    assert!(colours.len() > 20, "{} colours", colours.len());
    // The series is the quotient's elements, the empty position's at heap 0.
    let game = sicher::game::resolve("kayles")
        .unwrap()
        .with_convention(sicher::Convention::Misere);
    let series = sicher::survey::heap_series(&game, 40).unwrap();
    let q = sicher::theory::quotient::compute(&game.ruleset, 40, &Default::default()).unwrap();
    assert_eq!(series.values[0], u64::from(q.identity));
    for heap in 1..=40usize {
        assert_eq!(series.values[heap], u64::from(q.heap_elements[heap - 1]));
    }
}
