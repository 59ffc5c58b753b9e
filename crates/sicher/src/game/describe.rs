//! Where games come from: shipped descriptions (embedded in the binary), `.toml` files,
//! and inline specs such as `octal:0.77`, `subtraction:1,3,4` or `subtraction:squares`.
//! A description may also give its rules as a script (`rules = "script"`), whose inline
//! spec, `script:` and a hash of its text, names it in table headers: it finds the rules
//! only while the description they came from is loaded.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::code::{Radix, TakeBreakCode};
use super::custom::CustomRules;
use super::position::Position;
use super::rules::{Ruleset, MOORE_MAX_K};
use super::script::ScriptSource;
use super::subtraction::SubtractionFamily;
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
        &[$(ShippedGame { name: $name, toml: include_str!(concat!("../../../../games/", $name, ".toml")) }),*]
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
    "lasker-nim",
    "subtract-a-square",
    "officers",
    "dawson-chess",
    "guiles",
    "kayles-script",
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
        "unknown game {}: give a shipped game ({}), a .toml file, or a spec such as octal:0.77, hex:0.8F, subtraction:1,3,4, subtraction:squares, moore:2",
        quote(arg),
        names.join(", ")
    )))
}

/// Longest description file read: a description is a few lines; anything longer is not
/// one (and a device such as `/dev/zero` never ends).
pub const MAX_DESCRIPTION_BYTES: u64 = 1 << 20;

/// Reads a description file: a regular file only (a FIFO would block the reader, a device
/// never ends), of at most [`MAX_DESCRIPTION_BYTES`].
pub(super) fn read_description(path: &Path) -> Result<String> {
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
/// `subtraction:squares`, `grundy`, `wythoff` or `moore:2`; `script:...` names the rules
/// of a script described in a file already loaded (as table headers do).
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
pub(super) fn build_ruleset(
    kind: &str,
    argument: Option<&str>,
) -> std::result::Result<Ruleset, String> {
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
        ("subtraction", Some(list)) => match SubtractionFamily::parse(list) {
            Some(family) => family.map(Ruleset::InfiniteSubtraction),
            None => parse_subtraction_set(list),
        },
        ("script", Some(_)) => {
            let spec = format!("{kind}:{}", argument.unwrap_or_default());
            CustomRules::find(&spec).map(Ruleset::Custom).ok_or_else(|| {
                "the rules of a script: give the description file that holds the script (its text's hash must match)".to_string()
            })
        }
        ("script", None) => Err(needs("a description file: write the script in a .toml description")),
        ("moore", Some(k)) => {
            let k: i128 = k
                .trim()
                .parse()
                .map_err(|_| format!("k = {} is not a whole number", quote(k)))?;
            check_moore_k(k)
        }
        ("octal" | "hex", None) => Err(needs("a code, as in octal:0.77")),
        ("subtraction", None) => Err(needs(
            "a set, as in subtraction:1,3,4 or subtraction:squares (also primes, powers:K, fibonacci, triangular, all-but:1,2)",
        )),
        ("moore", None) => Err(needs("k, as in moore:2")),
        // Rules a caller's function gives (a Python function, say), named by the spec
        // its source chose: found while they are alive in this process.
        (_, Some(argument)) => CustomRules::find(&format!("{kind}:{argument}"))
            .map(Ruleset::Custom)
            .ok_or_else(|| unknown_rules(kind)),
        _ => Err(unknown_rules(kind)),
    }
}

