//! Rules written as a Rhai script: `fn options(n) { ... }` returns the options of a lone
//! heap of size `n` as an array of arrays of heap sizes. One implementation of
//! [`HeapOptionsSource`]; [`super::custom`] checks and caches what it returns.
//!
//! The interpreter runs sandboxed: no modules (no files), no time functions (the same
//! options every run), `print` and `debug` silenced (the library never prints), `eval`
//! disabled, and limits on operations per call, call and expression depth, variables, and
//! array, string and map sizes, so a hostile or broken script ends in an error within a
//! second or so, never a hang or unbounded memory. The engine is built per thread and
//! kept for the thread's later calls (it is not `Send`); the cache it fills is shared.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Array, CallFnOptions, Dynamic, Engine, EvalAltResult, Position, Scope, AST, INT};

use super::custom::HeapOptionsSource;
use super::Heap;
use crate::checksum::checksum;

/// Operations one call of `options(n)` may take (Rhai counts statements, expressions and
/// loop steps): a fraction of a second of plain arithmetic, about a second of map and
/// string work, and still far more than listing the most options an array may hold.
pub const MAX_OPERATIONS: u64 = 5_000_000;
/// Nested function calls.
pub const MAX_CALL_LEVELS: usize = 24;
/// Nested expressions, at top level and within functions.
pub const MAX_EXPR_DEPTH: (usize, usize) = (64, 48);
/// Elements of an array, nested arrays counted in full. Rhai counts them again at every
/// push, so filling an array costs the square of its size: this bound keeps a runaway
/// array under a second.
pub const MAX_ARRAY: usize = 1 << 16;
/// Bytes of a string.
pub const MAX_STRING: usize = 1 << 12;
/// Entries of an object map.
pub const MAX_MAP: usize = 1 << 10;
/// Variables in scope at once.
pub const MAX_VARIABLES: usize = 256;
/// Functions a script may define.
pub const MAX_FUNCTIONS: usize = 256;
/// Characters of a script's error kept in a message.
const MAX_MESSAGE: usize = 240;

/// A script's rules: its text, checked to compile and to define `options(n)` (or, for a
/// partizan game, `options(n, player)`, asked for one player).
pub struct ScriptSource {
    name: String,
    text: String,
    spec: String,
    /// `"left"` or `"right"` for a two-parameter `options(n, player)`.
    player: Option<&'static str>,
}

/// What a script defines, as a description's reader decides by: the parameters of its
/// `options` and whether it has a `terminal(heaps, player)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptShape {
    /// Parameters of `options`: 1 (`options(n)`) or 2 (`options(n, player)`).
    pub options_arity: usize,
    /// True when the script defines `terminal(heaps, player)`.
    pub terminal: bool,
}

impl ScriptShape {
    /// True when a script is meant for a partizan game: its `options` takes two
    /// parameters or it defines a `terminal` of any kind (whose mistakes the partizan
    /// reader then reports). False when it does not compile.
    pub fn is_partizan(text: &str) -> bool {
        let Ok(ast) = sandbox().compile(text) else {
            return false;
        };
        // Bound to a name: the iterator borrows the AST, which must outlive it.
        let found = ast
            .iter_functions()
            .any(|f| (f.name == "options" && f.params.len() == 2) || f.name == "terminal");
        found
    }

