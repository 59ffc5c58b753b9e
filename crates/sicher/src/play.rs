//! A game against the computer: the position, whose turn it is, the legal moves, the
//! computer's choice and the way back (undo), all through the answer layer. The command
//! line only reads moves and prints.
//!
//! The computer plays perfectly at [`MAX_LEVEL`]: it wins every won position. Where the
//! remoteness can be searched within a budget ([`REMOTENESS_NODES`]) it also wins as fast
//! as it can and, when lost, holds out as long as it can; where it cannot (huge heaps,
//! answered by theory: nim-values, misère quotients, closed forms), it takes the winning
//! move theory gives, and when lost the move that takes the fewest tokens. Below the top
//! level it plays a random legal move with probability `(MAX_LEVEL - level) /
//! MAX_LEVEL`, and says so.
//!
//! Moves are listed only up to [`LISTED_MOVES`]: a position with more (a heap of a
//! billion tokens) is played by typing the position a move leads to, which is checked
//! against the rules directly ([`is_move`]) without enumerating every move.
//!
//! - `partizan.rs`: [`PartizanSession`], the same game for partizan rules, you playing
//!   Left or Right, through the partizan answer chain.

mod partizan;

use std::ops::ControlFlow;

pub use partizan::PartizanSession;

use crate::answer::{Chain, Engine, Policy, Query, Remoteness};
use crate::error::{Error, Result};
use crate::game::{parse_heap, Game, Position, Ruleset};
use crate::search::{Algorithm, ProgressHook, RemotenessSolver, SearchConfig};
use crate::value::Value;

/// The strongest level: every move perfect.
pub const MAX_LEVEL: u8 = 10;
/// Moves listed (and numbered) at most; a position with more is played by typing the
/// position a move leads to.
pub const LISTED_MOVES: usize = 10_000;
/// Nodes the remoteness search may spend on one position before the computer settles
/// for the verdict theory gives (a few seconds at most on a slow machine).
pub const REMOTENESS_NODES: u64 = 1 << 21;
/// Positions whose tokens times moves exceed this are not searched for their remoteness:
/// the search's stack alone could hold that many moves.
pub const REMOTENESS_SIZE: u128 = 1 << 22;

/// Who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The person at the keyboard.
    You,
    /// sicher.
    Computer,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::You => Player::Computer,
            Player::Computer => Player::You,
        }
    }

    /// `"you"` or `"computer"`, as JSON says it.
    pub fn name(self) -> &'static str {
        match self {
            Player::You => "you",
            Player::Computer => "computer",
        }
    }
}

/// The computer's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The position it leads to.
    pub to: Position,
    /// True when the level made it a random move rather than the best one.
    pub random: bool,
}

/// What is known of the current position.
#[derive(Clone, Debug)]
struct Known {
    value: Value,
    /// The best move for the player to move: the fastest win, or the longest resistance
    /// (or, without the remoteness, theory's winning move or the smallest take).
    best: Option<Position>,
}

/// A game in progress.
pub struct Session {
    chain: Chain,
    config: SearchConfig,
    algorithm: Algorithm,
    engine: Engine,
    /// The remoteness search, made when first needed.
    valued: Option<RemotenessSolver>,
    /// Tokens of the last position whose remoteness search ran out of nodes: larger
    /// positions are not searched again until the game is half as big.
    gave_up_at: Option<u128>,
    position: Position,
    to_move: Player,
    plies: u64,
    moves: Vec<Position>,
    /// False when the position has more than [`LISTED_MOVES`] moves.
    moves_complete: bool,
    known: Option<Known>,
    /// Earlier positions with who was to move there, for undo.
    history: Vec<(Position, Player)>,
    strength: Strength,
}

impl Session {
    /// A game of `game` from `start`, `first` to move, answered as `policy` says (its
    /// search settings also drive the remoteness search).
    pub fn new(game: &Game, policy: &Policy, start: Position, first: Player) -> Result<Self> {
        let chain = Chain::new(game, policy)?;
        let (moves, moves_complete) = list_moves(game, &start);
        Ok(Session {
            chain,
            config: policy.search,
            algorithm: policy.algorithm,
            engine: policy.engine,
            valued: None,
            gave_up_at: None,
            position: start,
            to_move: first,
            plies: 0,
            moves,
            moves_complete,
            known: None,
            history: Vec::new(),
            strength: Strength::perfect(),
        })
    }

