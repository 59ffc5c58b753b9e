//! The policy (which sources, in which order) and the chain that follows it.

use std::path::PathBuf;

use super::{
    Answer, ClosedFormSource, NimSource, Oracle, Query, QuotientSource, SearchSource, Solution,
    TableSource,
};
use crate::error::{Error, Hint, Result};
use crate::game::{Game, Heap, Position};
use crate::search::{Algorithm, ProgressHook, SearchConfig};
use crate::theory::grundy::applies;
use crate::theory::grundy::default_max;
use crate::theory::quotient::Budget;

/// Largest heap for which [`Method::Auto`] falls back to search when nim-values fail.
const AUTO_SEARCH_FALLBACK: Heap = 4096;

/// Which kinds of source may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// Whatever answers fastest: nim-values where Sprague-Grundy theory applies, then a
    /// covering table, then the search.
    #[default]
    Auto,
    /// Only the top-down search (never a table, never nim-values).
    Search,
    /// Only nim-values (an error where they do not apply).
    Grundy,
}

/// Which top-down engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// Boolean alpha-beta with transposition table and move ordering.
    #[default]
    Alphabeta,
    /// The plain memoised recursion, kept as a baseline for measurements.
    Plain,
}

/// How positions are to be answered: resolved once from the command line (or built by a
/// library user), then followed for every position.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Which kinds of source may answer.
    pub method: Method,
    /// Answer from this outcome table only (positions outside it are errors).
    pub table: Option<PathBuf>,
    /// Read nim-values from this table instead of computing them.
    pub nim_table: Option<PathBuf>,
    /// Answer misère play from this stored misère quotient first.
    pub quotient_file: Option<PathBuf>,
    /// Where covering tables of the game are looked for ([`Method::Auto`] only).
    pub tables_dir: Option<PathBuf>,
    /// Largest heap whose nim-value may be computed; larger heaps need a proved period.
    /// `None`: a default that depends on the ruleset.
    pub nim_max: Option<u64>,
    /// The search's settings.
    pub search: SearchConfig,
    /// The search's engine.
    pub engine: Engine,
    /// How the search's remoteness windows are chosen.
    pub algorithm: Algorithm,
    /// How far misère quotients may be built on the fly ([`Method::Auto`], misère play).
    pub quotient_budget: Budget,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            method: Method::Auto,
            table: None,
            nim_table: None,
            quotient_file: None,
            tables_dir: Some(PathBuf::from(crate::table::DEFAULT_DIR)),
            nim_max: None,
            search: SearchConfig::default(),
            engine: Engine::Alphabeta,
            algorithm: Algorithm::default(),
            quotient_budget: super::quotient::on_the_fly_budget(),
        }
    }
}

/// The sources a policy allows, in the order they are tried.
pub struct Chain {
    game: Game,
    /// Tried first, in order.
    sources: Vec<Box<dyn Oracle>>,
    /// Tried last: it covers whatever it can hold.
    search: Option<SearchSource>,
    /// Told why theory passed, before the search takes a position theory declined.
    fallback: Option<FallbackHook>,
}

/// A hook told, in words, why the sources before the search passed on a position.
pub type FallbackHook = Box<dyn FnMut(&str) + Send>;

impl Chain {
    /// The chain `policy` describes for `game`.
    pub fn new(game: &Game, policy: &Policy) -> Result<Self> {
        if let Some(path) = &policy.table {
            let tables = TableSource::open(path, Some(game))?;
            return Ok(Self::of(game, vec![Box::new(tables)]));
        }
        let nim_max = policy.nim_max.unwrap_or_else(|| default_max(&game.ruleset));
        let nim_len = nim_max.saturating_add(1);
        let mut sources: Vec<Box<dyn Oracle>> = Vec::new();
        if let Some(path) = &policy.nim_table {
            if policy.method == Method::Search || !applies(game) {
                return Err(Error::input(
                    "a nim-value table answers normal play of one-heap rulesets by nim-values, not by search",
                ));
            }
            sources.push(Box::new(NimSource::from_table(game, path)?));
        }
        if let Some(path) = &policy.quotient_file {
            sources.push(Box::new(stored_quotient(game, path)?));
        }
        match policy.method {
            Method::Search => {}
            Method::Grundy if sources.is_empty() => {
                sources.push(Box::new(NimSource::computing(game, nim_len, None)?));
            }
            Method::Grundy => {}
            Method::Auto => {
                if sources.is_empty() && applies(game) {
                    let source = NimSource::computing(game, nim_len, Some(AUTO_SEARCH_FALLBACK))?;
                    sources.push(Box::new(source));
                }
                // A covering table before the quotient: it is the user's own, it may know
                // remoteness, and probing it costs less than building a quotient.
                let tables = policy
                    .tables_dir
                    .as_deref()
                    .and_then(|dir| TableSource::in_dir(dir, game));
                if let Some(tables) = tables {
                    sources.push(Box::new(tables));
                }
                // A closed form answers any heap size at once, after the user's own table,
                // which may know remoteness.
                if let Some(closed) = ClosedFormSource::new(game) {
                    sources.push(Box::new(closed));
                }
                if let Some(source) = QuotientSource::new(game, policy.quotient_budget.clone()) {
                    sources.push(Box::new(source));
                }
            }
        }
        let mut chain = Self::of(game, sources);
        if matches!(policy.method, Method::Auto | Method::Search) && policy.nim_table.is_none() {
            chain.search = Some(SearchSource::with_algorithm(
                game,
                policy.engine,
                policy.search,
                policy.algorithm,
            ));
        }
        Ok(chain)
    }

