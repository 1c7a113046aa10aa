//! `/startups/{slug}/questions`: members' questions about a startup and the answers of its
//! founders or its fund's team. Every member reads the thread; askers are not named.

use leptos::prelude::*;

use crate::forms::{FieldErrors, csrf_field, error_view, textarea_text};
use crate::shell::{Page, PageContext};

/// One question as shown, dates already formatted.
pub struct QuestionItem {
    pub id: i64,
    pub body: String,
    pub asked: String,
    pub answer: Option<(String, String)>,
    /// Staff see hidden questions with the reason.
    pub hidden_reason: Option<String>,
    pub mine: bool,
}

/// Which form came back with errors, and what was typed in it.
#[derive(Default)]
pub enum Typed {
    #[default]
    Nothing,
    Question(String),
    Answer(i64, String),
    Hide(i64, String),
    Invite(String),
}

pub struct QuestionsView {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub items: Vec<QuestionItem>,
    /// The viewer answers for the startup: `(investors, raised)` as shown to its team.
    pub team: Option<(i64, String)>,
    pub staff: bool,
    /// For staff: the founders invited so far (addresses).
    pub founders: Option<Vec<String>>,
    pub typed: Typed,
    pub errors: FieldErrors,
}

/// A labelled text area named `name` with the id `id` (one per question on the page).
fn area(
    ctx: &PageContext,
    errors: &FieldErrors,
    (name, id): (&'static str, String),
    label: &str,
    value: &str,
    rows: u8,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let error_id = format!("{id}-error");
    view! {
        <div class="field">
            <label class="field__label" for=id.clone()>{ctx.t(label)}</label>
            <textarea class="input" id=id.clone() name=name rows=rows.to_string()
                aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| error_id.clone())>
                {textarea_text(value)}
            </textarea>
            {error_view(ctx, &id, error)}
        </div>
    }
}

fn item(ctx: &PageContext, v: &QuestionsView, q: &QuestionItem) -> impl IntoView + use<> {
    let none = FieldErrors::default();
    let (answer_errors, answer_typed) = match &v.typed {
        Typed::Answer(id, text) if *id == q.id => (&v.errors, text.as_str()),
        _ => (&none, ""),
    };
    let (hide_errors, hide_typed) = match &v.typed {
        Typed::Hide(id, text) if *id == q.id => (&v.errors, text.as_str()),
        _ => (&none, ""),
    };
    let answer = match &q.answer {
        Some((text, at)) => Some(
            view! {
                <div class="question__answer">
                    <p class="question__meta">{ctx.t("questions-answer")} " · " {at.clone()}</p>
                    <p>{text.clone()}</p>
                </div>
            }
            .into_any(),
        ),
        None if v.team.is_some() && q.hidden_reason.is_none() => Some(
            view! {
                <form class="form" method="post" action=format!("/startups/{}/questions/{}/answer", v.slug, q.id) novalidate>
                    {csrf_field(ctx)}
                    {area(ctx, answer_errors, ("answer", format!("answer-{}", q.id)), "questions-answer-label", answer_typed, 4)}
                    <div class="form__actions">
                        <button class="button button--primary" type="submit">{ctx.t("questions-answer-submit")}</button>
                    </div>
                </form>
            }
            .into_any(),
        ),
        None => Some(view! { <p class="muted">{ctx.t("questions-waiting")}</p> }.into_any()),
    };
    let moderation = match (&q.hidden_reason, v.staff) {
        (Some(reason), _) => Some(
            view! { <p class="flash flash--error">{ctx.t("questions-hidden")} ": " {reason.clone()}</p> }.into_any(),
        ),
        (None, true) => Some(
            view! {
                <form class="form" method="post" action=format!("/dashboard/questions/{}/hide", q.id) novalidate>
                    {csrf_field(ctx)}
                    {area(ctx, hide_errors, ("reason", format!("reason-{}", q.id)), "questions-hide-reason", hide_typed, 2)}
                    <div class="form__actions">
                        <button class="button button--danger" type="submit">{ctx.t("questions-hide")}</button>
                    </div>
                </form>
            }
            .into_any(),
        ),
        (None, false) => None,
    };
    let asker = if q.mine {
        "questions-asked-by-you"
    } else {
        "questions-asked-by-member"
    };
    view! {
        <li class="question stack" id=format!("question-{}", q.id)>
            <p class="question__meta">{ctx.t(asker)} " · " {q.asked.clone()}</p>
            <p class="question__body">{q.body.clone()}</p>
            {answer}
            {moderation}
        </li>
    }
}

/// Staff's panel: the founders invited, and the invitation form.
fn founders_panel(ctx: &PageContext, v: &QuestionsView) -> Option<impl IntoView + use<>> {
    let founders = v.founders.as_ref()?;
    let (errors, typed) = match &v.typed {
        Typed::Invite(text) => (v.errors.clone(), text.clone()),
        _ => (FieldErrors::default(), String::new()),
    };
    let list = founders
        .iter()
        .map(|email| view! { <li>{email.clone()}</li> })
        .collect_view();
    Some(view! {
        <section class="stack" aria-labelledby="founders-title">
            <h2 id="founders-title">{ctx.t("founders-invite-title")}</h2>
            <ul>{list}</ul>
            <form class="form" method="post" action=format!("/dashboard/startups/{}/founders", v.id) novalidate>
                {csrf_field(ctx)}
                {crate::forms::input(ctx, &errors, "founder_email", "founders-invite-label", "email", &typed, "off")}
                <div class="form__actions">
                    <button class="button button--ghost" type="submit">{ctx.t("founders-invite-submit")}</button>
                </div>
            </form>
        </section>
    })
}

pub fn questions_page(ctx: &PageContext, v: &QuestionsView) -> Page {
    let title = ctx
        .locale
        .t_args("questions-title", &[("name", v.name.clone().into())]);
    let team = v.team.as_ref().map(|(investors, raised)| {
        view! {
            <p class="flash flash--success">
                {ctx.t("questions-team")} " "
                {ctx.locale.t_args("questions-team-figures", &[("investors", (*investors).into()), ("raised", raised.clone().into())])}
            </p>
        }
    });
    let typed_question = match &v.typed {
        Typed::Question(text) => text.as_str(),
        _ => "",
    };
    let question_errors = if matches!(v.typed, Typed::Question(_)) {
        v.errors.clone()
    } else {
        FieldErrors::default()
    };
    let items: Vec<_> = v.items.iter().map(|q| item(ctx, v, q)).collect();
    let empty = v
        .items
        .is_empty()
        .then(|| view! { <p class="muted">{ctx.t("questions-none")}</p> });
    let body = view! {
        <section class="questions-page stack">
            <p><a href=format!("/startups/{}", v.slug)>{"← "}{v.name.clone()}</a></p>
            <h1>{title.clone()}</h1>
            <p class="lead">{ctx.t("questions-lead")}</p>
            {team}
            <form class="form" method="post" action=format!("/startups/{}/questions", v.slug) novalidate>
                {csrf_field(ctx)}
                {area(ctx, &question_errors, ("question", "question".to_owned()), "questions-ask-label", typed_question, 4)}
                <div class="form__actions">
                    <button class="button button--primary" type="submit">{ctx.t("questions-ask-submit")}</button>
                </div>
            </form>
            <h2>{ctx.t("questions-thread")}</h2>
            {empty}
            <ol class="questions">{items}</ol>
            {founders_panel(ctx, v)}
        </section>
    }
    .into_any();
    let mut page = Page::new(title, ctx.t("questions-lead"), body);
    page.indexable = false;
    page
}
