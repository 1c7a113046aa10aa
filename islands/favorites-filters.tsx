// Favourites filters island (/favorites).
//
// The server renders every saved startup, each as
//   <div class="favorite-item" data-name data-city data-status [hidden]>…card…</div>
// inside #props.listId, hiding those the ?q=&status= query does not match, and a working GET
// form inside <div data-island="favorites-filters" data-props="{json}">. This island replaces
// the form with the same fields and filters the list as the user types or picks a status,
// with the server's rules:
//   - status: the item's data-status equals the chosen one (or no status is chosen);
//   - search: the trimmed text is contained in the name or the city, both lower-cased by
//     Turkish rules ("ÇİÇEK" finds "Çiçek", "ısparta" finds "ISPARTA" but "isparta" does not).
// The URL follows (?q=…&status=…, history.replaceState) so a reload or a shared link shows the
// same list, rendered by the server.
import { useEffect, useState, type FormEvent, type MouseEvent } from 'react';
import { mountIslands } from './_runtime';

export interface FavoritesFiltersProps {
  q: string;
  status: string;
  /** id of the element holding the .favorite-item elements. */
  listId: string;
  statuses: { value: string; label: string }[];
  labels: {
    search: string;
    status: string;
    any: string;
    reset: string;
    /** The form's accessible name. */
    filters: string;
    noMatch: string;
  };
  locale: string;
}

/** Lower-cases by Turkish rules (I → ı, İ → i), as the server does whatever the page language. */
export function turkishLower(text: string): string {
  return text.toLocaleLowerCase('tr');
}

/** Whether an item with this name, city and status is shown for the search `q` and `status`. */
export function matches(item: { name: string; city: string; status: string }, q: string, status: string): boolean {
  if (status !== '' && item.status !== status) return false;
  const needle = turkishLower(q.trim());
  if (needle === '') return true;
  return turkishLower(item.name).includes(needle) || turkishLower(item.city).includes(needle);
}

const PATH = '/favorites';

export function FavoritesFilters(props: FavoritesFiltersProps) {
  const { labels, statuses } = props;
  const known = (s: string) => (statuses.some((o) => o.value === s) ? s : '');
  const [q, setQ] = useState(props.q ?? '');
  const [status, setStatus] = useState(known(props.status ?? ''));
  const [counts, setCounts] = useState<{ total: number; shown: number } | null>(null);

  // The server's own "no match" message (rendered when the page loaded with no match) is
  // replaced by ours, which follows the filters.
  useEffect(() => {
    const serverMessage = document.getElementById('favorites-no-match');
    if (serverMessage) serverMessage.hidden = true;
  }, []);

  useEffect(() => {
    const list = document.getElementById(props.listId);
    const items = list ? Array.from(list.querySelectorAll<HTMLElement>('.favorite-item')) : [];
    let shown = 0;
    for (const item of items) {
      const visible = matches(
        { name: item.dataset.name ?? '', city: item.dataset.city ?? '', status: item.dataset.status ?? '' },
        q,
        status,
      );
      item.hidden = !visible;
      if (visible) shown += 1;
    }
    setCounts({ total: items.length, shown });

    // Keep the address shareable (a reload renders the same list on the server).
    const url = new URL(window.location.href);
    if (q.trim() === '') url.searchParams.delete('q');
    else url.searchParams.set('q', q);
    if (status === '') url.searchParams.delete('status');
    else url.searchParams.set('status', status);
    const target = url.pathname + url.search + url.hash;
    if (target !== window.location.pathname + window.location.search + window.location.hash) {
      window.history.replaceState(window.history.state, '', target);
    }
    // Saving or removing a startup from the list comes back to the filtered list.
    if (list) {
      for (const input of list.querySelectorAll<HTMLInputElement>('form.favorite-toggle input[name="return"]')) {
        input.value = url.pathname + url.search;
      }
    }
  }, [q, status, props.listId]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The list already follows the fields and the URL already says so: no need to reload.
    event.preventDefault();
  }

  function onReset(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setQ('');
    setStatus('');
    document.getElementById('favorites-q')?.focus();
  }

  const noMatch = counts !== null && counts.total > 0 && counts.shown === 0;

  return (
    <>
      <form className="filters" method="get" action={PATH} aria-label={labels.filters} onSubmit={onSubmit}>
        <div className="field">
          <label className="field__label" htmlFor="favorites-q">
            {labels.search}
          </label>
          <input
            className="input"
            id="favorites-q"
            type="search"
            name="q"
            value={q}
            autoComplete="off"
            aria-controls={props.listId}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="filter-status">
            {labels.status}
          </label>
          <select
            className="input"
            id="filter-status"
            name="status"
            value={status}
            aria-controls={props.listId}
            onChange={(e) => setStatus(e.target.value)}
          >
            <option value="">{labels.any}</option>
            {statuses.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="form__actions filters__actions">
          <a className="button button--ghost" href={PATH} onClick={onReset}>
            {labels.reset}
          </a>
        </div>
      </form>
      <div role="status" className="favorites-filters__status">
        {noMatch && (
          <p className="empty-state" id="favorites-no-match-live">
            {labels.noMatch}
          </p>
        )}
      </div>
    </>
  );
}

mountIslands('favorites-filters', FavoritesFilters);
