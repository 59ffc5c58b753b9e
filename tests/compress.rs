//! Compressed tables: the same answers as flat ones, damage refused in one line, never a
//! wrong answer; streamed writing; format 2 still read.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use proptest::prelude::*;
use sicher::answer::{Oracle, Query, TableSource};
use sicher::atomic_file::Replace;
use sicher::domain::{Domain, Ranker};
use sicher::game::{resolve, Convention, Game, Position};
use sicher::label::{Labelled, Plan};
use sicher::table::{self, BodyKind, Codec, Header, Prediction, Storage, Table, TableWriter};

const SICHER: &str = env!("CARGO_BIN_EXE_sicher");

fn run(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(SICHER)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs sicher");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn assert_one_line_error(output: &Output, needle: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "stderr: {err}");
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
}

fn small_domain(game: &Game) -> Domain {
    if game.ruleset.splits() {
        Domain::Total { total: 14 }
    } else {
        Domain::Heaps { heaps: 3, max: 7 }
    }
}

fn labelled(game: &Game, domain: Domain, remoteness: bool) -> Labelled {
    let mut plan = Plan::new(game, domain, None, Some(1)).unwrap();
    if remoteness {
        plan = plan.with_remoteness();
    }
    plan.run(&|_| {}).unwrap()
}

/// Writes the labels both ways: (compressed, flat).
fn both(dir: &Path, game: &Game, domain: Domain, labels: &Labelled) -> (PathBuf, PathBuf) {
    let name = |s: &str| {
        dir.join(format!(
            "{}-{}.table",
            table::default_file_name(game, domain, false),
            s
        ))
    };
    let (compressed, flat) = (name("z"), name("flat"));
    for (path, storage) in [(&compressed, Storage::Compressed), (&flat, Storage::Flat)] {
        match &labels.remoteness {
            Some(r) => sicher::build::write_remoteness_stored(
                path,
                game,
                domain,
                r,
                storage,
                Replace::Never,
            ),
            None => sicher::build::write_outcomes_stored(
                path,
                game,
                domain,
                labels.held().unwrap(),
                storage,
                Replace::Never,
            ),
        }
        .unwrap();
    }
    (compressed, flat)
}

/// Every position's value and winning move agree between the two tables and the labels.
fn assert_same_answers(compressed: &Path, flat: &Path, labels: &Labelled) {
    let (z, f) = (Table::open(compressed).unwrap(), Table::open(flat).unwrap());
    z.verify().unwrap();
    f.verify().unwrap();
    assert!(matches!(z.header().codec, Codec::Zstd { .. }));
    assert_eq!(f.header().codec, Codec::Flat);
    let mut zs = TableSource::open(compressed, None).unwrap();
    let mut fs = TableSource::open(flat, None).unwrap();
    let ranker = z.ranker().clone();
    for rank in 0..ranker.count() {
        let position = ranker.unrank(rank);
        let value = z.probe(&position).unwrap();
        assert_eq!(value, f.probe(&position).unwrap(), "{position}");
        assert_eq!(
            value.is_win(),
            labels.held().unwrap().is_safe(rank),
            "{position}"
        );
        assert_eq!(z.value_at(rank).unwrap(), value, "{position}");
        let query = Query::default();
        let a = zs.probe(position.heaps(), query).unwrap();
        let b = fs.probe(position.heaps(), query).unwrap();
        assert_eq!(a, b, "{position}");
        if rank % 7 == 0 {
            let a = zs.solve(&position, query).unwrap().unwrap();
            let b = fs.solve(&position, query).unwrap().unwrap();
            assert_eq!(a.winning_moves, b.winning_moves, "{position}");
            assert_eq!(a.moves, b.moves, "{position}");
        }
    }
}

#[test]
fn compressed_and_flat_tables_answer_alike_on_every_shipped_game() {
    let dir = tempfile::tempdir().unwrap();
    for shipped in sicher::game::shipped_games() {
        for convention in [Convention::Normal, Convention::Misere] {
            let game = resolve(shipped.name).unwrap().with_convention(convention);
            let domain = small_domain(&game);
            let labels = labelled(&game, domain, false);
            let (compressed, flat) = both(dir.path(), &game, domain, &labels);
            assert_same_answers(&compressed, &flat, &labels);
        }
    }
}

