//! Where games come from: shipped descriptions (embedded in the binary), `.toml` files,
//! and inline specs such as `octal:0.77` or `subtraction:1,3,4`.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::code::{Radix, TakeBreakCode};
use super::position::Position;
use super::rules::{Ruleset, MOORE_MAX_K};
use super::{Convention, Game};
use crate::error::{quote, Error, Result};

/// A description shipped with sicher.
#[derive(Clone, Copy, Debug)]
pub struct ShippedGame {
    /// The name that selects it on the command line.
    pub name: &'static str,
    /// The TOML text of its description.
    pub toml: &'static str,
}

macro_rules! shipped {
    ($($name:literal),* $(,)?) => {
        &[$(ShippedGame { name: $name, toml: include_str!(concat!("../../games/", $name, ".toml")) }),*]
    };
}

const SHIPPED: &[ShippedGame] = shipped!(
    "nim",
    "kayles",
    "dawson-kayles",
    "treblecross",
    "grundy",
    "wythoff",
    "moore-2",
    "subtraction-1-3-4",
);

/// Every description shipped with sicher, in the order they are listed.
pub fn shipped_games() -> &'static [ShippedGame] {
    SHIPPED
}

/// Resolves a GAME argument: a shipped name, a path to a `.toml` file, or an inline spec.
pub fn resolve(arg: &str) -> Result<Game> {
    if let Some(shipped) = SHIPPED.iter().find(|g| g.name == arg) {
        return parse_description(shipped.toml, &format!("<shipped {}>", shipped.name));
    }
    let path = Path::new(arg);
    if arg.ends_with(".toml") || path.is_file() {
        let text = read_description(path)?;
        return parse_description(&text, arg);
    }
    if arg.contains(':') || matches!(arg, "grundy" | "wythoff") {
        return parse_spec(arg);
    }
    let names: Vec<&str> = SHIPPED.iter().map(|g| g.name).collect();
    Err(Error::input(format!(
        "unknown game {}: give a shipped game ({}), a .toml file, or a spec such as octal:0.77, hex:0.8F, subtraction:1,3,4, moore:2",
        quote(arg),
        names.join(", ")
    )))
}

/// Longest description file read: a description is a few lines; anything longer is not
/// one (and a device such as `/dev/zero` never ends).
pub const MAX_DESCRIPTION_BYTES: u64 = 1 << 20;

