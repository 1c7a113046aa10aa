#!/usr/bin/env python3
"""Contract test between iyzico's official Python client (`iyzipay`) and Ortak's iyzico stand-in.

Two halves:

1. Signature vectors. For fixed keys, random key, path and body, the official client's own
   functions compute the IYZWSv2 Authorization header, the response `signature` values and the
   callback signature; the results must equal server/tests/fixtures/iyzico/signature-vectors.json,
   which the Rust adapter's unit test asserts too (the fixture is the bridge between the two).
   `--write-fixture` rewrites the fixture from the official client instead of comparing.

2. The stand-in (end2end/standins/iyzico.mjs) is started and the official client talks to it:
   3-D Secure initialize, the bank step (as a browser would post the forms), the auth call,
   retrieval and both refunds, with success, decline, 3-D Secure failure, initialize failure and
   timeout cards, plus wrong keys. The stand-in must verify every signature the client makes,
   and its answers must pass the official client's own signature checks.

The official client only speaks HTTPS to a host name (`HTTPSConnection(base_url)`); the one
thing patched here is that transport, to plain HTTP on 127.0.0.1. Signing, bodies and paths are
the client's own.

Run from the repository root:  .venv/bin/python scripts/iyzico_contract.py
Exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import hmac
import http.client
import io
import json
import socket
import subprocess
import sys
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from importlib import metadata
from pathlib import Path

try:
    import iyzipay
    from iyzipay.iyzipay_resource import IyzipayResource
except ImportError:  # pragma: no cover - reported, not raised
    sys.stderr.write("iyzico contract: the `iyzipay` package is missing; install scripts/requirements-test.txt\n")
    sys.exit(2)

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "server" / "tests" / "fixtures" / "iyzico" / "signature-vectors.json"
STAND_IN = ROOT / "end2end" / "standins" / "iyzico.mjs"

API_KEY = "sandbox-ortak-contract-api-key"
SECRET_KEY = "sandbox-ortak-contract-secret-key"
HANG_MS = 2500  # the timeout card's auth answer; the client gives up after CLIENT_TIMEOUT
CLIENT_TIMEOUT = 1.0
TIMEOUT_CARD = "4111111111119981"

# ---------------------------------------------------------------------------------------------
# Part 1: the signature vectors. Inputs are fixed here; every expected value is computed by the
# official client (or, where iyzico publishes one, must also equal the published value).

VECTOR_API_KEY = "sandbox-ortak-vector-api-key"
VECTOR_SECRET = "sandbox-ortak-vector-secret-key"


def _compact(obj) -> str:
    # The body exactly as a compact serializer (serde_json) writes it, UTF-8 not escaped.
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


INITIALIZE_BODY = _compact(
    {
        "locale": "tr",
        "conversationId": "ortak-pay-42",
        "price": "150.0",
        "paidPrice": "150.0",
        "currency": "TRY",
        "installment": 1,
        "basketId": "ortak-request-7",
        "paymentChannel": "WEB",
        "paymentGroup": "PRODUCT",
        "callbackUrl": "https://ortak.example/payments/iyzico/callback",
        "paymentCard": {
            "cardHolderName": "Deniz Aksoy",
            "cardNumber": "5528790000000008",
            "expireMonth": "12",
            "expireYear": "2030",
            "cvc": "123",
            "registerCard": 0,
        },
        "buyer": {
            "id": "17",
            "name": "Deniz",
            "surname": "Aksoy",
            "identityNumber": "74300864791",
            "email": "deniz@example.com",
            "gsmNumber": "+905350000000",
            "registrationAddress": "Nidakule Göztepe, Merdivenköy Mah. Bora Sok. No:1",
            "ip": "85.34.78.112",
            "city": "İstanbul",
            "country": "Türkiye",
        },
        "billingAddress": {
            "contactName": "Deniz Aksoy",
            "city": "İstanbul",
            "country": "Türkiye",
            "address": "Nidakule Göztepe, Merdivenköy Mah. Bora Sok. No:1",
        },
        "basketItems": [
            {"id": "fee-7", "name": "Hizmet bedeli", "category1": "Hizmet", "itemType": "VIRTUAL", "price": "150.0"}
        ],
    }
)

AUTH_INPUTS = [
    {
        "name": "iyzipay-node's own unit test vector (test/unit/UtilsTest.js: body 'body' goes through JSON.stringify)",
        "apiKey": "api_key",
        "secretKey": "secret_key",
        "randomKey": "random_string",
        "url": "uri",
        "body": '"body"',
        "published": "IYZWSv2 YXBpS2V5OmFwaV9rZXkmcmFuZG9tS2V5OnJhbmRvbV9zdHJpbmcmc2lnbmF0dXJlOjAxNzUwODkyMWEyOWVlNTYwMWJjZDFmYmU4M2VmZDJlMmJlNDNhZjAyZWNlZmYzMGNmMmU5MWE1MzlhYWIzNTU=",
    },
    {
        "name": "3-D Secure initialize, compact JSON with Turkish letters sent as UTF-8",
        "url": "/payment/3dsecure/initialize",
        "randomKey": "1732390000123456789",
        "body": INITIALIZE_BODY,
    },
    {
        "name": "3-D Secure auth",
        "url": "/payment/3dsecure/auth",
        "randomKey": "r4nd0mK3y",
        "body": _compact(
            {
                "locale": "tr",
                "conversationId": "ortak-pay-42",
                "paymentId": "25050014",
                "conversationData": "K0GgpXa1w2lhRSKzwg1J5/o01b47OPkY",
            }
        ),
    },
    {
        "name": "3-D Secure auth v2 (paidPrice, basketId and currency repeated)",
        "url": "/payment/v2/3dsecure/auth",
        "randomKey": "r4nd0mK3y",
        "body": _compact(
            {
                "locale": "tr",
                "conversationId": "ortak-pay-42",
                "paymentId": "25050014",
                "conversationData": "K0GgpXa1w2lhRSKzwg1J5/o01b47OPkY",
                "paidPrice": "150.0",
                "basketId": "ortak-request-7",
                "currency": "TRY",
            }
        ),
    },
    {
        "name": "payment retrieve",
        "url": "/payment/detail",
        "randomKey": "00000001",
        "body": _compact({"locale": "tr", "conversationId": "ortak-pay-42-retrieve", "paymentId": "25050014"}),
    },
    {
        "name": "refund of one payment transaction",
        "url": "/payment/refund",
        "randomKey": "abcdefgh",
        "body": _compact(
            {
                "locale": "tr",
                "conversationId": "ortak-refund-3",
                "paymentTransactionId": "30050001",
                "price": "150.0",
                "currency": "TRY",
                "ip": "85.34.78.112",
            }
        ),
    },
    {
        "name": "refund by payment id (v2)",
        "url": "/v2/payment/refund",
        "randomKey": "abcdefgh",
        "body": _compact(
            {"locale": "tr", "conversationId": "ortak-refund-3", "paymentId": "25050014", "price": "75.5", "ip": "85.34.78.112"}
        ),
    },
    {
        "name": "a query string is not part of the signed path (and an empty body signs as nothing)",
        "url": "/v2/reporting/payment/details?paymentConversationId=ortak-pay-42",
        "randomKey": "q1",
        "body": "",
    },
]

# Response `signature`: HMAC-SHA256 hex of the listed fields joined with ':'; amounts as the
# client reads them (JSON number, trailing zeros dropped: the official samples' strip_zero).
PAYMENT_FIELDS = ["paymentId", "currency", "basketId", "conversationId", "paidPrice", "price"]
RESPONSE_INPUTS = [
    {
        "name": "iyzico's published example (docs: response signature validation; values as in iyzipay-dotnet Iyzipay.Samples/SignatureVerification.cs)",
        "endpoint": "/payment/auth",
        "secretKey": "sandbox-qaIiLIxhjMgx3LSKIVvp6j17NunHOFtD",
        "fields": PAYMENT_FIELDS,
        "responseJson": '{"status":"success","paymentId":"22416032","currency":"TRY","basketId":"basketId","conversationId":"conversationId","paidPrice":10.5,"price":10.5}',
        "published": "836c3a6c8db86c81043f2ca74edb13518b54a813f454f8dd762f0dd658610173",
    },
    {
        "name": "3-D Secure initialize",
        "endpoint": "/payment/3dsecure/initialize",
        "fields": ["paymentId", "conversationId"],
        "responseJson": '{"status":"success","locale":"tr","systemTime":1732390000000,"conversationId":"ortak-pay-42","threeDSHtmlContent":"PGh0bWw+PC9odG1sPg==","paymentId":"25050014"}',
    },
    {
        "name": "3-D Secure auth, whole amounts written with a trailing .0",
        "endpoint": "/payment/3dsecure/auth",
        "fields": PAYMENT_FIELDS,
        "responseJson": '{"status":"success","locale":"tr","systemTime":1732390000000,"conversationId":"ortak-pay-42","price":150.0,"paidPrice":150.0,"installment":1,"paymentId":"25050014","basketId":"ortak-request-7","currency":"TRY","phase":"AUTH","mdStatus":1}',
    },
    {
        "name": "payment retrieve, amounts with trailing zeros",
        "endpoint": "/payment/detail",
        "fields": PAYMENT_FIELDS,
        "responseJson": '{"status":"success","locale":"tr","systemTime":1732390000000,"conversationId":"ortak-pay-42-retrieve","paymentStatus":"SUCCESS","price":1250.50,"paidPrice":1250.50,"installment":1,"paymentId":"25050014","basketId":"ortak-request-7","currency":"TRY"}',
    },
    {
        "name": "refund of one payment transaction",
        "endpoint": "/payment/refund",
        "fields": ["paymentId", "price", "currency", "conversationId"],
        "responseJson": '{"status":"success","locale":"tr","systemTime":1732390000000,"conversationId":"ortak-refund-3","paymentId":"25050014","paymentTransactionId":"30050001","price":0.5,"currency":"TRY","authCode":"475990","hostReference":"mock00007iyzihostrfn"}',
    },
    {
        "name": "refund by payment id (v2), a whole amount as an integer",
        "endpoint": "/v2/payment/refund",
        "fields": ["paymentId", "price", "currency", "conversationId"],
        "responseJson": '{"status":"success","locale":"tr","systemTime":1732390000000,"conversationId":"ortak-refund-3","paymentId":"25050014","price":15,"currency":"TRY","authCode":"581421","retryable":false}',
    },
]
PRICE_FIELDS = {"price", "paidPrice"}

CALLBACK_FIELDS = ["conversationData", "conversationId", "mdStatus", "paymentId", "status"]
CALLBACK_POST_ORDER = ["status", "paymentId", "conversationData", "conversationId", "mdStatus", "signature"]
CALLBACK_INPUTS = [
    {
        "name": "iyzico's published example (iyzipay-php samples/callbackUrl_Signature_Validation.php)",
        "secretKey": "jLc7GQHD2pyJoqXDeEcTnGHYtP7Ai5jl",
        "values": {"status": "success", "paymentId": "22484292", "conversationData": "", "conversationId": "", "mdStatus": "1"},
        "published": "a4f73b80bb32a6ef8358090bbd8609a49a7b53f463048f8ef147496e236d04f0",
    },
    {
        "name": "3-D Secure passed, conversationData with base64 characters that form-encoding escapes",
        "values": {
            "status": "success",
            "paymentId": "25050014",
            "conversationData": "K0GgpXa1w2lhRSKzwg1J5/o01b47OPkY+Q==",
            "conversationId": "ortak-pay-42",
            "mdStatus": "1",
        },
    },
    {
        "name": "3-D Secure failed (mdStatus 0)",
        "values": {"status": "failure", "paymentId": "25050015", "conversationData": "", "conversationId": "ortak-pay-43", "mdStatus": "0"},
    },
]

PRICE_KURUS = [1, 10, 99, 100, 150, 1000, 1050, 10050, 12345, 15000, 100000, 123456789]


def price_from_kurus(kurus: int) -> str:
    """iyzico's request price string (iyzipay-node utils.formatPrice, PHP/.NET RequestFormatter)."""
    whole, frac = divmod(kurus, 100)
    text = f"{frac:02d}".rstrip("0")
    return f"{whole}.{text or '0'}"


