//! Fuzzing on stable Rust: a small seeded mutation engine (bit flips, byte insertion,
//! deletion and replacement, interesting integers, splices, a dictionary of the formats'
//! tokens) drives every parser and reader a user can reach, each execution under
//! `catch_unwind`, with oracles beyond "no panic":
//!
//! - every error is one short line without control characters;
//! - inline specs and descriptions that parse print a spec that parses back to the same
//!   rules;
//! - positions parse the same from one line, from separate arguments and from a stdin
//!   batch read in random pieces (the batch reader's fast path against the plain parser);
//! - a table damaged without repairing its checksums never answers a probe differently
//!   from the undamaged table and never passes `verify`; tables whose checksums were
//!   recomputed after the damage (forged headers, domains, widths, bodies) may say
//!   anything, but never panic.
//!
//! Inputs that reach a new kind of result (an error message of a new shape, an accepted
//! input of a new shape) join the corpus, a cheap stand-in for coverage feedback.
//!
//! `cargo test --test fuzz` runs a few thousand executions per target. Environment:
//! `SICHER_FUZZ_RUNS` (executions per target), `SICHER_FUZZ_SEED` (default fixed, so
//! the test is deterministic), `SICHER_FUZZ_REPLAY=FILE` (run one saved input through the
//! target its name starts with). Failing inputs are saved under
//! `target/tmp/fuzz-crashes/`. `scripts/fuzz.sh` runs millions per target.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Once;
use std::time::{Duration, Instant};

use sicher::answer::{Chain, Method, Policy, Query, Remoteness};
use sicher::domain::{Domain, Ranker};
use sicher::game::{parse_spec, resolve, Convention, Position};
use sicher::table::{bits_for, block_checksum, Codec};
use sicher::table::{checksum, BodyKind, Header, Table, BLOCK_BYTES};
use sicher::theory::grundy::Periodicity;
use sicher::value::Value;

mod scripts;

/// Longest error message accepted: hostile input must be quoted short.
const MAX_ERROR_CHARS: usize = 600;

// ---------------------------------------------------------------------------------------
// Random numbers and the mutation engine
// ---------------------------------------------------------------------------------------

/// SplitMix64: tiny, fast, and good enough to drive mutations.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True once in `n` times.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// Small numbers often, large ones sometimes.
    fn skewed(&mut self, limit: usize) -> usize {
        let bits = self.below(usize::BITS as usize - limit.leading_zeros() as usize + 1);
        (self.next() as usize & ((1usize << bits) - 1)) % limit.max(1)
    }
}

