import type { CarrierChange, CarrierSnapshot, ChangeFinding, ChangeTender, Review } from '../../../shared/screening.js';
import { IntakeError } from '../../shared/bridge.js';
import {
  beforeInWords,
  changeCarrierIds,
  changeCarrierName,
  changeSummary,
  loadStatusText,
  newKnockouts,
} from '../../shared/change-text.js';
import { carrierNames } from '../carrier-facts.js';
import type { DeskModel } from '../desk-model.js';
import { h, type Child } from '../dom.js';
import { chip } from '../chip.js';
import { fmtAge, fmtLocal, fmtUtc } from '../format.js';
import { ListView } from '../list-view.js';
import { listStates } from '../list-states.js';
import type { Toaster } from '../toaster.js';
import { actionTerm, changeReasonTerm, decisionTerm, holdReasonTerm, severityTerm } from '../vocabulary.js';

/**
 * Carrier changes (docs/watchlist.md): a carrier tendered in the last days that now screens
 * differently. Each shows who, why, before → after and the loads that used it; a dispatcher
 * acknowledges it under their name. Acknowledged ones can be read in the history.
 */

/** The carrier page's address (electron/renderer/views/carrier.ts); null when the change names no carrier. */
export function carrierHref(c: Pick<CarrierChange, 'dot_number' | 'mc_number'>): string | null {
  if (c.dot_number) return `#/carrier/dot/${c.dot_number}`;
  const mc = c.mc_number?.replace(/[^0-9A-Za-z]/g, '');
  return mc ? `#/carrier/mc/${mc}` : null;
}

/** The carrier's open card on the desk (its own review, not a tender's item waiting on it), if one is open. */
export function openCardOf(c: Pick<CarrierChange, 'dot_number' | 'mc_number'>, pending: readonly Review[]): Review | undefined {
  return pending.find((r) => {
    if (r.state !== 'pending' || r.waits_on) return false;
    const n = carrierNames(r.screening);
    return (c.dot_number !== null && n.dot === c.dot_number) || (c.dot_number === null && c.mc_number !== null && n.mc === c.mc_number);
  });
}

