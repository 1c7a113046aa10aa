// Card payment island (/invFlow?request=ID, step 1: the service fee).
//
// The server renders a working no-JavaScript form (POST /invFlow/card: a redirect to the
// payment provider's 3-D Secure page, or 422 with the errors, or 402 when declined) inside
// <div data-island="card-payment" data-props="{json}">. This island renders the same form,
// which still submits normally, and adds:
//   - the number grouped in fours as it is typed (4242 4242 4242 4242) and its brand;
//   - numeric keyboards on phones;
//   - the server's checks before sending (Luhn, month, year, expiry, CVV, required fields),
//     with the same messages, and the server's own errors shown from the start.
// The card number and CVV live only in the form's fields: never logged, never stored.
import { useLayoutEffect, useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { mountIslands } from './_runtime';

type Field = 'holder' | 'number' | 'month' | 'year' | 'cvv';
type Errors = Partial<Record<Field, string>>;

export interface CardPaymentProps {
  labels: { holder: string; number: string; month: string; year: string; cvv: string; submit: string };
  messages: { required: string; number: string; month: string; year: string; cvv: string; holder: string };
  values: { holder?: string; number?: string; month?: string; year?: string };
  errors: Errors;
  csrf: string;
  /** "/invFlow/card" */
  action: string;
  requestId: number | string;
}

const FIELDS: Field[] = ['holder', 'number', 'month', 'year', 'cvv'];
const MAX_DIGITS = 19;

export type Brand = 'visa' | 'mastercard' | 'amex' | 'troy';
const BRAND_NAMES: Record<Brand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'Amex',
  troy: 'Troy',
};

/** The brand by prefix, as the server decides it; null while unknown. */
export function brandOf(digits: string): Brand | null {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^9792/.test(digits)) return 'troy';
  return null;
}

export function luhnOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (d < 0 || d > 9) return false;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "4242424242424242" -> "4242 4242 4242 4242". */
export function groupInFours(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Today's year and month in Istanbul (the server's clock for the expiry check). */
function istanbulYearMonth(): { year: number; month: number } {
  const now = new Date();
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Istanbul', year: 'numeric', month: 'numeric' }).formatToParts(now);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const year = get('year');
    const month = get('month');
    if (year > 0 && month > 0) return { year, month };
  } catch {
    // No time zone data: the local date is close enough (the server checks again).
  }
  return { year: now.getFullYear(), month: now.getMonth() + 1 };
}

export interface CardValues {
  holder: string;
  number: string;
  month: string;
  year: string;
  cvv: string;
}

/** The server's checks (app/src/domain/card.rs), with the messages the props give. */
export function validateCard(v: CardValues, messages: CardPaymentProps['messages'], today = istanbulYearMonth()): Errors {
  const errors: Errors = {};
  const holder = v.holder.trim();
  if (holder === '') errors.holder = messages.required;
  else if ([...holder].length > 100 || /[\d\p{Cc}]/u.test(holder)) errors.holder = messages.holder;

  const number = v.number.replace(/[ -]/g, '');
  if (number === '') errors.number = messages.required;
  else if (number.length < 12 || number.length > 19 || !/^\d+$/.test(number) || !luhnOk(number)) {
    errors.number = messages.number;
  }

  const monthText = v.month.trim();
  const month = /^\d{1,3}$/.test(monthText) ? Number(monthText) : NaN;
  const monthOk = month >= 1 && month <= 12;
  if (monthText === '') errors.month = messages.required;
  else if (!monthOk) errors.month = messages.month;

  const yearText = v.year.trim();
  let year = /^\d{1,4}$/.test(yearText) ? Number(yearText) : NaN;
  if (year < 100) year += 2000;
  const yearOk = year >= today.year && year <= today.year + 20;
  if (yearText === '') errors.year = messages.required;
  else if (!yearOk) errors.year = messages.year;

  if (monthOk && yearOk && !errors.month && (year < today.year || (year === today.year && month < today.month))) {
    errors.month = messages.month;
  }

  const cvv = v.cvv.trim();
  if (cvv === '') errors.cvv = messages.required;
  else if (!/^\d{3,4}$/.test(cvv)) errors.cvv = messages.cvv;
  return errors;
}

const digitsOnly = (text: string) => text.replace(/\D/g, '');

