//! Sessions held in memory in front of the SQLite store, so a signed-in page view reads no
//! session row and writes none (issue 16). tower-sessions saves a session after every request
//! that touched it (reading the flash message does), and with an idle expiry each save moves
//! the expiry on; here a save reaches SQLite only when the session's data changed or its
//! expiry moved by more than the refresh interval (a minute, or half the idle timeout when
//! that is shorter). So a restart loses at most that much of a session's idle time, never a
//! sign-in, a sign-out or a flash message.
//!
//! One process owns the database (README: one VM, one instance), so memory and SQLite cannot
//! disagree about a session's data: every change goes through this store. Whether the user
//! behind a session may still use it (epoch, deactivation, role) is checked against `users` on
//! every request, not here. Writes to SQLite take the writer's turn like every other write.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{Result, SessionStore};
use tower_sessions_sqlx_store::SqliteStore;

/// At most this many sessions are held; past it, expired and unchanged ones are dropped first.
const MAX_HELD: usize = 20_000;

#[derive(Debug)]
struct Held {
    record: Record,
    /// The expiry SQLite has for it.
    stored_expiry: OffsetDateTime,
}

/// Cheap to clone: clones share the sessions held.
#[derive(Clone, Debug)]
pub struct CachedStore(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    sqlite: SqliteStore,
    held: Mutex<HashMap<Id, Held>>,
    refresh: Duration,
}

impl CachedStore {
    /// `idle` is the sessions' idle timeout; the stored expiry is refreshed at most once a
    /// minute, and at least twice per idle period.
    pub fn new(sqlite: SqliteStore, idle: Duration) -> CachedStore {
        CachedStore(Arc::new(Inner {
            sqlite,
            held: Mutex::new(HashMap::new()),
            refresh: Duration::minutes(1).min(idle / 2),
        }))
    }

    fn hold(&self, record: &Record, stored_expiry: OffsetDateTime) {
        let mut held = self.0.held.lock().unwrap();
        if held.len() >= MAX_HELD {
            let now = OffsetDateTime::now_utc();
            held.retain(|_, h| {
                h.record.expiry_date > now && h.record.expiry_date != h.stored_expiry
            });
            if held.len() >= MAX_HELD {
                held.clear();
            }
        }
        let record = record.clone();
        held.insert(
            record.id,
            Held {
                record,
                stored_expiry,
            },
        );
    }

    /// Whether a save of `record` must reach SQLite.
    fn must_store(&self, record: &Record) -> bool {
        let held = self.0.held.lock().unwrap();
        match held.get(&record.id) {
            Some(h) => {
                h.record.data != record.data
                    || record.expiry_date - h.stored_expiry >= self.0.refresh
            }
            None => true,
        }
    }
}

/// The writer's turn (`super::writer_turn`): a session write waits there like any other.
async fn turn() -> Result<tokio::sync::SemaphorePermit<'static>> {
    super::writer_turn()
        .await
        .map_err(|e| tower_sessions::session_store::Error::Backend(e.to_string()))
}

#[async_trait]
impl SessionStore for CachedStore {
    async fn create(&self, record: &mut Record) -> Result<()> {
        let _turn = turn().await?;
        self.0.sqlite.create(record).await?;
        self.hold(record, record.expiry_date);
        Ok(())
    }

    async fn save(&self, record: &Record) -> Result<()> {
        if self.must_store(record) {
            let _turn = turn().await?;
            self.0.sqlite.save(record).await?;
            self.hold(record, record.expiry_date);
        } else if let Some(h) = self.0.held.lock().unwrap().get_mut(&record.id) {
            h.record.expiry_date = record.expiry_date;
        }
        Ok(())
    }

    async fn load(&self, id: &Id) -> Result<Option<Record>> {
        let now = OffsetDateTime::now_utc();
        let found = self
            .0
            .held
            .lock()
            .unwrap()
            .get(id)
            .map(|h| h.record.clone());
        match found {
            Some(record) if record.expiry_date > now => Ok(Some(record)),
            Some(_) => {
                self.0.held.lock().unwrap().remove(id);
                Ok(None)
            }
            None => {
                let record = self.0.sqlite.load(id).await?;
                if let Some(record) = &record {
                    self.hold(record, record.expiry_date);
                }
                Ok(record)
            }
        }
    }

    async fn delete(&self, id: &Id) -> Result<()> {
        self.0.held.lock().unwrap().remove(id);
        let _turn = turn().await?;
        self.0.sqlite.delete(id).await
    }
}
