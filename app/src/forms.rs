//! The one form path: field errors as Fluent ids, and the components that render a field
//! with its label, the value the user typed, and its error.

use leptos::prelude::*;

use crate::shell::PageContext;

/// Errors by field name, each a Fluent message id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldErrors(Vec<(&'static str, &'static str)>);

impl FieldErrors {
    pub fn add(&mut self, field: &'static str, message_id: &'static str) {
        if self.get(field).is_none() {
            self.0.push((field, message_id));
        }
    }

    pub fn get(&self, field: &str) -> Option<&'static str> {
        self.0.iter().find(|(f, _)| *f == field).map(|(_, m)| *m)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Records `result`'s error under `field`, returning its value.
    pub fn check<T, E>(
        &mut self,
        field: &'static str,
        result: Result<T, E>,
        id: impl Fn(E) -> &'static str,
    ) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.add(field, id(e));
                None
            }
        }
    }
}

/// A localized status line shown above a form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Success(String),
    Error(String),
}

pub fn notice_view(notice: Option<Notice>) -> impl IntoView {
    notice.map(|notice| match notice {
        Notice::Success(text) => {
            view! { <div class="flash flash--success" role="status">{text}</div> }.into_any()
        }
        Notice::Error(text) => {
            view! { <div class="flash flash--error" role="alert">{text}</div> }.into_any()
        }
    })
}

/// The hidden CSRF field every form carries.
/// A `<textarea>`'s content, escaped. tachys writes textarea children raw (as for `<script>`),
/// so a value holding `</textarea>` would otherwise end the element and inject markup; the
/// browser decodes the entities back (RCDATA).
pub fn textarea_text(value: &str) -> String {
    value.replace('&', "&amp;").replace('<', "&lt;")
}

pub fn csrf_field(ctx: &PageContext) -> impl IntoView + use<> {
    view! { <input type="hidden" name="csrf" value=ctx.csrf.to_owned() /> }
}

/// A field's error message, with the id its control's `aria-describedby` names.
pub fn error_view(ctx: &PageContext, name: &str, error: Option<&str>) -> impl IntoView + use<> {
    let id = format!("{name}-error");
    error.map(|e| view! { <p class="field__error" id=id>{ctx.t(e)}</p> })
}

/// A labelled `<input>` keeping `value` and showing `errors`' message for `name`.
pub fn input(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    label_id: &str,
    kind: &'static str,
    value: &str,
    autocomplete: &'static str,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let described = error.map(|_| format!("{name}-error"));
    // Passwords are never sent back to the browser.
    let value = if kind == "password" {
        String::new()
    } else {
        value.to_owned()
    };
    view! {
        <div class="field">
            <label class="field__label" for=name>{ctx.t(label_id)}</label>
            <input
                class="input"
                id=name
                name=name
                type=kind
                value=value
                autocomplete=autocomplete
                aria-invalid=error.map(|_| "true")
                aria-describedby=described
            />
            {error_view(ctx, name, error)}
        </div>
    }
}

/// A labelled `<select>` of `(value, Fluent id)` options.
pub fn select(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    label_id: &str,
    options: &[(&'static str, &'static str)],
    selected: &str,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let described = error.map(|_| format!("{name}-error"));
    let choose = ctx.t("form-choose");
    let options = options
        .iter()
        .map(|(value, label)| {
            view! { <option value=*value selected=*value == selected>{ctx.t(label)}</option> }
        })
        .collect_view();
    view! {
        <div class="field">
            <label class="field__label" for=name>{ctx.t(label_id)}</label>
            <select class="input" id=name name=name aria-invalid=error.map(|_| "true") aria-describedby=described>
                <option value="">{choose}</option>
                {options}
            </select>
            {error_view(ctx, name, error)}
        </div>
    }
}

/// A checkbox whose label is `label` (may contain links).
pub fn checkbox(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    label: AnyView,
    checked: bool,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let described = error.map(|_| format!("{name}-error"));
    view! {
        <div class="field field--check">
            <input
                type="checkbox"
                id=name
                name=name
                value="on"
                checked=checked
                aria-invalid=error.map(|_| "true")
                aria-describedby=described
            />
            <label for=name>{label}</label>
            {error_view(ctx, name, error)}
        </div>
    }
}

/// A summary at the top of a refused form, so screen readers hear that something is wrong.
pub fn error_summary(ctx: &PageContext, errors: &FieldErrors) -> impl IntoView + use<> {
    (!errors.is_empty()).then(|| {
        view! { <div class="flash flash--error" role="alert">{ctx.t("form-has-errors")}</div> }
    })
}

/// A fieldset of radio buttons (`type_` = "radio") or checkboxes ("checkbox") named `name`,
/// with `(value, Fluent id)` options; `selected` holds the checked values.
pub fn choice_group(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    legend_id: &str,
    type_: &'static str,
    options: &[(&'static str, String)],
    selected: &[&str],
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let described = error.map(|_| format!("{name}-error"));
    let items = options
        .iter()
        .map(|(value, label_id)| {
            let id = format!("{name}-{value}");
            // The label wraps its input, which labels it: no `for` needed.
            view! {
                <label class="choice">
                    <input type=type_ id=id name=name value=*value checked=selected.contains(value) />
                    <span>{ctx.t(label_id)}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="fieldset" aria-invalid=error.map(|_| "true") aria-describedby=described>
            <legend>{ctx.t(legend_id)}</legend>
            <div class="choices">{items}</div>
            {error_view(ctx, name, error)}
        </fieldset>
    }
}