/// Reads a description file: a regular file only (a FIFO would block the reader, a device
/// never ends), of at most [`MAX_DESCRIPTION_BYTES`].
fn read_description(path: &Path) -> Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::input(format!(
            "{}: is not a regular file, so not a game description",
            path.display()
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_DESCRIPTION_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_DESCRIPTION_BYTES {
        return Err(Error::input(format!(
            "{}: longer than {} KiB, so not a game description",
            path.display(),
            MAX_DESCRIPTION_BYTES >> 10
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        Error::input(format!(
            "{}: is not UTF-8 text, so not a game description",
            path.display()
        ))
    })
}

/// Parses an inline spec such as `nim`, `octal:0.77`, `hex:0.8F`, `subtraction:1,3,4`,
/// `grundy`, `wythoff` or `moore:2`.
pub fn parse_spec(spec: &str) -> Result<Game> {
    let (kind, argument) = match spec.split_once(':') {
        Some((kind, argument)) => (kind, Some(argument)),
        None => (spec, None),
    };
    let ruleset = build_ruleset(kind, argument)
        .map_err(|why| Error::input(format!("game {}: {why}", quote(spec))))?;
    Ok(Game::new(ruleset.spec(), ruleset, Convention::Normal))
}

/// Builds a ruleset from its kind and its one parameter (code, set or k) as text.
fn build_ruleset(kind: &str, argument: Option<&str>) -> std::result::Result<Ruleset, String> {
    let needs = |what: &str| format!("{} needs {what}", quote(kind));
    match (kind, argument) {
        ("nim", None) => Ok(Ruleset::Nim),
        ("grundy", None) => Ok(Ruleset::Grundy),
        ("wythoff", None) => Ok(Ruleset::Wythoff),
        ("nim" | "grundy" | "wythoff", Some(_)) => {
            Err(format!("{} takes no parameter", quote(kind)))
        }
        ("octal" | "hex", Some(code)) => {
            let radix = if kind == "octal" {
                Radix::Octal
            } else {
                Radix::Hex
            };
            TakeBreakCode::parse(code, radix)
                .map(Ruleset::TakeBreak)
                .map_err(|e| e.to_string())
        }
        ("subtraction", Some(list)) => parse_subtraction_set(list),
        ("moore", Some(k)) => {
            let k: i128 = k
                .trim()
                .parse()
                .map_err(|_| format!("k = {} is not a whole number", quote(k)))?;
            check_moore_k(k)
        }
        ("octal" | "hex", None) => Err(needs("a code, as in octal:0.77")),
        ("subtraction", None) => Err(needs("a set, as in subtraction:1,3,4")),
        ("moore", None) => Err(needs("k, as in moore:2")),
        _ => Err(unknown_rules(kind)),
    }
}

/// Names the rules that exist, and the one meant when only the case was wrong.
fn unknown_rules(kind: &str) -> String {
    const KNOWN: [&str; 7] = [
        "nim",
        "octal",
        "hex",
        "subtraction",
        "grundy",
        "wythoff",
        "moore",
    ];
    let meant = KNOWN
        .iter()
        .find(|known| known.eq_ignore_ascii_case(kind))
        .map_or(String::new(), |known| format!("; did you mean `{known}`?"));
    format!(
        "unknown rules {} (expected nim, octal, hex, subtraction, grundy, wythoff or moore){meant}",
        quote(kind)
    )
}

fn check_moore_k(k: i128) -> std::result::Result<Ruleset, String> {
    if (1..=i128::from(MOORE_MAX_K)).contains(&k) {
        Ok(Ruleset::Moore(k as u32))
    } else {
        Err(format!("moore needs 1 <= k <= {MOORE_MAX_K}, got {k}"))
    }
}

fn parse_subtraction_set(list: &str) -> std::result::Result<Ruleset, String> {
    let mut set = Vec::new();
    for word in list.split(',').map(str::trim) {
        if word.is_empty() {
            continue;
        }
        let value: u64 = word.parse().map_err(|_| {
            format!(
                "{} in the subtraction set is not a positive integer",
                quote(word)
            )
        })?;
        set.push(i128::from(value));
    }
    check_subtraction_set(set)
}

/// Checks amounts given as wide signed integers, so TOML's negatives and the full `u64`
/// range of inline specs are judged by one rule.
fn check_subtraction_set(values: Vec<i128>) -> std::result::Result<Ruleset, String> {
    if values.is_empty() {
        return Err("the subtraction set is empty".into());
    }
    if let Some(bad) = values.iter().find(|&&v| v <= 0) {
        return Err(format!(
            "the subtraction set holds {bad}; every amount must be positive"
        ));
    }
    let mut set: Vec<u64> = values.into_iter().map(|v| v as u64).collect();
    debug_assert!(set.iter().all(|&v| v > 0));
    set.sort_unstable();
    set.dedup();
    Ok(Ruleset::Subtraction(set))
}

/// The schema of a `games/*.toml` description.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Description {
    name: String,
    rules: Spanned<String>,
    code: Option<Spanned<String>>,
    subtraction: Option<Spanned<Vec<i64>>>,
    k: Option<Spanned<i64>>,
    play: Option<Spanned<String>>,
    start: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    notes: String,
}

/// `file:line:column` for a byte offset into `text`.
fn locate(origin: &str, text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{origin}:{line}:{column}")
}

/// Most characters of a TOML parser's message kept in an error line.
const MAX_TOML_MESSAGE: usize = 300;

/// A TOML parser's message on one short line: what it quotes in backticks (an unknown
/// key, say) is quoted as all user text is, short and escaped, and the rest is cut too.
fn tame(message: &str) -> String {
    let mut out = String::new();
    for (i, part) in message.trim().split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&quote(part));
        } else {
            for c in part.chars() {
                match c {
                    '\n' | '\r' | '\t' => out.push(' '),
                    c if c.is_control() => out.extend(c.escape_default()),
                    c => out.push(c),
                }
            }
        }
    }
    if out.chars().count() > MAX_TOML_MESSAGE {
        out = out.chars().take(MAX_TOML_MESSAGE).collect();
        out.push('…');
    }
    out
}

