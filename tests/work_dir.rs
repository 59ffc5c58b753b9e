//! Work directories tampered with between runs: a tier file swapped with another,
//! renamed, truncated, forged with its own checksums recomputed, or left from another
//! game, and manifests whose counts were edited (with and without their checksum
//! recomputed). Each is found before anything is labelled: one line on stderr, exit
//! code 2, no table, no panic; `--restart` then writes the right table.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sicher::domain::Domain;
use sicher::game::{resolve, Convention};
use sicher::label::{Plan, WorkDir};
use sicher::table::{checksum, Checksum};

const SICHER: &str = env!("CARGO_BIN_EXE_sicher");
const ARGS: [&str; 4] = ["kayles", "--total", "36", "--misere"];
/// Bytes of a part's header; its payload checksum and the header's own close it.
const HEADER: usize = 72;

fn sicher(dir: &Path, args: &[&str]) -> Output {
    Command::new(SICHER)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs sicher")
}

/// Leaves the work directory `NAME.work` of `sicher table SPEC --total 36 --misere -o
/// NAME` as a run killed after 12 tiers would, checkpointing after every tier (one group
/// file per tier).
fn leave_work(dir: &Path, spec: &str, name: &str) {
    let game = resolve(spec).unwrap().with_convention(Convention::Misere);
    let work = WorkDir::beside(&dir.join(name))
        .for_output_format(sicher::table::FORMAT_VERSION)
        .checkpoint_every(Some(Duration::ZERO));
    let plan = Plan::new(&game, Domain::Total { total: 36 }, None, Some(1))
        .unwrap()
        .with_work_dir(work)
        .streaming(sicher::table::WRITER_BYTES);
    let reports = AtomicU64::new(0);
    let stopped = catch_unwind(AssertUnwindSafe(|| {
        plan.run(&|_| {
            if reports.fetch_add(1, Ordering::Relaxed) == 12 {
                panic!("stopped on purpose");
            }
        })
    }));
    assert!(stopped.is_err());
}

