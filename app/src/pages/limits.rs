//! `/limits` (public): the yearly investment limit explained before anyone signs up (issue 28),
//! with a calculator that needs no JavaScript: a non-qualified individual may invest the base
//! amount a year, or a share of their declared income up to a cap; the minimum ticket is
//! 100.000 TL, so most individuals need a high declared income or qualified status. A short
//! version stands on every startup's page.

use leptos::prelude::*;

use crate::domain::limits::{LimitRules, income_needed_for};
use crate::domain::money::{MINIMUM_INVESTMENT, Money};
use crate::forms::{FieldErrors, error_view};
use crate::i18n::FluentArg;
use crate::shell::{Page, PageContext};

/// The rule in one sentence, with its figures.
pub fn limit_rule(ctx: &PageContext, rules: &LimitRules) -> String {
    let share = format!("{}", rules.income_share_bp / 100);
    let args = [
        ("base", rules.base.format(ctx.locale).into()),
        ("share", FluentArg::Str(share)),
        ("cap", rules.cap.format(ctx.locale).into()),
        ("minimum", MINIMUM_INVESTMENT.format(ctx.locale).into()),
    ];
    ctx.locale.t_args("limits-rule", &args)
}

/// What it takes to reach the minimum: the income, or qualified status.
fn routes(ctx: &PageContext, rules: &LimitRules) -> String {
    match income_needed_for(rules, MINIMUM_INVESTMENT) {
        Some(income) => {
            let args = [("income", income.format(ctx.locale).into())];
            ctx.locale.t_args("limits-routes", &args)
        }
        None => ctx.t("limits-routes-qualified-only"),
    }
}

/// The startup page's short version: the rule, and a link to the calculator.
pub fn limit_note(ctx: &PageContext, rules: &LimitRules) -> impl IntoView + use<> {
    view! {
        <p class="limit-note">{limit_rule(ctx, rules)} " " <a href="/limits">{ctx.t("limits-calculate")}</a></p>
    }
}

/// What the calculator shows: the income typed, and the limit it gives (or the error).
pub struct Calculation {
    pub typed: String,
    pub limit: Option<Money>,
    pub errors: FieldErrors,
}

pub fn limits_page(ctx: &PageContext, rules: &LimitRules, c: Calculation) -> Page {
    let error = c.errors.get("income");
    let result = c.limit.map(|limit| {
        let args = [("limit", limit.format(ctx.locale).into())];
        let verdict = if limit >= MINIMUM_INVESTMENT {
            ctx.locale.t_args("limits-result-enough", &args)
        } else {
            ctx.locale.t_args("limits-result-short", &args)
        };
        view! { <p class="flash flash--info limits__result" role="status">{verdict}</p> }
    });
    let title = ctx.t("limits-title");
    let body = view! {
        <article class="prose stack limits">
            <h1>{title.clone()}</h1>
            <p class="lead">{limit_rule(ctx, rules)}</p>
            <p>{routes(ctx, rules)}</p>
            <ul>
                <li>{ctx.t("limits-qualified")} " " <a href="/qualifiedInvestor">{ctx.t("limits-qualified-link")}</a></li>
                <li>{ctx.t("limits-corporate")}</li>
                <li>{ctx.t("limits-verified")}</li>
            </ul>
            <section class="card stack" aria-labelledby="limits-calculator">
                <h2 id="limits-calculator">{ctx.t("limits-calculator")}</h2>
                <form class="form" method="get" action="/limits" novalidate>
                    <div class="field">
                        <label class="field__label" for="income">{ctx.t("limits-income")}</label>
                        <input class="input" id="income" name="income" type="text" inputmode="numeric"
                            autocomplete="off" value=c.typed.clone() aria-invalid=error.map(|_| "true")
                            aria-describedby=error.map(|_| "income-error") />
                        {error_view(ctx, "income", error)}
                    </div>
                    <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("limits-calculate-button")}</button></div>
                </form>
                {result}
            </section>
            <p><a class="button button--ghost" href="/signup">{ctx.t("limits-join")}</a></p>
        </article>
    }
    .into_any();
    Page::new(title, ctx.t("limits-description"), body)
}
