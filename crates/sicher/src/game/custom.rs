//! Rules given as a function: a source says, for any heap size `n`, the options of a lone
//! heap of size `n` (a script, or later a caller's function), and this module checks what
//! it says and keeps it, so the engines never call the source in their loops.
//!
//! A [`HeapOptionsSource`] is asked about each heap size once per process, in increasing
//! order, on one thread at a time; [`CustomRules`] checks every answer (each heap an
//! option leaves is non-negative and smaller than `n`, so every game ends; at most
//! [`MAX_PARTS`] heaps per option; bounded counts) and caches it. Entry points fill the
//! cache up to the largest heap they will meet ([`CustomRules::prepare`]), which is where
//! a source's failure becomes one error line naming the source and the heap; the engines
//! then read the cache without locks (a heap size is one atomic load away). The cache
//! lives as long as any ruleset holding it, and rulesets of the same source (the same
//! [`HeapOptionsSource::spec`]) share it through a registry, which is also how a table
//! header naming `script:...` finds its rules again.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};

use super::options::MAX_PARTS;
use super::Heap;
use crate::error::{Error, ErrorKind, Hint, Result};

/// Where a custom ruleset's options come from: a function from a heap size to the
/// options of a lone heap of that size.
///
/// Implementations need not check what they return: [`CustomRules`] does, once, for
/// every source alike.
pub trait HeapOptionsSource: Send + Sync {
    /// Names the source in error messages: a description file, a function.
    fn name(&self) -> &str;
    /// The canonical spec, `kind:identity` (a script's is `script:` and a hash of its
    /// text): what table headers record and what finds the rules again. Sources with the
    /// same spec must give the same options.
    fn spec(&self) -> String;
    /// The options of a lone heap of size `n`: each the sizes of the heaps it leaves
    /// (zeros are dropped, order is free). `Err(why)` when the source cannot tell.
    fn options(&self, n: Heap) -> std::result::Result<Vec<Vec<i64>>, String>;
    /// True (the default) when a failure is the source's answer for good, so a later
    /// call over that heap fails the same way without asking again; false for sources
    /// whose failures may pass (a Python function interrupted by Ctrl-C), which are
    /// asked again next time.
    fn failures_stay(&self) -> bool {
        true
    }
}

/// Largest heap size whose options are asked for.
pub const MAX_HEAP: Heap = 1 << 24;
/// Most options one heap size may have.
pub const MAX_OPTIONS_PER_HEAP: usize = 1 << 20;
/// Most options kept in all (16 bytes each: 1 GiB).
pub const MAX_OPTIONS: u64 = 1 << 26;

/// One checked option: its parts ascending, non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Packed {
    len: u8,
    parts: [u32; MAX_PARTS],
}

impl Packed {
    #[inline]
    fn visit(&self, visit: &mut impl FnMut(&[Heap]) -> ControlFlow<()>) -> ControlFlow<()> {
        let mut parts = [0 as Heap; MAX_PARTS];
        for (to, &from) in parts.iter_mut().zip(&self.parts[..self.len as usize]) {
            *to = Heap::from(from);
        }
        visit(&parts[..self.len as usize])
    }

    fn parts(&self) -> impl Iterator<Item = Heap> + '_ {
        self.parts[..self.len as usize]
            .iter()
            .map(|&p| Heap::from(p))
    }
}

/// Ranges of heap sizes: range `c` holds heaps `2^c - 1 .. 2^(c+1) - 1`.
const RANGES: usize = 25;
const _: () = assert!(MAX_HEAP < (1 << RANGES) - 1);

/// The options of one heap size, set once.
type Slot = OnceLock<Box<[Packed]>>;

/// The options of every heap size filled so far, each set once and read without locks.
struct Cache {
    ranges: [OnceLock<Box<[Slot]>>; RANGES],
}

impl Cache {
    fn new() -> Self {
        Cache {
            ranges: [const { OnceLock::new() }; RANGES],
        }
    }

    #[inline]
    fn slot(&self, h: Heap) -> Option<&Slot> {
        let i = h.checked_add(1)?;
        let c = 63 - i.leading_zeros() as usize;
        let range = self.ranges.get(c)?.get()?;
        range.get((i - (1 << c)) as usize)
    }

    #[inline]
    fn get(&self, h: Heap) -> Option<&[Packed]> {
        self.slot(h)?.get().map(|b| &**b)
    }

