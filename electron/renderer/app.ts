import type { ConnectionState, DeskBridge } from '../shared/bridge.js';
import { problemsOf } from '../shared/status-problems.js';
import { DeskModel } from './desk-model.js';
import { h, replaceChildren } from './dom.js';
import { IpcBridge } from './ipc-bridge.js';
import { forgetToken, pickBridge, rememberToken } from './pick-bridge.js';
import { Toaster } from './toaster.js';
import { changesView } from './views/changes.js';
import { decisionsView } from './views/decisions.js';
import { QueueView } from './views/queue.js';
import { QuotaView } from './views/quota.js';
import { reviewDeskView } from './views/review-desk.js';
import { SettingsView } from './views/settings.js';
import { tokenForm } from './views/token-form.js';

/** The dashboard: picks its bridge, builds the five views (six in Electron) and routes between them. */

type ViewName = 'desk' | 'queue' | 'quota' | 'changes' | 'decisions' | 'settings';
const VIEW_KEYS: Record<string, ViewName> = { '1': 'desk', '2': 'queue', '3': 'quota', '4': 'changes', '5': 'decisions', '6': 'settings' };

const CONNECTION_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Token refused',
  unconfigured: 'Not set up: add the token in Settings',
  closed: 'Offline',
};

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
  const desk = reviewDeskView(model, toast);
  const queue = new QueueView(model, toast, (screeningId) => {
    const r = model.pending.find((x) => x.screening_id === screeningId);
    if (r) desk.select(r.id);
    show('desk');
  });
  const quota = new QuotaView(model);
  const changes = changesView(model, toast);
  const decisions = decisionsView(model, toast);
  const settings = electron?.settings ? new SettingsView(electron.settings, toast) : null;
  const views: Record<ViewName, HTMLElement | null> = {
    desk: desk.root,
    queue: queue.root,
    quota: quota.root,
    changes: changes.root,
    decisions: decisions.root,
    settings: settings?.root ?? null,
  };

  const envBadge = h('span', { class: 'env-badge' });
  const signedInWho = h('span', { class: 'signed-in-who' });
  const signedIn = h('span', { class: 'signed-in', attrs: { id: 'signed-in' } }, h('span', { class: 'signed-in-label' }, 'Signed in as '), signedInWho);
  const conn = h('span', { class: 'conn', attrs: { id: 'connection' } });
  const banner = h('div', { class: 'banner', attrs: { role: 'status' } });
  const deskCount = h('span', { class: 'tab-count', attrs: { id: 'desk-count' } });
  const changesCount = h('span', { class: 'tab-count tab-count-changes', attrs: { id: 'changes-count' } });
  const tabs: Partial<Record<ViewName, HTMLButtonElement>> = {};
  const tab = (name: ViewName, label: string, key: string, extra?: HTMLElement): HTMLButtonElement =>
    (tabs[name] = h(
      'button',
      { class: 'tab', attrs: { type: 'button', role: 'tab', id: `tab-${name}`, title: `${label} (${key})` }, on: { click: () => show(name) } },
      label,
      extra ?? null,
    ));

  replaceChildren(
    root,
    h(
      'header',
      { class: 'topbar' },
      h('div', { class: 'brand' }, h('span', { class: 'brand-dot' }), 'Carrier Screen', envBadge),
      h(
        'nav',
        { class: 'tabs', attrs: { role: 'tablist' } },
        tab('desk', 'Review desk', '1', deskCount),
        tab('queue', 'Queue', '2'),
        tab('quota', 'Quota', '3'),
        tab('changes', 'Changes', '4', changesCount),
        tab('decisions', 'Decisions', '5'),
        settings ? tab('settings', 'Settings', '6') : null,
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
    }
    quota.setVisible(name === 'quota');
    if (name === 'desk') desk.onShow();
    if (name === 'changes') changes.onShow();
    if (name === 'decisions') decisions.onShow();
    const hash = `#/${name}`;
    if (location.hash !== hash) history.replaceState(null, '', location.pathname + location.search + hash);
  }

  function renderHeader(): void {
    const s = model.status;
    envBadge.textContent = s ? s.environment : '';
    envBadge.className = `env-badge env-${s?.environment ?? 'none'}`;
    const me = model.me;
    signedInWho.textContent = me === null ? '' : (me.name ?? `the ${me.role} token (no name)`);
    signedIn.title = me === null ? '' : `${me.role} token${me.token_id ? ` ${me.token_id}` : ' (INTAKE_TOKEN)'}${me.name === null ? ': it has no name, so type yours when you decide' : ''}`;
    signedIn.hidden = me === null;
    conn.textContent = CONNECTION_TEXT[model.connection] ?? model.connection;
    conn.className = `conn conn-${model.connection}`;
    const pending = model.pending.length;
    const newChanges = model.changes.length;
    deskCount.textContent = pending > 0 ? String(pending) : '';
    changesCount.textContent = newChanges > 0 ? String(newChanges) : '';
    changesCount.title = newChanges > 0 ? `${newChanges} to acknowledge` : '';
    const waiting = pending + newChanges;
    document.title = waiting > 0 ? `(${waiting}) Carrier Screen` : 'Carrier Screen';
    const problems = problemsOf({
      status: s,
      connection: model.connection,
      workerUrl: electron ? 'the worker' : location.origin,
      statusError: model.errors.get('status') ?? null,
      changesNew: newChanges,
    }).filter((p) => p.topic === undefined); // the tab counts already say so
    replaceChildren(banner, ...problems.slice(0, 3).map((p) => h('div', { class: `banner-item banner-${p.level}` }, p.text)));
    banner.hidden = problems.length === 0;
  }

  model.subscribe((changed) => {
    renderHeader();
    if (changed.has('me')) for (const v of [desk, changes, decisions]) v.render();
    if (changed.has('pending') || changed.has('decided') || changed.has('decisionHistory') || changed.has('connection')) desk.render();
    if (changed.has('status') || changed.has('screenings')) queue.render();
    if (changed.has('status') || changed.has('usage')) quota.render();
    if (changed.has('changes') || changed.has('changeHistory') || changed.has('connection')) changes.render();
    if (changed.has('decisions') || changed.has('decisionHistory') || changed.has('connection')) decisions.render();
    if (changed.has('connection') && model.connection === 'unauthorized' && !electron) {
      forgetToken();
      replaceChildren(root, tokenForm(onToken, 'The worker refused this token. Paste the current one.'));
    }
  });

  document.addEventListener('keydown', (e) => {
    const inField = e.target instanceof HTMLElement && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA');
    const list = current === 'desk' ? desk : current === 'changes' ? changes : current === 'decisions' ? decisions : null;
    if (list?.handleKey(e)) {
      e.preventDefault();
      return;
    }
    if (inField || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = VIEW_KEYS[e.key];
    if (target && views[target]) {
      show(target);
      e.preventDefault();
    }
  });
  electron?.onNavigate((v) => show(v as ViewName));
  window.addEventListener('hashchange', () => show(viewFromHash()));

  // Relative ages ("waiting 4 min") move on by themselves.
  setInterval(() => {
    desk.render();
    queue.render();
    changes.render();
    decisions.render();
  }, 30_000);

  show(viewFromHash());
  renderHeader();
  void model.loadAll();
}

function viewFromHash(): ViewName {
  const m = /^#\/(desk|queue|quota|changes|decisions|settings)\b/.exec(location.hash);
  return (m?.[1] as ViewName | undefined) ?? 'desk';
}

start();
