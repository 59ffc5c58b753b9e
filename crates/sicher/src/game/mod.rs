//! The game model: rulesets, play conventions, positions and where games come from.
//!
//! A [`Game`] is a [`Ruleset`] plus a [`Convention`]; every engine asks it for moves and
//! for the cheap exact simplifications (dead heaps, cancelling pairs) it allows.
//!
//! # Files
//!
//! - `rules.rs`: the [`Ruleset`]s, their move generators (visitors that never allocate)
//!   and capabilities, each stated for every ruleset by name, so engines never match on
//!   rulesets.
//! - `code.rs`: octal and hexadecimal take-and-break codes ([`TakeBreakCode`]).
//! - `subtraction.rs`: subtraction sets named by a rule ([`SubtractionFamily`]: squares,
//!   primes, powers, Fibonacci and triangular numbers, all but a finite list).
//! - `primes.rs`: the primes of the prime subtraction game, sieved range by range and
//!   read without locks.
//! - `custom.rs`: rules given as a function of the heap size ([`HeapOptionsSource`]),
//!   checked and cached by [`CustomRules`].
//! - `carried.rs`: the option lists of custom rules a table carries, so it stands alone
//!   ([`OptionLists`]).
//! - `script.rs`: rules written as a sandboxed Rhai script ([`ScriptSource`]).
//! - `position.rs`: [`Position`]s, sorted multisets of heap sizes.
//! - `moves.rs`: applying a move ([`child_into`]), the one place.
//! - `options.rs`: every option of every heap size up to a bound, listed once
//!   ([`OptionTable`]).
//! - `parents.rs`: the positions one move before a position, within bounds
//!   ([`ParentBounds`]).
//! - `describe.rs`: where games come from: shipped descriptions (`games/*.toml` embedded
//!   in the binary), description files and inline specs ([`resolve`], [`parse_spec`]).
//! - `lines.rs`: positions from text, one per line, parsed in place.
//! - `partizan/`: partizan heap games, each player with rules of their own: the model,
//!   inline specs and descriptions, terminal rules of scripts.

mod carried;
mod code;
mod custom;
mod describe;
mod lines;
mod moves;
mod options;
mod parents;
pub mod partizan;
mod position;
mod primes;
mod rules;
mod script;
mod subtraction;

use crate::error::Result;
pub use crate::value::Convention;
pub(crate) use carried::with_carried;
pub use carried::OptionLists;
pub use code::{Radix, TakeBreakCode};
pub use custom::{CustomRules, HeapOptionsSource};
pub use describe::{parse_description, parse_spec, resolve, shipped_games, ShippedGame};
pub use lines::for_each_line;
pub use moves::{child, child_into};
pub use options::{HeapOption, OptionTable, MAX_PARTS};
pub use parents::ParentBounds;
pub use position::{parse_heap, Heap, Position};
pub use rules::{OptionShape, Ruleset, MOORE_MAX_K};
pub use script::{ScriptShape, ScriptSource};
pub use subtraction::SubtractionFamily;

/// How many heap sizes get their "has a move" answer cached up front.
const DEAD_CACHE: u64 = 4096;

/// A ruleset under a play convention, with its name and notes.
#[derive(Clone, Debug)]
pub struct Game {
    /// Short name (the description's `name`, or the inline spec).
    pub name: String,
    /// The rules.
    pub ruleset: Ruleset,
    /// Normal or misère play.
    pub convention: Convention,
    /// The description's start position, if it gives one.
    pub start: Option<Position>,
    /// One line about the game.
    pub notes: String,
    /// Where the game is studied (a book, a paper, an OEIS entry), if the description says.
    pub reference: String,
    /// `dead[h]`: a lone heap of size `h` has no move (cached for small `h`).
    dead: Vec<bool>,
}

