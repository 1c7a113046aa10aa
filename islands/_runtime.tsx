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

function mountAll<P extends object>(name: string, Component: ComponentType<P>): void {
  const selector = `[data-island="${CSS.escape(name)}"]`;
  for (const el of document.querySelectorAll<HTMLElement>(selector)) {
    if (el.dataset.islandMounted === '1') continue;
    let props: P;
    try {
      props = JSON.parse(el.dataset.props ?? '{}') as P;
    } catch (err) {
      // Leave the no-JS fallback in place: it works without us.
      console.error(`island "${name}": data-props is not valid JSON`, err);
      continue;
    }
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
export function mountIslands<P extends object>(name: string, Component: ComponentType<P>): void {
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', () => mountAll(name, Component), { once: true });
  } else {
    mountAll(name, Component);
  }
}
