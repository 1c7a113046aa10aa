//! `/startups/{slug}/questions`: members' questions about a startup and the answers of its
//! founders or its fund's team. Every member reads the thread; askers are not named.

use leptos::prelude::*;

use crate::forms::{FieldErrors, csrf_field, error_view, textarea_text};
use crate::i18n::Locale;
use crate::shell::{Page, PageContext};

/// Who answered a question: their name (empty once their account is gone), and whether they
/// are one of the startup's founders or answered for its fund's team (named).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answerer {
    pub name: String,
    pub founder: bool,
    pub fund: String,
}

impl Answerer {
    /// "Ece Yılmaz, founder", "Ali Kaya, Anadolu Ventures team", in `locale`.
    pub fn label(&self, locale: Locale) -> String {
        let id = match (self.founder, self.name.is_empty()) {
            (true, false) => "questions-by-founder",
            (true, true) => "questions-by-a-founder",
            (false, false) => "questions-by-fund",
            (false, true) => "questions-by-a-fund",
        };
        let args = [
            ("name", self.name.clone().into()),
            ("fund", self.fund.clone().into()),
        ];
        locale.t_args(id, &args)
    }
}

/// One question as shown, dates already formatted.
pub struct QuestionItem {
    pub id: i64,
    pub body: String,
    pub asked: String,
    /// The answer and its date, and who gave it (`None` when their account was removed).
    pub answer: Option<(String, String)>,
    pub answerer: Option<Answerer>,
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
}

pub struct QuestionsView {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub items: Vec<QuestionItem>,
    /// The viewer answers for the startup (one of its founders or its fund's team).
    pub team: bool,
    pub staff: bool,
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
                    <p class="question__meta">
                        {ctx.t("questions-answer")} " · "
                        {q.answerer.as_ref().map(|a| view! { <span class="question__by">{a.label(ctx.locale)}</span>" · " })}
                        {at.clone()}
                    </p>
                    <p>{text.clone()}</p>
                </div>
            }
            .into_any(),
        ),
        None if v.team && q.hidden_reason.is_none() => Some(
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

pub fn questions_page(ctx: &PageContext, v: &QuestionsView) -> Page {
    let title = ctx
        .locale
        .t_args("questions-title", &[("name", v.name.clone().into())]);
    // The team is told it answers here, and where its own area is; the round's figures are
    // on that dashboard, not on a page about members' questions.
    let team = v.team.then(|| {
        view! {
            <p class="flash flash--success">
                {ctx.t("questions-team")} " "
                <a href=format!("/vc-dashboard/startups/{}", v.id)>{ctx.t("questions-team-dashboard")}</a>
            </p>
        }
    });
    // Staff invite founders from the startup's staff page: say where.
    let staff = v.staff.then(|| {
        view! {
            <p class="muted">
                <a href=format!("/dashboard/startups/{}#founder-accounts", v.id)>{ctx.t("questions-invite-founders")}</a>
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
            {staff}
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
        </section>
    }
    .into_any();
    let mut page = Page::new(title, ctx.t("questions-lead"), body);
    page.indexable = false;
    page
}
