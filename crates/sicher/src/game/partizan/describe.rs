//! Where partizan games come from: inline specs (`partizan-subtraction:1,3/2,3`,
//! `partizan-octal:0.7/0.07`, `partizan-hex:…`, `partizan:SPEC/SPEC`) and descriptions
//! (`rules = "partizan-subtraction"` with `left` and `right`; `rules = "script"` whose
//! `options(n, player)` takes the player or that defines `terminal(heaps, player)`).

use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use super::super::describe::{build_ruleset, locate, read_description, tame};
use super::super::script::{ScriptShape, ScriptSource};
use super::super::{CustomRules, Position, Ruleset};
use super::{PartizanGame, Terminal, TerminalScript};
use crate::error::{quote, Error, Result};

/// The kinds of partizan rules, as `rules = "…"` and inline specs name them.
const KINDS: [&str; 3] = ["partizan-subtraction", "partizan-octal", "partizan-hex"];

/// True when `spec` is a partizan inline spec (`partizan-…:` or `partizan:`).
pub fn is_partizan_spec(spec: &str) -> bool {
    let kind = spec.split_once(':').map_or(spec, |(kind, _)| kind);
    kind == "partizan" || KINDS.contains(&kind)
}

/// Parses a partizan inline spec: `partizan-subtraction:L/R` (each side a set such as
/// `1,3` or a family such as `squares`), `partizan-octal:0.7/0.07`, `partizan-hex:…`, or
/// `partizan:SPEC/SPEC` with each side an impartial one-heap spec.
pub fn parse_partizan_spec(spec: &str) -> Result<PartizanGame> {
    let fail = |why: String| Error::input(format!("game {}: {why}", quote(spec)));
    let (kind, argument) = spec.split_once(':').ok_or_else(|| {
        fail("needs each player's rules after a colon, Left's then Right's, as in partizan-subtraction:1,3/2,3".into())
    })?;
    let (left, right) = argument.split_once('/').ok_or_else(|| {
        fail("needs Left's rules and Right's separated by a slash, as in partizan-subtraction:1,3/2,3 or partizan-octal:0.7/0.07".into())
    })?;
    let side = |text: &str, who: &str| -> Result<Ruleset> {
        let built = match kind {
            "partizan" => match text.split_once(':') {
                Some((k, a)) => build_ruleset(k, Some(a)),
                None => build_ruleset(text, None),
            },
            other => build_ruleset(kind_of(other), Some(text)),
        };
        built.map_err(|why| fail(format!("{who}'s rules: {why}")))
    };
    if !is_partizan_spec(kind) {
        return Err(fail(format!(
            "unknown rules {} (expected {} or partizan)",
            quote(kind),
            KINDS.join(", ")
        )));
    }
    let game = PartizanGame::new(spec, side(left, "Left")?, side(right, "Right")?)
        .map_err(|e| fail(e.message()))?;
    let canonical = game.spec();
    Ok(PartizanGame {
        name: canonical,
        ..game
    })
}

/// The impartial kind each player's rules are of.
fn kind_of(partizan: &str) -> &str {
    partizan.strip_prefix("partizan-").unwrap_or(partizan)
}

/// The canonical spec of a pair of rules: `partizan-subtraction:1,3/2,3`,
/// `partizan-octal:0.7/0.07`, `partizan-script:` and the script's hash, or
/// `partizan:LEFT/RIGHT` with both players' impartial specs.
pub(super) fn spec_of(left: &Ruleset, right: &Ruleset) -> String {
    let (l, r) = (left.spec(), right.spec());
    let split = |s: &str| {
        s.split_once(':')
            .map(|(k, a)| (k.to_string(), a.to_string()))
    };
    match (split(&l), split(&r)) {
        (Some((lk, la)), Some((rk, ra)))
            if lk == rk && matches!(lk.as_str(), "subtraction" | "octal" | "hex") =>
        {
            format!("partizan-{lk}:{la}/{ra}")
        }
        _ => match (l.strip_suffix("/left"), r.strip_suffix("/right")) {
            // One script for both players: its hash names it.
            (Some(script), Some(same)) if script == same => format!("partizan-{script}"),
            _ => format!("partizan:{l}/{r}"),
        },
    }
}

