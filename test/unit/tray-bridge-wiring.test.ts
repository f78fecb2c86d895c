import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { wireBridge } from '../../electron/main/bridge-wiring.js';
import type { ConnectionState } from '../../electron/shared/bridge.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';

describe('a new worker connection (Settings → Save)', () => {
  it('reaches the dashboard as "connecting" first, then "open": the dashboard re-reads everything from the new worker', async () => {
    // A real SSE endpoint that opens and stays open.
    const server = createServer((req, res) => {
      if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(':hb\n\n');
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const bridge = new HttpBridge({ baseUrl: url, token: 'desk-token' });
    const states: ConnectionState[] = [];
    const unsubs = wireBridge(bridge, { connection: (s) => states.push(s), event: () => undefined });
    try {
      await expect.poll(() => states.includes('open')).toBe(true);
      expect(states[0]).toBe('connecting');
      expect(states.indexOf('connecting')).toBeLessThan(states.indexOf('open'));
    } finally {
      for (const u of unsubs) u();
      bridge.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
