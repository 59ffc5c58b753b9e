use super::*;

/// Canonical forms of heaps 0..=n of the partizan subtraction game (L, R).
fn subtraction_forms(store: &mut GameStore, left: &[u64], right: &[u64], n: u64) -> Vec<GameId> {
    let mut forms: Vec<GameId> = Vec::new();
    for h in 0..=n {
        let l = left
            .iter()
            .filter(|&&s| s <= h)
            .map(|&s| forms[(h - s) as usize])
            .collect();
        let r = right
            .iter()
            .filter(|&&s| s <= h)
            .map(|&s| forms[(h - s) as usize])
            .collect();
        let g = store.canonical(l, r).unwrap();
        forms.push(g);
    }
    forms
}

fn name(store: &mut GameStore, g: GameId) -> String {
    Notation::default().write(store, g)
}

#[test]
fn cgsuite_partizan_subtraction_heap_six() {
    let mut store = GameStore::default();
    let forms = subtraction_forms(&mut store, &[1, 3], &[2, 3], 6);
    assert_eq!(
        name(&mut store, forms[6]),
        "{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}"
    );
}

#[test]
fn short_names() {
    let mut s = GameStore::default();
    let z = GameStore::ZERO;
    let one = s.canonical(vec![z], vec![]).unwrap();
    let star = s.canonical(vec![z], vec![z]).unwrap();
    let half = s.canonical(vec![z], vec![one]).unwrap();
    let up = s.canonical(vec![z], vec![star]).unwrap();
    let minus_one = s.neg(one).unwrap();
    let pm1 = s.canonical(vec![one], vec![minus_one]).unwrap();
    let up_star = s.add(up, star).unwrap();
    let double_up = s.add(up, up).unwrap();
    let quarter = s.dyadic(1, 2).unwrap();
    let three_quarters = s.add(half, quarter).unwrap();
    let down = s.neg(up).unwrap();
    let star3 = s.nimber(3).unwrap();
    let one_star = s.add(one, star).unwrap();
    let ups3 = s.ups(3).unwrap();
    let downs2 = s.ups(-2).unwrap();
    let m54 = s.dyadic(-5, 2).unwrap();
    let mut n = Notation::default();
    let cases = [
        (z, "0"),
        (one, "1"),
        (minus_one, "-1"),
        (star, "*"),
        (half, "1/2"),
        (up, "^"),
        (down, "v"),
        (up_star, "^*"),
        (double_up, "^^"),
        (pm1, "+-1"),
        (three_quarters, "3/4"),
        (star3, "*3"),
        (one_star, "1*"),
        (ups3, "^3"),
        (downs2, "vv"),
        (m54, "-5/4"),
    ];
    for (g, expected) in cases {
        assert_eq!(n.write(&mut s, g), expected);
    }
    // CGSuite's own examples: ^8*2, 3 + +-1 = {4|2}, +-(1/2), +-{1,1*}, {0|^*5} = ^^*4.
    let u = s.ups(8).unwrap();
    let st2 = s.nimber(2).unwrap();
    let g = s.add(u, st2).unwrap();
    assert_eq!(n.write(&mut s, g), "^8*2");
    let three = s.integer(3).unwrap();
    let g = s.add(three, pm1).unwrap();
    assert_eq!(n.write(&mut s, g), "{4|2}");
    let mhalf = s.neg(half).unwrap();
    let g = s.canonical(vec![half], vec![mhalf]).unwrap();
    assert_eq!(n.write(&mut s, g), "+-1/2");
    let one_star = s.add(one, star).unwrap();
    let m1 = s.neg(one_star).unwrap();
    let g = s
        .canonical(vec![one, one_star], vec![minus_one, m1])
        .unwrap();
    assert_eq!(n.write(&mut s, g), "+-{1,1*}");
    let up_star5 = {
        let st5 = s.nimber(5).unwrap();
        s.add(up, st5).unwrap()
    };
    let g = s.canonical(vec![z], vec![up_star5]).unwrap();
    assert_eq!(n.write(&mut s, g), "^^*4");
    // Slashes: {3|||2||1|0,*||||-1/2}.
    let two = s.integer(2).unwrap();
    let inner = s.canonical(vec![one], vec![z, star]).unwrap();
    let mid = s.canonical(vec![two], vec![inner]).unwrap();
    let top = s.canonical(vec![three], vec![mid]).unwrap();
    let g = s.canonical(vec![top], vec![mhalf]).unwrap();
    assert_eq!(n.write(&mut s, g), "{3|||2||1|0,*||||-1/2}");
}

