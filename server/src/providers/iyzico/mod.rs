//! The iyzico adapter: 3-D Secure payments and refunds through iyzico's API (docs/notes/iyzico.md
//! has the protocol with its sources). Every call is a JSON POST signed with `IYZWSv2` over the
//! exact bytes sent (the reporting service's GETs sign the path alone), names our payment
//! (`conversationId`) and request (`basketId`), and is logged with the HTTP request id: the body with the card cut to its last four digits and the
//! buyer's data hidden, the answer's outcome and ids only. A call that times out or answers
//! something we cannot trust is an unknown outcome, resolved by retrieval, never by repeating
//! the charge.

mod answers;
pub mod sign;
mod wire;

use std::time::{Duration, Instant};

use anyhow::Context;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use serde::Serialize;
use time::OffsetDateTime;
use time::macros::format_description;

use self::answers::{CURRENCY, basket_id};
use self::wire::{Answer, AuthRequest, InitializeRequest, RefundRequest, RetrieveRequest};
use super::payments::{
    Charge, FailKind, PaymentProvider, PaymentRef, ProviderFuture, RefundOutcome, RefundRecord,
    Refusal, StartPayment, Started, VerifiedCallback,
};
use crate::settings::{PaymentSettings, Secret};

pub const INITIALIZE: &str = "/payment/3dsecure/initialize";
pub const AUTH: &str = "/payment/v2/3dsecure/auth";
pub const RETRIEVE: &str = "/payment/detail";
pub const REFUND: &str = "/v2/payment/refund";
/// The reporting service: a payment's refunds, read back after a refund's answer was lost.
pub const PAYMENT_DETAILS: &str = "/v2/reporting/payment/details";

pub struct Iyzico {
    http: reqwest::Client,
    api_key: Secret,
    secret_key: Secret,
    /// Scheme, host and port, without a trailing slash (a path would be signed twice).
    base_url: String,
}

/// Why a call gave no answer we can read.
enum Trouble {
    Timeout,
    Unreachable(String),
    NotJson(u16),
}

impl Trouble {
    fn text(&self) -> String {
        match self {
            Trouble::Timeout => "no answer in time".into(),
            Trouble::Unreachable(e) => format!("unreachable: {e}"),
            Trouble::NotJson(status) => format!("HTTP {status} without a JSON answer"),
        }
    }

    fn refusal(&self) -> Refusal {
        let kind = match self {
            Trouble::Timeout => FailKind::Timeout,
            _ => FailKind::Provider,
        };
        Refusal::new(kind, format!("iyzico {}", self.text()))
    }
}

fn required(value: &Option<Secret>, name: &str) -> anyhow::Result<Secret> {
    value
        .as_ref()
        .map(|v| v.expose().trim())
        .filter(|v| !v.is_empty())
        .map(Secret::from)
        .with_context(|| format!("ORTAK_PAYMENT_PROVIDER=iyzico needs {name}"))
}

/// iyzico's date format (`yyyy-MM-dd HH:mm:ss`).
fn date(at: OffsetDateTime) -> Option<String> {
    at.format(format_description!(
        "[year]-[month]-[day] [hour]:[minute]:[second]"
    ))
    .ok()
}

impl Iyzico {
    pub fn new(settings: &PaymentSettings) -> anyhow::Result<Iyzico> {
        let api_key = required(&settings.iyzico_api_key, "ORTAK_IYZICO_API_KEY")?;
        let secret_key = required(&settings.iyzico_secret_key, "ORTAK_IYZICO_SECRET_KEY")?;
        let base_url = settings.iyzico_base_url.trim().trim_end_matches('/');
        let parsed = reqwest::Url::parse(base_url).context("ORTAK_IYZICO_BASE_URL")?;
        anyhow::ensure!(
            matches!(parsed.scheme(), "https" | "http") && parsed.path() == "/",
            "ORTAK_IYZICO_BASE_URL must be an origin such as https://api.iyzipay.com"
        );
        let timeout = Duration::from_secs(settings.iyzico_timeout_seconds.max(1));
        Ok(Iyzico {
            http: reqwest::Client::builder()
                .timeout(timeout)
                .connect_timeout(timeout.min(Duration::from_secs(10)))
                .build()?,
            api_key,
            secret_key,
            base_url: base_url.to_owned(),
        })
    }