/// A hash of the input, a word at a time, to derive a per-input random stream (probe
/// ranks, read sizes) from its bytes.
fn hash(bytes: &[u8]) -> u64 {
    let mut words = bytes.chunks_exact(8);
    let mut h = bytes.len() as u64 ^ 0xCBF2_9CE4_8422_2325;
    for word in &mut words {
        h = (h ^ u64::from_le_bytes(word.try_into().unwrap()))
            .wrapping_mul(0x0000_0100_0000_01B3)
            .rotate_left(23);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

const INTERESTING_BYTES: &[u8] = &[
    0, 1, 2, 7, 8, 9, 0x0A, 0x0D, 0x1B, b' ', b',', b'.', b':', b'[', b']', b'"', b'\'', b'=',
    b'-', b'+', b'0', b'9', b'#', b'`', b'\\', 0x7F, 0x80, 0xBF, 0xC0, 0xE2, 0xF0, 0xFE, 0xFF,
];

const INTERESTING_INTS: &[u64] = &[
    0,
    1,
    2,
    3,
    7,
    8,
    31,
    32,
    33,
    63,
    64,
    65,
    255,
    256,
    1000,
    2000,
    2001,
    4096,
    65535,
    65536,
    65537,
    1 << 24,
    (1 << 31) - 1,
    1 << 31,
    u32::MAX as u64,
    1 << 32,
    1 << 48,
    (1 << 48) + 1,
    i64::MAX as u64,
    1 << 63,
    u64::MAX - 1,
    u64::MAX,
];

/// Tokens of every format fuzzed here: specs, codes, TOML, numbers, odd characters.
const DICTIONARY: &[&str] = &[
    "octal:",
    "hex:",
    "subtraction:",
    "moore:",
    "nim",
    "grundy",
    "wythoff",
    "kayles",
    "dawson-kayles",
    "0.",
    "4.",
    "8.",
    "0.[",
    "[3]",
    "]",
    "[",
    "0.77",
    "0.07",
    "0.007",
    "0.8F",
    "0.[7]",
    "4.0",
    "FF",
    ",",
    ":",
    ".",
    " ",
    "\n",
    "\r\n",
    "\t",
    "\0",
    "-",
    "+",
    "0",
    "1",
    "16",
    "17",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "340282366920938463463374607431768211456",
    "1e9",
    "0x10",
    "0o7",
    "0b1",
    "1_000",
    "inf",
    "nan",
    "true",
    "1979-05-27T07:32:00Z",
    "é",
    "misère",
    "\u{FEFF}",
    "\u{202E}",
    "\u{85}",
    "\u{3000}",
    "名",
    "\x1b[31m",
    "`",
    "\"",
    "'",
    "=",
    " = ",
    "name = \"x\"\n",
    "rules = \"octal\"\n",
    "code = \"0.77\"\n",
    "subtraction = [1, 3, 4]\n",
    "k = 2\n",
    "play = \"misere\"\n",
    "start = [10, 11, 12]\n",
    "notes = \"\"\n",
    "name",
    "rules",
    "code",
    "subtraction",
    "k",
    "play",
    "start",
    "notes",
    "normal",
    "misere",
    "[1, 3, 4]",
    "[[x]]\n",
    "[x]\n",
    "{ a = 1 }",
    "#",
    "\"\"\"",
    "'''",
    "\\u0000",
    "\\",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Text formats: any edit, lengths change freely.
    Text,
    /// Binary files: mostly in-place edits, so offsets stay meaningful.
    Binary,
}

/// Havoc-style mutation: one to sixteen stacked edits.
fn mutate(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8], mode: Mode, max_len: usize) {
    let rounds = 1 + rng.skewed(16);
    for _ in 0..rounds {
        let len = data.len();
        let op = match mode {
            Mode::Text => rng.below(14),
            // Binary: in-place edits seven times in eight.
            Mode::Binary if rng.one_in(8) => 3 + rng.below(11),
            Mode::Binary => [0, 1, 2, 9, 10][rng.below(5)],
        };
        match op {
            0 if len > 0 => {
                let at = rng.below(len);
                data[at] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let at = rng.below(len);
                data[at] = rng.next() as u8;
            }
            2 if len > 0 => {
                let at = rng.below(len);
                data[at] = INTERESTING_BYTES[rng.below(INTERESTING_BYTES.len())];
            }
            3 => {
                let at = rng.below(len + 1);
                let count = 1 + rng.skewed(8);
                let bytes: Vec<u8> = (0..count)
                    .map(|_| {
                        if rng.one_in(2) {
                            INTERESTING_BYTES[rng.below(INTERESTING_BYTES.len())]
                        } else {
                            rng.next() as u8
                        }
                    })
                    .collect();
                data.splice(at..at, bytes);
            }
            4 if len > 0 => {
                let at = rng.below(len);
                let count = 1 + rng.skewed((len - at).min(64));
                data.drain(at..(at + count).min(len));
            }
            5 if len > 0 => {
                // Copy a chunk elsewhere: repeated fields, nested brackets.
                let from = rng.below(len);
                let count = 1 + rng.skewed((len - from).min(64));
                let chunk = data[from..(from + count).min(len)].to_vec();
                let at = rng.below(len + 1);
                data.splice(at..at, chunk);
            }
            6 => {
                let token = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                let at = rng.below(len + 1);
                data.splice(at..at, token.iter().copied());
            }
            7 if len > 0 => {
                let token = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                let at = rng.below(len);
                let end = (at + token.len()).min(len);
                data.splice(at..end, token.iter().copied());
            }
            8 if !other.is_empty() => {
                // Splice: a prefix of this input, a suffix of another.
                let cut = rng.below(len + 1);
                let from = rng.below(other.len());
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            9 if len > 0 => {
                let value = INTERESTING_INTS[rng.below(INTERESTING_INTS.len())];
                let width = [1, 2, 4, 8][rng.below(4)];
                let at = rng.below(len);
                let end = (at + width).min(len);
                let bytes = value.to_le_bytes();
                data[at..end].copy_from_slice(&bytes[..end - at]);
            }
            10 if len > 0 => {
                // Add or subtract a little in a little-endian word.
                let width = [1, 2, 4, 8][rng.below(4)];
                if len >= width {
                    let at = rng.below(len - width + 1);
                    let mut word = [0u8; 8];
                    word[..width].copy_from_slice(&data[at..at + width]);
                    let delta = 1 + rng.below(16) as u64;
                    let value = if rng.one_in(2) {
                        u64::from_le_bytes(word).wrapping_add(delta)
                    } else {
                        u64::from_le_bytes(word).wrapping_sub(delta)
                    };
                    data[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
                }
            }
            11 => {
                // A run of digits: ordinary, just too large, or huge.
                let count = match rng.below(8) {
                    0 => 19 + rng.below(3),
                    1 => 100 + rng.skewed(100_000),
                    _ => 1 + rng.below(6),
                };
                let at = rng.below(len + 1);
                let digits: Vec<u8> = (0..count).map(|_| b'0' + rng.below(10) as u8).collect();
                data.splice(at..at, digits);
            }
            12 if len > 0 => {
                data.truncate(rng.below(len));
            }
            13 => {
                // A multi-byte or invalid UTF-8 sequence.
                let sequences: [&[u8]; 6] = [
                    "é".as_bytes(),
                    "名".as_bytes(),
                    "😀".as_bytes(),
                    &[0xC3],
                    &[0xE2, 0x82],
                    &[0xED, 0xA0, 0x80],
                ];
                let at = rng.below(len + 1);
                data.splice(at..at, sequences[rng.below(6)].iter().copied());
            }
            _ => {}
        }
    }
    data.truncate(max_len);
}

// ---------------------------------------------------------------------------------------
// Panics, oracles, signatures
// ---------------------------------------------------------------------------------------

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Panics inside an execution are recorded, not printed; other panics (this file's own
/// asserts) print as usual.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                LAST_PANIC.with(|last| *last.borrow_mut() = Some(info.to_string()));
            } else {
                default(info);
            }
        }));
    });
}

/// Asserts the error is one short line without control characters; returns its shape.
fn one_line(error: &sicher::Error) -> String {
    let message = error.to_string();
    assert!(
        !message.chars().any(char::is_control),
        "error with control characters: {message:?}"
    );
    assert!(
        message.chars().count() <= MAX_ERROR_CHARS,
        "error of {} characters: {}…",
        message.chars().count(),
        message.chars().take(200).collect::<String>()
    );
    format!("err:{}", shape(&message))
}