    /// Calls `hook` every so many nodes while the search works on a position that
    /// nothing cheaper answers (the binary shows a spinner and keeps a time limit).
    pub fn set_search_progress(&mut self, hook: ProgressHook) {
        self.chain.set_search_progress(hook);
    }

    /// Plays below perfection: at `level` (0 to [`MAX_LEVEL`]) each of the computer's
    /// moves is random with probability `(MAX_LEVEL - level) / MAX_LEVEL`; `seed` makes
    /// the random choices repeatable.
    pub fn set_level(&mut self, level: u8, seed: u64) -> Result<()> {
        self.strength.set(level, seed)
    }

    /// The level the computer plays at.
    pub fn level(&self) -> u8 {
        self.strength.level
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Moves played so far (undone ones not counted).
    pub fn plies(&self) -> u64 {
        self.plies
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.chain.game()
    }

    /// The legal moves, as the positions they lead to, ascending; all of them when
    /// [`moves_complete`](Self::moves_complete), else the first [`LISTED_MOVES`] the
    /// rules list (unsorted).
    pub fn moves(&self) -> &[Position] {
        &self.moves
    }

    /// True when [`moves`](Self::moves) holds every legal move.
    pub fn moves_complete(&self) -> bool {
        self.moves_complete
    }

    /// The winner, once the player to move has no move.
    pub fn winner(&self) -> Option<Player> {
        if !self.moves.is_empty() {
            return None;
        }
        Some(if self.game().terminal_is_win() {
            self.to_move
        } else {
            self.to_move.other()
        })
    }

    /// The value of the current position for the player to move, with its remoteness
    /// where it could be searched.
    pub fn value(&mut self) -> Result<Value> {
        Ok(self.know()?.value)
    }

    /// The best move for the player to move: the fastest win, or when lost the move that
    /// holds out longest (see the module's notes where the remoteness is out of reach);
    /// `None` when no move is left.
    pub fn best_move(&mut self) -> Result<Option<Position>> {
        Ok(self.know()?.best.clone())
    }

    /// The computer's move at its level: the best one, or with the level's probability a
    /// random legal one (among the listed moves, where a huge position has more);
    /// `None` when no move is left.
    pub fn computer_move(&mut self) -> Result<Option<Reply>> {
        if self.moves.is_empty() {
            return Ok(None);
        }
        if let Some(reply) = self.strength.random_reply(&self.moves) {
            return Ok(Some(reply));
        }
        Ok(self.best_move()?.map(|to| Reply { to, random: false }))
    }

    /// Reads a move as typed, in every form the move list shows: its number in
    /// [`moves`](Self::moves) (from 1, when every move is listed: `3` or `3.`), the
    /// position it leads to (`1 4 5`, `to 1 4 5`, `to (no heaps)`), or a whole line of
    /// the list (`3. to 1 4 5`); says why when it is none of them.
    pub fn parse_move(&self, text: &str) -> Result<Position> {
        parse_typed(
            text,
            &self.moves,
            self.moves_complete,
            &self.position,
            &self.game().name,
            |to| self.is_legal(to),
        )
    }

    /// The number of the move to `to` in [`moves`](Self::moves) (from 1), when every
    /// move is listed.
    pub fn move_number(&self, to: &Position) -> Option<usize> {
        number_of(&self.moves, self.moves_complete, to)
    }

    /// Changes the computer's level during a game (0 to [`MAX_LEVEL`]), keeping the
    /// random choices' sequence.
    pub fn change_level(&mut self, level: u8) -> Result<()> {
        self.strength.change(level)
    }

    /// Plays a move (the position it leads to), which must be legal.
    pub fn play(&mut self, to: Position) -> Result<()> {
        if !self.is_legal(&to) {
            return Err(Error::input(format!(
                "{to} is not one move away from {}",
                self.position
            )));
        }
        let from = std::mem::replace(&mut self.position, to);
        self.history.push((from, self.to_move));
        self.to_move = self.to_move.other();
        self.plies += 1;
        self.refresh();
        Ok(())
    }

    /// Takes moves back to the last position where you were to move before your last
    /// move (your move and the computer's reply); false when you have not moved yet.
    pub fn undo(&mut self) -> bool {
        let Some(at) = self.history.iter().rposition(|(_, p)| *p == Player::You) else {
            return false;
        };
        self.plies -= (self.history.len() - at) as u64;
        let (position, to_move) = self.history.swap_remove(at);
        self.history.truncate(at);
        self.position = position;
        self.to_move = to_move;
        self.refresh();
        true
    }

    /// True when `to` is one move away from the current position.
    fn is_legal(&self, to: &Position) -> bool {
        if self.moves_complete {
            self.moves.binary_search(to).is_ok()
        } else {
            is_move(&self.game().ruleset, &self.position, to)
        }
    }

    /// After a move or an undo: the new position's moves; nothing known of it yet.
    fn refresh(&mut self) {
        let (moves, complete) = list_moves(self.chain.game(), &self.position);
        self.moves = moves;
        self.moves_complete = complete;
        self.known = None;
    }

    /// What is known of the current position, found on first use.
    fn know(&mut self) -> Result<&Known> {
        if self.known.is_none() {
            let known = self.find()?;
            self.known = Some(known);
        }
        self.known
            .as_ref()
            .ok_or_else(|| Error::internal("the position's value was not kept"))
    }

    fn find(&mut self) -> Result<Known> {
        let position = self.position.clone();
        if self.engine == Engine::Plain {
            // The baseline has no node budget: it answers in full, as asked.
            let query = Query {
                best_move: true,
                remoteness: Remoteness::Required,
            };
            let solution = self.chain.solve(&position, query)?;
            return Ok(Known {
                value: solution.answer.value,
                best: solution.moves.first().map(|(to, _)| to.clone()),
            });
        }
        // Theory, a table or the search first: the verdict at any size, with one winning
        // move (and the remoteness where it came cheap).
        let query = Query {
            best_move: true,
            remoteness: Remoteness::IfAvailable,
        };
        let answer = self.chain.answer(&position, query)?;
        let mut known = Known {
            value: answer.value,
            best: answer.best_move,
        };
        if self.moves.is_empty() {
            // No move left: the game is over now.
            known.value = Value::remote(0, self.chain.game().convention);
            return Ok(known);
        }
        if self.may_search(&position) {
            let (config, algorithm) = (self.config, self.algorithm);
            let game = self.chain.game().clone();
            let solver = self
                .valued
                .get_or_insert_with(|| RemotenessSolver::new(&game, config, algorithm));
            match solver.value_within(&position, REMOTENESS_NODES) {
                Some(value) => {
                    if value.is_win() != known.value.is_win() {
                        return Err(Error::internal(format!(
                            "the remoteness search and the {} disagree on {position}",
                            answer.source.name()
                        )));
                    }
                    known.value = value;
                    known.best = solver.best_move(&position).map(|(to, _)| to);
                    return Ok(known);
                }
                None => self.gave_up_at = Some(position.total()),
            }
        }
        if !known.value.is_win() || known.best.is_none() {
            known.best = self.smallest_take();
        }
        Ok(known)
    }

    /// Whether the remoteness search is worth trying here: the position is small enough
    /// for its stack, and no larger position ran out of nodes before.
    fn may_search(&self, position: &Position) -> bool {
        let tokens = position.total();
        if self
            .gave_up_at
            .is_some_and(|given_up| tokens.saturating_mul(2) > given_up)
        {
            return false;
        }
        self.moves_complete && tokens.saturating_mul(self.moves.len() as u128) <= REMOTENESS_SIZE
    }

    /// The listed move that leaves the most tokens (the longest resistance theory can
    /// offer without the remoteness); ties to the first listed.
    fn smallest_take(&self) -> Option<Position> {
        let mut best: Option<&Position> = None;
        for to in &self.moves {
            if best.is_none_or(|b| to.total() > b.total()) {
                best = Some(to);
            }
        }
        best.cloned()
    }
}

/// How well the computer plays, for both kinds of session: its level and the random
/// choices below the top one.
struct Strength {
    level: u8,
    rng: SplitMix,
}

impl Strength {
    /// Perfect play, no random move.
    fn perfect() -> Self {
        Strength {
            level: MAX_LEVEL,
            rng: SplitMix(0),
        }
    }