#[test]
fn sums_and_comparisons() {
    let mut s = GameStore::default();
    let half = s.dyadic(1, 1).unwrap();
    let one = s.integer(1).unwrap();
    assert_eq!(s.add(half, half).unwrap(), one);
    let star = s.nimber(1).unwrap();
    assert_eq!(s.add(star, star).unwrap(), GameStore::ZERO);
    let s3 = s.nimber(3).unwrap();
    let s5 = s.nimber(5).unwrap();
    let s6 = s.nimber(6).unwrap();
    assert_eq!(s.add(s3, s5).unwrap(), s6);
    let up = s.ups(1).unwrap();
    assert!(s.le(GameStore::ZERO, up) && !s.le(up, GameStore::ZERO));
    assert!(!s.le(star, GameStore::ZERO) && !s.le(GameStore::ZERO, star));
}

#[test]
fn bound_refuses() {
    let mut s = GameStore::with_limit(10);
    assert!(s.integer(20).is_err());
}

/// A short game as a plain tree, played out by the definition.
#[derive(Clone, Debug)]
struct Tree {
    left: Vec<Tree>,
    right: Vec<Tree>,
}

/// Random trees of at most `depth` levels and a few options a side.
fn tree(depth: u32) -> impl proptest::strategy::Strategy<Value = Tree> {
    use proptest::prelude::*;
    let leaf = Just(Tree {
        left: vec![],
        right: vec![],
    });
    leaf.prop_recursive(depth, 24, 3, |inner| {
        (
            prop::collection::vec(inner.clone(), 0..=3),
            prop::collection::vec(inner, 0..=3),
        )
            .prop_map(|(left, right)| Tree { left, right })
    })
}

/// The canonical form of a tree, options first.
fn form(store: &mut GameStore, t: &Tree) -> GameId {
    let left = t.left.iter().map(|x| form(store, x)).collect();
    let right = t.right.iter().map(|x| form(store, x)).collect();
    store.canonical(left, right).unwrap()
}

/// Does the player to move win the sum of the trees (Left when `left`)? Normal play.
fn wins(trees: &[&Tree], left: bool) -> bool {
    (0..trees.len()).any(|i| {
        let options = if left {
            &trees[i].left
        } else {
            &trees[i].right
        };
        options.iter().any(|o| {
            let mut next = trees.to_vec();
            next[i] = o;
            !wins(&next, !left)
        })
    })
}

fn class_of(store: &mut GameStore, g: GameId) -> (bool, bool) {
    (!store.le(g, GameStore::ZERO), !store.le(GameStore::ZERO, g))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Canonical forms and their sums have the outcomes of the games played out, and
    /// obey the group laws: G - G = 0, (a + b) + c = a + (b + c), as identities.
    #[test]
    fn forms_keep_outcomes_and_the_group_laws(a in tree(3), b in tree(3), c in tree(2)) {
        let mut s = GameStore::default();
        let (fa, fb, fc) = (form(&mut s, &a), form(&mut s, &b), form(&mut s, &c));
        proptest::prop_assert_eq!(class_of(&mut s, fa), (wins(&[&a], true), wins(&[&a], false)));
        let ab = s.add(fa, fb).unwrap();
        proptest::prop_assert_eq!(class_of(&mut s, ab), (wins(&[&a, &b], true), wins(&[&a, &b], false)));
        let minus = s.neg(fa).unwrap();
        proptest::prop_assert_eq!(s.add(fa, minus).unwrap(), GameStore::ZERO);
        let left = s.add(ab, fc).unwrap();
        let bc = s.add(fb, fc).unwrap();
        let right = s.add(fa, bc).unwrap();
        proptest::prop_assert_eq!(left, right);
        // Numbers' names read back as the dyadics they are.
        let mut notation = Notation::default();
        if let Some(v) = notation.number(&s, fa) {
            proptest::prop_assert_eq!(s.dyadic(v.numerator(), v.exponent()).unwrap(), fa);
        }
    }
}

#[test]
fn simplest_numbers_between() {
    let d = Dyadic::new;
    assert_eq!(Dyadic::simplest_between(d(-1, 0), d(1, 0)), d(0, 0));
    assert_eq!(Dyadic::simplest_between(d(0, 0), d(1, 0)), d(1, 1));
    assert_eq!(Dyadic::simplest_between(d(1, 2), d(1, 1)), d(3, 3));
    assert_eq!(Dyadic::simplest_between(d(2, 0), d(7, 0)), d(3, 0));
    assert_eq!(Dyadic::simplest_between(d(-7, 0), d(-2, 0)), d(-3, 0));
    assert_eq!(Dyadic::simplest_between(d(5, 2), d(3, 1)), d(11, 3));
    assert_eq!(d(6, 2).to_string(), "3/2");
}
