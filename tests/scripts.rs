//! Hostile and broken scripts (`rules = "script"`) through the binary: each ends in one
//! line naming the description, the heap size where there is one, and what went wrong,
//! with exit code 2, within seconds, whatever command meets it.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `sicher` with `args`, killing it past `limit`; (exit code, stderr, took).
fn run(args: &[&str], dir: &Path, limit: Duration) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sicher"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            return (status.code(), stderr, started.elapsed());
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("sicher {args:?} ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Each hostile script, the heap it fails at (None: when it is read), and what the line says.
const HOSTILE: &[(&str, &str, Option<u64>, &str)] = &[
    (
        "syntax",
        "fn options(n) { [[n - 1] ",
        None,
        "does not compile",
    ),
    (
        "no-function",
        "fn moves(n) { [] }",
        None,
        "defines no `fn options(n)`",
    ),
    (
        "endless",
        "fn options(n) { loop { } }",
        Some(0),
        "operations",
    ),
    (
        "endless-later",
        "fn options(n) { if n == 5 { while true { } } if n > 0 { [[n - 1]] } else { [] } }",
        Some(5),
        "operations",
    ),
    (
        "runaway-array",
        "fn options(n) { let a = [0]; loop { a += a; } }",
        Some(0),
        "limit",
    ),
    (
        "runaway-string",
        "fn options(n) { let s = \"ab\"; loop { s += s; } }",
        Some(0),
        "limit",
    ),
    (
        "deep",
        "fn f(x) { f(x + 1) } fn options(n) { f(0) }",
        Some(0),
        "nest deeper",
    ),
    (
        "wrong-type",
        "fn options(n) { \"no\" }",
        Some(0),
        "returned a string",
    ),
    (
        "wrong-inner",
        "fn options(n) { if n > 2 { [n - 1] } else { [] } }",
        Some(3),
        "not an array of heap sizes",
    ),
    (
        "float",
        "fn options(n) { if n > 0 { [[0.5]] } else { [] } }",
        Some(1),
        "not a whole number",
    ),
    (
        "not-smaller",
        "fn options(n) { if n > 3 { [[n]] } else { [] } }",
        Some(4),
        "not smaller than 4",
    ),
    (
        "larger",
        "fn options(n) { if n > 6 { [[1, n + 1]] } else { [] } }",
        Some(7),
        "not smaller than 7",
    ),
    (
        "negative",
        "fn options(n) { if n > 5 { [[-1]] } else { [] } }",
        Some(6),
        "never negative",
    ),
    (
        "many-parts",
        "fn options(n) { if n > 4 { [[1, 1, 1, 1]] } else { [] } }",
        Some(5),
        "more than 3 heaps",
    ),
    (
        "pushed-array",
        "fn options(n) { let a = []; for i in 0..100000000 { a.push(i); } [[]] }",
        Some(0),
        "limit",
    ),
    (
        "map-keys",
        "fn options(n) { let m = #{}; for i in 0..100000000 { m[i.to_string()] = i; } [[]] }",
        Some(0),
        "operations",
    ),
    (
        "string-chars",
        "fn options(n) { let s = \"\"; for i in 0..100000000 { s += \"x\"; } [[]] }",
        Some(0),
        "limit",
    ),
    (
        "numbers",
        "fn options(n) { let x = 2; loop { x *= x; } }",
        Some(0),
        "overflow",
    ),
    ("divide", "fn options(n) { [[n / 0]] }", Some(0), "ivision"),
    (
        "throws",
        "fn options(n) { throw \"nope\"; }",
        Some(0),
        "nope",
    ),
];

#[test]
fn hostile_scripts_end_in_one_line_with_exit_code_2_within_seconds() {
    let dir = tempfile::tempdir().unwrap();
    for &(name, script, heap, says) in HOSTILE {
        let file = format!("{name}.toml");
        std::fs::write(
            dir.path().join(&file),
            format!("name = \"{name}\"\nrules = \"script\"\noptions = \"\"\"\n{script}\n\"\"\"\n"),
        )
        .unwrap();
        let commands: [&[&str]; 7] = [
            &["nim-values", &file, "--max", "20", "-q"],
            &["check", &file, "9", "12"],
            &["check", &file, "9", "12", "--misere"],
            &["solve", &file, "--max", "50", "-q"],
            &["table", &file, "--total", "10", "-o", "t.tbl", "--quiet"],
            &["quotient", &file, "--max", "12"],
            &["verify", &file, "--total", "10"],
        ];
        for args in commands {
            let (code, stderr, took) = run(args, dir.path(), Duration::from_secs(30));
            let what = format!("{name}: sicher {args:?}: {stderr}");
            assert_eq!(code, Some(2), "{what}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{what}");
            assert!(stderr.contains(&file), "{what}");
            assert!(stderr.contains(says), "{what}");
            if let Some(heap) = heap {
                assert!(stderr.contains(&format!("heap {heap}:")), "{what}");
            }
            assert!(!stderr.contains("panicked"), "{what}");
            assert!(took < Duration::from_secs(10), "{what} took {took:?}");
            assert!(!dir.path().join("t.tbl").exists(), "{what}");
        }
    }
}

#[test]
fn a_script_whose_option_outgrows_its_heap_is_refused_a_total_bound() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("grow.toml"),
        "name = \"grow\"\nrules = \"script\"\noptions = \"\"\"\nfn options(n) { if n >= 2 { [[n - 1, n - 1]] } else { [] } }\n\"\"\"\n",
    )
    .unwrap();
    let (code, stderr, _) = run(
        &[
            "table",
            "grow.toml",
            "--total",
            "8",
            "-o",
            "t.tbl",
            "--quiet",
        ],
        dir.path(),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("heap 3 has the option 2 2"), "{stderr}");
    // Its nim-values are fine: every heap an option leaves is smaller.
    let (code, stderr, _) = run(
        &["nim-values", "grow.toml", "--max", "30", "-q"],
        dir.path(),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(0), "{stderr}");
}

/// `solve` on a script restating a take-and-break game once computed 2 000 heaps by
/// default, a cube of the length in interpreter work (minutes on a loaded machine) where
/// `nim-values --max 100` answered at once: scripts are solved to 1 000 heaps by default.
#[test]
fn solve_on_a_script_answers_within_seconds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, stderr, took) = run(
        &["solve", "games/kayles-script.toml", "-q"],
        root,
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
    let output = Command::new(env!("CARGO_BIN_EXE_sicher"))
        .args(["solve", "games/kayles-script.toml", "-q"])
        .current_dir(root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("period 12 from n = 71 in the values up to n = 1000"),
        "{stdout}"
    );
}