impl Game {
    /// Builds a game from its parts.
    pub fn new(name: impl Into<String>, ruleset: Ruleset, convention: Convention) -> Self {
        // A script is not run for heaps nobody asked about: its heaps read its own cache.
        let dead = match ruleset {
            Ruleset::Custom(_) => Vec::new(),
            _ => (0..DEAD_CACHE).map(|h| !ruleset.heap_has_move(h)).collect(),
        };
        Game {
            name: name.into(),
            ruleset,
            convention,
            start: None,
            notes: String::new(),
            reference: String::new(),
            dead,
        }
    }

    /// How output names the game: the name it was given, with its inline spec beside
    /// where they differ (`kayles (octal:0.77)`, `octal:0.77`, `nim`).
    pub fn title(&self) -> String {
        let spec = self.ruleset.spec();
        if self.name == spec {
            spec
        } else {
            format!("{} ({spec})", self.name)
        }
    }

    /// The same game named as sicher ships it where a shipped description has these
    /// rules (a table header stores only the spec: `octal:0.77` reads back as `kayles`).
    pub fn with_shipped_name(mut self) -> Self {
        let spec = self.ruleset.spec();
        if self.name == spec {
            if let Some(name) = shipped_games()
                .iter()
                .find(|g| resolve(g.name).is_ok_and(|shipped| shipped.ruleset.spec() == spec))
            {
                self.name = name.name.to_string();
            }
        }
        self
    }

    /// The same game under another convention.
    pub fn with_convention(mut self, convention: Convention) -> Self {
        self.convention = convention;
        self
    }

    /// What the player to move gets when no move is left: a win only in misère play.
    pub fn terminal_is_win(&self) -> bool {
        self.convention == Convention::Misere
    }

    /// True when a heap of size `h` can never be moved on, so it changes nothing in any
    /// position of a one-heap ruleset (always false for Wythoff and Moore).
    #[inline]
    pub fn is_dead(&self, h: Heap) -> bool {
        match self.dead.get(h as usize) {
            Some(&dead) => dead,
            None => !self.ruleset.heap_has_move(h),
        }
    }

    /// True when, as an exact simplification, pairs of equal heaps cancel: normal play
    /// of a one-heap ruleset, where a pair is answered move for move.
    pub fn pairs_cancel(&self) -> bool {
        self.convention == Convention::Normal && self.ruleset.moves_one_heap()
    }

    /// The canonical description with convention, as written in table headers: `octal:0.77 misere`.
    pub fn canonical(&self) -> String {
        format!("{} {}", self.ruleset, self.convention)
    }

    /// Applies one move (as reported by [`Ruleset::for_each_move`]) to a position: see
    /// [`child_into`], its non-allocating form.
    pub fn apply(&self, position: &Position, removed: &[usize], added: &[Heap]) -> Position {
        child(position, removed, added)
    }

    /// Every position one move away, each once, in generation order. The rules are made
    /// ready for the position's largest heap first ([`Ruleset::prepare`]), so rules given
    /// as a script or a function that fails on a heap give its error here rather than a
    /// silently short list.
    pub fn children(&self, position: &Position) -> Result<Vec<Position>> {
        let largest = position.heaps().iter().copied().max().unwrap_or(0);
        self.ruleset.prepare(largest)?;
        Ok(self.children_prepared(position))
    }

    /// [`Game::children`] for engines whose entry point prepared the rules for every heap
    /// they meet (moves only lead to smaller heaps): no check in their loops.
    pub(crate) fn children_prepared(&self, position: &Position) -> Vec<Position> {
        let mut out = Vec::new();
        let _ = self
            .ruleset
            .for_each_move(position.heaps(), |removed, added| {
                out.push(self.apply(position, removed, added));
                std::ops::ControlFlow::Continue(())
            });
        if !self.ruleset.moves_one_heap() {
            // Coupled moves can reach one position through different heap choices.
            let mut seen = hashbrown::HashSet::with_capacity(out.len());
            out.retain(|p| seen.insert(p.clone()));
        }
        out
    }
}