export function changesView(
  model: DeskModel,
  toast: Toaster,
  openCard: (reviewId: string) => void = () => undefined,
): ListView<CarrierChange> {
  return new ListView<CarrierChange>(
    {
      view: 'changes',
      label: 'Carrier changes',
      title: 'Carrier changes',
      sideNote: 'Carriers tendered in the last days that screen differently now.',
      list: { class: 'ch-list', label: 'Carrier changes to acknowledge' },
      historyTitle: 'Acknowledged',
      historyClass: 'ch-history',
      historySelectable: true,
      panel: { class: 'ack-panel', label: 'Acknowledge', nameId: 'ack-name' },
      note: { id: 'ack-note', placeholder: 'What was done about the loads (optional, kept with it)', maxLength: 500 },
      actions: [
        {
          mode: 'ack',
          label: 'Acknowledge',
          key: 'a',
          buttonClass: 'btn-ack',
          buttonId: 'ack-start',
          question: (c, by) => `Acknowledge ${changeCarrierName(c)} (${changeSummary(c)}) as ${by}?`,
        },
      ],
      ...listStates(model, ['changes'], 'carrier changes', ['changeHistory']),
      items: () => model.changes,
      history: () => model.changeHistory,
      row: (c) => {
        const after = actionTerm(c.after.action);
        return {
          class: `ch-item ch-to-${after.tone}`,
          dataset: { changeId: c.id },
          children: [
            h('div', { class: 'rv-line1' }, h('span', { class: 'rv-name' }, changeCarrierName(c)), chip(after)),
            h('div', { class: 'rv-line2' }, changeCarrierIds(c) || '—'),
            h(
              'div',
              { class: 'rv-line3' },
              h('span', { class: 'ch-summary' }, changeSummary(c)),
              h('span', { class: 'rv-age', attrs: { title: fmtUtc(c.detected_at) } }, fmtAge(c.detected_at)),
            ),
            c.tenders.length > 0
              ? h('div', { class: 'ch-loads' }, `${c.tenders.length} ${c.tenders.length === 1 ? 'tender' : 'tenders'} used it`)
              : null,
          ],
        };
      },
      historyRow: (c) => ({
        class: 'rv-done ch-done',
        dataset: { changeId: c.id },
        children: [
          chip(actionTerm(c.after.action)),
          h('span', { class: 'rv-done-name' }, `${changeCarrierName(c)} · ${changeSummary(c)}`),
          h(
            'span',
            { class: 'rv-done-by', attrs: { title: fmtUtc(c.acknowledged_at) } },
            `${c.acknowledged_by ?? '?'} · ${fmtAge(c.acknowledged_at)}`,
          ),
          c.ack_note ? h('span', { class: 'rv-done-note ch-ack-note-line' }, `“${c.ack_note}”`) : null,
        ],
      }),
      emptyList: () => {
        const err = model.errors.get('changes');
        return err ? `Could not load changes: ${err}` : 'No changes to acknowledge. A watched carrier that changes appears here, live.';
      },
      emptyHistory: () => {
        const err = model.errors.get('changeHistory');
        return err ? `Could not load the history: ${err}` : 'Nothing acknowledged yet.';
      },
      emptyDetail: () => [
        h(
          'div',
          { class: 'rv-none' },
          h('p', { class: 'big-empty' }, 'No carrier changes.'),
          h('p', null, 'Tendered carriers are re-screened daily; a change in decision, action, knockouts or grade lands here.'),
        ),
      ],
      detail: (c) => {
        const card = openCardOf(c, model.pending);
        return changeDetail(c, { openCard: card ? () => openCard(card.id) : undefined });
      },
      idleLine: (c, open) => {
        if (!c) return 'Nothing to acknowledge.';
        if (!open)
          return c.acknowledged_by
            ? `Acknowledged by ${c.acknowledged_by} ${fmtAge(c.acknowledged_at)} (${fmtLocal(c.acknowledged_at)}).`
            : 'Acknowledged.';
        return 'Seen it and dealt with the loads? Acknowledge records your name and moves it to the history.';
      },
      nothingToAct: 'Nothing to acknowledge: no carrier changes.',
      alreadyDone: (c) => `Already acknowledged${c.acknowledged_by ? ` by ${c.acknowledged_by}` : ''}.`,
      recordName: 'the acknowledgement',
      signedInAs: () => model.signedInName(),
      perform: async (_mode, c, who, note) => {
        await model.acknowledge(c.id, who.typed ? who.name : null, note === '' ? null : note);
        return `Acknowledged: ${changeCarrierName(c)} (${changeSummary(c)}). Recorded for ${who.name}${note ? ', with your note' : ''}.`;
      },
      conflict: async (err, c) => {
        if (!(err instanceof IntakeError && err.code === 'change_conflict')) return null;
        await Promise.all([model.load('changes'), model.load('changeHistory')]);
        const who = model.changeHistory.find((x) => x.id === c.id)?.acknowledged_by;
        return `${changeCarrierName(c)}: someone else acknowledged this change already${who ? ` (${who})` : ''}. The list is refreshed.`;
      },
      doneElsewhere: () =>
        model.takeAcknowledgedElsewhere().map((gone) => {
          const ack = model.changeHistory.find((c) => c.id === gone.id) ?? gone;
          return `${changeCarrierName(gone)} (${changeSummary(gone)}) was acknowledged${ack.acknowledged_by ? ` by ${ack.acknowledged_by}` : ''} elsewhere`;
        }),
    },
    toast,
  );
}

// ---- pieces ----

function codes(list: readonly string[], fresh: readonly string[] = []): Child {
  if (list.length === 0) return h('span', { class: 'muted' }, 'none');
  return h(
    'span',
    { class: 'ko-codes' },
    ...list.map((k) =>
      h('code', { class: `ko-code${fresh.includes(k) ? ' ko-new' : ''}`, attrs: { title: fresh.includes(k) ? 'new' : null } }, k),
    ),
  );
}

interface Row {
  label: string;
  before: Child;
  after: Child;
  changed: boolean;
}

function snapshotRows(b: CarrierSnapshot, a: CarrierSnapshot, fresh: readonly string[]): Row[] {
  const num = (n: number | null): string => (n === null ? '—' : String(n));
  const rows: Row[] = [
    { label: 'Action', before: chip(actionTerm(b.action)), after: chip(actionTerm(a.action)), changed: b.action !== a.action },
    {
      label: 'Decision',
      before: chip(decisionTerm(b.decision)),
      after: chip(decisionTerm(a.decision)),
      changed: b.decision !== a.decision,
    },
    { label: 'Grade', before: b.grade ?? '—', after: a.grade ?? '—', changed: b.grade !== a.grade },
    { label: 'Score', before: num(b.score), after: num(a.score), changed: b.score !== a.score },
    {
      label: 'Knockouts',
      before: codes(b.knockout_codes),
      after: codes(a.knockout_codes, fresh),
      changed: b.knockout_codes.join() !== a.knockout_codes.join(),
    },
  ];
  if (b.hold_reason !== null || a.hold_reason !== null)
    rows.push({
      label: 'Held because',
      before: b.hold_reason ? chip(holdReasonTerm(b.hold_reason)) : '—',
      after: a.hold_reason ? chip(holdReasonTerm(a.hold_reason)) : '—',
      changed: b.hold_reason !== a.hold_reason,
    });
  rows.push(
    {
      label: 'Model',
      before: h('code', null, b.model_version),
      after: h('code', null, a.model_version),
      changed: b.model_version !== a.model_version,
    },
    {
      label: 'Scored',
      before: h('span', { attrs: { title: fmtUtc(b.fetched_at) } }, fmtLocal(b.fetched_at)),
      after: h('span', { attrs: { title: fmtUtc(a.fetched_at) } }, fmtLocal(a.fetched_at)),
      changed: false,
    },
    { label: 'Screening', before: h('code', null, b.screening_id), after: h('code', null, a.screening_id), changed: false },
  );
  return rows;
}