    /// Stores the options of `h` (called once per heap, under the fill lock).
    fn set(&self, h: Heap, options: Box<[Packed]>) {
        let i = h + 1;
        let c = 63 - i.leading_zeros() as usize;
        let range =
            self.ranges[c].get_or_init(|| (0..1usize << c).map(|_| OnceLock::new()).collect());
        let _ = range[(i - (1 << c)) as usize].set(options);
    }
}

/// What the filling has reached, behind the fill lock.
#[derive(Default)]
struct Filled {
    /// Heaps `0..next` are cached.
    next: Heap,
    /// Options cached in all.
    options: u64,
    /// The first heap whose options failed, with its error: later fills stop there.
    failure: Option<(Heap, ErrorKind, String)>,
}

/// Heaps by the options that leave them, for listing parents.
type Inverse = hashbrown::HashMap<Packed, Vec<Heap>>;

struct Inner {
    spec: String,
    source: Box<dyn HeapOptionsSource>,
    fill: Mutex<Filled>,
    /// Heaps `0..filled` are in the cache (what readers check, without the lock).
    filled: AtomicU64,
    cache: Cache,
    /// The heaps up to a bound, by the options that leave them (built on first use).
    inverse: RwLock<Option<(Heap, Arc<Inverse>)>>,
}

/// A ruleset whose options come from a [`HeapOptionsSource`], checked and cached. Clones
/// share the cache; two are equal when their specs are.
#[derive(Clone)]
pub struct CustomRules(Arc<Inner>);

/// Every custom ruleset alive, by spec, so that resolving the same source twice shares
/// one cache and a table header's spec finds its rules.
static REGISTRY: Mutex<Vec<Weak<Inner>>> = Mutex::new(Vec::new());

impl CustomRules {
    /// The rules of `source`: the ones already alive with its spec, if any (their cache
    /// is kept), else new ones.
    pub fn new(source: Box<dyn HeapOptionsSource>) -> Self {
        let spec = source.spec();
        let mut registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        registry.retain(|weak| weak.strong_count() > 0);
        if let Some(alive) = registry
            .iter()
            .filter_map(Weak::upgrade)
            .find(|inner| inner.spec == spec)
        {
            return CustomRules(alive);
        }
        let inner = Arc::new(Inner {
            spec,
            source,
            fill: Mutex::new(Filled::default()),
            filled: AtomicU64::new(0),
            cache: Cache::new(),
            inverse: RwLock::new(None),
        });
        registry.push(Arc::downgrade(&inner));
        CustomRules(inner)
    }

    /// Rules of `source` that no one else shares and [`CustomRules::find`] does not find
    /// (a table's carried copy, standing in for a source that is not alive).
    pub fn unregistered(source: Box<dyn HeapOptionsSource>) -> Self {
        CustomRules(Arc::new(Inner {
            spec: source.spec(),
            source,
            fill: Mutex::new(Filled::default()),
            filled: AtomicU64::new(0),
            cache: Cache::new(),
            inverse: RwLock::new(None),
        }))
    }

    /// The rules alive under `spec` (a table header's game), if any; else the rules a
    /// table being opened carries under it (`with_carried` in `carried.rs`).
    pub fn find(spec: &str) -> Option<Self> {
        let registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        registry
            .iter()
            .filter_map(Weak::upgrade)
            .find(|inner| inner.spec == spec)
            .map(CustomRules)
            .or_else(|| super::carried::find_carried(spec))
    }

    /// The canonical spec (`script:...`).
    pub fn spec(&self) -> &str {
        &self.0.spec
    }

    /// The source's name, for messages.
    pub fn name(&self) -> &str {
        self.0.source.name()
    }

