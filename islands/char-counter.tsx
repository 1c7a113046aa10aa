// Live character counter under a textarea (the startup application's description, step 1).
//
// The server renders, inside <div data-island="char-counter" data-props="{json}">, the static
// hint "At most 1000 characters." (the no-JavaScript fallback). This island replaces it with
//
//   <p class="field__hint" id="TARGET-hint" aria-live="polite">12 / 1000 characters</p>
//
// counting the Unicode code points of the textarea #TARGET as the user types (the server
// counts `chars()`, i.e. code points, too), and switching to the error style (field__error)
// past `max`. The textarea is outside the island's root: the island listens to its `input`
// events. The id stays TARGET-hint because the textarea's aria-describedby points at it.
//
// Props (strings in the page's language):
//   target   id of the textarea, e.g. "description"
//   max      the limit, e.g. 1000
//   unit     the word after the numbers, e.g. "karakter" / "characters"
//   template (older servers) a rendered Fluent message such as "{ $count } / { $max } karakter";
//            only used when `unit` is missing: its placeholders are dropped and what is left
//            (the words) is used as the unit.
import { useEffect, useState } from 'react';
import { mountRemountable } from './_remount';

export interface CharCounterProps {
  target: string;
  max: number;
  unit?: string;
  template?: string;
}

/** Code points, like Rust's `str::chars().count()` (an emoji counts once, not twice). */
export function codePoints(value: string): number {
  let n = 0;
  for (const _ of value) n += 1;
  return n;
}

/**
 * The words of a message that was meant to carry `{ $count }` / `{ $max }` but was rendered
 * without arguments: Fluent leaves `{$count}` (or `{ $count }`), a bare `$count`, or nothing,
 * and the " / " between them; all of that is removed, what remains is the unit.
 */
export function unitFromTemplate(template: string): string {
  return template
    .replace(/\{\s*\$?[\p{L}\p{N}_-]*\s*\}/gu, ' ') // { $count }, {$max}, {}
    .replace(/\$[\p{L}\p{N}_-]+/gu, ' ') // $count
    .replace(/[\u2068\u2069]/g, '') // Fluent's bidi isolation marks around placeables
    .replace(/^[\s/\d.,:|-]+/u, '') // the leading "/ ", numbers a server may have put in
    .replace(/\s+/g, ' ')
    .trim();
}

function textOf(el: HTMLElement | null): string {
  return el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement ? el.value : '';
}

export function CharCounter({ target, max, unit, template }: CharCounterProps) {
  const [count, setCount] = useState(() => codePoints(textOf(document.getElementById(target))));

  useEffect(() => {
    const field = document.getElementById(target);
    if (!field) return;
    const update = () => setCount(codePoints(textOf(field)));
    update(); // the value may have changed (restored by the browser) before the effect ran
    field.addEventListener('input', update);
    field.addEventListener('change', update);
    return () => {
      field.removeEventListener('input', update);
      field.removeEventListener('change', update);
    };
  }, [target]);

  const word = (unit ?? unitFromTemplate(template ?? '')).trim();
  const over = count > max;
  return (
    <p
      className={over ? 'field__error char-counter char-counter--over' : 'field__hint char-counter'}
      id={`${target}-hint`}
      aria-live="polite"
      data-count={count}
    >
      {`${count} / ${max}`}
      {word !== '' && ` ${word}`}
    </p>
  );
}

// Remountable: the page may be rewritten in place by the upload island (see _remount.ts).
mountRemountable('char-counter', CharCounter);