function findingList(list: readonly ChangeFinding[], cls: string): HTMLElement {
  return h(
    'ul',
    { class: `ch-findings ${cls}` },
    ...list.map((f) => {
      const sev = severityTerm(f.severity);
      return h(
        'li',
        { class: `ch-finding ${sev.tone}`, dataset: { code: f.code } },
        h(
          'span',
          { class: `sev-badge ${sev.tone}${sev.known ? '' : ' unknown'}`, attrs: { title: sev.hint ?? `severity ${sev.label}` } },
          f.kind === 'knockout' ? 'knockout' : sev.label,
        ),
        ' ',
        h('code', { class: 'ch-finding-code' }, f.code),
        f.detail ? h('span', { class: 'ch-finding-detail' }, ` ${f.detail}`) : null,
      );
    }),
  );
}

/** The findings the new score added and removed; for a change found before they were kept, the new knockouts only. */
function findingsSection(c: CarrierChange, fresh: readonly string[]): HTMLElement[] {
  const f = c.findings;
  if (!f) {
    return [
      h('h3', { class: 'd-sub' }, 'Findings'),
      h(
        'p',
        { class: 'muted ch-findings-unknown' },
        fresh.length > 0
          ? `New knockouts: ${fresh.join(', ')}. The other findings were not kept with this change.`
          : 'The findings of the old score were not kept with this change.',
      ),
    ];
  }
  return [
    h('h3', { class: 'd-sub' }, `Findings added (${f.added.length})`),
    f.added.length > 0
      ? findingList(f.added, 'ch-findings-added')
      : h('p', { class: 'muted ch-findings-added-none' }, 'None: the new score found nothing the old one had not.'),
    h('h3', { class: 'd-sub' }, `Findings removed (${f.removed.length})`),
    f.removed.length > 0
      ? findingList(f.removed, 'ch-findings-removed')
      : h('p', { class: 'muted ch-findings-removed-none' }, 'None: everything the old score found is still found.'),
  ];
}

function loadStatus(t: ChangeTender): HTMLElement {
  const text = loadStatusText(t);
  if (t.action === undefined)
    return h('span', { class: 'muted', attrs: { title: "This change was found before the loads' status was kept." } }, text);
  const term = actionTerm(t.action);
  const why = t.action === 'hold' && t.hold_reason ? holdReasonTerm(t.hold_reason).label : null;
  return h(
    'span',
    { class: 'ch-load-status' },
    chip(term),
    ' ',
    h('span', { class: 'ch-load-words' }, text),
    why ? h('span', { class: 'muted' }, ` (${why})`) : null,
  );
}

