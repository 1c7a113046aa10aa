//! What iyzico's answers mean for us. HTTP status is not the outcome: the JSON body's `status`
//! is, and a success only counts when its `signature` verifies under our secret and every
//! field it signs (payment, currency, basket, conversation, amounts) is ours.

use base64::Engine;

use super::sign;
use super::wire::{Answer, nested_kurus};
use crate::providers::payments::{
    Charge, FailKind, PaymentRef, RefundOutcome, RefundRecord, Refusal, Started,
};

pub const CURRENCY: &str = "TRY";

/// Our basket id for a request: every call about its fee carries it.
pub fn basket_id(request_id: i64) -> String {
    format!("ortak-request-{request_id}")
}

/// A failure answer as the investor is told it. iyzico says to read bank errors by
/// `errorGroup`; validation errors have none.
pub fn refusal(a: &Answer) -> Refusal {
    let code = a.text("errorCode");
    let group = a.text("errorGroup");
    let kind = match (group.as_str(), code.as_str()) {
        ("NOT_SUFFICIENT_FUNDS", _) => FailKind::InsufficientFunds,
        ("EXPIRED_CARD" | "INVALID_EXPIRE_YEAR_MONTH", _) | ("", "17") => FailKind::ExpiredCard,
        ("INVALID_CVC2" | "INVALID_CVC2_LENGTH" | "CVC2_MAX_ATTEMPT", _) | ("", "15") => {
            FailKind::InvalidCvc
        }
        ("REQUEST_TIMEOUT", _) => FailKind::Timeout,
        ("", "12") => FailKind::Declined,
        ("", _) => FailKind::Provider,
        _ => FailKind::Declined,
    };
    let label = if group.is_empty() {
        format!("iyzico {code}")
    } else {
        format!("iyzico {code} {group}")
    };
    Refusal::new(kind, label)
}

/// The answer to `/payment/3dsecure/initialize`.
pub fn started(a: &Answer, secret: &str, p: PaymentRef<'_>) -> Started {
    if !a.success() {
        return Started::Refused(refusal(a));
    }
    let (payment_id, conversation) = (a.text("paymentId"), a.text("conversationId"));
    let signed = sign::verify(secret, &[&payment_id, &conversation], &a.text("signature"));
    if payment_id.is_empty() || conversation != p.payment || !signed {
        return Started::Refused(Refusal::new(
            FailKind::Provider,
            "iyzico initialize answer not signed for this payment",
        ));
    }
    let html = base64::engine::general_purpose::STANDARD
        .decode(a.text("threeDSHtmlContent"))
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .filter(|html| !html.trim().is_empty());
    match html {
        Some(html) => Started::Page {
            provider_payment_id: payment_id,
            html,
        },
        None => Started::Refused(Refusal::new(
            FailKind::Provider,
            "iyzico sent no 3-D Secure page",
        )),
    }
}

/// The answer to the auth call (`retrieved` false) or to `/payment/detail` (true).
pub fn charge(a: &Answer, secret: &str, p: PaymentRef<'_>, retrieved: bool) -> Charge {
    if !a.success() {
        let r = refusal(a);
        return match (retrieved, a.text("errorCode").as_str()) {
            // iyzico knows no such payment: nothing was ever charged.
            (true, "5087") => Charge::Open {
                provider_state: format!("unknown to iyzico ({})", r.code),
            },
            (true, _) => Charge::Unknown(format!("retrieval refused: {}", r.code)),
            (false, _) => Charge::Failed(r),
        };
    }
    let state = if retrieved {
        a.text("paymentStatus")
    } else {
        "SUCCESS".to_owned()
    };
    match state.as_str() {
        "SUCCESS" => paid(a, secret, p),
        "FAILURE" => Charge::Failed(Refusal::new(FailKind::Declined, "iyzico FAILURE")),
        "" => Charge::Unknown("iyzico gave no payment status".into()),
        other => Charge::Open {
            provider_state: other.to_owned(),
        },
    }
}