    /// Compiles `text` and reads what it defines: `options` with one or two parameters
    /// (anything else is `Err(why)`), and `terminal` with two if present.
    pub fn of(text: &str) -> Result<Self, String> {
        let engine = sandbox();
        let ast = engine
            .compile(text)
            .map_err(|e| format!("the script does not compile: {}", one_line(&e.to_string())))?;
        let options_arity = match ast.iter_functions().find(|f| f.name == "options") {
            Some(f) if matches!(f.params.len(), 1 | 2) => f.params.len(),
            Some(f) => {
                return Err(format!(
                    "the script's `options` takes {} parameters; it must take the heap size, and for a partizan game the player: fn options(n) or fn options(n, player)",
                    f.params.len()
                ))
            }
            None => {
                return Err(
                    "the script defines no `fn options(n)`, which must return the options of a heap of size n"
                        .into(),
                )
            }
        };
        let terminal = match ast.iter_functions().find(|f| f.name == "terminal") {
            Some(f) if f.params.len() == 2 => true,
            Some(f) => {
                return Err(format!(
                    "the script's `terminal` takes {} parameters; it must take the heaps and the player: fn terminal(heaps, player)",
                    f.params.len()
                ))
            }
            None => false,
        };
        Ok(ScriptShape {
            options_arity,
            terminal,
        })
    }
}

impl ScriptSource {
    /// Compiles `text` to check it (a syntax error, or no `fn options(n)`, is `Err(why)`,
    /// with the script's line and column where there is one); `name` names it in messages.
    pub fn new(name: &str, text: &str) -> Result<Self, String> {
        let engine = sandbox();
        let ast = engine
            .compile(text)
            .map_err(|e| format!("the script does not compile: {}", one_line(&e.to_string())))?;
        match ast.iter_functions().find(|f| f.name == "options") {
            Some(f) if f.params.len() == 1 => {}
            Some(f) => {
                return Err(format!(
                    "the script's `options` takes {} parameters; it must take one, the heap size: fn options(n) {{ ... }}",
                    f.params.len()
                ))
            }
            None => {
                return Err(
                    "the script defines no `fn options(n)`, which must return the options of a heap of size n"
                        .into(),
                )
            }
        }
        Ok(ScriptSource {
            name: name.to_string(),
            text: text.to_string(),
            spec: spec_of(text),
            player: None,
        })
    }

    /// One player's rules of a partizan script: `options(n, player)` is called with
    /// `player` (`"left"` or `"right"`); a one-parameter `options(n)` gives both players
    /// the same rules. The spec names the player (`script:…/left`), so each player's
    /// options are cached apart.
    pub fn for_player(name: &str, text: &str, player: &'static str) -> Result<Self, String> {
        let shape = ScriptShape::of(text)?;
        if shape.options_arity == 1 {
            return ScriptSource::new(name, text);
        }
        Ok(ScriptSource {
            name: name.to_string(),
            text: text.to_string(),
            spec: format!("{}/{player}", spec_of(text)),
            player: Some(player),
        })
    }

    /// Runs `options(n)` (or `options(n, player)`) on this thread's engine.
    fn call(&self, n: Heap) -> Result<Dynamic, String> {
        let compiled = compiled(&self.spec, &self.text)?;
        let n =
            INT::try_from(n).map_err(|_| format!("heap {n} does not fit the script's integers"))?;
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let mut scope = Scope::new();
        let result = match self.player {
            None => compiled.engine.call_fn_with_options::<Dynamic>(
                options,
                &mut scope,
                &compiled.ast,
                "options",
                (n,),
            ),
            Some(player) => compiled.engine.call_fn_with_options::<Dynamic>(
                options,
                &mut scope,
                &compiled.ast,
                "options",
                (n, Dynamic::from(player)),
            ),
        };
        result.map_err(|e| explain(&e))
    }
}