/** Everything about one change, most important first. `openCard`: opens the carrier's open card on the desk, when it has one. */
export function changeDetail(c: CarrierChange, links: { openCard?: (() => void) | undefined } = {}): HTMLElement[] {
  const after = actionTerm(c.after.action);
  const fresh = newKnockouts(c);
  const out: HTMLElement[] = [];

  out.push(
    h(
      'header',
      { class: 'd-head' },
      h(
        'div',
        { class: 'd-names' },
        h('h2', { class: 'd-legal' }, changeCarrierName(c)),
        h(
          'div',
          { class: 'd-ids' },
          h('span', { class: 'id' }, 'DOT ', h('strong', null, c.dot_number ?? '—')),
          // MC numbers name themselves ("MC123456"); the label only for the odd one that does not.
          h('span', { class: 'id' }, c.mc_number?.toUpperCase().startsWith('MC') ? null : 'MC ', h('strong', null, c.mc_number ?? '—')),
          h(
            'span',
            { class: 'id ch-when', attrs: { title: fmtUtc(c.detected_at) } },
            'Changed ',
            h('strong', null, `${fmtLocal(c.detected_at)} (${fmtAge(c.detected_at)})`),
          ),
        ),
      ),
      h(
        'div',
        { class: `d-score ch-now tone-${after.tone}` },
        h('div', { class: 'ch-now-label' }, 'now'),
        h('div', { class: 'd-score-num ch-now-action' }, after.label),
        h('div', { class: 'd-score-grade ch-was' }, `was ${beforeInWords(c)}`),
      ),
    ),
  );

  const href = carrierHref(c);
  if (href || links.openCard)
    out.push(
      h(
        'div',
        { class: 'ch-links' },
        href ? h('a', { class: 'ch-carrier-link', attrs: { href } }, `Open the carrier page of ${changeCarrierName(c)}`) : null,
        links.openCard
          ? h(
              'button',
              { class: 'btn-link ch-card-link', attrs: { type: 'button' }, on: { click: links.openCard } },
              'Open its card on the desk',
            )
          : null,
      ),
    );

  out.push(
    h(
      'div',
      { class: 'ch-why' },
      h('span', { class: 'd-held-label' }, 'Why'),
      ...(c.reasons.length > 0 ? c.reasons.map((r) => chip(changeReasonTerm(r))) : [h('span', { class: 'muted' }, 'no reason given')]),
      h('span', { class: 'ch-summary-big' }, changeSummary(c)),
    ),
  );

  const rows = snapshotRows(c.before, c.after, fresh);
  // The score alone said hold, but the loads went out on a standing decision: the table says so.
  const standing = beforeInWords(c) !== c.before.action;
  if (standing && rows[0])
    rows[0] = {
      ...rows[0],
      before: h(
        'span',
        null,
        chip(actionTerm(c.before.action)),
        h('span', { class: 'ch-standing-note' }, ' loads tendered: settled by a standing decision'),
      ),
    };
  out.push(
    h('h3', { class: 'd-sub' }, 'Before → after'),
    h(
      'table',
      { class: 'ch-compare' },
      h(
        'thead',
        null,
        h('tr', null, h('th', null, ''), h('th', null, 'Before'), h('th', { class: 'ch-arrow' }, ''), h('th', null, 'After')),
      ),
      h(
        'tbody',
        null,
        ...rows.map((r) =>
          h(
            'tr',
            { class: r.changed ? 'changed' : '' },
            h('th', { attrs: { scope: 'row' } }, r.label),
            h('td', null, r.before),
            h('td', { class: 'ch-arrow' }, r.changed ? '→' : ''),
            h('td', null, r.after),
          ),
        ),
      ),
    ),
  );

  out.push(...findingsSection(c, fresh));

  out.push(h('h3', { class: 'd-sub' }, `Tenders that used this carrier (${c.tenders.length})`));
  if (c.tenders.length === 0) out.push(h('p', { class: 'muted' }, 'No tender in the watch window used this carrier.'));
  else
    out.push(
      h(
        'table',
        { class: 'ch-tenders screenings' },
        h(
          'thead',
          null,
          h('tr', null, h('th', null, 'Tender'), h('th', null, 'Status'), h('th', null, 'Screening'), h('th', null, 'Screened')),
        ),
        h(
          'tbody',
          null,
          ...c.tenders.map((t) =>
            h(
              'tr',
              { dataset: { tenderId: t.tender_id } },
              h('td', { class: 'cell-name' }, t.tender_id),
              h('td', { class: 'ch-load' }, loadStatus(t)),
              h('td', null, h('code', null, t.screening_id)),
              h('td', { attrs: { title: fmtUtc(t.screened_at) } }, `${fmtLocal(t.screened_at)} (${fmtAge(t.screened_at)})`),
            ),
          ),
        ),
      ),
    );

  const meta: HTMLElement[] = [
    h('dt', null, 'Seen by screening'),
    h('dd', null, h('code', null, c.screening_id)),
    h('dt', null, 'Change'),
    h('dd', null, h('code', null, c.id)),
  ];
  if (c.state === 'acknowledged')
    meta.push(
      h('dt', null, 'Acknowledged'),
      h(
        'dd',
        { attrs: { title: fmtUtc(c.acknowledged_at) } },
        `by ${c.acknowledged_by ?? '?'}, ${fmtLocal(c.acknowledged_at)} (${fmtAge(c.acknowledged_at)})`,
      ),
      h('dt', null, 'Note'),
      h('dd', { class: 'ch-ack-note' }, c.ack_note ? h('strong', null, c.ack_note) : h('span', { class: 'muted' }, 'none written')),
    );
  out.push(h('h3', { class: 'd-sub' }, 'About this change'), h('dl', { class: 'd-meta' }, ...meta));
  return out;
}
