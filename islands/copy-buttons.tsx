// Copy buttons on the transfer card (`app/src/pages/payment.rs`, the root carries
// data-island="copy-buttons"). The server renders each button as
//
//   <button type="button" class="copy-button" data-copy="VALUE" data-copied="Copied" hidden>
//
// so that without JavaScript there is no button that does nothing: the values stay plain,
// selectable text. This script shows the buttons and copies on click, saying so in the button
// for two seconds. No React: it is a few lines of DOM.

const SHOWN_FOR_MS = 2_000;

function setUp(button: HTMLButtonElement) {
  const label = button.textContent ?? '';
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(button.dataset.copy ?? '');
    } catch {
      // Refused (no permission, or not a secure context): the value is still selectable.
      return;
    }
    button.textContent = button.dataset.copied ?? label;
    window.setTimeout(() => {
      button.textContent = label;
    }, SHOWN_FOR_MS);
  });
}

// Like the React islands, the root says when it is ready (`data-island-ready`).
document.querySelectorAll<HTMLElement>('[data-island="copy-buttons"]').forEach((root) => {
  root.querySelectorAll<HTMLButtonElement>('button.copy-button[data-copy]').forEach(setUp);
  root.dataset.islandReady = '1';
});
