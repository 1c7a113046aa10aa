// A stand-in for iyzico's payment API (the parts Ortak uses): 3-D Secure initialize, the bank's
// 3-D Secure page, the callback POSTed to the merchant, 3-D Secure auth (v1 and v2), payment
// retrieval, refunds (per transaction and by payment) and the reporting service's payment
// details (what was refunded). Node standard library only; it listens
// on 127.0.0.1 and talks to nothing else. The protocol it follows is written up, with sources,
// in /work/notes/iyzico.md (IYZWSv2 request signing, response `signature` fields, the callback
// signature, price formatting, error shapes).
//
// As a module:
//   const iyzico = await startIyzico({ apiKey: 'sandbox-k', secretKey: 'sandbox-s' });
//   const server = await startServer({ env: iyzico.serverEnv });
//   iyzico.log                       // every call, card numbers cut to their last four
//   await iyzico.completeThreeDs(paymentId, '123456')   // the bank step without a browser
//   iyzico.callbackFields(paymentId) // the genuine callback form, to replay or tamper with
//   await iyzico.close();
//
// As a program (a Rust integration test spawns it and reads the first stdout line):
//   node end2end/standins/iyzico.mjs --api-key K --secret-key S [--port P] [--hang-ms MS]
//        [--no-auto-submit] [--exit-with-stdin]
//   prints "iyzico stand-in listening on http://127.0.0.1:PORT"
//   (environment fallbacks: IYZICO_STANDIN_PORT, IYZICO_STANDIN_API_KEY,
//    IYZICO_STANDIN_SECRET_KEY, IYZICO_STANDIN_HANG_MS)
//
// Test cards (any expiry in the future, any 3-4 digit CVC; the bank page's code is 123456):
//   iyzico's sandbox success cards (e.g. 5528790000000008) and any other Luhn-valid number: paid.
//   4111111111111129 10051 NOT_SUFFICIENT_FUNDS   4129111111111111 10005 DO_NOT_HONOUR
//   4128111111111112 10012 INVALID_TRANSACTION    4127111111111113 10041 LOST_CARD
//   4126111111111114 10043 STOLEN_CARD            4125111111111115 10054 EXPIRED_CARD
//   4124111111111116 10084 INVALID_CVC2           4123111111111117 10057 NOT_PERMITTED_TO_CARDHOLDER
//   4122111111111118 10058 NOT_PERMITTED_TO_TERMINAL  4121111111111119 10034 FRAUD_SUSPECT
//   4120111111111110 10093 PICKUP_CARD            4130111111111118 10204 UNKNOWN (general error)
//   4151111111111393 10093 RESTRICTED_BY_LAW      (all of these are refused by the auth call)
//   4131111111111117 3-D Secure fails: callback status=failure, mdStatus=0
//   4141111111111115 3-D Secure fails: callback status=failure, mdStatus=4
//   4151111111111112 the initialize call fails (10202)
//   5406670000000009 paid, but every refund is refused (10012)
//   4111111111119981 (stand-in only) the auth call takes --hang-ms (default 30 s) to answer, while
//                    the payment is already SUCCESS on this side, so a later retrieve shows it paid.
// Lost refund answers (stand-in only): POST /stand-in/lose-refund-answers {"count": n} makes the
// next n refunds happen at once but answer only after --hang-ms, as a lost answer would; the
// reporting service (GET /v2/reporting/payment/details) then shows them refunded.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

const HOST = '127.0.0.1';
const MAX_BODY = 1024 * 1024;
const SCALE = 100_000_000n; // amounts are kept as integers of 1e-8, so no float ever rounds money

// ---------------------------------------------------------------------------------------------
// The protocol pieces, exported so JavaScript tests can build the same values.

export const hmacHex = (secretKey, text) => createHmac('sha256', secretKey).update(text, 'utf8').digest('hex');

/** `IYZWSv2 base64("apiKey:K&randomKey:R&signature:hex(HMAC(secret, R + uriPath + body)))`. */
export function authorizationHeader({ apiKey, secretKey, randomKey, uriPath, body = '' }) {
  const signature = hmacHex(secretKey, randomKey + uriPath + body);
  const plain = `apiKey:${apiKey}&randomKey:${randomKey}&signature:${signature}`;
  return `IYZWSv2 ${Buffer.from(plain, 'utf8').toString('base64')}`;
}

/** A response `signature`: the values joined with ':' then HMAC-SHA256 hex under the secret. */
export const responseSignature = (secretKey, values) => hmacHex(secretKey, values.map((v) => (v ?? '')).join(':'));

/** The callback signature iyzico puts in the form it POSTs to the merchant's callbackUrl. */
export const callbackSignature = (secretKey, f) =>
  responseSignature(secretKey, [f.conversationData, f.conversationId, f.mdStatus, f.paymentId, f.status]);

/** iyzico's request price format from whole kuruş: "1.0", "1.5", "100.5", "0.01". */
export function formatPrice(kurus) {
  const k = BigInt(kurus);
  const whole = k / 100n;
  const frac = (k % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return `${whole}.${frac || '0'}`;
}

/** A decimal string or JSON number to 1e-8 units; null when it is not a plain non-negative decimal. */
function toUnits(value) {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,15}(\.\d+)?$/.test(text)) return null;
  const [whole, frac = ''] = text.split('.');
  if (frac.length > 8 && /[^0]/.test(frac.slice(8))) return null;
  return BigInt(whole) * SCALE + BigInt((frac + '00000000').slice(0, 8));
}

/** Plain decimal without trailing zeros: what iyzico signs and what its JSON numbers print as. */
function unitsText(units) {
  const frac = (units % SCALE).toString().padStart(8, '0').replace(/0+$/, '');
  return frac ? `${units / SCALE}.${frac}` : `${units / SCALE}`;
}
const unitsNumber = (units) => Number(unitsText(units));