#[test]
fn compressed_remoteness_tables_answer_alike() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["kayles", "nim", "wythoff", "subtraction-1-3-4"] {
        for convention in [Convention::Normal, Convention::Misere] {
            let game = resolve(name).unwrap().with_convention(convention);
            let domain = small_domain(&game);
            let labels = labelled(&game, domain, true);
            let (compressed, flat) = both(dir.path(), &game, domain, &labels);
            assert_same_answers(&compressed, &flat, &labels);
            let z = Table::open(&compressed).unwrap();
            for rank in 0..z.ranker().count() {
                assert_eq!(
                    z.field_at(rank).unwrap(),
                    u64::from(labels.remoteness.as_ref().unwrap().remoteness(rank))
                );
            }
        }
    }
}

#[test]
fn exact_predictions_leave_nothing_to_store() {
    let dir = tempfile::tempdir().unwrap();
    for (name, convention, domain) in [
        ("kayles", Convention::Normal, Domain::Total { total: 40 }),
        (
            "nim",
            Convention::Normal,
            Domain::Heaps { heaps: 3, max: 60 },
        ),
        (
            "nim",
            Convention::Misere,
            Domain::Heaps { heaps: 3, max: 60 },
        ),
        (
            "moore-2",
            Convention::Normal,
            Domain::Heaps { heaps: 3, max: 30 },
        ),
    ] {
        let game = resolve(name).unwrap().with_convention(convention);
        let labels = labelled(&game, domain, false);
        let path = dir.path().join(format!("{name}-{convention}.table"));
        let header = sicher::build::write_outcomes(
            &path,
            &game,
            domain,
            labels.held().unwrap(),
            Replace::Never,
        )
        .unwrap();
        assert_eq!(header.stored_len, 0, "{name} {convention}");
        assert_ne!(header.prediction, Prediction::None);
        let table = Table::open(&path).unwrap();
        table.verify().unwrap();
        assert_eq!(
            table.header().kind,
            BodyKind::Outcomes {
                unsafe_count: labels.held().unwrap().unsafe_count()
            }
        );
    }
}

#[test]
fn misere_kayles_compresses_below_a_twentieth_of_a_bit() {
    let dir = tempfile::tempdir().unwrap();
    let game = resolve("kayles")
        .unwrap()
        .with_convention(Convention::Misere);
    let domain = Domain::Total { total: 40 };
    let labels = labelled(&game, domain, false);
    let path = dir.path().join("k.table");
    let header =
        sicher::build::write_outcomes(&path, &game, domain, labels.held().unwrap(), Replace::Never)
            .unwrap();
    assert!(matches!(header.prediction, Prediction::Quotient(_)));
    // The header's model weighs most at this size: the body alone is the measure.
    let bits = header.stored_len as f64 * 8.0 / header.entries as f64;
    assert!(bits < 0.05, "{bits} bits per position");
    let table = Table::open(&path).unwrap();
    for rank in 0..header.entries {
        assert_eq!(
            table.value_at(rank).unwrap().is_win(),
            labels.held().unwrap().is_safe(rank)
        );
    }
}

#[test]
fn the_writer_takes_the_body_in_pieces() {
    let dir = tempfile::tempdir().unwrap();
    // More than one batch of blocks, so pieces cross block and batch boundaries.
    let game = resolve("wythoff").unwrap();
    let domain = Domain::Heaps {
        heaps: 2,
        max: 6000,
    };
    let labels = labelled(&game, domain, false);
    let whole = dir.path().join("whole.table");
    sicher::build::write_outcomes(
        &whole,
        &game,
        domain,
        labels.held().unwrap(),
        Replace::Never,
    )
    .unwrap();
    for (storage, piece) in [
        (Storage::Compressed, 1000),
        (Storage::Compressed, 1),
        (Storage::Flat, 777),
    ] {
        let path = dir.path().join(format!("pieces-{piece}-{storage:?}.table"));
        // The unsafe count is filled in from the words.
        let header = Header::new(
            BodyKind::Outcomes { unsafe_count: 0 },
            game.ruleset.spec(),
            game.convention,
            domain,
            labels.held().unwrap().entries(),
            1,
        );
        let mut writer = TableWriter::create(&path, header, storage, Replace::Never).unwrap();
        for words in labels.held().unwrap().words().chunks(piece) {
            writer.push(words).unwrap();
        }
        let header = writer.finish().unwrap();
        assert_eq!(
            header.kind,
            BodyKind::Outcomes {
                unsafe_count: labels.held().unwrap().unsafe_count()
            }
        );
        if storage == Storage::Compressed {
            assert_eq!(
                std::fs::read(&path).unwrap(),
                std::fs::read(&whole).unwrap()
            );
        }
        let table = Table::open(&path).unwrap();
        table.verify().unwrap();
        let ranker = Ranker::new(domain).unwrap();
        for rank in (0..ranker.count()).step_by(97) {
            assert_eq!(
                table.value_at(rank).unwrap().is_win(),
                labels.held().unwrap().is_safe(rank)
            );
        }
    }
    // Too few or too many words are refused, and nothing is left behind.
    let header = Header::new(
        BodyKind::Outcomes { unsafe_count: 0 },
        game.ruleset.spec(),
        game.convention,
        domain,
        labels.held().unwrap().entries(),
        1,
    );
    let short = dir.path().join("short.table");
    let mut writer =
        TableWriter::create(&short, header.clone(), Storage::Compressed, Replace::Never).unwrap();
    writer.push(&labels.held().unwrap().words()[1..]).unwrap();
    assert!(writer.finish().is_err());
    assert!(!short.exists());
    let mut writer =
        TableWriter::create(&short, header, Storage::Compressed, Replace::Never).unwrap();
    writer.push(labels.held().unwrap().words()).unwrap();
    assert!(writer.push(&[0]).is_err());
    drop(writer);
    assert!(!short.exists());
}

