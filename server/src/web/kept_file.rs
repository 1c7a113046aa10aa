//! An upload kept for a row about to be written (issue 30): removed again unless the
//! transaction naming it committed.

use std::path::PathBuf;

/// An upload moved into its folder for a row about to be written. Dropped before
/// [`Kept::committed`] (the transaction failed: a full disk, a refusal), it removes the file,
/// which nothing names (issue 30: failed photo uploads filled the disk again).
#[must_use = "call committed() once the transaction naming the file has committed"]
pub struct Kept {
    path: PathBuf,
    committed: bool,
}

impl Kept {
    pub(super) fn new(path: PathBuf) -> Kept {
        Kept {
            path,
            committed: false,
        }
    }

    /// The row naming the file is stored: the file stays.
    pub fn committed(mut self) {
        self.committed = true;
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Kept;

    #[test]
    fn a_kept_file_goes_unless_its_transaction_committed() {
        let dir = tempfile::TempDir::new().unwrap();
        let (failed, stored) = (dir.path().join("a.jpg"), dir.path().join("b.jpg"));
        for path in [&failed, &stored] {
            std::fs::write(path, b"photo").unwrap();
        }
        let kept = |path: &std::path::Path| Kept {
            path: path.to_owned(),
            committed: false,
        };
        // The transaction failed (the handler returned early): the file is removed.
        drop(kept(&failed));
        assert!(!failed.exists());
        kept(&stored).committed();
        assert!(stored.exists());
    }
}
