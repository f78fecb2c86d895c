import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardView, DesktopNotification, MenuItemModel, TrayIconState, TrayPorts } from '../../electron/main/ports.js';
import { TrayController, menuCommands } from '../../electron/main/tray-controller.js';
import { BURST_MS } from '../../electron/main/notification-gate.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';
import { IntakeError } from '../../electron/shared/bridge.js';
import type { CarrierChange, StatusReport } from '../../shared/screening.js';
import { ManualClock } from '../helpers/manual-clock.js';

/** A small intake stand-in over real HTTP: /status, /queue/pause|resume, /changes, /blocks and /events. */
class TinyIntake {
  status: StatusReport = {
    object: 'status',
    environment: 'sandbox',
    queue: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, paused: false },
    quota: {
      livemode: false,
      monthly_quota: null,
      used: null,
      remaining: null,
      resets_at: '2025-04-01T00:00:00Z',
      gate: 'open',
      reserve: null,
      updated_at: null,
    },
    rate_limit: { per_minute: 120, remaining: 120, resets_at: null },
    reviews: { pending: 0 },
    service: { reachable: true, checked_at: null, last_error: null, key_rejected: false },
  };
  posts: string[] = [];
  /** GET /me's role; null answers 404 like a worker from before /me. */
  role: string | null = null;
  /** Roles the worker lets pause and resume. */
  adminRoles = ['admin'];
  /** Unacknowledged changes; null answers 404 like a worker from before the watch list. */
  changes: CarrierChange[] | null = null;
  /** Every /changes and /blocks request as "METHOD url body". */
  watchCalls: string[] = [];
  private streams = new Set<ServerResponse>();
  private nextId = 1;
  server: Server = createServer((req, res) => {
    if (req.headers.authorization !== 'Bearer tray-token')
      return void res.writeHead(401).end('{"error":{"code":"unauthorized","message":"no"}}');
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(':hb\n\n');
      this.streams.add(res);
      req.on('close', () => this.streams.delete(res));
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/changes') || req.url?.startsWith('/blocks')) return void this.watchRoute(req, res);
    if (req.url === '/me') {
      if (this.role === null) return void res.writeHead(404).end('{"error":{"code":"not_found","message":"Route not found"}}');
      return void res.end(JSON.stringify({ object: 'caller', token_id: 'tok_1', name: 'Dana', role: this.role }));
    }
    if (req.method === 'POST' && (req.url === '/queue/pause' || req.url === '/queue/resume')) {
      if (!this.adminRoles.includes(this.role ?? 'desk'))
        return void res.writeHead(403).end('{"error":{"code":"forbidden","message":"needs an admin token"}}');
      this.posts.push(req.url);
      this.status = { ...this.status, queue: { ...this.status.queue, paused: req.url === '/queue/pause' } };
    }
    if (req.url === '/status' || req.url?.startsWith('/queue/')) return void res.end(JSON.stringify(this.status));
    res.writeHead(404).end('{"error":{"code":"not_found","message":"?"}}');
  });

  private watchRoute(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      this.watchCalls.push(`${req.method} ${req.url} ${body}`.trim());
      if (this.changes === null) return void res.writeHead(404).end('{"error":{"code":"not_found","message":"Route not found"}}');
      if (req.method === 'GET' && req.url?.startsWith('/changes?state=new'))
        return void res.end(JSON.stringify({ object: 'list', data: this.changes }));
      const ack = /^\/changes\/([^/]+)\/acknowledge$/.exec(req.url ?? '');
      if (req.method === 'POST' && ack) {
        const c = this.changes.find((x) => x.id === ack[1]);
        if (!c) return void res.writeHead(409).end('{"error":{"code":"change_conflict","message":"change already acknowledged"}}');
        this.changes = this.changes.filter((x) => x !== c);
        return void res.end(JSON.stringify({ ...c, state: 'acknowledged', acknowledged_by: JSON.parse(body).by }));
      }
      // /blocks: echo what arrived, so the test sees the request the bridge made.
      res.end(JSON.stringify({ object: req.method === 'GET' ? 'list' : 'local_block', data: [], echo: body }));
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  emit(event: string, data: unknown): void {
    for (const s of this.streams) s.write(`id: ${this.nextId}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    this.nextId++;
  }

  streamCount(): number {
    return this.streams.size;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

class RecordingPorts implements TrayPorts {
  icon: TrayIconState | undefined;
  tooltip = '';
  menu: MenuItemModel[] = [];
  notes: DesktopNotification[] = [];
  windows: DashboardView[] = [];
  quits = 0;
  setTrayIcon(s: TrayIconState): void {
    this.icon = s;
  }
  setTooltip(t: string): void {
    this.tooltip = t;
  }
  setMenu(m: MenuItemModel[]): void {
    this.menu = m;
  }
  notify(n: DesktopNotification): void {
    this.notes.push(n);
  }
  openWindow(v: DashboardView): void {
    this.windows.push(v);
  }
  quit(): void {
    this.quits++;
  }
}

async function until(cond: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what()}`);
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('tray controller over a real HTTP intake', () => {
  it('follows the worker: events rebuild icon and menu, menu commands reach the worker, a lost worker is trouble', async () => {
    const intake = new TinyIntake();
    intake.role = 'admin';
    const url = await intake.listen();
    let intakeOpen = true;
    cleanup.push(() => (intakeOpen ? intake.close() : undefined));
    const bridge = new HttpBridge({ baseUrl: url, token: 'tray-token', backoff: { initialMs: 5, maxMs: 20 } });
    const ports = new RecordingPorts();
    const clock = new ManualClock();
    const ctl = new TrayController({
      bridge,
      ports,
      workerUrl: url,
      pollMs: 0,
      degradedQuietMs: 0,
      toasts: { now: clock.now, schedule: clock.schedule },
    });
    cleanup.push(() => {
      ctl.stop();
      bridge.close();
    });
    await ctl.start();
    await until(
      () => ports.icon === 'ok',
      () => `icon ok (is ${ports.icon}: ${ports.tooltip})`,
    );
    expect(menuCommands(ports.menu)).toContain('pause-queue');
    expect(ports.notes).toEqual([]);
    // This worker has no /changes (404): not trouble, the menu just cannot count them.
    expect(intake.watchCalls).toContain('GET /changes?state=new&limit=100');
    expect(ports.menu.some((i) => i.kind === 'item' && i.label === 'Changes')).toBe(true);

    // A review arrives: the event alone makes the tray re-read /status.
    await until(
      () => intake.streamCount() === 1,
      () => 'the event stream',
    );
    intake.status = { ...intake.status, reviews: { pending: 2 } };
    intake.emit('review.created', { object: 'review', id: 'rev_1' });
    await until(
      () => ports.icon === 'attention',
      () => `attention (is ${ports.icon})`,
    );
    expect(ports.tooltip).toBe('Carrier Screen (sandbox)\n2 carriers waiting for review');
    // Held for the burst, then one toast.
    expect(ports.notes).toEqual([]);
    clock.advance(BURST_MS);
    expect(ports.notes.map((n) => [n.condition, n.title])).toEqual([['reviews_pending', '2 carriers waiting for review']]);
    intake.emit('review.created', { object: 'review', id: 'rev_2' });
    await ctl.refresh();
    clock.advance(BURST_MS);
    expect(ports.notes).toHaveLength(1);

    await ctl.run('pause-queue');
    expect(intake.posts).toEqual(['/queue/pause']);
    expect(menuCommands(ports.menu)).toContain('resume-queue');
    expect(ports.menu.some((i) => i.kind === 'item' && i.label.endsWith('(paused)'))).toBe(true);

    await ctl.run('open-desk');
    await ctl.run('open-quota');
    await ctl.run('settings');
    expect(ports.windows).toEqual(['desk', 'quota', 'settings']);

    // The worker goes away.
    await intake.close();
    intakeOpen = false;
    await until(
      () => ports.icon === 'trouble',
      () => `trouble (is ${ports.icon})`,
    );
    expect(ports.notes.map((n) => n.condition)).toEqual(['reviews_pending', 'service_unavailable']);
    await ctl.run('quit');
    expect(ports.quits).toBe(1);
  });
});

function change(id: string, name: string): CarrierChange {
  const snap = {
    hold_reason: null,
    knockout_codes: [] as string[],
    model_version: 'crs-3.5',
    screening_id: 'scr_1',
    fetched_at: '2026-03-02T10:00:00.000Z',
  };
  return {
    object: 'carrier_change',
    id,
    dot_number: '3100007',
    mc_number: null,
    legal_name: name,
    reasons: ['action_changed', 'decision_changed', 'new_knockout'],
    before: { ...snap, action: 'tender', decision: 'approved', score: 92, grade: 'A' },
    after: {
      ...snap,
      action: 'block',
      decision: 'rejected',
      score: 31,
      grade: 'F',
      knockout_codes: ['AUTHORITY_INACTIVE'],
      screening_id: 'scr_2',
    },
    screening_id: 'scr_2',
    tenders: [{ tender_id: 'T-9', screening_id: 'scr_1', screened_at: '2026-03-02T10:00:00.000Z' }],
    state: 'new',
    acknowledged_by: null,
    acknowledged_at: null,
    detected_at: '2026-03-04T12:00:00.000Z',
    updated_at: '2026-03-04T12:00:00.000Z',
  };
}

describe('tray controller and carrier changes over a real HTTP intake', () => {
  it('notifies a change once from its event, counts it as attention until acknowledged, and the menu opens the Changes view', async () => {
    const intake = new TinyIntake();
    intake.changes = [];
    const url = await intake.listen();
    cleanup.push(() => intake.close());
    const bridge = new HttpBridge({ baseUrl: url, token: 'tray-token', backoff: { initialMs: 5, maxMs: 20 } });
    const ports = new RecordingPorts();
    const ctl = new TrayController({ bridge, ports, workerUrl: url, pollMs: 0, degradedQuietMs: 0 });
    cleanup.push(() => {
      ctl.stop();
      bridge.close();
    });
    await ctl.start();
    await until(
      () => ports.icon === 'ok',
      () => `icon ok (is ${ports.icon}: ${ports.tooltip})`,
    );
    expect(ports.menu.some((i) => i.kind === 'item' && i.label === 'Changes: none to acknowledge')).toBe(true);
    await until(
      () => intake.streamCount() === 1,
      () => 'the event stream',
    );

    const c = change('chg_aaaaaaaaaaaaaaaaaaaaaaaaaa', 'Acme Freight LLC');
    intake.changes = [c];
    intake.emit('carrier.changed', c);
    await until(
      () => ports.icon === 'attention',
      () => `attention (is ${ports.icon})`,
    );
    await ctl.refresh();
    expect(ports.notes.map((n) => [n.condition, n.title, n.command])).toEqual([
      ['carrier_changed', 'Carrier changed: Acme Freight LLC approved → rejected', 'open-changes'],
    ]);
    expect(ports.tooltip).toBe('Carrier Screen (sandbox)\n1 carrier change to acknowledge');
    const item = ports.menu.find((i) => i.kind === 'item' && i.label === 'Changes: 1 carrier change to acknowledge');
    expect(item).toMatchObject({ command: 'open-changes', enabled: true });
    await ctl.run('open-changes');
    expect(ports.windows).toEqual(['changes']);

    // The same change again (a replayed event, the poll): no second notification.
    intake.emit('carrier.changed', c);
    await ctl.refresh();
    expect(ports.notes).toHaveLength(1);

    // Acknowledged in a window: the event clears the attention.
    const done = await bridge.acknowledgeChange(c.id, '  Dana  ');
    expect(done).toMatchObject({ state: 'acknowledged', acknowledged_by: 'Dana' });
    intake.emit('change.acknowledged', done);
    await until(
      () => ports.icon === 'ok',
      () => `ok again (is ${ports.icon}: ${ports.tooltip})`,
    );
    expect(ports.notes).toHaveLength(1);

    // A second acknowledgement is a conflict, carried with its code.
    const again = await bridge.acknowledgeChange(c.id, 'Eli').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(IntakeError);
    expect(again).toMatchObject({ status: 409, code: 'change_conflict' });
  });

  it('sends the watch-list calls as the intake expects and refuses bad input naming it', async () => {
    const intake = new TinyIntake();
    intake.changes = [];
    const url = await intake.listen();
    cleanup.push(() => intake.close());
    const bridge = new HttpBridge({ baseUrl: url, token: 'tray-token' });
    cleanup.push(() => bridge.close());

    expect(await bridge.listChanges('new')).toEqual([]);
    await bridge.listBlocks('all');
    await bridge.blockCarrier({ dot_number: ' 3100007 ', by: ' Dana ', reason: ' fraud report ' });
    await bridge.blockCarrier({ mc_number: 'MC123', by: 'Dana', reason: 'double brokering' });
    await bridge.liftBlock('3100007', 'Dana');
    expect(intake.watchCalls).toEqual([
      'GET /changes?state=new&limit=100',
      'GET /blocks?state=all&limit=100',
      'POST /blocks {"dot_number":"3100007","by":"Dana","reason":"fraud report"}',
      'POST /blocks {"mc_number":"MC123","by":"Dana","reason":"double brokering"}',
      'DELETE /blocks/3100007?by=Dana',
    ]);

    await expect(bridge.listChanges('old' as never)).rejects.toThrow(/state must be one of new, acknowledged/);
    expect(() => bridge.acknowledgeChange('chg_x', ' ')).toThrow(/by must be the dispatcher's name/);
    expect(() => bridge.acknowledgeChange('', 'Dana')).toThrow(/id must be a non-empty string/);
    await expect(bridge.listBlocks('gone' as never)).rejects.toThrow(/state must be one of active, lifted, all/);
    expect(() => bridge.blockCarrier({ dot_number: '1', mc_number: 'MC1', by: 'D', reason: 'r' })).toThrow(
      /exactly one of dot_number or mc_number/,
    );
    expect(() => bridge.blockCarrier({ dot_number: '1', by: 'D', reason: ' ' })).toThrow(/reason must say why/);
    expect(() => bridge.liftBlock(' ', 'Dana')).toThrow(/carrier must be a non-empty string/);
    expect(intake.watchCalls).toHaveLength(5);
  });
});

describe('role-aware tray menu', () => {
  async function trayFor(intake: TinyIntake) {
    const url = await intake.listen();
    cleanup.push(() => intake.close());
    const bridge = new HttpBridge({ baseUrl: url, token: 'tray-token', backoff: { initialMs: 5, maxMs: 20 } });
    const ports = new RecordingPorts();
    const ctl = new TrayController({ bridge, ports, workerUrl: url, pollMs: 0, appVersion: '1.4.2' });
    cleanup.push(() => {
      ctl.stop();
      bridge.close();
    });
    await ctl.start();
    await until(
      () => ports.icon === 'ok',
      () => `icon ok (is ${ports.icon})`,
    );
    return { ctl, ports };
  }
  const labels = (menu: MenuItemModel[]) => menu.flatMap((i) => (i.kind === 'item' ? [i.label] : []));

  it('a desk token (GET /me) is offered no Pause or Resume; the version is in the menu', async () => {
    const intake = new TinyIntake();
    intake.role = 'desk';
    const { ports } = await trayFor(intake);
    expect(menuCommands(ports.menu)).not.toContain('pause-queue');
    expect(menuCommands(ports.menu)).toContain('export-audit');
    expect(labels(ports.menu)).toContain('Carrier Screen 1.4.2');
  });

  it('an admin token is', async () => {
    const intake = new TinyIntake();
    intake.role = 'admin';
    const { ports } = await trayFor(intake);
    expect(menuCommands(ports.menu)).toContain('pause-queue');
  });

  it('a worker without /me: offered, and hidden after the worker refuses it with 403', async () => {
    const intake = new TinyIntake();
    intake.role = null;
    intake.adminRoles = [];
    const { ctl, ports } = await trayFor(intake);
    expect(menuCommands(ports.menu)).toContain('pause-queue');
    await ctl.run('pause-queue');
    expect(intake.posts).toEqual([]);
    expect(menuCommands(ports.menu)).not.toContain('pause-queue');
    expect(menuCommands(ports.menu)).not.toContain('resume-queue');
  });
});

describe('a stopped tray controller', () => {
  it("leaves the tray to the next one: a late read or an export's progress paints nothing", async () => {
    const intake = new TinyIntake();
    intake.role = 'desk';
    const url = await intake.listen();
    cleanup.push(() => intake.close());
    const bridge = new HttpBridge({ baseUrl: url, token: 'tray-token' });
    cleanup.push(() => bridge.close());
    const ports = new RecordingPorts();
    const ctl = new TrayController({ bridge, ports, workerUrl: url, pollMs: 0 });
    await ctl.start();
    ctl.stop();
    ports.menu = [];
    ports.tooltip = 'the next worker';
    intake.status = { ...intake.status, reviews: { pending: 3 } };
    await ctl.refresh();
    ctl.setActivity('Exporting audit CSV: 1.0 MB…');
    expect(ports.menu).toEqual([]);
    expect(ports.tooltip).toBe('the next worker');
    expect(ports.notes).toEqual([]);
  });
});