/// Opens, verifies and probes every position of a possibly damaged table: each step
/// either fails or answers as the labels say.
fn never_wrong(path: &Path, labels: &Labelled) -> Result<(), String> {
    let table = Table::open(path).map_err(|e| e.to_string())?;
    let ranker = table.ranker().clone();
    let mut failed = None;
    for rank in 0..ranker.count() {
        let position = ranker.unrank(rank);
        match table.probe(&position) {
            Ok(value) => {
                let expected = match &labels.remoteness {
                    Some(r) => r.value(rank),
                    None => labels.held().unwrap().value(rank),
                };
                assert_eq!(value, expected, "wrong answer for {position}")
            }
            Err(e) => failed = Some(e.to_string()),
        }
    }
    table.verify().map_err(|e| e.to_string())?;
    failed.map_or(Ok(()), Err)
}

#[test]
fn every_damaged_byte_is_caught_and_no_answer_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("dawson-kayles", Convention::Misere, false),
        ("kayles", Convention::Normal, true),
    ];
    for (name, convention, remoteness) in cases {
        let game = resolve(name).unwrap().with_convention(convention);
        let domain = Domain::Total { total: 18 };
        let labels = labelled(&game, domain, remoteness);
        let (path, _) = both(dir.path(), &game, domain, &labels);
        let good = std::fs::read(&path).unwrap();
        let header = Table::open(&path).unwrap().header().clone();
        assert!(header.stored_len > 0, "{name}: a body to damage");
        let damaged = dir.path().join("damaged.table");
        for at in 0..good.len() {
            for flip in [0x01u8, 0x80] {
                let mut bytes = good.clone();
                bytes[at] ^= flip;
                std::fs::write(&damaged, &bytes).unwrap();
                let err =
                    never_wrong(&damaged, &labels).expect_err(&format!("{name}: flip at {at}"));
                assert_eq!(err.lines().count(), 1, "{err}");
                if at as u64 >= header.body_offset {
                    assert!(err.contains("block 1 of 1"), "{err}");
                }
            }
        }
        for len in 0..good.len() {
            std::fs::write(&damaged, &good[..len]).unwrap();
            assert!(Table::open(&damaged).is_err(), "truncated to {len}");
        }
        let mut longer = good.clone();
        longer.push(0);
        std::fs::write(&damaged, &longer).unwrap();
        assert!(Table::open(&damaged).is_err());
    }
}

/// Rewrites a table's header and index with their checksums made to match, as a
/// hostile file would.
fn forge(path: &Path, change: impl FnOnce(&mut Header, &mut Vec<u8>)) {
    let bytes = std::fs::read(path).unwrap();
    let mut header = Header::decode(&bytes, "t").unwrap();
    let index_end = (header.index_offset + header.index_len()) as usize;
    let mut index = bytes[header.index_offset as usize..index_end].to_vec();
    let body = bytes[header.body_offset as usize..].to_vec();
    change(&mut header, &mut index);
    header.lay_out(table::checksum(&index));
    let mut out = header.encode();
    out.truncate(header.index_offset as usize);
    out.resize(header.index_offset as usize, 0);
    out.extend_from_slice(&index);
    out.resize(header.body_offset as usize, 0);
    out.extend_from_slice(&body);
    std::fs::write(path, out).unwrap();
}

