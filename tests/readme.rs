//! The examples of README.md and of every chapter of the guide in docs/ are run: every
//! `sicher check` line in a shell code block, and every `sicher solve` line whose comment
//! lists winning moves, must do what its comment says. A comment that states a verdict is compared word for word on the verdict (and
//! the winning move, and the position, when shown); a comment that is a JSON object is
//! compared field by field with the answer's JSON.
//!
//! Beyond those, every `sicher` example of README.md, of docs/*.md and of every
//! subcommand's `--help` runs as written, a code block (or a `--help`) at a time in a scratch directory of its
//! own (with the repository's `games/` beside it), and must exit 0 and agree with its
//! comment: a JSON fragment shown must be in the output, a file it says it writes must
//! be there, a remoteness it states must be the one said, and every number it states
//! (that the command does not) must be in the output. Examples that take minutes run
//! only with `--ignored`. Answers quoted in their prose must be what `check` prints, and
//! every link between these pages must lead to a file (and a heading) that exists.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const README: &str = include_str!("../README.md");

/// README.md, then every chapter of the guide (`docs/*.md`, read when the tests run, so
/// a chapter added or edited needs no rebuild), by name: the documents whose examples,
/// quoted answers and links are held to what they say.
fn documents() -> Vec<(String, String)> {
    let mut out = vec![("README.md".to_string(), README.to_string())];
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(&docs)
        .expect("read docs/")
        .map(|entry| entry.expect("read docs/").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    chapters.sort();
    for path in chapters {
        let name = format!("docs/{}", path.file_name().unwrap().to_string_lossy());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, text));
    }
    out
}

/// One example: the command as typed, and its comment.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    comment: String,
}

/// Lines of shell code blocks that run `sicher check` (or `sicher solve` with a comment
/// naming winning moves), split at the comment.
fn examples(markdown: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_shell = false;
    for (number, line) in markdown.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(fence) = trimmed.strip_prefix("```") {
            in_shell = !in_shell && matches!(fence, "sh" | "bash" | "shell" | "console");
            continue;
        }
        if !in_shell {
            continue;
        }
        let (command, comment) = split_comment(trimmed);
        let runs_check =
            command.starts_with("sicher check ") || command.contains("| sicher check ");
        let lists_moves =
            command.starts_with("sicher solve ") && comment.starts_with("winning moves");
        if runs_check || lists_moves {
            out.push(Example {
                line: number + 1,
                command: command.to_string(),
                comment: comment.to_string(),
            });
        }
    }
    out
}

/// Splits `command   # comment` at the first `#` outside quotes that follows a space.
fn split_comment(line: &str) -> (&str, &str) {
    let mut quote = None;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if previous.is_whitespace() => {
                return (line[..at].trim(), line[at + 1..].trim());
            }
            _ => {}
        }
        previous = c;
    }
    (line.trim(), "")
}

