//! Rules a table carries so that it stands alone: the option lists of a custom ruleset
//! (a script's, a caller's function's) for every heap size the table's domain uses.
//!
//! A table written for `script:HASH` or a Python function's rules names them by a spec
//! that finds rules only while their source is alive in the process. The writer copies
//! the options of heaps `0..=largest` into the table ([`OptionLists::of`]); a reader
//! that finds no live rules under the spec answers from the copy
//! ([`OptionLists::rules`], through [`with_carried`] while the game is parsed). A
//! source alive in the process is always preferred: the copy only stands in for it.

use std::cell::RefCell;
use std::ops::ControlFlow;

use super::custom::{CustomRules, HeapOptionsSource};
use super::options::MAX_PARTS;
use super::Heap;
use crate::error::Result;

/// The options of every heap `0..per_heap.len()` of one custom ruleset, flat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionLists {
    /// The ruleset's spec (`script:…`, `function:…`).
    pub spec: String,
    /// How many options each heap size has, from heap 0.
    pub per_heap: Vec<u32>,
    /// Every option in heap order: its number of parts, then the parts.
    pub parts: Vec<u32>,
}

impl OptionLists {
    /// The options of `rules` for heaps `0..=largest` (asking its source where not
    /// cached yet).
    pub fn of(rules: &CustomRules, largest: Heap) -> Result<Self> {
        rules.prepare(largest)?;
        let mut lists = OptionLists {
            spec: rules.spec().to_string(),
            per_heap: Vec::with_capacity(largest as usize + 1),
            parts: Vec::new(),
        };
        for h in 0..=largest {
            let mut count = 0u32;
            let _ = rules.for_each_option(h, |parts| {
                count += 1;
                lists.parts.push(parts.len() as u32);
                lists.parts.extend(parts.iter().map(|&p| p as u32));
                ControlFlow::Continue(())
            });
            lists.per_heap.push(count);
        }
        Ok(lists)
    }

    /// The largest heap whose options are listed.
    pub fn largest(&self) -> Heap {
        self.per_heap.len().saturating_sub(1) as Heap
    }

    /// Every option of every heap, each as its parts; `Err` when the lists do not add up
    /// (a damaged or forged table).
    fn split(&self) -> std::result::Result<Vec<Vec<Vec<i64>>>, String> {
        let mut at = 0usize;
        let mut heaps = Vec::with_capacity(self.per_heap.len());
        for &count in &self.per_heap {
            let mut options = Vec::with_capacity((count as usize).min(1 << 16));
            for _ in 0..count {
                let len = *self.parts.get(at).ok_or("the option lists end early")? as usize;
                if len > MAX_PARTS {
                    return Err("an option of too many parts".into());
                }
                let parts = self
                    .parts
                    .get(at + 1..at + 1 + len)
                    .ok_or("the option lists end early")?;
                options.push(parts.iter().map(|&p| i64::from(p)).collect());
                at += 1 + len;
            }
            heaps.push(options);
        }
        if at != self.parts.len() {
            return Err("the option lists do not add up".into());
        }
        Ok(heaps)
    }

    /// Rules answering from these lists, named `origin` in messages (the table's path),
    /// checked like any source's answers; not shared with rules alive in the process.
    pub fn rules(&self, origin: &str) -> std::result::Result<CustomRules, String> {
        if self.per_heap.is_empty() {
            return Err("no heap's options are carried".into());
        }
        let source = Carried {
            name: format!("{origin} (the rules it carries)"),
            spec: self.spec.clone(),
            options: self.split()?,
        };
        let rules = CustomRules::unregistered(Box::new(source));
        rules
            .prepare(self.largest())
            .map_err(|e| format!("its carried rules: {}", e.message()))?;
        Ok(rules)
    }
}

/// A source answering from carried option lists, for the heaps they cover.
struct Carried {
    name: String,
    spec: String,
    options: Vec<Vec<Vec<i64>>>,
}

impl HeapOptionsSource for Carried {
    fn name(&self) -> &str {
        &self.name
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn options(&self, n: Heap) -> std::result::Result<Vec<Vec<i64>>, String> {
        self.options.get(n as usize).cloned().ok_or_else(|| {
            format!(
                "the table carries these rules' options for heaps up to {} only; give the description (or the function) for larger heaps",
                self.options.len().saturating_sub(1)
            )
        })
    }
}

thread_local! {
    /// Rules carried by the table being opened on this thread, found by spec where no
    /// rules are alive under it.
    static CARRIED: RefCell<Vec<CustomRules>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with `rules` findable by their specs (after the rules alive in the process):
/// how a table's header spec finds the rules the table carries.
pub fn with_carried<T>(rules: &[CustomRules], f: impl FnOnce() -> T) -> T {
    let before = CARRIED.with(|c| std::mem::replace(&mut *c.borrow_mut(), rules.to_vec()));
    let out = f();
    CARRIED.with(|c| *c.borrow_mut() = before);
    out
}

/// The carried rules in scope under `spec`, if any.
pub(super) fn find_carried(spec: &str) -> Option<CustomRules> {
    CARRIED.with(|c| c.borrow().iter().find(|r| r.spec() == spec).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Kayles;

    impl HeapOptionsSource for Kayles {
        fn name(&self) -> &str {
            "kayles"
        }
        fn spec(&self) -> String {
            "test:carried-kayles".into()
        }
        fn options(&self, n: Heap) -> std::result::Result<Vec<Vec<i64>>, String> {
            let n = n as i64;
            let mut out = Vec::new();
            for take in 1..=2.min(n) {
                for a in 0..=(n - take) / 2 {
                    out.push(vec![a, n - take - a]);
                }
            }
            Ok(out)
        }
    }

    #[test]
    fn carried_lists_give_the_same_options_and_nothing_beyond() {
        let live = CustomRules::new(Box::new(Kayles));
        let lists = OptionLists::of(&live, 12).unwrap();
        let copy = lists.rules("k.table").unwrap();
        assert_eq!(copy.spec(), live.spec());
        for h in 0..=12 {
            let collect = |r: &CustomRules| {
                let mut all = Vec::new();
                let _ = r.for_each_option(h, |p| {
                    all.push(p.to_vec());
                    ControlFlow::Continue(())
                });
                all
            };
            assert_eq!(collect(&copy), collect(&live), "heap {h}");
        }
        let beyond = copy.prepare(13).unwrap_err().to_string();
        assert!(beyond.contains("up to 12 only"), "{beyond}");
        let mut broken = lists.clone();
        broken.parts.pop();
        assert!(broken.rules("k.table").is_err());
        drop(live);
        assert!(crate::game::parse_spec("test:carried-kayles").is_err());
        let found = with_carried(&[copy], || crate::game::parse_spec("test:carried-kayles"));
        assert_eq!(found.unwrap().ruleset.spec(), "test:carried-kayles");
        assert!(crate::game::parse_spec("test:carried-kayles").is_err());
    }
}
