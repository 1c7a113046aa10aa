// Upload progress for the startup application's first step (the presentation file).
//
// The server renders an empty <div data-island="upload-progress" data-props="{json}"> under
// the file field: without JavaScript the multipart form simply posts (303 to the next step, or
// 422 with the page re-rendered and its messages). With JavaScript this island takes over the
// submit of the form props.form (outside the island's root) when a file is chosen:
//
//   - the form is sent as it is (FormData: same fields, same method and action, the session
//     cookie) with XMLHttpRequest, whose upload events give the percentage shown in a
//     <progress> with labels.uploading;
//   - the server's answer decides what happens next, exactly as without JavaScript:
//       303 (followed by the XHR, so responseURL is another address)  -> go there
//       422 (or any other page at the form's own address)            -> that page replaces
//                                                                        this document
//   - a network failure shows labels.failed; the form stays as typed and can be sent again.
//
// Without a chosen file the form submits normally: nothing to show progress for.
//
// Props (strings in the page's language):
//   form    id of the <form>, e.g. "project-step-1"
//   input   id of the file input; "presentation" by default
//   labels  { uploading: "Yükleniyor…", failed: "Bir hata oluştu…" }
import { useEffect, useRef, useState } from 'react';
import { mountRemountable, remountAll } from './_remount';

export interface UploadProgressProps {
  form: string;
  input?: string;
  labels: {
    uploading: string;
    failed: string;
  };
}

type Status = { kind: 'idle' } | { kind: 'uploading'; percent: number | null } | { kind: 'failed' };

/** The address without its #fragment (XHR's responseURL never has one). */
function withoutHash(url: string): string {
  const u = new URL(url, window.location.href);
  u.hash = '';
  return u.href;
}

/** Replaces the whole document with `html`, as a navigation to that page would show it. */
function replaceDocument(html: string): void {
  document.open();
  document.write(html);
  document.close();
  // The written page's island scripts are modules this window already ran: mount again.
  remountAll();
}

export function UploadProgress({ form: formId, input = 'presentation', labels }: UploadProgressProps) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const inFlight = useRef<XMLHttpRequest | null>(null);

  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;

    const onSubmit = (event: SubmitEvent) => {
      if (event.defaultPrevented) return;
      if (inFlight.current) {
        event.preventDefault(); // one upload at a time, however often the button is clicked
        return;
      }
      const field = document.getElementById(input);
      if (!(field instanceof HTMLInputElement) || !field.files || field.files.length === 0) {
        return; // no file: the plain form post is as quick as it gets
      }
      event.preventDefault();

      let data: FormData;
      try {
        data = new FormData(form, event.submitter);
      } catch {
        data = new FormData(form); // a submitter that is not a submit button of this form
      }
      const action = form.action; // absolute, resolved by the browser
      const xhr = new XMLHttpRequest();
      inFlight.current = xhr;
      form.setAttribute('aria-busy', 'true');

      const settle = () => {
        inFlight.current = null;
        form.removeAttribute('aria-busy');
      };
      const fail = () => {
        settle();
        setStatus({ kind: 'failed' });
      };

      xhr.upload.addEventListener('progress', (e) => {
        setStatus({ kind: 'uploading', percent: e.lengthComputable && e.total > 0 ? Math.floor((e.loaded * 100) / e.total) : null });
      });
      xhr.upload.addEventListener('load', () => setStatus({ kind: 'uploading', percent: 100 }));
      xhr.addEventListener('load', () => {
        const answered = xhr.responseURL;
        if (answered && withoutHash(answered) !== withoutHash(action)) {
          // The server answered 303 and the XHR followed it: show that page for real.
          window.location.assign(answered);
          return;
        }
        const type = xhr.getResponseHeader('Content-Type') ?? '';
        if (xhr.status === 0 || !/^text\/html\b/i.test(type) || xhr.responseText === '') {
          fail();
          return;
        }
        settle();
        replaceDocument(xhr.responseText);
      });
      xhr.addEventListener('error', fail);
      xhr.addEventListener('abort', fail);
      xhr.addEventListener('timeout', fail);

      xhr.open((form.getAttribute('method') || 'post').toUpperCase(), action);
      xhr.withCredentials = true;
      xhr.setRequestHeader('Accept', 'text/html');
      setStatus({ kind: 'uploading', percent: 0 });
      xhr.send(data);
    };

    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [formId, input]);

  return (
    <div className="upload-progress" aria-live="polite">
      {status.kind === 'uploading' && (
        <>
          <progress
            className="upload-progress__bar"
            max={100}
            value={status.percent ?? undefined}
            aria-label={labels.uploading}
          >
            {status.percent === null ? labels.uploading : `${status.percent}%`}
          </progress>
          <p className="field__hint upload-progress__label">
            {labels.uploading}
            {/* The percentage is visible, not announced: the live region says "uploading" once. */}
            {status.percent !== null && <span aria-hidden="true">{` ${status.percent}%`}</span>}
          </p>
        </>
      )}
      {status.kind === 'failed' && (
        <p className="field__error upload-progress__failed" role="alert">
          {labels.failed}
        </p>
      )}
    </div>
  );
}

// Remountable: after a 422 this island's page is written into the document again.
mountRemountable('upload-progress', UploadProgress);
