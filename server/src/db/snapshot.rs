//! Read-mostly data kept in memory between writes (issue 16): what every member sees the same
//! way (a startup's profile, team and sections; a staff list for one role) is made once and
//! shared until something may have changed it. An entry is used only while no write happened since it was
//! made (`AppState::writes`: every successful POST and every round of background jobs counts)
//! and for at most two seconds, which bounds what a change made outside the server's requests
//! (an operator's SQL) can leave visible.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const FRESH_FOR: Duration = Duration::from_secs(2);

pub struct Snapshot<K, V> {
    entries: Mutex<HashMap<K, (Instant, u64, V)>>,
    /// At most this many entries are kept; a full snapshot is emptied (cheap, and rare).
    capacity: usize,
}

impl<K: Eq + Hash, V: Clone> Snapshot<K, V> {
    pub fn new(capacity: usize) -> Self {
        Snapshot {
            entries: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    /// The value kept for `key`, if it was made after the last write (`writes` is the count of
    /// writes read before this request's data) and is fresh.
    pub fn get(&self, key: &K, writes: u64) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (at, made_after, value) = entries.get(key)?;
        (*made_after == writes && at.elapsed() < FRESH_FOR).then(|| value.clone())
    }

    /// Keeps `value`, made from data read after `writes` writes.
    pub fn put(&self, key: K, writes: u64, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= self.capacity {
            entries.clear();
        }
        entries.insert(key, (Instant::now(), writes, value));
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
    }
}