/// Names the rules that exist, and the one meant when only the case was wrong.
fn unknown_rules(kind: &str) -> String {
    const KNOWN: [&str; 8] = [
        "nim",
        "octal",
        "hex",
        "subtraction",
        "grundy",
        "wythoff",
        "moore",
        "script",
    ];
    let meant = KNOWN
        .iter()
        .find(|known| known.eq_ignore_ascii_case(kind))
        .map_or(String::new(), |known| format!("; did you mean `{known}`?"));
    format!(
        "unknown rules {} (expected nim, octal, hex, subtraction, grundy, wythoff, moore or script){meant}",
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

/// A description's subtraction set: sizes, or a family by name.
#[derive(Deserialize)]
#[serde(untagged)]
enum SubtractionValue {
    /// `subtraction = [1, 3, 4]`.
    List(Vec<i64>),
    /// `subtraction = "squares"`, `"powers:3"`, `"all-but:1,2"`.
    Family(String),
}

/// The schema of a `games/*.toml` description.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Description {
    name: String,
    rules: Spanned<String>,
    code: Option<Spanned<String>>,
    subtraction: Option<Spanned<SubtractionValue>>,
    k: Option<Spanned<i64>>,
    options: Option<Spanned<String>>,
    play: Option<Spanned<String>>,
    start: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    notes: String,
    #[serde(default)]
    reference: String,
}

/// `file:line:column` for a byte offset into `text`.
pub(super) fn locate(origin: &str, text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{origin}:{line}:{column}")
}

/// Most characters of a TOML parser's message kept in an error line.
const MAX_TOML_MESSAGE: usize = 300;

/// A TOML parser's message on one short line: what it quotes in backticks (an unknown
/// key, say) is quoted as all user text is, short and escaped, and the rest is cut too.
pub(super) fn tame(message: &str) -> String {
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
        "nim" | "octal" | "hex" | "subtraction" | "grundy" | "wythoff" | "moore" | "script"
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
        (
            "options",
            description.options.as_ref().map(|o| o.span().start),
            rules == "script",
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
            let at = set.span().start;
            match set.get_ref() {
                SubtractionValue::List(list) => {
                    check_subtraction_set(list.iter().map(|&v| i128::from(v)).collect())
                }
                SubtractionValue::Family(name) => match SubtractionFamily::parse(name) {
                    Some(family) => family.map(Ruleset::InfiniteSubtraction),
                    None => Err(format!(
                        "subtraction = {}: give sizes as a list, as in [1, 3, 4], or a family: {}",
                        quote(name),
                        super::subtraction::FAMILIES
                    )),
                },
            }
            .map_err(|why| fail(at, why))?
        }
        "script" => {
            let script = description.options.as_ref().ok_or_else(|| {
                fail(
                    rules_at,
                    "rules = \"script\" needs `options = \"\"\" fn options(n) { ... } \"\"\"`, a Rhai function returning the options of a heap of size n".into(),
                )
            })?;
            let source = ScriptSource::new(origin, script.get_ref())
                .map_err(|why| fail(script.span().start, why))?;
            Ruleset::Custom(CustomRules::new(Box::new(source)))
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
    game.reference = description.reference;
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
        assert_eq!(
            parse_spec("subtraction:all-but:2,1").unwrap().ruleset,
            Ruleset::InfiniteSubtraction(SubtractionFamily::AllBut(vec![1, 2]))
        );
        for spec in [
            "subtraction:squares",
            "subtraction:primes",
            "subtraction:powers:2",
            "subtraction:fibonacci",
            "subtraction:triangular",
            "subtraction:all-but:1,2",
        ] {
            assert_eq!(parse_spec(spec).unwrap().ruleset.spec(), spec);
        }
        for bad in [
            "octal:0.78",
            "octal:",
            "subtraction:",
            "subtraction:0,1",
            "moore:0",
            "chess",
            "nim:3",
            "subtraction:cubes",
            "subtraction:powers:1",
            "subtraction:all-but:",
            "script:0123456789abcdef",
            "script",
        ] {
            assert!(parse_spec(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn descriptions_take_families_and_scripts() {
        let game = parse_description(
            "name = \"sq\"\nrules = \"subtraction\"\nsubtraction = \"squares\"\n",
            "sq.toml",
        )
        .unwrap();
        assert_eq!(game.ruleset.spec(), "subtraction:squares");
        let err = parse_description(
            "name = \"x\"\nrules = \"subtraction\"\nsubtraction = \"cubes\"\n",
            "x.toml",
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("x.toml:3:15:"), "{err}");
        let text = "name = \"s\"\nrules = \"script\"\noptions = \"\"\"\nfn options(n) { if n > 0 { [[n - 1]] } else { [] } }\n\"\"\"\n";
        let game = parse_description(text, "s.toml").unwrap();
        assert!(game.ruleset.spec().starts_with("script:"));
        // The table header's spec finds the rules while they are loaded.
        assert_eq!(
            parse_spec(&game.ruleset.spec()).unwrap().ruleset,
            game.ruleset
        );
        let err = parse_description(
            "name = \"s\"\nrules = \"script\"\noptions = \"fn options(n) { [[n] \"\n",
            "bad.toml",
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("bad.toml:3:11: the script does not compile"),
            "{err}"
        );
        let err = parse_description("name = \"s\"\nrules = \"script\"\n", "none.toml").unwrap_err();
        assert!(err.to_string().contains("needs `options"), "{err}");
        let err = parse_description(
            "name = \"s\"\nrules = \"nim\"\noptions = \"fn options(n) { [] }\"\n",
            "stray.toml",
        )
        .unwrap_err();
        assert!(err.to_string().contains("does not apply"), "{err}");
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
