//! iyzico's request bodies (fields in the official clients' order, amounts as decimal strings)
//! and a reader for its answers that keeps each JSON number's own text, so amounts are compared
//! and signed exactly as sent, never through a float. The card's fields live only in
//! [`PaymentCard`], which has no `Debug` and is never logged.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::sign::{amount_kurus, signed_amount};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeRequest<'a> {
    pub locale: &'a str,
    pub conversation_id: &'a str,
    pub price: String,
    pub paid_price: String,
    pub currency: &'a str,
    pub installment: u8,
    pub basket_id: String,
    pub payment_channel: &'a str,
    pub payment_group: &'a str,
    pub callback_url: &'a str,
    pub payment_card: PaymentCard<'a>,
    pub buyer: Buyer<'a>,
    pub billing_address: Address<'a>,
    pub basket_items: [BasketItem<'a>; 1],
}

/// The card, passed through to iyzico. No `Debug`: it must never reach a log.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentCard<'a> {
    pub card_holder_name: &'a str,
    pub card_number: &'a str,
    pub expire_month: String,
    pub expire_year: String,
    pub cvc: &'a str,
    pub register_card: u8,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Buyer<'a> {
    pub id: String,
    pub name: &'a str,
    pub surname: &'a str,
    pub identity_number: &'a str,
    pub email: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub gsm_number: &'a str,
    pub registration_address: &'a str,
    pub ip: &'a str,
    pub city: &'a str,
    pub country: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registration_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_login_date: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Address<'a> {
    pub contact_name: String,
    pub city: &'a str,
    pub country: &'a str,
    pub address: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BasketItem<'a> {
    pub id: String,
    pub name: &'a str,
    pub category1: &'a str,
    pub item_type: &'a str,
    pub price: String,
}

/// `/payment/v2/3dsecure/auth`: iyzico itself refuses it when the amount, basket or currency
/// differ from the initialize call's.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthRequest<'a> {
    pub locale: &'a str,
    pub conversation_id: &'a str,
    pub payment_id: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub conversation_data: &'a str,
    pub paid_price: String,
    pub basket_id: String,
    pub currency: &'a str,
}

/// `/payment/detail`, by iyzico's payment id or, before we know it, by our conversation id.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RetrieveRequest<'a> {
    pub locale: &'a str,
    pub conversation_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_conversation_id: Option<&'a str>,
}

/// `/v2/payment/refund`: an amount of a payment, by iyzico's payment id.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefundRequest<'a> {
    pub locale: &'a str,
    pub conversation_id: &'a str,
    pub payment_id: &'a str,
    pub price: String,
    pub ip: &'a str,
}

#[cfg(test)]
/// The raw JSON text of a top-level field of `json` (a number exactly as written).
pub fn raw_field(json: &str, key: &str) -> Option<String> {
    let fields: BTreeMap<String, &RawValue> = serde_json::from_str(json).ok()?;
    fields.get(key).map(|raw| raw.get().to_owned())
}

/// An amount nested inside an answer, in whole kuruş. A JSON number prints back as the
/// shortest text that reads as the same number, which is the decimal iyzico wrote.
pub fn nested_kurus(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => amount_kurus(&n.to_string()),
        Value::String(s) => amount_kurus(s),
        _ => None,
    }
}

/// One of iyzico's answers.
pub struct Answer {
    json: Value,
    raw: BTreeMap<String, Box<RawValue>>,
}

impl Answer {
    /// `None` when the body is not a JSON object (an outcome we cannot know).
    pub fn parse(body: &str) -> Option<Answer> {
        let json: Value = serde_json::from_str(body).ok()?;
        let raw = serde_json::from_str(body).ok()?;
        json.is_object().then_some(Answer { json, raw })
    }

    pub fn success(&self) -> bool {
        self.json["status"] == "success"
    }

    /// The whole answer, for the reporting service's nested records (read their amounts with
    /// [`nested_kurus`]).
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// A field as text: strings as they are, numbers as written, nothing as "".
    pub fn text(&self, key: &str) -> String {
        match &self.json[key] {
            Value::String(s) => s.clone(),
            Value::Number(_) | Value::Bool(_) => self
                .raw
                .get(key)
                .map(|r| r.get().to_owned())
                .unwrap_or_default(),
            _ => String::new(),
        }
    }

    /// An amount as iyzico signs it (no trailing zeros).
    pub fn amount_text(&self, key: &str) -> String {
        signed_amount(&self.text(key))
    }

    /// An amount in whole kuruş, when it is one.
    pub fn amount(&self, key: &str) -> Option<i64> {
        amount_kurus(&self.text(key))
    }

    /// What the log keeps of an answer: the outcome and ids, never page contents or card data.
    pub fn summary(&self) -> Value {
        const KEPT: [&str; 16] = [
            "status",
            "errorCode",
            "errorMessage",
            "errorGroup",
            "conversationId",
            "paymentId",
            "paymentStatus",
            "mdStatus",
            "fraudStatus",
            "basketId",
            "price",
            "paidPrice",
            "currency",
            "cardAssociation",
            "lastFourDigits",
            "refundHostReference",
        ];
        let mut kept = serde_json::Map::new();
        for key in KEPT {
            if !self.json[key].is_null() {
                kept.insert(key.to_owned(), self.json[key].clone());
            }
        }
        kept.insert(
            "signed".to_owned(),
            Value::Bool(self.json["signature"].is_string()),
        );
        Value::Object(kept)
    }
}

