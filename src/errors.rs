//! How the command line words the library's errors: hints become this program's flags,
//! kinds become exit codes.

use sicher::error::{Error, ErrorKind, Hint, TableKind};

/// Exit code for anything the user can fix: bad input, damaged data, refused resources.
pub const USAGE: i32 = 2;
/// Exit code of a verification that found a disagreement.
pub const DISAGREEMENT: i32 = 1;
/// Exit code of a fault in sicher itself (EX_SOFTWARE): told apart from the user's.
pub const INTERNAL: i32 = 70;
/// Exit code after an interruption (128 + SIGINT, as shells report it).
pub const INTERRUPTED: i32 = 130;

/// The process exit code for an error.
pub fn exit_code(error: &Error) -> i32 {
    match error.kind() {
        ErrorKind::Disagreement => DISAGREEMENT,
        ErrorKind::Internal => INTERNAL,
        ErrorKind::Interrupted => INTERRUPTED,
        _ => USAGE,
    }
}

/// The one line printed after `sicher: `.
pub fn render(error: &Error) -> String {
    let message = error.message();
    match error.kind() {
        ErrorKind::Internal => format!("{message} (a bug in sicher: please report it)"),
        _ => match error.hint() {
            Some(hint) => format!("{message}; {}", flag_hint(hint)),
            None => message,
        },
    }
}

/// A hint in terms of this program's flags and commands.
fn flag_hint(hint: &Hint) -> String {
    match hint {
        Hint::Overwrite => "pass --force to overwrite it".into(),
        Hint::Restart => "pass --restart to throw the work away".into(),
        Hint::MoveAway => "move it away".into(),
        Hint::Wait => "wait for it to finish".into(),
        Hint::LowerMax => "lower --max".into(),
        Hint::MoreValuesOrSearch => "raise --max or use --method search".into(),
        Hint::SmallerDomain => "label a smaller domain".into(),
        Hint::ForceMemory => "pass --force-memory to try anyway".into(),
        Hint::UseTotal => "use --total T instead".into(),
        Hint::UseForward => "use --engine forward".into(),
        Hint::UseAsTable => "give it to --table".into(),
        Hint::UseAsNimTable => "give it to --nim-table".into(),
        Hint::UseMisere => "add --misere".into(),
        Hint::UseNimValues => "use --method grundy (nim-values) instead".into(),
        Hint::MakeRemotenessTable => {
            "make a remoteness table (`table` with --remoteness), or leave out --remoteness".into()
        }
        Hint::WriteAgain(TableKind::Positions) => "make the table again".into(),
        Hint::WriteAgain(TableKind::NimValues) => {
            "write it again (`nim-values` with --max N -o FILE)".into()
        }
        Hint::WriteAgain(TableKind::Quotient) => {
            "write it again (`quotient` with --max N -o FILE)".into()
        }
        Hint::UseQuotient(game) => format!(
            "misere play of splitting games is described by its misère quotient: `sicher quotient {} --max {QUOTIENT_SUGGESTED_MAX}`; or ask `check` or `solve` about a position",
            crate::args::shell_word(game)
        ),
        other => other.to_string(),
    }
}

/// The `--max` of a suggested `sicher quotient` command: heaps enough to show a
/// quotient's shape, few enough to finish in seconds.
pub const QUOTIENT_SUGGESTED_MAX: u64 = 30;

/// Most characters of a usage error: clap quotes the offending argument whole.
const MAX_USAGE_LINE: usize = 300;

/// Folds clap's message (everything before the usage block) onto one line, escaped and
/// cut short, since it quotes whatever was typed.
pub fn usage_line(message: &str) -> String {
    // The first paragraph, and clap's "tip:" lines after it ("a similar argument exists:
    // '--quiet'"), the suggestion for a mistyped flag.
    let first = message.lines().take_while(|line| !line.trim().is_empty());
    let tips = message
        .lines()
        .skip_while(|line| !line.trim().is_empty())
        .take_while(|line| !line.starts_with("Usage:"))
        .filter(|line| line.trim_start().starts_with("tip:"));
    let mut line = first.map(str::trim).collect::<Vec<_>>().join(" ");
    for tip in tips {
        line.push_str("; ");
        line.push_str(tip.trim());
    }
    let line = line.trim_start_matches("error: ");
    let mut out: String = line
        .chars()
        .take(MAX_USAGE_LINE)
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect();
    if line.chars().count() > MAX_USAGE_LINE {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hint may quote a command only if it runs as printed: no GAME, N or FILE to fill.
    #[test]
    fn hints_quote_only_commands_that_run_as_printed() {
        let hints = [
            Hint::UseQuotient("kayles".into()),
            Hint::UseQuotient("my games/k.toml".into()),
            Hint::MakeRemotenessTable,
            Hint::WriteAgain(TableKind::Positions),
            Hint::WriteAgain(TableKind::NimValues),
            Hint::WriteAgain(TableKind::Quotient),
            Hint::UseForward,
            Hint::MoreValuesOrSearch,
        ];
        for hint in &hints {
            let text = flag_hint(hint);
            for quoted in text.split('`').skip(1).step_by(2) {
                if quoted.starts_with("sicher ") {
                    let placeholder = quoted
                        .split_whitespace()
                        .any(|w| matches!(w, "GAME" | "N" | "FILE" | "T" | "K"));
                    assert!(!placeholder, "{hint:?}: {text}");
                }
            }
        }
        assert!(flag_hint(&Hint::UseQuotient("my games/k.toml".into()))
            .contains("`sicher quotient 'my games/k.toml' --max 30`"));
    }
}
