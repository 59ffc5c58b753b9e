//! README.md's examples are run: every `sicher check` line in a shell code block, and
//! every `sicher solve` line whose comment lists winning moves, must do what its comment
//! says. A comment that states a verdict is compared word for word on the verdict (and
//! the winning move, and the position, when shown); a comment that is a JSON object is
//! compared field by field with the answer's JSON.

use std::path::Path;
use std::process::Command;

const README: &str = include_str!("../README.md");

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
    let examples = examples(README);
    let stated = examples.iter().filter(|e| !e.comment.is_empty()).count();
    assert!(stated >= 4, "too few examples found: {examples:?}");
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|example| {
            run_and_check(example)
                .err()
                .map(|why| format!("README.md:{}: `{}`: {why}", example.line, example.command))
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    eprintln!("{} README examples run", examples.len());
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
