// Islands that must come back after the page's document is replaced in place.
//
// The upload island answers a 422 (the server's re-rendered step with its messages) by writing
// the response into the current document (document.open/write/close), so the page is exactly
// what it would be without JavaScript. The written <script type="module"> tags do not run the
// islands again: this window has already evaluated those modules. So islands that live on such
// a page mount through `mountRemountable`, and the writer calls `remountAll()` afterwards.
//
// (Islands not mounted this way keep their server-rendered no-JavaScript fallback there, which
// works.)
import type { ComponentType } from 'react';
import { mountIslands, type FromFallback } from './_runtime';

const remounts = new Map<string, () => void>();

/** mountIslands(name, …), remembered so that remountAll() can mount it again. */
export function mountRemountable<P extends object>(
  name: string,
  Component: ComponentType<P>,
  fromFallback?: FromFallback<P>,
): void {
  const mount = () => mountIslands(name, Component, fromFallback);
  remounts.set(name, mount);
  mount();
}

/** Mounts every remembered island on the elements of the (new) document not mounted yet. */
export function remountAll(): void {
  for (const mount of remounts.values()) mount();
}
