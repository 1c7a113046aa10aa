//! `ortak`: the platform's single binary. `ortak serve` (the default) runs the web server;
//! the other subcommands are operations tasks. See the README for every setting.

mod accounts;
mod applications;
mod content;
mod db;
mod demo;
mod documents;
mod error;
mod fund;
mod investing;
mod jobs;
mod mail;
mod newsletter;
mod notifications;
mod payments;
mod providers;
mod questions;
mod routes;
mod serve;
mod settings;
mod staff;
mod startups;
mod state;
mod web;

use clap::Parser;

use crate::settings::{Cli, Command};

fn main() -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(run())
}

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

async fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn,tower_sessions=warn".into()),
        )
        .with_target(false)
        // Colours only on a terminal: journald and log files get plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .init();
    let settings = cli.settings;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve::run(settings).await,
        Command::Migrate => {
            let pool = db::connect(&settings.data_dir, settings.wal_autocheckpoint).await?;
            if let Some(backup) = db::migrate(&pool, &settings.data_dir).await? {
                println!("Backup before migrating: {}", backup.display());
            }
            println!(
                "Migrations applied to {}",
                db::database_path(&settings.data_dir).display()
            );
            Ok(())
        }
        Command::CreateAdmin {
            email,
            password,
            superadmin,
        } => {
            let pool = db::connect(&settings.data_dir, settings.wal_autocheckpoint).await?;
            db::migrate(&pool, &settings.data_dir).await?;
            let created =
                accounts::admins::create_admin(&pool, &email, &password, superadmin).await?;
            print!("{}", accounts::admins::instructions(&email, &created));
            Ok(())
        }
        Command::Routes => {
            println!("{}", serde_json::to_string_pretty(&routes::table())?);
            Ok(())
        }
        Command::Backup { file } => {
            let pool = db::connect(&settings.data_dir, settings.wal_autocheckpoint).await?;
            db::backup(&pool, &file).await?;
            println!("Backup written to {}", file.display());
            Ok(())
        }
    }
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
