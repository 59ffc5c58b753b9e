//! The partizan search: `sicher(s, p)` top-down, with the player to move in the key.
//!
//! A transposition table maps (heaps with dead heaps dropped, player to move) to the
//! verdict; children already known to lose for the opponent are looked up before any
//! is searched. The remoteness (the winner hurrying, the loser holding out) is a second,
//! valued search over every child, run within a node budget.

use hashbrown::HashMap;

use crate::cancel::Cancel;
use crate::error::Result;
use crate::game::partizan::PartizanGame;
use crate::game::{child_into, Heap};
use crate::value::{OutcomeClass, Player};

/// Stack for the recursion thread: a move can take one token, so depth is the total.
const STACK_BYTES: usize = 1 << 30;
/// Positions of at most this many tokens (and so at most about twice as many plies) are
/// searched on the caller's thread: a thread of its own costs more than their search.
const INLINE_TOKENS: u64 = 1000;

/// Positions expanded between two looks at the cancellation flag.
const CANCEL_EVERY: u64 = 1 << 12;

/// The tables' bound by default, as `check --hash`'s.
pub(crate) const DEFAULT_TABLE_BYTES: usize = 256 << 20;

/// What one entry of a table holds besides its key's words: the boxed slice's pointer
/// and length, the value, and hashbrown's control byte and spare capacity (about an
/// eighth empty, then doubling).
const ENTRY_OVERHEAD_BYTES: usize = 48;

/// The bytes an entry keyed by `key` holds.
fn entry_bytes(key: &[Heap]) -> usize {
    ENTRY_OVERHEAD_BYTES + std::mem::size_of_val(key)
}

/// The transposition table's key: the heaps (ascending, dead heaps dropped) followed by
/// a word naming the player to move, so a table is probed with a plain slice.
type Key = Box<[Heap]>;

/// The last word of a key: no heap is this large in a position that fits in memory.
fn player_word(player: Player) -> Heap {
    match player {
        Player::Left => u64::MAX,
        Player::Right => u64::MAX - 1,
    }
}

/// Writes the key of `heaps` with `to_move` to move into `out`.
fn key_into(heaps: &[Heap], to_move: Player, out: &mut Vec<Heap>) {
    out.clear();
    out.extend_from_slice(heaps);
    out.push(player_word(to_move));
}

/// The partizan top-down solver; keeps its table across positions.
pub struct PartizanSolver {
    game: PartizanGame,
    verdicts: HashMap<Key, bool>,
    valued: HashMap<Key, (bool, u32)>,
    nodes: u64,
    cancel: Cancel,
    /// The bytes both tables may hold: past it they are emptied (every verdict in them is
    /// exact and recomputable, and the search in progress keeps its own on the stack).
    table_bytes: usize,
    /// The bytes both tables hold now, by [`entry_bytes`].
    held_bytes: usize,
    /// How many times the tables were emptied for their bound.
    clears: u64,
}

impl PartizanSolver {
    /// A solver with empty tables.
    pub fn new(game: &PartizanGame) -> Self {
        PartizanSolver {
            game: game.clone(),
            verdicts: HashMap::new(),
            valued: HashMap::new(),
            nodes: 0,
            cancel: Cancel::new(),
            table_bytes: DEFAULT_TABLE_BYTES,
            held_bytes: 0,
            clears: 0,
        }
    }

    /// Bounds the memory the tables hold to about `bytes`; past it they are emptied,
    /// which costs time, never an answer.
    pub fn set_table_bytes(&mut self, bytes: usize) {
        self.table_bytes = bytes;
    }

    /// How many times the tables were emptied to keep their bound.
    pub fn table_clears(&self) -> u64 {
        self.clears
    }

    /// Makes room for `entries` entries keyed by `key`: empties both tables when they
    /// would take them past their bound.
    fn make_room(&mut self, key: &[Heap], entries: usize) {
        let bytes = entries * entry_bytes(key);
        if self.held_bytes + bytes > self.table_bytes {
            self.verdicts = HashMap::new();
            self.valued = HashMap::new();
            self.held_bytes = 0;
            self.clears += 1;
        }
        self.held_bytes += bytes;
    }

    /// Stops every later search of this solver with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once
    /// `cancel` is cancelled (its tables keep only finished positions, so it may go on
    /// after a fresh handle is set).
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// The game.
    pub fn game(&self) -> &PartizanGame {
        &self.game
    }

    /// Positions expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions in the transposition table.
    pub fn table_entries(&self) -> usize {
        self.verdicts.len()
    }

    /// The position as the table keys it: ascending, dead heaps dropped.
    pub fn normalize(&self, heaps: &[Heap]) -> Vec<Heap> {
        let mut out: Vec<Heap> = heaps
            .iter()
            .copied()
            .filter(|&h| h > 0 && !self.game.is_dead(h))
            .collect();
        out.sort_unstable();
        out
    }

    /// True when `to_move` wins from `heaps`: `sicher(to_move, heaps)`.
    pub fn wins(&mut self, heaps: &[Heap], to_move: Player) -> Result<bool> {
        let heaps = self.normalize(heaps);
        if heaps.iter().fold(0u64, |t, &h| t.saturating_add(h)) <= INLINE_TOKENS {
            return self.solve(heaps, to_move);
        }
        on_big_stack(|| self.solve(heaps, to_move))
    }

