import { h } from './dom.js';
import type { Term } from './vocabulary.js';

/** A term of the vocabulary as a chip: its tone, marked when the value is new to this app, its hint on hover. */
export function chip(t: Term): HTMLElement {
  return h('span', { class: `chip tone-${t.tone}${t.known ? '' : ' unknown'}`, attrs: { title: t.hint ?? null } }, t.label);
}
