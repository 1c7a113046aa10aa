//! Where an investor is on the way from an amount to a holding, and what happens next: the
//! steps shown at the top of the amount, request, fee and transfer pages.

use leptos::prelude::*;

use crate::shell::PageContext;

/// The investor's steps, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Amount,
    Review,
    Fee,
    Transfer,
    Allocation,
}

const STEPS: [(Step, &str); 5] = [
    (Step::Amount, "amount"),
    (Step::Review, "review"),
    (Step::Fee, "fee"),
    (Step::Transfer, "transfer"),
    (Step::Allocation, "allocation"),
];

/// The steps with `current` marked (those before it done), and what comes after it.
pub fn journey(ctx: &PageContext, current: Step) -> impl IntoView + use<> {
    let items = STEPS
        .iter()
        .enumerate()
        .map(|(i, (step, code))| {
            let class = match step.cmp(&current) {
                std::cmp::Ordering::Less => "journey__step journey__step--done",
                std::cmp::Ordering::Equal => "journey__step journey__step--current",
                std::cmp::Ordering::Greater => "journey__step",
            };
            let aria = (*step == current).then_some("step");
            view! {
                <li class=class aria-current=aria>
                    <span class="journey__num" aria-hidden="true">{i + 1}</span>
                    <span class="journey__label">{ctx.t(&format!("journey-{code}"))}</span>
                </li>
            }
        })
        .collect_view();
    let code = STEPS
        .iter()
        .find(|(s, _)| *s == current)
        .map_or("amount", |(_, c)| c);
    view! {
        <nav class="journey" aria-label=ctx.t("journey-label")>
            <ol>{items}</ol>
            <p class="journey__next"><strong>{ctx.t("journey-next")}</strong> " " {ctx.t(&format!("journey-next-{code}"))}</p>
        </nav>
    }
}