    /// Asks the source for every heap size up to `largest` not asked yet, checks and
    /// caches the answers. The first failure is an error naming the source and the heap,
    /// and stays: a later call over that heap fails the same way without asking again.
    pub fn prepare(&self, largest: Heap) -> Result<()> {
        if largest < self.0.filled.load(Ordering::Acquire) {
            return Ok(());
        }
        let inner = &*self.0;
        let mut filled = inner.fill.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, kind, message)) = &filled.failure {
            if *at <= largest {
                return Err(rebuild(*kind, message));
            }
        }
        if largest > MAX_HEAP {
            return Err(Error::resource(format!(
                "{}: heap {largest}: options are asked for heaps up to {MAX_HEAP} only",
                inner.source.name()
            ))
            .with_hint(Hint::LowerMax));
        }
        while filled.next <= largest {
            let h = filled.next;
            let checked = inner
                .source
                .options(h)
                .map_err(Error::input)
                .and_then(|raw| check(h, raw))
                .and_then(|options| {
                    if filled.options + options.len() as u64 > MAX_OPTIONS {
                        Err(Error::resource(format!(
                            "more than {MAX_OPTIONS} options in all for heaps up to {h}"
                        ))
                        .with_hint(Hint::LowerMax))
                    } else {
                        Ok(options)
                    }
                });
            match checked {
                Ok(options) => {
                    filled.options += options.len() as u64;
                    inner.cache.set(h, options);
                    filled.next = h + 1;
                    inner.filled.store(h + 1, Ordering::Release);
                }
                Err(error) => {
                    let message = format!("{}: heap {h}: {error}", inner.source.name());
                    if inner.source.failures_stay() {
                        filled.failure = Some((h, error.kind(), message.clone()));
                    }
                    return Err(rebuild(error.kind(), &message));
                }
            }
        }
        Ok(())
    }

    /// True when the options of heap `h` are cached (an engine that reads ahead of what
    /// its entry point readied, for guidance only, stops there).
    #[inline]
    pub fn is_ready(&self, h: Heap) -> bool {
        h < self.0.filled.load(Ordering::Acquire)
    }

    /// The options of heap `h`, filling the cache first if an entry point did not.
    #[inline]
    fn options(&self, h: Heap) -> &[Packed] {
        if let Some(options) = self.0.cache.get(h) {
            return options;
        }
        self.options_late(h)
    }

    /// Every entry point fills the cache before its loops; a heap found missing is filled
    /// now. A source that fails here (a library caller listing moves, say
    /// [`Game::children`](super::Game::children), without [`CustomRules::prepare`]) lists
    /// no options for the heap rather than panic: the failure is kept, and every entry
    /// point's `prepare` over that heap reports it, so no answer is built on the gap.
    #[cold]
    fn options_late(&self, h: Heap) -> &[Packed] {
        let _ = self.prepare(h);
        self.0.cache.get(h).unwrap_or(&[])
    }

    /// Visits every option of a lone heap of size `h` (its parts, ascending, non-zero).
    #[inline]
    pub fn for_each_option(
        &self,
        h: Heap,
        mut visit: impl FnMut(&[Heap]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for option in self.options(h) {
            option.visit(&mut visit)?;
        }
        ControlFlow::Continue(())
    }

    /// True when a lone heap of size `h` has an option.
    #[inline]
    pub fn has_option(&self, h: Heap) -> bool {
        !self.options(h).is_empty()
    }

    /// True when `parts` (ascending, non-zero) is an option of a lone heap of size `h`;
    /// false too when the source fails at `h` or below.
    pub fn is_option(&self, h: Heap, parts: &[Heap]) -> bool {
        let Some(key) = pack(parts) else { return false };
        self.prepare(h).is_ok() && self.options(h).binary_search(&key).is_ok()
    }

    /// Most heaps an option of a heap up to `max` leaves (the cache must be filled).
    pub fn most_parts_up_to(&self, max: Heap) -> u32 {
        (0..=max)
            .flat_map(|h| self.options(h).iter().map(|o| u32::from(o.len)))
            .max()
            .unwrap_or(0)
    }

    /// The first heap up to `max` with an option that leaves more tokens than the heap
    /// held, with that option (the cache must be filled).
    pub fn first_growing_option(&self, max: Heap) -> Option<(Heap, Vec<Heap>)> {
        (0..=max).find_map(|h| {
            self.options(h)
                .iter()
                .find(|o| o.parts().sum::<Heap>() > h)
                .map(|o| (h, o.parts().collect()))
        })
    }

    /// Visits, for the option `parts` (ascending, non-zero), every heap up to `cap` that
    /// has it; heaps up to `cap` must be filled.
    pub fn for_each_heap_with_option(
        &self,
        parts: &[Heap],
        cap: Heap,
        mut visit: impl FnMut(Heap),
    ) {
        let Some(key) = pack(parts) else { return };
        let inverse = self.inverse(cap);
        if let Some(heaps) = inverse.get(&key) {
            for &h in heaps.iter().take_while(|&&h| h <= cap) {
                visit(h);
            }
        }
    }

    /// The heaps up to at least `cap` by their options, built on first use.
    fn inverse(&self, cap: Heap) -> Arc<Inverse> {
        let lock = &self.0.inverse;
        if let Some((max, inverse)) = &*lock.read().unwrap_or_else(|e| e.into_inner()) {
            if *max >= cap {
                return inverse.clone();
            }
        }
        let mut write = lock.write().unwrap_or_else(|e| e.into_inner());
        if let Some((max, inverse)) = &*write {
            if *max >= cap {
                return inverse.clone();
            }
        }
        let mut inverse = Inverse::new();
        for h in 0..=cap {
            for option in self.options(h) {
                match inverse.entry(*option) {
                    hashbrown::hash_map::Entry::Occupied(mut heaps) => heaps.get_mut().push(h),
                    hashbrown::hash_map::Entry::Vacant(slot) => {
                        slot.insert(vec![h]);
                    }
                }
            }
        }
        let inverse = Arc::new(inverse);
        *write = Some((cap, inverse.clone()));
        inverse
    }
}