#[test]
fn hostile_headers_and_indexes_get_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let game = resolve("dawson-kayles")
        .unwrap()
        .with_convention(Convention::Misere);
    let domain = Domain::Total { total: 20 };
    let labels = labelled(&game, domain, false);
    let (path, _) = both(dir.path(), &game, domain, &labels);
    let good = std::fs::read(&path).unwrap();
    let hostile = dir.path().join("hostile.table");
    type Change = Box<dyn Fn(&mut Header, &mut Vec<u8>)>;
    let changes: Vec<(&str, Change)> = vec![
        (
            "level",
            Box::new(|h, _| h.codec = Codec::Zstd { level: 99 }),
        ),
        ("stored length", Box::new(|h, _| h.stored_len += 1)),
        (
            "stored length",
            Box::new(|h, _| h.stored_len = u64::MAX / 2),
        ),
        (
            "prediction",
            Box::new(|h, _| h.prediction = Prediction::NimSum),
        ),
        (
            "prediction",
            Box::new(|h, _| h.prediction = Prediction::Moore),
        ),
        (
            "quotient",
            Box::new(|h, _| {
                if let Prediction::Quotient(m) = &mut h.prediction {
                    m.mul[0] = 250;
                }
            }),
        ),
        (
            "quotient",
            Box::new(|h, _| {
                if let Prediction::Quotient(m) = &mut h.prediction {
                    m.phi.pop();
                }
            }),
        ),
        (
            "quotient",
            Box::new(|h, _| {
                if let Prediction::Quotient(m) = &mut h.prediction {
                    m.unsafe_bits[0] ^= 1;
                }
            }),
        ),
        ("encoding", Box::new(|_, index| index[8] = 7)),
        ("predicted flag", Box::new(|_, index| index[9] ^= 1)),
        ("end", Box::new(|_, index| index[0] ^= 3)),
        ("flat", Box::new(|h, _| h.codec = Codec::Flat)),
    ];
    for (what, change) in changes {
        std::fs::write(&hostile, &good).unwrap();
        forge(&hostile, change);
        match never_wrong(&hostile, &labels) {
            Ok(()) => panic!("forged {what} went unnoticed"),
            Err(e) => assert_eq!(e.lines().count(), 1, "{what}: {e}"),
        }
        let output = run(
            dir.path(),
            &["info", hostile.to_str().unwrap(), "--verify"],
            "",
        );
        assert_one_line_error(&output, "hostile.table");
    }
    // A zstd frame forged with matching checksums: refused, never a panic.
    let game = resolve("kayles").unwrap();
    let labels = labelled(&game, domain, true);
    let (path, _) = both(dir.path(), &game, domain, &labels);
    std::fs::write(&hostile, std::fs::read(&path).unwrap()).unwrap();
    let bytes = std::fs::read(&hostile).unwrap();
    let header = Header::decode(&bytes, "t").unwrap();
    let len = header.stored_len as usize;
    let mut garbage = vec![0x28, 0xB5, 0x2F, 0xFD];
    garbage.extend((0..len.saturating_sub(4)).map(|i| (i * 37 % 251) as u8));
    garbage.truncate(len);
    let mut forged = bytes.clone();
    forged[header.body_offset as usize..].copy_from_slice(&garbage);
    std::fs::write(&hostile, &forged).unwrap();
    forge(&hostile, |_, index| {
        let info = u64::from_le_bytes(index[8..16].try_into().unwrap());
        let sum = table::stored_checksum(info, &garbage);
        index[16..24].copy_from_slice(&sum.to_le_bytes());
    });
    let err = never_wrong(&hostile, &labels).unwrap_err();
    assert!(err.contains("block 1 of 1"), "{err}");
}

#[test]
fn format_2_tables_still_open_and_answer() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (file, name, convention) in [
        (
            "v2-kayles-misere-total12.table",
            "kayles",
            Convention::Misere,
        ),
        ("v2-nim-heaps2-max9.table", "nim", Convention::Normal),
    ] {
        let table = Table::open(&data.join(file)).unwrap();
        table.verify().unwrap();
        assert_eq!(table.header().version, 2);
        assert_eq!(table.header().codec, Codec::Flat);
        let game = resolve(name).unwrap().with_convention(convention);
        let labels = labelled(&game, table.header().domain, false);
        for rank in 0..table.ranker().count() {
            assert_eq!(
                table.value_at(rank).unwrap().is_win(),
                labels.held().unwrap().is_safe(rank)
            );
        }
    }
}

