import type { Screening } from '../../../shared/screening.js';
import { carrierNames } from '../carrier-facts.js';
import type { DeskModel } from '../desk-model.js';
import { h, replaceChildren } from '../dom.js';
import { chip } from '../chip.js';
import { fmtAge, fmtCount, fmtLocal, fmtUtc } from '../format.js';
import type { Toaster } from '../toaster.js';
import { actionTerm, decisionTerm, holdReasonTerm, sourceTerm } from '../vocabulary.js';
import { holdOpensReview } from '../../../shared/tender-rules.js';
import { laneOf, loadOf, pickupOf } from '../load-facts.js';

/** Live queue counts, pause/resume, and the latest screenings with the action each got. */
export class QueueView {
  readonly root: HTMLElement;
  private readonly cards = h('div', { class: 'cards' });
  private readonly service = h('div', { class: 'service-line' });
  private readonly table = h('tbody');
  private readonly pauseBtn: HTMLButtonElement;
  private busy = false;

  constructor(
    private readonly model: DeskModel,
    private readonly toast: Toaster,
    private readonly openReview: (screeningId: string) => void,
    /** A blocked tender opens its carrier's page (why it is blocked, and the lift). */
    private readonly openCarrier: (s: Screening) => void = () => undefined,
  ) {
    this.pauseBtn = h(
      'button',
      { class: 'btn', attrs: { type: 'button', id: 'pause-toggle' }, on: { click: () => void this.togglePause() } },
      'Pause queue',
    );
    this.root = h(
      'section',
      { class: 'view view-queue', attrs: { 'aria-label': 'Queue' } },
      h('div', { class: 'view-head' }, h('h2', null, 'Queue'), this.pauseBtn),
      this.cards,
      this.service,
      h('h3', { class: 'd-sub' }, 'Latest screenings'),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'screenings' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ...['Asked', 'Carrier', 'Tender', 'Status', 'Action', 'Why held', 'Score', 'Source', 'Review'].map((c) => h('th', null, c)),
            ),
          ),
          this.table,
        ),
      ),
    );
    this.render();
  }

  render(): void {
    const s = this.model.status;
    if (!s) {
      replaceChildren(this.cards, h('p', { class: 'muted' }, this.model.errors.get('status') ?? 'Loading…'));
    } else {
      const q = s.queue;
      replaceChildren(
        this.cards,
        card('Waiting', fmtCount(q.waiting), q.paused ? 'paused' : 'to be looked up'),
        card('Active', fmtCount(q.active), 'being looked up now'),
        card('Delayed', fmtCount(q.delayed), 'waiting to retry', q.delayed > 0 ? 'warn' : ''),
        card('Failed', fmtCount(q.failed), 'jobs that gave up', q.failed > 0 ? 'bad' : ''),
        card('Completed', fmtCount(q.completed), 'kept in the queue'),
        card('Reviews', fmtCount(s.reviews.pending), 'waiting for a dispatcher', s.reviews.pending > 0 ? 'warn' : ''),
        // The callback outbox (absent from older workers): dead ones need an operator's retry.
        ...(s.callbacks
          ? [
              card(
                'Dead callbacks',
                fmtCount(s.callbacks.dead),
                s.callbacks.dead > 0
                  ? 'gave up after 24 h: retry with POST /callbacks/:id/retry'
                  : `${fmtCount(s.callbacks.pending)} on their way to the TMS`,
                s.callbacks.dead > 0 ? 'bad' : '',
              ),
            ]
          : []),
      );
      this.pauseBtn.textContent = q.paused ? 'Resume queue' : 'Pause queue';
      this.pauseBtn.className = `btn ${q.paused ? 'btn-approve' : ''}`;
      const sv = s.service;
      replaceChildren(
        this.service,
        h('span', { class: `dot ${sv.reachable && !sv.key_rejected && !sv.hold_off_until ? 'dot-ok' : 'dot-bad'}` }),
        sv.key_rejected
          ? 'The /v1 service rejected the API key.'
          : sv.hold_off_until
            ? `The /v1 service asked (Retry-After) for no calls until ${fmtLocal(sv.hold_off_until)}; cached scores are served, misses are held.`
            : sv.reachable
              ? `The /v1 scoring service (${s.environment}) is reachable.`
              : `The /v1 scoring service is unreachable${sv.last_error ? `: ${sv.last_error}` : ''}. Cached scores are served; misses are held.`,
        sv.checked_at ? h('span', { class: 'muted' }, ` Checked ${fmtAge(sv.checked_at)}.`) : null,
        q.paused ? h('strong', { class: 'paused-note' }, ' Queue paused: new screenings wait; nothing is sent to /v1.') : null,
      );
    }
    this.pauseBtn.disabled = !s || this.busy || this.model.connection !== 'open';
    // Pausing is an admin's: a desk or TMS token is not offered a button that would be refused.
    this.pauseBtn.hidden = this.model.me !== null && this.model.me.role !== 'admin';

    const rows = this.model.screenings;
    if (rows.length === 0) {
      replaceChildren(
        this.table,
        h('tr', null, h('td', { attrs: { colspan: 9 }, class: 'muted' }, this.model.errors.get('screenings') ?? 'No screenings yet.')),
      );
      return;
    }
    replaceChildren(this.table, ...rows.map((x) => this.row(x)));
  }

  private row(s: Screening): HTMLElement {
    const n = carrierNames(s);
    const pendingReview = s.review?.state === 'pending';
    // A pending review opens on the desk; a blocked tender opens its carrier's page.
    const open = pendingReview ? () => this.openReview(s.id) : s.action === 'block' && (n.dot || n.mc) ? () => this.openCarrier(s) : null;
    const tr = h(
      'tr',
      {
        class: open ? 'clickable' : '',
        dataset: { screeningId: s.id },
        attrs: open
          ? { title: pendingReview ? 'Open in the review desk' : `Open ${n.name}'s carrier page: why it is blocked`, tabindex: 0 }
          : {},
        on: open
          ? {
              click: open,
              keydown: (e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                open();
              },
            }
          : {},
      },
      h('td', { attrs: { title: fmtUtc(s.created_at) } }, fmtLocal(s.created_at), h('div', { class: 'muted' }, fmtAge(s.created_at))),
      h(
        'td',
        null,
        h('div', { class: 'cell-name' }, n.name),
        h('div', { class: 'muted' }, [n.dot ? `DOT ${n.dot}` : null, n.mc].filter(Boolean).join(' · ')),
      ),
      h('td', null, s.tender_id ?? '—', loadLine(s)),
      h('td', null, s.status, s.priority === 'background' ? h('div', { class: 'muted' }, 'background') : null),
      h('td', null, chip(actionTerm(s.action))),
      h('td', null, s.hold_reason ? chip(holdReasonTerm(s.hold_reason)) : '—'),
      h(
        'td',
        null,
        s.score ? `${s.score.score} · ${s.score.grade} ` : s.error ? h('code', null, s.error.code) : '—',
        s.score ? chip(decisionTerm(s.score.decision)) : null,
      ),
      h(
        'td',
        null,
        chip(sourceTerm(s.source)),
        s.score_fetched_at
          ? h('div', { class: 'muted', attrs: { title: fmtUtc(s.score_fetched_at) } }, `fetched ${fmtAge(s.score_fetched_at)}`)
          : null,
      ),
      h(
        'td',
        null,
        s.review
          ? s.review.state === 'pending'
            ? h('span', { class: 'chip tone-warn' }, 'pending →')
            : h(
                'span',
                { class: `chip tone-${s.review.state === 'approved' ? 'ok' : 'bad'}`, attrs: { title: s.review.note ?? '' } },
                `${s.review.state} by ${s.review.decided_by ?? '?'}`,
              )
          : s.action === 'hold' && s.status === 'done' && !holdOpensReview(s, { action: s.action, score: s.score })
            ? // No load waits on it and it has no score: nothing for a person to decide.
              h(
                'span',
                {
                  class: 'chip tone-muted',
                  attrs: {
                    title:
                      'Background screening with no tender and no score: no desk card (no load waits on it); screen it again when the quota allows',
                  },
                },
                'no card',
              )
            : '—',
      ),
    );
    return tr;
  }

  private async togglePause(): Promise<void> {
    const s = this.model.status;
    if (!s || this.busy) return;
    this.busy = true;
    this.render();
    try {
      this.model.status = s.queue.paused ? await this.model.bridge.resumeQueue() : await this.model.bridge.pauseQueue();
      this.toast.show(this.model.status.queue.paused ? 'Queue paused: nothing is sent to /v1 until you resume.' : 'Queue resumed.', 'ok');
    } catch (err) {
      this.toast.show(
        `Could not ${s.queue.paused ? 'resume' : 'pause'} the queue: ${err instanceof Error ? err.message : String(err)}`,
        'bad',
      );
    } finally {
      this.busy = false;
      this.render();
    }
  }
}

/** Under the tender: the load's pickup (local time with zone, UTC on hover) and lane, when the TMS sent them. */
function loadLine(s: Screening): HTMLElement | null {
  // Read tolerantly: an older worker's screenings have no load.
  const load = loadOf(s.load);
  const pickup = pickupOf(load);
  const lane = laneOf(load);
  if (pickup === null && lane === null) return null;
  return h(
    'div',
    { class: 'muted q-load' },
    pickup !== null ? h('span', { class: 'q-pickup', attrs: { title: fmtUtc(pickup) } }, `pickup ${fmtLocal(pickup)}`) : null,
    pickup !== null && lane !== null ? ' · ' : null,
    lane !== null ? h('span', { class: 'q-lane' }, lane) : null,
  );
}

function card(label: string, value: string, note: string, tone = ''): HTMLElement {
  return h(
    'div',
    { class: `card ${tone ? `tone-${tone}` : ''}` },
    h('div', { class: 'card-label' }, label),
    h('div', { class: 'card-value' }, value),
    h('div', { class: 'card-note' }, note),
  );
}
