import type { HistoryPage } from '../shared/bridge.js';

/**
 * A history the desk shows a page of (issue 30): the first page is read (and read again after
 * live events), older pages only when the person asks ("Show older"), each from the cursor of the
 * last item shown. What is shown is the union of what was read, in the list's order, never a
 * duplicate. An ended decision or a lifted block never leaves its history, so a re-read first
 * page that reaches an item already shown joins the older pages without a gap; one that does not
 * (more than a page arrived unseen, e.g. while the event stream was down) starts the history
 * again from that page.
 */
export class PagedHistory<T extends { id: string }> {
  items: T[] = [];
  /** Older items exist beyond the last one shown. */
  more = false;
  /**
   * How many are kept: one page until "Show older" is used; from then on everything read is kept
   * (a new item at the top never pushes out an older one the person asked to see).
   */
  private shown: number;

  constructor(
    readonly pageSize: number,
    private readonly order: (a: T, b: T) => number,
    private readonly read: (limit: number, startingAfter?: string) => Promise<HistoryPage<T>>,
  ) {
    this.shown = pageSize;
  }

  /** Read the first page again and merge it with what is shown. */
  async reload(): Promise<void> {
    const page = await this.read(this.pageSize);
    const shownIds = new Set(this.items.map((x) => x.id));
    if (page.has_more && this.items.length > 0 && !page.data.some((x) => shownIds.has(x.id))) {
      // Unseen items lie between this page and what is shown: begin again from the top.
      this.items = [...page.data].sort(this.order);
      this.shown = this.pageSize;
      this.more = true;
      return;
    }
    const merged = this.merge(page.data);
    if (this.expanded()) this.shown = merged.length;
    const kept = merged.slice(0, this.shown);
    const tail = kept[kept.length - 1];
    // Beyond the last item kept: what was cut off, else what the read that brought that item said.
    const tailFromPage = tail === undefined || page.data.some((x) => x.id === tail.id);
    this.more = merged.length > kept.length || (tailFromPage ? page.has_more : this.more);
    this.items = kept;
  }

  /** The next page after the last item shown, appended; how many items it added. */
  async older(): Promise<number> {
    const last = this.items[this.items.length - 1];
    if (last === undefined) {
      await this.reload();
      return this.items.length;
    }
    const page = await this.read(this.pageSize, last.id);
    const before = this.items.length;
    this.items = this.merge(page.data);
    this.shown = Math.max(this.shown, this.items.length);
    this.more = page.has_more;
    return this.items.length - before;
  }

  /** An item a live event (or this window) just ended: at the top at once, one page stays one page. */
  add(item: T): void {
    const merged = this.merge([item]);
    if (this.expanded()) this.shown = merged.length;
    if (merged.length > this.shown) this.more = true;
    this.items = merged.slice(0, this.shown);
  }

  private expanded(): boolean {
    return this.shown > this.pageSize;
  }

  private merge(fresh: readonly T[]): T[] {
    const byId = new Map(this.items.map((x) => [x.id, x] as const));
    for (const x of fresh) byId.set(x.id, x);
    return [...byId.values()].sort(this.order);
  }
}
