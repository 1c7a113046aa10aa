// Staff table island (the list pages under /dashboard).
//
// The server renders each list as a plain table that works without JavaScript (search is a GET
// form, actions are POST forms) inside
//   <div data-island="staff-table" data-props="{json}">…server table…</div>
// This island replaces it and fetches the same rows as JSON from props.src (same authorization
// as the page):
//
//   GET props.src  (credentials: same-origin, Accept: application/json)
//   200 {"columns":[{"label","filter"}…],
//        "rows":[{"id","cells":[…],"sort"?:[…],"link":{"href","label"}|null,"actions":[…]}…]}
//
// and then, with no page reload:
//   - searches: the trimmed text is contained in one of the row's cells, both lower-cased by
//     Turkish rules (as the server does, whatever the page language);
//   - filters: one <select> per column flagged `filter`, listing that column's distinct values;
//   - sorts: a button in each column header toggles ascending / descending (aria-sort on the
//     <th>); a row's `sort` key for a cell, when present and not null, is compared instead of
//     the text (numbers numerically: amounts in kuruş, ISO dates);
//   - pages: PAGE_SIZE rows a page; any change of search, filter or sort goes back to page 1;
//   - exports CSV of every row that matches (all pages, in the shown order) as a Blob download.
//
// The markup copies the server's (same classes, same action forms) so the CSS applies and the
// tests find the same things. Action forms stay plain POST forms that the browser submits: the
// server answers with its redirect and flash message, exactly as without JavaScript.
//
// While the rows load a short text stands in for the table; if they cannot be loaded, a message
// and a plain link to reload the page (which renders the server's table again).
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { mountIslands } from './_runtime';
import { formatCount } from './format';

export interface StaffTableProps {
  /** JSON endpoint with the rows, e.g. "/dashboard/users.json?q=ali". */
  src: string;
  /** Put in every action form, as the server's forms do. */
  csrf: string;
  /** Name of the downloaded CSV file, e.g. "ortak-users.csv". */
  csvName: string;
  /** "tr" or "en": orders text (sorting, filter options) and formats the counts. */
  locale: string;
  labels: {
    search: string;
    filterAll: string;
    export: string;
    previous: string;
    next: string;
    /** Template with {page} and {pages}, e.g. "Sayfa {page} / {pages}". */
    page: string;
    loading: string;
    failed: string;
    empty: string;
    actions: string;
    /** Template with {shown} and {total}. */
    shown: string;
    /** The pager's accessible name (optional: a default in the page language otherwise). */
    pager?: string;
    /** Text of the reload link shown with `failed` (optional, as `pager`). */
    reload?: string;
  };
}

export interface StaffColumn {
  label: string;
  filter: boolean;
}

export interface StaffField {
  name: string;
  label: string;
  type: string;
}

export interface StaffAction {
  action: string;
  name: string;
  value: string;
  label: string;
  fields: StaffField[];
}

export type SortKey = string | number | null;

export interface StaffRow {
  id: number;
  cells: string[];
  /** Per cell, what to compare instead of the text (null: the text). */
  sort?: SortKey[];
  link: { href: string; label: string } | null;
  actions: StaffAction[];
}

export interface StaffTableData {
  columns: StaffColumn[];
  rows: StaffRow[];
}

/** aria-sort's own values, so the state can be written on the <th> as it is. */
export type SortDir = 'ascending' | 'descending';

export const PAGE_SIZE = 25;

/** Lower-cases by Turkish rules (I → ı, İ → i), as the server does whatever the page language. */
export function turkishLower(text: string): string {
  return text.toLocaleLowerCase('tr');
}

/** Whether one of the row's cells contains the search `q` (trimmed; empty matches every row). */
export function matchesSearch(row: StaffRow, q: string): boolean {
  const needle = turkishLower(q.trim());
  if (needle === '') return true;
  return row.cells.some((cell) => turkishLower(cell).includes(needle));
}

/** Whether the row has, in each filtered column, exactly the chosen value ("" = any). */
export function matchesFilters(row: StaffRow, filters: Readonly<Record<number, string>>): boolean {
  for (const [col, value] of Object.entries(filters)) {
    if (value !== '' && (row.cells[Number(col)] ?? '') !== value) return false;
  }
  return true;
}

/** What column `col` of the row is ordered by: its sort key if it has one, else its text. */
function sortKey(row: StaffRow, col: number): string | number {
  const key = row.sort?.[col];
  return key ?? row.cells[col] ?? '';
}

/**
 * Orders two rows by column `col`. Numbers compare as numbers; anything else through the
 * collator (give it `numeric: true` so "10" follows "9", `sensitivity: 'base'`…). Equal rows
 * give 0 in both directions, so the stable Array.prototype.sort keeps the server's order
 * between them.
 */
export function compareRows(a: StaffRow, b: StaffRow, col: number, dir: SortDir, collator: Intl.Collator): number {
  const x = sortKey(a, col);
  const y = sortKey(b, col);
  const order = typeof x === 'number' && typeof y === 'number' ? Math.sign(x - y) : collator.compare(String(x), String(y));
  return dir === 'ascending' ? order : -order;
}

