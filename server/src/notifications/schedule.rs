//! The scheduled optional mails, queued by background jobs (`crate::jobs`): a saved startup's
//! "closing soon" once per member and startup, and the weekly digest once per member and week.
//! Each is recorded in `scheduled_mails` in the same transaction that queues it, so a restart
//! or a second tick never sends one twice.

use ortak_app::domain::notifications::{MailKind, digest_week};
use ortak_app::domain::rounds::CLOSING_SOON_DAYS;
use ortak_app::i18n::Locale;
use ortak_app::markdown;
use time::Duration;

use super::optional;
use super::queries::{self, DigestItem, Recipient};
use crate::mail::enqueue;
use crate::state::AppState;

/// Tells members who saved a startup that its investment period ends within
/// [`CLOSING_SOON_DAYS`], unless they already sent a request for it.
pub async fn closing_soon(state: &AppState) -> anyhow::Result<()> {
    let (today, now) = (state.today(), state.now());
    let public_url = &state.shared().public_url;
    let mut tx = crate::db::write(state.db()).await?;
    let due =
        queries::closing_soon(&mut tx, today, today + Duration::days(CLOSING_SOON_DAYS)).await?;
    for d in &due {
        let subject = d.startup_id.to_string();
        if !queries::mark_scheduled(&mut tx, d.user_id, MailKind::ClosingSoon, &subject, now)
            .await?
        {
            continue;
        }
        let to = Recipient {
            id: d.user_id,
            email: d.email.clone(),
            first_name: d.first_name.clone(),
            language: d.language,
        };
        let link = format!("{public_url}/startups/{}", d.slug);
        let mail = optional(
            &to,
            MailKind::ClosingSoon,
            "closing-soon",
            &link,
            Some(d.name.clone()),
        );
        enqueue(&mut tx, &mail).await?;
    }
    tx.commit().await?;
    if !due.is_empty() {
        state.wake_mailer();
    }
    Ok(())
}

/// Queues this week's digest for every member who consented to it: the startups published in
/// the last seven days in their sectors and the updates of startups they follow. A week with
/// nothing new for a member is recorded but sends nothing.
pub async fn weekly_digest(state: &AppState) -> anyhow::Result<()> {
    let now = state.now();
    let Some(week) = digest_week(now) else {
        return Ok(());
    };
    let public_url = &state.shared().public_url;
    let mut tx = crate::db::write(state.db()).await?;
    let mut queued = false;
    for to in queries::digest_recipients(&mut tx, &week).await? {
        queries::mark_scheduled(&mut tx, to.id, MailKind::Digest, &week, now).await?;
        let items = queries::digest_items(&mut tx, to.id, now - Duration::days(7)).await?;
        if items.is_empty() {
            continue;
        }
        let list = digest_list(&items, to.language, public_url);
        let link = format!("{public_url}/startups");
        let mail = optional(&to, MailKind::Digest, "weekly-digest", &link, Some(list));
        enqueue(&mut tx, &mail).await?;
        queued = true;
    }
    tx.commit().await?;
    if queued {
        state.wake_mailer();
    }
    Ok(())
}

/// The digest's lines: each new startup with its link, then each update (its text in the
/// member's language, cut at 300 characters).
fn digest_list(items: &[DigestItem], locale: Locale, public_url: &str) -> String {
    items
        .iter()
        .map(|item| {
            let link = format!("{public_url}/startups/{}", item.slug);
            let update = match locale {
                Locale::Tr => item.update_tr.as_deref(),
                Locale::En => item.update_en.as_deref(),
            };
            match update {
                None => format!("• {}: {link}", item.name),
                Some(text) => {
                    // Updates are Markdown: the mail carries their words, not the marks.
                    let text: String = markdown::plain_text(text)
                        .replace("\n\n", " ")
                        .chars()
                        .take(300)
                        .collect();
                    let label = locale.t("mail-digest-update");
                    format!("• {} ({label}): {text}\n  {link}", item.name)
                }
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
