//! Open files (issue 30): every connection, the database and each upload in flight take one,
//! and at the usual soft limit of 1,024 two thousand clients broke accepts and health probes.
//! At start the soft limit is raised to the hard one (the systemd unit sets
//! `LimitNOFILE=65536`), and the connections served at once are capped below what it allows.

/// Files kept back for the database pool and its WAL, the listener, logs and uploads.
const RESERVED: u64 = 128;

/// The highest soft limit asked for: plenty for one VM, and below any kernel's `nr_open`.
const WANTED: u64 = 65_536;

/// Raises the soft open-files limit towards the hard one; the limit now in force, if the
/// system says.
pub fn raise_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a writable `rlimit` for the call to fill.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    let target = limit.rlim_max.min(WANTED);
    if limit.rlim_cur < target {
        let raised = libc::rlimit {
            rlim_cur: target,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: a valid `rlimit` whose soft value does not exceed its hard one.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit = raised;
        }
    }
    Some(limit.rlim_cur)
}

/// The connections to serve at once: `setting`, or fewer when the open-files `limit` would not
/// hold them beside the files the server keeps for itself.
pub fn connections_within(setting: usize, limit: Option<u64>) -> usize {
    match limit {
        Some(limit) if setting as u64 + RESERVED > limit => {
            limit.saturating_sub(RESERVED).max(1) as usize
        }
        _ => setting,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_stay_below_the_open_files_limit() {
        assert_eq!(connections_within(900, Some(65_536)), 900);
        assert_eq!(connections_within(900, Some(1_024)), 896);
        assert_eq!(connections_within(900, Some(256)), 128);
        assert_eq!(connections_within(900, Some(100)), 1);
        assert_eq!(connections_within(900, None), 900);
    }
}
