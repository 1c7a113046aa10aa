//! Read-mostly data kept in memory between writes (issue 16): what every member sees the same
//! way (a startup's profile and card, a catalogue page, a staff list for one role) and what
//! one member reads again and again (who they are, what they saved) is made once and kept until
//! something may have changed it. An entry is used only while no write happened since it was
//! made (`db::writes`: every commit, every request that wrote, every round of background jobs
//! and any change to the write-ahead log from outside the server counts) and for at most two
//! seconds, since pages show time-relative figures such as days left.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::OnceCell;

const FRESH_FOR: Duration = Duration::from_secs(2);

/// Whether anything is kept at all (`ORTAK_KEEP_BETWEEN_WRITES`).
static KEEP: AtomicBool = AtomicBool::new(true);

/// Turns keeping on or off for the whole process (off: every request reads afresh).
pub fn keep_between_writes(keep: bool) {
    KEEP.store(keep, Ordering::Relaxed);
}

/// The write count the entries were made at, and the entries: one count for all of them, so
/// a write lets the next `put` drop everything made before it. An entry is a cell filled once,
/// so requests that miss together wait for one of them to make it.
struct Entries<K, V>(u64, HashMap<K, (Instant, Arc<OnceCell<V>>)>);

pub struct Snapshot<K, V> {
    entries: Mutex<Entries<K, V>>,
    /// At most this many entries are kept; a full snapshot is emptied (cheap, and rare).
    capacity: usize,
}

impl<K: Eq + Hash, V: Clone> Snapshot<K, V> {
    pub fn new(capacity: usize) -> Self {
        Snapshot {
            entries: Mutex::new(Entries(0, HashMap::new())),
            capacity,
        }
    }

    /// The cell for `key` at `writes` (a fresh one when none is kept), or `None` when `writes`
    /// is older than the newest write seen: whatever is made from it is stale already.
    fn cell(&self, key: K, writes: u64, value: Option<V>) -> Option<Arc<OnceCell<V>>> {
        if !KEEP.load(Ordering::Relaxed) {
            return None;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if writes < entries.0 {
            return None;
        }
        if writes > entries.0 || entries.1.len() >= self.capacity {
            entries.1.clear();
            entries.0 = writes;
        }
        if value.is_none()
            && let Some((at, cell)) = entries.1.get(&key)
            && at.elapsed() < FRESH_FOR
        {
            return Some(cell.clone());
        }
        let cell = Arc::new(OnceCell::new_with(value));
        entries.1.insert(key, (Instant::now(), cell.clone()));
        Some(cell)
    }

    /// The value kept for `key`, if it was made after the last write (`writes` is the count of
    /// writes read before this request's data) and is fresh.
    pub fn get(&self, key: &K, writes: u64) -> Option<V> {
        if !KEEP.load(Ordering::Relaxed) {
            return None;
        }
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.0 != writes {
            return None;
        }
        let (at, cell) = entries.1.get(key)?;
        if at.elapsed() < FRESH_FOR {
            cell.get().cloned()
        } else {
            None
        }
    }

    /// Keeps `value`, made from data read after `writes` writes.
    pub fn put(&self, key: K, writes: u64, value: V) {
        self.cell(key, writes, Some(value));
    }

    /// The value kept for `key`, or the one `make` makes from data read after `writes` writes
    /// (read `writes` first). Requests that miss together wait for the first one's `make`; if
    /// it fails, the next one tries.
    pub async fn get_or_make<E, F>(
        &self,
        key: K,
        writes: u64,
        make: impl FnOnce() -> F,
    ) -> Result<V, E>
    where
        F: Future<Output = Result<V, E>>,
    {
        match self.cell(key, writes, None) {
            Some(cell) => cell.get_or_try_init(make).await.cloned(),
            None => make().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_lives_until_the_next_write() {
        let snapshot = Snapshot::new(8);
        snapshot.put("a", 7, 1);
        assert_eq!(snapshot.get(&"a", 7), Some(1));
        assert_eq!(snapshot.get(&"a", 8), None, "a write happened");
        assert_eq!(snapshot.get(&"b", 7), None);
        // What was made before a write is not kept; what is made after it replaces the rest.
        snapshot.put("c", 8, 3);
        snapshot.put("d", 7, 4);
        assert_eq!(snapshot.get(&"d", 7), None);
        assert_eq!(snapshot.get(&"d", 8), None);
        assert_eq!(snapshot.get(&"c", 8), Some(3));
        assert_eq!(snapshot.get(&"a", 8), None);
    }

    #[tokio::test]
    async fn requests_that_miss_together_make_the_value_once() {
        let snapshot = Arc::new(Snapshot::new(8));
        let made = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (snapshot, made) = (snapshot.clone(), made.clone());
                tokio::spawn(async move {
                    snapshot
                        .get_or_make("k", 1, || async {
                            made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            tokio::time::sleep(Duration::from_millis(20)).await;
                            Ok::<_, ()>(42)
                        })
                        .await
                })
            })
            .collect();
        for task in tasks {
            assert_eq!(task.await.unwrap(), Ok(42));
        }
        assert_eq!(made.load(std::sync::atomic::Ordering::SeqCst), 1);
        // A failed make is not kept: the next request makes it again.
        let failed = snapshot.get_or_make("f", 1, || async { Err::<i32, _>("no") });
        assert_eq!(failed.await, Err("no"));
        let again = snapshot.get_or_make("f", 1, || async { Ok::<_, &str>(7) });
        assert_eq!(again.await, Ok(7));
        // A value made from a count older than the newest is returned but not kept.
        let stale = snapshot.get_or_make("k", 0, || async { Ok::<_, ()>(1) });
        assert_eq!(stale.await, Ok(1));
        assert_eq!(snapshot.get(&"k", 1), Some(42));
    }
}
