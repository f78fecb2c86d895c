import type { Decision } from '../../../shared/screening.js';
import { IntakeError, type DeskBridge } from '../../shared/bridge.js';
import type { DeskModel } from '../desk-model.js';
import { h, replaceChildren, type Child } from '../dom.js';
import { fmtAge, fmtLocal, fmtLocalDay, fmtUtc } from '../format.js';
import { chip } from '../chip.js';
import { endedText } from '../decision-end.js';
import { ListView } from '../list-view.js';
import { listStates } from '../list-states.js';
import { saveAuditCsv } from '../audit-save.js';
import { formatBytes } from '../../shared/byte-size.js';
import type { Toaster } from '../toaster.js';
import { decisionTerm } from '../vocabulary.js';

/**
 * Standing carrier decisions (docs/decisions.md): who decided which carrier, until when, on what
 * basis; a person may revoke one (the carrier's next hold opens a review). Ended ones (lapsed
 * because the score changed or the TTL passed, or revoked) are kept below to read. The audit
 * CSV of a date range is exported from here.
 */

export function decisionsView(model: DeskModel, toast: Toaster): ListView<Decision> {
  /**
   * The note a decision was made with lives on its review: the desk's recent decisions have it,
   * an older one is read once (GET /reviews/:id). undefined: not known yet.
   */
  const notes = new Map<string, string | null>();
  const reading = new Set<string>();
  const noteOf = (d: Decision): string | null | undefined => {
    const recent = model.decided.find((r) => r.id === d.review_id);
    if (recent) return recent.note;
    if (notes.has(d.review_id)) return notes.get(d.review_id);
    if (!reading.has(d.review_id)) {
      reading.add(d.review_id);
      void model.bridge
        .getReview(d.review_id)
        .then((r) => notes.set(d.review_id, r.note))
        .catch(() => notes.set(d.review_id, null))
        .finally(() => {
          reading.delete(d.review_id);
          view.render();
        });
    }
    return undefined;
  };
  const view: ListView<Decision> = new ListView<Decision>(
    {
      view: 'decisions',
      label: 'Carrier decisions',
      title: 'Standing decisions',
      sideNote: 'A decision stands for later tenders of the carrier while its score does not change.',
      list: { class: 'dc-list', label: 'Standing carrier decisions' },
      historyTitle: 'Ended',
      historyClass: 'dc-history',
      historySelectable: true,
      panel: { class: 'revoke-panel', label: 'Revoke', nameId: 'revoke-name' },
      note: { id: 'revoke-note', placeholder: 'Why (recorded with the revoke)' },
      actions: [
        {
          mode: 'revoke',
          label: 'Revoke',
          key: 'v',
          buttonClass: 'btn-revoke',
          buttonId: 'revoke-start',
          question: (d) =>
            `Revoke the ${d.decision === 'approved' ? 'approval' : 'rejection'} of ${nameOf(d)} (made by ${d.decided_by} ${fmtAge(d.decided_at)})? The record keeps both; its next held tender opens a review.`,
        },
      ],
      sideExtras: auditExportForm(model.bridge, toast),
      ...listStates(model, ['decisions'], 'standing decisions', ['decisionHistory']),
      items: () => model.decisions,
      history: () => model.decisionHistory,
      historyMore: { more: () => model.endedDecisions.more, load: () => model.showOlder('decisionHistory'), what: 'ended decisions' },
      row: (d) => ({
        class: `dc-item dc-${d.decision}`,
        dataset: { decisionId: d.id },
        children: [
          h('div', { class: 'rv-line1' }, h('span', { class: 'rv-name', attrs: { title: nameOf(d) } }, nameOf(d)), verdictChip(d)),
          h('div', { class: 'rv-line2' }, idsOf(d) || '—'),
          h(
            'div',
            { class: 'rv-line3' },
            h('span', { class: 'dc-by' }, `${d.decided_by} · ${fmtAge(d.decided_at)}`),
            h('span', { class: 'rv-age', attrs: { title: fmtUtc(d.expires_at) } }, `until ${fmtLocalDay(d.expires_at)}`),
          ),
        ],
      }),
      historyRow: (d) => {
        const ended = endedText(d);
        return {
          class: `rv-done dc-done dc-${d.state}`,
          dataset: { decisionId: d.id },
          children: [
            h('span', { class: `badge badge-ended badge-${d.state}` }, d.state),
            h('span', { class: 'rv-done-name' }, nameOf(d), ' · ', h('s', { attrs: { title: 'no longer stands' } }, d.decision)),
            h(
              'span',
              { class: 'rv-done-by', attrs: { title: `${ended?.line ?? ''} · ${fmtUtc(d.ended_at)}` } },
              `${ended?.line ?? d.state} · ${fmtAge(d.ended_at)}`,
            ),
          ],
        };
      },
      emptyList: () => {
        const err = model.errors.get('decisions');
        return err ? `Could not load decisions: ${err}` : 'No standing decisions. Approving or rejecting a review makes one.';
      },
      emptyHistory: () => {
        const err = model.errors.get('decisionHistory');
        return err ? `Could not load ended decisions: ${err}` : 'None ended yet.';
      },
      emptyDetail: () => [
        h(
          'div',
          { class: 'rv-none' },
          h('p', { class: 'big-empty' }, 'No carrier decisions.'),
          h('p', null, 'When a dispatcher decides a held carrier, the decision is listed here while it stands.'),
        ),
      ],
      detail: (d) => decisionDetail(d, noteOf(d)),
      idleLine: (d, open) => {
        if (!d) return 'Nothing to revoke.';
        if (!open)
          return `This decision ${d.state === 'revoked' ? `was revoked by ${d.ended_by ?? '?'}` : 'lapsed'} ${fmtAge(d.ended_at)}.`;
        return "Revoke ends the decision: the carrier's next held tender goes to the review desk again.";
      },
      nothingToAct: 'Nothing to revoke: no standing decision.',
      alreadyDone: (d) => `This decision is already ${d.state}.`,
      recordName: 'the revoke',
      signedInAs: () => model.signedInName(),
      perform: async (_mode, d, who, note) => {
        await model.revoke(d.id, who.typed ? who.name : null, note);
        return `Revoked: the ${d.decision === 'approved' ? 'approval' : 'rejection'} of ${nameOf(d)}. Recorded for ${who.name}.`;
      },
      conflict: async (err, d) => {
        if (!(err instanceof IntakeError && err.code === 'decision_conflict')) return null;
        await Promise.all([model.load('decisions'), model.load('decisionHistory')]);
        return `${nameOf(d)}: this decision no longer stands (${err.message}). The list is refreshed.`;
      },
      doneElsewhere: () =>
        model
          .takeRevokedElsewhere()
          .map((d) => `The decision on ${nameOf(d)} was revoked${d.ended_by ? ` by ${d.ended_by}` : ''} elsewhere`),
    },
    toast,
  );
  return view;
}