/// One player's rules in a description: sizes, or a family or code by name.
#[derive(Deserialize)]
#[serde(untagged)]
enum SideValue {
    /// `left = [1, 3]`.
    List(Vec<i64>),
    /// `left = "squares"`, `left = "0.7"`.
    Text(String),
}

/// The schema of a partizan description.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Description {
    name: String,
    rules: Spanned<String>,
    left: Option<Spanned<SideValue>>,
    right: Option<Spanned<SideValue>>,
    options: Option<Spanned<String>>,
    play: Option<Spanned<String>>,
    start: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    notes: String,
    #[serde(default)]
    reference: String,
}

/// True when a description's text describes a partizan game: `rules` is a partizan kind,
/// or a script takes the player or defines `terminal`. Text that does not parse, or a
/// script that does not compile, is left to the impartial reader's messages.
pub fn is_partizan_description(text: &str) -> bool {
    let Ok(table) = text.parse::<toml::Table>() else {
        return false;
    };
    match table.get("rules").and_then(toml::Value::as_str) {
        Some(kind) if KINDS.contains(&kind) => true,
        Some("script") => table
            .get("options")
            .and_then(toml::Value::as_str)
            .is_some_and(ScriptShape::is_partizan),
        _ => false,
    }
}

/// A game of either kind, as a GAME argument names it.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// An impartial game: exactly what [`resolve`](super::super::resolve) gives.
    Impartial(super::super::Game),
    /// A partizan game.
    Partizan(PartizanGame),
}

/// The partizan game a GAME argument names, or `None` when it names no partizan game
/// (an impartial one, or nothing: [`resolve`](super::super::resolve) then says what).
pub fn resolve_partizan(arg: &str) -> Result<Option<PartizanGame>> {
    if is_partizan_spec(arg) {
        return parse_partizan_spec(arg).map(Some);
    }
    let path = std::path::Path::new(arg);
    if arg.ends_with(".toml") || path.is_file() {
        if let Ok(text) = read_description(path) {
            if is_partizan_description(&text) {
                return parse_partizan_description(&text, arg).map(Some);
            }
        }
    }
    Ok(None)
}

/// Resolves a GAME argument of either kind: partizan inline specs and descriptions to
/// [`AnyGame::Partizan`], everything else through [`resolve`](super::super::resolve)
/// unchanged.
pub fn resolve_any(arg: &str) -> Result<AnyGame> {
    match resolve_partizan(arg)? {
        Some(game) => Ok(AnyGame::Partizan(game)),
        None => super::super::resolve(arg).map(AnyGame::Impartial),
    }
}

