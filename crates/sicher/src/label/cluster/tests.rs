//! Ranks as threads of one process ([`local_links`]): every number of ranks and every
//! cut into chunks labels exactly what one process does, resumes what another number of
//! ranks left, and ranks started for different work refuse together.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use super::*;
use crate::domain::{Domain, Ranker};
use crate::error::ErrorKind;
use crate::game::{resolve, Convention, Game};
use crate::label::{label, label_remoteness, Labels, Plan, Remotenesses, Strategy, WorkDir};

/// What a labelling shared by ranks wrote, read back from its work directory.
struct Shared {
    labels: Labels,
    remoteness: Option<Remotenesses>,
}

/// A plan sharing its tiers between `ranks` ranks, checkpointing after every tier (each
/// part is synced then: the tests keep to a few hundred parts).
fn plan(
    dir: &Path,
    game: &Game,
    domain: Domain,
    remote: bool,
    ranks: usize,
    chunk: Option<u64>,
) -> Plan {
    let work = WorkDir::beside(&dir.join("t.table")).checkpoint_every(Some(Duration::ZERO));
    let mut plan = Plan::new(game, domain, None, Some(1))
        .unwrap()
        .without_shortcuts()
        .with_work_dir(work)
        .across_ranks(ranks, chunk)
        .streaming(crate::table::WRITER_BYTES)
        .streaming_remoteness();
    if remote {
        plan = plan.with_remoteness();
    }
    plan
}

/// Labels with `ranks` ranks (threads), rank 0 stopping the test by a panic after `stop`
/// progress reports when given (one rank only: workers would wait for it).
fn shared(
    dir: &Path,
    game: &Game,
    domain: Domain,
    remote: bool,
    ranks: usize,
    chunk: Option<u64>,
) -> Shared {
    let links = local_links(ranks);
    std::thread::scope(|scope| {
        let mut links = links.into_iter();
        let zero = links.next().unwrap();
        for link in links {
            scope.spawn(move || {
                let plan = plan(dir, game, domain, remote, ranks, chunk);
                plan.agree(&link).unwrap();
                plan.serve(&link).unwrap();
            });
        }
        let plan = plan(dir, game, domain, remote, ranks, chunk);
        // Every labelling of a `--total` domain tier by tier is shared.
        assert_eq!(
            plan.shared(),
            matches!(domain, Domain::Total { .. }),
            "{domain}"
        );
        plan.agree(&zero).unwrap();
        plan.prepare().unwrap();
        let labelled = plan.run_ranked(&zero, &|_| {}).unwrap();
        let count = plan.ranker().count();
        let (labels, remoteness) = if let Some(labels) = labelled.labels {
            assert!(!plan.shared());
            (labels, labelled.remoteness)
        } else if remote {
            let mut cells = Vec::new();
            plan.stream_remoteness(|run| {
                cells.extend_from_slice(run);
                Ok(())
            })
            .unwrap();
            let remoteness = Remotenesses::new(cells, game.convention);
            (remoteness.outcomes().unwrap(), Some(remoteness))
        } else {
            let mut words = Vec::new();
            plan.stream_outcomes(|run| {
                words.extend_from_slice(run);
                Ok(())
            })
            .unwrap();
            (Labels::from_words(words, count), None)
        };
        release(&zero, true).unwrap();
        plan.discard_work().unwrap();
        Shared { labels, remoteness }
    })
}

fn check(spec: &str, convention: Convention, domain: Domain, remote: bool) {
    let game = resolve(spec).unwrap().with_convention(convention);
    let ranker = Ranker::new(domain).unwrap();
    let strategy = Strategy::auto(&game.ruleset);
    let expected = label(&game, &ranker, strategy, &|_| {}).unwrap();
    let expected_remoteness =
        remote.then(|| label_remoteness(&game, &ranker, strategy, &|_| {}).unwrap());
    for (ranks, chunk) in [
        (1, None),
        (1, Some(90)),
        (2, None),
        (2, Some(53)),
        (3, Some(71)),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let got = shared(dir.path(), &game, domain, remote, ranks, chunk);
        assert_eq!(
            got.labels, expected,
            "{spec} {domain} {ranks} ranks, chunks {chunk:?}"
        );
        assert_eq!(
            got.remoteness, expected_remoteness,
            "{spec} {domain} {ranks} ranks"
        );
        assert!(!dir.path().join("t.table.work").exists());
    }
}