export function CardPayment(props: CardPaymentProps) {
  const { labels, messages } = props;
  const [values, setValues] = useState<CardValues>(() => ({
    holder: props.values?.holder ?? '',
    number: groupInFours(digitsOnly(props.values?.number ?? '').slice(0, MAX_DIGITS)),
    month: props.values?.month ?? '',
    year: props.values?.year ?? '',
    cvv: '',
  }));
  const [errors, setErrors] = useState<Errors>(() => {
    const initial: Errors = {};
    for (const f of FIELDS) if (props.errors?.[f]) initial[f] = props.errors[f];
    return initial;
  });
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const caret = useRef<number | null>(null);

  // Put the caret back where it was among the digits after regrouping the number.
  useLayoutEffect(() => {
    const el = inputs.current.number;
    if (el && caret.current !== null && document.activeElement === el) {
      el.setSelectionRange(caret.current, caret.current);
    }
    caret.current = null;
  }, [values.number]);

  // Back from the bank's page (bfcache): the form is usable again.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) {
        submittingRef.current = false;
        setSubmitting(false);
      }
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  function set(field: Field, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => {
      if (!e[field]) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
  }

  function onNumber(e: ChangeEvent<HTMLInputElement>) {
    const raw = e.target.value;
    const at = e.target.selectionStart ?? raw.length;
    const before = digitsOnly(raw.slice(0, at)).length;
    const digits = digitsOnly(raw).slice(0, MAX_DIGITS);
    const grouped = groupInFours(digits);
    // The position just after the same number of digits in the grouped text.
    let pos = 0;
    for (let seen = 0; pos < grouped.length && seen < Math.min(before, digits.length); pos++) {
      if (grouped[pos] !== ' ') seen++;
    }
    caret.current = pos;
    set('number', grouped);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (submittingRef.current) {
      event.preventDefault();
      return;
    }
    const found = validateCard(values, messages);
    setErrors(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      event.preventDefault();
      inputs.current[first]?.focus();
      return;
    }
    // Valid: the browser posts the form (the server redirects to 3-D Secure).
    submittingRef.current = true;
    setSubmitting(true);
  }

  const digits = digitsOnly(values.number);
  const brand = brandOf(digits);

  const field = (
    name: Field,
    type: 'text',
    autoComplete: string,
    extra: { inputMode?: 'numeric'; maxLength?: number; onChange?: (e: ChangeEvent<HTMLInputElement>) => void; after?: ReactNode; describedBy?: string } = {},
  ) => {
    const error = errors[name];
    const describedBy = [extra.describedBy, error ? `${name}-error` : ''].filter(Boolean).join(' ') || undefined;
    const input = (
      <input
        ref={(el) => {
          inputs.current[name] = el;
        }}
        className="input"
        id={name}
        name={name}
        type={type}
        value={values[name]}
        autoComplete={autoComplete}
        inputMode={extra.inputMode}
        maxLength={extra.maxLength}
        spellCheck={false}
        onChange={extra.onChange ?? ((e) => set(name, e.target.value))}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
    );
    return (
      <div className="field">
        <label className="field__label" htmlFor={name}>
          {labels[name]}
        </label>
        {extra.after ? (
          <div className="card-number">
            {input}
            {extra.after}
          </div>
        ) : (
          input
        )}
        {error && (
          <p className="field__error" id={`${name}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <form className="form" method="post" action={props.action} noValidate autoComplete="on" onSubmit={onSubmit} aria-busy={submitting || undefined}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="request" value={String(props.requestId)} />
      {field('holder', 'text', 'cc-name')}
      {field('number', 'text', 'cc-number', {
        inputMode: 'numeric',
        // 19 digits and their 4 spaces.
        maxLength: MAX_DIGITS + 4,
        onChange: onNumber,
        describedBy: 'card-brand',
        after: (
          <span className="card-brand" id="card-brand" data-brand={brand ?? undefined} aria-live="polite">
            {brand ? BRAND_NAMES[brand] : ''}
          </span>
        ),
      })}
      <div className="form__row">
        {field('month', 'text', 'cc-exp-month', { inputMode: 'numeric', maxLength: 2 })}
        {field('year', 'text', 'cc-exp-year', { inputMode: 'numeric', maxLength: 4 })}
        {field('cvv', 'text', 'cc-csc', { inputMode: 'numeric', maxLength: 4 })}
      </div>
      <div className="form__actions">
        <button className="button button--primary" type="submit" disabled={submitting}>
          {labels.submit}
        </button>
      </div>
    </form>
  );
}

mountIslands('card-payment', CardPayment);
