// Investment amount island (/investmentFlow?startup=SLUG).
//
// The server renders a working no-JavaScript form (POST /investmentFlow: 303 to
// /investmentFlow/created, or 422 with the errors) inside
// <div data-island="investment" data-props="{json}">. This island renders the same form and:
//   - fills the amount field from the quick picks (250.000 in Turkish, 250,000 in English);
//   - shows the summary live, computed exactly as the server does (integer kuruş; the fee is
//     amount × feeRateBp / 10 000 rounded half up; added on top, or taken out of the amount);
//   - checks the amount and the risk box before sending, then posts JSON to props.action:
//
//   POST props.action {startup, amount (as typed), feeAdded, risk, idempotencyKey}
//        with X-CSRF-Token: props.csrf
//   201 {"ok":true,...}                                  -> the "request created" dialog
//   422 {"ok":false,"errors":{"amount"?,"risk"?}}        -> the errors under their fields
//   other {"ok":false,"message"?}                        -> that message, or messages.failed
//
// The idempotency key comes from the server with the page, so a repeated submit never makes a
// second request; the button also stays disabled while sending and after success.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { mountIslands } from './_runtime';
import { formatMoney, groupDigits, parseLira, type Locale } from './format';

type Field = 'amount' | 'risk';
type Errors = Partial<Record<Field, string>>;

export interface InvestmentProps {
  csrf: string;
  /** JSON endpoint, "/api/investmentRequests". */
  action: string;
  /** The startup's slug. */
  startup: string;
  /** The service fee rate in basis points (250 = 2.5%). */
  feeRateBp: number;
  locale: string;
  /** Quick picks, whole lira. */
  quick: number[];
  /** The smallest amount, whole lira (what goes to escrow must reach it too). */
  minimum: number;
  /** What the investor may still invest this year, whole lira; null when not capped. */
  remaining?: number | null;
  idempotencyKey: string;
  labels: {
    amount: string;
    hint: string;
    quick: string;
    feeAdded: string;
    summary: string;
    summaryAmount: string;
    summaryFee: string;
    summaryPayment: string;
    summaryTotal: string;
    risk: string;
    riskLink: string;
    submit: string;
    createdTitle: string;
    created: string;
    createdLink: string;
    close: string;
  };
  messages: {
    required: string;
    number: string;
    minimum: string;
    /** With the fee taken out, less than the minimum would go to escrow. */
    escrowMinimum: string;
    /** More than the remaining yearly limit. */
    overLimit: string;
    risk: string;
    failed: string;
  };
  /** Read from the server's fallback before it is replaced (see fromFallback below). */
  initial?: {
    amount?: string;
    feeAdded?: boolean;
    risk?: boolean;
    errors?: Errors;
    /** The hint under the field as the server wrote it (it also gives the fee rate). */
    hint?: string;
  };
}

const RISK_POLICY = '/politikalar/genel-risk-bildirimi';
const PENDING = '/pendingInvestments';
const REQUEST_TIMEOUT_MS = 15_000;

export interface Breakdown {
  amount: bigint;
  fee: bigint;
  /** Paid to escrow. */
  investment: bigint;
  total: bigint;
}

/** The server's breakdown, in kuruş. */
export function breakdown(lira: bigint, feeRateBp: number, feeAdded: boolean): Breakdown {
  const amount = lira * 100n;
  const fee = (amount * BigInt(feeRateBp) + 5_000n) / 10_000n;
  return feeAdded
    ? { amount, fee, investment: amount, total: amount + fee }
    : { amount, fee, investment: amount - fee, total: amount };
}

interface ApiAnswer {
  ok?: boolean;
  message?: string;
  errors?: Record<string, string | undefined>;
}

