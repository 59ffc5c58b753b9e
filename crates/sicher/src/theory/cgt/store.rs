//! The store of short games: hash-consed nodes, comparison, canonical forms, negation
//! and sums.
//!
//! Every game is a node of Left options and Right options, each a sorted list of
//! [`GameId`]s. Nodes are interned, so a game built twice is one id; canonical forms are
//! unique (Conway), so two canonical games are equal exactly when their ids are. Sums
//! and comparisons are memoised on ids. The store refuses to grow past a bound set by
//! its owner ([`GameStore::with_limit`]): operations then return [`TooLarge`] and the
//! caller answers some other way (the search).

use std::fmt;

use hashbrown::HashMap;

/// A game in a [`GameStore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(u32);

impl GameId {
    /// The index of the game in its store (for tests and diagnostics).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The store grew past its bound: the games involved are too large to work with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The bound, in games stored.
    pub limit: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the canonical forms grew past {} games stored",
            self.limit
        )
    }
}

/// Results of store operations that may grow the store.
pub type Grown<T> = Result<T, TooLarge>;

/// Left's and Right's options, as the intern map keys nodes.
type Options = (Box<[GameId]>, Box<[GameId]>);

/// One node: its options, sorted by id, and whether it is in canonical form.
struct Node {
    left: Box<[GameId]>,
    right: Box<[GameId]>,
    canonical: bool,
}

/// Hash-consed short games with memoised comparison, negation and sums.
pub struct GameStore {
    nodes: Vec<Node>,
    index: HashMap<Options, GameId>,
    le_memo: HashMap<(GameId, GameId), bool>,
    sum_memo: HashMap<(GameId, GameId), GameId>,
    neg_memo: HashMap<GameId, GameId>,
    limit: usize,
}

impl Default for GameStore {
    fn default() -> Self {
        Self::with_limit(usize::MAX)
    }
}

impl GameStore {
    /// The zero game, `{ | }`: the first game of every store.
    pub const ZERO: GameId = GameId(0);

    /// A store that holds at most `limit` games (at least zero).
    pub fn with_limit(limit: usize) -> Self {
        let mut store = GameStore {
            nodes: Vec::new(),
            index: HashMap::new(),
            le_memo: HashMap::new(),
            sum_memo: HashMap::new(),
            neg_memo: HashMap::new(),
            limit: limit.max(1),
        };
        let zero = store
            .intern(Vec::new(), Vec::new(), true)
            .expect("a store holds zero");
        debug_assert_eq!(zero, Self::ZERO);
        store
    }

    /// Games stored so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when only zero is stored.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The bound on games stored.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Left's options of `g`.
    pub fn left(&self, g: GameId) -> &[GameId] {
        &self.nodes[g.index()].left
    }

    /// Right's options of `g`.
    pub fn right(&self, g: GameId) -> &[GameId] {
        &self.nodes[g.index()].right
    }

    /// True when `g` was built as a canonical form.
    pub fn is_canonical(&self, g: GameId) -> bool {
        self.nodes[g.index()].canonical
    }

    /// The node with these options (sorted and deduplicated here), stored once.
    fn intern(
        &mut self,
        mut left: Vec<GameId>,
        mut right: Vec<GameId>,
        canonical: bool,
    ) -> Grown<GameId> {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let key = (left.into_boxed_slice(), right.into_boxed_slice());
        if let Some(&id) = self.index.get(&key) {
            if canonical {
                self.nodes[id.index()].canonical = true;
            }
            return Ok(id);
        }
        if self.nodes.len() >= self.limit {
            return Err(TooLarge { limit: self.limit });
        }
        let id = GameId(self.nodes.len() as u32);
        self.nodes.push(Node {
            left: key.0.clone(),
            right: key.1.clone(),
            canonical,
        });
        self.index.insert(key, id);
        Ok(id)
    }