    /// One signed JSON POST; its request (redacted) and answer (summarised) go to the log.
    async fn call<T: Serialize>(
        &self,
        path: &'static str,
        request: &T,
        log_id: &str,
    ) -> Result<Answer, Trouble> {
        let body =
            serde_json::to_string(request).map_err(|e| Trouble::Unreachable(e.to_string()))?;
        tracing::info!(request_id = log_id, provider = "iyzico", call = path, request = %wire::redacted(&body), "payment provider call");
        let request = self
            .http
            .post(format!("{}{path}", self.base_url))
            .header(CONTENT_TYPE, "application/json");
        self.exchange(request, path, body, log_id).await
    }

    /// One signed GET of a reporting service (`query` is not signed: iyzico signs the path).
    async fn report(
        &self,
        path: &'static str,
        query: &[(&str, &str)],
        log_id: &str,
    ) -> Result<Answer, Trouble> {
        tracing::info!(request_id = log_id, provider = "iyzico", call = path, query = ?query, "payment provider call");
        let request = self
            .http
            .get(format!("{}{path}", self.base_url))
            .query(query);
        self.exchange(request, path, String::new(), log_id).await
    }

    /// Signs and sends `request` (to `path`, with `body`) and reads the answer.
    async fn exchange(
        &self,
        request: reqwest::RequestBuilder,
        path: &'static str,
        body: String,
        log_id: &str,
    ) -> Result<Answer, Trouble> {
        let random_key = sign::random_key();
        let authorization = sign::authorization(
            self.api_key.expose(),
            self.secret_key.expose(),
            &random_key,
            path,
            &body,
        );
        let started = Instant::now();
        let sent = request
            .header(AUTHORIZATION, authorization)
            .header("x-iyzi-rnd", &random_key)
            .header("x-iyzi-client-version", "ortak")
            .header(ACCEPT, "application/json")
            .body(body)
            .send()
            .await;
        let ms = started.elapsed().as_millis() as u64;
        let answer = match sent {
            Ok(response) => {
                let status = response.status().as_u16();
                match response.text().await {
                    Ok(text) => Answer::parse(&text).ok_or(Trouble::NotJson(status)),
                    Err(e) if e.is_timeout() => Err(Trouble::Timeout),
                    Err(e) => Err(Trouble::Unreachable(e.to_string())),
                }
            }
            Err(e) if e.is_timeout() => Err(Trouble::Timeout),
            Err(e) => Err(Trouble::Unreachable(e.without_url().to_string())),
        };
        match &answer {
            Ok(a) => {
                tracing::info!(request_id = log_id, provider = "iyzico", call = path, ms, answer = %a.summary(), "payment provider answer");
            }
            Err(trouble) => {
                tracing::warn!(request_id = log_id, provider = "iyzico", call = path, ms, error = %trouble.text(), "payment provider gave no answer");
            }
        }
        answer
    }

    fn initialize_request<'a>(p: &'a StartPayment<'a>) -> InitializeRequest<'a> {
        let (b, r, card) = (p.buyer, &p.payment, p.card);
        let price = sign::format_price(r.amount.kurus());
        let english = r.locale.code() == "en";
        InitializeRequest {
            locale: r.locale.code(),
            conversation_id: r.payment,
            price: price.clone(),
            paid_price: price.clone(),
            currency: CURRENCY,
            installment: 1,
            basket_id: basket_id(r.request_id),
            payment_channel: "WEB",
            payment_group: "PRODUCT",
            callback_url: p.callback_url,
            payment_card: wire::PaymentCard {
                card_holder_name: &card.holder,
                card_number: &card.number,
                expire_month: format!("{:02}", card.month),
                expire_year: card.year.to_string(),
                cvc: &card.cvv,
                register_card: 0,
            },
            buyer: wire::Buyer {
                id: b.user_id.to_string(),
                name: &b.first_name,
                surname: &b.last_name,
                identity_number: &b.identity_number,
                email: &b.email,
                gsm_number: &b.phone,
                registration_address: &b.address,
                ip: &b.ip,
                city: &b.city,
                country: &b.country,
                registration_date: date(b.registered_at),
                last_login_date: b.last_sign_in_at.and_then(date),
            },
            billing_address: wire::Address {
                contact_name: format!("{} {}", b.first_name, b.last_name),
                city: &b.city,
                country: &b.country,
                address: &b.address,
            },
            basket_items: [wire::BasketItem {
                id: format!("fee-{}", r.request_id),
                name: if english {
                    "Service fee"
                } else {
                    "Hizmet bedeli"
                },
                category1: if english { "Service" } else { "Hizmet" },
                item_type: "VIRTUAL",
                price,
            }],
        }
    }
}