/// A success answer counts only when signed and entirely about our payment.
fn paid(a: &Answer, secret: &str, p: PaymentRef<'_>) -> Charge {
    let payment_id = a.text("paymentId");
    let (currency, basket, conversation) = (
        a.text("currency"),
        a.text("basketId"),
        a.text("conversationId"),
    );
    let (paid_price, price) = (a.amount_text("paidPrice"), a.amount_text("price"));
    let values = [
        payment_id.as_str(),
        &currency,
        &basket,
        &conversation,
        &paid_price,
        &price,
    ];
    if !sign::verify(secret, &values, &a.text("signature")) {
        return Charge::Unknown("iyzico's answer is not signed with our key".into());
    }
    let amount = Some(p.amount.kurus());
    let ours = p.provider_payment_id.is_none_or(|id| id == payment_id)
        && currency == CURRENCY
        && basket == basket_id(p.request_id)
        && conversation == p.payment
        && a.amount("price") == amount
        && a.amount("paidPrice") == amount;
    if !ours {
        return Charge::Mismatch(format!(
            "iyzico answered payment {payment_id} basket {basket} conversation {conversation} \
             {paid_price}/{price} {currency}; ours is {} {} {} {}",
            basket_id(p.request_id),
            p.payment,
            sign::format_price(p.amount.kurus()),
            CURRENCY
        ));
    }
    // fraudStatus: 1 approved, 0 under review, -1 refused.
    match a.text("fraudStatus").as_str() {
        "1" => Charge::Paid {
            provider_state: format!("SUCCESS (iyzico payment {payment_id})"),
        },
        "-1" => Charge::Failed(Refusal::new(
            FailKind::Declined,
            "iyzico fraud check refused",
        )),
        other => Charge::Unknown(format!("iyzico fraud status {other:?}")),
    }
}

/// The answer to `/v2/payment/refund`.
pub fn refunded(a: &Answer, secret: &str, p: PaymentRef<'_>) -> RefundOutcome {
    if !a.success() {
        return RefundOutcome::Refused {
            code: refusal(a).code,
        };
    }
    let payment_id = a.text("paymentId");
    let (price, currency, conversation) = (
        a.amount_text("price"),
        a.text("currency"),
        a.text("conversationId"),
    );
    let values = [payment_id.as_str(), &price, &currency, &conversation];
    if !sign::verify(secret, &values, &a.text("signature")) {
        return RefundOutcome::Unknown("iyzico's refund answer is not signed with our key".into());
    }
    if p.provider_payment_id != Some(payment_id.as_str())
        || a.amount("price") != Some(p.amount.kurus())
        || conversation != p.payment
    {
        return RefundOutcome::Unknown(format!(
            "iyzico refunded {price} {currency} of payment {payment_id}, not ours"
        ));
    }
    let host = a.text("refundHostReference");
    RefundOutcome::Refunded {
        reference: if host.is_empty() {
            format!("iyzico refund of payment {payment_id}")
        } else {
            host
        },
    }
}

/// The reporting service's answer about payment `p` (`/v2/reporting/payment/details`): what
/// was refunded of it. Only our payment (conversation id, and iyzico's id once known) in our
/// currency counts; whole means every kuruş of our amount, by refunds or a cancel.
pub fn refund_record(a: &Answer, p: PaymentRef<'_>) -> RefundRecord {
    if !a.success() {
        return RefundRecord::Unknown(format!("iyzico report refused: {}", refusal(a).code));
    }
    let payments = a.json()["payments"].as_array().cloned().unwrap_or_default();
    let id = |pay: &serde_json::Value| match &pay["paymentId"] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let ours = payments.iter().find(|pay| {
        pay["paymentConversationId"] == p.payment
            && p.provider_payment_id.is_none_or(|known| known == id(pay))
    });
    let Some(pay) = ours else {
        return RefundRecord::Unknown("iyzico's report does not list our payment".into());
    };
    if pay["currency"] != CURRENCY || nested_kurus(&pay["paidPrice"]) != Some(p.amount.kurus()) {
        return RefundRecord::Other(format!(
            "iyzico reports payment {} for {} {}, not our amount",
            id(pay),
            pay["paidPrice"],
            pay["currency"]
        ));
    }
    let refunds: Vec<&serde_json::Value> = pay["itemTransactions"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|item| item["refunds"].as_array().into_iter().flatten())
        .chain(pay["cancels"].as_array().into_iter().flatten())
        .collect();
    let given_back: Option<i64> = refunds
        .iter()
        .map(|r| nested_kurus(&r["refundPrice"]))
        .sum();
    let status = pay["paymentRefundStatus"].as_str().unwrap_or("");
    match (status, given_back) {
        ("NOT_REFUNDED", Some(0)) => RefundRecord::NotRefunded,
        ("TOTALLY_REFUNDED", Some(total)) if total == p.amount.kurus() => {
            let host = refunds
                .last()
                .and_then(|r| r["hostReference"].as_str())
                .unwrap_or("");
            RefundRecord::Refunded {
                reference: if host.is_empty() {
                    format!("iyzico refund of payment {}", id(pay))
                } else {
                    host.to_owned()
                },
            }
        }
        (status, total) => RefundRecord::Other(format!(
            "iyzico reports {status} ({} kuruş given back of {})",
            total.map_or("?".into(), |t| t.to_string()),
            p.amount.kurus()
        )),
    }
}

#[cfg(test)]
mod tests {
    use ortak_app::domain::money::Money;
    use ortak_app::i18n::Locale;

    use super::*;

    const SECRET: &str = "unit-secret";

