import { h } from '../dom.js';

/** Browser build without a token: ask for it once per tab. */
export function tokenForm(onToken: (token: string) => void, problem?: string): HTMLElement {
  const input = h('input', {
    attrs: {
      id: 'token-input',
      type: 'password',
      autocomplete: 'off',
      required: true,
      placeholder: 'Desk token',
      'aria-label': 'Desk token',
    },
  });
  return h(
    'div',
    { class: 'token-screen' },
    h(
      'form',
      {
        class: 'token-card',
        on: {
          submit: (e) => {
            e.preventDefault();
            if (input.value.trim()) onToken(input.value.trim());
          },
        },
      },
      h('h1', null, 'Carrier Screen'),
      h('p', null, 'Paste your desk token (your admin gives it to you) to open the desk. It is kept for this browser tab only.'),
      problem ? h('p', { class: 'dp-error', attrs: { role: 'alert' } }, problem) : null,
      input,
      h('button', { class: 'btn btn-approve', attrs: { type: 'submit' } }, 'Open dashboard'),
    ),
  );
}