    /// Plays at `level` with random choices repeatable from `seed`.
    fn set(&mut self, level: u8, seed: u64) -> Result<()> {
        self.change(level)?;
        self.rng = SplitMix(seed);
        Ok(())
    }

    /// Plays at `level` from now on, keeping the random choices' sequence; refuses a level
    /// outside 0 to [`MAX_LEVEL`].
    fn change(&mut self, level: u8) -> Result<()> {
        if level > MAX_LEVEL {
            return Err(Error::input(format!(
                "level {level} is out of range: 0 (random moves) to {MAX_LEVEL} (perfect play)"
            )));
        }
        self.level = level;
        Ok(())
    }

    /// With the level's probability a random one of `moves` (not empty), else `None`:
    /// the best move is the caller's to find.
    fn random_reply(&mut self, moves: &[Position]) -> Option<Reply> {
        let chance = u64::from(MAX_LEVEL - self.level);
        if chance > 0 && self.rng.below(u64::from(MAX_LEVEL)) < chance {
            let pick = self.rng.below(moves.len() as u64) as usize;
            return Some(Reply {
                to: moves[pick].clone(),
                random: true,
            });
        }
        None
    }
}

/// The number (from 1) of the move to `to` among `moves` (ascending), when they are all
/// listed.
fn number_of(moves: &[Position], complete: bool, to: &Position) -> Option<usize> {
    if !complete {
        return None;
    }
    moves.binary_search(to).ok().map(|i| i + 1)
}

/// Reads a typed move in every form a move list shows (`3`, `3.`, `to 1 4 5`, `1 4 5`,
/// `3. to 1 4 5`, `to (no heaps)`): a move number counts only where every move is
/// listed (`complete`); a position must pass `legal`.
fn parse_typed(
    text: &str,
    moves: &[Position],
    complete: bool,
    from: &Position,
    game: &str,
    legal: impl Fn(&Position) -> bool,
) -> Result<Position> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::input(
            "type a move: its number, or the position it leads to (heap sizes)",
        ));
    }
    // The list writes the empty position `(no heaps)`: read it as the heap of 0 it is.
    let lowered = text.to_ascii_lowercase();
    let spelled = lowered.replace("(no heaps)", "0").replace("no heaps", "0");
    let mut words: Vec<&str> = spelled
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let by_number = |word: &str| -> Option<Position> {
        if !complete || (word.starts_with('0') && word != "0") {
            return None;
        }
        let number = word.parse::<usize>().ok()?;
        (1..=moves.len())
            .contains(&number)
            .then(|| moves[number - 1].clone())
    };
    // A whole line of the list, `3. to 1 4 5` (or `3.` alone): the number, checked
    // against the position when both are typed.
    let mut numbered: Option<Position> = None;
    if let Some(number) = words.first().and_then(|w| w.strip_suffix('.')) {
        match by_number(number) {
            Some(to) => numbered = Some(to),
            None if complete => {
                return Err(Error::input(format!(
                    "{number}. is not a move number: the moves are numbered 1 to {}",
                    moves.len()
                )))
            }
            None => {
                return Err(Error::input(
                    "the moves are not numbered here (too many to list): type the position your move leads to",
                ))
            }
        }
        words.remove(0);
        if words.is_empty() {
            return Ok(numbered.unwrap_or_default());
        }
    }
    // `to 3` names the position (a lone heap of 3), never move number 3: a lone number
    // is a move number while the moves are listed.
    let mut numbers_allowed = complete && numbered.is_none();
    if words.len() > 1 && words[0] == "to" {
        words.remove(0);
        numbers_allowed = false;
    }
    if let [word] = words[..] {
        if numbers_allowed {
            if let Some(to) = by_number(word) {
                return Ok(to);
            }
        }
    }
    let heaps = words
        .iter()
        .map(|w| parse_heap(w))
        .collect::<Result<Vec<_>>>()?;
    let to = Position::new(heaps);
    if let Some(listed) = numbered {
        if listed != to {
            return Err(Error::input(format!(
                "{text}: move {} leads to {listed}, not to {to}",
                number_of(moves, complete, &listed).unwrap_or(0)
            )));
        }
        return Ok(listed);
    }
    if legal(&to) {
        Ok(to)
    } else if words.len() == 1 && numbers_allowed {
        Err(Error::input(format!(
            "{text} is neither a move number (1 to {}) nor a position one move away from {from}",
            moves.len(),
        )))
    } else {
        Err(Error::input(format!(
            "{to} is not one move away from {from} in {game}"
        )))
    }
}

