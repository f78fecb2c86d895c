import type { ConnectionState, DeskBridge } from '../shared/bridge.js';
import { problemsOf } from '../shared/status-problems.js';
import type { Review } from '../../shared/screening.js';
import { carrierNames } from './carrier-facts.js';
import { DeskModel } from './desk-model.js';
import { h, replaceChildren } from './dom.js';
import { IpcBridge } from './ipc-bridge.js';
import { staleText } from './list-states.js';
import { blocksView } from './views/blocks.js';
import { CarrierView, parseCarrierQuery, type CarrierRef } from './views/carrier.js';
import { forgetToken, pickBridge, rememberToken } from './pick-bridge.js';
import { Toaster } from './toaster.js';
import { changesView } from './views/changes.js';
import { decisionsView } from './views/decisions.js';
import { QueueView } from './views/queue.js';
import { QuotaView } from './views/quota.js';
import { reviewDeskView } from './views/review-desk.js';
import { SettingsView } from './views/settings.js';
import { tokenForm } from './views/token-form.js';

/** The dashboard: picks its bridge, builds the seven views (eight in Electron) and routes between them. */

type ViewName = 'desk' | 'queue' | 'quota' | 'changes' | 'decisions' | 'blocks' | 'carrier' | 'settings';
const VIEW_KEYS: Record<string, ViewName> = {
  '1': 'desk',
  '2': 'queue',
  '3': 'quota',
  '4': 'changes',
  '5': 'decisions',
  '6': 'blocks',
  '7': 'settings',
  '8': 'carrier',
};

/** The one connection indicator: its words say what its colour says. */
const CONNECTION_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Not live · retrying',
  unauthorized: 'Sign-in refused',
  unconfigured: 'Not set up: add the token in Settings',
  closed: 'Not live · offline',
};

/** Banner lines in a dispatcher's words: the service is "the scoring service"; callbacks are the operator's (Queue). */
function deskWords(text: string, admin: boolean): string | null {
  if (!admin && /callback/i.test(text)) return null;
  const unreachable = /^Worker unreachable at (\S+?):? /.exec(text);
  if (unreachable) return `The worker at ${unreachable[1]} does not answer. This page keeps trying; if it lasts, call whoever runs it.`;
  return text
    .replace(/The \/v1 scoring service/g, 'The scoring service')
    .replace(/The \/v1 service/g, 'The scoring service')
    .replace(/no \/v1 lookups/g, 'no lookups');
}

function start(): void {
  const root = document.getElementById('app');
  if (!root) throw new Error('index.html has no #app element');
  const choice = pickBridge();
  if (choice.kind === 'needs-token') {
    replaceChildren(root, tokenForm(onToken));
    document.getElementById('token-input')?.focus();
    return;
  }
  mount(root, choice.bridge, choice.kind === 'electron' ? choice.bridge : null);
}

function onToken(token: string): void {
  rememberToken(token);
  location.reload();
}

