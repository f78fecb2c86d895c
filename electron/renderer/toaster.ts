import { h } from './dom.js';

/** Short messages at the corner of the window; read out by screen readers (aria-live). */
export class Toaster {
  readonly root = h('div', { class: 'toasts', attrs: { 'aria-live': 'polite', role: 'status' } });

  show(text: string, tone: 'ok' | 'bad' | 'info' = 'info', ms = 6000): void {
    const el = h('div', { class: `toast toast-${tone}` }, text);
    this.root.append(el);
    setTimeout(() => el.remove(), ms);
  }
}
