/**
 * What a person has typed or ticked about one item (a carrier's review, a decision), kept per
 * item: a note belongs to the carrier it was written about. Moving the selection puts the fields
 * away under the item they were for and brings back the new item's own (empty when it has none);
 * a decision drops its item's draft. Plain data; the view reads and fills the fields.
 */

/** The fields' contents: text of text fields, `checked` of checkboxes, in the view's order. */
export type Draft = ReadonlyArray<string | boolean>;

export class Drafts {
  readonly #byItem = new Map<string, Draft>();

  /** Keep the fields for `id`; an all-empty draft is not kept. */
  put(id: string, draft: Draft): void {
    if (draft.every((v) => v === '' || v === false)) this.#byItem.delete(id);
    else this.#byItem.set(id, [...draft]);
  }

  /** The fields for `id`, or undefined when it has none. */
  get(id: string): Draft | undefined {
    return this.#byItem.get(id);
  }

  drop(id: string): void {
    this.#byItem.delete(id);
  }

  /** Forget drafts of items no longer open (decided here or elsewhere). */
  keepOnly(ids: Iterable<string>): void {
    const keep = new Set(ids);
    for (const id of [...this.#byItem.keys()]) if (!keep.has(id)) this.#byItem.delete(id);
  }
}

/** The draft the fields hold now. */
export function readFields(fields: readonly (HTMLInputElement | HTMLTextAreaElement)[]): Draft {
  return fields.map((f) => (f instanceof HTMLInputElement && f.type === 'checkbox' ? f.checked : f.value));
}

/** Fill the fields from a draft; none: empty them. */
export function fillFields(fields: readonly (HTMLInputElement | HTMLTextAreaElement)[], draft: Draft | undefined): void {
  fields.forEach((f, i) => {
    const v = draft?.[i];
    if (f instanceof HTMLInputElement && f.type === 'checkbox') f.checked = v === true;
    else f.value = typeof v === 'string' ? v : '';
  });
}
