//! Terminal rules beyond "no move": a script's `terminal(heaps, player)`.

use std::sync::Mutex;

use hashbrown::HashMap;

use super::super::script::{call_terminal, spec_of};
use super::super::Heap;
use crate::error::{Error, Result};
use crate::value::Player;

/// A rule that may end play before the player to move runs out of moves: the seeds' `t`
/// and `g` beyond the normal and misère rules.
pub trait TerminalRule: Send + Sync {
    /// Names the rule in messages (its description file).
    fn name(&self) -> &str;
    /// Its identity: `terminal:` and a hash of the script's text.
    fn spec(&self) -> String;
    /// `Some(true)` when play has ended and `to_move` wins, `Some(false)` when it has
    /// ended and `to_move` loses, `None` while play goes on.
    fn judge(&self, heaps: &[Heap], to_move: Player) -> Result<Option<bool>>;
    /// The script's text, which a table carries so that it stands alone (`None` for
    /// rules that are not a script's).
    fn text(&self) -> Option<&str> {
        None
    }
}

/// A position with the player to move, as the cache keys verdicts.
type Judged = (Box<[Heap]>, Player);

/// Most verdicts a terminal script keeps before its cache starts again.
const KEPT_VERDICTS: usize = 1 << 20;

/// A script's `terminal(heaps, player)`, its verdicts cached per position and player.
pub struct TerminalScript {
    name: String,
    text: String,
    key: String,
    cache: Mutex<HashMap<Judged, Option<bool>>>,
}

impl TerminalScript {
    /// The terminal rule of a script already checked to define `terminal(heaps, player)`;
    /// `name` names it in messages.
    pub fn new(name: &str, text: &str) -> Self {
        TerminalScript {
            name: name.to_string(),
            text: text.to_string(),
            key: format!("{}/terminal", spec_of(text)),
            cache: Mutex::new(HashMap::new()),
        }
    }
}

impl TerminalRule for TerminalScript {
    fn name(&self) -> &str {
        &self.name
    }

    fn spec(&self) -> String {
        self.key.clone()
    }

    fn text(&self) -> Option<&str> {
        Some(&self.text)
    }

    fn judge(&self, heaps: &[Heap], to_move: Player) -> Result<Option<bool>> {
        let key = (Box::<[Heap]>::from(heaps), to_move);
        if let Some(&known) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(known);
        }
        let verdict =
            call_terminal(&self.key, &self.text, heaps, to_move.name()).map_err(|why| {
                let list: Vec<String> = heaps.iter().map(u64::to_string).collect();
                Error::input(format!(
                    "{}: terminal([{}], \"{}\"): {why}",
                    self.name,
                    list.join(", "),
                    to_move.name()
                ))
            })?;
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= KEPT_VERDICTS {
            cache.clear();
        }
        cache.insert(key, verdict);
        Ok(verdict)
    }
}
