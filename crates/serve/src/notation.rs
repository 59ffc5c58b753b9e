//! Positions and moves as the Universal Web API writes them. GamesmanUni puts a position
//! into `?p=` without encoding it and keys moves by their strings, so a position is
//! `<player>_<heap>-<heap>-...` (digits, `_` and `-` only; `<player>_0` once no heap is
//! left) with the heaps in the order the board shows them, and a move names the heap by
//! its place on that board (unique within a position, never a `:`, which the client's
//! move history uses as its separator).

use sicher::game::Heap;

use crate::error::{ApiError, ApiResult};
use crate::report::Move;

/// A position on the board: whose turn (1 or 2) and the heaps in board order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// 1 or 2: the player to move.
    pub player: u8,
    /// The heaps, in the order shown (no zeros).
    pub heaps: Vec<Heap>,
}

impl Board {
    /// Reads `1_3-4-5`.
    pub fn parse(text: &str, max_heaps: usize) -> ApiResult<Self> {
        let bad = || {
            ApiError::bad(format!(
                "position `{}`: expected the player to move and the heaps, as in 1_3-4-5 (1_0 when no heap is left)",
                text.chars().take(40).collect::<String>()
            ))
        };
        let (player, heaps) = text.split_once('_').ok_or_else(bad)?;
        let player = match player {
            "1" => 1,
            "2" => 2,
            _ => return Err(bad()),
        };
        let words: Vec<&str> = heaps.split('-').collect();
        if words.len() > max_heaps {
            return Err(ApiError::too_large(format!(
                "a position has at most {max_heaps} heaps here"
            )));
        }
        let mut parsed = Vec::with_capacity(words.len());
        for word in words {
            if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let heap: Heap = word.parse().map_err(|_| bad())?;
            if heap > 0 {
                parsed.push(heap);
            }
        }
        Ok(Board {
            player,
            heaps: parsed,
        })
    }

    /// Writes `1_3-4-5`.
    pub fn text(&self) -> String {
        let heaps: Vec<String> = self.heaps.iter().map(u64::to_string).collect();
        if heaps.is_empty() {
            format!("{}_0", self.player)
        } else {
            format!("{}_{}", self.player, heaps.join("-"))
        }
    }

    /// The board after `m` (the other player to move) and the move's name: the heaps it
    /// takes from are the first ones of those sizes on the board, and what it leaves of
    /// them stands where they stood.
    pub fn after(&self, m: &Move) -> (Board, String) {
        let mut used = vec![false; self.heaps.len()];
        let mut places = Vec::with_capacity(m.removed.len());
        for &size in &m.removed {
            if let Some(i) = (0..self.heaps.len()).find(|&i| !used[i] && self.heaps[i] == size) {
                used[i] = true;
                places.push(i);
            }
        }
        let mut heaps = Vec::with_capacity(self.heaps.len() + m.added.len());
        for (i, &h) in self.heaps.iter().enumerate() {
            match places.iter().position(|&p| p == i) {
                None => heaps.push(h),
                // One heap moved on: all it leaves, in place.
                Some(_) if places.len() == 1 => heaps.extend(m.added.iter().filter(|&&a| a > 0)),
                // Several heaps lowered together (Wythoff, Moore): each its own.
                Some(k) => heaps.extend(m.added.get(k).filter(|&&a| a > 0)),
            }
        }
        let name = name(&places, &m.removed, &m.added);
        (
            Board {
                player: 3 - self.player,
                heaps,
            },
            name,
        )
    }
}

/// `heap 2 (7) → 2 + 4`, `heap 1 (5) → 0`, `heaps 1, 2 (5, 7) → 3, 5`.
fn name(places: &[usize], removed: &[Heap], added: &[Heap]) -> String {
    let join = |v: &[Heap], sep: &str| v.iter().map(u64::to_string).collect::<Vec<_>>().join(sep);
    let places: Vec<String> = places.iter().map(|p| (p + 1).to_string()).collect();
    if removed.len() == 1 {
        let left: Vec<Heap> = added.iter().copied().filter(|&a| a > 0).collect();
        let left = if left.is_empty() {
            "0".to_string()
        } else {
            join(&left, " + ")
        };
        format!("heap {} ({}) → {left}", places.join(", "), removed[0])
    } else {
        format!(
            "heaps {} ({}) → {}",
            places.join(", "),
            join(removed, ", "),
            join(added, ", ")
        )
    }
}