/** Characters that make a spreadsheet read a cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: quoted, inner quotes doubled, a would-be formula defused with a leading '. */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * The whole CSV file: a UTF-8 BOM (without it Excel reads the file as a legacy code page and
 * garbles ç, ğ, ı, İ, ö, ş, ü), the column labels, then one line per row (cells only, not the
 * link nor the actions), lines ended by CRLF as RFC 4180 says.
 */
export function toCsv(columns: readonly StaffColumn[], rows: readonly StaffRow[]): string {
  const lines = [columns.map((c) => csvCell(c.label)).join(',')];
  for (const row of rows) {
    lines.push(columns.map((_, i) => csvCell(row.cells[i] ?? '')).join(','));
  }
  return '\uFEFF' + lines.join('\r\n');
}

/** Fills {name} placeholders of a translated template. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Distinct non-empty values of column `col`, in the collator's order. */
export function distinctValues(rows: readonly StaffRow[], col: number, collator: Intl.Collator): string[] {
  const values = new Set<string>();
  for (const row of rows) {
    const v = row.cells[col] ?? '';
    // An empty cell cannot be an option: "" already means "any value".
    if (v !== '') values.add(v);
  }
  return [...values].sort(collator.compare);
}

/** The search text the server already applied to props.src (?q=), so the box says so. */
function initialQuery(src: string): string {
  try {
    return new URL(src, window.location.href).searchParams.get('q') ?? '';
  } catch {
    return '';
  }
}

/** Intl throws a RangeError for a malformed locale tag: fall back to the browser's. */
function makeCollator(locale: string, options?: Intl.CollatorOptions): Intl.Collator {
  try {
    return new Intl.Collator(locale, options);
  } catch {
    return new Intl.Collator(undefined, options);
  }
}

/** The JSON is only checked as far as the rendering relies on it (arrays where we map). */
function isTableData(value: unknown): value is StaffTableData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as { columns?: unknown; rows?: unknown };
  return (
    Array.isArray(data.columns) &&
    Array.isArray(data.rows) &&
    data.rows.every(
      (r: unknown) =>
        typeof r === 'object' &&
        r !== null &&
        Array.isArray((r as StaffRow).cells) &&
        Array.isArray((r as StaffRow).actions),
    )
  );
}

/** Hands the text to the browser as a file, without a round trip to the server. */
function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  // Firefox only follows a click on a link that is in the document.
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers: let it start first.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; data: StaffTableData };

