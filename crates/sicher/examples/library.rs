//! sicher as a library: a position's verdict with its move and remoteness, the
//! nim-values and complete solution of a one-heap game, a misère quotient, and a table
//! written and probed. The library has no command line; this runs with its default
//! features (pictures), the build `cargo run --release` already made:
//! `cargo run --release -p sicher --example library`.

use sicher::answer::{Chain, Policy, Query, Remoteness};
use sicher::build::TableRequest;
use sicher::{resolve, Convention, Domain, Position, Table};

fn main() -> sicher::Result<()> {
    // Misère Kayles from rows of 3, 4 and 5 pins: who wins, how, and how fast?
    let kayles = resolve("kayles")?.with_convention(Convention::Misere);
    let mut chain = Chain::new(&kayles, &Policy::default())?;
    let position = Position::new(vec![3, 4, 5]);
    let query = Query {
        best_move: true,
        remoteness: Remoteness::Required,
    };
    let answer = chain.answer(&position, query)?;
    assert!(answer.value.is_win());
    let winning_move = answer
        .best_move
        .expect("a safe position with moves has a winning move");
    println!(
        "{position}: safe, wins in {} by moving to {winning_move}",
        answer.value.remoteness().unwrap_or(0)
    );

    // Kayles' nim-values, and its complete solution: period 12 from heap 71, proved.
    let normal = resolve("kayles")?;
    let values = sicher::theory::grundy::nim_values(
        &normal.ruleset,
        sicher::theory::grundy::Method::Fast,
        13,
    )?;
    assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
    let solution = sicher::theory::grundy::solve(&normal, 400, &mut |_| {})?;
    let period = solution.periodicity.expect("Kayles is periodic");
    assert!(solution.proved());
    println!(
        "Kayles: period {} from heap {}",
        period.period, period.preperiod
    );

    // The misère quotient of Kayles' heaps up to 20.
    let budget = sicher::theory::quotient::Budget::default();
    let quotient = sicher::theory::quotient::compute(&kayles.ruleset, 20, &budget)?;
    assert_eq!(quotient.outcome(&[3, 4, 5]), Some(true));
    println!(
        "misère Kayles, heaps up to 20: a quotient of order {}",
        quotient.order
    );

    // Every position of at most 12 tokens, labelled bottom-up, written and probed.
    let path = std::env::temp_dir().join(format!("sicher-example-{}.table", std::process::id()));
    let request = TableRequest::new(kayles.clone(), Domain::Total { total: 12 }, &path);
    let built = sicher::build::TableJob::prepare(request)?.run(&|_| {})?;
    let table = Table::open(&path)?;
    assert_eq!(table.probe(&position)?.is_win(), answer.value.is_win());
    println!(
        "a table of {} positions in {} bytes",
        built.header.entries,
        built.header.file_len()
    );
    std::fs::remove_file(&path).ok();
    Ok(())
}