/// An error of a kind with a message again (errors are not `Clone`: I/O errors are not).
fn rebuild(kind: ErrorKind, message: &str) -> Error {
    match kind {
        ErrorKind::Resource => Error::resource(message).with_hint(Hint::LowerMax),
        _ => Error::input(message),
    }
}

/// At most this many entries of an option are shown in a message.
const SHOWN: usize = 6;

/// An option as a message shows it: `[3, 0, 7]`, long ones cut.
fn show(option: &[i64]) -> String {
    let mut words: Vec<String> = option.iter().take(SHOWN).map(i64::to_string).collect();
    if option.len() > SHOWN {
        words.push(format!("… ({} in all)", option.len()));
    }
    format!("[{}]", words.join(", "))
}

/// Packs ascending non-zero parts, `None` when there are too many or they do not fit.
fn pack(parts: &[Heap]) -> Option<Packed> {
    if parts.len() > MAX_PARTS {
        return None;
    }
    let mut packed = Packed {
        len: parts.len() as u8,
        parts: [0; MAX_PARTS],
    };
    for (to, &from) in packed.parts.iter_mut().zip(parts) {
        *to = u32::try_from(from).ok()?;
    }
    Some(packed)
}

/// Checks a source's options of heap `n` and packs them: every heap non-negative and
/// smaller than `n`, at most [`MAX_PARTS`] non-empty heaps per option; zeros dropped,
/// parts sorted, the options sorted and each kept once.
fn check(n: Heap, raw: Vec<Vec<i64>>) -> Result<Box<[Packed]>> {
    if raw.len() > MAX_OPTIONS_PER_HEAP {
        return Err(Error::resource(format!(
            "{} options, more than the {MAX_OPTIONS_PER_HEAP} a heap may have",
            raw.len()
        )));
    }
    let mut options = Vec::with_capacity(raw.len());
    for option in &raw {
        let mut parts = [0u32; MAX_PARTS];
        let mut len = 0usize;
        for &part in option {
            if part < 0 {
                return Err(Error::input(format!(
                    "the option {} holds {part}: heap sizes are never negative",
                    show(option)
                )));
            }
            if part as u64 >= n && part != 0 {
                return Err(Error::input(format!(
                    "the option {} leaves a heap of {part}, not smaller than {n}: every heap an option leaves must be smaller than the heap it came from, so that every game ends",
                    show(option)
                )));
            }
            if part == 0 {
                continue;
            }
            if len == MAX_PARTS {
                return Err(Error::input(format!(
                    "the option {} leaves more than {MAX_PARTS} heaps; an option may leave at most {MAX_PARTS}",
                    show(option)
                )));
            }
            parts[len] = part as u32;
            len += 1;
        }
        parts[..len].sort_unstable();
        options.push(Packed {
            len: len as u8,
            parts,
        });
    }
    options.sort_unstable();
    options.dedup();
    Ok(options.into_boxed_slice())
}

impl PartialEq for CustomRules {
    fn eq(&self, other: &Self) -> bool {
        self.0.spec == other.0.spec
    }
}

impl Eq for CustomRules {}

impl std::hash::Hash for CustomRules {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.spec.hash(state);
    }
}

impl fmt::Debug for CustomRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CustomRules({})", self.0.spec)
    }
}