export function StaffTable(props: StaffTableProps) {
  const { labels, locale, csrf } = props;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [q, setQ] = useState(() => initialQuery(props.src));
  const [filters, setFilters] = useState<Record<number, string>>({});
  const [sort, setSort] = useState<{ col: number; dir: SortDir } | null>(null);
  const [page, setPage] = useState(1);
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  // Set by the pager buttons, read once the new page is committed (see the effect below).
  const focusAfterPaging = useRef<'previous' | 'next' | null>(null);

  useEffect(() => {
    // StrictMode mounts twice in development: the first request is aborted, not raced.
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    fetch(props.src, {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      signal: controller.signal,
    })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        // An expired session answers with the HTML login page: that fails here, as it should.
        const data: unknown = await res.json();
        if (!isTableData(data)) throw new Error('unexpected JSON');
        setLoad({ state: 'ready', data });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoad({ state: 'failed' });
      });
    return () => controller.abort();
  }, [props.src]);

  // Text for humans (filter options) is ordered as written; the sort collator also puts "9"
  // before "10" and ignores case and accents, as a reader expects of a sorted column.
  const numbers = locale.startsWith('en') ? 'en' : 'tr';
  const textCollator = useMemo(() => makeCollator(locale), [locale]);
  const sortCollator = useMemo(() => makeCollator(locale, { numeric: true, sensitivity: 'base' }), [locale]);

  const data = load.state === 'ready' ? load.data : null;

  const filterOptions = useMemo(() => {
    const options = new Map<number, string[]>();
    data?.columns.forEach((c, i) => {
      if (c.filter) options.set(i, distinctValues(data.rows, i, textCollator));
    });
    return options;
  }, [data, textCollator]);

  const matching = useMemo(() => {
    if (!data) return [];
    const rows = data.rows.filter((r) => matchesFilters(r, filters) && matchesSearch(r, q));
    if (sort) rows.sort((a, b) => compareRows(a, b, sort.col, sort.dir, sortCollator));
    return rows;
  }, [data, filters, q, sort, sortCollator]);

  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  // The rows may shrink under the current page (a reload of the data): never show past the end.
  const current = Math.min(page, pages);
  const visible = matching.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  // A pager button that becomes disabled drops the focus to <body>; hand it to the other one.
  useEffect(() => {
    const target = focusAfterPaging.current;
    focusAfterPaging.current = null;
    if (target === 'previous') prevRef.current?.focus();
    else if (target === 'next') nextRef.current?.focus();
  }, [current]);

  function goTo(target: number) {
    const next = Math.min(Math.max(1, target), pages);
    if (next === pages && document.activeElement === nextRef.current) focusAfterPaging.current = 'previous';
    else if (next === 1 && document.activeElement === prevRef.current) focusAfterPaging.current = 'next';
    setPage(next);
  }

  function onSearch(value: string) {
    setQ(value);
    setPage(1);
  }

  function onFilter(col: number, value: string) {
    setFilters((f) => ({ ...f, [col]: value }));
    setPage(1);
  }

  function onSort(col: number) {
    setSort((s) => (s && s.col === col ? { col, dir: s.dir === 'ascending' ? 'descending' : 'ascending' } : { col, dir: 'ascending' }));
    setPage(1);
  }

  function onExport() {
    if (data) download(toCsv(data.columns, matching), props.csvName);
  }

  if (!data) {
    const english = locale.startsWith('en');
    return (
      <div className="staff-table">
        {load.state === 'failed' ? (
          <p className="staff-table__status" role="alert">
            {labels.failed}{' '}
            <a href={window.location.href}>{labels.reload ?? (english ? 'Reload the page' : 'Sayfayı yenile')}</a>
          </p>
        ) : (
          <p className="staff-table__status" role="status">
            {labels.loading}
          </p>
        )}
      </div>
    );
  }

  const pagerLabel = labels.pager ?? (locale.startsWith('en') ? 'Pages' : 'Sayfalar');

  return (
    <div className="staff-table">
      <div className="filters">
        <div className="field">
          <label className="field__label" htmlFor="staff-table-q">
            {labels.search}
          </label>
          <input
            className="input"
            id="staff-table-q"
            type="search"
            value={q}
            autoComplete="off"
            onChange={(e) => onSearch(e.target.value)}
          />
        </div>
        {data.columns.map((c, i) =>
          c.filter ? (
            <div className="field" key={i}>
              <label className="field__label" htmlFor={`staff-table-f${i}`}>
                {c.label}
              </label>
              <select
                className="input"
                id={`staff-table-f${i}`}
                value={filters[i] ?? ''}
                onChange={(e) => onFilter(i, e.target.value)}
              >
                <option value="">{labels.filterAll}</option>
                {(filterOptions.get(i) ?? []).map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            </div>
          ) : null,
        )}
        <div className="form__actions">
          <button type="button" className="button button--ghost" data-action="export" onClick={onExport}>
            {labels.export}
          </button>
        </div>
      </div>
      <p className="staff-table__count" aria-live="polite">
        {fill(labels.shown, {
          shown: formatCount(matching.length, numbers),
          total: formatCount(data.rows.length, numbers),
        })}
      </p>
      {matching.length === 0 ? (
        <p className="empty-state">{labels.empty}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  {data.columns.map((c, i) => (
                    // aria-sort only on the sorted column: ARIA asks for one at a time.
                    <th scope="col" key={i} aria-sort={sort?.col === i ? sort.dir : undefined}>
                      <button type="button" className="th-sort" onClick={() => onSort(i)}>
                        {c.label}
                      </button>
                    </th>
                  ))}
                  <th scope="col">{labels.actions}</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((row) => (
                  <tr key={row.id} data-row={row.id}>
                    {data.columns.map((_, i) => (
                      <td key={i} className={row.sort?.[i] != null ? 'cell--fixed' : undefined}>
                        {row.cells[i] ?? ''}
                      </td>
                    ))}
                    <td className="row-actions">
                      {row.link && <a href={row.link.href}>{row.link.label}</a>}{' '}
                      {row.actions.length > 0 && (
                        <details className="row-menu">
                          <summary>{labels.actions}</summary>
                          <div className="row-menu__panel">
                            {row.actions.map((a, ai) => (
                              <form className="inline-form" method="post" action={a.action} key={ai}>
                                <input type="hidden" name="csrf" value={csrf} />
                                {a.fields.map((f) => {
                                  const id = `${f.name}-${row.id}-${a.value}`;
                                  return (
                                    <Fragment key={f.name}>
                                      <label className="visually-hidden" htmlFor={id}>
                                        {f.label}
                                      </label>
                                      <input
                                        className="input"
                                        id={id}
                                        name={f.name}
                                        type={f.type}
                                        placeholder={f.type === 'date' ? undefined : f.label}
                                      />
                                    </Fragment>
                                  );
                                })}
                                <button className="button button--ghost" type="submit" name={a.name} value={a.value}>
                                  {a.label}
                                </button>
                              </form>
                            ))}
                          </div>
                        </details>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label={pagerLabel}>
            <button
              ref={prevRef}
              type="button"
              className="button button--ghost"
              disabled={current <= 1}
              onClick={() => goTo(current - 1)}
            >
              {labels.previous}
            </button>{' '}
            <span className="pager__status">{fill(labels.page, { page: current, pages })}</span>{' '}
            <button
              ref={nextRef}
              type="button"
              className="button button--ghost"
              disabled={current >= pages}
              onClick={() => goTo(current + 1)}
            >
              {labels.next}
            </button>
          </nav>
        </>
      )}
    </div>
  );
}

mountIslands('staff-table', StaffTable);
