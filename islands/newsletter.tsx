// Newsletter sign-up island (footer of every page).
//
// The server renders a working no-JavaScript form (POST /newsletter, 303 back with a flash, or
// 422 with the error) inside <div data-island="newsletter" data-props="{json}">. This island
// replaces it with the same markup, validates before sending, and posts JSON to props.action:
//
//   POST props.action  {"email": "..."}  with X-CSRF-Token: props.csrf
//   200 {"ok":true,"message":"..."}                 -> success message, field cleared
//   422 {"ok":false,"errors":{"email":"..."}}       -> error on the field, value kept
//   other 4xx/5xx {"ok":false,"message":"..."}      -> that message
//   network failure / timeout / not JSON            -> messages.failed
//
// Every string comes from the props, already in the page's language.
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { mountIslands } from './_runtime';

export interface NewsletterProps {
  /** JSON endpoint, e.g. "/api/newsletter". */
  action: string;
  /** The session's CSRF token, sent as X-CSRF-Token. */
  csrf: string;
  /** Initial value of the field. */
  email?: string;
  /** id of the e-mail input (the label points at it); "newsletter-email" by default. */
  id?: string;
  /** An error to show from the start (e.g. the page is the server's 422 re-render). */
  error?: string | null;
  labels: {
    label: string;
    placeholder: string;
    button: string;
    sending: string;
    /** Optional note under the field (e.g. the consent to commercial e-mail). */
    consent?: string;
  };
  messages: {
    invalid: string;
    required: string;
    failed: string;
    /** Shown on success if the server's answer carries no message. */
    success?: string;
  };
}

type Status = { kind: 'success' | 'error'; text: string } | null;

interface ApiAnswer {
  ok?: boolean;
  message?: string;
  errors?: Record<string, string | undefined>;
}

const REQUEST_TIMEOUT_MS = 15_000;

/**
 * A plausible address: something@something.tld, no spaces, at most 254 characters.
 * Deliberately loose; the server's validation (app's domain rules) is the authority.
 */
export function isPlausibleEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

export function Newsletter(props: NewsletterProps) {
  const { labels, messages } = props;
  const inputId = props.id ?? 'newsletter-email';
  const errorId = `${inputId}-error`;
  const statusId = `${inputId}-status`;

  const [email, setEmail] = useState(props.email ?? '');
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState<Status>(props.error ? { kind: 'error', text: props.error } : null);
  const inFlight = useRef(false);
  const input = useRef<HTMLInputElement>(null);

  const showError = (text: string) => {
    setStatus({ kind: 'error', text });
    input.current?.focus();
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;

    const value = email.trim();
    if (value === '') return showError(messages.required);
    if (!isPlausibleEmail(value)) return showError(messages.invalid);

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
        body: JSON.stringify({ email: value }),
        signal: controller.signal,
      });
      let answer: ApiAnswer = {};
      try {
        answer = (await response.json()) as ApiAnswer;
      } catch {
        // Not JSON (a proxy's error page, say): fall through to the generic message.
      }
      if (response.ok && answer.ok !== false) {
        setEmail('');
        setStatus({ kind: 'success', text: answer.message || messages.success || '' });
      } else {
        showError(answer.errors?.email || answer.message || messages.failed);
      }
    } catch {
      showError(messages.failed);
    } finally {
      window.clearTimeout(timer);
      inFlight.current = false;
      setSending(false);
    }
  }

  const invalid = status?.kind === 'error';

  return (
    <form className="newsletter" method="post" noValidate aria-busy={sending || undefined} onSubmit={onSubmit}>
      <label className="field__label" htmlFor={inputId}>
        {labels.label}
      </label>
      <div className="newsletter__row">
        <input
          ref={input}
          className="input"
          id={inputId}
          type="email"
          name="email"
          autoComplete="email"
          placeholder={labels.placeholder}
          required
          value={email}
          onChange={(e: ChangeEvent<HTMLInputElement>) => setEmail(e.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
        />
        <button className="button button--primary" type="submit" disabled={sending}>
          {sending ? labels.sending : labels.button}
        </button>
      </div>
      {labels.consent && <p className="field__hint">{labels.consent}</p>}
      {status && status.text !== '' &&
        (status.kind === 'error' ? (
          <p className="newsletter__message newsletter__message--error" id={errorId} role="alert">
            {status.text}
          </p>
        ) : (
          <p className="newsletter__message newsletter__message--success" id={statusId} role="status">
            {status.text}
          </p>
        ))}
    </form>
  );
}

mountIslands('newsletter', Newsletter);