    /// The outcome class of `heaps`.
    pub fn class(&mut self, heaps: &[Heap]) -> Result<OutcomeClass> {
        let left = self.wins(heaps, Player::Left)?;
        let right = self.wins(heaps, Player::Right)?;
        Ok(OutcomeClass::from_wins(left, right))
    }

    /// Every winning move of `to_move` (the positions after them, ascending).
    pub fn winning_moves(&mut self, heaps: &[Heap], to_move: Player) -> Result<Vec<Vec<Heap>>> {
        let mut winning = Vec::new();
        for child in self.game.children(heaps, to_move) {
            if !self.wins(&child, to_move.opponent())? {
                winning.push(child);
            }
        }
        Ok(winning)
    }

    /// Every position `to_move` reaches, normalized, each once.
    fn children_of(&self, heaps: &[Heap], to_move: Player) -> Vec<Vec<Heap>> {
        let mut out: Vec<Vec<Heap>> = Vec::new();
        let mut child = Vec::with_capacity(heaps.len() + 3);
        let _ = self.game.for_each_move(heaps, to_move, |removed, added| {
            child_into(heaps, removed, added, &mut child);
            child.retain(|&h| !self.game.is_dead(h));
            out.push(child.clone());
            std::ops::ControlFlow::Continue(())
        });
        out.sort_unstable();
        out.dedup();
        out
    }

    fn solve(&mut self, heaps: Vec<Heap>, to_move: Player) -> Result<bool> {
        let mut probe = Vec::with_capacity(heaps.len() + 1);
        key_into(&heaps, to_move, &mut probe);
        if let Some(&known) = self.verdicts.get(probe.as_slice()) {
            return Ok(known);
        }
        let key: Key = probe.into_boxed_slice();
        let heaps = &key[..key.len() - 1];
        self.nodes += 1;
        // From the first node on: a handle cancelled before the call ends it at once.
        if self.nodes % CANCEL_EVERY == 1 {
            self.cancel.check()?;
        }
        let children = self.children_of(heaps, to_move);
        let win = match self
            .game
            .terminal(heaps, to_move, || !children.is_empty())?
        {
            Some(win) => win,
            None => {
                let opponent = to_move.opponent();
                // A child already known lost for the opponent answers at once.
                let mut probe = Vec::new();
                let mut win = children.iter().any(|c| {
                    key_into(c, opponent, &mut probe);
                    self.verdicts.get(probe.as_slice()) == Some(&false)
                });
                if !win {
                    for child in children {
                        if !self.solve(child, opponent)? {
                            win = true;
                            break;
                        }
                    }
                }
                win
            }
        };
        self.make_room(&key, 1);
        self.verdicts.insert(key, win);
        Ok(win)
    }

    /// The verdict and remoteness of `heaps` with `to_move` to move, or `None` when more
    /// than `budget` positions would be expanded.
    pub fn remoteness(
        &mut self,
        heaps: &[Heap],
        to_move: Player,
        budget: u64,
    ) -> Result<Option<(bool, u32)>> {
        let heaps = self.normalize(heaps);
        let mut left = budget;
        if heaps.iter().fold(0u64, |t, &h| t.saturating_add(h)) <= INLINE_TOKENS {
            return self.value(heaps, to_move, &mut left);
        }
        on_big_stack(|| self.value(heaps, to_move, &mut left))
    }

    fn value(
        &mut self,
        heaps: Vec<Heap>,
        to_move: Player,
        budget: &mut u64,
    ) -> Result<Option<(bool, u32)>> {
        let mut probe = Vec::with_capacity(heaps.len() + 1);
        key_into(&heaps, to_move, &mut probe);
        if let Some(&known) = self.valued.get(probe.as_slice()) {
            return Ok(Some(known));
        }
        if *budget == 0 {
            return Ok(None);
        }
        *budget -= 1;
        if budget.is_multiple_of(CANCEL_EVERY) {
            self.cancel.check()?;
        }
        let key: Key = probe.into_boxed_slice();
        let heaps = &key[..key.len() - 1];
        let children = self.children_of(heaps, to_move);
        let value = match self
            .game
            .terminal(heaps, to_move, || !children.is_empty())?
        {
            Some(win) => (win, 0),
            None => {
                let (mut fastest_win, mut longest_loss) = (None::<u32>, 0u32);
                for child in children {
                    let Some((child_wins, r)) = self.value(child, to_move.opponent(), budget)?
                    else {
                        return Ok(None);
                    };
                    if child_wins {
                        longest_loss = longest_loss.max(r);
                    } else {
                        fastest_win = Some(fastest_win.map_or(r, |f| f.min(r)));
                    }
                }
                match fastest_win {
                    Some(r) => (true, r + 1),
                    None => (false, longest_loss + 1),
                }
            }
        };
        self.make_room(&key, 2);
        self.verdicts.insert(key.clone(), value.0);
        self.valued.insert(key, value);
        Ok(Some(value))
    }
}

/// Runs `work` on a thread with a deep stack.
fn on_big_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, work)
            .expect("spawn the search thread")
            .join()
            .expect("the search thread finished")
    })
}
