//! `POST /api/investmentRequests`: the amount island's submit. Its body is read leniently, as
//! the API always has (see `openapi/ortak.yaml`): a field of the wrong type counts as missing,
//! so the answer is the same field error or 404 a person would get, never a parse failure.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

use super::requests::{Outcome, RequestInput, blocked, create};
use crate::error::AppError;
use crate::startups::published_card;
use crate::web::form::JsonBody;
use crate::web::{Ctx, Member};

/// Text, or "" for any other JSON value.
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => s,
        _ => String::new(),
    })
}

/// `true`, or false for any other JSON value.
fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Value::deserialize(d)? == Value::Bool(true))
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Fields {
    #[serde(deserialize_with = "text")]
    startup: String,
    #[serde(deserialize_with = "text")]
    amount: String,
    #[serde(deserialize_with = "flag")]
    fee_added: bool,
    #[serde(deserialize_with = "flag")]
    risk: bool,
    #[serde(deserialize_with = "text")]
    idempotency_key: String,
}

/// The island's request. Any JSON is accepted: what is not an object has no fields.
pub struct ApiRequest(Fields);

impl<'de> Deserialize<'de> for ApiRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        // An object's fields deserialize whatever their types (see `text` and `flag`).
        let fields = match value {
            Value::Object(_) => Fields::deserialize(value).map_err(serde::de::Error::custom)?,
            _ => Fields::default(),
        };
        Ok(ApiRequest(fields))
    }
}

impl From<Fields> for RequestInput {
    fn from(f: Fields) -> RequestInput {
        let on = |set: bool| set.then(|| "on".to_owned());
        RequestInput {
            startup: f.startup,
            amount: f.amount,
            quick: String::new(),
            fee_added: on(f.fee_added),
            risk: on(f.risk),
            idempotency_key: f.idempotency_key,
        }
    }
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, Json(body)).into_response()
}

pub async fn submit_json(
    ctx: Ctx,
    Member(user): Member,
    JsonBody(ApiRequest(fields)): JsonBody<ApiRequest>,
) -> Result<Response, AppError> {
    let input = RequestInput::from(fields);
    let row = published_card(&ctx, &input.startup).await?;
    if let Some(blocked) = blocked(&ctx, &user, &row).await? {
        let message = blocked.message;
        return Ok(answer(
            blocked.status,
            json!({ "ok": false, "message": message }),
        ));
    }
    Ok(match create(&ctx, &user, &row, &input).await? {
        Outcome::Created => answer(
            StatusCode::CREATED,
            json!({ "ok": true, "message": ctx.t("investment-created"), "pending": "/pendingInvestments" }),
        ),
        Outcome::Invalid(errors, _) => {
            let errors: serde_json::Map<String, Value> = ["amount", "risk"]
                .iter()
                .filter_map(|f| errors.get(f).map(|m| ((*f).to_owned(), ctx.t(m).into())))
                .collect();
            answer(
                StatusCode::UNPROCESSABLE_ENTITY,
                json!({ "ok": false, "errors": errors }),
            )
        }
    })
}