/// The same tampering on a fresh copy of the work: one line, exit code 2, naming
/// `needle`, and no table.
fn refused(tamper: impl FnOnce(&Path), needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    leave_work(dir.path(), "kayles", "k.table");
    tamper(&dir.path().join("k.table.work"));
    let output = sicher(
        dir.path(),
        &[&["table"], &ARGS[..], &["-o", "k.table"]].concat(),
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{needle}: {err}");
    assert_eq!(err.lines().count(), 1, "{needle}: {err}");
    assert!(
        err.starts_with("sicher: ") && err.contains(needle),
        "{needle}: {err}"
    );
    assert!(err.contains("--restart"), "{err}");
    assert!(!dir.path().join("k.table").exists());
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// The manifest with `from` replaced by `to` and its own checksum recomputed (the last
/// field, computed with itself 0): an edit made by someone who knows the format.
fn edit_manifest(work: &Path, from: &str, to: &str, reseal: bool) {
    let path = work.join("manifest.json");
    let text = String::from_utf8(read(&path)).unwrap();
    assert!(text.contains(from), "{from} not in {text}");
    let mut text = text.replacen(from, to, 1);
    if reseal {
        let at = text.rfind("\"checksum\": ").unwrap() + "\"checksum\": ".len();
        let end = at + text[at..].find('\n').unwrap();
        text.replace_range(at..end, "0");
        let sum = checksum(text.as_bytes()).to_string();
        text.replace_range(at..at + 1, &sum);
    }
    std::fs::write(&path, text).unwrap();
}

#[test]
fn a_swapped_tier_file_is_refused() {
    refused(
        |work| {
            let (a, b) = (
                work.join("group-000005.bits"),
                work.join("group-000006.bits"),
            );
            let (bytes_a, bytes_b) = (read(&a), read(&b));
            std::fs::write(&a, bytes_b).unwrap();
            std::fs::write(&b, bytes_a).unwrap();
        },
        "damaged",
    );
}

#[test]
fn a_renamed_tier_file_is_refused() {
    refused(
        |work| {
            std::fs::rename(
                work.join("group-000004.bits"),
                work.join("group-000040.bits"),
            )
            .unwrap();
        },
        "group-000004.bits is missing",
    );
}

#[test]
fn a_truncated_tier_file_is_refused() {
    refused(
        |work| {
            let path = work.join("group-000007.bits");
            let bytes = read(&path);
            std::fs::write(&path, &bytes[..bytes.len() - 8]).unwrap();
        },
        "wrong length",
    );
}

#[test]
fn a_tier_file_forged_with_its_checksums_recomputed_is_refused() {
    refused(
        |work| {
            let path = work.join("group-000009.bits");
            let mut bytes = read(&path);
            bytes[HEADER] ^= 1;
            let word = |bytes: &[u8], i: usize| {
                u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().unwrap())
            };
            let payload = bytes.len() - HEADER;
            let mut sum = Checksum::new(0);
            for i in 0..payload / 8 {
                sum.add(word(&bytes[HEADER..], i));
            }
            sum.add(payload as u64);
            bytes[56..64].copy_from_slice(&sum.finish().to_le_bytes());
            let mut header = Checksum::new(64);
            for i in 0..8 {
                header.add(word(&bytes, i));
            }
            bytes[64..72].copy_from_slice(&header.finish().to_le_bytes());
            std::fs::write(&path, bytes).unwrap();
        },
        "is not the file the manifest recorded",
    );
}

#[test]
fn a_tier_file_left_from_another_game_is_refused() {
    let other = tempfile::tempdir().unwrap();
    leave_work(other.path(), "dawson-kayles", "k.table");
    let stranger = read(&other.path().join("k.table.work/group-000008.bits"));
    refused(
        move |work| std::fs::write(work.join("group-000008.bits"), stranger).unwrap(),
        "belongs to other work",
    );
}

#[test]
fn a_manifest_edited_by_hand_is_refused() {
    refused(
        |work| {
            edit_manifest(
                work,
                "\"tiers_done\": 11",
                "\"tiers_done\": 99999999999",
                false,
            )
        },
        "was edited",
    );
}

#[test]
fn a_manifest_whose_counts_were_edited_is_refused_without_a_panic() {
    let cases: [(&str, &str, &str); 6] = [
        (
            "\"tiers_done\": 11",
            "\"tiers_done\": 18446744073709551615",
            "lists tier 18446744073709551615",
        ),
        (
            "\"tiers_done\": 11",
            "\"tiers_done\": 10",
            "lists groups of",
        ),
        (
            "\"positions_done\": ",
            "\"positions_done\": 1",
            "positions done",
        ),
        ("\"bytes\": ", "\"bytes\": 1", "length that does not fit"),
        (
            "\"group-000003.bits\"",
            "\"../../group-000003.bits\"",
            "lists a file named",
        ),
        (
            "\"ranks\": [\n        0,\n        1\n",
            "\"ranks\": [\n        1,\n        1\n",
            "outside the domain",
        ),
    ];
    for (from, to, needle) in cases {
        refused(|work| edit_manifest(work, from, to, true), needle);
    }
}

#[test]
fn restart_writes_the_right_table_after_any_tampering() {
    let dir = tempfile::tempdir().unwrap();
    leave_work(dir.path(), "kayles", "k.table");
    std::fs::write(dir.path().join("k.table.work/group-000003.bits"), b"junk").unwrap();
    let restarted = sicher(
        dir.path(),
        &[
            &["table"],
            &ARGS[..],
            &["-o", "k.table", "--restart", "--quiet"],
        ]
        .concat(),
    );
    assert!(restarted.status.success());
    let plain = sicher(
        dir.path(),
        &[
            &["table"],
            &ARGS[..],
            &["-o", "p.table", "--strategy", "plain", "--quiet"],
        ]
        .concat(),
    );
    assert!(plain.status.success());
    assert_eq!(
        read(&dir.path().join("k.table")),
        read(&dir.path().join("p.table"))
    );
}

/// Two `sicher table` runs for different games started together with one output path
/// (checkpointing after every tier, the setting that once let both work in one directory
/// and write a table of one game from the other's labels): each ends with exit 0 or
/// one line and exit 2, and whatever table is left is byte for byte one of the two games'
/// own tables.
#[test]
fn concurrent_runs_for_one_output_never_mix_their_work() {
    let dir = tempfile::tempdir().unwrap();
    let games = ["kayles", "dawson-kayles"];
    let args = |game: &str, out: &str| -> Vec<String> {
        [
            "table", game, "--total", "28", "--misere", "--force", "-o", out,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let references: Vec<Vec<u8>> = games
        .iter()
        .map(|game| {
            let out = format!("{game}.ref");
            let output = sicher(
                dir.path(),
                &args(game, &out)
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            );
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
            read(&dir.path().join(out))
        })
        .collect();
    assert_ne!(references[0], references[1]);
    for trial in 0..6 {
        let out = format!("race{trial}.table");
        let children: Vec<_> = games
            .iter()
            .map(|game| {
                Command::new(SICHER)
                    .args(args(game, &out))
                    .current_dir(dir.path())
                    .env("SICHER_CHECKPOINT_SECONDS", "0")
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&output.stderr);
            match output.status.code() {
                Some(0) => {}
                Some(2) => assert_eq!(err.lines().count(), 1, "trial {trial}: {err}"),
                other => panic!("trial {trial}: exit {other:?}: {err}"),
            }
        }
        let path = dir.path().join(&out);
        if path.exists() {
            let written = read(&path);
            assert!(
                references.contains(&written),
                "trial {trial}: the table is neither game's own"
            );
        }
    }
}

/// A file someone drops into the work directory while the table is labelled does not
/// turn a written table into a failed run: exit 0, the table whole, the directory left
/// in place (with the file) and a note saying so.
#[test]
fn a_foreign_file_in_the_work_directory_leaves_it_after_a_written_table() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("k.table.work");
    let mut child = Command::new(SICHER)
        .args([
            "table", "kayles", "--total", "52", "--misere", "-o", "k.table",
        ])
        .current_dir(dir.path())
        .env("SICHER_CHECKPOINT_SECONDS", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !work.join("manifest.json").exists() {
        assert!(started.elapsed() < Duration::from_secs(60));
        assert!(
            child.try_wait().unwrap().is_none(),
            "done before the file came"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    std::fs::write(work.join("notes.txt"), "mine").unwrap();
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(err.contains("note: the table is written"), "{err}");
    assert!(err.contains("notes.txt"), "{err}");
    assert_eq!(read(&work.join("notes.txt")), b"mine");
    let info = sicher(dir.path(), &["info", "k.table", "--verify"]);
    assert!(
        info.status.success(),
        "{}",
        String::from_utf8_lossy(&info.stderr)
    );
}

/// A part whose writing fails half-way (`ulimit -f`: "File too large") leaves no
/// temporary `.group-*.partial` behind, whichever write it was.
#[cfg(unix)]
#[test]
fn a_write_past_the_file_size_limit_leaves_no_temporary_part() {
    let dir = tempfile::tempdir().unwrap();
    for limit in [8, 20, 30] {
        let out = format!("k{limit}.table");
        let output = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "ulimit -f {limit}; exec \"$0\" table kayles --misere --total 52 -o {out}"
            ))
            .arg(SICHER)
            .current_dir(dir.path())
            .env("SICHER_CHECKPOINT_SECONDS", "0")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains("File too large"), "limit {limit}: {err}");
        let work = dir.path().join(format!("{out}.work"));
        let left: Vec<String> = std::fs::read_dir(&work)
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|name| name.ends_with(".partial"))
                    .collect()
            })
            .unwrap_or_default();
        assert!(left.is_empty(), "limit {limit}: {left:?} left after {err}");
    }
}