/// The shape of a message: quoted text dropped, digits folded, temporary paths cut.
fn shape(message: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in message.chars() {
        match c {
            '`' => {
                quoted = !quoted;
                if quoted {
                    out.push('Q');
                }
            }
            _ if quoted => {}
            '0'..='9' => {
                if !out.ends_with('#') {
                    out.push('#');
                }
            }
            _ => out.push(c),
        }
        if out.len() >= 80 {
            break;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The driver
// ---------------------------------------------------------------------------------------

/// One thing to fuzz.
trait Target {
    fn name(&self) -> &'static str;
    fn seeds(&self) -> Vec<Vec<u8>>;
    /// Whether inputs that reach new shapes of result join the corpus.
    fn grows(&self) -> bool {
        true
    }
    /// Mutates `input`; returns true when the result was repaired (made self-consistent)
    /// on purpose, so it may legitimately be accepted.
    fn mutate(&self, rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) -> bool {
        mutate(rng, input, other, Mode::Text, 1 << 20);
        false
    }
    /// Runs one input; panics on a failed oracle; returns the shape of the result.
    fn run(&mut self, input: &[u8], repaired: bool) -> String;
}

struct Report {
    executions: u64,
    crashes: Vec<String>,
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn crash_dir() -> PathBuf {
    std::env::var_os("SICHER_FUZZ_CRASHES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-crashes"))
}

fn fuzz(target: &mut dyn Target, default_runs: u64) -> Report {
    install_panic_hook();
    let runs = env_u64("SICHER_FUZZ_RUNS").unwrap_or(default_runs);
    let seed = env_u64("SICHER_FUZZ_SEED").unwrap_or(0x5EED);
    let mut rng = Rng(seed ^ hash(target.name().as_bytes()));
    let mut corpus = target.seeds();
    let seeds = corpus.len();
    let mut shapes = HashSet::new();
    let mut crashes = Vec::new();
    let mut slowest = (Duration::ZERO, Vec::new());
    let started = Instant::now();
    let mut accepted = 0u64;
    let mut accepted_at: Vec<usize> = Vec::new();
    for execution in 0..runs + seeds as u64 {
        let (input, repaired) = if (execution as usize) < seeds {
            (corpus[execution as usize].clone(), false)
        } else {
            // Parents: a seed, an accepted input of a new shape, or anything kept.
            let parent = match rng.below(3) {
                0 => rng.below(seeds),
                1 if !accepted_at.is_empty() => accepted_at[rng.below(accepted_at.len())],
                _ => rng.below(corpus.len()),
            };
            let mut input = corpus[parent].clone();
            let other = corpus[rng.below(corpus.len())].clone();
            let repaired = target.mutate(&mut rng, &mut input, &other);
            (input, repaired)
        };
        QUIET.with(|q| q.set(true));
        let begun = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| target.run(&input, repaired)));
        let took = begun.elapsed();
        QUIET.with(|q| q.set(false));
        if took > slowest.0 {
            slowest = (took, input.clone());
        }
        match outcome {
            Ok(shape) => {
                if shape.starts_with("ok") {
                    accepted += 1;
                }
                let ok = shape.starts_with("ok");
                if shapes.insert(shape) && target.grows() {
                    let at = if corpus.len() < 4096 {
                        corpus.push(input);
                        corpus.len() - 1
                    } else {
                        let at = seeds + rng.below(corpus.len() - seeds);
                        corpus[at] = input;
                        accepted_at.retain(|&a| a != at);
                        at
                    };
                    if ok {
                        accepted_at.push(at);
                    }
                }
            }
            Err(_) => {
                let message = LAST_PANIC
                    .with(|last| last.borrow_mut().take())
                    .unwrap_or_else(|| "(no message)".into());
                let dir = crash_dir();
                let _ = std::fs::create_dir_all(&dir);
                let file = dir.join(format!(
                    "{}-{seed}-{}{}.bin",
                    target.name(),
                    crashes.len(),
                    if repaired { "-repaired" } else { "" }
                ));
                let _ = std::fs::write(&file, &input);
                crashes.push(format!(
                    "{}: {} (input of {} bytes saved as {}: {:?})",
                    target.name(),
                    message.replace('\n', " "),
                    input.len(),
                    file.display(),
                    String::from_utf8_lossy(&input[..input.len().min(120)])
                ));
                if crashes.len() >= 20 {
                    break;
                }
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    // Kept for a look at what is slow.
    let _ = std::fs::create_dir_all(crash_dir());
    let _ = std::fs::write(
        crash_dir().join(format!("slowest-{}.bin", target.name())),
        &slowest.1,
    );
    eprintln!(
        "fuzz {}: {} executions in {:.1} s ({:.0}/s), seed {seed}, {} accepted, {} result shapes, corpus {}, slowest {:.1} ms ({} bytes), {} crashes",
        target.name(),
        runs + seeds as u64,
        seconds,
        (runs + seeds as u64) as f64 / seconds.max(1e-9),
        accepted,
        shapes.len(),
        corpus.len(),
        slowest.0.as_secs_f64() * 1e3,
        slowest.1.len(),
        crashes.len()
    );
    Report {
        executions: runs + seeds as u64,
        crashes,
    }
}

fn assert_no_crashes(report: Report) {
    assert!(report.executions > 0);
    assert!(
        report.crashes.is_empty(),
        "{} failing inputs:\n{}",
        report.crashes.len(),
        report.crashes.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// Text targets
// ---------------------------------------------------------------------------------------

/// Inline specs, through `parse_spec` and `resolve`.
struct Specs;

impl Target for Specs {
    fn name(&self) -> &'static str {
        "spec"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        [
            "nim",
            "kayles",
            "octal:0.77",
            "octal:0.07",
            "octal:0.007",
            "octal:4.0",
            "octal:0.[3]",
            "octal:0.16",
            "hex:0.8F",
            "hex:8.0",
            "subtraction:1,3,4",
            "subtraction:18446744073709551615",
            "grundy",
            "wythoff",
            "moore:2",
            "moore:16",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect()
    }

    fn mutate(&self, rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) -> bool {
        mutate(rng, input, other, Mode::Text, 4096);
        false
    }

    fn run(&mut self, input: &[u8], _: bool) -> String {
        let text = String::from_utf8_lossy(input);
        let parsed = parse_spec(&text);
        // Files are only read for `.toml` names or existing paths, which stay harmless.
        let resolved = resolve(&text);
        if let (Ok(a), Ok(b)) = (&parsed, &resolved) {
            assert_eq!(a.ruleset, b.ruleset, "parse_spec and resolve differ");
        }
        let shape = match &parsed {
            Ok(game) => {
                round_trips(game);
                format!("ok:{}", shape(&game.ruleset.spec()))
            }
            Err(error) => one_line(error),
        };
        match &resolved {
            Ok(game) => round_trips(game),
            Err(error) => {
                one_line(error);
            }
        }
        shape
    }
}

/// A game's canonical spec parses back to the same rules, and its moves can be listed.
fn round_trips(game: &sicher::Game) {
    let spec = game.ruleset.spec();
    let again = parse_spec(&spec).unwrap_or_else(|e| panic!("spec {spec:?} does not parse: {e}"));
    assert_eq!(
        again.ruleset, game.ruleset,
        "spec {spec:?} parses differently"
    );
    assert_eq!(again.ruleset.spec(), spec);
    let _ = format!("{} {}", game.ruleset, game.canonical());
    // Scripted rules are checked heap by heap before any engine reads them (the entry
    // points call `prepare`); a script that fails there is an error, never a panic.
    let prepared = game.ruleset.prepare(7).is_ok();
    let children = game.children(&Position::new(vec![1, 2, 3, 7]));
    assert_eq!(children.is_ok(), prepared, "{:?}", children.err());
}

/// Description files, through `resolve` on a temporary `.toml` file.
struct Descriptions {
    path: PathBuf,
}

impl Target for Descriptions {
    fn name(&self) -> &'static str {
        "toml"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        let mut seeds: Vec<Vec<u8>> = sicher::game::shipped_games()
            .iter()
            .map(|g| g.toml.as_bytes().to_vec())
            .collect();
        for extra in [
            "name = \"h\"\nrules = \"hex\"\ncode = \"4.8F\"\nplay = \"misère\"\n",
            "name = \"s\"\nrules = \"subtraction\"\nsubtraction = [1, 9223372036854775807]\nstart = [0, 5]\n",
            "name = \"m\"\nrules = \"moore\"\nk = 16\nstart = []\nnotes = \"\"\"\nmany\nlines\"\"\"\n",
            "name = 'o'\nrules = 'octal'\ncode = '0.[7]'\n",
        ] {
            seeds.push(extra.as_bytes().to_vec());
        }
        seeds
    }

    fn mutate(&self, rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) -> bool {
        mutate(rng, input, other, Mode::Text, 1 << 16);
        false
    }

    fn run(&mut self, input: &[u8], _: bool) -> String {
        std::fs::write(&self.path, input).expect("write the description");
        match resolve(&self.path.to_string_lossy()) {
            Ok(game) => {
                round_trips(&game);
                if let Some(start) = &game.start {
                    assert!(start.heaps().iter().all(|&h| h > 0));
                }
                format!("ok:{}:{}", shape(&game.ruleset.spec()), game.convention)
            }
            Err(error) => one_line(&error),
        }
    }
}

/// Heap lists: `parse_line`, `parse_args` and the round trip through `Display`.
struct Positions;

impl Target for Positions {
    fn name(&self) -> &'static str {
        "position"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        [
            "3 4 5",
            "1,2,3",
            "",
            "0",
            "5,0 3",
            " 10 11 12 13 14 ",
            "18446744073709551615",
            "1\t2\r",
            "1 x",
            "1000000000000 77",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect()
    }

    fn run(&mut self, input: &[u8], _: bool) -> String {
        let text = String::from_utf8_lossy(input);
        let line = Position::parse_line(&text);
        let words: Vec<&str> = text.split(' ').collect();
        let args = Position::parse_args(&words);
        match (&line, &args) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "parse_line and parse_args differ"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("parse_line {line:?} but parse_args {args:?}"),
        }
        match line {
            Ok(position) => {
                let heaps = position.heaps();
                assert!(heaps.windows(2).all(|w| w[0] <= w[1]) && !heaps.contains(&0));
                let shown = position.to_string();
                let again = if heaps.is_empty() {
                    Position::default()
                } else {
                    Position::parse_line(&shown).expect("a printed position parses")
                };
                assert_eq!(again, position, "printed as {shown:?}");
                format!("ok:{}", heaps.len().min(8))
            }
            Err(error) => one_line(&error),
        }
    }
}

/// A reader that hands out its bytes in small random pieces, now and then interrupted.
struct Trickle<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.rng.one_in(16) {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let count = (1 + self.rng.skewed(64))
            .min(buf.len())
            .min(self.data.len());
        buf[..count].copy_from_slice(&self.data[..count]);
        self.data = &self.data[count..];
        Ok(count)
    }
}

/// Stdin batches: the batch reader (fast path, blocks, line numbers) against the plain
/// parser line by line.
struct Batches;

impl Target for Batches {
    fn name(&self) -> &'static str {
        "stdin"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        [
            "1 2 3\n3,4,5\n\n",
            "1 2\n\n3 x\n4\n",
            "\r\n\r\n7\r\n",
            "1 2\r3 4\r\r\n5\r",
            "10 11 12\n13 14",
            "99999999999999999999\n1\n",
            "\n",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect()
    }

    fn run(&mut self, input: &[u8], _: bool) -> String {
        // Lines end with `\n`, `\r\n` or a lone `\r`: every `\r\n` becomes `\n`, then
        // every `\r` left.
        let mut text = Vec::with_capacity(input.len());
        let mut i = 0;
        while i < input.len() {
            if input[i] == b'\r' {
                text.push(b'\n');
                i += if input.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            } else {
                text.push(input[i]);
                i += 1;
            }
        }
        let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        if text.is_empty() || text.ends_with(b"\n") {
            lines.pop();
        }
        let mut expected = Vec::new();
        let mut expected_error = None;
        for (number, line) in lines.iter().enumerate() {
            match Position::parse_line(&String::from_utf8_lossy(line)) {
                Ok(position) => expected.push(position.into_heaps()),
                Err(error) => {
                    expected_error = Some(format!("stdin line {}: {error}", number + 1));
                    break;
                }
            }
        }
        let mut seen = Vec::new();
        let reader = Trickle {
            data: input,
            rng: Rng(hash(input)),
        };
        let outcome = sicher::game::for_each_line(reader, |heaps| {
            seen.push(heaps.to_vec());
            Ok(())
        });
        assert_eq!(seen, expected, "the batch reader and parse_line differ");
        match (outcome, expected_error) {
            (Ok(()), None) => format!("ok:{}", seen.len().min(8)),
            (Err(error), Some(message)) => {
                assert_eq!(error.to_string(), message);
                one_line(&error)
            }
            (outcome, expected) => panic!("batch reader gave {outcome:?}, expected {expected:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Table targets
// ---------------------------------------------------------------------------------------

/// A valid table and what it answers.
struct Seed {
    bytes: Vec<u8>,
    table: Table,
}

/// Mutated copies of valid tables of one body kind: open, probe, verify, and answer
/// through the answer layer.
struct Tables {
    name: &'static str,
    seeds: Vec<Seed>,
    path: PathBuf,
}

fn sicher_cli(args: &[&str]) {
    let output = Command::new(env!("CARGO_BIN_EXE_sicher"))
        .args(args)
        .output()
        .expect("run sicher");
    assert!(
        output.status.success(),
        "sicher {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn scratch_dir() -> tempfile::TempDir {
    // Memory-backed where there is one: the table targets write a file per execution.
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(dir) = tempfile::tempdir_in(shm) {
            return dir;
        }
    }
    tempfile::tempdir().expect("temporary directory")
}

impl Tables {
    fn new(name: &'static str, dir: &Path, files: Vec<PathBuf>) -> Self {
        let seeds = files
            .into_iter()
            .map(|file| Seed {
                bytes: std::fs::read(&file).expect("read a seed table"),
                table: Table::open(&file).expect("a seed table opens"),
            })
            .collect::<Vec<Seed>>();
        let lengths: HashSet<usize> = seeds.iter().map(|s| s.bytes.len()).collect();
        assert_eq!(lengths.len(), seeds.len(), "seeds must differ in length");
        Tables {
            name,
            seeds,
            path: dir.join(format!("{name}-fuzzed.table")),
        }
    }

    /// The seed an input of this length descends from (seeds differ in length).
    fn seed_of(&self, input: &[u8]) -> Option<&Seed> {
        self.seeds.iter().find(|s| s.bytes.len() == input.len())
    }
}

/// Builds a file from a header and body bytes: block checksums, index checksum and
/// header checksum all made to match; with `lay_out`, the offsets too.
fn assemble(header: &mut Header, body: &[u8], lay_out: bool) -> Vec<u8> {
    let index: Vec<u8> = body
        .chunks(BLOCK_BYTES as usize)
        .map(|block| {
            block_checksum(
                block
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().unwrap())),
            )
        })
        .flat_map(u64::to_le_bytes)
        .collect();
    if lay_out {
        header.lay_out(checksum(&index));
    } else {
        header.index_checksum = checksum(&index);
    }
    let mut out = header.encode();
    out.extend_from_slice(&index);
    if header.body_offset as usize >= out.len() {
        out.resize(header.body_offset as usize, 0);
    }
    out.extend_from_slice(body);
    out
}

const FUZZ_GAMES: &[&str] = &[
    "nim",
    "octal:0.77",
    "octal:0.07",
    "octal:4.0",
    "hex:0.8F",
    "subtraction:1,3,4",
    "grundy",
    "wythoff",
    "moore:2",
    "moore:16",
    "octal:",
    "chess",
    "octal:0.[3]",
];

impl Target for Tables {
    fn name(&self) -> &'static str {
        self.name
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        self.seeds.iter().map(|s| s.bytes.clone()).collect()
    }

    fn grows(&self) -> bool {
        // Every input descends from a seed, so damage is judged against that seed.
        false
    }

    fn mutate(&self, rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) -> bool {
        let seed = self
            .seeds
            .iter()
            .find(|s| s.bytes == *input)
            .expect("inputs start from seeds");
        let header = seed.table.header().clone();
        let body_offset = header.body_offset as usize;
        // Arms 6 to 8 lay out flat bodies (one checksum per block of words); compressed
        // bodies get the generic damage, their forgeries are tests/compress.rs's.
        let flat = header.codec == Codec::Flat;
        let arm = match rng.below(10) {
            4 if body_offset >= input.len() => 0,
            6..=8 if !flat => 0,
            arm => arm,
        };
        match arm {
            // Damage anywhere, checksums left as they are.
            0..=3 => {
                mutate(rng, input, other, Mode::Binary, 1 << 22);
                false
            }
            // Damage in the body only, a few bits: the common disk error.
            4 => {
                for _ in 0..1 + rng.skewed(4) {
                    let at = body_offset + rng.below(input.len() - body_offset);
                    input[at] ^= 1 << rng.below(8);
                }
                false
            }
            // Damage the header fields, then fix the header checksum.
            5 => {
                let len = u32::from_le_bytes(input[12..16].try_into().unwrap()) as usize;
                let end = 16 + len;
                let mut fields = input[16..end].to_vec();
                mutate(rng, &mut fields, &[], Mode::Binary, len);
                if fields.len() == len {
                    input[16..end].copy_from_slice(&fields);
                }
                let sum = checksum(&input[..end]);
                input[end..end + 8].copy_from_slice(&sum.to_le_bytes());
                true
            }
            // Any body at all, with every checksum made to match.
            6 => {
                let mut body = input[body_offset..].to_vec();
                let len = body.len();
                mutate(rng, &mut body, &[], Mode::Binary, len);
                body.resize(len, 0);
                if rng.one_in(2) {
                    // Clear the bits past the last entry, so verify gets further.
                    let used = header.entries * u64::from(header.width);
                    let last = (used.div_ceil(64) as usize - 1) * 8;
                    if used % 64 != 0 {
                        let mut word = u64::from_le_bytes(body[last..last + 8].try_into().unwrap());
                        word &= (1u64 << (used % 64)) - 1;
                        body[last..last + 8].copy_from_slice(&word.to_le_bytes());
                    }
                }
                let mut header = header;
                *input = assemble(&mut header, &body, false);
                true
            }
            // A forged header: fields changed, the file laid out and checksummed to match.
            7 | 8 => {
                let mut header = header;
                for _ in 0..1 + rng.skewed(3) {
                    forge_field(rng, &mut header);
                }
                let body_len = header.body_len();
                if body_len > 1 << 22 {
                    mutate(rng, input, other, Mode::Binary, 1 << 22);
                    return false;
                }
                let mut body = input[body_offset..].to_vec();
                body.resize(body_len as usize, 0);
                if rng.one_in(2) {
                    mutate(rng, &mut body, &[], Mode::Binary, body_len as usize);
                    body.resize(body_len as usize, 0);
                }
                // Offsets kept as forged only while they stay small enough to write.
                let small = header.index_offset.max(header.body_offset) < 1 << 22;
                *input = assemble(&mut header, &body, !(small && rng.one_in(8)));
                true
            }
            // Cut short or run on.
            _ => {
                if rng.one_in(2) {
                    input.truncate(rng.skewed(input.len()));
                } else {
                    input.extend((0..1 + rng.skewed(256)).map(|_| rng.next() as u8));
                }
                false
            }
        }
    }

    fn run(&mut self, input: &[u8], repaired: bool) -> String {
        std::fs::write(&self.path, input).expect("write the table");
        let seed = self.seeds.iter().find(|s| s.bytes == input);
        let intact = seed.is_some();
        // The seed a damaged (not repaired) input came from: the only one of its length.
        let origin = if repaired { None } else { self.seed_of(input) };
        let table = match Table::open(&self.path) {
            Ok(table) => table,
            Err(error) => {
                assert!(!intact, "a valid table is refused: {error}");
                return one_line(&error);
            }
        };
        let header = table.header().clone();
        // `info` prints these.
        for text in [&header.game, &header.sicher_version] {
            assert!(!text.chars().any(char::is_control), "header text {text:?}");
        }
        if !repaired {
            assert!(
                origin.is_some_and(|s| s.table.header() == &header),
                "a damaged header was accepted"
            );
        }
        let entries = header.entries;
        assert!(entries > 0 && entries == table.ranker().count());
        let mut rng = Rng(hash(input));
        let mut damage = None;
        // Probes: both ends and a few anywhere; a damaged table never answers wrongly.
        let ranks = [0, entries - 1, rng.next() % entries, rng.next() % entries];
        for &rank in &ranks {
            match table.value_at(rank) {
                Ok(value) => {
                    check_value(&header, value);
                    if let Some(origin) = origin {
                        let truth = origin.table.value_at(rank).expect("the seed answers");
                        assert_eq!(value, truth, "damage changed the answer at rank {rank}");
                    }
                }
                Err(error) => damage = Some(one_line(&error)),
            }
        }
        // Positions in and out of the domain.
        for _ in 0..2 {
            let count = rng.below(5);
            let heaps = (0..count)
                .map(|_| INTERESTING_INTS[rng.below(INTERESTING_INTS.len())] % 300)
                .collect();
            match table.probe(&Position::new(heaps)) {
                Ok(value) => check_value(&header, value),
                Err(error) => {
                    one_line(&error);
                }
            }
        }
        let verified = table.verify();
        match &verified {
            Ok(()) => assert!(
                intact || repaired,
                "damage went unnoticed by verify ({} bytes)",
                input.len()
            ),
            Err(error) => damage = Some(one_line(error)),
        }
        let position = table.ranker().unrank(rng.next() % entries);
        let game = table.game().clone();
        drop(table);
        // Through the answer layer, as `check --table` and `--nim-table` use it.
        if let BodyKind::Quotient { order } = header.kind {
            // Read whole, as `check --quotient` reads it: every product inside it.
            match sicher::table::read_quotient(&self.path) {
                Ok(q) => assert!(q.table.iter().all(|&x| x < order)),
                Err(error) => {
                    one_line(&error);
                }
            }
        } else if header.kind.holds_positions() {
            answer_from_outcomes(&self.path, &position, origin);
        } else {
            answer_from_nim_values(&self.path, &game, &mut rng, origin);
        }
        match (verified, damage) {
            (Ok(()), _) => format!("ok:{}", header.kind.name()),
            (Err(_), Some(shape)) => shape,
            (Err(_), None) => unreachable!(),
        }
    }
}

/// What a value read from a table may be, whatever the file says.
fn check_value(header: &Header, value: Value) {
    match header.kind {
        BodyKind::Outcomes { .. } => assert!(matches!(value, Value::Outcome(_))),
        BodyKind::NimValues { .. } => {
            assert!(value.nimber().is_some_and(|v| v < 1 << header.width))
        }
        BodyKind::Remoteness { .. } => {
            assert!(value
                .remoteness()
                .is_some_and(|r| u64::from(r) < 1 << header.width))
        }
        BodyKind::Quotient { .. } | BodyKind::Partizan { .. } => {
            assert!(value.nimber().is_some_and(|v| v < 1 << header.width))
        }
    }
}

fn forge_field(rng: &mut Rng, header: &mut Header) {
    let int = |rng: &mut Rng| {
        if rng.one_in(2) {
            INTERESTING_INTS[rng.below(INTERESTING_INTS.len())]
        } else {
            rng.skewed(5000) as u64
        }
    };
    match rng.below(12) {
        0 => header.entries = int(rng),
        1 => header.width = rng.skewed(64) as u8,
        2 => {
            header.kind = match rng.below(4) {
                0 => BodyKind::Outcomes {
                    unsafe_count: int(rng),
                },
                1 => BodyKind::NimValues { period: None },
                2 => BodyKind::NimValues {
                    period: Some(Periodicity {
                        preperiod: int(rng),
                        period: int(rng),
                        saltus: 0,
                        proved_at: Some(int(rng)),
                    }),
                },
                _ => BodyKind::Remoteness {
                    rmax: int(rng) as u32,
                },
            }
        }
        3 => header.game = FUZZ_GAMES[rng.below(FUZZ_GAMES.len())].to_string(),
        4 => {
            let mut game = header.game.clone().into_bytes();
            mutate(rng, &mut game, &[], Mode::Text, 256);
            header.game = String::from_utf8_lossy(&game).into_owned();
        }
        5 => {
            header.convention = match header.convention {
                Convention::Normal => Convention::Misere,
                Convention::Misere => Convention::Normal,
            }
        }
        6 => {
            header.domain = Domain::Heaps {
                heaps: int(rng) as u32,
                max: int(rng),
            }
        }
        7 => {
            header.domain = Domain::Total {
                total: int(rng) % 2100,
            }
        }
        8 => header.index_offset = int(rng),
        9 => header.body_offset = int(rng),
        10 => {
            header.histogram = if rng.one_in(3) {
                None
            } else {
                Some((0..rng.skewed(40)).map(|_| int(rng)).collect())
            }
        }
        _ => {
            // A header that describes the body it has: entries matching the domain.
            if let Ok(ranker) = Ranker::new(header.domain) {
                header.entries = ranker.count();
            }
            if let BodyKind::Remoteness { rmax } = header.kind {
                header.width = bits_for(u64::from(rmax));
            }
        }
    }
}

/// `check --table FILE`: answers and solutions from the chain over one table.
fn answer_from_outcomes(path: &Path, position: &Position, origin: Option<&Seed>) {
    let mut chain = match Chain::for_table(path) {
        Ok(chain) => chain,
        Err(error) => {
            one_line(&error);
            return;
        }
    };
    for remoteness in [Remoteness::IfAvailable, Remoteness::Required] {
        answer_one(&mut chain, position, origin, remoteness);
    }
    if let Err(error) = chain.solve(position, Query::default()) {
        one_line(&error);
    }
}

fn answer_one(
    chain: &mut Chain,
    position: &Position,
    origin: Option<&Seed>,
    remoteness: Remoteness,
) {
    let query = Query {
        best_move: true,
        remoteness,
    };
    match chain.answer(position, query) {
        Ok(answer) => {
            if let Some(origin) = origin {
                let rank = origin.table.ranker().rank(position).expect("in the domain");
                let truth = origin.table.value_at(rank).expect("the seed answers");
                assert_eq!(answer.value, truth, "damage changed the answer");
                if let Some(after) = &answer.best_move {
                    let rank = origin.table.ranker().rank(after).expect("in the domain");
                    let value = origin.table.value_at(rank).expect("the seed answers");
                    assert!(!value.is_win(), "a damaged table named a losing move");
                }
            }
        }
        Err(error) => {
            one_line(&error);
        }
    }
}

/// `check --nim-table FILE`: answers by nim-values read from the table.
fn answer_from_nim_values(path: &Path, game: &sicher::Game, rng: &mut Rng, origin: Option<&Seed>) {
    let policy = Policy {
        method: Method::Grundy,
        nim_table: Some(path.to_path_buf()),
        tables_dir: None,
        ..Policy::default()
    };
    let mut chain = match Chain::new(game, &policy) {
        Ok(chain) => chain,
        Err(error) => {
            one_line(&error);
            return;
        }
    };
    for _ in 0..2 {
        let heaps: Vec<u64> = (0..1 + rng.below(4))
            .map(|_| match rng.below(4) {
                0 => INTERESTING_INTS[rng.below(INTERESTING_INTS.len())],
                _ => rng.skewed(2000) as u64,
            })
            .collect();
        let position = Position::new(heaps);
        match chain.answer(&position, Query::default()) {
            Ok(answer) => {
                if let Some(origin) = origin {
                    // The seed, read as it was written, answers the same.
                    let mut truth = Chain::new(
                        game,
                        &Policy {
                            nim_table: Some(origin_path(origin)),
                            ..policy.clone()
                        },
                    )
                    .expect("the seed opens");
                    let expected = truth.answer(&position, Query::default());
                    assert_eq!(
                        Some(&answer),
                        expected.as_ref().ok(),
                        "damage changed the answer"
                    );
                }
            }
            Err(error) => {
                one_line(&error);
            }
        }
    }
}

fn origin_path(seed: &Seed) -> PathBuf {
    seed.table.path().to_path_buf()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

// ---------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------

#[test]
fn fuzz_inline_specs() {
    assert_no_crashes(fuzz(&mut Specs, 20_000));
}

#[test]
fn fuzz_description_files() {
    let dir = scratch_dir();
    let mut target = Descriptions {
        path: dir.path().join("fuzzed.toml"),
    };
    assert_no_crashes(fuzz(&mut target, 6_000));
}

/// Issue #35: scripted rules, one and two players, terminal rules, every runaway.
#[test]
fn fuzz_scripts() {
    let dir = scratch_dir();
    let mut target = scripts::Scripts {
        path: dir.path().join("scripted.toml"),
    };
    assert_no_crashes(fuzz(&mut target, 1_500));
}

#[test]
fn fuzz_positions() {
    assert_no_crashes(fuzz(&mut Positions, 20_000));
}

#[test]
fn fuzz_stdin_batches() {
    assert_no_crashes(fuzz(&mut Batches, 10_000));
}

#[test]
fn fuzz_outcome_tables() {
    let dir = scratch_dir();
    let small = dir.path().join("kayles.table");
    let large = dir.path().join("nim.table");
    let wythoff = dir.path().join("wythoff.table");
    sicher_cli(&[
        "table",
        "kayles",
        "--total",
        "20",
        "--misere",
        "--quiet",
        "-o",
        path_str(&small),
    ]);
    // Two blocks: probes past the first block check another checksum.
    sicher_cli(&[
        "table",
        "nim",
        "--heaps",
        "3",
        "--max",
        "170",
        "--quiet",
        "--uncompressed",
        "-o",
        path_str(&large),
    ]);
    sicher_cli(&[
        "table",
        "wythoff",
        "--heaps",
        "2",
        "--max",
        "60",
        "--quiet",
        "-o",
        path_str(&wythoff),
    ]);
    let mut target = Tables::new("outcomes", dir.path(), vec![small, large, wythoff]);
    assert_no_crashes(fuzz(&mut target, 3_000));
}

#[test]
fn fuzz_nim_value_tables() {
    let dir = scratch_dir();
    let kayles = dir.path().join("kayles.table");
    let wide = dir.path().join("wide.table");
    let subtraction = dir.path().join("subtraction.table");
    sicher_cli(&[
        "nim-values",
        "kayles",
        "--max",
        "1000",
        "--write",
        path_str(&kayles),
    ]);
    sicher_cli(&[
        "nim-values",
        "octal:0.6",
        "--max",
        "3000",
        "--write",
        path_str(&wide),
    ]);
    sicher_cli(&[
        "nim-values",
        "subtraction:1,3,4",
        "--max",
        "40",
        "--write",
        path_str(&subtraction),
    ]);
    let mut target = Tables::new("nim-values", dir.path(), vec![kayles, wide, subtraction]);
    assert_no_crashes(fuzz(&mut target, 3_000));
}

#[test]
fn fuzz_remoteness_tables() {
    let dir = scratch_dir();
    let kayles = dir.path().join("kayles.table");
    let nim = dir.path().join("nim.table");
    sicher_cli(&[
        "table",
        "kayles",
        "--total",
        "14",
        "--misere",
        "--remoteness",
        "--quiet",
        "-o",
        path_str(&kayles),
    ]);
    sicher_cli(&[
        "table",
        "nim",
        "--heaps",
        "2",
        "--max",
        "40",
        "--remoteness",
        "--quiet",
        "--uncompressed",
        "-o",
        path_str(&nim),
    ]);
    let mut target = Tables::new("remoteness", dir.path(), vec![kayles, nim]);
    assert_no_crashes(fuzz(&mut target, 3_000));
}

/// Runs one saved input (`SICHER_FUZZ_REPLAY=FILE`) through the target its name starts
/// with; without the variable, does nothing.
#[test]
fn replay_a_saved_input() {
    let Some(file) = std::env::var_os("SICHER_FUZZ_REPLAY").map(PathBuf::from) else {
        return;
    };
    let input = std::fs::read(&file).expect("read the saved input");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let repaired = name.contains("-repaired");
    let dir = scratch_dir();
    let shape = if name.starts_with("spec-") {
        Specs.run(&input, repaired)
    } else if name.starts_with("toml-") {
        Descriptions {
            path: dir.path().join("replay.toml"),
        }
        .run(&input, repaired)
    } else if name.starts_with("script-") {
        scripts::Scripts {
            path: dir.path().join("replay.toml"),
        }
        .run(&input, repaired)
    } else if name.starts_with("position-") {
        Positions.run(&input, repaired)
    } else if name.starts_with("stdin-") {
        Batches.run(&input, repaired)
    } else {
        // Tables: every check but the comparison with the seed, which is not at hand.
        Tables {
            name: "replay",
            seeds: Vec::new(),
            path: dir.path().join("replay.table"),
        }
        .run(&input, true)
    };
    eprintln!("{}: {shape}", file.display());
}

/// Found by the table targets: a header whose checksum was made to match a huge string
/// length made the decoder ask for exabytes and abort.
#[test]
fn a_forged_length_prefix_is_refused_without_allocating() {
    let dir = scratch_dir();
    let path = dir.path().join("k.table");
    sicher_cli(&[
        "table",
        "kayles",
        "--total",
        "10",
        "--quiet",
        "-o",
        path_str(&path),
    ]);
    let mut bytes = std::fs::read(&path).unwrap();
    let game = b"octal:0.77";
    let mut prefixed = (game.len() as u64).to_le_bytes().to_vec();
    prefixed.extend_from_slice(game);
    let at = bytes
        .windows(prefixed.len())
        .position(|w| w == prefixed)
        .expect("the game in the header");
    for huge in [u64::MAX, 1 << 62, 1 << 40] {
        bytes[at..at + 8].copy_from_slice(&huge.to_le_bytes());
        let end = 16 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let sum = checksum(&bytes[..end]);
        bytes[end..end + 8].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let error = Table::open(&path)
            .err()
            .expect("a forged header is refused");
        assert!(
            error.to_string().contains("corrupted table header"),
            "{error}"
        );
        one_line(&error);
    }
}

/// Found by the table targets (as an overflow in the fuzz profile): a forged body offset
/// near 2^64 made `body_offset + body_len` wrap around to the file's real length, so a
/// release build opened the table and then indexed far outside the mapping.
#[test]
fn a_forged_body_offset_cannot_wrap_to_the_file_length() {
    let dir = scratch_dir();
    let path = dir.path().join("n.table");
    sicher_cli(&[
        "table",
        "nim",
        "--heaps",
        "1",
        "--max",
        "100",
        "--quiet",
        "-o",
        path_str(&path),
    ]);
    let bytes = std::fs::read(&path).unwrap();
    let mut header = Table::open(&path).unwrap().header().clone();
    let len = bytes.len() as u64;
    // A body 64 bytes longer than the whole file, every entry a position of the domain.
    let body_len = len + 64;
    header.entries = body_len * 8;
    header.domain = Domain::Heaps {
        heaps: 1,
        max: header.entries - 1,
    };
    header.kind = BodyKind::Outcomes { unsafe_count: 0 };
    header.body_offset = 0u64.wrapping_sub(body_len - len);
    assert_eq!(header.blocks(), 1);
    let mut forged = header.encode();
    forged.extend_from_slice(&bytes[forged.len()..]);
    std::fs::write(&path, &forged).unwrap();
    let error = Table::open(&path)
        .err()
        .expect("a forged offset is refused");
    assert!(error.to_string().contains("truncated table"), "{error}");
    one_line(&error);
}

#[test]
fn fuzz_quotient_tables() {
    let dir = scratch_dir();
    let kayles = dir.path().join("kayles.quotient");
    let guiles = dir.path().join("guiles.quotient");
    for (game, max, path) in [("kayles", "30", &kayles), ("octal:0.15", "12", &guiles)] {
        sicher_cli(&[
            "quotient",
            game,
            "--max",
            max,
            "--quiet",
            "--write",
            path_str(path),
        ]);
    }
    let mut target = Tables::new("quotients", dir.path(), vec![kayles, guiles]);
    assert_no_crashes(fuzz(&mut target, 3_000));
}