function luhnValid(number) {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

// ---------------------------------------------------------------------------------------------
// Cards and messages.

/** Bank codes from iyzico's published list (errorCode, errorGroup, Turkish, English). */
const BANK_ERRORS = {
  10051: ['NOT_SUFFICIENT_FUNDS', 'Kart limiti yetersiz, yetersiz bakiye', 'Insufficient funds'],
  10005: ['DO_NOT_HONOUR', 'İşlem onaylanmadı', 'Operation not approved'],
  10012: ['INVALID_TRANSACTION', 'Geçersiz işlem', 'Invalid transaction'],
  10041: ['LOST_CARD', 'Kayıp kart, karta el koyunuz', 'Lost card'],
  10043: ['STOLEN_CARD', 'Çalıntı kart, karta el koyunuz', 'Stolen card'],
  10054: ['EXPIRED_CARD', 'Vadesi dolmuş kart', 'Expired card'],
  10084: ['INVALID_CVC2', 'CVC2 bilgisi hatalı', 'Invalid CVC2'],
  10057: ['NOT_PERMITTED_TO_CARDHOLDER', 'Kart sahibi bu işlemi yapamaz', 'Operation not permitted to card holder'],
  10058: ['NOT_PERMITTED_TO_TERMINAL', 'Terminalin bu işlemi yapmaya yetkisi yok', 'Operation not permitted to terminal'],
  10034: ['FRAUD_SUSPECT', 'Dolandırıcılık şüphesi', 'Fraud suspect'],
  10093: ['PICKUP_CARD', 'Karta el koyunuz', 'Pickup card'],
  10202: ['UNKNOWN', 'Ödeme işlemi esnasında genel bir hata oluştu', 'An error occurred while processing payment'],
  10203: ['APPROVED_COMPLETED', 'Önceden onaylanan işlem', 'Previously approved transaction'],
  10204: ['UNKNOWN', 'Ödeme işlemi esnasında genel bir hata oluştu', 'An error occurred while processing payment'],
  10232: ['INVALID_AMOUNT', 'Geçersiz tutar', 'Invalid amount'],
};
const RESTRICTED = ['RESTRICTED_BY_LAW', 'Kartınız e-ticaret işlemlerine kapalıdır. Bankanızı arayınız.', 'Card is restricted for e-commerce. Call your bank.'];

/** API (validation and business) errors: no errorGroup, as iyzico answers them. */
const API_ERRORS = {
  1000: ['Geçersiz imza', 'Invalid signature'],
  1001: ['api bilgileri bulunamadı', 'API info not found'],
  1009: ['Authorization header string gönderilmesi zorunludur', 'Authorization header string is mandatory'],
  3: ['email gönderilmesi zorunludur', 'Email is mandatory'],
  8: ['identityNumber gönderilmesi zorunludur', 'Identity number is mandatory'],
  11: ['Geçersiz istek', 'Invalid request'],
  12: ['Kart numarası geçersizdir', 'Invalid card number'],
  15: ['CVC geçersizdir', 'Invalid CVC'],
  17: ['Kartın son kullanma tarihi geçersizdir', 'Your card expiration date is invalid'],
  23: ['callbackUrl gönderilmesi zorunludur', 'Callback URL is mandatory'],
  5014: ['3dsecure esnasında conversation data decrypt edilemedi', 'Conversation data could not be decrypted during 3dsecure'],
  5062: ['Gönderilen tutar tüm kırılımların toplam tutarına eşit olmalıdır', 'The price must equal the sum of the basket items'],
  5087: ['Üye işyerine ait ödeme kaydı bulunamadı', 'No payment record found for the merchant'],
};

export const TIMEOUT_CARD = '4111111111119981';

/** What each special test card does (iyzico's sandbox list, plus the stand-in's timeout card). */
const SPECIAL_CARDS = {
  '4111111111111129': { decline: 10051 },
  '4129111111111111': { decline: 10005 },
  '4128111111111112': { decline: 10012 },
  '4127111111111113': { decline: 10041 },
  '4126111111111114': { decline: 10043 },
  '4125111111111115': { decline: 10054 },
  '4124111111111116': { decline: 10084 },
  '4123111111111117': { decline: 10057 },
  '4122111111111118': { decline: 10058 },
  '4121111111111119': { decline: 10034 },
  '4120111111111110': { decline: 10093 },
  '4130111111111118': { decline: 10204 },
  '4151111111111393': { decline: 10093, group: RESTRICTED },
  '4131111111111117': { mdStatus: 0 },
  '4141111111111115': { mdStatus: 4 },
  '4151111111111112': { initFails: 10202 },
  '5406670000000009': { noRefund: 10012 },
  [TIMEOUT_CARD]: { hang: true },
};

/** Issuer details of iyzico's sandbox cards by BIN, for realistic cardFamily/cardType answers. */
const BINS = {
  589004: ['Axess', 'DEBIT_CARD'], 552608: ['Axess', 'CREDIT_CARD'], 476662: ['Bonus', 'DEBIT_CARD'],
  460345: ['Bonus', 'CREDIT_CARD'], 498749: ['CardFinans', 'DEBIT_CARD'], 531157: ['CardFinans', 'CREDIT_CARD'],
  517041: ['Bonus', 'DEBIT_CARD'], 540036: ['Bonus', 'CREDIT_CARD'], 447505: ['Paraf', 'DEBIT_CARD'],
  552879: ['Paraf', 'CREDIT_CARD'], 405903: ['Advantage', 'DEBIT_CARD'], 550472: ['Advantage', 'CREDIT_CARD'],
  589283: ['Maximum', 'DEBIT_CARD'], 454359: ['Maximum', 'CREDIT_CARD'], 491005: ['World', 'DEBIT_CARD'],
  415792: ['World', 'CREDIT_CARD'], 516888: ['World', 'DEBIT_CARD'], 545103: ['World', 'CREDIT_CARD'],
};

function cardAssociation(number) {
  if (number.startsWith('9792') || number.startsWith('65')) return 'TROY';
  if (/^3[47]/.test(number)) return 'AMERICAN_EXPRESS';
  if (number.startsWith('4')) return 'VISA';
  return 'MASTER_CARD';
}

const escapeHtml = (s) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** A copy of a request body fit for the log: card number cut to its last four, CVC hidden. */
function redact(value) {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'cardNumber' && typeof v === 'string') out[k] = `****${v.slice(-4)}`;
      else if (k === 'cvc') out[k] = '***';
      else out[k] = redact(v);
    }
    return out;
  }
  return value;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------