function nameOf(d: Decision): string {
  return d.legal_name ?? (d.dot_number ? `DOT ${d.dot_number}` : (d.mc_number ?? 'unknown carrier'));
}

function idsOf(d: Decision): string {
  return [d.dot_number ? `DOT ${d.dot_number}` : null, d.mc_number].filter(Boolean).join(' · ');
}

function verdictChip(d: Decision): HTMLElement {
  return h(
    'span',
    { class: `chip tone-${d.decision === 'approved' ? 'ok' : 'bad'}` },
    d.decision === 'approved' ? 'approved → tender' : 'rejected → block',
  );
}

function field(label: string, ...value: Child[]): HTMLElement[] {
  return [h('dt', null, label), h('dd', null, ...value)];
}

/** One decision: what it settles, until when, on what basis, its note, and how it ended. `note` undefined: still being read. */
export function decisionDetail(d: Decision, note?: string | null): HTMLElement[] {
  const out: HTMLElement[] = [];
  const ended = endedText(d);
  out.push(
    h(
      'header',
      { class: 'd-head' },
      h(
        'div',
        { class: 'd-names' },
        h('h2', { class: 'd-legal' }, nameOf(d)),
        h(
          'div',
          { class: 'd-ids' },
          h('span', { class: 'id' }, 'DOT ', h('strong', null, d.dot_number ?? '—')),
          h('span', { class: 'id' }, h('strong', null, d.mc_number ?? 'MC —')),
        ),
      ),
      // An ended decision is drawn as ended: its state in words, the decision struck through, no live colour.
      ended
        ? h(
            'div',
            { class: `d-score tone-muted dc-ended dc-ended-${ended.state}` },
            h('div', { class: 'd-score-num dc-verdict' }, ended.state),
            h('div', { class: 'd-score-grade' }, h('s', { attrs: { title: 'no longer stands' } }, d.decision), ' · no longer stands'),
          )
        : h(
            'div',
            { class: `d-score tone-${d.decision === 'approved' ? 'ok' : 'bad'}` },
            h('div', { class: 'd-score-num dc-verdict' }, d.decision),
            h('div', { class: 'd-score-grade' }, d.state),
          ),
    ),
  );
  const expires = Date.parse(d.expires_at);
  const standing =
    d.state === 'standing'
      ? `Stands until ${fmtLocal(d.expires_at)} (${expires > Date.now() ? `${Math.ceil((expires - Date.now()) / 86_400_000)} days left` : 'expired: lapses at the next screening'}) unless the score changes or someone revokes it. Later tenders of this carrier are ${d.decision === 'approved' ? 'tendered' : 'blocked'} at once, without a review.`
      : `${ended!.line.replace(/^(revoked |lapsed: )/, '')} — ${fmtAge(d.ended_at)} (${fmtLocal(d.ended_at)}). It no longer settles tenders: the carrier's next hold goes to the review desk.`;
  out.push(
    h(
      'div',
      { class: `d-held ${ended ? `dc-ended-line dc-ended-${ended.state}` : 'tone-ok'}` },
      h('span', { class: 'd-held-label' }, ended ? (ended.state === 'revoked' ? 'Revoked' : 'Lapsed') : 'Standing'),
      h('span', { class: 'd-held-hint' }, standing),
    ),
  );
  // Read-back: what the dispatcher wrote when deciding, then (if revoked) why it was revoked.
  out.push(
    h(
      'div',
      { class: 'dc-note', attrs: { id: 'decision-note-read' } },
      h('span', { class: 'd-k' }, `Note with the ${d.decision === 'approved' ? 'approval' : 'rejection'}`),
      note === undefined
        ? h('span', { class: 'muted' }, 'reading…')
        : note
          ? h('strong', null, note)
          : h('span', { class: 'muted' }, 'none written'),
    ),
  );
  if (ended?.state === 'revoked' && ended.note)
    out.push(h('div', { class: 'd-previous dc-revoke-note' }, h('span', { class: 'd-k' }, 'Why revoked'), h('strong', null, ended.note)));

  const b = d.basis as {
    decision?: unknown;
    grade?: unknown;
    needs_manual_review?: unknown;
    knockout_codes?: unknown;
    reason_checks?: unknown;
  };
  const codes = (v: unknown): Child =>
    Array.isArray(v) && v.length
      ? h('span', { class: 'dc-basis' }, ...v.map((c) => h('code', null, String(c))))
      : h('span', { class: 'muted' }, 'none');
  out.push(
    h('h3', { class: 'd-sub' }, 'It stands while the score still says'),
    h(
      'dl',
      { class: 'd-meta' },
      ...field('The scoring service says', typeof b.decision === 'string' ? chip(decisionTerm(b.decision)) : '—'),
      ...field('Grade', String(b.grade ?? '—')),
      ...field('Service asks a person to look', b.needs_manual_review === true ? 'yes' : 'no'),
      ...field('Knockouts', codes(b.knockout_codes)),
      ...field('Findings', codes(b.reason_checks)),
      ...field('Scoring model', d.model_version ?? '—', h('span', { class: 'muted' }, ' (shown; a new model alone does not end it)')),
    ),
    h('h3', { class: 'd-sub' }, 'Record'),
    h(
      'dl',
      { class: 'd-meta' },
      ...field('Decided', `by ${d.decided_by}, ${fmtLocal(d.decided_at)} (${fmtAge(d.decided_at)})`),
      // Reference numbers for support, not for deciding.
      ...field('Reference', h('span', { class: 'muted' }, `${d.id} · card ${d.review_id}`)),
    ),
  );
  return out;
}

