//! `sicher info`: what a table file holds, and whether its body is intact.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::output::print_json;
use crate::error::Result;
use crate::table::nim::{NimTable, NIM_MAGIC};
use crate::table::Table;

/// Arguments of `sicher info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The table file.
    pub file: PathBuf,
    /// Also read the whole body and check its checksum.
    #[arg(long)]
    pub verify: bool,
    /// Print the header as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct InfoReport {
    path: String,
    game: String,
    convention: String,
    domain: String,
    entries: u64,
    #[serde(rename = "unsafe")]
    unsafe_count: u64,
    body_offset: u64,
    body_bytes: u64,
    body_checksum: String,
    sicher_version: String,
    format_version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    verified: Option<bool>,
}

/// What `info` prints of a nim-value table.
#[derive(Serialize)]
struct NimInfoReport {
    path: String,
    kind: &'static str,
    game: String,
    entries: u64,
    bytes_per_value: u8,
    preperiod: Option<u64>,
    period: Option<u64>,
    proved_at: Option<u64>,
    body_offset: u64,
    body_checksum: String,
    sicher_version: String,
    verified: bool,
}

/// True when the file starts with the nim-value tables' magic.
fn is_nim_table(path: &std::path::Path) -> bool {
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut magic))
        .is_ok_and(|()| magic == NIM_MAGIC)
}

/// `info` on a nim-value table; opening it already checks the body's checksum.
fn run_nim(args: &InfoArgs) -> Result<()> {
    let table = NimTable::open(&args.file)?;
    let header = table.header();
    let report = NimInfoReport {
        path: args.file.display().to_string(),
        kind: "nim-values",
        game: header.game.clone(),
        entries: header.entries,
        bytes_per_value: header.width,
        preperiod: header.period.map(|(n0, _, _)| n0),
        period: header.period.map(|(_, p, _)| p),
        proved_at: header.period.map(|(_, _, at)| at),
        body_offset: header.body_offset,
        body_checksum: format!("{:016x}", header.body_checksum),
        sicher_version: header.sicher_version.clone(),
        verified: true,
    };
    if args.json {
        return print_json(&report);
    }
    outln!("{}", report.path)?;
    outln!("  nim-values of:  {} (normal play)", report.game)?;
    outln!(
        "  entries:        G(0..={}) at {} byte(s) per value",
        report.entries.saturating_sub(1),
        report.bytes_per_value
    )?;
    match header.period {
        Some((n0, p, at)) => {
            outln!("  period:         {p} from n = {n0}, proved with the values up to n = {at}")?
        }
        None => outln!("  period:         none proved within the stored values")?,
    }
    outln!(
        "  body:           at offset {}, checksum {} (verified on opening)",
        report.body_offset,
        report.body_checksum
    )?;
    outln!("  written by:     sicher {}", report.sicher_version)
}

/// Runs `sicher info`.
pub fn run(args: &InfoArgs) -> Result<()> {
    if is_nim_table(&args.file) {
        return run_nim(args);
    }
    let table = Table::open(&args.file)?;
    if args.verify {
        table.verify_body()?;
    }
    let header = table.header();
    let report = InfoReport {
        path: args.file.display().to_string(),
        game: header.game.clone(),
        convention: header.convention.clone(),
        domain: header.domain.flags(),
        entries: header.entries,
        unsafe_count: header.unsafe_count,
        body_offset: header.body_offset,
        body_bytes: header.body_len(),
        body_checksum: format!("{:016x}", header.body_checksum),
        sicher_version: header.sicher_version.clone(),
        format_version: crate::table::header::FORMAT_VERSION,
        verified: args.verify.then_some(true),
    };
    if args.json {
        print_json(&report)?;
        return Ok(());
    }
    outln!("{}", report.path)?;
    outln!("  game:           {} ({})", report.game, report.convention)?;
    outln!("  domain:         {} ({})", report.domain, header.domain)?;
    outln!(
        "  entries:        {} ({} unsafe, {} safe)",
        report.entries,
        report.unsafe_count,
        report.entries - report.unsafe_count
    )?;
    outln!(
        "  body:           {} bytes at offset {}, checksum {}",
        report.body_bytes,
        report.body_offset,
        report.body_checksum
    )?;
    outln!(
        "  written by:     sicher {} (format version {})",
        report.sicher_version,
        report.format_version
    )?;
    if args.verify {
        outln!("  verified:       body checksum, padding and unsafe count match")?;
    }
    Ok(())
}