/// The moves of `position`: all of them, ascending and once each, and true; or the first
/// [`LISTED_MOVES`] the rules list, and false.
fn list_moves(game: &Game, position: &Position) -> (Vec<Position>, bool) {
    let mut moves = Vec::new();
    let flow = game
        .ruleset
        .for_each_move(position.heaps(), |removed, added| {
            if moves.len() == LISTED_MOVES {
                return ControlFlow::Break(());
            }
            moves.push(game.apply(position, removed, added));
            ControlFlow::Continue(())
        });
    moves.sort();
    // Coupled moves (Wythoff, Moore) can reach one position through different heaps.
    moves.dedup();
    (moves, flow.is_continue())
}

/// True when one move of `ruleset` leads from `from` to `to`, decided from the heaps that
/// changed, without listing the moves (a heap may hold billions of tokens).
pub fn is_move(ruleset: &Ruleset, from: &Position, to: &Position) -> bool {
    let (removed, added) = difference(from.heaps(), to.heaps());
    if removed.is_empty() {
        return false;
    }
    let one_heap = |h: u64, parts: &[u64]| -> bool {
        let left: u128 = parts.iter().map(|&p| u128::from(p)).sum();
        if left > u128::from(h) {
            return false;
        }
        let taken = h - left as u64;
        match ruleset {
            Ruleset::Nim | Ruleset::Wythoff | Ruleset::Moore(_) => parts.len() <= 1 && taken >= 1,
            Ruleset::Subtraction(set) => parts.len() <= 1 && set.contains(&taken),
            Ruleset::InfiniteSubtraction(family) => parts.len() <= 1 && family.contains(taken),
            Ruleset::Custom(custom) => custom.is_option(h, parts),
            Ruleset::Grundy => parts.len() == 2 && taken == 0 && parts[0] != parts[1],
            Ruleset::TakeBreak(code) => {
                let digit = code.digit(taken);
                match parts.len() {
                    0 => digit & 1 != 0,
                    1 => digit & 2 != 0 && taken >= 1,
                    2 => digit & 4 != 0,
                    3 => digit & 8 != 0,
                    _ => false,
                }
            }
        }
    };
    match ruleset {
        Ruleset::Wythoff if removed.len() == 2 => {
            // The same number from both heaps (a heap brought to 0 is gone).
            let (x, y) = (removed[0], removed[1]);
            match added[..] {
                [a, b] => x > a && x - a == y.wrapping_sub(b) && y > b,
                [b] => y > x && y - x == b,
                [] => x == y,
                _ => false,
            }
        }
        Ruleset::Moore(k) if removed.len() > 1 => {
            // Up to k heaps, each lowered: match the smallest results with the smallest
            // heaps (gone heaps are results of 0).
            if removed.len() > *k as usize || added.len() > removed.len() {
                return false;
            }
            let pad = removed.len() - added.len();
            removed
                .iter()
                .enumerate()
                .all(|(i, &h)| i < pad || added[i - pad] < h)
        }
        _ => removed.len() == 1 && one_heap(removed[0], &added),
    }
}

