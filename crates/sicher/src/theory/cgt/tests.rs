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
