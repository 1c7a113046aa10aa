//! `ortak`: the platform's single binary. `ortak serve` (the default) runs the web server;
//! the other subcommands are operations tasks. See the README for every setting.

mod accounts;
mod allocator;
mod applications;
mod campaigns;
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
mod open_files;
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
        Command::Migrate { create } => {
            let pool = db::connect(&settings.data_dir, settings.wal(), asked(create)).await?;
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
            create,
        } => {
            let pool = db::connect(&settings.data_dir, settings.wal(), asked(create)).await?;
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
            let never = db::Create::Never;
            let pool = db::connect(&settings.data_dir, settings.wal(), never).await?;
            db::backup(&pool, &file).await?;
            println!("Backup written to {}", file.display());
            Ok(())
        }
    }
}

/// A command makes a new database only when asked (`--create`).
fn asked(create: bool) -> db::Create {
    if create {
        db::Create::IfMissing
    } else {
        db::Create::Never
    }
}