/// The heaps of `from` not in `to`, and those of `to` not in `from` (as multisets, both
/// ascending).
fn difference(from: &[u64], to: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < from.len() || j < to.len() {
        match (from.get(i), to.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(&a), Some(&b)) if a < b => {
                removed.push(a);
                i += 1;
            }
            (Some(&a), None) => {
                removed.push(a);
                i += 1;
            }
            (_, Some(&b)) => {
                added.push(b);
                j += 1;
            }
            (None, None) => break,
        }
    }
    (removed, added)
}

/// SplitMix64: a small, well-mixed generator for the computer's random moves (no
/// cryptographic claim; repeatable from its seed).
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`), without modulo bias worth measuring for small `n`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    #[test]
    fn is_move_agrees_with_the_move_generator() {
        let specs = [
            "nim",
            "octal:0.77",
            "octal:0.07",
            "octal:4.7",
            "hex:0.8F",
            "hex:8.31",
            "subtraction:1,3,4",
            "grundy",
            "wythoff",
            "moore:2",
            "moore:3",
        ];
        let positions: Vec<Vec<u64>> = vec![
            vec![],
            vec![1],
            vec![5],
            vec![2, 2],
            vec![3, 5],
            vec![1, 4, 4],
            vec![2, 3, 7],
            vec![4, 4, 6, 6],
            vec![9],
        ];
        for spec in specs {
            let game = resolve(spec).unwrap();
            for heaps in &positions {
                let from = Position::new(heaps.clone());
                let mut children = game.children_prepared(&from);
                children.sort();
                children.dedup();
                // Every position of at most 4 heaps up to 9 tokens each with no more
                // tokens than `from`... plus a few with more.
                let mut candidates = children.clone();
                for a in 0..10 {
                    for b in 0..=a {
                        for c in 0..=b {
                            candidates.push(Position::new(vec![a, b, c]));
                            for d in [1, 4, 6] {
                                candidates.push(Position::new(vec![a, b, c, d]));
                            }
                        }
                    }
                }
                for to in candidates {
                    let expected = children.binary_search(&to).is_ok();
                    assert_eq!(
                        is_move(&game.ruleset, &from, &to),
                        expected,
                        "{spec}: {from} to {to}"
                    );
                }
            }
        }
    }

    #[test]
    fn huge_heaps_are_played_without_listing_their_moves() {
        let game = resolve("nim").unwrap();
        let start = Position::new(vec![u64::MAX, 1]);
        let mut session = Session::new(&game, &Policy::default(), start, Player::You).unwrap();
        assert!(!session.moves_complete());
        assert_eq!(session.moves().len(), LISTED_MOVES);
        assert!(session.value().unwrap().is_win());
        assert_eq!(
            session.best_move().unwrap(),
            Some(Position::new(vec![1, 1]))
        );
        let to = session.parse_move("1 12345678901234").unwrap();
        session.play(to).unwrap();
        assert_eq!(session.to_move(), Player::Computer);
        // Numbers are not moves where the moves are not all listed.
        assert!(session.parse_move("2").is_err());
    }

    #[test]
    fn to_names_a_position_where_a_lone_number_is_a_move_number() {
        let game = resolve("nim").unwrap();
        let start = Position::new(vec![5]);
        let session = Session::new(&game, &Policy::default(), start, Player::You).unwrap();
        let numbered = session.parse_move("3").unwrap();
        assert_eq!(numbered, session.moves()[2]);
        assert_eq!(session.parse_move("to 3").unwrap(), Position::new(vec![3]));
        assert_eq!(session.parse_move("TO 0").unwrap(), Position::new(vec![]));
        assert_eq!(session.parse_move("3 0").unwrap(), Position::new(vec![3]));
        assert!(session.parse_move("to 6").is_err());
    }

    #[test]
    fn undo_goes_back_to_your_last_turn() {
        let game = resolve("nim").unwrap();
        let start = Position::new(vec![3, 4, 5]);
        let mut session =
            Session::new(&game, &Policy::default(), start.clone(), Player::You).unwrap();
        assert!(!session.undo());
        session.play(Position::new(vec![1, 4, 5])).unwrap();
        let reply = session.computer_move().unwrap().unwrap();
        assert!(!reply.random);
        session.play(reply.to).unwrap();
        assert_eq!(session.plies(), 2);
        assert!(session.undo());
        assert_eq!(session.position(), &start);
        assert_eq!(session.plies(), 0);
        assert_eq!(session.to_move(), Player::You);
    }

    #[test]
    fn level_zero_plays_random_moves_and_the_top_level_none() {
        let game = resolve("kayles").unwrap();
        let start = Position::new(vec![7, 8, 9]);
        let mut session =
            Session::new(&game, &Policy::default(), start.clone(), Player::Computer).unwrap();
        session.set_level(0, 7).unwrap();
        assert!(session.computer_move().unwrap().unwrap().random);
        session.set_level(MAX_LEVEL, 7).unwrap();
        let reply = session.computer_move().unwrap().unwrap();
        assert!(!reply.random);
        assert!(session.set_level(MAX_LEVEL + 1, 0).is_err());
        // The best move of a won position wins.
        let mut after = Session::new(&game, &Policy::default(), reply.to, Player::You).unwrap();
        assert!(!after.value().unwrap().is_win());
    }
}
