//! `ortak`: the platform's single binary. `ortak serve` (the default) runs the web server;
//! the other subcommands are operations tasks. See the README for every setting.

mod accounts;
mod admin_cli;
mod applications;
mod assets;
mod config;
mod content;
mod content_admin;
mod context;
mod csrf;
mod dashboard;
mod db;
mod demo_files;
mod demo_startups;
mod error;
mod files;
mod form_body;
mod groups_admin;
mod input_screen;
mod investing;
mod mail;
mod newsletter;
mod page_cache;
mod passwords;
mod payments;
mod qualified;
mod router;
mod seed;
mod serve;
mod startup_admin;
mod startups;
mod user_admin;
mod vc_dashboard;

use clap::Parser;

use crate::config::{Cli, Command};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
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
            let pool = db::connect(&settings.data_dir).await?;
            db::migrate(&pool).await?;
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
            let pool = db::connect(&settings.data_dir).await?;
            db::migrate(&pool).await?;
            let role = admin_cli::create_admin(&pool, &email, &password, superadmin).await?;
            println!("{email} is now {role}");
            Ok(())
        }
        Command::Backup { file } => {
            let pool = db::connect(&settings.data_dir).await?;
            db::backup(&pool, &file).await?;
            println!("Backup written to {}", file.display());
            Ok(())
        }
    }
}