/// A request body fit for the log: the card cut to its last four digits, the CVC and the
/// buyer's personal data hidden.
pub fn redacted(body: &str) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match (key.as_str(), &v) {
                        ("cardNumber", Value::String(n)) => {
                            *v = Value::String(format!("****{}", &n[n.len().saturating_sub(4)..]));
                        }
                        (
                            "cvc"
                            | "identityNumber"
                            | "gsmNumber"
                            | "email"
                            | "cardHolderName"
                            | "contactName"
                            | "name"
                            | "surname"
                            | "registrationAddress"
                            | "address"
                            | "conversationData",
                            _,
                        ) => *v = Value::String("***".into()),
                        _ => walk(v),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    let mut value: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    walk(&mut value);
    value
}

#[cfg(test)]
mod tests {
    use super::super::sign::format_price;
    use super::*;

    fn vector(name: &str) -> Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/iyzico/signature-vectors.json"
        );
        let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        all["authorization"]["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"].as_str().unwrap().starts_with(name))
            .unwrap()
            .clone()
    }

    /// Our serializer writes the very body the official client's vector signs, so the
    /// signature the unit test in `sign` checks is the one our calls carry.
    #[test]
    fn bodies_are_the_ones_the_vectors_sign() {
        let body = serde_json::to_string(&InitializeRequest {
            locale: "tr",
            conversation_id: "ortak-pay-42",
            price: format_price(15_000),
            paid_price: format_price(15_000),
            currency: "TRY",
            installment: 1,
            basket_id: "ortak-request-7".into(),
            payment_channel: "WEB",
            payment_group: "PRODUCT",
            callback_url: "https://ortak.example/payments/iyzico/callback",
            payment_card: PaymentCard {
                card_holder_name: "Deniz Aksoy",
                card_number: "5528790000000008",
                expire_month: "12".into(),
                expire_year: "2030".into(),
                cvc: "123",
                register_card: 0,
            },
            buyer: Buyer {
                id: "17".into(),
                name: "Deniz",
                surname: "Aksoy",
                identity_number: "74300864791",
                email: "deniz@example.com",
                gsm_number: "+905350000000",
                registration_address: "Nidakule Göztepe, Merdivenköy Mah. Bora Sok. No:1",
                ip: "85.34.78.112",
                city: "İstanbul",
                country: "Türkiye",
                registration_date: None,
                last_login_date: None,
            },
            billing_address: Address {
                contact_name: "Deniz Aksoy".into(),
                city: "İstanbul",
                country: "Türkiye",
                address: "Nidakule Göztepe, Merdivenköy Mah. Bora Sok. No:1",
            },
            basket_items: [BasketItem {
                id: "fee-7".into(),
                name: "Hizmet bedeli",
                category1: "Hizmet",
                item_type: "VIRTUAL",
                price: format_price(15_000),
            }],
        })
        .unwrap();
        assert_eq!(body, vector("3-D Secure initialize")["body"]);

        let auth = serde_json::to_string(&AuthRequest {
            locale: "tr",
            conversation_id: "ortak-pay-42",
            payment_id: "25050014",
            conversation_data: "K0GgpXa1w2lhRSKzwg1J5/o01b47OPkY",
            paid_price: format_price(15_000),
            basket_id: "ortak-request-7".into(),
            currency: "TRY",
        })
        .unwrap();
        assert_eq!(auth, vector("3-D Secure auth v2")["body"]);

        let refund = serde_json::to_string(&RefundRequest {
            locale: "tr",
            conversation_id: "ortak-refund-3",
            payment_id: "25050014",
            price: format_price(7_550),
            ip: "85.34.78.112",
        })
        .unwrap();
        assert_eq!(refund, vector("refund by payment id")["body"]);

        // The log's copy keeps the last four digits only, and none of the buyer's data.
        let logged = redacted(&body).to_string();
        for secret in [
            "5528790000000008",
            "\"123\"",
            "74300864791",
            "deniz@example.com",
            "+905350000000",
        ] {
            assert!(!logged.contains(secret), "{secret} in {logged}");
        }
        assert!(logged.contains("****0008"));
    }

    #[test]
    fn answers_keep_each_numbers_text() {
        let a = Answer::parse(r#"{"status":"success","price":150.0,"paidPrice":0.33000000,"paymentId":"9","mdStatus":1}"#)
            .unwrap();
        assert!(a.success());
        assert_eq!(a.text("price"), "150.0");
        assert_eq!(a.amount_text("price"), "150");
        assert_eq!(a.amount("paidPrice"), Some(33));
        assert_eq!(a.text("mdStatus"), "1");
        assert_eq!(a.text("missing"), "");
        assert!(Answer::parse("<html>bad gateway</html>").is_none());
        assert!(Answer::parse("[1]").is_none());
    }
}