function mount(root: HTMLElement, bridge: DeskBridge, electron: IpcBridge | null): void {
  const toast = new Toaster();
  const model = new DeskModel(bridge);
  const carrier = new CarrierView(model, toast, () => {
    if (current === 'carrier') setHash('carrier');
  });
  /** A carrier's page, from anywhere (a blocked tender in the Queue, a link). */
  const openCarrier = (ref: CarrierRef): void => {
    show('carrier');
    void carrier.open(ref);
  };
  /** A recently decided row: the decision it made, with its note and the revoke (read-back and undo). */
  const openDecision = async (review: Review): Promise<void> => {
    const find = () => [...model.decisions, ...model.decisionHistory].find((d) => d.review_id === review.id);
    if (!find()) await Promise.all([model.load('decisions'), model.load('decisionHistory')]);
    const d = find();
    if (!d) {
      toast.show(
        `No decision record was found for ${review.screening.score?.carrier?.legal_name ?? 'this carrier'} (it may be older than the lists shown).`,
        'info',
      );
      return;
    }
    show('decisions');
    decisions.select(d.id);
  };
  const desk = reviewDeskView(model, toast, (r) => void openDecision(r));
  const queue = new QueueView(
    model,
    toast,
    (screeningId) => {
      const r = model.pending.find((x) => x.screening_id === screeningId);
      if (r) desk.select(r.id);
      show('desk');
    },
    (s) => {
      const n = carrierNames(s);
      openCarrier({ dot: n.dot, mc: n.mc });
    },
  );
  const quota = new QuotaView(model);
  const changes = changesView(model, toast, (reviewId) => {
    desk.select(reviewId);
    show('desk');
  });
  const decisions = decisionsView(model, toast);
  const blocks = blocksView(model, toast);
  const settings = electron?.settings ? new SettingsView(electron.settings, toast) : null;
  const views: Record<ViewName, HTMLElement | null> = {
    desk: desk.root,
    queue: queue.root,
    quota: quota.root,
    changes: changes.root,
    decisions: decisions.root,
    blocks: blocks.root,
    carrier: carrier.root,
    settings: settings?.root ?? null,
  };
  // Real tabs: each view is the tab panel its tab controls.
  for (const [name, el] of Object.entries(views)) {
    if (!el) continue;
    el.id = `panel-${name}`;
    el.setAttribute('role', 'tabpanel');
    el.setAttribute('aria-labelledby', `tab-${name}`);
    el.removeAttribute('aria-label');
  }

  const envBadge = h('span', { class: 'env-badge' });
  const signedInWho = h('span', { class: 'signed-in-who' });
  const signedIn = h(
    'span',
    { class: 'signed-in', attrs: { id: 'signed-in' } },
    h('span', { class: 'signed-in-label' }, 'Signed in as '),
    signedInWho,
  );
  const conn = h('span', { class: 'conn', attrs: { id: 'connection', role: 'status' } });
  const banner = h('div', { class: 'banner', attrs: { role: 'status' } });
  const deskCount = h('span', { class: 'tab-count', attrs: { id: 'desk-count' } });
  const changesCount = h('span', { class: 'tab-count tab-count-changes', attrs: { id: 'changes-count' } });
  const blocksCount = h('span', { class: 'tab-count tab-count-blocks', attrs: { id: 'blocks-count' } });
  const tabs: Partial<Record<ViewName, HTMLButtonElement>> = {};
  const tab = (name: ViewName, label: string, key: string, extra?: HTMLElement): HTMLButtonElement =>
    (tabs[name] = h(
      'button',
      {
        class: 'tab',
        attrs: { type: 'button', role: 'tab', id: `tab-${name}`, 'aria-controls': `panel-${name}`, title: `${label} (key ${key})` },
        on: { click: () => show(name), keydown: (e) => tabKey(e, name) },
      },
      label,
      extra ?? null,
    ));

  replaceChildren(
    root,
    h(
      'header',
      { class: 'topbar' },
      h('h1', { class: 'brand' }, 'Carrier Screen', envBadge),
      h(
        'nav',
        { class: 'tabs', attrs: { role: 'tablist' } },
        tab('desk', 'Review desk', '1', deskCount),
        tab('queue', 'Queue', '2'),
        tab('quota', 'Quota', '3'),
        tab('changes', 'Changes', '4', changesCount),
        tab('decisions', 'Decisions', '5'),
        tab('blocks', 'Do not use', '6', blocksCount),
        tab('carrier', 'Carrier', '8 or /'),
        settings ? tab('settings', 'Settings', '7') : null,
      ),
      signedIn,
      conn,
    ),
    banner,
    h('main', { class: 'views' }, ...Object.values(views)),
    toast.root,
  );

  let current: ViewName = 'desk';
  function show(name: ViewName): void {
    if (!views[name]) name = 'desk';
    current = name;
    for (const [n, el] of Object.entries(views)) if (el) el.hidden = n !== name;
    for (const [n, t] of Object.entries(tabs)) {
      t.classList.toggle('active', n === name);
      t.setAttribute('aria-selected', n === name ? 'true' : 'false');
      t.tabIndex = n === name ? 0 : -1;
    }
    quota.setVisible(name === 'quota');
    if (name === 'desk') desk.onShow();
    if (name === 'changes') changes.onShow();
    if (name === 'decisions') decisions.onShow();
    if (name === 'blocks') {
      blocks.onShow();
      void model.load('blocks');
      void model.load('blockHistory');
    }
    setHash(name);
  }

  /** The address says the view (and the carrier shown), so a reload comes back to it. */
  function setHash(name: ViewName): void {
    const ref = name === 'carrier' ? carrier.current() : null;
    const hash = ref ? `#/carrier/${ref.dot ? `dot/${ref.dot}` : `mc/${ref.mc}`}` : `#/${name}`;
    if (location.hash !== hash) history.replaceState(null, '', location.pathname + location.search + hash);
  }

  /** Arrow keys, Home and End move between tabs (the tablist is one tab stop). */
  function tabKey(e: KeyboardEvent, from: ViewName): void {
    const order = (Object.keys(tabs) as ViewName[]).filter((n) => views[n]);
    const i = order.indexOf(from);
    const to =
      e.key === 'ArrowRight'
        ? order[(i + 1) % order.length]
        : e.key === 'ArrowLeft'
          ? order[(i - 1 + order.length) % order.length]
          : e.key === 'Home'
            ? order[0]
            : e.key === 'End'
              ? order[order.length - 1]
              : undefined;
    if (!to) return;
    e.preventDefault();
    e.stopPropagation();
    show(to);
    tabs[to]?.focus();
  }

  /** A count: marked stale (in words, not only grey) while the worker is not live. */
  function setCount(el: HTMLElement, n: number, what: string, failed = false): void {
    const stale = staleText(model);
    // A failed read is not zero: say "?" rather than nothing.
    el.textContent = n > 0 ? (stale || failed ? `${n}?` : String(n)) : failed ? '?' : '';
    el.classList.toggle('stale', stale !== null);
    el.title = n > 0 ? `${n} ${what}${stale ? ` (${stale}: may have changed)` : ''}` : '';
  }

  function renderHeader(): void {
    const s = model.status;
    envBadge.textContent = s ? s.environment : '';
    envBadge.className = `env-badge env-${s?.environment ?? 'none'}`;
    const me = model.me;
    signedInWho.textContent = me === null ? '' : (me.name ?? `the ${me.role} token (no name)`);
    signedIn.title =
      me === null
        ? ''
        : `${me.role} token${me.token_id ? ` ${me.token_id}` : ' (INTAKE_TOKEN)'}${me.name === null ? ': it has no name, so type yours when you decide' : ''}`;
    signedIn.hidden = me === null;
    const stale = staleText(model);
    conn.textContent = CONNECTION_TEXT[model.connection] ?? model.connection;
    conn.title = stale ?? 'Live: lists and counts update as things happen';
    conn.className = `conn conn-${model.connection}`;
    const pending = model.pending.length;
    const newChanges = model.changes.length;
    setCount(deskCount, pending, 'waiting for review', model.loadState('pending') === 'failed');
    setCount(changesCount, newChanges, 'to acknowledge', model.loadState('changes') === 'failed');
    setCount(blocksCount, model.blocks.length, 'on the do-not-use list', model.loadState('blocks') === 'failed');
    const waiting = pending + newChanges;
    document.title = waiting > 0 ? `(${waiting}) Carrier Screen` : 'Carrier Screen';
    const problems = problemsOf({
      status: s,
      connection: model.connection,
      workerUrl: electron ? 'the worker' : location.origin,
      statusError: model.errors.get('status') ?? null,
      changesNew: newChanges,
    })
      .filter((p) => p.topic === undefined) // the tab counts already say so
      .map((p) => ({ ...p, text: deskWords(p.text, me?.role === 'admin') }))
      .filter((p): p is typeof p & { text: string } => p.text !== null);
    replaceChildren(banner, ...problems.slice(0, 3).map((p) => h('div', { class: `banner-item banner-${p.level}` }, p.text)));
    banner.hidden = problems.length === 0;
  }

  model.subscribe((changed) => {
    renderHeader();
    if (changed.has('me')) for (const v of [desk, changes, decisions, blocks, queue, carrier]) v.render();
    // News about carriers: the open carrier page reads itself again (once per burst).
    if (
      changed.has('screenings') ||
      changed.has('blocks') ||
      changed.has('decisions') ||
      changed.has('decisionHistory') ||
      changed.has('changes')
    )
      carrier.refreshSoon();
    if (changed.has('connection') || changed.has('status')) carrier.render();
    if (
      changed.has('pending') ||
      changed.has('decided') ||
      changed.has('decisionHistory') ||
      changed.has('connection') ||
      changed.has('status')
    )
      desk.render();
    if (
      changed.has('blocks') ||
      changed.has('blockHistory') ||
      changed.has('connection') ||
      changed.has('screenings') ||
      changed.has('status')
    )
      blocks.render();
    if (changed.has('status') || changed.has('screenings') || changed.has('connection')) queue.render();
    if (changed.has('status') || changed.has('usage')) quota.render();
    // 'status': whether the worker answers decides whether actions are on (DeskModel.actionsOff).
    // pending: a card opening (or closing) on the desk changes the link a change shows.
    if (
      changed.has('changes') ||
      changed.has('changeHistory') ||
      changed.has('pending') ||
      changed.has('connection') ||
      changed.has('status')
    )
      changes.render();
    if (changed.has('decisions') || changed.has('decisionHistory') || changed.has('connection') || changed.has('status'))
      decisions.render();
    if (changed.has('connection') && model.connection === 'unauthorized' && !electron) {
      forgetToken();
      replaceChildren(
        root,
        tokenForm(
          onToken,
          'The worker refused this token (it may have been revoked or replaced). Ask your admin for your desk token and paste it here.',
        ),
      );
    }
  });

  document.addEventListener('keydown', (e) => {
    const inField = e.target instanceof HTMLElement && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA');
    const list =
      current === 'desk'
        ? desk
        : current === 'changes'
          ? changes
          : current === 'decisions'
            ? decisions
            : current === 'blocks'
              ? blocks
              : current === 'carrier'
                ? carrier
                : null;
    if (list?.handleKey(e)) {
      e.preventDefault();
      return;
    }
    if (inField || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === '/') {
      show('carrier');
      carrier.focusSearch();
      e.preventDefault();
      return;
    }
    const target = VIEW_KEYS[e.key];
    if (target && views[target]) {
      show(target);
      e.preventDefault();
    }
  });
  electron?.onNavigate((v) => show(v as ViewName));
  window.addEventListener('hashchange', () => route());
  /** The view the address names; a carrier's address opens its page. */
  function route(): void {
    const m = /^#\/carrier\/(dot|mc)\/([A-Za-z0-9]{1,12})$/.exec(location.hash);
    const q = m ? parseCarrierQuery(m[1] === 'dot' ? m[2]! : m[2]!.replace(/^MC/i, 'MC ')) : null;
    if (q && q.kind !== 'text') {
      const ref: CarrierRef = q.kind === 'dot' ? { dot: q.dot, mc: null } : { dot: null, mc: q.mc };
      const now = carrier.current();
      if (current !== 'carrier' || !now || (now.dot ?? now.mc) !== (ref.dot ?? ref.mc)) openCarrier(ref);
      return;
    }
    show(viewFromHash());
  }

  // Relative ages ("waiting 4 min") move on by themselves.
  setInterval(() => {
    desk.render();
    queue.render();
    changes.render();
    decisions.render();
    blocks.render();
  }, 30_000);

  route();
  renderHeader();
  void model.loadAll();
}

function viewFromHash(): ViewName {
  const m = /^#\/(desk|queue|quota|changes|decisions|blocks|carrier|settings)\b/.exec(location.hash);
  return (m?.[1] as ViewName | undefined) ?? 'desk';
}

start();