/// Runs a script's `terminal(heaps, player)` on this thread's engine: `Some(true)` for
/// `"win"`, `Some(false)` for `"lose"`, `None` for `()` (play goes on); anything else is
/// `Err(why)`. `key` names the compiled script in this thread's cache.
pub fn call_terminal(
    key: &str,
    text: &str,
    heaps: &[Heap],
    player: &'static str,
) -> Result<Option<bool>, String> {
    let compiled = compiled(key, text)?;
    let mut array = Array::with_capacity(heaps.len());
    for &h in heaps {
        let h =
            INT::try_from(h).map_err(|_| format!("heap {h} does not fit the script's integers"))?;
        array.push(Dynamic::from(h));
    }
    let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
    let returned = compiled
        .engine
        .call_fn_with_options::<Dynamic>(
            options,
            &mut Scope::new(),
            &compiled.ast,
            "terminal",
            (array, Dynamic::from(player)),
        )
        .map_err(|e| explain(&e))?;
    if returned.is_unit() {
        return Ok(None);
    }
    let word = returned.clone().into_string().map_err(|type_name| {
        format!(
            "terminal(…, \"{player}\") returned {}, not \"win\", \"lose\" or () (play goes on)",
            article(type_name)
        )
    })?;
    match word.as_str() {
        "win" => Ok(Some(true)),
        "lose" => Ok(Some(false)),
        other => Err(format!(
            "terminal(…, \"{player}\") returned \"{}\", not \"win\", \"lose\" or () (play goes on)",
            one_line(other)
        )),
    }
}

/// The spec of a script: `script:` and 16 hexadecimal digits of its text's checksum.
pub fn spec_of(text: &str) -> String {
    format!("script:{:016x}", checksum(text.as_bytes()))
}