impl fmt::Display for CustomRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kayles as a function, with a hook to misbehave at one heap.
    struct Kayles {
        spec: String,
        bad_at: Option<(Heap, Vec<Vec<i64>>)>,
    }

    impl HeapOptionsSource for Kayles {
        fn name(&self) -> &str {
            "kayles.fn"
        }
        fn spec(&self) -> String {
            self.spec.clone()
        }
        fn options(&self, n: Heap) -> std::result::Result<Vec<Vec<i64>>, String> {
            if let Some((at, options)) = &self.bad_at {
                if *at == n {
                    return Ok(options.clone());
                }
            }
            let n = n as i64;
            let mut out = Vec::new();
            for take in 1..=2 {
                for a in 0..=(n - take) {
                    out.push(vec![a, n - take - a]);
                }
            }
            Ok(out)
        }
    }

    fn rules(spec: &str, bad_at: Option<(Heap, Vec<Vec<i64>>)>) -> CustomRules {
        CustomRules::new(Box::new(Kayles {
            spec: spec.into(),
            bad_at,
        }))
    }

    fn options(rules: &CustomRules, h: Heap) -> Vec<Vec<Heap>> {
        let mut out = Vec::new();
        let _ = rules.for_each_option(h, |parts| {
            out.push(parts.to_vec());
            ControlFlow::Continue(())
        });
        out.sort();
        out
    }

    #[test]
    fn options_are_checked_sorted_and_kept_once() {
        let kayles = rules("test:kayles-1", None);
        kayles.prepare(6).unwrap();
        assert_eq!(
            options(&kayles, 4),
            vec![vec![1, 1], vec![1, 2], vec![2], vec![3]]
        );
        assert!(options(&kayles, 0).is_empty());
        assert!(kayles.has_option(1));
        assert_eq!(kayles.most_parts_up_to(6), 2);
        assert_eq!(kayles.first_growing_option(6), None);
        // The same spec shares the cache; another spec does not.
        assert!(CustomRules::find("test:kayles-1").is_some());
        assert_eq!(rules("test:kayles-1", None), kayles);
        assert!(CustomRules::find("test:nothing").is_none());
        let mut heaps = Vec::new();
        kayles.for_each_heap_with_option(&[1, 2], 6, |h| heaps.push(h));
        assert_eq!(heaps, vec![4, 5]);
    }

    #[test]
    fn bad_options_fail_with_the_heap_and_stay_failed() {
        for (bad, says) in [
            (vec![vec![3, -1]], "holds -1"),
            (vec![vec![5]], "not smaller than 5"),
            (vec![vec![1, 1, 1, 1]], "more than 3 heaps"),
        ] {
            let spec = format!("test:bad-{says}");
            let rules = rules(&spec, Some((5, bad)));
            rules.prepare(4).unwrap();
            let error = rules.prepare(9).unwrap_err().to_string();
            assert!(error.starts_with("kayles.fn: heap 5: "), "{error}");
            assert!(error.contains(says), "{error}");
            assert_eq!(rules.prepare(7).unwrap_err().to_string(), error);
            rules.prepare(4).unwrap();
            // Read without a prepare (a library caller listing moves): no options, no panic.
            assert!(!rules.has_option(6));
        }
        assert!(rules("test:huge", None).prepare(MAX_HEAP + 1).is_err());
    }

    #[test]
    fn a_spec_of_any_kind_finds_rules_alive() {
        let live = rules("function:kayles-alive", None);
        let game = crate::game::parse_spec("function:kayles-alive").unwrap();
        assert!(
            matches!(&game.ruleset, crate::game::Ruleset::Custom(found) if found.spec() == live.spec())
        );
        drop((live, game));
        assert!(crate::game::parse_spec("function:kayles-alive").is_err());
    }

    #[test]
    fn children_over_a_failing_heap_are_its_error_not_a_short_list() {
        use crate::game::{Game, Position, Ruleset};
        let rules = rules("test:bad-children", Some((5, vec![vec![5]])));
        let game = Game::new("k", Ruleset::Custom(rules), crate::Convention::Normal);
        // Nothing prepared: children prepares the heaps it meets.
        let error = game.children(&Position::new(vec![2, 6])).unwrap_err();
        assert!(
            error.to_string().starts_with("kayles.fn: heap 5: "),
            "{error}"
        );
        let below = game.children(&Position::new(vec![4])).unwrap();
        assert_eq!(below.len(), 4, "{below:?}");
        assert!(game.children(&Position::new(vec![5])).is_err());
    }
}