    /// `g ≤ h` by the definition: no Left option of `g` is `≥ h` and no Right option of
    /// `h` is `≤ g`.
    pub fn le(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if let Some(&known) = self.le_memo.get(&(g, h)) {
            return known;
        }
        let mut answer = true;
        for i in 0..self.nodes[g.index()].left.len() {
            let gl = self.nodes[g.index()].left[i];
            if self.le(h, gl) {
                answer = false;
                break;
            }
        }
        if answer {
            for i in 0..self.nodes[h.index()].right.len() {
                let hr = self.nodes[h.index()].right[i];
                if self.le(hr, g) {
                    answer = false;
                    break;
                }
            }
        }
        self.le_memo.insert((g, h), answer);
        answer
    }

    /// `g = h` as games (for canonical forms, the same id).
    pub fn equal(&mut self, g: GameId, h: GameId) -> bool {
        g == h || (self.le(g, h) && self.le(h, g))
    }

    /// The canonical form of `{ left | right }`, whose options are canonical: dominated
    /// options removed and reversible ones bypassed until neither is left.
    pub fn canonical(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> Grown<GameId> {
        let (mut left, mut right) = (left, right);
        loop {
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            // Distinct canonical games are never equal, so `a ≤ b` for `a ≠ b` means
            // `a` is strictly dominated.
            let left_kept: Vec<GameId> = (0..left.len())
                .filter(|&i| !(0..left.len()).any(|j| j != i && self.le(left[i], left[j])))
                .map(|i| left[i])
                .collect();
            let right_kept: Vec<GameId> = (0..right.len())
                .filter(|&i| !(0..right.len()).any(|j| j != i && self.le(right[j], right[i])))
                .map(|i| right[i])
                .collect();
            let g = self.intern(left_kept.clone(), right_kept.clone(), false)?;
            let mut changed = false;
            let mut new_left = Vec::with_capacity(left_kept.len());
            for &a in &left_kept {
                let reverse = self
                    .right(a)
                    .to_vec()
                    .into_iter()
                    .find(|&ar| self.le(ar, g));
                match reverse {
                    Some(ar) => {
                        changed = true;
                        new_left.extend_from_slice(self.left(ar));
                    }
                    None => new_left.push(a),
                }
            }
            let mut new_right = Vec::with_capacity(right_kept.len());
            for &b in &right_kept {
                let reverse = self.left(b).to_vec().into_iter().find(|&bl| self.le(g, bl));
                match reverse {
                    Some(bl) => {
                        changed = true;
                        new_right.extend_from_slice(self.right(bl));
                    }
                    None => new_right.push(b),
                }
            }
            if !changed {
                self.nodes[g.index()].canonical = true;
                return Ok(g);
            }
            left = new_left;
            right = new_right;
        }
    }

    /// `-g`: Left's and Right's options exchanged and negated.
    pub fn neg(&mut self, g: GameId) -> Grown<GameId> {
        if let Some(&known) = self.neg_memo.get(&g) {
            return Ok(known);
        }
        let mut left = Vec::with_capacity(self.right(g).len());
        for i in 0..self.right(g).len() {
            let r = self.right(g)[i];
            left.push(self.neg(r)?);
        }
        let mut right = Vec::with_capacity(self.left(g).len());
        for i in 0..self.left(g).len() {
            let l = self.left(g)[i];
            right.push(self.neg(l)?);
        }
        let canonical = self.is_canonical(g);
        let negated = self.intern(left, right, canonical)?;
        self.neg_memo.insert(g, negated);
        self.neg_memo.insert(negated, g);
        Ok(negated)
    }

    /// The canonical form of `g + h`, for canonical `g` and `h`.
    pub fn add(&mut self, g: GameId, h: GameId) -> Grown<GameId> {
        if g == Self::ZERO {
            return Ok(h);
        }
        if h == Self::ZERO {
            return Ok(g);
        }
        let key = if g <= h { (g, h) } else { (h, g) };
        if let Some(&known) = self.sum_memo.get(&key) {
            return Ok(known);
        }
        let (g_left, g_right) = (self.left(g).to_vec(), self.right(g).to_vec());
        let (h_left, h_right) = (self.left(h).to_vec(), self.right(h).to_vec());
        let mut left = Vec::with_capacity(g_left.len() + h_left.len());
        for gl in g_left {
            left.push(self.add(gl, h)?);
        }
        for hl in h_left {
            left.push(self.add(g, hl)?);
        }
        let mut right = Vec::with_capacity(g_right.len() + h_right.len());
        for gr in g_right {
            right.push(self.add(gr, h)?);
        }
        for hr in h_right {
            right.push(self.add(g, hr)?);
        }
        let sum = self.canonical(left, right)?;
        self.sum_memo.insert(key, sum);
        Ok(sum)
    }

    /// The canonical form of the sum of several canonical games (zero for none).
    pub fn sum(&mut self, games: &[GameId]) -> Grown<GameId> {
        let mut total = Self::ZERO;
        for &g in games {
            total = self.add(total, g)?;
        }
        Ok(total)
    }

    /// `g - h`.
    pub fn sub(&mut self, g: GameId, h: GameId) -> Grown<GameId> {
        let negated = self.neg(h)?;
        self.add(g, negated)
    }

    /// The integer `n` in canonical form: `{n-1 | }` above zero, `{ | n+1}` below.
    pub fn integer(&mut self, n: i64) -> Grown<GameId> {
        let mut g = Self::ZERO;
        for _ in 0..n.unsigned_abs() {
            g = if n > 0 {
                self.intern(vec![g], vec![], true)?
            } else {
                self.intern(vec![], vec![g], true)?
            };
        }
        Ok(g)
    }

    /// The dyadic number `numerator / 2^exponent` in canonical form.
    pub fn dyadic(&mut self, numerator: i64, exponent: u32) -> Grown<GameId> {
        let (mut numerator, mut exponent) = (numerator, exponent);
        while exponent > 0 && numerator % 2 == 0 {
            numerator /= 2;
            exponent -= 1;
        }
        if exponent == 0 {
            return self.integer(numerator);
        }
        // An odd numerator over 2^e is the simplest number between its neighbours
        // (n-1)/2^e and (n+1)/2^e, whose form has exactly those two options.
        let below = self.dyadic(numerator - 1, exponent)?;
        let above = self.dyadic(numerator + 1, exponent)?;
        self.intern(vec![below], vec![above], true)
    }

    /// The nimber `*n`: `{0, *1, …, *(n-1) | 0, *1, …, *(n-1)}`.
    pub fn nimber(&mut self, n: u32) -> Grown<GameId> {
        let mut below = Vec::with_capacity(n as usize);
        let mut g = Self::ZERO;
        for _ in 0..n {
            below.push(g);
            g = self.intern(below.clone(), below.clone(), true)?;
        }
        Ok(g)
    }

    /// `k·↑` (`↑ = {0 | *}`; negative `k` gives downs), in canonical form.
    pub fn ups(&mut self, k: i64) -> Grown<GameId> {
        let star = self.nimber(1)?;
        let up = self.intern(vec![Self::ZERO], vec![star], true)?;
        let one = if k < 0 { self.neg(up)? } else { up };
        let mut total = Self::ZERO;
        for _ in 0..k.unsigned_abs() {
            total = self.add(total, one)?;
        }
        Ok(total)
    }

    /// Distinct games reachable from `g`, itself included: the size of its form.
    pub fn size(&self, g: GameId) -> usize {
        let mut seen = hashbrown::HashSet::new();
        let mut stack = vec![g];
        while let Some(x) = stack.pop() {
            if seen.insert(x) {
                stack.extend_from_slice(self.left(x));
                stack.extend_from_slice(self.right(x));
            }
        }
        seen.len()
    }

    /// The birthday of `g`: 0 for zero, else one more than its options' largest.
    pub fn birthday(&self, g: GameId, memo: &mut HashMap<GameId, u32>) -> u32 {
        if let Some(&b) = memo.get(&g) {
            return b;
        }
        let mut b = 0;
        let options: Vec<GameId> = self.left(g).iter().chain(self.right(g)).copied().collect();
        for x in options {
            b = b.max(1 + self.birthday(x, memo));
        }
        memo.insert(g, b);
        b
    }
}
