//! Canonical forms written as CGSuite writes them.
//!
//! Short names: integers (`3`, `-2`), dyadic numbers (`5/4`, `-1/2`), nimbers (`*`,
//! `*3`), ups and downs (`^`, `^^`, `^3`, `v`, `vv`, `v4`), and a number plus ups plus a
//! nimber (`1*`, `^*`, `3v*2`); switches `+-1`, `+-1/2`, `+-{1,1*}` (a game whose Right
//! options are the negatives of its Left options). Every other game is written in
//! braces, where a side's lone option without a short name is written bare and the bar
//! between the sides has one stroke more than the deepest bare option's:
//! `{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}`. Options are listed numbers first (ascending),
//! then other short names, then braced games.

use hashbrown::HashMap;

use super::number::{Dyadic, Numbers};
use super::store::{GameId, GameStore};

/// Largest birthday at which a game is tried as a number plus ups plus a nimber: the
/// candidates are built and compared, which past this costs more than it is worth.
const MOST_BIRTHDAY_NAMED: u32 = 16;

/// Where an option stands when a side is listed: numbers, other short names, braced
/// games; numbers by value, the rest by text.
type Order = (u8, Option<Dyadic>, String);

/// Writes games of one store in CGSuite's notation, remembering what it has written.
#[derive(Default)]
pub struct Notation {
    numbers: Numbers,
    short: HashMap<GameId, Option<String>>,
    bare: HashMap<GameId, (String, usize)>,
    birthdays: HashMap<GameId, u32>,
}

impl Notation {
    /// The number a canonical game is, or `None`.
    pub fn number(&mut self, store: &GameStore, g: GameId) -> Option<Dyadic> {
        self.numbers.value(store, g)
    }

    /// The canonical game `g` in CGSuite's notation.
    pub fn write(&mut self, store: &mut GameStore, g: GameId) -> String {
        match self.short_name(store, g) {
            Some(name) => name,
            None => format!("{{{}}}", self.bare(store, g).0),
        }
    }

    /// The short name of `g`, if it has one.
    pub fn short_name(&mut self, store: &mut GameStore, g: GameId) -> Option<String> {
        if let Some(known) = self.short.get(&g) {
            return known.clone();
        }
        let name = self.find_short_name(store, g);
        self.short.insert(g, name.clone());
        name
    }

    fn find_short_name(&mut self, store: &mut GameStore, g: GameId) -> Option<String> {
        if let Some(v) = self.numbers.value(store, g) {
            return Some(v.to_string());
        }
        if let Some(name) = self.uptimal(store, g) {
            return Some(name);
        }
        self.switch(store, g)
    }

    /// `x + k·↑ + *m`, written `x^k*m` with the parts that are zero left out.
    fn uptimal(&mut self, store: &mut GameStore, g: GameId) -> Option<String> {
        let left = self.numbers.stop(store, g, true)?;
        let right = self.numbers.stop(store, g, false)?;
        if left != right {
            return None;
        }
        let birthday = store.birthday(g, &mut self.birthdays);
        if birthday > MOST_BIRTHDAY_NAMED {
            return None;
        }
        let x = store.dyadic(left.numerator(), left.exponent()).ok()?;
        let h = store.sub(g, x).ok()?;
        let bound = i64::from(birthday) + 1;
        for magnitude in 0..=bound {
            for k in [magnitude, -magnitude] {
                if magnitude == 0 && k < 0 {
                    continue;
                }
                let ups = store.ups(k).ok()?;
                for m in 0..=bound as u32 {
                    let star = store.nimber(m).ok()?;
                    if store.add(ups, star).ok()? == h {
                        return Some(uptimal_name(left, k, m));
                    }
                }
            }
        }
        None
    }

    /// `+-G`: Right's options are exactly the negatives of Left's.
    fn switch(&mut self, store: &mut GameStore, g: GameId) -> Option<String> {
        let left = store.left(g).to_vec();
        if left.is_empty() {
            return None;
        }
        let mut negated = Vec::with_capacity(left.len());
        for &l in &left {
            negated.push(store.neg(l).ok()?);
        }
        negated.sort_unstable();
        if negated != store.right(g) {
            return None;
        }
        if let [only] = left[..] {
            return Some(format!("+-{}", self.write(store, only)));
        }
        Some(format!("+-{{{}}}", self.list(store, &left)))
    }

    /// Options of one side, each short-named or in braces, in printing order.
    fn list(&mut self, store: &mut GameStore, options: &[GameId]) -> String {
        let mut written: Vec<(Order, String)> = options
            .iter()
            .map(|&x| {
                let number = self.numbers.value(store, x);
                let text = self.write(store, x);
                let rank = match (number, self.short_name(store, x)) {
                    (Some(_), _) => 0,
                    (None, Some(_)) => 1,
                    (None, None) => 2,
                };
                ((rank, number, text.clone()), text)
            })
            .collect();
        written.sort_by(|a, b| a.0.cmp(&b.0));
        written
            .into_iter()
            .map(|(_, text)| text)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// One side's options: a lone option without a short name bare (with its strokes),
    /// else the list.
    fn side(&mut self, store: &mut GameStore, options: &[GameId]) -> (String, usize) {
        if let [only] = options[..] {
            if self.short_name(store, only).is_none() {
                return self.bare(store, only);
            }
        }
        (self.list(store, options), 0)
    }

    /// `g` without its outer braces, and the strokes of its bar.
    fn bare(&mut self, store: &mut GameStore, g: GameId) -> (String, usize) {
        if let Some(known) = self.bare.get(&g) {
            return known.clone();
        }
        let left_options = store.left(g).to_vec();
        let right_options = store.right(g).to_vec();
        let (left, left_depth) = self.side(store, &left_options);
        let (right, right_depth) = self.side(store, &right_options);
        let strokes = 1 + left_depth.max(right_depth);
        let text = format!("{left}{}{right}", "|".repeat(strokes));
        self.bare.insert(g, (text.clone(), strokes));
        (text, strokes)
    }
}

/// `x^k*m`: the number unless zero (alone when everything is zero), the ups (`^`, `^^`,
/// `^3`, `v`, `vv`, `v3`), the nimber (`*`, `*2`).
fn uptimal_name(x: Dyadic, k: i64, m: u32) -> String {
    let mut name = String::new();
    if x != Dyadic::integer(0) || (k == 0 && m == 0) {
        name.push_str(&x.to_string());
    }
    let arrow = if k > 0 { "^" } else { "v" };
    match k.unsigned_abs() {
        0 => {}
        1 => name.push_str(arrow),
        2 => {
            name.push_str(arrow);
            name.push_str(arrow);
        }
        n => {
            name.push_str(arrow);
            name.push_str(&n.to_string());
        }
    }
    match m {
        0 => {}
        1 => name.push('*'),
        m => {
            name.push('*');
            name.push_str(&m.to_string());
        }
    }
    name
}
