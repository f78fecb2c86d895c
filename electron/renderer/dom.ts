/**
 * The renderer's only way to build DOM. Data goes in as text nodes and attribute values,
 * never as markup: no innerHTML anywhere, so a carrier named `<img onerror=…>` is just a name.
 */

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes (never event handlers: use `on`). */
  attrs?: Record<string, string | number | boolean | null | undefined>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (ev: HTMLElementEventMap[K]) => void }>;
  dataset?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props?.class) el.className = props.class;
  if (props?.attrs)
    for (const [name, value] of Object.entries(props.attrs)) {
      if (/^on/i.test(name)) throw new Error(`h(): attribute ${name} is an event handler; use props.on`);
      if (value === null || value === undefined || value === false) continue;
      el.setAttribute(name, value === true ? '' : String(value));
    }
  if (props?.dataset) for (const [k, v] of Object.entries(props.dataset)) el.dataset[k] = v;
  if (props?.on) for (const [type, fn] of Object.entries(props.on)) el.addEventListener(type, fn as EventListener);
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replace every child of `el`. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}