#[test]
fn any_ranks_and_chunks_label_what_one_process_does() {
    check(
        "kayles",
        Convention::Misere,
        Domain::Total { total: 22 },
        false,
    );
    check(
        "kayles",
        Convention::Normal,
        Domain::Total { total: 18 },
        true,
    );
    check(
        "kayles",
        Convention::Misere,
        Domain::Total { total: 16 },
        true,
    );
    // Splits that take nothing: whole tiers, by heap count.
    check(
        "octal:4.07",
        Convention::Misere,
        Domain::Total { total: 14 },
        false,
    );
    check(
        "grundy",
        Convention::Normal,
        Domain::Total { total: 14 },
        true,
    );
    // Moves reaching every lower tier, and moves of two heaps (no per-heap options).
    check(
        "nim",
        Convention::Misere,
        Domain::Total { total: 14 },
        false,
    );
    check(
        "wythoff",
        Convention::Normal,
        Domain::Total { total: 12 },
        true,
    );
    // Not shared: rank 0 alone.
    check(
        "nim",
        Convention::Misere,
        Domain::Heaps { heaps: 3, max: 8 },
        false,
    );
}

/// Holds the messages to workers back until rank 0 waits for one (or the test lets them
/// go), so that the workers fall as far behind rank 0 as the protocol allows.
#[derive(Default)]
struct Gate {
    open: Mutex<bool>,
    opened: Condvar,
}

impl Gate {
    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }

    fn pass(&self) {
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.opened.wait(open).unwrap();
        }
    }
}

/// A link behind a [`Gate`]: rank 0's opens it when it waits for a message, a worker's
/// passes it before every receive.
struct Gated<'a> {
    link: &'a dyn Link,
    gate: &'a Gate,
}

impl Link for Gated<'_> {
    fn rank(&self) -> usize {
        self.link.rank()
    }

    fn ranks(&self) -> usize {
        self.link.ranks()
    }

    fn send(&self, to: usize, message: &[u8]) -> Result<()> {
        self.link.send(to, message)
    }

    fn receive(&self, wait: bool) -> Result<Option<(usize, Vec<u8>)>> {
        match self.link.rank() {
            0 if wait => self.gate.open(),
            0 => {}
            _ => self.gate.pass(),
        }
        self.link.receive(wait)
    }
}

