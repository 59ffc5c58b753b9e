//! What the machine can give: the memory checks that refuse work up front instead of
//! dying half-way through an allocation.

use crate::error::{Error, Hint, Result};

/// Memory this process can still get: the least of what the system can hand out
/// (`MemAvailable`), what its address-space limit leaves (`ulimit -v`), and what its
/// control group's memory limit leaves (containers, systemd units); `None` where none is
/// known.
pub fn available() -> Option<u64> {
    [system_available(), address_space_left(), cgroup_left()]
        .into_iter()
        .flatten()
        .min()
}

/// `MemAvailable` of `/proc/meminfo`.
fn system_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    field_kib(&text, "MemAvailable:")
}

/// A `NAME:  N kB` line's value, in bytes.
fn field_kib(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The soft address-space limit (`RLIMIT_AS`, from `/proc/self/limits`) less the address
/// space in use (`VmSize`): an allocation past it fails even with memory free.
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used = field_kib(&status, "VmSize:").unwrap_or(0);
    Some(soft.saturating_sub(used))
}

/// Limits at or above this are "no limit" (cgroup v1 writes 2^63 rounded to a page).
const NO_LIMIT: u64 = 1 << 62;

/// What the process's memory control group still allows: its limit less its working
/// set (usage without the inactive page cache, which the kernel reclaims first).
fn cgroup_left() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
    let stat = |text: Option<String>, name: &str| {
        text.and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix(name)?.trim().parse::<u64>().ok())
        })
    };
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_end_matches('/');
        // The group's own directory, or the root of a namespaced mount.
        let (base, names) = match controllers {
            // cgroup v2: one hierarchy.
            "" => (
                "/sys/fs/cgroup",
                ["memory.max", "memory.current", "inactive_file "],
            ),
            c if c.split(',').any(|c| c == "memory") => (
                "/sys/fs/cgroup/memory",
                [
                    "memory.limit_in_bytes",
                    "memory.usage_in_bytes",
                    "total_inactive_file ",
                ],
            ),
            _ => continue,
        };
        for dir in [format!("{base}{path}"), base.to_string()] {
            let Some(limit) = number(read(&format!("{dir}/{}", names[0]))) else {
                continue;
            };
            if limit >= NO_LIMIT {
                break;
            }
            let usage = number(read(&format!("{dir}/{}", names[1]))).unwrap_or(0);
            let inactive = stat(read(&format!("{dir}/memory.stat")), names[2]).unwrap_or(0);
            return Some(limit.saturating_sub(usage.saturating_sub(inactive)));
        }
    }
    None
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
