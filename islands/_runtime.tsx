// Shared island runtime: every island module imports this, so React and react-dom end up in
// one shared chunk that the browser caches once for all islands (React is imported statically
// here on purpose: esbuild exposes a dynamically imported CommonJS package only as `default`).
//
// The server renders each island's working no-JavaScript fallback inside
//   <div data-island="NAME" data-props="{json}">…fallback…</div>
// and loads /assets/islands/NAME-HASH.js as a module, which calls mountIslands('NAME', Component).
// React never rendered the fallback (Rust did), so we mount with createRoot, which replaces it,
// not hydrateRoot.
//
// An island may read what it needs from the fallback before React replaces it (a hint the props
// do not carry, what a no-JavaScript re-render kept typed) by passing `fromFallback`: its
// result is merged over the parsed props.
//
// Attributes set on the island element:
//   data-island-mounted="1"  set before rendering; makes mountIslands idempotent
//   data-island-ready="1"    set once React has committed the island to the DOM (tests wait on it)
import { StrictMode, useEffect, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

function Ready({ el, children }: { el: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    el.dataset.islandReady = '1';
  }, [el]);
  return children;
}

/** Reads extra props from the server-rendered fallback, before React replaces it. */
export type FromFallback<P> = (el: HTMLElement) => Partial<P>;

function mountAll<P extends object>(name: string, Component: ComponentType<P>, fromFallback?: FromFallback<P>): void {
  const selector = `[data-island="${CSS.escape(name)}"]`;
  for (const el of document.querySelectorAll<HTMLElement>(selector)) {
    if (el.dataset.islandMounted === '1') continue;
    let props: P;
    try {
      props = JSON.parse(el.dataset.props ?? '{}') as P;
    } catch {
      // Leave the no-JS fallback in place: it works without us. (The parse error is not logged:
      // its message quotes the props, which may hold what the user typed.)
      console.error(`island "${name}": data-props is not valid JSON`);
      continue;
    }
    if (fromFallback) props = { ...props, ...fromFallback(el) };
    el.dataset.islandMounted = '1';
    createRoot(el).render(
      <StrictMode>
        <Ready el={el}>
          <Component {...props} />
        </Ready>
      </StrictMode>,
    );
  }
}

/** Mounts `Component` on every `[data-island="name"]` element of the page, once each. */
export function mountIslands<P extends object>(
  name: string,
  Component: ComponentType<P>,
  fromFallback?: FromFallback<P>,
): void {
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', () => mountAll(name, Component, fromFallback), { once: true });
  } else {
    mountAll(name, Component, fromFallback);
  }
}
