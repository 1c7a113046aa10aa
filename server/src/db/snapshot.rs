//! Read-mostly data kept in memory between writes (issues 16 and 29): what every member sees the
//! same way (a startup's profile and card, a catalogue page, a staff list for one role) and what
//! one member reads again and again (who they are, what they saved) is made once and kept until
//! something may have changed it. An entry is used only while no write it depends on happened
//! since it was made (`db::writes`: every commit, every request that wrote, every round of
//! background jobs and any change to the write-ahead log from outside the server counts; what
//! is made only from shared tables ignores writes to personal ones, [`Reads`]) and for at most
//! two seconds, since pages show time-relative figures such as days left.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::OnceCell;

use super::writes::Versions;

const FRESH_FOR: Duration = Duration::from_secs(2);

/// Whether anything is kept at all (`ORTAK_KEEP_BETWEEN_WRITES`).
static KEEP: AtomicBool = AtomicBool::new(true);

/// Turns keeping on or off for the whole process (off: every request reads afresh).
pub fn keep_between_writes(keep: bool) {
    KEEP.store(keep, Ordering::Relaxed);
}

/// Whether anything is kept (off: every request reads and renders afresh).
pub fn keeping() -> bool {
    KEEP.load(Ordering::Relaxed)
}

/// The write count the entries were made at, and the entries: one count for all of them, so
/// a write lets the next `put` drop everything made before it. An entry is a cell filled once,
/// so requests that miss together wait for one of them to make it.
struct Entries<K, V> {
    writes: u64,
    /// When each entry was made, its member's count ([`Reads::OneMember`]; 0 otherwise), and it.
    map: HashMap<K, (Instant, u64, Arc<OnceCell<V>>)>,
    /// What the entries weigh, as their `weigh` says (entries replaced stay counted until the
    /// snapshot is emptied: the figure only errs upwards).
    bytes: usize,
}

impl<K, V> Entries<K, V> {
    fn clear(&mut self, writes: u64) {
        self.map.clear();
        self.bytes = 0;
        self.writes = writes;
    }
}

/// How much a kept entry weighs in memory, key included: the length of its text for pages and
/// lists, an estimate of its fields for records.
pub type Weigh<K, V> = fn(&K, &V) -> usize;

/// What one record of a few short fields (a user, a card, a holding) is counted as.
pub const RECORD_BYTES: usize = 512;

/// What a snapshot's values are made from, so which writes end them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Any table: every write ends the entries (who a member is, what they saved, staff lists).
    Anything,
    /// Only shared tables (not `db::writes::PERSONAL`): a member saving a startup or signing in
    /// leaves them (catalogue pages, startups' cards and profiles, round figures, public pages).
    SharedTables,
    /// Shared tables and one member's own rows (who they are, what they saved, their
    /// holdings), kept per member: another member's writes leave them. Asked with the
    /// member's count (`Versions::of_member`).
    OneMember,
}

impl Reads {
    /// The count this kind of entry depends on.
    fn count(self, versions: Versions) -> u64 {
        match self {
            Reads::Anything => versions.all,
            Reads::SharedTables | Reads::OneMember => versions.shared,
        }
    }

    /// The count stamped on each entry: the member's, for [`Reads::OneMember`].
    fn stamp(self, versions: Versions) -> u64 {
        match self {
            Reads::OneMember => versions.member,
            Reads::Anything | Reads::SharedTables => 0,
        }
    }
}

pub struct Snapshot<K, V> {
    entries: Mutex<Entries<K, V>>,
    reads: Reads,
    /// At most this many bytes are kept (as `weigh` counts them); a full snapshot is emptied
    /// (cheap, and rare).
    max_bytes: usize,
    weigh: Weigh<K, V>,
}

