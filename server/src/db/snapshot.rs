//! Read-mostly data kept in memory between writes (issue 16): what every member sees the same
//! way (a startup's profile and card, a catalogue page, a staff list for one role) and what
//! one member reads again and again (who they are, what they saved) is made once and kept until
//! something may have changed it. An entry is used only while no write happened since it was
//! made (`db::writes`: every commit, every request that wrote, every round of background jobs
//! and any change to the write-ahead log from outside the server counts) and for at most two
//! seconds, since pages show time-relative figures such as days left.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const FRESH_FOR: Duration = Duration::from_secs(2);

/// The write count the entries were made at, and the entries: one count for all of them, so
/// a write lets the next `put` drop everything made before it.
struct Entries<K, V>(u64, HashMap<K, (Instant, V)>);

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

    /// The value kept for `key`, if it was made after the last write (`writes` is the count of
    /// writes read before this request's data) and is fresh.
    pub fn get(&self, key: &K, writes: u64) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.0 != writes {
            return None;
        }
        let (at, value) = entries.1.get(key)?;
        (at.elapsed() < FRESH_FOR).then(|| value.clone())
    }

    /// Keeps `value`, made from data read after `writes` writes. A value made before the
    /// newest write is already stale and is not kept.
    pub fn put(&self, key: K, writes: u64, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if writes < entries.0 {
            return;
        }
        if writes > entries.0 || entries.1.len() >= self.capacity {
            entries.1.clear();
            entries.0 = writes;
        }
        entries.1.insert(key, (Instant::now(), value));
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
}