    /// A chain over one table file, for the game the table names (`check --table FILE`
    /// with no GAME).
    pub fn for_table(path: &std::path::Path) -> Result<Self> {
        let tables = TableSource::open(path, None)?;
        let game = tables.game().clone();
        Ok(Self::of(&game, vec![Box::new(tables)]))
    }

    fn of(game: &Game, sources: Vec<Box<dyn Oracle>>) -> Self {
        Chain {
            game: game.clone(),
            sources,
            search: None,
            fallback: None,
        }
    }

    /// Theory alone: nim-values in normal play, misère Nim's rule or the misère quotient
    /// (with the full default budget, as `sicher quotient` builds it) in misère play, for
    /// rulesets whose moves change one heap; no tables, no search. `verify --against
    /// theory` checks it against the labeller. Positions of up to `most_heaps` heaps, each
    /// at most `max_heap`, are asked about; a closed form must reach that many heaps.
    pub fn theory(game: &Game, max_heap: Heap, most_heaps: u64) -> Result<Self> {
        let mut sources: Vec<Box<dyn Oracle>> = Vec::new();
        if applies(game) {
            let nim_max = max_heap.max(default_max(&game.ruleset));
            let nim_len = nim_max.saturating_add(1);
            sources.push(Box::new(NimSource::computing(game, nim_len, None)?));
        } else if let Some(source) = QuotientSource::new(game, Budget::default()) {
            sources.push(Box::new(source.with_ceiling(max_heap)));
        } else if let Some(closed) =
            ClosedFormSource::new(game).filter(|closed| closed.reaches(most_heaps))
        {
            sources.push(Box::new(closed));
        } else {
            return Err(Error::input(format!(
                "no theory answers {} play of {} with {most_heaps} heaps: nim-values and misère quotients need rules whose moves change one heap, and Wythoff's closed form covers two heaps",
                game.convention,
                game.title()
            )));
        }
        Ok(Self::of(game, sources))
    }

    /// The game answered.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Installs a hook the search calls now and then with its statistics.
    pub fn set_search_progress(&mut self, hook: ProgressHook) {
        if let Some(search) = &mut self.search {
            search.set_progress(hook);
        }
    }

    /// Installs a hook told why theory passed on a position, just before the search
    /// takes it (e.g. a misère quotient that stops short of its heaps).
    pub fn set_fallback_notice(&mut self, hook: FallbackHook) {
        self.fallback = Some(hook);
    }

    /// Tells the fallback hook why the sources passed, if one of them says.
    fn notify_fallback(&mut self) {
        let Some(hook) = &mut self.fallback else {
            return;
        };
        if self.search.is_none() {
            return;
        }
        if let Some(why) = self.sources.iter().find_map(|s| s.declined()) {
            hook(&why);
        }
    }

    /// Hands the search the misère quotient a source before it holds, so that positions
    /// whose heaps it covers end the search there.
    fn lend_quotient(&mut self) {
        let Some(search) = &mut self.search else {
            return;
        };
        if let Some(quotient) = self.sources.iter().find_map(|s| s.quotient()) {
            search.take_quotient(quotient);
        }
    }

    /// Answers a position from the first source that covers it.
    pub fn answer(&mut self, position: &Position, query: Query) -> Result<Answer> {
        self.prepare(position)?;
        for source in &mut self.sources {
            if let Some(answer) = source.answer(position, query)? {
                return Ok(answer);
            }
        }
        self.notify_fallback();
        self.lend_quotient();
        if let Some(search) = &mut self.search {
            if let Some(answer) = search.answer(position, query)? {
                return Ok(answer);
            }
        }
        Err(self.uncovered(position))
    }

    /// Every winning move of a position (every move with its value, when the query
    /// requires the remoteness), from the first source that covers it.
    pub fn solve(&mut self, position: &Position, query: Query) -> Result<Solution> {
        self.prepare(position)?;
        for source in &mut self.sources {
            if let Some(solution) = source.solve(position, query)? {
                return Ok(solution);
            }
        }
        self.notify_fallback();
        self.lend_quotient();
        if let Some(search) = &mut self.search {
            if let Some(solution) = search.solve(position, query)? {
                return Ok(solution);
            }
        }
        Err(self.uncovered(position))
    }

    /// Readies the options of every heap the position's play meets (moves only lead to
    /// smaller heaps): a script is run for the heap sizes not asked yet, before any source
    /// reads them in its loops.
    fn prepare(&self, position: &Position) -> Result<()> {
        let largest = position.heaps().iter().copied().max().unwrap_or(0);
        self.game.ruleset.prepare(largest)
    }

    fn uncovered(&self, position: &Position) -> Error {
        Error::input(format!(
            "no source can answer {position} in {} play of {}: theory does not reach it and the search is switched off",
            self.game.convention,
            self.game.title()
        ))
    }
}

/// The stored misère quotient at `path`, which must be of `game`'s rules in misère play.
fn stored_quotient(game: &Game, path: &std::path::Path) -> Result<QuotientSource> {
    if !game.terminal_is_win() {
        return Err(Error::input(format!(
            "{}: a misère quotient answers misere play",
            path.display()
        ))
        .with_hint(Hint::UseMisere));
    }
    let mut quotient = crate::table::read_quotient(path)?;
    quotient.prove_final(&game.ruleset);
    if quotient.ruleset != game.ruleset.spec() {
        return Err(Error::input(format!(
            "{}: this quotient is of {}, not {}",
            path.display(),
            quotient.ruleset,
            game.ruleset
        )));
    }
    Ok(QuotientSource::stored(game, quotient))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain can be moved to another thread whole (the Python package keeps one per
    /// game behind a mutex and searches on whichever thread asks).
    #[test]
    fn a_chain_is_send() {
        fn send<T: Send>() {}
        send::<Chain>();
        send::<SearchSource>();
    }
}