    fn ours() -> PaymentRef<'static> {
        PaymentRef {
            payment: "pay-1",
            provider_payment_id: Some("777"),
            request_id: 7,
            amount: Money::from_kurus(15_000),
            locale: Locale::Tr,
            log_id: "test",
        }
    }

    /// A signed payment answer with these amounts and ids.
    fn answer(payment_id: &str, basket: &str, conversation: &str, amount: &str) -> Answer {
        let values = [payment_id, "TRY", basket, conversation, amount, amount];
        let values: Vec<String> = values.iter().map(|v| sign::signed_amount(v)).collect();
        let refs: Vec<&str> = values.iter().map(String::as_str).collect();
        let signature = sign::signature(SECRET, &refs);
        Answer::parse(&format!(
            r#"{{"status":"success","paymentStatus":"SUCCESS","paymentId":"{payment_id}","currency":"TRY",
               "basketId":"{basket}","conversationId":"{conversation}","price":{amount},
               "paidPrice":{amount},"fraudStatus":1,"signature":"{signature}"}}"#
        ))
        .unwrap()
    }

    #[test]
    fn only_a_signed_answer_about_our_payment_and_amount_is_paid() {
        let good = answer("777", "ortak-request-7", "pay-1", "150.0");
        assert!(matches!(
            charge(&good, SECRET, ours(), false),
            Charge::Paid { .. }
        ));
        assert!(matches!(
            charge(&good, SECRET, ours(), true),
            Charge::Paid { .. }
        ));
        assert!(matches!(
            charge(&good, "another-secret", ours(), false),
            Charge::Unknown(_)
        ));
        for other in [
            answer("778", "ortak-request-7", "pay-1", "150.0"),
            answer("777", "ortak-request-8", "pay-1", "150.0"),
            answer("777", "ortak-request-7", "pay-2", "150.0"),
            answer("777", "ortak-request-7", "pay-1", "1.5"),
            answer("777", "ortak-request-7", "pay-1", "150.01"),
        ] {
            assert!(
                matches!(charge(&other, SECRET, ours(), false), Charge::Mismatch(_)),
                "{}",
                other.summary()
            );
        }
    }

    #[test]
    fn failures_are_read_by_error_group() {
        let a = Answer::parse(
            r#"{"status":"failure","errorCode":"10051","errorGroup":"NOT_SUFFICIENT_FUNDS"}"#,
        )
        .unwrap();
        let Charge::Failed(r) = charge(&a, SECRET, ours(), false) else {
            panic!("a decline is a failure");
        };
        assert_eq!(r.kind, FailKind::InsufficientFunds);
        assert_eq!(r.code, "iyzico 10051 NOT_SUFFICIENT_FUNDS");
        let unknown = Answer::parse(r#"{"status":"failure","errorCode":"5087"}"#).unwrap();
        assert!(matches!(
            charge(&unknown, SECRET, ours(), true),
            Charge::Open { .. }
        ));
        let keys = Answer::parse(r#"{"status":"failure","errorCode":"1001"}"#).unwrap();
        assert_eq!(refusal(&keys).kind, FailKind::Provider);
    }

    fn report(status: &str, refunds: &str, paid: &str) -> Answer {
        Answer::parse(&format!(
            r#"{{"status":"success","payments":[{{"paymentId":777,"paymentConversationId":"pay-1",
               "paymentStatus":1,"paymentRefundStatus":"{status}","paidPrice":{paid},"currency":"TRY",
               "cancels":[],"itemTransactions":[{{"paymentTransactionId":9,"refunds":[{refunds}]}}]}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_lost_refund_is_read_back_from_the_report_for_our_payment_and_amount_only() {
        let whole = r#"{"refundPrice":150.0,"hostReference":"host-1","refundStatus":1}"#;
        let RefundRecord::Refunded { reference } =
            refund_record(&report("TOTALLY_REFUNDED", whole, "150.0"), ours())
        else {
            panic!("our whole amount refunded");
        };
        assert_eq!(reference, "host-1");
        assert!(matches!(
            refund_record(&report("NOT_REFUNDED", "", "150"), ours()),
            RefundRecord::NotRefunded
        ));
        let half = r#"{"refundPrice":75,"hostReference":"h"}"#;
        for other in [
            report("PARTIALLY_REFUNDED", half, "150"),
            report("TOTALLY_REFUNDED", whole, "149.99"),
            report("NOT_REFUNDED", half, "150"),
        ] {
            assert!(matches!(
                refund_record(&other, ours()),
                RefundRecord::Other(_)
            ));
        }
        let mut theirs = ours();
        theirs.payment = "pay-2";
        assert!(matches!(
            refund_record(&report("NOT_REFUNDED", "", "150"), theirs),
            RefundRecord::Unknown(_)
        ));
        let refused = Answer::parse(r#"{"status":"failure","errorCode":"1000"}"#).unwrap();
        assert!(matches!(
            refund_record(&refused, ours()),
            RefundRecord::Unknown(_)
        ));
    }
}
