//! Canonical forms of single heaps of a partizan heap game in normal play, and of sums
//! of heaps: `G(n) = { Σ G(parts) over Left's options | Σ G(parts) over Right's }`,
//! where an option leaving several heaps leaves their sum (as CGSuite has it).
//!
//! The forms live in one [`GameStore`] bounded by the caller: past the bound a form is
//! not computed (`Ok(None)`) and whoever asked answers another way (the search).

use crate::cancel::Cancel;
use crate::error::{Error, Result};
use crate::game::partizan::{PartizanGame, Terminal};
use crate::game::Heap;
use crate::theory::cgt::{GameId, GameStore, Notation};
use crate::value::OutcomeClass;

/// Canonical forms of the heaps of one game, computed in order of size and kept.
pub struct HeapForms {
    game: PartizanGame,
    store: GameStore,
    notation: Notation,
    forms: Vec<GameId>,
    /// `sizes[n]`: distinct subgames of heap `n`'s form.
    sizes: Vec<usize>,
    /// Most positions a sum may have before simplification (the product of its forms'
    /// sizes): adding forms costs about that many comparisons, so past it the search is
    /// asked instead.
    sum_bound: usize,
    /// Set once a form has grown past the bound: larger heaps are not tried again.
    too_large_from: Option<Heap>,
    /// Stops the computation of forms (between two options) once cancelled.
    cancel: Cancel,
}

impl HeapForms {
    /// The forms of `game`'s heaps in a store of at most `limit` games, summed where the
    /// product of the forms' sizes is at most `sum_bound`. Canonical forms describe
    /// normal play: misère play and terminal scripts are refused.
    pub fn new(game: &PartizanGame, limit: usize, sum_bound: usize) -> Result<Self> {
        if !matches!(game.terminal, Terminal::Normal) {
            return Err(Error::input(format!(
                "{}: canonical forms describe normal play (the player with no move loses); this game ends by another rule",
                game.title()
            )));
        }
        Ok(HeapForms {
            game: game.clone(),
            store: GameStore::with_limit(limit),
            notation: Notation::default(),
            forms: vec![GameStore::ZERO],
            sizes: vec![1],
            sum_bound,
            too_large_from: None,
            cancel: Cancel::new(),
        })
    }

    /// Stops every later computation of forms with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once `cancel`
    /// is cancelled (the forms finished before stay, so it may go on after a fresh handle
    /// is set).
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// The store the forms live in.
    pub fn store(&mut self) -> &mut GameStore {
        &mut self.store
    }

    /// The canonical form of a heap of size `n`, or `None` past the bound.
    pub fn form(&mut self, n: Heap) -> Result<Option<GameId>> {
        if self.too_large_from.is_some_and(|from| n >= from) {
            return Ok(None);
        }
        if (n as usize) < self.forms.len() {
            return Ok(Some(self.forms[n as usize]));
        }
        self.game.prepare(n)?;
        while self.forms.len() as u64 <= n {
            let h = self.forms.len() as u64;
            match self.next(h)? {
                Some(g) => {
                    self.forms.push(g);
                    self.sizes.push(self.store.size(g));
                }
                None => {
                    self.too_large_from = Some(h);
                    return Ok(None);
                }
            }
        }
        Ok(Some(self.forms[n as usize]))
    }

    /// The form of heap `h`, all smaller heaps' forms known.
    fn next(&mut self, h: Heap) -> Result<Option<GameId>> {
        let mut sides: [Vec<Vec<u64>>; 2] = [Vec::new(), Vec::new()];
        for (side, rules) in sides.iter_mut().zip([&self.game.left, &self.game.right]) {
            let _ = rules.for_each_heap_option(h, |parts| {
                side.push(parts.to_vec());
                std::ops::ControlFlow::Continue(())
            });
        }
        let mut options: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for (out, side) in options.iter_mut().zip(&sides) {
            for parts in side {
                self.cancel.check()?;
                if let Some(&big) = parts.iter().find(|&&p| p >= h) {
                    return Err(Error::input(format!(
                        "{}: heap {h} has an option leaving a heap of {big}, so heaps have no canonical forms (play may not end)",
                        self.game.title()
                    )));
                }
                let forms: Vec<GameId> = parts.iter().map(|&p| self.forms[p as usize]).collect();
                match self.store.sum(&forms) {
                    Ok(g) => out.push(g),
                    Err(_) => return Ok(None),
                }
            }
        }
        let [left, right] = options;
        Ok(self.store.canonical(left, right).ok())
    }

    /// The canonical form of the sum of these heaps, or `None` past either bound.
    pub fn sum(&mut self, heaps: &[Heap]) -> Result<Option<GameId>> {
        let mut forms = Vec::with_capacity(heaps.len());
        let mut positions = 1usize;
        for &h in heaps {
            match self.form(h)? {
                Some(g) => forms.push(g),
                None => return Ok(None),
            }
            positions = positions.saturating_mul(self.sizes[h as usize]);
        }
        if heaps.len() > 1 && positions > self.sum_bound {
            return Ok(None);
        }
        Ok(self.store.sum(&forms).ok())
    }

    /// Distinct subgames of heap `n`'s form, once computed.
    pub fn size(&self, n: Heap) -> Option<usize> {
        self.sizes.get(n as usize).copied()
    }

    /// The outcome class of a game: Left starting wins unless `g ≤ 0`, Right starting
    /// wins unless `g ≥ 0`.
    pub fn class(&mut self, g: GameId) -> OutcomeClass {
        let left = !self.store.le(g, GameStore::ZERO);
        let right = !self.store.le(GameStore::ZERO, g);
        OutcomeClass::from_wins(left, right)
    }

    /// `g` in CGSuite's notation.
    pub fn write(&mut self, g: GameId) -> String {
        self.notation.write(&mut self.store, g)
    }
}
