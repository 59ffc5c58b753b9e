//! Move-ordering memory: a history table and killer moves per ply.
//!
//! A move is remembered by its signature: a digest of the heap sizes it removes and
//! the heap sizes it leaves, so "split a 9 into 3 and 4" is the same move in every
//! position that has a 9. Moves that refuted often (history) or just refuted at the
//! same ply (killers) are tried first, so a safe position is proved with one child.

/// History slots (a power of two); signatures are folded into them.
const HISTORY_SLOTS: usize = 1 << 16;
/// Score that puts a killer ahead of any history count.
const KILLER_BONUS: u32 = 1 << 30;

/// History counts and killer moves.
pub struct MoveOrdering {
    history: Vec<u32>,
    killers: Vec<[u64; 2]>,
    use_history: bool,
    use_killers: bool,
}

impl MoveOrdering {
    /// Ordering memory with each heuristic switched on or off.
    pub fn new(use_history: bool, use_killers: bool) -> Self {
        MoveOrdering {
            history: vec![0; if use_history { HISTORY_SLOTS } else { 0 }],
            killers: Vec::new(),
            use_history,
            use_killers,
        }
    }

    /// The ordering score of a move at `ply`: higher is tried first.
    #[inline]
    pub fn score(&self, signature: u64, ply: usize) -> u32 {
        let mut score = 0;
        if self.use_killers {
            if let Some(killers) = self.killers.get(ply) {
                if killers[0] == signature {
                    score += KILLER_BONUS + 1;
                } else if killers[1] == signature {
                    score += KILLER_BONUS;
                }
            }
        }
        if self.use_history {
            score += self.history[signature as usize & (HISTORY_SLOTS - 1)].min(KILLER_BONUS - 1);
        }
        score
    }

    /// Records that a move refuted its position at `ply`.
    #[inline]
    pub fn reward(&mut self, signature: u64, ply: usize) {
        if self.use_history {
            let slot = &mut self.history[signature as usize & (HISTORY_SLOTS - 1)];
            *slot = slot.saturating_add(1);
        }
        if self.use_killers {
            if self.killers.len() <= ply {
                self.killers.resize(ply + 1, [0; 2]);
            }
            let killers = &mut self.killers[ply];
            if killers[0] != signature {
                killers[1] = killers[0];
                killers[0] = signature;
            }
        }
    }

    /// True when either heuristic is on (otherwise moves keep generation order).
    pub fn is_active(&self) -> bool {
        self.use_history || self.use_killers
    }
}
