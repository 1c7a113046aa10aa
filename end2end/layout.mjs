// The layout audit the accessibility suite runs on every page it checks: at 390 px and 1440 px,
// nothing may make the page wider than the screen, and nothing inside a card (`.card`,
// `.post-card`, `.stat`, `.bare-card`) may stick out of it. Content inside an element that
// scrolls or clips on purpose (a wide table in its scroller) and positioned overlays are left
// out. With `ORTAK_LAYOUT_SHOTS=folder`, a full-page screenshot of each page at each width is
// written there, to be looked at: asked for, as the screenshots take half of the audit's time
// and a run nobody looks at (CI) has no use for them.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export const WIDTHS = [390, 1440];
export const LAYOUT_SHOTS = process.env.ORTAK_LAYOUT_SHOTS || null;
if (LAYOUT_SHOTS) mkdirSync(LAYOUT_SHOTS, { recursive: true });

/** What sticks out on the page as laid out now, one line each. */
function problemsInPage() {
  const describe = (el) => {
    const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  // Inside something that scrolls or clips on purpose, or taken out of the flow.
  const exempt = (el, stop) => {
    for (let e = el; e && e !== stop; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.position === 'absolute' || s.position === 'fixed') return true;
      if (e !== el && (s.overflowX !== 'visible' || s.overflowY !== 'visible')) return true;
    }
    return false;
  };
  const visible = (r) => r.width > 0 && r.height > 0;
  // Not rendered: the content of a closed <details> keeps a box the browser never draws.
  const shown = (el) => !el.checkVisibility || el.checkVisibility();
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    let wide = [...document.body.querySelectorAll('*')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return visible(r) && r.right > width + 1 && !exempt(el, document.body);
      })
      .slice(0, 4)
      .map(describe);
    // None in the flow: name what reaches past the edge anyway (an escaped overlay, say).
    if (wide.length === 0) {
      for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (visible(r) && r.right > width + 1 && wide.length < 4) wide.push(describe(el));
      }
    }
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide: ${wide.join(', ')}`);
  }
  for (const card of document.querySelectorAll('.card, .post-card, .stat, .bare-card')) {
    const c = card.getBoundingClientRect();
    if (!visible(c) || exempt(card, document.body)) continue;
    for (const el of card.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (!visible(r) || !shown(el) || exempt(el, card)) continue;
      if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1) {
        problems.push(`${describe(el)} sticks out of ${describe(card)}`);
        break;
      }
    }
  }
  return problems;
}

/**
 * Lays `page` out at each width, returns what sticks out (one line per problem, with the
 * width), saves a full-page screenshot per width under `name` when asked, and restores the
 * viewport.
 */
export async function layoutProblems(page, name) {
  const before = page.viewportSize();
  const problems = [];
  const file = name.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 120) || 'home';
  const size = (width) => ({ width, height: 900 });
  const same = (a, b) => Boolean(a && b) && a.width === b.width && a.height === b.height;
  // The width the page is laid out at first (the audit opens its pages at 1440 by 900): a
  // relayout fewer per page.
  const widths = [...WIDTHS].sort((a, b) => same(size(b), before) - same(size(a), before));
  for (const width of widths) {
    if (!same(page.viewportSize(), size(width))) await page.setViewportSize(size(width));
    for (const p of await page.evaluate(problemsInPage)) problems.push(`[layout ${width} px] ${p}`);
    // A staff table's row menus, open (issue 28: a menu cut off at the screen's edge hides
    // its actions): the first row's, as each row's is the same.
    const opened = await page.evaluate(() => {
      const menu = document.querySelector('details.row-menu:not([open])');
      if (menu) menu.open = true;
      return Boolean(menu);
    });
    if (opened) {
      for (const p of await page.evaluate(problemsInPage)) problems.push(`[layout ${width} px, row menu open] ${p}`);
      await page.evaluate(() => document.querySelectorAll('details.row-menu[open]').forEach((d) => { d.open = false; }));
    }
    // From the top, so the sticky header is where a reader first sees it.
    await page.evaluate(() => window.scrollTo(0, 0));
    if (LAYOUT_SHOTS) {
      await page.screenshot({ path: path.join(LAYOUT_SHOTS, `${file}-${width}.jpg`), fullPage: true, type: 'jpeg', quality: 60 });
    }
  }
  if (before && !same(page.viewportSize(), before)) await page.setViewportSize(before);
  return problems;
}
