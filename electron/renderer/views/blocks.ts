import type { LocalBlock } from '../../../shared/screening.js';
import { IntakeError } from '../../shared/bridge.js';
import { carrierNames } from '../carrier-facts.js';
import type { DeskModel } from '../desk-model.js';
import { h, type Child } from '../dom.js';
import { fmtAge, fmtLocal, fmtUtc } from '../format.js';
import { ListView } from '../list-view.js';
import { listStates } from '../list-states.js';
import type { Toaster } from '../toaster.js';

/**
 * The do-not-use list (docs/watchlist.md, "The local do-not-use list"): every carrier blocked
 * here, who blocked it, why and when, and a lift for a desk token. It answers "why won't the TMS
 * let me book this carrier?". Lifted blocks stay readable in the history.
 */

export function blocksView(model: DeskModel, toast: Toaster): ListView<LocalBlock> {
  /** The carrier's name when the desk has seen it (a block itself records only its numbers). */
  const nameOf = (b: LocalBlock): string => {
    const match = (dot: string | null, mc: string | null): boolean =>
      (b.dot_number !== null && dot === b.dot_number) || (b.mc_number !== null && mc === b.mc_number);
    for (const s of [...model.screenings, ...model.pending.map((r) => r.screening), ...model.decided.map((r) => r.screening)]) {
      const n = carrierNames(s);
      if (match(n.dot, n.mc) && s.score?.carrier?.legal_name) return s.score.carrier.legal_name;
    }
    const d = model.decisions.find((x) => match(x.dot_number, x.mc_number) && x.legal_name);
    return d?.legal_name ?? idsOf(b);
  };

  return new ListView<LocalBlock>(
    {
      view: 'blocks',
      label: 'Do-not-use list',
      title: 'Do not use',
      sideNote: 'Carriers blocked here: every tender to them is refused until someone lifts the block.',
      list: { class: 'bl-list', label: 'Carriers on the do-not-use list' },
      historyTitle: 'Lifted',
      historyClass: 'bl-history',
      historySelectable: true,
      panel: { class: 'lift-panel', label: 'Lift the block', nameId: 'lift-name' },
      note: { id: 'lift-note', placeholder: 'Why the block is lifted (kept with the lift)' },
      actions: [
        {
          mode: 'lift',
          label: 'Lift block',
          key: 'l',
          buttonClass: 'btn-lift',
          buttonId: 'lift-start',
          question: (b, by) => `Lift the block on ${nameOf(b)} (${idsOf(b)}) as ${by}? Its next tender is screened again.`,
        },
      ],
      ...listStates(model, ['blocks'], 'the do-not-use list', ['blockHistory']),
      // Lifting needs a desk token; a read-only (TMS) token sees the list without the action.
      actionsOff: () =>
        model.actionsOff() ??
        (model.me?.role === 'tms' ? 'This sign-in may only read the list. To lift a block, sign in with a desk token.' : null),
      items: () => model.blocks,
      history: () => model.blockHistory,
      historyMore: { more: () => model.liftedBlocks.more, load: () => model.showOlder('blockHistory'), what: 'lifted blocks' },
      row: (b) => ({
        class: 'bl-item',
        dataset: { blockId: b.id },
        children: [
          h(
            'div',
            { class: 'rv-line1' },
            h('span', { class: 'rv-name', attrs: { title: nameOf(b) } }, nameOf(b)),
            h('span', { class: 'chip tone-bad' }, 'do not use'),
          ),
          nameOf(b) !== idsOf(b) ? h('div', { class: 'rv-line2' }, idsOf(b)) : null,
          h('div', { class: 'rv-why', attrs: { title: b.reason } }, b.reason),
          h(
            'div',
            { class: 'rv-line3' },
            h('span', { class: 'rv-age', attrs: { title: fmtUtc(b.blocked_at) } }, `${b.blocked_by} · ${fmtAge(b.blocked_at)}`),
          ),
        ],
      }),
      historyRow: (b) => ({
        class: 'rv-done bl-done',
        dataset: { blockId: b.id },
        children: [
          h('span', { class: 'badge tone-muted' }, 'lifted'),
          h('span', { class: 'rv-done-name' }, nameOf(b)),
          h('span', { class: 'rv-done-by', attrs: { title: fmtUtc(b.lifted_at) } }, `${b.lifted_by ?? '?'} · ${fmtAge(b.lifted_at)}`),
        ],
      }),
      emptyList: () => 'No carrier is blocked. Rejecting with "also put on the do-not-use list" adds one here.',
      emptyHistory: () => 'No block lifted yet.',
      emptyDetail: () => [
        h(
          'div',
          { class: 'rv-none' },
          h('p', { class: 'big-empty' }, 'The do-not-use list is empty.'),
          h('p', null, 'Every carrier can be tendered, subject to its score.'),
        ),
      ],
      detail: (b) => blockDetail(b, nameOf(b)),
      idleLine: (b, open) => {
        if (!b) return 'Nothing to lift.';
        if (!open) return b.lifted_by ? `Lifted by ${b.lifted_by} ${fmtAge(b.lifted_at)} (${fmtLocal(b.lifted_at)}).` : 'Lifted.';
        return 'Lift the block only when the reason is settled: the carrier can then be booked on its score.';
      },
      nothingToAct: 'Nothing to lift: no carrier is blocked.',
      alreadyDone: (b) => `Already lifted${b.lifted_by ? ` by ${b.lifted_by}` : ''}.`,
      recordName: 'the lift',
      signedInAs: () => model.signedInName(),
      perform: async (_mode, b, who, note) => {
        await model.lift(b, who.name, note);
        return `Block lifted: ${nameOf(b)} (${idsOf(b)}). Recorded for ${who.name}. Its next tender is screened again.`;
      },
      conflict: async (err, b) => {
        // 404: the carrier has no active block any more (lifted elsewhere).
        if (!(err instanceof IntakeError && err.status === 404)) return null;
        await Promise.all([model.load('blocks'), model.load('blockHistory')]);
        return `${nameOf(b)} is no longer blocked: someone lifted it already. The list is refreshed.`;
      },
      doneElsewhere: () => [],
    },
    toast,
  );
}

