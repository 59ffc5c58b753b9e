//! [`Cancel`]: a handle that stops a long computation from another thread (a binding's
//! Ctrl-C, a server's timeout). The computation looks at it between steps and returns
//! [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted); nothing is printed, no signal handler installed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::{Error, Result};

/// A shared cancellation flag: clones share it, [`Cancel::cancel`] sets it for all.
/// Two handles are equal when they share the flag (so budgets holding it compare).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl PartialEq for Cancel {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

impl Cancel {
    /// A handle not cancelled yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every computation holding a clone of this handle to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`Cancel::cancel`] was called on this handle or a clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// an [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) error once cancelled: what a computation's loop returns.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::interrupted())
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let cancel = Cancel::new();
        let other = cancel.clone();
        assert!(!other.is_cancelled() && other.check().is_ok());
        std::thread::spawn(move || cancel.cancel()).join().unwrap();
        assert!(other.is_cancelled());
        assert!(matches!(other.check(), Err(e) if e.kind() == crate::ErrorKind::Interrupted));
    }
}