/// Parses a TOML description; `origin` names the file in error messages.
pub fn parse_description(text: &str, origin: &str) -> Result<Game> {
    let description: Description = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or_else(
            || format!("{origin}:1:1"),
            |s| locate(origin, text, s.start),
        );
        Error::input(format!("{at}: {}", tame(e.message())))
    })?;
    let fail = |offset: usize, why: String| {
        Error::input(format!("{}: {why}", locate(origin, text, offset)))
    };
    let rules = description.rules.get_ref().as_str();
    let rules_at = description.rules.span().start;
    if !matches!(
        rules,
        "nim" | "octal" | "hex" | "subtraction" | "grundy" | "wythoff" | "moore"
    ) {
        return Err(fail(rules_at, unknown_rules(rules)));
    }
    // A parameter the rules do not use is a mistake, not something to ignore.
    let stray = [
        (
            "code",
            description.code.as_ref().map(|c| c.span().start),
            matches!(rules, "octal" | "hex"),
        ),
        (
            "subtraction",
            description.subtraction.as_ref().map(|s| s.span().start),
            rules == "subtraction",
        ),
        (
            "k",
            description.k.as_ref().map(|k| k.span().start),
            rules == "moore",
        ),
    ];
    for (key, at, used) in stray {
        if let (Some(at), false) = (at, used) {
            return Err(fail(
                at,
                format!("`{key}` does not apply to rules = \"{rules}\""),
            ));
        }
    }
    let ruleset = match rules {
        "octal" | "hex" => {
            let code = description.code.as_ref().ok_or_else(|| {
                fail(
                    rules_at,
                    format!("rules = \"{rules}\" needs a `code`, as in code = \"0.77\""),
                )
            })?;
            let radix = if rules == "octal" {
                Radix::Octal
            } else {
                Radix::Hex
            };
            TakeBreakCode::parse(code.get_ref(), radix)
                .map(Ruleset::TakeBreak)
                .map_err(|e| fail(code.span().start, e.to_string()))?
        }
        "subtraction" => {
            let set = description.subtraction.as_ref().ok_or_else(|| {
                fail(
                    rules_at,
                    "rules = \"subtraction\" needs `subtraction = [...]`".into(),
                )
            })?;
            check_subtraction_set(set.get_ref().iter().map(|&v| i128::from(v)).collect())
                .map_err(|why| fail(set.span().start, why))?
        }
        "moore" => {
            let k = description
                .k
                .as_ref()
                .ok_or_else(|| fail(rules_at, "rules = \"moore\" needs `k`".into()))?;
            check_moore_k(i128::from(*k.get_ref())).map_err(|why| fail(k.span().start, why))?
        }
        "nim" => Ruleset::Nim,
        "grundy" => Ruleset::Grundy,
        "wythoff" => Ruleset::Wythoff,
        other => return Err(fail(rules_at, unknown_rules(other))),
    };
    let convention = match description.play.as_ref() {
        None => Convention::Normal,
        Some(play) => match play.get_ref().as_str() {
            "normal" => Convention::Normal,
            "misere" | "misère" => Convention::Misere,
            other => {
                return Err(fail(
                    play.span().start,
                    format!("play = {}: expected \"normal\" or \"misere\"", quote(other)),
                ))
            }
        },
    };
    let mut game = Game::new(description.name, ruleset, convention);
    game.notes = description.notes;
    if let Some(start) = description.start {
        if let Some(bad) = start.get_ref().iter().find(|&&h| h < 0) {
            return Err(fail(
                start.span().start,
                format!("start holds {bad}; heaps are non-negative"),
            ));
        }
        game.start = Some(Position::new(
            start.get_ref().iter().map(|&h| h as u64).collect(),
        ));
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_description_parses() {
        for shipped in shipped_games() {
            let game = resolve(shipped.name).unwrap();
            assert_eq!(game.name, shipped.name);
            assert!(!game.notes.is_empty(), "{} has no notes", shipped.name);
        }
    }

    #[test]
    fn inline_specs() {
        assert_eq!(parse_spec("nim").unwrap().ruleset, Ruleset::Nim);
        assert_eq!(parse_spec("moore:2").unwrap().ruleset, Ruleset::Moore(2));
        assert_eq!(
            parse_spec("subtraction:4,1,3").unwrap().ruleset,
            Ruleset::Subtraction(vec![1, 3, 4])
        );
        for bad in [
            "octal:0.78",
            "octal:",
            "subtraction:",
            "subtraction:0,1",
            "moore:0",
            "chess",
            "nim:3",
        ] {
            assert!(parse_spec(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn toml_errors_carry_line_and_column() {
        let err = parse_description(
            "name = \"x\"\nrules = \"octal\"\ncode = \"0.78\"\n",
            "x.toml",
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("x.toml:3:8:"), "{err}");
        let err = parse_description("name = \"x\"\nrules = = 3\n", "y.toml").unwrap_err();
        assert!(err.to_string().starts_with("y.toml:2:"), "{err}");
        assert!(!err.to_string().contains('\n'));
    }

    #[test]
    fn toml_errors_quote_hostile_keys_short() {
        // A quoted key may hold anything, escapes included.
        let key = format!("\"x\\u001b[2J{}\"", "9".repeat(10_000));
        let err = parse_description(&format!("name = \"x\"\n{key} = 1\n"), "z.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("z.toml:2:1: unknown field `x\\u{1b}[2J999"),
            "{err}"
        );
        assert!(err.chars().count() < 400, "{err}");
        assert!(!err.chars().any(char::is_control), "{err}");
    }
}
