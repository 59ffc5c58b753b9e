//! `sicher info`: what a table file holds, and whether its body is intact.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::output::print_json;
use crate::error::Result;
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

/// Runs `sicher info`.
pub fn run(args: &InfoArgs) -> Result<()> {
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