#[test]
fn workers_far_behind_rank_0_read_every_part_before_it_is_removed() {
    // Tiers never cut (moves keep the total), or cut among 3 ranks: rank 0 may label on
    // without waiting for a worker, which reads nothing until rank 0 has written the
    // table and removed the work directory, unless rank 0 waits for it first.
    for (spec, convention, total, remote, chunk) in [
        ("grundy", Convention::Normal, 14, true, None),
        ("octal:4.07", Convention::Misere, 12, false, None),
        ("kayles", Convention::Misere, 16, false, Some(40)),
    ] {
        let game = resolve(spec).unwrap().with_convention(convention);
        let domain = Domain::Total { total };
        let ranker = Ranker::new(domain).unwrap();
        let strategy = Strategy::auto(&game.ruleset);
        let expected = label(&game, &ranker, strategy, &|_| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (dir, game, gate) = (dir.path(), &game, &Gate::default());
        let links = local_links(3);
        let served: Vec<Result<()>> = std::thread::scope(|scope| {
            let mut links = links.into_iter();
            let zero = links.next().unwrap();
            let workers: Vec<_> = links
                .map(|link| {
                    scope.spawn(move || {
                        let plan = plan(dir, game, domain, remote, 3, chunk);
                        plan.agree(&link)?;
                        plan.serve(&Gated { link: &link, gate })
                    })
                })
                .collect();
            let plan = plan(dir, game, domain, remote, 3, chunk);
            plan.agree(&zero).unwrap();
            let labelled = plan.run_ranked(&Gated { link: &zero, gate }, &|_| {});
            labelled.unwrap();
            let mut words = Vec::new();
            if remote {
                let mut cells = Vec::new();
                plan.stream_remoteness(|run| {
                    cells.extend_from_slice(run);
                    Ok(())
                })
                .unwrap();
                words = Remotenesses::new(cells, game.convention)
                    .outcomes()
                    .unwrap()
                    .words()
                    .to_vec();
            } else {
                plan.stream_outcomes(|run| {
                    words.extend_from_slice(run);
                    Ok(())
                })
                .unwrap();
            }
            assert_eq!(
                Labels::from_words(words, ranker.count()),
                expected,
                "{spec}"
            );
            release(&zero, true).unwrap();
            plan.discard_work().unwrap();
            gate.open();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        for result in served {
            assert!(result.is_ok(), "{spec}: {:?}", result.err());
        }
    }
}

#[test]
fn a_labelling_interrupted_alone_resumes_shared() {
    let game = resolve("kayles")
        .unwrap()
        .with_convention(Convention::Misere);
    let domain = Domain::Total { total: 24 };
    let ranker = Ranker::new(domain).unwrap();
    let expected = label(&game, &ranker, Strategy::Forward, &|_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let reports = AtomicU64::new(0);
    let links = local_links(1);
    let interrupted = catch_unwind(AssertUnwindSafe(|| {
        let plan = plan(dir.path(), &game, domain, false, 1, Some(200));
        plan.run_ranked(&links[0], &|_| {
            if reports.fetch_add(1, Ordering::Relaxed) == 20 {
                panic!("interrupted on purpose");
            }
        })
    }));
    assert!(interrupted.is_err());
    let again = plan(dir.path(), &game, domain, false, 3, Some(70));
    let resumed = again.prepare().unwrap().expect("tiers were done");
    assert!(resumed.tiers_done > 0 && resumed.tiers_done < 25);
    drop(again);
    let got = shared(dir.path(), &game, domain, false, 3, Some(70));
    assert_eq!(got.labels, expected);
}

#[test]
fn ranks_started_for_different_work_refuse_together() {
    let dir = tempfile::tempdir().unwrap();
    let game = resolve("kayles").unwrap();
    let links = local_links(2);
    std::thread::scope(|scope| {
        let mut links = links.into_iter();
        let zero = links.next().unwrap();
        let one = links.next().unwrap();
        let (dir, game) = (dir.path(), &game);
        let worker = scope.spawn(move || {
            let plan = plan(dir, game, Domain::Total { total: 21 }, false, 2, None);
            let agreed = plan.agree(&one);
            agreed.and_then(|()| plan.serve(&one))
        });
        let plan = plan(dir, game, Domain::Total { total: 20 }, false, 2, None);
        let err = plan.agree(&zero).unwrap_err();
        release(&zero, false).unwrap();
        let text = err.to_string();
        assert!(
            text.contains("domain `--total 21` on rank 1, `--total 20` on rank 0"),
            "{text}"
        );
        assert_eq!(
            worker.join().unwrap().unwrap_err().kind(),
            ErrorKind::Interrupted
        );
    });
    assert!(!dir.path().join("t.table.work").exists());
    let mut terms = plan(
        dir.path(),
        &game,
        Domain::Total { total: 20 },
        false,
        2,
        None,
    )
    .terms();
    let mut other = terms.clone();
    other.sicher = "0.0.1".into();
    let text = terms.disagreement(3, &other).to_string();
    assert!(text.contains("sicher version `0.0.1` on rank 3"), "{text}");
    terms.chunk = Some(4);
    assert_ne!(terms, other);
    // Values in words, never as Rust writes them, and the argument that differs named
    // before what follows from it.
    let mut other = terms.clone();
    other.chunk = Some(7);
    let text = terms.disagreement(2, &other).to_string();
    assert!(
        text.contains("chunk size `7 positions` on rank 2, `4 positions` on rank 0"),
        "{text}"
    );
    other.chunk = None;
    let text = terms.disagreement(2, &other).to_string();
    assert!(text.contains("`chosen by sicher` on rank 2"), "{text}");
    let mut other = terms.clone();
    other.shortcuts = !terms.shortcuts;
    other.shared = !terms.shared;
    let text = terms.disagreement(1, &other).to_string();
    assert!(text.contains("theory's shortcuts"), "{text}");
    assert!(
        !text.contains("sharing") && !text.contains("Some("),
        "{text}"
    );
}
