//! Background jobs: periodic tasks that must happen without anyone watching (closing rounds,
//! payment deadlines, purges). One loop runs every task each `ORTAK_JOBS_INTERVAL_SECONDS`.
//! Tasks read time from the injectable clock, so tests move the clock and wait for the next
//! tick instead of sleeping for days. Every task finds its work in the database each time and is
//! idempotent, so a crash or a restart in the middle loses nothing and does nothing twice.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use tokio::signal::unix::{Signal, SignalKind, signal};

use crate::state::AppState;

type TaskFuture<'a> = Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send + 'a>>;

/// A periodic task: its name (for the log) and the function that does one round of it.
pub struct Task {
    pub name: &'static str,
    pub run: for<'a> fn(&'a AppState) -> TaskFuture<'a>,
}

/// Every periodic task, in the order each tick runs them (one entry each, sorted by name).
fn tasks() -> Vec<Task> {
    vec![
        Task {
            name: "application-drafts",
            run: |state| Box::pin(crate::applications::purge_stale_drafts(state)),
        },
        Task {
            name: "close-rounds",
            run: |state| Box::pin(crate::investing::rounds::close_rounds(state)),
        },
        Task {
            name: "closing-soon-mails",
            run: |state| Box::pin(crate::notifications::schedule::closing_soon(state)),
        },
        Task {
            name: "kvkk-archive",
            run: |state| Box::pin(crate::accounts::profile::deletion::expire_archive(state)),
        },
        Task {
            name: "fund-use-reports",
            run: |state| Box::pin(crate::campaigns::remind_fund_use(state)),
        },
        Task {
            name: "mail-purge-sent-bodies",
            run: |state| Box::pin(crate::mail::purge_sent_bodies(state.db(), state.now())),
        },
        Task {
            name: "newsletter",
            run: |state| Box::pin(crate::newsletter::purge(state)),
        },
        Task {
            name: "overdue-reports",
            run: |state| Box::pin(crate::startups::reports::remind_overdue(state)),
        },
        Task {
            name: "payment-deadlines",
            run: |state| Box::pin(crate::investing::rounds::payment_deadlines(state)),
        },
        Task {
            name: "rate-limits",
            run: |state| Box::pin(purge_rate_limits(state)),
        },
        Task {
            name: "reconcile-payments",
            run: |state| Box::pin(crate::payments::reconcile::reconcile_payments(state)),
        },
        Task {
            name: "settle-refunds",
            run: |state| Box::pin(crate::payments::refunds::settle_refunds(state)),
        },
        Task {
            name: "upload-temp-files",
            run: |state| Box::pin(purge_temp_files(state)),
        },
        Task {
            name: "weekly-digest",
            run: |state| Box::pin(crate::notifications::schedule::weekly_digest(state)),
        },
    ]
}

/// Deletes the rate-limit counters whose window ended.
async fn purge_rate_limits(state: &AppState) -> anyhow::Result<()> {
    crate::db::rate_limits::purge(state.db(), state.now()).await?;
    Ok(())
}

/// Deletes uploads a crash left in the data folder's `tmp`.
async fn purge_temp_files(state: &AppState) -> anyhow::Result<()> {
    crate::web::upload::purge_temp_files(&state.shared().data_dir).await?;
    Ok(())
}

/// `SIGUSR1`, which runs a round of the jobs at once. Taken before the server says it listens:
/// until then the signal's default action would end the process.
pub fn run_now_signal() -> Option<Signal> {
    signal(SignalKind::user_defined1())
        .inspect_err(|e| tracing::warn!(error = %e, "SIGUSR1 will not run the jobs"))
        .ok()
}

/// Runs every task once per `interval`, and at once on `SIGUSR1` (an operator who fixed
/// something; tests, instead of waiting for the timer), forever; a failing task is logged and
/// retried next round. `ortak_job_rounds_total` counts the rounds run whole.
pub async fn run(state: AppState, interval: Duration, mut now: Option<Signal>) {
    let tasks = tasks();
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticker.tick() => {}
            Some(()) = async {
                match now.as_mut() {
                    Some(signal) => signal.recv().await,
                    None => std::future::pending().await,
                }
            } => {}
        }
        let shared_commits = crate::db::writes::shared_commits();
        for task in &tasks {
            let outcome = match (task.run)(&state).await {
                Ok(()) => "ok",
                Err(e) => {
                    tracing::error!(task = task.name, error = %e, "background job failed");
                    "failed"
                }
            };
            metrics::counter!("ortak_job_runs_total", "task" => task.name, "outcome" => outcome)
                .increment(1);
        }
        crate::db::writes::settle(shared_commits);
        metrics::counter!("ortak_job_rounds_total").increment(1);
    }
}