impl<K: Eq + Hash, V: Clone> Snapshot<K, V> {
    pub fn new(reads: Reads, max_bytes: usize, weigh: Weigh<K, V>) -> Self {
        Snapshot {
            entries: Mutex::new(Entries {
                writes: 0,
                map: HashMap::new(),
                bytes: 0,
            }),
            reads,
            max_bytes,
            weigh,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<K, V>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts `bytes` more kept at `writes`; past the budget everything goes.
    fn account(&self, writes: u64, bytes: usize) {
        let mut entries = self.lock();
        if entries.writes == writes {
            entries.bytes += bytes;
            if entries.bytes > self.max_bytes {
                entries.clear(writes);
            }
        }
    }

    /// The cell for `key` at `writes` (a fresh one when none is kept), or `None` when `writes`
    /// is older than the newest write seen: whatever is made from it is stale already.
    fn cell(&self, key: K, versions: Versions, value: Option<V>) -> Option<Arc<OnceCell<V>>> {
        if !KEEP.load(Ordering::Relaxed) {
            return None;
        }
        let writes = self.reads.count(versions);
        let weight = value.as_ref().map_or(0, |v| (self.weigh)(&key, v));
        let mut entries = self.lock();
        if writes < entries.writes || weight > self.max_bytes {
            return None;
        }
        if writes > entries.writes || entries.bytes + weight > self.max_bytes {
            entries.clear(writes);
        }
        let stamp = self.reads.stamp(versions);
        if value.is_none()
            && let Some((at, made_at, cell)) = entries.map.get(&key)
            && at.elapsed() < FRESH_FOR
            && *made_at == stamp
        {
            return Some(cell.clone());
        }
        let cell = Arc::new(OnceCell::new_with(value));
        entries
            .map
            .insert(key, (Instant::now(), stamp, cell.clone()));
        entries.bytes += weight;
        Some(cell)
    }

    /// The value kept for `key`, if it was made after the last write it depends on
    /// (`versions` were read before this request's data) and is fresh.
    pub fn get(&self, key: &K, versions: Versions) -> Option<V> {
        if !KEEP.load(Ordering::Relaxed) {
            return None;
        }
        let entries = self.lock();
        if entries.writes != self.reads.count(versions) {
            return None;
        }
        let (at, made_at, cell) = entries.map.get(key)?;
        if at.elapsed() < FRESH_FOR && *made_at == self.reads.stamp(versions) {
            cell.get().cloned()
        } else {
            None
        }
    }

    /// Keeps `value`, made from data read at `versions`.
    pub fn put(&self, key: K, versions: Versions, value: V) {
        self.cell(key, versions, Some(value));
    }

    /// The value kept for `key`, or the one `make` makes from data read at `versions` (read
    /// them first). Requests that miss together wait for the first one's `make`; if it fails,
    /// the next one tries.
    pub async fn get_or_make<E, F>(
        &self,
        key: K,
        versions: Versions,
        make: impl FnOnce() -> F,
    ) -> Result<V, E>
    where
        K: Clone,
        F: Future<Output = Result<V, E>>,
    {
        let Some(cell) = self.cell(key.clone(), versions, None) else {
            return make().await;
        };
        let mut made = false;
        let value = cell
            .get_or_try_init(|| {
                made = true;
                make()
            })
            .await?
            .clone();
        if made {
            // Weighed once filled, by the request that filled it.
            let weight = (self.weigh)(&key, &value);
            self.account(self.reads.count(versions), weight);
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Versions where both counts are `n`.
    fn at(n: u64) -> Versions {
        Versions {
            all: n,
            shared: n,
            member: 0,
        }
    }

    #[test]
    fn an_entry_lives_until_the_next_write() {
        let snapshot = Snapshot::new(Reads::Anything, 1024, |_, _| 8);
        snapshot.put("a", at(7), 1);
        assert_eq!(snapshot.get(&"a", at(7)), Some(1));
        assert_eq!(snapshot.get(&"a", at(8)), None, "a write happened");
        assert_eq!(snapshot.get(&"b", at(7)), None);
        // What was made before a write is not kept; what is made after it replaces the rest.
        snapshot.put("c", at(8), 3);
        snapshot.put("d", at(7), 4);
        assert_eq!(snapshot.get(&"d", at(7)), None);
        assert_eq!(snapshot.get(&"d", at(8)), None);
        assert_eq!(snapshot.get(&"c", at(8)), Some(3));
        assert_eq!(snapshot.get(&"a", at(8)), None);
    }

    #[test]
    fn a_snapshot_keeps_no_more_bytes_than_its_budget() {
        let pages: Snapshot<u32, String> = Snapshot::new(Reads::Anything, 100, |_, v| v.len());
        pages.put(1, at(1), "a".repeat(60));
        pages.put(2, at(1), "b".repeat(30));
        assert!(pages.get(&1, at(1)).is_some() && pages.get(&2, at(1)).is_some());
        // Past the budget everything kept goes, and the new entry is kept alone.
        pages.put(3, at(1), "c".repeat(30));
        assert_eq!(pages.get(&1, at(1)), None);
        assert_eq!(pages.get(&3, at(1)).map(|p| p.len()), Some(30));
        // An entry larger than the whole budget is never kept.
        pages.put(4, at(1), "d".repeat(101));
        assert_eq!(pages.get(&4, at(1)), None);
        assert!(pages.lock().bytes <= 100);
    }

    #[test]
    fn what_one_member_keeps_outlives_other_members_writes() {
        let mine = Snapshot::new(Reads::OneMember, 1024, |_, _| 8);
        let ayse = Versions {
            all: 3,
            shared: 2,
            member: 7,
        };
        let can = Versions {
            all: 3,
            shared: 2,
            member: 1,
        };
        mine.put("ayse", ayse, 1);
        mine.put("can", can, 2);
        // Can saves a startup: his count moves, Ayşe's entry stays.
        let can_after = Versions {
            member: 2,
            all: 4,
            ..can
        };
        assert_eq!(mine.get(&"can", can_after), None);
        assert_eq!(mine.get(&"ayse", Versions { all: 4, ..ayse }), Some(1));
        // A shared write ends both.
        assert_eq!(mine.get(&"ayse", Versions { shared: 3, ..ayse }), None);
    }

    #[test]
    fn what_is_made_from_shared_tables_outlives_personal_writes() {
        let shared = Snapshot::new(Reads::SharedTables, 1024, |_, _| 8);
        let anything = Snapshot::new(Reads::Anything, 1024, |_, _| 8);
        let before = Versions {
            all: 10,
            shared: 4,
            member: 0,
        };
        shared.put("catalogue", before, 1);
        anything.put("saved", before, 2);
        // A member saves a startup: a personal write.
        let personal = Versions {
            all: 11,
            shared: 4,
            member: 0,
        };
        assert_eq!(shared.get(&"catalogue", personal), Some(1));
        assert_eq!(anything.get(&"saved", personal), None);
        // Staff change a startup: a shared write ends both.
        let changed = Versions {
            all: 12,
            shared: 5,
            member: 0,
        };
        assert_eq!(shared.get(&"catalogue", changed), None);
    }

    #[tokio::test]
    async fn requests_that_miss_together_make_the_value_once() {
        let snapshot = Arc::new(Snapshot::new(Reads::Anything, 1024, |_, _| 8));
        let made = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (snapshot, made) = (snapshot.clone(), made.clone());
                tokio::spawn(async move {
                    snapshot
                        .get_or_make("k", at(1), || async {
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
        let failed = snapshot.get_or_make("f", at(1), || async { Err::<i32, _>("no") });
        assert_eq!(failed.await, Err("no"));
        let again = snapshot.get_or_make("f", at(1), || async { Ok::<_, &str>(7) });
        assert_eq!(again.await, Ok(7));
        // A value made from a count older than the newest is returned but not kept.
        let stale = snapshot.get_or_make("k", at(0), || async { Ok::<_, ()>(1) });
        assert_eq!(stale.await, Ok(1));
        assert_eq!(snapshot.get(&"k", at(1)), Some(42));
    }
}
