//! `sicher info`: what a table file holds, and whether its body is intact.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::output::print_json;
use sicher::error::Result;
use sicher::table::{BodyKind, Codec, Provenance, Table, BLOCK_BYTES};

const EXAMPLES: &str = "Examples:
  sicher table nim --heaps 3 --max 63 -o nim.table && sicher info nim.table
  sicher info nim.table --verify          # read every block and check it now
  sicher info nim.table --json";

/// Arguments of `sicher info`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct InfoArgs {
    /// The table file.
    pub file: PathBuf,
    /// Also read the whole body and check every block against its checksum.
    #[arg(long)]
    pub verify: bool,
    /// Print the header as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct InfoReport {
    path: String,
    /// `"outcomes"` or `"nim-values"`.
    kind: &'static str,
    game: String,
    /// The game as sicher names it (a shipped name where one has these rules).
    name: String,
    /// How the human-readable header names the game: the name, with the spec beside.
    #[serde(skip)]
    title: String,
    convention: String,
    domain: String,
    entries: u64,
    bits_per_entry: u8,
    #[serde(rename = "unsafe", skip_serializing_if = "Option::is_none")]
    unsafe_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    preperiod: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proved_at: Option<u64>,
    /// Remoteness tables: the largest remoteness.
    #[serde(skip_serializing_if = "Option::is_none")]
    rmax: Option<u32>,
    /// Remoteness tables: positions per remoteness `0..=rmax`.
    #[serde(skip_serializing_if = "Option::is_none")]
    histogram: Option<Vec<u64>>,
    body_offset: u64,
    /// Bytes of the body as stored.
    body_bytes: u64,
    /// Bytes of the body's packed words, decoded.
    raw_body_bytes: u64,
    /// Bytes of the whole file.
    file_bytes: u64,
    /// Bits per position (or heap size) of the whole file.
    bits_per_position: f64,
    /// `none` (flat, memory-mapped) or `zstd`.
    codec: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    zstd_level: Option<i32>,
    /// What outcome residuals are taken against.
    prediction: String,
    /// How the entries were decided (`retrograde`, `words`, `period`, `nim-values`), when
    /// recorded; each is exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    derivation: Option<&'static str>,
    blocks: u64,
    block_bytes: u64,
    body_checksum: String,
    sicher_version: String,
    format_version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    verified: Option<bool>,
    /// Partizan tables: `normal`, `misere` or the terminal script's spec.
    #[serde(skip_serializing_if = "Option::is_none")]
    terminal: Option<String>,
    /// Partizan tables: positions of each outcome class.
    #[serde(skip_serializing_if = "Option::is_none")]
    classes: Option<ClassCounts>,
    /// The custom rules the table carries (a script's, a function's), so it stands alone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    carries: Vec<Carries>,
}

/// Positions per outcome class of a partizan table.
#[derive(Serialize)]
#[allow(non_snake_case)]
struct ClassCounts {
    L: u64,
    R: u64,
    N: u64,
    P: u64,
}

/// Custom rules a table carries: their spec and the heaps whose options it holds.
#[derive(Serialize)]
struct Carries {
    rules: String,
    heaps_up_to: u64,
}