/// Parses a partizan description; `origin` names the file in messages.
pub fn parse_partizan_description(text: &str, origin: &str) -> Result<PartizanGame> {
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
    let script = rules == "script";
    if !script && !KINDS.contains(&rules) {
        return Err(fail(
            rules_at,
            format!(
                "unknown rules {} (expected {} or script)",
                quote(rules),
                KINDS.join(", ")
            ),
        ));
    }
    for (key, at, used) in [
        (
            "left",
            description.left.as_ref().map(|v| v.span().start),
            !script,
        ),
        (
            "right",
            description.right.as_ref().map(|v| v.span().start),
            !script,
        ),
        (
            "options",
            description.options.as_ref().map(|v| v.span().start),
            script,
        ),
    ] {
        if let (Some(at), false) = (at, used) {
            return Err(fail(
                at,
                format!("`{key}` does not apply to rules = \"{rules}\""),
            ));
        }
    }
    let mut terminal = Terminal::Normal;
    let (left, right) = if script {
        let options = description
            .options
            .as_ref()
            .ok_or_else(|| fail(rules_at, "rules = \"script\" needs `options`".into()))?;
        let at = options.span().start;
        let text = options.get_ref();
        let shape = ScriptShape::of(text).map_err(|why| fail(at, why))?;
        let side = |player: &'static str| -> Result<Ruleset> {
            let source =
                ScriptSource::for_player(origin, text, player).map_err(|why| fail(at, why))?;
            Ok(Ruleset::Custom(CustomRules::new(Box::new(source))))
        };
        if shape.terminal {
            terminal = Terminal::Script(Arc::new(TerminalScript::new(origin, text)));
        }
        (side("left")?, side("right")?)
    } else {
        let side = |value: &Option<Spanned<SideValue>>, who: &str| -> Result<Ruleset> {
            let value = value.as_ref().ok_or_else(|| {
                fail(
                    rules_at,
                    format!("rules = \"{rules}\" needs `{who}`, {}", example(rules)),
                )
            })?;
            let at = value.span().start;
            let kind = kind_of(rules);
            let built = match value.get_ref() {
                SideValue::List(list) if kind == "subtraction" => {
                    let words: Vec<String> = list.iter().map(i64::to_string).collect();
                    if list.iter().any(|&v| v <= 0) {
                        Err(format!(
                            "`{who}` holds {}; every amount must be positive",
                            list.iter().find(|&&v| v <= 0).copied().unwrap_or(0)
                        ))
                    } else {
                        build_ruleset(kind, Some(&words.join(",")))
                    }
                }
                SideValue::List(_) => Err(format!(
                    "`{who}` of rules = \"{rules}\" is a code in quotes, as in \"0.7\""
                )),
                SideValue::Text(text) => build_ruleset(kind, Some(text)),
            };
            built.map_err(|why| fail(at, format!("`{who}`: {why}")))
        };
        (
            side(&description.left, "left")?,
            side(&description.right, "right")?,
        )
    };
    match description.play.as_ref() {
        None => {}
        Some(play) => match (play.get_ref().as_str(), &terminal) {
            ("normal", _) => {}
            ("misere" | "misère", Terminal::Normal) => terminal = Terminal::Misere,
            ("misere" | "misère", _) => return Err(fail(
                play.span().start,
                "play = \"misere\" does not go with a terminal script: the script says who wins"
                    .into(),
            )),
            (other, _) => {
                return Err(fail(
                    play.span().start,
                    format!("play = {}: expected \"normal\" or \"misere\"", quote(other)),
                ))
            }
        },
    }
    let mut game = PartizanGame::new(description.name, left, right)
        .map_err(|e| fail(rules_at, e.message()))?
        .with_terminal(terminal);
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

/// How each player's rules are written for a kind.
fn example(rules: &str) -> &'static str {
    match rules {
        "partizan-subtraction" => "a set such as [1, 3] or a family such as \"squares\"",
        "partizan-hex" => "a code such as \"0.F\"",
        _ => "a code such as \"0.7\"",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_back_canonical() {
        for (spec, canonical) in [
            (
                "partizan-subtraction:3,1/2,3",
                "partizan-subtraction:1,3/2,3",
            ),
            (
                "partizan-subtraction:squares/1,2",
                "partizan-subtraction:squares/1,2",
            ),
            ("partizan-octal:0.7/0.07", "partizan-octal:0.7/0.07"),
            ("partizan-hex:0.F/0.3", "partizan-hex:0.F/0.3"),
            (
                "partizan:subtraction:1/octal:0.07",
                "partizan:subtraction:1/octal:0.07",
            ),
        ] {
            let game = parse_partizan_spec(spec).unwrap();
            assert_eq!(game.spec(), canonical);
            assert_eq!(parse_partizan_spec(&game.spec()).unwrap().spec(), canonical);
        }
        for bad in [
            "partizan-subtraction:1,3",
            "partizan-subtraction:/2",
            "partizan-octal:0.8/0.7",
            "partizan:wythoff/nim",
            "partizan-nim:1/2",
            "partizan-subtraction",
        ] {
            let err = parse_partizan_spec(bad).unwrap_err().to_string();
            assert!(!err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn descriptions_name_the_place() {
        let ok = "name = \"p\"\nrules = \"partizan-subtraction\"\nleft = [1, 3]\nright = \"squares\"\nplay = \"misere\"\n";
        let game = parse_partizan_description(ok, "p.toml").unwrap();
        assert_eq!(game.spec(), "partizan-subtraction:1,3/squares");
        assert!(matches!(game.terminal, Terminal::Misere));
        let err = parse_partizan_description(
            "name = \"p\"\nrules = \"partizan-octal\"\nleft = \"0.9\"\nright = \"0.7\"\n",
            "q.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("q.toml:3:8: `left`"), "{err}");
        assert!(is_partizan_description(ok));
        assert!(!is_partizan_description(
            "name = \"k\"\nrules = \"octal\"\ncode = \"0.77\"\n"
        ));
    }
}