/** From/to (UTC days, both included) and a button that saves the audit CSV, with progress. */
function auditExportForm(bridge: DeskBridge, toast: Toaster): HTMLElement {
  const day = (t: number): string => new Date(t).toISOString().slice(0, 10);
  const today = Date.now();
  const from = h('input', { attrs: { type: 'date', id: 'audit-from', value: day(today - 30 * 86_400_000) } });
  const to = h('input', { attrs: { type: 'date', id: 'audit-to', value: day(today) } });
  const error = h('div', { class: 'ae-error', attrs: { role: 'alert' } });
  // Bytes so far: the total is not known until the last row.
  const progress = h('div', { class: 'ae-progress', attrs: { role: 'status', 'aria-live': 'polite', id: 'audit-progress' } });
  const button = h(
    'button',
    { class: 'btn', attrs: { type: 'button', id: 'audit-export' }, on: { click: () => void run() } },
    'Export audit CSV',
  );

  async function run(): Promise<void> {
    replaceChildren(error);
    if (!from.value || !to.value || from.value > to.value) {
      error.textContent = 'Pick a start day on or before the end day.';
      return;
    }
    const end = day(Date.parse(`${to.value}T00:00:00Z`) + 86_400_000); // the end day is included
    button.disabled = true;
    progress.textContent = 'Exporting…';
    try {
      const saved = await saveAuditCsv(
        bridge,
        { from: from.value, to: end, fileName: `carrier-screen-audit-${from.value}-to-${to.value}.csv` },
        (bytes) => {
          progress.textContent = `Exporting… ${formatBytes(bytes)}`;
        },
      );
      if (saved) toast.show(`Audit CSV saved: ${saved.file} (${formatBytes(saved.bytes)}, ${from.value} to ${to.value} UTC).`, 'ok');
    } catch (err) {
      error.textContent = `Not exported: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      progress.textContent = '';
      button.disabled = false;
    }
  }

  return h(
    'form',
    { class: 'audit-export', attrs: { 'aria-label': 'Export the audit record' }, on: { submit: (e) => e.preventDefault() } },
    h('strong', null, 'Audit record'),
    h('label', null, 'From (UTC)', from),
    h('label', null, 'To (UTC, included)', to),
    button,
    progress,
    error,
  );
}
