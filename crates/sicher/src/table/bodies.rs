//! The bodies that are not positions: a misère quotient's multiplication table and the
//! nim-values of heap sizes, written and read through the one container.

use std::path::Path;

use super::format::{self, BodyKind, Header, QuotientMeta};
use super::writer::{pack, write, write_stored};
use super::{Storage, Table};
use crate::atomic_file::Replace;
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Hint, Result, TableKind};
use crate::game::{Convention, Ruleset};
use crate::theory::grundy::{Nimber, Periodicity};
use crate::theory::quotient::MisereQuotient;

/// Writes a misère quotient as a table: the multiplication table as the body (one entry
/// per unordered pair of elements), the rest in the header.
pub fn write_quotient(path: &Path, quotient: &MisereQuotient, replace: Replace) -> Result<Header> {
    let order = quotient.order;
    if order == 0 || quotient.table.len() != (order as usize).pow(2) {
        return Err(Error::internal(
            "a quotient without its multiplication table",
        ));
    }
    let domain = Domain::Heaps {
        heaps: 2,
        max: u64::from(order) - 1,
    };
    let ranker = Ranker::new(domain)?;
    let width = format::bits_for(u64::from(order) - 1);
    let products = (0..ranker.count()).map(|rank| {
        let (a, b) = pair_of(&ranker, rank);
        u64::from(quotient.table[a * order as usize + b])
    });
    let words = pack(ranker.count(), width, products)?;
    let mut header = Header::new(
        BodyKind::Quotient { order },
        crate::game::parse_spec(&quotient.ruleset)?.ruleset.spec(),
        Convention::Misere,
        domain,
        ranker.count(),
        width,
    );
    header.quotient = Some(QuotientMeta {
        max_heap: quotient.max_heap,
        identity: quotient.identity,
        p_portion: quotient.p_portion.clone(),
        heap_elements: quotient.heap_elements.clone(),
        generator_heaps: quotient.generator_heaps.clone(),
        relations: quotient.relations.clone(),
        normal_forms: quotient.normal_forms.clone(),
        changes: quotient.changes.clone(),
        recalibrations: quotient.recalibrations.clone(),
    });
    write_stored(path, header, &words, Storage::Compressed, replace)
}

/// The two elements of a rank of the pair domain `--heaps 2`.
fn pair_of(ranker: &Ranker, rank: u64) -> (usize, usize) {
    let heaps = ranker.unrank(rank).into_heaps();
    match heaps[..] {
        [b] => (0, b as usize),
        [a, b] => (a as usize, b as usize),
        _ => (0, 0),
    }
}

/// Reads a misère quotient table whole, checking every block and that the identity acts
/// as one.
pub fn read_quotient(path: &Path) -> Result<MisereQuotient> {
    let table = Table::open(path)?;
    let header = table.header();
    let bad = |why: &str| Error::damaged(format!("{}: {why}", path.display()));
    let (BodyKind::Quotient { order }, Some(meta)) = (header.kind, &header.quotient) else {
        return Err(
            Error::input(format!("{}: not a misère quotient table", path.display()))
                .with_hint(Hint::WriteAgain(TableKind::Quotient)),
        );
    };
    table.verify()?;
    let n = order as usize;
    let mut products = vec![0u32; n * n];
    for rank in 0..header.entries {
        let (a, b) = pair_of(table.ranker(), rank);
        let x = table.field_at(rank)? as u32;
        products[a * n + b] = x;
        products[b * n + a] = x;
    }
    let identity = meta.identity as usize;
    if (0..n).any(|x| products[identity * n + x] as usize != x) {
        return Err(bad("corrupted table (the identity does not act as one)"));
    }
    Ok(MisereQuotient {
        ruleset: header.game.clone(),
        max_heap: meta.max_heap,
        order,
        identity: meta.identity,
        table: products,
        p_portion: meta.p_portion.clone(),
        heap_elements: meta.heap_elements.clone(),
        generator_heaps: meta.generator_heaps.clone(),
        relations: meta.relations.clone(),
        normal_forms: meta.normal_forms.clone(),
        changes: meta.changes.clone(),
        recalibrations: meta.recalibrations.clone(),
        periodicity: None,
    })
}

/// Writes G(0..values.len()) of a one-heap ruleset as a compressed table, with the
/// period the values prove, if any.
pub fn write_nim_values(
    path: &Path,
    ruleset: &Ruleset,
    values: &[Nimber],
    period: Option<Periodicity>,
    replace: Replace,
) -> Result<Header> {
    let largest = values.iter().copied().max().unwrap_or(0);
    write_nim_values_from(
        path,
        ruleset,
        (values.len() as u64, largest),
        values.iter().copied(),
        period,
        replace,
    )
}

/// [`write_nim_values`] from values read in order, `count` of them, none above
/// `largest` (so the engine's 16-bit copies are packed without a 32-bit copy first).
pub fn write_nim_values_from(
    path: &Path,
    ruleset: &Ruleset,
    (count, largest): (u64, Nimber),
    values: impl Iterator<Item = Nimber>,
    period: Option<Periodicity>,
    replace: Replace,
) -> Result<Header> {
    let width = format::bits_for(u64::from(largest));
    let entries = count;
    let max = entries
        .checked_sub(1)
        .ok_or_else(|| Error::input("a nim-value table needs at least G(0)"))?;
    let words = pack(entries, width, values.map(u64::from))?;
    let header = Header::new(
        BodyKind::NimValues {
            period: period.filter(|p| p.proved_at.is_some()),
        },
        ruleset.spec(),
        Convention::Normal,
        Domain::Heaps { heaps: 1, max },
        entries,
        width,
    );
    write(path, header, &words, replace)
}
