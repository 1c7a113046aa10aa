//! The one source of "now" for everything that depends on time (deadlines, round closing, link
//! expiry, dates shown). In production it is the system clock. `ORTAK_CLOCK_FILE` names a file
//! holding a number of seconds to add to it, so tests move time forward by writing that file
//! instead of sleeping; the file is read on every call, so a move takes effect at once.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};

use time::OffsetDateTime;

#[derive(Clone, Debug, Default)]
pub struct Clock {
    offset_file: Option<PathBuf>,
}

impl Clock {
    pub fn system() -> Clock {
        Clock { offset_file: None }
    }

    /// A clock shifted by the seconds written in `file` (missing or unreadable: no shift).
    pub fn shifted_by_file(file: PathBuf) -> Clock {
        Clock {
            offset_file: Some(file),
        }
    }

    /// The current time in UTC, in whole seconds, as the database stores times.
    pub fn now(&self) -> OffsetDateTime {
        let now = OffsetDateTime::now_utc() + time::Duration::seconds(self.offset());
        now.replace_nanosecond(0)
            .expect("zero nanoseconds is valid")
    }

    fn offset(&self) -> i64 {
        self.offset_file
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .and_then(|s| s.trim().parse::<i64>().ok())
            .unwrap_or(0)
    }

    /// Counts a move of a shifted clock as a write (`db::writes`), so that nothing kept in
    /// memory from before the move (a page showing days left) is served after it. The system
    /// clock never moves this way: nothing to look at.
    pub fn notice_move(&self) {
        static LAST: AtomicI64 = AtomicI64::new(0);
        if self.offset_file.is_none() {
            return;
        }
        let offset = self.offset();
        if LAST.swap(offset, Ordering::AcqRel) != offset {
            super::writes::bump();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_file_moves_time_and_a_missing_one_does_not() {
        let dir = std::env::temp_dir().join(format!("ortak-clock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("offset");
        let clock = Clock::shifted_by_file(file.clone());
        let before = Clock::system().now();
        assert!((clock.now() - before).whole_seconds() < 5);
        std::fs::write(&file, "86400\n").unwrap();
        let moved = clock.now() - before;
        assert!(moved.whole_seconds() >= 86_400 && moved.whole_seconds() < 86_405);
        assert_eq!(clock.now().nanosecond(), 0);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
