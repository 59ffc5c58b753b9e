//! What the machine can give: the memory checks that refuse work up front instead of
//! dying half-way through an allocation.

use crate::error::{Error, Hint, Result};

/// Memory the system can still hand out, from `/proc/meminfo`; `None` where unknown.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses work needing `needed` bytes when less is available; `what` names the work and
/// `hint` says what the user can do instead.
pub fn check_fits(what: &str, needed: u128, hint: Hint) -> Result<()> {
    match available() {
        Some(available) if needed > u128::from(available) => Err(Error::resource(format!(
            "{what} needs about {} but only {} is available",
            mebibytes(needed),
            mebibytes(u128::from(available))
        ))
        .with_hint(hint)),
        _ => Ok(()),
    }
}

/// A byte count in MiB, one decimal.
pub fn mebibytes(bytes: u128) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}