def official_price(kurus: int) -> str:
    # The official Python client's own price formatting (PKIBuilder.append_price).
    s = iyzipay.PKIBuilder("").append_price("p", f"{kurus // 100}.{kurus % 100:02d}").get_request_string()
    return s[len("[p=") : -1]


def official_header(api_key: str, secret_key: str, random_key: str, url: str, body: str) -> str:
    options = {"api_key": api_key, "secret_key": secret_key, "base_url": "unused"}
    return IyzipayResource().get_http_header_v2(url, options, random_key, body)["Authorization"]


def official_response_values(response: dict, fields: list[str]) -> list[str]:
    # As the official samples do it: str(value), and strip_zero for the two amounts.
    out = []
    for f in fields:
        value = response[f]
        out.append(IyzipayResource.strip_zero(str(value)) if f in PRICE_FIELDS else str(value))
    return out


def build_vectors() -> dict:
    auth = []
    for v in AUTH_INPUTS:
        api_key = v.get("apiKey", VECTOR_API_KEY)
        secret = v.get("secretKey", VECTOR_SECRET)
        header = official_header(api_key, secret, v["randomKey"], v["url"], v["body"])
        plain = base64.b64decode(header.split(" ", 1)[1]).decode("utf-8")
        uri_path = v["url"].split("?")[0]
        entry = {
            "name": v["name"],
            "apiKey": api_key,
            "secretKey": secret,
            "randomKey": v["randomKey"],
            "url": v["url"],
            "uriPath": uri_path,
            "body": v["body"],
            "hmacInput": v["randomKey"] + uri_path + v["body"],
            "signatureHex": plain.rsplit("&signature:", 1)[1],
            "authorizationPlain": plain,
            "header": header,
        }
        if "published" in v:
            entry["published"] = v["published"]
        auth.append(entry)
    responses = []
    for v in RESPONSE_INPUTS:
        secret = v.get("secretKey", VECTOR_SECRET)
        values = official_response_values(json.loads(v["responseJson"]), v["fields"])
        entry = {
            "name": v["name"],
            "endpoint": v["endpoint"],
            "secretKey": secret,
            "fields": v["fields"],
            "responseJson": v["responseJson"],
            "values": values,
            "joined": ":".join(values),
            "signature": IyzipayResource.calculate_hmac_sha256_signature(values, secret),
        }
        if "published" in v:
            entry["published"] = v["published"]
        responses.append(entry)
    callbacks = []
    for v in CALLBACK_INPUTS:
        secret = v.get("secretKey", VECTOR_SECRET)
        values = [v["values"][f] for f in CALLBACK_FIELDS]
        signature = IyzipayResource.calculate_hmac_sha256_signature(values, secret)
        posted = dict(v["values"], signature=signature)
        entry = {
            "name": v["name"],
            "secretKey": secret,
            "fields": CALLBACK_FIELDS,
            "posted": {k: posted[k] for k in CALLBACK_POST_ORDER},
            "formBody": urllib.parse.urlencode([(k, posted[k]) for k in CALLBACK_POST_ORDER]),
            "joined": ":".join(values),
            "signature": signature,
        }
        if "published" in v:
            entry["published"] = v["published"]
        callbacks.append(entry)
    prices = [{"kurus": k, "price": official_price(k)} for k in PRICE_KURUS]
    return {
        "about": (
            "iyzico signature test vectors. Expected values are computed by iyzico's official "
            "Python client (iyzipay " + metadata.version("iyzipay") + ") by scripts/iyzico_contract.py, "
            "which also asserts them; 'published' values are iyzico's own examples and must match. "
            "The Rust adapter's unit test asserts the same file. See /work/notes/iyzico.md."
        ),
        "authorization": {
            "formula": "IYZWSv2 + ' ' + base64(utf8('apiKey:' + apiKey + '&randomKey:' + randomKey + '&signature:' + hex(HMAC-SHA256(key=secretKey, msg=utf8(randomKey + uriPath + body)))))",
            "uriPath": "the request path without host and without '?query'",
            "vectors": auth,
        },
        "responseSignature": {
            "formula": "hex(HMAC-SHA256(key=secretKey, msg=utf8(values joined with ':')))",
            "amounts": "price/paidPrice are the JSON numbers with trailing zeros (and a bare '.') removed: 150.0 -> '150', 1250.50 -> '1250.5'",
            "vectors": responses,
        },
        "callbackSignature": {
            "formula": "hex(HMAC-SHA256(key=secretKey, msg=utf8(conversationData:conversationId:mdStatus:paymentId:status)))",
            "vectors": callbacks,
        },
        "priceFormat": {
            "rule": "request amounts are decimal strings: kuruş/100 with trailing zeros removed but at least one decimal ('1.0', '1.5', '0.01')",
            "vectors": prices,
        },
    }


