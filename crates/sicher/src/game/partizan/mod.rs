//! Partizan heap games: each player moves by rules of their own (the seeds' general
//! model, `sicher(s, p)` with `Z(s, p)` depending on the player `s`).
//!
//! A [`PartizanGame`] is two one-heap [`Ruleset`]s, Left's and Right's, and the
//! [`Terminal`] rule that ends play. The impartial [`Game`](super::Game) and its engines
//! are untouched: partizan games have engines of their own, which read each player's
//! moves through the impartial move generators.
//!
//! # Files
//!
//! - `describe.rs`: partizan games from inline specs (`partizan-subtraction:1,3/2,3`,
//!   `partizan-octal:0.7/0.07`, ...) and descriptions (`left`/`right`, scripts taking
//!   the player).
//! - `terminal.rs`: terminal rules beyond "no move", a script's `terminal(heaps,
//!   player)`.

mod describe;
mod terminal;

use std::ops::ControlFlow;
use std::sync::Arc;

pub use describe::{
    is_partizan_description, is_partizan_spec, parse_partizan_description, parse_partizan_spec,
    resolve_any, resolve_partizan, AnyGame,
};
pub use terminal::{TerminalRule, TerminalScript};

use super::{child_into, Heap, Position, Ruleset};
use crate::error::{Error, Result};
use crate::value::{Convention, Player};

/// When play ends and who wins then: the seeds' `t(s, p)` and `g(s, p)`.
#[derive(Clone)]
pub enum Terminal {
    /// Play ends when the player to move has no move; that player loses.
    Normal,
    /// Play ends when the player to move has no move; that player wins.
    Misere,
    /// A script decides first (`terminal(heaps, player)`); where it says nothing, play
    /// ends by the normal rule.
    Script(Arc<dyn TerminalRule>),
}

impl std::fmt::Debug for Terminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Terminal::Normal => f.write_str("Normal"),
            Terminal::Misere => f.write_str("Misere"),
            Terminal::Script(rule) => write!(f, "Script({})", rule.spec()),
        }
    }
}

impl Terminal {
    /// The convention this rule is, where it is one (not for a script).
    pub fn convention(&self) -> Option<Convention> {
        match self {
            Terminal::Normal => Some(Convention::Normal),
            Terminal::Misere => Some(Convention::Misere),
            Terminal::Script(_) => None,
        }
    }

    /// `normal`, `misere` or the script's spec, as a game's description ends.
    pub fn name(&self) -> String {
        match self {
            Terminal::Normal => "normal".into(),
            Terminal::Misere => "misere".into(),
            Terminal::Script(rule) => rule.spec(),
        }
    }
}

/// A partizan heap game: Left moves by `left`'s one-heap rules, Right by `right`'s.
#[derive(Clone, Debug)]
pub struct PartizanGame {
    /// Short name (the description's `name`, or the inline spec).
    pub name: String,
    /// Left's rules (one-heap rules: subtraction, take-and-break, a script).
    pub left: Ruleset,
    /// Right's rules.
    pub right: Ruleset,
    /// When play ends.
    pub terminal: Terminal,
    /// The description's start position, if it gives one.
    pub start: Option<Position>,
    /// One line about the game.
    pub notes: String,
    /// Where the game is studied, if the description says.
    pub reference: String,
}

impl PartizanGame {
    /// A game from both players' rules, under the normal rule.
    pub fn new(name: impl Into<String>, left: Ruleset, right: Ruleset) -> Result<Self> {
        for rules in [&left, &right] {
            if !rules.moves_one_heap() {
                return Err(Error::input(format!(
                    "{rules}: a partizan player's rules must move one heap at a time"
                )));
            }
        }
        Ok(PartizanGame {
            name: name.into(),
            left,
            right,
            terminal: Terminal::Normal,
            start: None,
            notes: String::new(),
            reference: String::new(),
        })
    }

    /// The same game under another terminal rule.
    pub fn with_terminal(mut self, terminal: Terminal) -> Self {
        self.terminal = terminal;
        self
    }

    /// The rules of `player`.
    #[inline]
    pub fn rules(&self, player: Player) -> &Ruleset {
        match player {
            Player::Left => &self.left,
            Player::Right => &self.right,
        }
    }

    /// The inline spec: `partizan-subtraction:1,3/2,3`, `partizan-octal:0.7/0.07`, or
    /// `partizan:` and both players' specs.
    pub fn spec(&self) -> String {
        describe::spec_of(&self.left, &self.right)
    }

    /// How output names the game: its name, with the spec beside where they differ.
    pub fn title(&self) -> String {
        let spec = self.spec();
        if self.name == spec {
            spec
        } else {
            format!("{} ({spec})", self.name)
        }
    }

    /// True when both players move alike, so the game is impartial in all but name.
    pub fn is_impartial(&self) -> bool {
        self.left == self.right
    }

    /// Makes both players' options of heaps up to `largest` ready (a script is run).
    pub fn prepare(&self, largest: Heap) -> Result<()> {
        self.left.prepare(largest)?;
        self.right.prepare(largest)
    }

    /// True when neither player can ever move on a heap of size `h` and play ends only
    /// when a player has no move, so the heap changes nothing and is dropped. (A terminal
    /// script may count such heaps: they are kept.)
    #[inline]
    pub fn is_dead(&self, h: Heap) -> bool {
        h == 0
            || (!matches!(self.terminal, Terminal::Script(_))
                && !self.left.heap_has_move(h)
                && !self.right.heap_has_move(h))
    }

    /// Visits every move of `player` from `heaps` (ascending, no zeros), as the impartial
    /// generators report them: indices of the heaps removed, heaps added.
    #[inline]
    pub fn for_each_move<F>(&self, heaps: &[Heap], player: Player, visit: F) -> ControlFlow<()>
    where
        F: FnMut(&[usize], &[u64]) -> ControlFlow<()>,
    {
        self.rules(player).for_each_move(heaps, visit)
    }

    /// Every position `player` reaches in one move from `heaps`, each once, ascending
    /// (the seeds' `Z(s, p)`).
    pub fn children(&self, heaps: &[Heap], player: Player) -> Vec<Vec<Heap>> {
        let mut out: Vec<Vec<Heap>> = Vec::new();
        let mut child = Vec::new();
        let _ = self.for_each_move(heaps, player, |removed, added| {
            child_into(heaps, removed, added, &mut child);
            out.push(child.clone());
            ControlFlow::Continue(())
        });
        // A split can reach one position through two options.
        out.sort_unstable();
        out.dedup();
        out
    }

    /// True when `player` has a move from `heaps`.
    pub fn has_move(&self, heaps: &[Heap], player: Player) -> bool {
        let rules = self.rules(player);
        heaps.iter().any(|&h| rules.heap_has_move(h))
    }

    /// The seeds' `t` and `g` where `player` is to move: `Some(win)` when play has
    /// ended, `None` when it goes on. `has_move` says whether `player` has a move.
    pub fn terminal(
        &self,
        heaps: &[Heap],
        player: Player,
        has_move: impl FnOnce() -> bool,
    ) -> Result<Option<bool>> {
        if let Terminal::Script(rule) = &self.terminal {
            if let Some(win) = rule.judge(heaps, player)? {
                return Ok(Some(win));
            }
        }
        if has_move() {
            return Ok(None);
        }
        Ok(Some(matches!(self.terminal, Terminal::Misere)))
    }
}
