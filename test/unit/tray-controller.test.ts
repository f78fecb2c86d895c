import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardView, DesktopNotification, MenuItemModel, TrayIconState, TrayPorts } from '../../electron/main/ports.js';
import { TrayController, menuCommands } from '../../electron/main/tray-controller.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';
import type { StatusReport } from '../../shared/screening.js';

/** A small intake stand-in over real HTTP: /status, /queue/pause|resume and /events. */
class TinyIntake {
  status: StatusReport = {
    object: 'status',
    environment: 'sandbox',
    queue: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, paused: false },
    quota: { livemode: false, monthly_quota: null, used: null, remaining: null, resets_at: '2025-04-01T00:00:00Z', gate: 'open', reserve: null, updated_at: null },
    rate_limit: { per_minute: 120, remaining: 120, resets_at: null },
    reviews: { pending: 0 },
    service: { reachable: true, checked_at: null, last_error: null, key_rejected: false },
  };
  posts: string[] = [];
  private streams = new Set<ServerResponse>();
  private nextId = 1;
  server: Server = createServer((req, res) => {
    if (req.headers.authorization !== 'Bearer tray-token') return void res.writeHead(401).end('{"error":{"code":"unauthorized","message":"no"}}');
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(':hb\n\n');
      this.streams.add(res);
      req.on('close', () => this.streams.delete(res));
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST' && (req.url === '/queue/pause' || req.url === '/queue/resume')) {
      this.posts.push(req.url);
      this.status = { ...this.status, queue: { ...this.status.queue, paused: req.url === '/queue/pause' } };
    }
    if (req.url === '/status' || req.url?.startsWith('/queue/')) return void res.end(JSON.stringify(this.status));
    res.writeHead(404).end('{"error":{"code":"not_found","message":"?"}}');
  });

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
    const url = await intake.listen();
    let intakeOpen = true;
    cleanup.push(() => (intakeOpen ? intake.close() : undefined));
    const bridge = new HttpBridge({ baseUrl: url, token: 'tray-token', backoff: { initialMs: 5, maxMs: 20 } });
    const ports = new RecordingPorts();
    const ctl = new TrayController({ bridge, ports, workerUrl: url, pollMs: 0 });
    cleanup.push(() => {
      ctl.stop();
      bridge.close();
    });
    await ctl.start();
    await until(() => ports.icon === 'ok', () => `icon ok (is ${ports.icon}: ${ports.tooltip})`);
    expect(menuCommands(ports.menu)).toContain('pause-queue');
    expect(ports.notes).toEqual([]);

    // A review arrives: the event alone makes the tray re-read /status.
    await until(() => intake.streamCount() === 1, () => 'the event stream');
    intake.status = { ...intake.status, reviews: { pending: 2 } };
    intake.emit('review.created', { object: 'review', id: 'rev_1' });
    await until(() => ports.icon === 'attention', () => `attention (is ${ports.icon})`);
    expect(ports.tooltip).toBe('Carrier Screen (sandbox)\n2 carriers waiting for review');
    expect(ports.notes.map((n) => n.condition)).toEqual(['reviews_pending']);
    intake.emit('review.created', { object: 'review', id: 'rev_2' });
    await ctl.refresh();
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
    await until(() => ports.icon === 'trouble', () => `trouble (is ${ports.icon})`);
    expect(ports.notes.map((n) => n.condition)).toEqual(['reviews_pending', 'service_unavailable']);
    await ctl.run('quit');
    expect(ports.quits).toBe(1);
  });
});