# ---------------------------------------------------------------------------------------------
# A tiny test runner.


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failures: list[str] = []

    def ok(self, condition: bool, what: str, detail: object = "") -> bool:
        if condition:
            self.passed += 1
        else:
            self.failures.append(f"{what}{': ' + str(detail) if detail != '' else ''}")
            print(f"  FAIL {what} {detail if detail != '' else ''}")
        return condition

    def eq(self, got, expected, what: str, note: object = "") -> bool:
        detail = f"got {got!r}, expected {expected!r}{' (' + str(note) + ')' if note else ''}"
        return self.ok(got == expected, what, detail if got != expected else "")


def check_vectors(checks: Checks, write: bool) -> None:
    built = build_vectors()
    for v in built["authorization"]["vectors"]:
        # Independent of the client: the formula itself.
        sig = hmac.new(v["secretKey"].encode(), v["hmacInput"].encode(), hashlib.sha256).hexdigest()
        checks.eq(sig, v["signatureHex"], f"formula reproduces the client's signature ({v['name']})")
        if "published" in v:
            checks.eq(v["header"], v["published"], f"client header equals the published one ({v['name']})")
    for v in built["responseSignature"]["vectors"]:
        if "published" in v:
            checks.eq(v["signature"], v["published"], f"response signature equals the published one ({v['name']})")
    for v in built["callbackSignature"]["vectors"]:
        if "published" in v:
            checks.eq(v["signature"], v["published"], f"callback signature equals the published one ({v['name']})")
    for v in built["priceFormat"]["vectors"]:
        checks.eq(v["price"], price_from_kurus(v["kurus"]), f"price format for {v['kurus']} kuruş")
    if write:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        FIXTURE.write_text(json.dumps(built, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"  wrote {FIXTURE.relative_to(ROOT)}")
        return
    if not checks.ok(FIXTURE.exists(), "fixture exists", str(FIXTURE)):
        return
    committed = json.loads(FIXTURE.read_text(encoding="utf-8"))
    committed.pop("about", None)
    built.pop("about", None)
    for section in built:
        want = built[section]
        have = committed.get(section)
        if want == have:
            checks.ok(True, section)
            continue
        # Name the first differing vector, for a readable failure.
        for i, (a, b) in enumerate(zip(want.get("vectors", []), (have or {}).get("vectors", []))):
            if a != b:
                diff = {k: {"fixture": b.get(k), "client": a.get(k)} for k in a if a.get(k) != b.get(k)}
                checks.ok(False, f"fixture {section} vector {i} ({a.get('name')}) differs from the official client", diff)
                break
        else:
            checks.ok(False, f"fixture {section} differs from the official client")


# ---------------------------------------------------------------------------------------------
# Part 2: the official client against the stand-in.


class PlainHttp:
    """Takes the place of `http.client` inside the official client: HTTP to 127.0.0.1, with a timeout."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    def HTTPSConnection(self, host: str) -> http.client.HTTPConnection:  # noqa: N802 - the client's name
        return http.client.HTTPConnection(host, timeout=self.timeout)


def client(cls, timeout: float = 10.0):
    resource = cls()
    resource.httplib = PlainHttp(timeout)
    return resource


def answer(response) -> dict:
    return json.load(response)


class FormParser(HTMLParser):
    """Collects every form: action, method, id and its named inputs in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action"), "method": a.get("method"), "id": a.get("id"), "inputs": []})
        elif tag == "input" and self.forms and a.get("name"):
            self.forms[-1]["inputs"].append((a["name"], a.get("value", "")))
        elif tag == "script":
            self.scripts.append(a.get("src") or "inline")


def forms_of(html: str) -> FormParser:
    parser = FormParser()
    parser.feed(html)
    return parser


def post_form(url: str, fields: list[tuple[str, str]]) -> tuple[int, str]:
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def verified_by_client(resource, params: list[str], signature: str) -> bool:
    # The client's own check prints "Signature verified: True|False".
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        resource.verify_signature(params, SECRET_KEY, signature)
    return out.getvalue().strip() == "Signature verified: True"


class Shop:
    """What a merchant does with the official client, pointed at the stand-in."""

    def __init__(self, base: str, checks: Checks) -> None:
        self.base = base
        self.host = base.split("://", 1)[1]
        self.options = {"api_key": API_KEY, "secret_key": SECRET_KEY, "base_url": self.host}
        self.checks = checks
        self.n = 0

    def payment_request(self, card: str, amount: str = "150.0", conversation: str | None = None, items=None) -> dict:
        self.n += 1
        return {
            "locale": "tr",
            "conversationId": conversation or f"ortak-contract-{self.n}",
            "price": amount,
            "paidPrice": amount,
            "currency": "TRY",
            "installment": "1",
            "basketId": f"ortak-request-{self.n}",
            "paymentChannel": "WEB",
            "paymentGroup": "PRODUCT",
            "callbackUrl": "http://127.0.0.1:9/payments/iyzico/callback",
            "paymentCard": {
                "cardHolderName": "Deniz Aksoy",
                "cardNumber": card,
                "expireMonth": "12",
                "expireYear": "2030",
                "cvc": "123",
                "registerCard": "0",
            },
            "buyer": {
                "id": "BY17",
                "name": "Deniz",
                "surname": "Aksoy",
                "gsmNumber": "+905350000000",
                "email": "deniz@example.com",
                "identityNumber": "74300864791",
                "registrationAddress": "Nidakule Göztepe, Merdivenköy Mah. Bora Sok. No:1",
                "ip": "85.34.78.112",
                "city": "İstanbul",
                "country": "Türkiye",
                "zipCode": "34732",
            },
            "billingAddress": {
                "contactName": "Deniz Aksoy",
                "city": "İstanbul",
                "country": "Türkiye",
                "address": "Nidakule Göztepe, Merdivenköy Mah. Bora Sok. No:1",
                "zipCode": "34732",
            },
            "basketItems": items
            or [{"id": "fee", "name": "Hizmet bedeli", "category1": "Hizmet", "itemType": "VIRTUAL", "price": amount}],
        }

    def initialize(self, request: dict, options: dict | None = None) -> dict:
        resource = client(iyzipay.ThreedsInitialize)
        response = answer(resource.create(request, options or self.options))
        if response.get("status") == "success":
            ok = verified_by_client(resource, [response["paymentId"], response["conversationId"]], response["signature"])
            self.checks.ok(ok, "initialize signature passes the client's verify_signature")
        return response

    def bank_step(self, init: dict, code: str = "123456") -> dict:
        """Posts the 3-D Secure forms the way a browser would; returns the callback form's fields."""
        html = base64.b64decode(init["threeDSHtmlContent"]).decode("utf-8")
        page = forms_of(html)
        c = self.checks
        c.eq(len(page.forms), 1, "threeDSHtmlContent holds one form")
        c.eq(page.scripts, [], "threeDSHtmlContent has no script (Ortak's CSP forbids inline script)")
        form = page.forms[0]
        c.ok(form["action"].startswith(self.base + "/stand-in/3ds/"), "the form posts to the stand-in's bank page", form["action"])
        status, bank = post_form(form["action"], form["inputs"])
        c.eq(status, 200, "bank page answers")
        verify = forms_of(bank).forms[0]
        status, back = post_form(urllib.parse.urljoin(form["action"], verify["action"]), [("code", code)])
        c.eq(status, 200, "code step answers")
        result = forms_of(back)
        callback = next(f for f in result.forms if f["id"] == "iyzico-callback-form")
        c.eq(callback["method"], "post", "callback goes back as a form POST")
        c.eq(callback["action"], "http://127.0.0.1:9/payments/iyzico/callback", "callback goes to the callbackUrl")
        c.eq([k for k, _ in callback["inputs"]], CALLBACK_POST_ORDER, "callback fields and their order")
        c.eq(result.scripts, ["/stand-in/autosubmit.js"], "callback page auto-submits with a script of its own origin")
        fields = dict(callback["inputs"])
        values = [fields[k] for k in CALLBACK_FIELDS]
        c.eq(fields["signature"], IyzipayResource.calculate_hmac_sha256_signature(values, SECRET_KEY), "callback signature")
        stored = get_json(f"{self.base}/stand-in/callback-fields/{init['paymentId']}")
        c.eq(stored["fields"], fields, "GET /stand-in/callback-fields returns the posted fields")
        again, _ = post_form(form["action"], form["inputs"])
        c.eq(again, 409, "a finished 3-D Secure session cannot be replayed at the bank page")
        return fields

    def auth(self, fields: dict, conversation: str, timeout: float = 10.0) -> dict:
        resource = client(iyzipay.ThreedsPayment, timeout)
        request = {
            "locale": "tr",
            "conversationId": conversation,
            "paymentId": fields["paymentId"],
            "conversationData": fields["conversationData"],
        }
        response = answer(resource.create(request, self.options))
        if response.get("status") == "success":
            self.payment_signature(resource, response, "auth")
        return response

    def payment_signature(self, resource, response: dict, what: str) -> None:
        params = official_response_values(response, PAYMENT_FIELDS)
        self.checks.ok(verified_by_client(resource, params, response["signature"]), f"{what} signature passes the client's verify_signature")

    def retrieve(self, payment_id: str, conversation: str = "ortak-retrieve") -> dict:
        resource = client(iyzipay.Payment)
        response = answer(resource.retrieve({"locale": "tr", "conversationId": conversation, "paymentId": payment_id}, self.options))
        if response.get("status") == "success":
            self.payment_signature(resource, response, "retrieve")
        return response

    def refund_signature(self, resource, response: dict, what: str) -> None:
        params = [
            response["paymentId"],
            IyzipayResource.strip_zero(str(response["price"])),
            response["currency"],
            response["conversationId"],
        ]
        self.checks.ok(verified_by_client(resource, params, response["signature"]), f"{what} signature passes the client's verify_signature")


def scenario(checks: Checks, name: str):
    print(f"- {name}")
    return checks


def run_against_stand_in(checks: Checks) -> None:
    proc = subprocess.Popen(
        ["node", str(STAND_IN), "--api-key", API_KEY, "--secret-key", SECRET_KEY, "--hang-ms", str(HANG_MS), "--exit-with-stdin"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        prefix = "iyzico stand-in listening on "
        if not checks.ok(line.startswith(prefix), "stand-in prints its address", line or proc.stderr.read()):
            return
        base = line[len(prefix) :]
        shop = Shop(base, checks)
        exercise(shop, checks, base)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def exercise(shop: Shop, c: Checks, base: str) -> None:
    started = time.monotonic()
    bad_calls = 0

    scenario(c, "API test endpoint (GET, signed)")
    r = answer(client(iyzipay.ApiTest).retrieve(shop.options))
    c.eq(r.get("status"), "success", "GET /payment/test")

    scenario(c, "success card 5528790000000008: initialize, bank, auth, retrieve, refunds")
    req = shop.payment_request("5528790000000008", "150.0")
    init = shop.initialize(req)
    c.eq(init.get("status"), "success", "initialize")
    c.eq(init.get("conversationId"), req["conversationId"], "initialize echoes conversationId")
    fields = shop.bank_step(init)
    c.eq((fields["status"], fields["mdStatus"]), ("success", "1"), "callback says success, mdStatus 1")
    c.ok(fields["conversationData"] != "", "callback carries conversationData")
    paid = shop.auth(fields, req["conversationId"])
    c.eq(paid.get("status"), "success", "auth", paid.get("errorMessage", ""))
    c.eq((paid.get("price"), paid.get("paidPrice"), paid.get("currency")), (150, 150, "TRY"), "auth amounts")
    c.eq((paid.get("mdStatus"), paid.get("phase")), (1, "AUTH"), "auth mdStatus and phase")
    c.eq(paid.get("lastFourDigits"), "0008", "auth lastFourDigits")
    txs = paid.get("itemTransactions") or []
    c.eq(len(txs), 1, "one item transaction")
    again = shop.auth(fields, req["conversationId"])
    c.eq(again.get("status"), "failure", "a second auth of the same payment is refused")
    got = shop.retrieve(init["paymentId"])
    c.eq((got.get("status"), got.get("paymentStatus")), ("success", "SUCCESS"), "retrieve shows SUCCESS")
    via_threeds = answer(
        client(iyzipay.ThreedsPayment).retrieve({"locale": "tr", "conversationId": "x", "paymentId": init["paymentId"]}, shop.options)
    )
    c.eq(via_threeds.get("paymentStatus"), "SUCCESS", "ThreedsPayment.retrieve reaches /payment/detail too")
    by_conversation = answer(
        client(iyzipay.Payment).retrieve(
            {"locale": "tr", "conversationId": "x", "paymentConversationId": req["conversationId"]}, shop.options
        )
    )
    c.eq(by_conversation.get("paymentId"), init["paymentId"], "retrieve by paymentConversationId")

    refund = client(iyzipay.Refund)
    r = answer(
        refund.create(
            {
                "locale": "tr",
                "conversationId": "ortak-refund-1",
                "paymentTransactionId": txs[0]["paymentTransactionId"],
                "price": "50.5",
                "currency": "TRY",
                "ip": "85.34.78.112",
                "reason": "other",
                "description": "round cancelled",
            },
            shop.options,
        )
    )
    c.eq((r.get("status"), r.get("price")), ("success", 50.5), "refund of a transaction", r.get("errorMessage", ""))
    if r.get("status") == "success":
        shop.refund_signature(refund, r, "refund")
    v2 = client(iyzipay.Payment)
    r = answer(v2.refund({"locale": "tr", "conversationId": "ortak-refund-2", "paymentId": init["paymentId"], "price": "99.5", "ip": "85.34.78.112"}, shop.options))
    c.eq((r.get("status"), r.get("price")), ("success", 99.5), "refund v2 of the rest", r.get("errorMessage", ""))
    if r.get("status") == "success":
        shop.refund_signature(v2, r, "refund v2")
    r = answer(v2.refund({"locale": "tr", "conversationId": "ortak-refund-3", "paymentId": init["paymentId"], "price": "0.01", "ip": "85.34.78.112"}, shop.options))
    c.eq((r.get("status"), r.get("errorCode")), ("failure", "10232"), "refunding more than was paid is refused")

    scenario(c, "decline card 4111111111111129: auth refused with 10051")
    req = shop.payment_request("4111111111111129", "150.0")
    init = shop.initialize(req)
    fields = shop.bank_step(init)
    r = shop.auth(fields, req["conversationId"])
    c.eq((r.get("status"), r.get("errorCode"), r.get("errorGroup")), ("failure", "10051", "NOT_SUFFICIENT_FUNDS"), "decline")
    c.ok(bool(r.get("errorMessage")), "decline carries an errorMessage")
    c.eq(shop.retrieve(init["paymentId"]).get("paymentStatus"), "FAILURE", "retrieve shows FAILURE")

    scenario(c, "3-D Secure failure card 4131111111111117: callback failure, mdStatus 0")
    req = shop.payment_request("4131111111111117", "150.0")
    init = shop.initialize(req)
    fields = shop.bank_step(init)
    c.eq((fields["status"], fields["mdStatus"], fields["conversationData"]), ("failure", "0", ""), "3-D Secure failed")
    r = shop.auth(fields, req["conversationId"])
    c.eq(r.get("status"), "failure", "auth after a failed 3-D Secure is refused")

    scenario(c, "wrong code on the bank page with a success card")
    req = shop.payment_request("5528790000000008", "150.0")
    init = shop.initialize(req)
    fields = shop.bank_step(init, code="000000")
    c.eq((fields["status"], fields["mdStatus"]), ("failure", "0"), "wrong code fails 3-D Secure")

    scenario(c, "3-D Secure without a browser: POST /stand-in/complete-3ds (card 4141111111111115, mdStatus 4)")
    req = shop.payment_request("4141111111111115", "150.0")
    init = shop.initialize(req)
    status, text = post_form(f"{base}/stand-in/complete-3ds/{init['paymentId']}", [("code", "123456")])
    done = json.loads(text)
    c.eq((status, done["fields"]["status"], done["fields"]["mdStatus"]), (200, "failure", "4"), "complete-3ds answers the callback")

    scenario(c, "initialize failure card 4151111111111112")
    r = shop.initialize(shop.payment_request("4151111111111112", "150.0"))
    c.eq((r.get("status"), r.get("errorCode")), ("failure", "10202"), "initialize refused")

    scenario(c, "validation: basket items must add up to price (5062); card number must pass Luhn (12)")
    r = shop.initialize(
        shop.payment_request(
            "5528790000000008", "150.0", items=[{"id": "a", "name": "A", "category1": "X", "itemType": "VIRTUAL", "price": "100.0"}]
        )
    )
    c.eq((r.get("status"), r.get("errorCode")), ("failure", "5062"), "basket mismatch")
    r = shop.initialize(shop.payment_request("5528790000000009", "150.0"))
    c.eq((r.get("status"), r.get("errorCode")), ("failure", "12"), "bad card number")

    scenario(c, "refund refused for card 5406670000000009")
    req = shop.payment_request("5406670000000009", "150.0")
    init = shop.initialize(req)
    fields = shop.bank_step(init)
    paid = shop.auth(fields, req["conversationId"])
    c.eq(paid.get("status"), "success", "paid")
    r = answer(client(iyzipay.Payment).refund({"locale": "tr", "conversationId": "r", "paymentId": init["paymentId"], "price": "150.0", "ip": "85.34.78.112"}, shop.options))
    c.eq((r.get("status"), r.get("errorCode")), ("failure", "10012"), "refund refused")

    scenario(c, f"timeout card {TIMEOUT_CARD}: the client gives up, retrieve shows SUCCESS")
    req = shop.payment_request(TIMEOUT_CARD, "150.0")
    init = shop.initialize(req)
    fields = shop.bank_step(init)
    timed_out = False
    try:
        shop.auth(fields, req["conversationId"], timeout=CLIENT_TIMEOUT)
    except (TimeoutError, socket.timeout):
        timed_out = True
    c.ok(timed_out, "auth times out on the client side")
    c.eq(shop.retrieve(init["paymentId"]).get("paymentStatus"), "SUCCESS", "retrieve after the timeout shows SUCCESS")
    hung_payment = init["paymentId"]

    scenario(c, "wrong secret key (1000) and unknown api key (1001)")
    wrong = dict(shop.options, secret_key="not-the-secret")
    r = answer(client(iyzipay.Payment).retrieve({"locale": "tr", "conversationId": "bad", "paymentId": "1"}, wrong))
    c.eq((r.get("status"), r.get("errorCode"), r.get("errorMessage")), ("failure", "1000", "Geçersiz imza"), "bad signature")
    unknown = dict(shop.options, api_key="sandbox-someone-else")
    r = answer(client(iyzipay.Payment).retrieve({"locale": "tr", "conversationId": "bad", "paymentId": "1"}, unknown))
    c.eq((r.get("status"), r.get("errorCode")), ("failure", "1001"), "unknown api key")
    conn = http.client.HTTPConnection(shop.host, timeout=10)
    conn.request("POST", "/v2/payment/refund", json.dumps({"paymentId": "1"}), {"Authorization": "IYZWSv2 " + base64.b64encode(b"apiKey:x&randomKey:y&signature:" + b"0" * 64).decode()})
    resp = conn.getresponse()
    c.eq((resp.status, json.load(resp).get("errorCode")), (401, "1001"), "a /v2 auth failure is HTTP 401")
    bad_calls = 3

    scenario(c, "the stand-in's log")
    wait = HANG_MS / 1000 - (time.monotonic() - started)
    if wait > 0:
        time.sleep(min(wait + 0.3, 5))
    log = get_json(f"{base}/stand-in/log")
    api = [e for e in log if e["kind"] == "api"]
    verified = [e for e in api if e["signature"] == "verified"]
    c.eq(len(api) - len(verified), bad_calls, "every API call verified except the deliberately bad ones")
    from_client = [e for e in verified]
    c.ok(all(e.get("randomKeyHeader") == "matches" for e in from_client), "x-iyzi-rnd equals the signed random key")
    text = json.dumps(log)
    for number in ["5528790000000008", "4111111111111129", "4131111111111117", TIMEOUT_CARD]:
        c.ok(number not in text, f"log never holds the full card number {number}")
    cards = [e["request"]["paymentCard"] for e in api if isinstance(e.get("request"), dict) and "paymentCard" in e["request"]]
    c.ok(cards and all(card["cvc"] == "***" and card["cardNumber"].startswith("****") for card in cards), "log redacts card number and CVC")
    hung = [e for e in api if e.get("delayedMs") and e["request"].get("paymentId") == hung_payment]
    c.ok(hung and hung[0].get("clientGaveUp") is True, "log records that the client gave up on the slow auth")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-fixture", action="store_true", help="rewrite the fixture from the official client")
    parser.add_argument("--vectors-only", action="store_true", help="skip the stand-in part")
    args = parser.parse_args()

    checks = Checks()
    print(f"iyzico contract test (iyzipay {metadata.version('iyzipay')})")
    print("- signature vectors")
    try:
        check_vectors(checks, args.write_fixture)
        if not args.vectors_only:
            run_against_stand_in(checks)
    except Exception:  # any crash is a failure, reported with its trace
        traceback.print_exc()
        checks.failures.append("crashed")
    if checks.failures:
        print(f"iyzico contract: {len(checks.failures)} FAILED, {checks.passed} passed")
        for f in checks.failures:
            print(f"  - {f}")
        return 1
    print(f"iyzico contract: all {checks.passed} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