impl PaymentProvider for Iyzico {
    fn name(&self) -> &'static str {
        "iyzico"
    }

    fn start<'a>(&'a self, p: &'a StartPayment<'a>) -> ProviderFuture<'a, Started> {
        Box::pin(async move {
            let request = Self::initialize_request(p);
            match self.call(INITIALIZE, &request, p.payment.log_id).await {
                Ok(a) => answers::started(&a, self.secret_key.expose(), p.payment),
                // Nothing can be charged without our auth call, so a lost answer is a failure.
                Err(trouble) => Started::Refused(trouble.refusal()),
            }
        })
    }

    fn verify_callback(&self, fields: &[(String, String)]) -> Option<VerifiedCallback> {
        let field = |name: &str| {
            let mut found = fields.iter().filter(|(k, _)| k == name);
            match (found.next(), found.next()) {
                (Some((_, v)), None) => Some(v.as_str()),
                (None, None) => Some(""),
                _ => None, // a field posted twice is not iyzico's form
            }
        };
        let values: Vec<&str> = sign::CALLBACK_FIELDS
            .iter()
            .map(|f| field(f))
            .collect::<Option<_>>()?;
        if !sign::verify(self.secret_key.expose(), &values, field("signature")?)
            || values[3].is_empty()
        {
            return None;
        }
        Some(VerifiedCallback {
            provider_payment_id: values[3].to_owned(),
            payment: values[1].to_owned(),
            passed: values[4] == "success" && values[2] == "1",
            md_status: values[2].to_owned(),
            conversation_data: values[0].to_owned(),
        })
    }

    fn complete<'a>(
        &'a self,
        p: PaymentRef<'a>,
        callback: &'a VerifiedCallback,
    ) -> ProviderFuture<'a, Charge> {
        Box::pin(async move {
            let request = AuthRequest {
                locale: p.locale.code(),
                conversation_id: p.payment,
                payment_id: &callback.provider_payment_id,
                conversation_data: &callback.conversation_data,
                paid_price: sign::format_price(p.amount.kurus()),
                basket_id: basket_id(p.request_id),
                currency: CURRENCY,
            };
            match self.call(AUTH, &request, p.log_id).await {
                Ok(a) => answers::charge(&a, self.secret_key.expose(), p, false),
                Err(trouble) => Charge::Unknown(trouble.text()),
            }
        })
    }

    fn retrieve<'a>(&'a self, p: PaymentRef<'a>) -> ProviderFuture<'a, Charge> {
        Box::pin(async move {
            let request = RetrieveRequest {
                locale: p.locale.code(),
                conversation_id: p.payment,
                payment_id: p.provider_payment_id,
                payment_conversation_id: p.provider_payment_id.is_none().then_some(p.payment),
            };
            match self.call(RETRIEVE, &request, p.log_id).await {
                Ok(a) => answers::charge(&a, self.secret_key.expose(), p, true),
                Err(trouble) => Charge::Unknown(trouble.text()),
            }
        })
    }

    fn refund<'a>(&'a self, p: PaymentRef<'a>, ip: &'a str) -> ProviderFuture<'a, RefundOutcome> {
        Box::pin(async move {
            let Some(payment_id) = p.provider_payment_id else {
                return RefundOutcome::Refused {
                    code: "no iyzico payment id".into(),
                };
            };
            let request = RefundRequest {
                locale: p.locale.code(),
                conversation_id: p.payment,
                payment_id,
                price: sign::format_price(p.amount.kurus()),
                ip,
            };
            match self.call(REFUND, &request, p.log_id).await {
                Ok(a) => answers::refunded(&a, self.secret_key.expose(), p),
                Err(trouble) => RefundOutcome::Unknown(trouble.text()),
            }
        })
    }

    fn refunds_of<'a>(&'a self, p: PaymentRef<'a>) -> ProviderFuture<'a, RefundRecord> {
        Box::pin(async move {
            let by = match p.provider_payment_id {
                Some(id) => ("paymentId", id),
                None => ("paymentConversationId", p.payment),
            };
            let query = [
                ("locale", p.locale.code()),
                ("conversationId", p.payment),
                by,
            ];
            match self.report(PAYMENT_DETAILS, &query, p.log_id).await {
                Ok(a) => answers::refund_record(&a, p),
                Err(trouble) => RefundRecord::Unknown(trouble.text()),
            }
        })
    }

    fn form_origins(&self) -> Vec<String> {
        vec![self.base_url.clone()]
    }
}