/// Runs an example's command line with `sh`, `sicher` being the binary under test, in an
/// empty directory (no tables/ to answer from).
fn run(command: &str) -> Result<String, String> {
    let bin_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sicher"), bin_dir.path().join("sicher"))
        .map_err(|e| e.to_string())?;
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let output = Command::new("sh")
        .args(["-c", command])
        .env("PATH", path)
        .current_dir(work.path())
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!(
            "exit {:?}: {}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The verdict word of a text: `safe` or `unsafe`, whichever comes first as a word.
fn verdict(text: &str) -> Option<&'static str> {
    text.split(|c: char| !c.is_alphanumeric())
        .find_map(|word| match word {
            "safe" => Some("safe"),
            "unsafe" => Some("unsafe"),
            _ => None,
        })
}

/// What follows `marker` up to the next `)` or `;` or the end.
fn after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    let start = text.find(marker)? + marker.len();
    let rest = &text[start..];
    let end = rest.find([')', ';']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// Checks one example's output against its comment.
fn check(example: &Example, stdout: &str) -> Result<(), String> {
    let comment = example.comment.as_str();
    let first = stdout.lines().next().unwrap_or("");
    if comment.starts_with('{') {
        let expected: serde_json::Value =
            serde_json::from_str(comment).map_err(|e| format!("comment is not JSON: {e}"))?;
        let actual: serde_json::Value =
            serde_json::from_str(first).map_err(|e| format!("output is not JSON: {e}: {first}"))?;
        let fields = expected.as_object().ok_or("comment is not a JSON object")?;
        for (key, value) in fields {
            if actual.get(key) != Some(value) {
                return Err(format!(
                    "field {key}: the comment says {value}, sicher says {}",
                    actual.get(key).map_or("nothing".into(), |v| v.to_string())
                ));
            }
        }
        return Ok(());
    }
    if comment.starts_with("winning moves") {
        // `winning moves (2): to 247 400; to 399 646`: the count and every move.
        let count = after(comment, "winning moves (").ok_or("no move count")?;
        let shown = stdout
            .lines()
            .find(|l| l.contains("winning move"))
            .ok_or("sicher lists no winning moves")?;
        if !shown.contains(&format!("({count}")) {
            return Err(format!(
                "the comment counts {count} moves, sicher says {shown:?}"
            ));
        }
        for part in comment.split(';') {
            let to = part.rsplit("to ").next().unwrap_or("").trim();
            if !stdout.contains(&format!("to {to}")) {
                return Err(format!("move to {to} is not in the output: {stdout:?}"));
            }
        }
        return Ok(());
    }
    if let Some(said) = verdict(comment) {
        let got = verdict(first).ok_or_else(|| format!("no verdict in {first:?}"))?;
        if said != got {
            return Err(format!(
                "the comment says {said}, sicher says {got}: {first:?}"
            ));
        }
        // `3 4 5: safe: ...`: the position shown first is the one answered.
        if let Some((position, _)) = comment.split_once(':') {
            let heaps = position.chars().all(|c| c.is_ascii_digit() || c == ' ');
            if heaps && !first.starts_with(&format!("{position}:")) {
                return Err(format!(
                    "the comment shows position {position:?}: {first:?}"
                ));
            }
        }
        if let Some(to) = after(comment, "winning move: to ") {
            let got = after(first, "winning move: to ").unwrap_or("none");
            if to != got {
                return Err(format!(
                    "the comment's winning move is to {to}, sicher's to {got}"
                ));
            }
        }
        return Ok(());
    }
    if comment.contains("with a winning move") && !first.contains("winning move: to ") {
        return Err(format!("the comment promises a winning move: {first:?}"));
    }
    if stdout.trim().is_empty() {
        return Err("no output".into());
    }
    Ok(())
}

fn run_and_check(example: &Example) -> Result<(), String> {
    let stdout = run(&example.command)?;
    check(example, &stdout)
}

#[test]
fn readme_check_examples_say_what_sicher_says() {
    let readme = examples(README);
    let stated = readme.iter().filter(|e| !e.comment.is_empty()).count();
    assert!(stated >= 4, "too few examples found: {readme:?}");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (name, text) in documents() {
        for example in examples(&text) {
            ran += 1;
            if let Err(why) = run_and_check(&example) {
                failures.push(format!(
                    "{name}:{}: `{}`: {why}",
                    example.line, example.command
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    eprintln!("{ran} check examples of README.md and docs/ run");
}

#[test]
fn a_wrong_example_fails() {
    let wrong = "```sh
sicher check nim 1 2 3          # 1 2 3: safe: the player to move wins (winning move: to 1 1 2)
sicher check nim 3 4 5          # 3 4 5: safe: the player to move wins (winning move: to 1 4 4)
sicher check nim 3 4 5 --json   # {\"position\":[3,4,5],\"win\":false}
sicher check kayles 10 --json   # {\"position\":[10],\"source\":\"table\"}
sicher check nim 2 2            # 1 2: unsafe: the player to move loses
sicher solve wythoff 400 647    # winning moves (2): to 247 400; to 399 645
sicher check nim 3 4 --json     # {not json}
```
";
    let wrong = examples(wrong);
    assert_eq!(wrong.len(), 7);
    for example in &wrong {
        assert!(
            run_and_check(example).is_err(),
            "README.md example accepted though wrong: {example:?}"
        );
    }
    // And the right ones pass.
    let right = "```sh
sicher check nim 1 2 3 # 1 2 3: unsafe: the player to move loses
sicher check nim 3 4 5 --json   # {\"position\":[3,4,5],\"win\":true}
```
";
    for example in &examples(right) {
        run_and_check(example).unwrap();
    }
    assert!(Path::new(env!("CARGO_BIN_EXE_sicher")).exists());
}

#[test]
fn ci_runs_exactly_the_readme_test_command() {
    let section = README
        .split("## On a fresh machine")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("README has an \"On a fresh machine\" section");
    let commands: Vec<&str> = section
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("cargo "))
        .collect();
    let test = commands
        .iter()
        .find(|c| c.starts_with("cargo test"))
        .expect("a test command");
    let ci = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run"))
        .expect("read .ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == *test),
        ".ci/run does not run `{test}`"
    );
    assert_eq!(commands.len(), 2, "{commands:?}");
}

/// Examples that take minutes: run by the ignored test only.
const SLOW: &[&str] = &[
    "--compare-plain",
    "bench --remoteness",
    "bench --engine plain",
];

fn is_slow(command: &str) -> bool {
    SLOW.iter().any(|slow| command.contains(slow))
}

/// `sicher serve` runs until Ctrl-C: tests/serve starts servers and stops them itself.
fn serves(command: &str) -> bool {
    command.starts_with("sicher serve")
}

/// Every example that runs sicher, a group per shell code block.
fn blocks(markdown: &str) -> Vec<Vec<Example>> {
    let mut out: Vec<Vec<Example>> = Vec::new();
    let mut in_shell = false;
    for (number, line) in markdown.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(fence) = trimmed.strip_prefix("```") {
            in_shell = !in_shell && matches!(fence, "sh" | "bash" | "shell" | "console");
            if in_shell {
                out.push(Vec::new());
            }
            continue;
        }
        if !in_shell {
            continue;
        }
        let (command, comment) = split_comment(trimmed);
        if runs_sicher(command) {
            if let Some(block) = out.last_mut() {
                block.push(Example {
                    line: number + 1,
                    command: command.to_string(),
                    comment: comment.to_string(),
                });
            }
        }
    }
    out.retain(|block| !block.is_empty());
    out
}

/// True for a command line that runs sicher (alone, piped into, or after `&&`).
fn runs_sicher(command: &str) -> bool {
    command.starts_with("sicher ")
        || command.contains("| sicher ")
        || command.contains("&& sicher ")
}

/// The subcommands `sicher --help` lists.
fn subcommands() -> Vec<String> {
    let help = Command::new(env!("CARGO_BIN_EXE_sicher"))
        .arg("--help")
        .output()
        .expect("sicher --help");
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The examples of `sicher NAME --help`: the `sicher` lines after `Examples:`.
fn help_examples(name: &str) -> Vec<Example> {
    let help = Command::new(env!("CARGO_BIN_EXE_sicher"))
        .args([name, "--help"])
        .output()
        .expect("sicher NAME --help");
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    text.lines()
        .enumerate()
        .skip_while(|(_, l)| !l.starts_with("Examples:"))
        .skip(1)
        .take_while(|(_, l)| !l.trim().is_empty())
        .filter_map(|(number, line)| {
            let (command, comment) = split_comment(line.trim());
            runs_sicher(command).then(|| Example {
                line: number + 1,
                command: command.to_string(),
                comment: comment.to_string(),
            })
        })
        .collect()
}

/// A scratch directory with `sicher` on the `PATH` and a copy of `games/`.
struct Scratch {
    dir: tempfile::TempDir,
    bin: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let bin = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sicher"), bin.path().join("sicher"))
            .unwrap();
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        std::fs::create_dir(dir.path().join("games")).unwrap();
        for entry in std::fs::read_dir(games).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(
                &path,
                dir.path().join("games").join(path.file_name().unwrap()),
            )
            .unwrap();
        }
        Scratch { dir, bin }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs a command line with `sh` (its stdin: `quit`, for `play`), killed after
    /// `limit`; returns its stdout, or why it failed.
    fn run(&self, command: &str, limit: Duration) -> Result<String, String> {
        let path = format!(
            "{}:{}",
            self.bin.path().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out_file: PathBuf = self.bin.path().join("stdout");
        let err_file: PathBuf = self.bin.path().join("stderr");
        let mut child = Command::new("sh")
            .args(["-c", command])
            .env("PATH", path)
            .current_dir(self.path())
            .stdin(Stdio::piped())
            .stdout(std::fs::File::create(&out_file).map_err(|e| e.to_string())?)
            .stderr(std::fs::File::create(&err_file).map_err(|e| e.to_string())?)
            .spawn()
            .map_err(|e| e.to_string())?;
        {
            use std::io::Write as _;
            let mut input = child.stdin.take().unwrap();
            let _ = input.write_all(b"quit\n");
        }
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break status;
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("still running after {limit:?}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let stdout = std::fs::read_to_string(&out_file).unwrap_or_default();
        let stderr = std::fs::read_to_string(&err_file).unwrap_or_default();
        if !status.success() {
            return Err(format!("exit {:?}: {}", status.code(), stderr.trim()));
        }
        Ok(stdout)
    }
}

/// The digit runs of a text.
fn numbers(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Checks an example's output (and the files it left) against its comment, by the
/// comment's form; see the module's notes.
fn check_any(example: &Example, stdout: &str, dir: &Path) -> Result<(), String> {
    let comment = example.comment.as_str();
    let squeeze = |text: &str| -> String { text.chars().filter(|c| !c.is_whitespace()).collect() };
    if comment.starts_with('"') {
        // A JSON fragment, `…` for what is left out.
        let shown = comment.split('…').next().unwrap_or("");
        return if squeeze(stdout).contains(&squeeze(shown)) {
            Ok(())
        } else {
            Err(format!("{shown:?} is not in the output: {stdout:?}"))
        };
    }
    if let Some(file) = comment.strip_prefix("writes ") {
        let file = file.split_whitespace().next().unwrap_or("");
        return if dir.join(file).is_file() {
            Ok(())
        } else {
            Err(format!("{file} was not written"))
        };
    }
    let redirected = example.command.contains('>');
    if redirected && comment.is_empty() {
        return Ok(());
    }
    check(example, stdout)?;
    if comment.starts_with('{') || comment.starts_with("winning moves") {
        return Ok(());
    }
    if verdict(comment).is_some() {
        // A remoteness stated must be the one said.
        for marker in ["wins in ", "loses in "] {
            if let Some(at) = comment.find(marker) {
                let count: String = comment[at + marker.len()..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                if !count.is_empty() && !stdout.contains(&format!("{marker}{count}")) {
                    return Err(format!("the comment says {marker}{count}: {stdout:?}"));
                }
            }
        }
        return Ok(());
    }
    let typed = numbers(&example.command);
    let said: Vec<&str> = stdout
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    for number in numbers(comment) {
        if !typed.contains(&number) && !said.contains(&number) {
            return Err(format!(
                "the comment states {number}, the output does not: {stdout:?}"
            ));
        }
    }
    Ok(())
}

/// Runs groups of examples, each group in a scratch directory of its own, the slow ones
/// only when `slow`; returns the failures and how many ran.
fn run_groups(groups: &[(String, Vec<Example>)], slow: bool) -> (Vec<String>, usize) {
    let limit = Duration::from_secs(if slow { 1800 } else { 300 });
    let mut failures = Vec::new();
    let mut ran = 0;
    for (origin, examples) in groups {
        let scratch = Scratch::new();
        for example in examples {
            if is_slow(&example.command) != slow || serves(&example.command) {
                continue;
            }
            ran += 1;
            let outcome = scratch
                .run(&example.command, limit)
                .and_then(|stdout| check_any(example, &stdout, scratch.path()));
            if let Err(why) = outcome {
                failures.push(format!(
                    "{origin}:{}: `{}`: {why}",
                    example.line, example.command
                ));
            }
        }
    }
    (failures, ran)
}

/// The blocks of README.md and of docs/*.md, then each subcommand's `--help`.
fn every_example() -> Vec<(String, Vec<Example>)> {
    let mut groups: Vec<(String, Vec<Example>)> = documents()
        .into_iter()
        .flat_map(|(name, text)| {
            blocks(&text)
                .into_iter()
                .map(move |block| (name.clone(), block))
        })
        .collect();
    for name in subcommands() {
        groups.push((format!("sicher {name} --help"), help_examples(&name)));
    }
    groups
}

#[test]
fn every_subcommand_help_has_examples_of_itself() {
    let names = subcommands();
    assert!(names.len() >= 12, "{names:?}");
    for name in names {
        let examples = help_examples(&name);
        assert!(
            examples
                .iter()
                .any(|e| e.command.contains(&format!("sicher {name}"))),
            "sicher {name} --help has no example of itself: {examples:?}"
        );
    }
}

#[test]
fn every_example_runs_as_written_in_a_scratch_directory() {
    let (failures, ran) = run_groups(&every_example(), false);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(ran >= 40, "only {ran} examples found");
    eprintln!("{ran} examples run");
}

#[test]
#[ignore = "the examples that take minutes: cargo test --release --test sicher readme:: -- --ignored"]
fn the_slow_examples_run_as_written_too() {
    let (failures, ran) = run_groups(&every_example(), true);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(ran >= 5, "only {ran} slow examples found");
}

#[test]
fn comments_that_state_numbers_files_or_fragments_are_held_to_them() {
    let dir = tempfile::tempdir().unwrap();
    let example = |command: &str, comment: &str| Example {
        line: 1,
        command: command.to_string(),
        comment: comment.to_string(),
    };
    let period = example("sicher solve kayles", "period 12 from n = 71");
    assert!(check_any(&period, "period 12 from n = 71, proved", dir.path()).is_ok());
    assert!(check_any(&period, "period 12 from n = 72", dir.path()).is_err());
    let hash = example("sicher solve nim 3 --hash 64", "at most 64 MiB");
    assert!(check_any(&hash, "anything", dir.path()).is_ok());
    let written = example("sicher table nim", "writes t.table");
    assert!(check_any(&written, "", dir.path()).is_err());
    std::fs::write(dir.path().join("t.table"), b"x").unwrap();
    assert!(check_any(&written, "", dir.path()).is_ok());
    let fragment = example("sicher solve", "\"moves\": [{\"to\":[1]}, …]");
    assert!(check_any(
        &fragment,
        "{\"moves\":[{\"to\":[1]},{\"to\":[2]}]}",
        dir.path()
    )
    .is_ok());
    assert!(check_any(&fragment, "{\"moves\":[{\"to\":[2]}]}", dir.path()).is_err());
    let remote = example("sicher check", "3 4 5: safe: the player to move wins in 11");
    assert!(check_any(
        &remote,
        "3 4 5: safe: the player to move wins in 13\n",
        dir.path()
    )
    .is_err());
    assert!(check_any(
        &remote,
        "3 4 5: safe: the player to move wins in 11\n",
        dir.path()
    )
    .is_ok());
}

/// The prose's quoted answers: every "`check …`: `ANSWER`" in a document (a command
/// and, after a colon, the line it prints), joined across line breaks.
fn prose_answers(markdown: &str) -> Vec<(String, String)> {
    let text = markdown.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("`check ") {
        rest = &rest[at + 1..];
        let Some(end) = rest.find('`') else { break };
        let command = rest[..end].to_string();
        rest = &rest[end + 1..];
        if let Some(after) = rest.strip_prefix(": `") {
            if let Some(close) = after.find('`') {
                found.push((command, after[..close].to_string()));
            }
        }
    }
    found
}

#[test]
fn answers_quoted_in_the_readme_prose_are_what_sicher_prints() {
    // The quoted answers moved with the remoteness into docs/answers.md; every document
    // is read.
    let answers: Vec<(String, String, String)> = documents()
        .into_iter()
        .flat_map(|(name, text)| {
            prose_answers(&text)
                .into_iter()
                .map(move |(command, said)| (name.clone(), command, said))
        })
        .collect();
    assert!(answers.len() >= 2, "{answers:?}");
    for (name, command, said) in answers {
        let printed =
            run(&format!("sicher {command}")).unwrap_or_else(|e| panic!("{command}: {e}"));
        assert_eq!(printed.trim_end(), said, "{name}: `{command}`");
    }
}

#[test]
fn cargo_run_knows_which_binary_the_readme_means() {
    // With sicher-mpi beside sicher, `cargo run --release -- solve …` (the first
    // command on a fresh machine) stops at "could not determine which binary to run"
    // unless the manifest names the default.
    let manifest = include_str!("../Cargo.toml");
    let binaries = manifest.matches("[[bin]]").count();
    assert!(
        binaries < 2 || manifest.contains("\ndefault-run = \"sicher\"\n"),
        "Cargo.toml has {binaries} binaries and no default-run = \"sicher\""
    );
    assert!(README.contains("\ncargo run --release -- solve "));
}

/// The anchor a heading gets (as GitHub makes them): lower case, letters, digits, `-`
/// and `_` kept, spaces made `-`, everything else (backticks, colons, commas, brackets)
/// dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of a markdown document's headings (outside code blocks); a repeated
/// heading gets `-1`, `-2`, … as on GitHub.
fn anchors(markdown: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while out.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        out.push(anchor);
    }
    out
}

/// The targets of a markdown document's links and images (`[text](target)`), outside
/// code blocks and code spans, with their line numbers.
fn links(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (number, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // Code spans are not links: keep the text between them.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            out.push((number + 1, rest[..end].trim().to_string()));
            rest = &rest[end..];
        }
    }
    out
}

/// Why a link of the document `from` (a path relative to the repository) leads nowhere,
/// if it does: a file that does not exist, or an anchor no heading of its target has.
/// Links to other sites are not followed.
fn broken_link(root: &Path, from: &str, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, anchor) = match target.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (target, None),
    };
    let path = if file.is_empty() {
        root.join(from)
    } else {
        root.join(from).parent().unwrap().join(file)
    };
    if !path.exists() {
        return Some(format!("{} does not exist", path.display()));
    }
    let anchor = anchor?;
    let text = std::fs::read_to_string(&path).ok()?;
    if anchors(&text).iter().any(|a| a == anchor) {
        None
    } else {
        Some(format!("{} has no heading #{anchor}", path.display()))
    }
}

#[test]
fn every_link_of_the_readme_and_the_guide_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut followed = 0;
    for (name, text) in documents() {
        for (line, target) in links(&text) {
            followed += 1;
            if let Some(why) = broken_link(root, &name, &target) {
                failures.push(format!("{name}:{line}: ({target}): {why}"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(followed >= 30, "only {followed} links found");
}

#[test]
fn every_chapter_of_the_guide_is_in_its_index() {
    let docs = documents();
    let index = &docs
        .iter()
        .find(|(name, _)| name == "docs/README.md")
        .expect("docs/README.md, the guide's index")
        .1;
    let linked: Vec<String> = links(index).into_iter().map(|(_, t)| t).collect();
    for (name, _) in &docs {
        let Some(chapter) = name.strip_prefix("docs/") else {
            continue;
        };
        if chapter == "README.md" {
            continue;
        }
        assert!(
            linked.iter().any(|t| t.split('#').next() == Some(chapter)),
            "docs/README.md does not link {chapter}"
        );
    }
}

#[test]
fn broken_links_and_anchors_are_found() {
    assert_eq!(
        slug(" Across machines: `sicher-mpi`"),
        "across-machines-sicher-mpi"
    );
    assert_eq!(slug(" Misère quotients"), "misère-quotients");
    assert_eq!(
        slug(" Description format (`games/*.toml`)"),
        "description-format-gamestoml"
    );
    assert_eq!(
        anchors("# A\n## B\n```\n# not a heading\n```\n## B\n"),
        ["a", "b", "b-1"]
    );
    let text = "See [x](a.md#b), `[not](a link)` and ![p](p.png).\n```\n[no](code)\n```\n";
    assert_eq!(
        links(text),
        [(1, "a.md#b".to_string()), (1, "p.png".to_string())]
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::fs::write(dir.path().join("docs/a.md"), "# Title\n## Some part\n").unwrap();
    std::fs::write(dir.path().join("README.md"), "").unwrap();
    let root = dir.path();
    assert_eq!(broken_link(root, "README.md", "docs/a.md#some-part"), None);
    assert_eq!(broken_link(root, "docs/a.md", "a.md#title"), None);
    assert_eq!(broken_link(root, "docs/a.md", "#some-part"), None);
    assert_eq!(broken_link(root, "docs/a.md", "../README.md"), None);
    assert_eq!(
        broken_link(root, "README.md", "https://example.invalid/x"),
        None
    );
    assert!(broken_link(root, "README.md", "docs/b.md").is_some());
    assert!(broken_link(root, "README.md", "a.md").is_some());
    assert!(broken_link(root, "README.md", "docs/a.md#other-part").is_some());
}