/// Runs `sicher info`.
pub fn run(args: &InfoArgs) -> Result<()> {
    let table = Table::open(&args.file)?;
    if args.verify {
        table.verify()?;
    }
    let header = table.header();
    let (unsafe_count, period, rmax) = match header.kind {
        BodyKind::Outcomes { unsafe_count } => {
            let period = match header.provenance {
                Provenance::Period(period) => Some(period),
                _ => None,
            };
            (Some(unsafe_count), period, None)
        }
        BodyKind::NimValues { period } => (None, period, None),
        BodyKind::Remoteness { rmax } => (None, None, Some(rmax)),
        BodyKind::Quotient { .. } | BodyKind::Partizan { .. } => (None, None, None),
    };
    let report = InfoReport {
        path: args.file.display().to_string(),
        kind: header.kind.name(),
        game: header.game.clone(),
        name: table.game().name.clone(),
        title: table
            .partizan()
            .map_or_else(|| table.game().title(), |p| p.title()),
        terminal: table.partizan().map(|p| p.terminal.name()),
        classes: match header.kind {
            BodyKind::Partizan {
                classes: [l, r, n, p],
            } => Some(ClassCounts {
                L: l,
                R: r,
                N: n,
                P: p,
            }),
            _ => None,
        },
        carries: header
            .carried
            .rules
            .iter()
            .map(|r| Carries {
                rules: r.spec.clone(),
                heaps_up_to: r.largest(),
            })
            .collect(),
        convention: header.convention.to_string(),
        domain: header.domain.flags(),
        entries: header.entries,
        bits_per_entry: header.width,
        unsafe_count,
        preperiod: period.map(|p| p.preperiod),
        period: period.map(|p| p.period),
        proved_at: period.and_then(|p| p.proved_at),
        rmax,
        histogram: header.histogram.clone(),
        body_offset: header.body_offset,
        body_bytes: header.stored_len,
        raw_body_bytes: header.body_len(),
        file_bytes: header.file_len(),
        bits_per_position: header.file_len() as f64 * 8.0 / header.entries as f64,
        codec: match header.codec {
            Codec::Flat => "none",
            Codec::Zstd { .. } => "zstd",
        },
        zstd_level: match header.codec {
            Codec::Flat => None,
            Codec::Zstd { level } => Some(level),
        },
        prediction: header.prediction.name(),
        derivation: match header.provenance {
            Provenance::Unrecorded => None,
            Provenance::Retrograde => Some("retrograde"),
            Provenance::Words => Some("words"),
            Provenance::Period(_) => Some("period"),
            Provenance::NimValues => Some("nim-values"),
        },
        blocks: header.blocks(),
        block_bytes: BLOCK_BYTES,
        body_checksum: format!("{:016x}", header.index_checksum),
        sicher_version: header.sicher_version.clone(),
        format_version: header.version,
        verified: args.verify.then_some(true),
    };
    if args.json {
        return print_json(&report);
    }
    outln!("{}", report.path)?;
    match header.kind {
        BodyKind::Partizan {
            classes: [l, r, n, p],
        } => {
            outln!(
                "  game:           {}, {} (partizan)",
                report.title,
                report.terminal.as_deref().unwrap_or("normal")
            )?;
            outln!("  domain:         {} ({})", report.domain, header.domain)?;
            outln!(
                "  entries:        {} labelled for both players to move: {l} L (Left wins whoever starts), {r} R, {n} N (the player to move wins), {p} P",
                report.entries
            )?;
        }
        BodyKind::Quotient { order } => {
            let heaps = header.quotient.as_ref().map_or(0, |m| m.max_heap);
            outln!("  misère quotient of: {} (heaps 1..={heaps})", report.game)?;
            outln!("  order:          {order}; its multiplication table is the body, one entry per pair of elements")?;
            if let Some(meta) = &header.quotient {
                outln!("  relations:      {}", meta.relations.join(", "))?;
            }
        }
        BodyKind::Outcomes { unsafe_count } => {
            outln!(
                "  game:           {}, {} play",
                report.title,
                report.convention
            )?;
            outln!("  domain:         {} ({})", report.domain, header.domain)?;
            outln!(
                "  entries:        {} ({} unsafe: the player to move loses; {} safe: the player to move wins)",
                report.entries,
                unsafe_count,
                report.entries - unsafe_count
            )?;
        }
        BodyKind::Remoteness { rmax } => {
            outln!(
                "  game:           {}, {} play",
                report.title,
                report.convention
            )?;
            outln!("  domain:         {} ({})", report.domain, header.domain)?;
            outln!(
                "  entries:        {} remotenesses of {} bits (the outcome follows from parity: in {} play a position is safe exactly when its remoteness is {})",
                report.entries,
                report.bits_per_entry,
                header.convention,
                if header.convention == sicher::game::Convention::Normal { "odd" } else { "even" }
            )?;
            outln!("  largest:        remoteness {rmax}")?;
            if let Some(histogram) = &header.histogram {
                outln!("  remoteness  positions  outcome")?;
                for (r, &count) in histogram.iter().enumerate() {
                    let outcome =
                        sicher::value::Outcome::from_remoteness(r as u32, header.convention);
                    outln!("  {r:>10}  {count:>9}  {}", outcome.label())?;
                }
            }
        }
        BodyKind::NimValues { period } => {
            outln!("  nim-values of:  {} (normal play)", report.title)?;
            outln!(
                "  entries:        G(0..={}) at {} bits per value",
                report.entries.saturating_sub(1),
                report.bits_per_entry
            )?;
            match period {
                Some(p) => outln!(
                    "  period:         {} from n = {}, proved with the values up to n = {}",
                    p.period,
                    p.preperiod,
                    p.proved_at.unwrap_or(0)
                )?,
                None => outln!("  period:         none proved within the stored values")?,
            }
        }
    }
    outln!(
        "  body:           {} bytes at offset {} in {} of {} bytes, checksum {}",
        report.body_bytes,
        report.body_offset,
        counted(report.blocks, "block", "blocks"),
        report.block_bytes,
        report.body_checksum
    )?;
    outln!(
        "  stored:         {} ({} bytes raw; file {} bytes, {:.4} bits per {})",
        header.codec.name(),
        report.raw_body_bytes,
        report.file_bytes,
        report.bits_per_position,
        if header.kind.holds_positions() {
            "position"
        } else {
            "heap size"
        }
    )?;
    if header.kind.holds_positions() {
        outln!("  prediction:     {}", report.prediction)?;
    }
    if header.provenance != Provenance::Unrecorded {
        outln!("  derived from:   {} (exact)", header.provenance)?;
    }
    for carried in &report.carries {
        outln!(
            "  carries:        the options of {} for heaps up to {} (it needs no description)",
            carried.rules,
            carried.heaps_up_to
        )?;
    }
    if header.carried.terminal.is_some() {
        outln!("  carries:        the terminal script's text")?;
    }
    outln!(
        "  written by:     sicher {} (format version {})",
        report.sicher_version,
        report.format_version
    )?;
    if args.verify {
        outln!("  verified:       every block's checksum, the padding and the counts match")?;
    } else {
        outln!(
            "  verified:       each block is checked when first read; --verify reads them all now"
        )?;
    }
    Ok(())
}

/// `n` with the noun agreeing: "1 block", "3 blocks".
fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}
