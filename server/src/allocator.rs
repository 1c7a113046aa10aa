//! The process's allocator: mimalloc, set up to give freed memory back to the system (issue 16
//! measured the server's peak memory against 60 MB).

/// mimalloc rather than glibc's allocator (issue 16): under load glibc's threads queued on its
/// arena locks (a quarter of a member page's CPU profile was `malloc`, `free` and the futex
/// waits behind them), and more arenas cost memory instead.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_arena_eager_commit` in mimalloc.h (v3); the bindings do not name it.
#[cfg(target_os = "linux")]
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;

/// mimalloc commits its arenas eagerly on Linux and keeps what was freed there; with lazy
/// commit it gives freed pages back after its purge delay, which kept the peak under load in
/// `scripts/bench.sh` about a quarter lower. Options apply to arenas made after they are set,
/// and the first allocation (before `main`) makes one: so this runs as an ELF constructor,
/// which the loader calls before Rust's runtime starts.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static RETURN_FREED_MEMORY: extern "C" fn() = {
    extern "C" fn return_freed_memory() {
        // SAFETY: sets an allocator option, before any thread or allocation exists.
        unsafe { libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0) };
    }
    return_freed_memory
};

/// Gives what the calling thread freed back to the system now. mimalloc purges a thread's
/// freed pages when that thread next allocates, and the blocking thread that just hashed a
/// password (19 MiB) may sit idle for seconds: that block was the largest part of the server's
/// peak memory in `scripts/bench.sh` (issue 16).
pub fn give_back_freed_memory() {
    // SAFETY: a plain call into the allocator, valid on any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn the_constructor_sets_lazy_arena_commit() {
        // mimalloc's default for this option is 2; 0 shows the constructor ran (this test
        // executable has the same allocator and constructor as the server).
        // SAFETY: reads an allocator option.
        let value = unsafe { libmimalloc_sys::mi_option_get(super::ARENA_EAGER_COMMIT) };
        assert_eq!(value, 0);
    }
}