#[test]
fn the_cli_writes_compressed_by_default_and_answers_alike() {
    let dir = tempfile::tempdir().unwrap();
    for (args, positions) in [
        (
            vec!["kayles", "--misere", "--total", "30"],
            "3 4 5\n1 1 1\n10 12\n7\n\n2 2 2 2\n",
        ),
        (
            vec!["nim", "--heaps", "3", "--max", "40"],
            "3 4 5\n1 2 3\n40 40\n7 9 11\n",
        ),
    ] {
        for (name, extra) in [("z.table", None), ("f.table", Some("--uncompressed"))] {
            let mut all = vec!["table"];
            all.extend_from_slice(&args);
            all.extend(extra);
            all.extend_from_slice(&["-o", name, "--quiet", "--force"]);
            let output = run(dir.path(), &all, "");
            assert!(output.status.success(), "{}", stderr(&output));
        }
        let answers = |name: &str, flags: &[&str]| {
            let mut all = vec!["check", "--table", name];
            all.extend_from_slice(flags);
            let output = run(dir.path(), &all, positions);
            assert!(output.status.success(), "{}", stderr(&output));
            output.stdout
        };
        for flags in [&[][..], &["--no-move"][..], &["--json"][..]] {
            assert_eq!(answers("z.table", flags), answers("f.table", flags));
        }
        let output = run(dir.path(), &["info", "z.table", "--json", "--verify"], "");
        let info: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(info["codec"], "zstd");
        assert_eq!(info["format_version"], 3);
        assert!(info["bits_per_position"].as_f64().unwrap() < 0.5, "{info}");
        let raw = info["raw_body_bytes"].as_u64().unwrap();
        assert!(raw > 20 * info["body_bytes"].as_u64().unwrap(), "{info}");
        let output = run(dir.path(), &["info", "f.table", "--json"], "");
        let info: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(info["codec"], "none");
        let text = run(dir.path(), &["info", "z.table"], "");
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(
            text.contains("zstd") && text.contains("prediction:"),
            "{text}"
        );
    }
}

fn ruleset_spec() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(0u8..8, 1..4).prop_map(|digits| {
            let code: String = digits.iter().map(|d| d.to_string()).collect();
            format!("octal:0.{code}")
        }),
        prop::collection::btree_set(1u64..6, 1..4).prop_map(|set| {
            let list: Vec<String> = set.iter().map(|s| s.to_string()).collect();
            format!("subtraction:{}", list.join(","))
        }),
        Just("nim".to_string()),
        Just("grundy".to_string()),
        Just("wythoff".to_string()),
        (1u32..4).prop_map(|k| format!("moore:{k}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn compressed_tables_answer_every_position_as_labelled(
        spec in ruleset_spec(),
        misere in any::<bool>(),
        total in 0u64..17,
        heaps in 1u32..4,
        max in 0u64..12,
    ) {
        let game = sicher::game::parse_spec(&spec).unwrap().with_convention(
            if misere { Convention::Misere } else { Convention::Normal },
        );
        let domain = if game.ruleset.splits() || heaps == 3 {
            Domain::Total { total }
        } else {
            Domain::Heaps { heaps, max }
        };
        let labels = labelled(&game, domain, false);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.table");
        sicher::build::write_outcomes(&path, &game, domain, labels.held().unwrap(), Replace::Never).unwrap();
        let table = Table::open(&path).unwrap();
        table.verify().unwrap();
        let ranker = table.ranker().clone();
        let mut source = TableSource::open(&path, Some(&game)).unwrap();
        for rank in 0..ranker.count() {
            let position: Position = ranker.unrank(rank);
            let value = table.probe(&position).unwrap();
            prop_assert_eq!(value.is_win(), labels.held().unwrap().is_safe(rank), "{}", position);
            let (_, best) = source.probe(position.heaps(), Query::default()).unwrap().unwrap();
            if let Some(best) = &best {
                let child = Ranker::new(domain).unwrap().rank(&Position::new(best.clone())).unwrap();
                prop_assert!(!labels.held().unwrap().is_safe(child));
            }
            prop_assert_eq!(best.is_some(), value.is_win() && has_move(&game, &position));
        }
    }
}

fn has_move(game: &Game, position: &Position) -> bool {
    !game.children(position).unwrap().is_empty()
}