/**
 * Starts the stand-in.
 * @param {{apiKey?: string, secretKey?: string, port?: number, hangMs?: number,
 *          autoSubmit?: boolean, conversationData?: boolean}} [options]
 *   hangMs: how long the auth call of the timeout card takes (default 30 000 ms).
 *   autoSubmit: the bank's result page loads /stand-in/autosubmit.js, which POSTs the callback
 *     form at once (default true; the form always has a submit button as well).
 *   conversationData: put a non-empty conversationData in callbacks, which the auth call must
 *     then echo (default true, to prove the adapter passes it through).
 */
export function startIyzico({
  apiKey = 'sandbox-ortak-stand-in-api-key',
  secretKey = 'sandbox-ortak-stand-in-secret-key',
  port = 0,
  hangMs = 30_000,
  autoSubmit = true,
  conversationData = true,
} = {}) {
  const log = [];
  /** paymentId -> payment */
  const payments = new Map();
  /** 3-D Secure page token -> paymentId */
  const tokens = new Map();
  const sockets = new Set();
  const timers = new Set();
  let nextPaymentId = 25_000_000 + Math.floor(Math.random() * 1_000_000);
  let nextTransactionId = 30_000_000 + Math.floor(Math.random() * 1_000_000);
  let seq = 0;

  const iyzico = {
    apiKey,
    secretKey,
    url: '', // set once listening
    hangMs,
    lostRefundAnswers: 0,
    autoSubmit,
    log,
    payments,
    serverEnv: {},
    close: null,
    callbackFields: (paymentId) => {
      const p = payments.get(String(paymentId));
      return p?.callback ? { callbackUrl: p.callbackUrl, fields: { ...p.callback } } : null;
    },
    completeThreeDs: (paymentId, code = '123456') => {
      const p = payments.get(String(paymentId));
      if (!p) return null;
      if (!p.callback) bankStep(p, { code });
      return iyzico.callbackFields(paymentId);
    },
  };

  const sleep = (ms) =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const message = (code, locale) => {
    const bank = BANK_ERRORS[code];
    if (bank) return locale === 'en' ? bank[2] : bank[1];
    const api = API_ERRORS[code];
    return api ? (locale === 'en' ? api[1] : api[0]) : 'Sistem hatası';
  };

  /** iyzico's failure body: errorGroup only for bank errors, errorCode always a string. */
  function failure(code, locale, conversationId, { group, detail, extra } = {}) {
    const body = { status: 'failure', errorCode: String(code) };
    let text = message(code, locale);
    if (group) text = locale === 'en' ? group[2] : group[1];
    body.errorMessage = detail ? `${text}: ${detail}` : text;
    const errorGroup = group?.[0] ?? BANK_ERRORS[code]?.[0];
    if (errorGroup) body.errorGroup = errorGroup;
    body.locale = locale;
    body.systemTime = Date.now();
    if (conversationId !== undefined && conversationId !== null) body.conversationId = String(conversationId);
    return { ...body, ...extra };
  }

  const base = (locale, conversationId) => {
    const b = { status: 'success', locale, systemTime: Date.now() };
    if (conversationId !== undefined && conversationId !== null) b.conversationId = String(conversationId);
    return b;
  };

  // -------------------------------------------------------------------------------------------
  // Signature checking.

  /** Checks IYZWSv2 over the raw body; returns null when good, else {code, why}. */
  function verify(req, path, rawBody, entry) {
    const header = req.headers.authorization;
    const rnd = req.headers['x-iyzi-rnd'];
    if (!header) {
      entry.signature = 'missing';
      return { code: 1009, why: 'no Authorization header' };
    }
    const m = /^IYZWSv2 ([A-Za-z0-9+/=]+)$/.exec(header);
    if (!m) {
      entry.signature = 'malformed';
      return { code: 1000, why: `not an IYZWSv2 header: ${header.split(' ')[0]}` };
    }
    const plain = Buffer.from(m[1], 'base64').toString('utf8');
    const parts = {};
    for (const piece of plain.split('&')) {
      const i = piece.indexOf(':');
      if (i > 0) parts[piece.slice(0, i)] = piece.slice(i + 1);
    }
    if (parts.apiKey === undefined || parts.randomKey === undefined || !/^[0-9a-f]{64}$/.test(parts.signature ?? '')) {
      entry.signature = 'malformed';
      return { code: 1000, why: 'authorization is not apiKey:…&randomKey:…&signature:<hex>' };
    }
    entry.randomKeyHeader = rnd === undefined ? 'absent' : rnd === parts.randomKey ? 'matches' : 'differs';
    if (parts.apiKey !== apiKey) {
      entry.signature = 'unknown-api-key';
      return { code: 1001, why: 'unknown apiKey' };
    }
    const expected = Buffer.from(hmacHex(secretKey, parts.randomKey + path + rawBody), 'utf8');
    const given = Buffer.from(parts.signature, 'utf8');
    if (!timingSafeEqual(expected, given)) {
      entry.signature = 'mismatch';
      return { code: 1000, why: 'HMAC over randomKey + path + body does not match' };
    }
    entry.signature = 'verified';
    return null;
  }

  // -------------------------------------------------------------------------------------------
  // Payments.

  /** The payment resource iyzico answers auth and retrieve with, `signature` included. */
  function paymentResource(p, locale, conversationId, { withPaymentStatus }) {
    const body = base(locale, conversationId);
    if (withPaymentStatus) body.paymentStatus = p.status;
    Object.assign(body, {
      price: unitsNumber(p.price),
      paidPrice: unitsNumber(p.paidPrice),
      installment: p.installment,
      paymentId: p.paymentId,
      fraudStatus: 1,
      merchantCommissionRate: 0,
      merchantCommissionRateAmount: 0,
      iyziCommissionRateAmount: unitsNumber((p.paidPrice * 2625n) / 100000n),
      iyziCommissionFee: 0.25,
      cardType: p.card.type,
      cardAssociation: p.card.association,
      cardFamily: p.card.family,
      binNumber: p.card.bin,
      lastFourDigits: p.card.last4,
      basketId: p.basketId,
      currency: p.currency,
    });
    if (p.status === 'SUCCESS') {
      body.itemTransactions = p.items.map((item) => ({
        itemId: item.id,
        paymentTransactionId: item.paymentTransactionId,
        transactionStatus: 2,
        price: unitsNumber(item.price),
        paidPrice: unitsNumber(item.paidPrice),
        merchantCommissionRate: 0,
        merchantCommissionRateAmount: 0,
        iyziCommissionRateAmount: unitsNumber((item.paidPrice * 2625n) / 100000n),
        iyziCommissionFee: 0,
        blockageRate: 0,
        blockageRateAmountMerchant: 0,
        blockageRateAmountSubMerchant: 0,
        blockageResolvedDate: new Date(p.paidAt + 7 * 86_400_000).toISOString().replace('T', ' ').slice(0, 19),
        subMerchantPrice: 0,
        subMerchantPayoutRate: 0,
        subMerchantPayoutAmount: 0,
        merchantPayoutAmount: unitsNumber(item.paidPrice - item.refunded),
        convertedPayout: {
          paidPrice: unitsNumber(item.paidPrice),
          iyziCommissionRateAmount: unitsNumber((item.paidPrice * 2625n) / 100000n),
          iyziCommissionFee: 0,
          blockageRateAmountMerchant: 0,
          blockageRateAmountSubMerchant: 0,
          subMerchantPayoutAmount: 0,
          merchantPayoutAmount: unitsNumber(item.paidPrice - item.refunded),
          iyziConversionRate: 0,
          iyziConversionRateAmount: 0,
          currency: p.currency,
        },
      }));
      body.authCode = p.authCode;
      body.hostReference = p.hostReference;
    }
    body.phase = 'AUTH';
    if (p.mdStatus !== null) body.mdStatus = p.mdStatus;
    body.signature = responseSignature(secretKey, [
      body.paymentId, body.currency, body.basketId, body.conversationId, unitsText(p.paidPrice), unitsText(p.price),
    ]);
    return body;
  }

  /** The cardholder's answer on the bank page: decides mdStatus and builds the signed callback. */
  function bankStep(p, { code, cancel }) {
    const forced = SPECIAL_CARDS[p.card.number]?.mdStatus;
    let mdStatus = cancel ? 0 : code === '123456' ? 1 : 0;
    if (forced !== undefined && mdStatus === 1) mdStatus = forced;
    const ok = mdStatus === 1;
    p.mdStatus = mdStatus;
    p.status = ok ? 'CALLBACK_THREEDS' : 'FAILURE';
    p.conversationData = ok && conversationData ? randomBytes(24).toString('base64') : '';
    const fields = {
      status: ok ? 'success' : 'failure',
      paymentId: p.paymentId,
      conversationData: p.conversationData,
      conversationId: p.conversationId ?? '',
      mdStatus: String(mdStatus),
    };
    fields.signature = callbackSignature(secretKey, fields);
    p.callback = fields;
    return fields;
  }

  function initialize(body, locale) {
    const cid = body.conversationId;
    const fail = (code, detail, opts = {}) => failure(code, locale, cid, { detail, ...opts });
    const price = toUnits(body.price);
    const paidPrice = toUnits(body.paidPrice);
    if (price === null || price === 0n) return fail(11, 'price');
    if (paidPrice === null || paidPrice === 0n) return fail(11, 'paidPrice');
    if (!body.callbackUrl) return fail(23);
    const currency = body.currency ?? 'TRY';
    if (!['TRY', 'USD', 'EUR', 'GBP'].includes(currency)) return fail(11, 'currency');
    const installment = Number(body.installment ?? 1);
    if (![1, 2, 3, 6, 9, 12].includes(installment)) return fail(11, 'installment');
    const card = body.paymentCard ?? {};
    for (const f of ['cardHolderName', 'cardNumber', 'expireMonth', 'expireYear', 'cvc']) {
      if (!card[f]) return fail(11, `paymentCard.${f}`);
    }
    const number = String(card.cardNumber);
    if (!luhnValid(number)) return fail(12);
    if (!/^\d{3,4}$/.test(String(card.cvc))) return fail(15);
    const month = Number(card.expireMonth);
    let year = Number(card.expireYear);
    if (year < 100) year += 2000;
    const now = new Date();
    if (!(month >= 1 && month <= 12) || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
      return fail(17);
    }
    const buyer = body.buyer ?? {};
    if (!buyer.email) return fail(3);
    if (!buyer.identityNumber) return fail(8);
    for (const f of ['id', 'name', 'surname', 'city', 'country', 'ip', 'registrationAddress']) {
      if (!buyer[f]) return fail(11, `buyer.${f}`);
    }
    for (const f of ['contactName', 'city', 'country', 'address']) {
      if (!body.billingAddress?.[f]) return fail(11, `billingAddress.${f}`);
    }
    const items = Array.isArray(body.basketItems) ? body.basketItems : [];
    if (items.length === 0) return fail(11, 'basketItems');
    let sum = 0n;
    const parsed = [];
    for (const [i, item] of items.entries()) {
      for (const f of ['id', 'name', 'category1', 'itemType']) {
        if (!item?.[f]) return fail(11, `basketItems[${i}].${f}`);
      }
      if (!['PHYSICAL', 'VIRTUAL'].includes(item.itemType)) return fail(11, `basketItems[${i}].itemType`);
      const itemPrice = toUnits(item.price);
      if (itemPrice === null || itemPrice === 0n) return fail(11, `basketItems[${i}].price`);
      sum += itemPrice;
      parsed.push({ id: String(item.id), price: itemPrice });
    }
    if (sum !== price) return fail(5062);
    if (items.some((it) => it.itemType === 'PHYSICAL')) {
      for (const f of ['contactName', 'city', 'country', 'address']) {
        if (!body.shippingAddress?.[f]) return fail(11, `shippingAddress.${f}`);
      }
    }
    const special = SPECIAL_CARDS[number] ?? {};
    if (special.initFails) return fail(special.initFails);

    // paidPrice spread over the items in proportion, the last taking the remainder.
    let spread = 0n;
    const itemRows = parsed.map((it, i) => {
      const share = i === parsed.length - 1 ? paidPrice - spread : (paidPrice * it.price) / price;
      spread += share;
      return { ...it, paidPrice: share, refunded: 0n, paymentTransactionId: String(nextTransactionId++) };
    });
    const bin = number.slice(0, 6);
    const p = {
      paymentId: String(nextPaymentId++),
      conversationId: cid === undefined || cid === null ? null : String(cid),
      basketId: body.basketId === undefined ? null : String(body.basketId),
      price,
      paidPrice,
      currency,
      installment,
      callbackUrl: String(body.callbackUrl),
      buyerIp: buyer.ip,
      card: {
        number, // kept in memory only, to pick the card's behaviour; never logged or answered
        last4: number.slice(-4),
        bin,
        association: cardAssociation(number),
        family: BINS[bin]?.[0] ?? 'Bonus',
        type: BINS[bin]?.[1] ?? 'CREDIT_CARD',
      },
      items: itemRows,
      status: 'INIT_THREEDS',
      mdStatus: null,
      conversationData: '',
      callback: null,
      token: randomBytes(18).toString('base64url'),
      authCalls: 0,
      authCode: String(100000 + Math.floor(Math.random() * 900000)),
      hostReference: `mock${randomBytes(6).toString('hex')}iyzihostrfn`,
      paidAt: null,
      refunds: [],
    };
    payments.set(p.paymentId, p);
    tokens.set(p.token, p.paymentId);
    // No inline script: the merchant shows this HTML on its own page, and the stand-in's bank
    // page is reached by an ordinary form post (a real bank's page auto-submits with a script).
    const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>iyzico stand-in 3-D Secure</title></head>
<body>
<form id="iyzico-3ds-form" action="${escapeHtml(`${iyzico.url}/stand-in/3ds/${p.token}`)}" method="post">
    <input type="hidden" name="token" value="${escapeHtml(p.token)}">
    <input type="hidden" name="bin" value="${escapeHtml(bin)}">
    <p>Your bank will now confirm this payment.</p>
    <button type="submit">Continue to your bank</button>
</form>
</body>
</html>
`;
    const answer = base(locale, cid);
    answer.threeDSHtmlContent = Buffer.from(html, 'utf8').toString('base64');
    answer.paymentId = p.paymentId;
    answer.signature = responseSignature(secretKey, [p.paymentId, answer.conversationId]);
    return answer;
  }

  /** /payment/3dsecure/auth and /payment/v2/3dsecure/auth. Returns [body, hang?]. */
  function auth(body, locale, v2) {
    const cid = body.conversationId;
    const p = payments.get(String(body.paymentId ?? ''));
    if (!p) return [failure(5087, locale, cid)];
    p.authCalls += 1;
    if (p.status === 'SUCCESS') return [failure(10203, locale, cid, { extra: { paymentId: p.paymentId } })];
    if (p.status !== 'CALLBACK_THREEDS' || p.mdStatus !== 1) {
      return [failure(5087, locale, cid, { detail: `payment is ${p.status}, mdStatus ${p.mdStatus}` })];
    }
    if (p.conversationData && body.conversationData !== p.conversationData) return [failure(5014, locale, cid)];
    if (v2) {
      const paid = toUnits(body.paidPrice);
      if (paid !== p.paidPrice) return [failure(11, locale, cid, { detail: 'paidPrice differs from the initialize call' })];
      if (String(body.basketId ?? '') !== String(p.basketId ?? '')) {
        return [failure(11, locale, cid, { detail: 'basketId differs from the initialize call' })];
      }
      if ((body.currency ?? 'TRY') !== p.currency) return [failure(11, locale, cid, { detail: 'currency differs' })];
    }
    const special = SPECIAL_CARDS[p.card.number] ?? {};
    if (special.decline) {
      p.status = 'FAILURE';
      p.failure = special.decline;
      return [failure(special.decline, locale, cid, { group: special.group, extra: { paymentId: p.paymentId } })];
    }
    p.status = 'SUCCESS';
    p.paidAt = Date.now();
    return [paymentResource(p, locale, cid, { withPaymentStatus: false }), Boolean(special.hang)];
  }

  function retrieve(body, locale) {
    const cid = body.conversationId;
    let p = null;
    if (body.paymentId !== undefined && body.paymentId !== null && body.paymentId !== '') {
      p = payments.get(String(body.paymentId));
    } else if (body.paymentConversationId) {
      // The newest payment with that conversationId, as a merchant retrying would want.
      for (const candidate of payments.values()) {
        if (candidate.conversationId === String(body.paymentConversationId)) p = candidate;
      }
    }
    if (!p) return failure(5087, locale, cid);
    return paymentResource(p, locale, cid, { withPaymentStatus: true });
  }

  /** Why a payment cannot be refunded at all, or null. */
  function refundRefusal(p, locale, cid) {
    if (p.status !== 'SUCCESS') return failure(5087, locale, cid, { detail: `payment is ${p.status}` });
    const noRefund = SPECIAL_CARDS[p.card.number]?.noRefund;
    return noRefund ? failure(noRefund, locale, cid) : null;
  }

  function refund(body, locale) {
    const cid = body.conversationId;
    const amount = toUnits(body.price);
    if (!body.paymentTransactionId) return failure(11, locale, cid, { detail: 'paymentTransactionId' });
    if (amount === null || amount === 0n) return failure(11, locale, cid, { detail: 'price' });
    if (!body.ip) return failure(11, locale, cid, { detail: 'ip' });
    let p = null;
    let item = null;
    for (const candidate of payments.values()) {
      const found = candidate.items.find((it) => it.paymentTransactionId === String(body.paymentTransactionId));
      if (found) [p, item] = [candidate, found];
    }
    if (!p) return failure(5087, locale, cid);
    const refused = refundRefusal(p, locale, cid);
    if (refused) return refused;
    if (body.currency && body.currency !== p.currency) return failure(11, locale, cid, { detail: 'currency' });
    if (amount > item.paidPrice - item.refunded) return failure(10232, locale, cid);
    item.refunded += amount;
    const host = `mock${randomBytes(6).toString('hex')}iyzihostrfn`;
    p.refunds.push({
      paymentTransactionId: item.paymentTransactionId, price: unitsText(amount), at: Date.now(),
      conversationId: cid, hostReference: host, units: amount,
    });
    const answer = base(locale, cid);
    Object.assign(answer, {
      paymentId: p.paymentId,
      paymentTransactionId: item.paymentTransactionId,
      price: unitsNumber(amount),
      currency: p.currency,
      authCode: p.authCode,
      hostReference: p.hostReference,
      refundHostReference: host,
    });
    answer.signature = responseSignature(secretKey, [p.paymentId, unitsText(amount), p.currency, answer.conversationId]);
    return answer;
  }

  function refundV2(body, locale) {
    const cid = body.conversationId;
    const amount = toUnits(body.price);
    if (!body.paymentId) return failure(11, locale, cid, { detail: 'paymentId' });
    if (amount === null || amount === 0n) return failure(11, locale, cid, { detail: 'price' });
    if (!body.ip) return failure(11, locale, cid, { detail: 'ip' });
    const p = payments.get(String(body.paymentId));
    if (!p) return failure(5087, locale, cid);
    const refused = refundRefusal(p, locale, cid);
    if (refused) return refused;
    if (body.currency && body.currency !== p.currency) return failure(11, locale, cid, { detail: 'currency' });
    const left = p.items.reduce((s, it) => s + it.paidPrice - it.refunded, 0n);
    if (amount > left) return failure(10232, locale, cid);
    // Spread over the items in order, as iyzico refunds a payment's transactions.
    let rest = amount;
    for (const it of p.items) {
      const take = rest < it.paidPrice - it.refunded ? rest : it.paidPrice - it.refunded;
      it.refunded += take;
      rest -= take;
    }
    const host = `mock${randomBytes(6).toString('hex')}iyzihostrfn`;
    p.refunds.push({
      paymentId: p.paymentId, price: unitsText(amount), at: Date.now(),
      conversationId: cid, hostReference: host, units: amount,
    });
    const answer = base(locale, cid);
    Object.assign(answer, {
      paymentId: p.paymentId,
      price: unitsNumber(amount),
      currency: p.currency,
      authCode: p.authCode,
      hostReference: p.hostReference,
      refundHostReference: host,
      retryable: false,
    });
    answer.signature = responseSignature(secretKey, [p.paymentId, unitsText(amount), p.currency, answer.conversationId]);
    return answer;
  }

  /** GET /v2/reporting/payment/details: a payment's state and refunds (not signed, as iyzico's
   * reporting answers are not). By paymentId or paymentConversationId. */
  function paymentDetails(query, locale) {
    const cid = query.get('conversationId') ?? undefined;
    const byId = query.get('paymentId');
    const byConversation = query.get('paymentConversationId');
    if (!byId && !byConversation) return failure(11, locale, cid, { detail: 'paymentId' });
    const found = [...payments.values()].filter((p) =>
      byId ? p.paymentId === byId : p.conversationId === byConversation);
    const code = { SUCCESS: 1, CALLBACK_THREEDS: 3 };
    const answer = base(locale, cid);
    answer.payments = found.map((p) => {
      const refunded = p.items.reduce((sum, it) => sum + it.refunded, 0n);
      return {
        paymentId: Number(p.paymentId),
        paymentStatus: code[p.status] ?? 2,
        paymentRefundStatus: refunded === 0n ? 'NOT_REFUNDED'
          : refunded === p.paidPrice ? 'TOTALLY_REFUNDED' : 'PARTIALLY_REFUNDED',
        price: unitsNumber(p.price),
        paidPrice: unitsNumber(p.paidPrice),
        currency: p.currency,
        basketId: p.basketId,
        paymentConversationId: p.conversationId,
        cancels: [],
        itemTransactions: p.items.map((it) => ({
          paymentTransactionId: Number(it.paymentTransactionId),
          price: unitsNumber(it.price),
          paidPrice: unitsNumber(it.paidPrice),
          refunds: p.refunds
            .filter((r) => (r.paymentTransactionId ?? p.items[0].paymentTransactionId) === it.paymentTransactionId)
            .map((r, i) => ({
              refundTxId: i + 1,
              refundConversationId: r.conversationId,
              refundPrice: unitsNumber(r.units),
              refundStatus: 1,
              createdDate: new Date(r.at).toISOString(),
              currencyCode: p.currency,
              hostReference: r.hostReference,
            })),
        })),
      };
    });
    return answer;
  }

  /** A payment as tests may see it: no card number, amounts as decimal strings. */
  function publicPayment(p) {
    return {
      paymentId: p.paymentId,
      conversationId: p.conversationId,
      basketId: p.basketId,
      status: p.status,
      mdStatus: p.mdStatus,
      price: unitsText(p.price),
      paidPrice: unitsText(p.paidPrice),
      currency: p.currency,
      callbackUrl: p.callbackUrl,
      buyerIp: p.buyerIp,
      card: { last4: p.card.last4, bin: p.card.bin, association: p.card.association },
      items: p.items.map((it) => ({
        id: it.id,
        paymentTransactionId: it.paymentTransactionId,
        price: unitsText(it.price),
        paidPrice: unitsText(it.paidPrice),
        refunded: unitsText(it.refunded),
      })),
      authCalls: p.authCalls,
      refunds: p.refunds.map(({ units, ...kept }) => kept),
      callback: p.callback,
    };
  }

  // -------------------------------------------------------------------------------------------
  // HTTP.

  function send(res, status, body, type = 'application/json;charset=UTF-8') {
    if (res.writableEnded || res.destroyed) return;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  const page = (title, inner) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<main>
${inner}
</main>
</body>
</html>
`;

  const UNLOGGED = new Set(['/stand-in/log', '/stand-in/health', '/stand-in/autosubmit.js']);
  const API_ROUTES = new Set([
    '/payment/test',
    '/payment/3dsecure/initialize',
    '/payment/3dsecure/auth',
    '/payment/v2/3dsecure/auth',
    '/payment/detail',
    '/payment/refund',
    '/v2/payment/refund',
    '/v2/reporting/payment/details',
  ]);

  async function handleApi(req, res, url, entry) {
    const path = url.pathname;
    const raw = await readBody(req);
    let body = null;
    try {
      body = raw === '' ? {} : JSON.parse(raw);
    } catch {
      body = null;
    }
    const parsed = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    entry.request = redact(parsed);
    const locale = (parsed.locale ?? url.searchParams.get('locale')) === 'en' ? 'en' : 'tr';
    const cid = parsed.conversationId;

    const authError = verify(req, path, raw, entry);
    if (authError) {
      entry.why = authError.why;
      // iyzico answers a bad signature on /payment/* with HTTP 200 and a failure body; its
      // /v2/* services use 401 (observed in the sandbox; see the notes).
      const status = path.startsWith('/v2/') ? 401 : 200;
      const answer = failure(authError.code, locale, cid);
      entry.httpStatus = status;
      entry.response = summarize(answer);
      return send(res, status, answer);
    }
    if (path === '/v2/reporting/payment/details') {
      const answer = req.method === 'GET' ? paymentDetails(url.searchParams, locale) : null;
      entry.httpStatus = answer ? 200 : 405;
      if (answer) entry.response = summarize(answer);
      return send(res, entry.httpStatus, answer ?? { status: 405, error: 'Method Not Allowed', path });
    }
    if (path === '/payment/test') {
      const answer = base(locale, undefined);
      entry.httpStatus = 200;
      entry.response = summarize(answer);
      return send(res, 200, answer);
    }
    if (req.method !== 'POST') {
      entry.httpStatus = 405;
      return send(res, 405, { timestamp: Date.now(), status: 405, error: 'Method Not Allowed', path });
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      const answer = failure(11, locale, undefined, { detail: 'body is not a JSON object' });
      entry.httpStatus = 200;
      entry.response = summarize(answer);
      return send(res, 200, answer);
    }

    let answer;
    let hang = false;
    if (path === '/payment/3dsecure/initialize') answer = initialize(body, locale);
    else if (path === '/payment/3dsecure/auth') [answer, hang] = auth(body, locale, false);
    else if (path === '/payment/v2/3dsecure/auth') [answer, hang] = auth(body, locale, true);
    else if (path === '/payment/detail') answer = retrieve(body, locale);
    else answer = path === '/payment/refund' ? refund(body, locale) : refundV2(body, locale);
    if (path.endsWith('/refund') && answer.status === 'success' && iyzico.lostRefundAnswers > 0) {
      // Refunded here; only the answer is lost on the way back.
      iyzico.lostRefundAnswers -= 1;
      hang = true;
    }

    entry.httpStatus = 200;
    entry.response = summarize(answer);
    if (hang) {
      // The payment is already SUCCESS here; only the answer is late, as a bank's can be.
      entry.delayedMs = iyzico.hangMs;
      let gone = false;
      res.on('close', () => {
        gone = !res.writableEnded;
      });
      await sleep(iyzico.hangMs);
      if (gone) {
        entry.clientGaveUp = true;
        return;
      }
    }
    return send(res, 200, answer);
  }

  function summarize(answer) {
    const s = { status: answer.status };
    for (const k of ['errorCode', 'errorMessage', 'errorGroup', 'paymentId', 'paymentStatus', 'mdStatus', 'price']) {
      if (answer[k] !== undefined) s[k] = answer[k];
    }
    if (answer.signature) s.signed = true;
    return s;
  }

  async function handleBank(req, res, url, entry) {
    const m = /^\/stand-in\/3ds\/([A-Za-z0-9_-]+)(\/verify)?$/.exec(url.pathname);
    const paymentId = m ? tokens.get(m[1]) : undefined;
    const p = paymentId ? payments.get(paymentId) : undefined;
    if (!p) {
      entry.httpStatus = 404;
      return send(res, 404, page('Unknown 3-D Secure session', '<h1>Unknown 3-D Secure session</h1>'), 'text/html;charset=utf-8');
    }
    entry.paymentId = p.paymentId;
    const form = new URLSearchParams(req.method === 'POST' ? await readBody(req) : '');
    if (p.callback) {
      entry.httpStatus = 409;
      return send(
        res,
        409,
        page('Already completed', '<h1>This 3-D Secure session is already complete</h1>'),
        'text/html;charset=utf-8',
      );
    }
    if (!m[2]) {
      entry.httpStatus = 200;
      const amount = `${unitsText(p.paidPrice)} ${p.currency}`;
      const action = `/stand-in/3ds/${p.token}/verify`;
      return send(
        res,
        200,
        page(
          'Stand-in bank: 3-D Secure',
          `<h1>Stand-in bank: confirm your payment</h1>
<p>Amount: <strong>${escapeHtml(amount)}</strong>. Card ending in <strong>${escapeHtml(p.card.last4)}</strong>.</p>
<form method="post" action="${escapeHtml(action)}">
<label for="code">Code sent to your phone (the stand-in accepts 123456)</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<button type="submit">Confirm</button>
</form>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="cancel" value="1">
<button type="submit">Cancel payment</button>
</form>`,
        ),
        'text/html;charset=utf-8',
      );
    }
    if (req.method !== 'POST') {
      entry.httpStatus = 405;
      return send(res, 405, 'method not allowed', 'text/plain');
    }
    entry.request = { code: form.get('code') === '123456' ? 'right code' : 'wrong code', cancel: form.has('cancel') };
    const fields = bankStep(p, { code: form.get('code'), cancel: form.has('cancel') });
    entry.httpStatus = 200;
    entry.response = { status: fields.status, mdStatus: fields.mdStatus, paymentId: fields.paymentId };
    return send(res, 200, callbackPage(p), 'text/html;charset=utf-8');
  }

  /** The page that carries the signed callback to the merchant, as a browser form POST. */
  function callbackPage(p) {
    const inputs = Object.entries(p.callback)
      .map(([k, v]) => `    <input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('\n');
    const script = iyzico.autoSubmit ? '\n<script src="/stand-in/autosubmit.js"></script>' : '';
    return page(
      'Returning to the merchant',
      `<h1>Returning to the merchant</h1>
<form id="iyzico-callback-form" method="post" action="${escapeHtml(p.callbackUrl)}">
${inputs}
    <button type="submit">Return to the merchant</button>
</form>${script}`,
    );
  }

  async function handleControl(req, res, url, entry) {
    const path = url.pathname;
    if (path === '/stand-in/log') {
      if (req.method === 'DELETE') {
        log.length = 0;
        return send(res, 204, '', 'text/plain');
      }
      return send(res, 200, log);
    }
    if (path === '/stand-in/autosubmit.js') {
      return send(res, 200, "document.getElementById('iyzico-callback-form')?.submit();\n", 'text/javascript;charset=utf-8');
    }
    if (path === '/stand-in/health') {
      return send(res, 200, 'ok', 'text/plain');
    }
    let m = /^\/stand-in\/callback-fields\/(\d+)$/.exec(path);
    if (m && req.method === 'GET') {
      const fields = iyzico.callbackFields(m[1]);
      entry.httpStatus = fields ? 200 : 404;
      return send(res, entry.httpStatus, fields ?? { error: 'no callback for that payment (yet)' });
    }
    m = /^\/stand-in\/complete-3ds\/(\d+)$/.exec(path);
    if (m && req.method === 'POST') {
      const raw = await readBody(req);
      let code = '123456';
      let cancel = false;
      try {
        const asJson = raw ? JSON.parse(raw) : {};
        if (asJson.code !== undefined) code = String(asJson.code);
        cancel = Boolean(asJson.cancel);
      } catch {
        const form = new URLSearchParams(raw);
        if (form.has('code')) code = form.get('code');
        cancel = form.has('cancel');
      }
      const p = payments.get(m[1]);
      if (!p) {
        entry.httpStatus = 404;
        return send(res, 404, { error: 'unknown payment' });
      }
      if (!p.callback) bankStep(p, { code, cancel });
      entry.httpStatus = 200;
      return send(res, 200, iyzico.callbackFields(m[1]));
    }
    m = /^\/stand-in\/payments\/(\d+)$/.exec(path);
    if (m && req.method === 'GET') {
      const p = payments.get(m[1]);
      entry.httpStatus = p ? 200 : 404;
      return send(res, entry.httpStatus, p ? publicPayment(p) : { error: 'unknown payment' });
    }
    if (path === '/stand-in/lose-refund-answers' && req.method === 'POST') {
      const raw = await readBody(req);
      iyzico.lostRefundAnswers = Number(JSON.parse(raw || '{}').count ?? 1);
      entry.httpStatus = 204;
      return send(res, 204, '', 'text/plain');
    }
    if (path === '/stand-in/payments' && req.method === 'GET') {
      return send(res, 200, [...payments.values()].map(publicPayment));
    }
    entry.httpStatus = 404;
    return send(res, 404, { error: 'not found' });
  }

  async function handle(req, res) {
    const url = new URL(req.url, iyzico.url || `http://${HOST}`);
    const entry = {
      seq: ++seq,
      at: new Date().toISOString(),
      method: req.method,
      path: url.pathname,
      kind: 'api',
      signature: null,
      httpStatus: 0,
    };
    if (url.search) entry.query = url.search;
    // Reading the log, the health check and the script are not events worth logging.
    if (!UNLOGGED.has(url.pathname)) log.push(entry);
    if (API_ROUTES.has(url.pathname)) return handleApi(req, res, url, entry);
    if (url.pathname.startsWith('/stand-in/3ds/')) {
      entry.kind = 'bank';
      return handleBank(req, res, url, entry);
    }
    if (url.pathname.startsWith('/stand-in/')) {
      entry.kind = 'control';
      return handleControl(req, res, url, entry);
    }
    entry.httpStatus = 404;
    return send(res, 404, { timestamp: Date.now(), status: 404, error: 'Not Found', path: url.pathname });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, { status: 'failure', errorCode: '1', errorMessage: String(err?.message ?? err) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(port, HOST, () => {
      iyzico.url = `http://${HOST}:${server.address().port}`;
      iyzico.serverEnv = {
        ORTAK_PAYMENT_PROVIDER: 'iyzico',
        ORTAK_IYZICO_API_KEY: apiKey,
        ORTAK_IYZICO_SECRET_KEY: secretKey,
        ORTAK_IYZICO_BASE_URL: iyzico.url,
      };
      iyzico.close = () =>
        new Promise((done) => {
          for (const t of timers) clearTimeout(t);
          timers.clear();
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        });
      resolve(iyzico);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Command line.

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === '--api-key') out.apiKey = value();
    else if (flag === '--secret-key') out.secretKey = value();
    else if (flag === '--port') out.port = Number(value());
    else if (flag === '--hang-ms') out.hangMs = Number(value());
    else if (flag === '--no-auto-submit') out.autoSubmit = false;
    else if (flag === '--no-conversation-data') out.conversationData = false;
    else if (flag === '--exit-with-stdin') out.exitWithStdin = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  const env = process.env;
  const options = {
    apiKey: args.apiKey ?? env.IYZICO_STANDIN_API_KEY,
    secretKey: args.secretKey ?? env.IYZICO_STANDIN_SECRET_KEY,
    port: args.port ?? (env.IYZICO_STANDIN_PORT ? Number(env.IYZICO_STANDIN_PORT) : 0),
    hangMs: args.hangMs ?? (env.IYZICO_STANDIN_HANG_MS ? Number(env.IYZICO_STANDIN_HANG_MS) : undefined),
    autoSubmit: args.autoSubmit,
    conversationData: args.conversationData,
  };
  for (const k of Object.keys(options)) if (options[k] === undefined) delete options[k];
  const iyzico = await startIyzico(options);
  process.stdout.write(`iyzico stand-in listening on ${iyzico.url}\n`);
  const stop = () => iyzico.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A test that dies without killing us closes our stdin; leave with it rather than linger.
  if (args.exitWithStdin) {
    process.stdin.on('end', stop);
    process.stdin.on('error', stop);
    process.stdin.resume();
  }
}