function idsOf(b: LocalBlock): string {
  return [b.dot_number ? `DOT ${b.dot_number}` : null, b.mc_number].filter(Boolean).join(' · ') || '—';
}

function field(label: string, ...value: Child[]): HTMLElement[] {
  return [h('dt', null, label), h('dd', null, ...value)];
}

/** One block: who, why, when; and its lift when it was lifted. */
export function blockDetail(b: LocalBlock, name: string): HTMLElement[] {
  const lifted = b.state === 'lifted';
  return [
    h(
      'header',
      { class: 'd-head' },
      h(
        'div',
        { class: 'd-names' },
        h('h2', { class: 'd-legal' }, name),
        name !== idsOf(b) ? h('div', { class: 'd-ids' }, idsOf(b)) : null,
      ),
      h(
        'div',
        { class: `d-score tone-${lifted ? 'muted' : 'bad'}` },
        h('div', { class: 'd-score-grade' }, lifted ? 'block lifted' : 'do not use'),
      ),
    ),
    h('h3', { class: 'd-sub' }, 'Why it is blocked'),
    h('p', { class: 'bl-reason' }, b.reason),
    h(
      'dl',
      { class: 'd-meta' },
      ...field('Blocked by', b.blocked_by),
      ...field('Blocked', h('span', { attrs: { title: fmtUtc(b.blocked_at) } }, `${fmtLocal(b.blocked_at)} (${fmtAge(b.blocked_at)})`)),
      ...(lifted
        ? [
            ...field('Lifted by', b.lifted_by ?? '—'),
            ...field('Lifted', h('span', { attrs: { title: fmtUtc(b.lifted_at) } }, `${fmtLocal(b.lifted_at)} (${fmtAge(b.lifted_at)})`)),
            ...field('Why lifted', b.lift_note ?? h('span', { class: 'muted' }, 'no note')),
          ]
        : []),
      ...field(
        'What it does',
        lifted
          ? 'Nothing now: tenders to this carrier are screened on their score.'
          : 'Every tender to this carrier is refused at once, without asking the scoring service.',
      ),
    ),
  ];
}
