//! Quotients of a finite commutative monoid by the congruence that given relations
//! generate, keeping a bipartition `P` consistent.
//!
//! A recalibration candidate is built as a product of cycles in which the relations
//! of the previous quotient are imposed one stage at a time (see `layout`). Imposing a
//! relation `u = v` means merging the classes of `u` and `v` and closing under
//! multiplication (`u ~ v` implies `ug ~ vg` for every generator `g`), which a union-find
//! does in time linear in the merges. A relation that would merge a P-position's element
//! with an N-position's is false for the heaps built so far; the merge reports it and the
//! caller undoes it.

use super::monoid::{Action, Monoid};

/// A congruence on a finite monoid under construction, as a union-find forest.
pub(crate) struct Congruence {
    parent: Vec<u32>,
    /// Per root: the size of its class (union by size keeps the trees shallow, so finds
    /// need not compress paths and a merge only writes root links).
    size: Vec<u32>,
    /// `(old root, new root)` for every link written by the merge in progress, so that
    /// a refused merge is undone without a copy of the forest.
    undo: Vec<(u32, u32)>,
    /// Pairs still to merge (kept to reuse its allocation).
    pending: Vec<(u32, u32)>,
}

impl Congruence {
    /// The identity congruence on `order` elements.
    pub fn new(order: usize) -> Self {
        Congruence {
            parent: (0..order as u32).collect(),
            size: vec![1; order],
            undo: Vec::new(),
            pending: Vec::new(),
        }
    }

    #[inline]
    fn find(&self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    /// Links root `a` under root `b`, or `b` under `a` if `a`'s class is larger.
    #[inline]
    fn link(&mut self, a: u32, b: u32) {
        let (small, large) = if self.size[a as usize] > self.size[b as usize] {
            (b, a)
        } else {
            (a, b)
        };
        self.undo.push((small, large));
        self.parent[small as usize] = large;
        self.size[large as usize] += self.size[small as usize];
    }

    /// Merges `a` and `b` and closes under multiplication by `generators`. False when
    /// the closure would merge elements on both sides of `p`; the congruence is then
    /// left as it was before the call.
    pub fn merge<M: Monoid>(
        &mut self,
        m: &M,
        p: &[bool],
        generators: &[u32],
        a: u32,
        b: u32,
    ) -> bool {
        self.undo.clear();
        let merged = self.merge_logged(m, p, generators, a, b);
        if !merged {
            while let Some((small, large)) = self.undo.pop() {
                self.parent[small as usize] = small;
                self.size[large as usize] -= self.size[small as usize];
            }
        }
        self.undo.clear();
        merged
    }

    fn merge_logged<M: Monoid>(
        &mut self,
        m: &M,
        p: &[bool],
        generators: &[u32],
        a: u32,
        b: u32,
    ) -> bool {
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        pending.push((a, b));
        let mut merged = true;
        while let Some((x, y)) = pending.pop() {
            let (rx, ry) = (self.find(x), self.find(y));
            if rx == ry {
                continue;
            }
            // Every member of a class shares its root's side, as long as no merge failed.
            if p[rx as usize] != p[ry as usize] {
                merged = false;
                break;
            }
            self.link(rx, ry);
            for &g in generators {
                pending.push((m.mul(x, g), m.mul(y, g)));
            }
        }
        self.pending = pending;
        merged
    }
}

/// The quotient of `m` by `congruence`, restricted to what `generators` reach from the
/// identity: the quotient as the action of the generators, its `P`, and the class of
/// every element of `m` (`u32::MAX` when unreached). Classes are numbered breadth-first,
/// so the identity is class 0.
pub(crate) fn quotient<M: Monoid>(
    m: &M,
    p: &[bool],
    generators: &[u32],
    congruence: &Congruence,
) -> (Action, Vec<bool>, Vec<u32>) {
    let mut class_of_root = vec![u32::MAX; m.order()];
    let mut reps: Vec<u32> = Vec::new();
    let mut parent: Vec<(u32, u32)> = Vec::new();
    let mut act: Vec<u32> = Vec::new();
    let start = congruence.find(m.identity());
    class_of_root[start as usize] = 0;
    reps.push(m.identity());
    parent.push((0, 0));
    let mut next = 0;
    while next < reps.len() {
        let x = reps[next];
        for (gi, &g) in generators.iter().enumerate() {
            let y = congruence.find(m.mul(x, g));
            if class_of_root[y as usize] == u32::MAX {
                class_of_root[y as usize] = reps.len() as u32;
                reps.push(y);
                parent.push((next as u32, gi as u32));
            }
            act.push(class_of_root[y as usize]);
        }
        next += 1;
    }
    let reduced_p = reps.iter().map(|&x| p[x as usize]).collect();
    let class = (0..m.order() as u32)
        .map(|x| class_of_root[congruence.find(x) as usize])
        .collect();
    (
        Action::from_parts(generators.len(), act, parent),
        reduced_p,
        class,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::quotient::monoid::{Product, Table};

    #[test]
    fn imposing_a_relation_on_two_cycles() {
        // C(0, 2) × C(0, 2) with a = b: the quotient is C(0, 2).
        let base = Table::trivial();
        let m = Product::new(&base, &[(0, 2), (0, 2)]);
        let (a, b) = (m.cycle_generator(0), m.cycle_generator(1));
        let p = vec![false; m.order()];
        let mut congruence = Congruence::new(m.order());
        assert!(congruence.merge(&m, &p, &[a, b], a, b));
        let (q, _, class) = quotient(&m, &p, &[a, b], &congruence);
        assert_eq!(q.order(), 2);
        assert_eq!(class[a as usize], class[b as usize]);
        assert_eq!(q.mul(class[a as usize], class[a as usize]), q.identity());
    }

    #[test]
    fn a_relation_across_p_is_refused() {
        let base = Table::trivial();
        let m = Product::new(&base, &[(0, 2)]);
        let a = m.cycle_generator(0);
        let mut p = vec![false; m.order()];
        p[a as usize] = true;
        let mut congruence = Congruence::new(m.order());
        assert!(!congruence.merge(&m, &p, &[a], a, m.identity()));
    }
}