export function Investment(props: InvestmentProps) {
  const { labels, messages } = props;
  const locale: Locale = props.locale === 'en' ? 'en' : 'tr';
  const initial = props.initial ?? {};
  const uid = useId();
  const titleId = `${uid}-created-title`;
  const textId = `${uid}-created-text`;

  const [amount, setAmount] = useState(() => {
    const typed = initial.amount ?? '';
    // A quick pick in the fallback arrives as its bare value: show it as a pick fills it.
    return props.quick.some((q) => String(q) === typed) ? groupDigits(typed, locale) : typed;
  });
  const [feeAdded, setFeeAdded] = useState(initial.feeAdded ?? true);
  const [risk, setRisk] = useState(initial.risk ?? false);
  const [errors, setErrors] = useState<Errors>(initial.errors ?? {});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState(false);
  // The amount is checked as soon as the field is left, not only on sending.
  const [touched, setTouched] = useState(false);

  const inFlight = useRef(false);
  const doneRef = useRef(false);
  const amountInput = useRef<HTMLInputElement>(null);
  const riskInput = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const createdLink = useRef<HTMLAnchorElement>(null);

  const lira = parseLira(amount, locale);
  const figures = lira !== null && lira > 0n ? breakdown(lira, props.feeRateBp, feeAdded) : null;
  const money = (value: bigint | undefined) => (value === undefined ? '—' : formatMoney(value, locale));

  useEffect(() => {
    const el = dialog.current;
    if (done && el && !el.open && typeof el.showModal === 'function') el.showModal();
  }, [done]);

  function clearError(field: Field) {
    setErrors((e) => {
      if (!e[field]) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
  }

  function pick(value: number) {
    setAmount(groupDigits(String(value), locale));
    clearError('amount');
    setFailure(null);
  }

  /** What is wrong with the amount, as the server would say it; undefined when nothing. */
  function amountProblem(): string | undefined {
    if (amount.trim() === '') return messages.required;
    if (lira === null) return messages.number;
    const minimum = BigInt(props.minimum);
    if (lira < minimum) return messages.minimum;
    const escrow = breakdown(lira, props.feeRateBp, feeAdded).investment;
    if (escrow < minimum * 100n) return messages.escrowMinimum;
    const remaining = props.remaining;
    if (remaining !== undefined && remaining !== null && escrow > BigInt(remaining) * 100n) {
      return messages.overLimit;
    }
    return undefined;
  }

  function check(): Errors {
    const found: Errors = {};
    const problem = amountProblem();
    if (problem) found.amount = problem;
    if (!risk) found.risk = messages.risk;
    return found;
  }

  function focusFirst(found: Errors) {
    if (found.amount) amountInput.current?.focus();
    else if (found.risk) riskInput.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current || doneRef.current) return;
    setFailure(null);
    const found = check();
    setErrors(found);
    if (found.amount || found.risk) return focusFirst(found);

    inFlight.current = true;
    setSending(true);
    const controller = new AbortController();
    const timer = window.setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await fetch(props.action, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-CSRF-Token': props.csrf,
          Accept: 'application/json',
        },
        credentials: 'same-origin',
        body: JSON.stringify({
          startup: props.startup,
          amount,
          feeAdded,
          risk,
          idempotencyKey: props.idempotencyKey,
        }),
        signal: controller.signal,
      });
      let answer: ApiAnswer = {};
      try {
        answer = (await response.json()) as ApiAnswer;
      } catch {
        // Not JSON (a proxy's error page, say): the generic message below.
      }
      if (response.status === 201 || (response.ok && answer.ok !== false)) {
        doneRef.current = true;
        setDone(true);
      } else if (response.status === 422 && (answer.errors?.amount || answer.errors?.risk)) {
        const server: Errors = {};
        if (answer.errors.amount) server.amount = answer.errors.amount;
        if (answer.errors.risk) server.risk = answer.errors.risk;
        setErrors(server);
        focusFirst(server);
      } else {
        setFailure((response.status < 500 && answer.message) || messages.failed);
      }
    } catch {
      setFailure(messages.failed);
    } finally {
      window.clearTimeout(timer);
      inFlight.current = false;
      setSending(false);
    }
  }

  const amountError = errors.amount ?? (touched && amount.trim() !== '' ? amountProblem() : undefined);
  const amountDescribed = [`${uid}-hint`, amountError ? 'amount-error' : ''].filter(Boolean).join(' ');
  // Only the picks the investor may send (none above the remaining limit).
  const picks = props.quick.filter(
    (q) => props.remaining === undefined || props.remaining === null || q <= props.remaining,
  );

  return (
    <>
      <form
        className="form investment-form"
        method="post"
        action="/investmentFlow"
        noValidate
        aria-busy={sending || undefined}
        onSubmit={onSubmit}
      >
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="startup" value={props.startup} />
        <input type="hidden" name="idempotency_key" value={props.idempotencyKey} />
        <fieldset className="fieldset">
          <legend>{labels.quick}</legend>
          <div className="choices">
            {picks.map((value) => {
              const id = `quick-${value}`;
              return (
                <label className="choice" key={value}>
                  <input
                    type="radio"
                    id={id}
                    name="quick"
                    value={String(value)}
                    checked={lira !== null && lira === BigInt(value)}
                    onChange={() => pick(value)}
                  />
                  <span>{formatMoney(BigInt(value) * 100n, locale)}</span>
                </label>
              );
            })}
          </div>
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor="amount">
            {labels.amount}
          </label>
          <input
            ref={amountInput}
            className="input"
            id="amount"
            name="amount"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              clearError('amount');
              setFailure(null);
            }}
            onBlur={() => setTouched(true)}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountDescribed}
          />
          {amountError && (
            <p className="field__error" id="amount-error">
              {amountError}
            </p>
          )}
        </div>
        <p className="field__hint" id={`${uid}-hint`}>
          {initial.hint || labels.hint}
        </p>
        <div className="field field--check">
          <input
            type="checkbox"
            id="fee_added"
            name="fee_added"
            value="on"
            checked={feeAdded}
            onChange={(e) => setFeeAdded(e.target.checked)}
          />
          <label htmlFor="fee_added">{labels.feeAdded}</label>
        </div>
        <section className="investment-summary" aria-labelledby="investment-summary-title">
          <h2 id="investment-summary-title">{labels.summary}</h2>
          <dl className="figures">
            <div>
              <dt>{labels.summaryAmount}</dt>
              <dd data-field="amount">{money(figures?.amount)}</dd>
            </div>
            <div>
              <dt>{labels.summaryFee}</dt>
              <dd data-field="fee">{money(figures?.fee)}</dd>
            </div>
            <div>
              <dt>{labels.summaryPayment}</dt>
              <dd data-field="investment">{money(figures?.investment)}</dd>
            </div>
            <div>
              <dt>{labels.summaryTotal}</dt>
              <dd data-field="total">{money(figures?.total)}</dd>
            </div>
          </dl>
        </section>
        <div className="field field--check">
          <input
            ref={riskInput}
            type="checkbox"
            id="risk"
            name="risk"
            value="on"
            checked={risk}
            onChange={(e) => {
              setRisk(e.target.checked);
              if (e.target.checked) clearError('risk');
            }}
            aria-invalid={errors.risk ? true : undefined}
            aria-describedby={errors.risk ? 'risk-error' : undefined}
          />
          <label htmlFor="risk">
            {labels.risk} <a href={RISK_POLICY}>{labels.riskLink}</a>
          </label>
          {errors.risk && (
            <p className="field__error" id="risk-error">
              {errors.risk}
            </p>
          )}
        </div>
        {failure && (
          <div className="flash flash--error" role="alert">
            {failure}
          </div>
        )}
        {done && (
          <div className="flash flash--success" role="status">
            {labels.created}{' '}
            <a ref={createdLink} href={PENDING}>
              {labels.createdLink}
            </a>
          </div>
        )}
        <div className="form__actions">
          <button className="button button--primary" type="submit" disabled={sending || done}>
            {labels.submit}
          </button>
        </div>
      </form>
      <dialog
        ref={dialog}
        className="modal"
        aria-labelledby={titleId}
        aria-describedby={textId}
        onClose={() => createdLink.current?.focus()}
      >
        <h2 id={titleId}>{labels.createdTitle}</h2>
        <p id={textId}>{labels.created}</p>
        <div className="form__actions">
          <a className="button button--primary" href={PENDING}>
            {labels.createdLink}
          </a>
          <button className="button button--ghost" type="button" onClick={() => dialog.current?.close()}>
            {labels.close}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** What the server's fallback holds that the props do not: typed values, errors, the fee hint. */
function fromFallback(el: HTMLElement): Partial<InvestmentProps> {
  const input = (selector: string) => el.querySelector<HTMLInputElement>(selector);
  const text = (selector: string) => el.querySelector(selector)?.textContent?.trim() || undefined;
  let amount = input('#amount')?.value ?? '';
  if (amount.trim() === '') amount = input('input[name="quick"]:checked')?.value ?? '';
  const errors: Errors = {};
  const amountError = text('#amount-error');
  const riskError = text('#risk-error');
  if (amountError) errors.amount = amountError;
  if (riskError) errors.risk = riskError;
  return {
    initial: {
      amount,
      feeAdded: input('#fee_added')?.checked ?? true,
      risk: input('#risk')?.checked ?? false,
      errors,
      hint: text('.field__hint')?.replace(/\s+/g, ' '),
    },
  };
}

mountIslands('investment', Investment, fromFallback);
