//! `/faq`: questions and answers, each a native disclosure (works without JavaScript).

use leptos::prelude::*;

use crate::markdown;
use crate::shell::{Page, PageContext};

pub struct FaqItem {
    pub question: String,
    pub answer_markdown: String,
}

pub fn faq_page(ctx: &PageContext, items: Vec<FaqItem>) -> Page {
    let questions: Vec<_> = items
        .iter()
        .map(|item| {
            serde_json::json!({
                "@type": "Question",
                "name": item.question,
                "acceptedAnswer": { "@type": "Answer", "text": markdown::render(&item.answer_markdown) },
            })
        })
        .collect();
    let list = items
        .into_iter()
        .map(|item| {
            let html = markdown::render(&item.answer_markdown);
            view! {
                <details class="faq__item">
                    <summary>{item.question}</summary>
                    <div class="prose" inner_html=html></div>
                </details>
            }
        })
        .collect_view();
    let body = view! {
        <section class="faq">
            <header class="prose__header">
                <h1>{ctx.t("faq-title")}</h1>
                <p class="lead">{ctx.t("faq-description")}</p>
            </header>
            {list}
        </section>
    }
    .into_any();
    let mut page = Page::new(ctx.t("faq-title"), ctx.t("faq-description"), body);
    page.json_ld = Some(serde_json::json!({
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "inLanguage": ctx.locale.code(),
        "mainEntity": questions,
    }));
    page
}