impl HeapOptionsSource for ScriptSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn options(&self, n: Heap) -> Result<Vec<Vec<i64>>, String> {
        let returned = self.call(n)?;
        let outer = returned
            .into_typed_array::<Dynamic>()
            .map_err(|type_name| {
                format!(
                    "options({n}) returned {}, not an array of arrays of heap sizes",
                    article(type_name)
                )
            })?;
        outer
            .into_iter()
            .enumerate()
            .map(|(i, option)| {
                let parts: Array = option.into_typed_array::<Dynamic>().map_err(|type_name| {
                    format!(
                        "option {} of options({n}) is {}, not an array of heap sizes (write [3] for a single heap, [] for none)",
                        i + 1,
                        article(type_name)
                    )
                })?;
                parts
                    .into_iter()
                    .map(|part| {
                        part.as_int().map_err(|type_name| {
                            format!(
                                "option {} of options({n}) holds {}, not a whole number",
                                i + 1,
                                article(type_name)
                            )
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

/// A compiled script on one thread.
struct Compiled {
    engine: Engine,
    ast: AST,
}

/// Compiled scripts kept per thread.
const KEPT: usize = 8;

thread_local! {
    /// This thread's compiled scripts by spec, the latest used last.
    static COMPILED: RefCell<Vec<(String, Rc<Compiled>)>> = const { RefCell::new(Vec::new()) };
}

/// This thread's compiled form of a script, compiled on first use.
fn compiled(spec: &str, text: &str) -> Result<Rc<Compiled>, String> {
    COMPILED.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(at) = kept.iter().position(|(s, _)| s == spec) {
            let entry = kept.remove(at);
            let compiled = entry.1.clone();
            kept.push(entry);
            return Ok(compiled);
        }
        let engine = sandbox();
        let ast = engine
            .compile(text)
            .map_err(|e| format!("the script does not compile: {}", one_line(&e.to_string())))?;
        let compiled = Rc::new(Compiled { engine, ast });
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((spec.to_string(), compiled.clone()));
        Ok(compiled)
    })
}

/// An engine with the standard library and every limit set.
fn sandbox() -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(MAX_EXPR_DEPTH.0, MAX_EXPR_DEPTH.1)
        .set_max_array_size(MAX_ARRAY)
        .set_max_string_size(MAX_STRING)
        .set_max_map_size(MAX_MAP)
        .set_max_variables(MAX_VARIABLES)
        .set_max_functions(MAX_FUNCTIONS)
        .set_max_strings_interned(256);
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.disable_symbol("eval");
    engine
}

/// What went wrong in a call, in words, on one line.
fn explain(error: &EvalAltResult) -> String {
    let at = |pos: &Position| match (pos.line(), pos.position()) {
        (Some(line), Some(column)) => format!(" (script line {line}, column {column})"),
        (Some(line), None) => format!(" (script line {line})"),
        _ => String::new(),
    };
    match error {
        EvalAltResult::ErrorTooManyOperations(pos) => format!(
            "the script ran past {MAX_OPERATIONS} operations (an endless loop?){}",
            at(pos)
        ),
        EvalAltResult::ErrorStackOverflow(pos) => {
            format!("the script's calls nest deeper than {MAX_CALL_LEVELS}{}", at(pos))
        }
        EvalAltResult::ErrorDataTooLarge(what, pos) => format!(
            "{} grew past the script's limit ({MAX_ARRAY} array elements, {MAX_STRING} string bytes, {MAX_MAP} map entries){}",
            what.to_lowercase(),
            at(pos)
        ),
        EvalAltResult::ErrorTooManyVariables(pos) => {
            format!("the script holds more than {MAX_VARIABLES} variables{}", at(pos))
        }
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => explain(inner),
        other => one_line(&other.to_string()),
    }
}

/// A message on one short line: control characters and line breaks become spaces.
fn one_line(text: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if out.chars().count() > MAX_MESSAGE {
        out = out.chars().take(MAX_MESSAGE).collect();
        out.push('…');
    }
    out
}

/// `a string`, `an array`: a Rhai type name with its article.
fn article(type_name: &str) -> String {
    let name = match type_name {
        "i64" | "i32" => "an integer",
        "f64" | "f32" => "a number with a point",
        "string" | "ImmutableString" | "&str" => "a string",
        "()" => "nothing",
        "bool" => "a boolean",
        "map" => "an object map",
        "array" => "an array",
        other => return format!("a value of type {}", one_line(other)),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(text: &str, n: Heap) -> Result<Vec<Vec<i64>>, String> {
        ScriptSource::new("t.toml", text)?.options(n)
    }

    #[test]
    fn kayles_as_a_script() {
        let kayles = "fn options(n) { let out = []; for take in 1..=2 { if take <= n { for a in 0..=(n - take) { out.push([a, n - take - a]); } } } out }";
        let four = options(kayles, 4).unwrap();
        assert_eq!(four.len(), 7);
        assert!(four.contains(&vec![1, 2]));
        assert!(options(kayles, 0).unwrap().is_empty());
    }

    #[test]
    fn broken_scripts_say_what_went_wrong() {
        let cases = [
            ("fn options(n) { [[n - 1] ", "does not compile"),
            ("fn option(n) { [] }", "defines no `fn options(n)`"),
            ("fn options(n, m) { [] }", "must take one"),
            ("fn options(n) { loop { } }", "operations"),
            ("fn options(n) { \"three\" }", "returned a string"),
            ("fn options(n) { [3] }", "is an integer, not an array"),
            ("fn options(n) { [[1.5]] }", "not a whole number"),
            ("fn options(n) { let a = [0]; loop { a += a; } }", "limit"),
            ("fn f(x) { f(x + 1) } fn options(n) { f(0) }", "nest deeper"),
            ("fn options(n) { let s = \"x\"; loop { s += s; } }", "limit"),
            ("fn options(n) { n / 0 }", "ivision"),
            ("fn options(n) { print(n); debug(n); [] }", ""),
        ];
        for (text, says) in cases {
            let result = options(text, 3);
            if says.is_empty() {
                assert_eq!(result, Ok(vec![]), "{text}");
                continue;
            }
            let error = result.unwrap_err();
            assert!(error.contains(says), "{text}: {error}");
            assert!(!error.contains('\n'), "{error}");
        }
    }

    #[test]
    fn specs_name_the_text() {
        let a = ScriptSource::new("a", "fn options(n) { [] }").unwrap();
        let b = ScriptSource::new("b", "fn options(n) { [] }").unwrap();
        let c = ScriptSource::new("c", "fn options(n) { [[]] }").unwrap();
        assert_eq!(a.spec(), b.spec());
        assert_ne!(a.spec(), c.spec());
        assert!(a.spec().starts_with("script:") && a.spec().len() == 7 + 16);
    }
}
