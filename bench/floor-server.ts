/**
 * Child process: the floor. An empty Fastify route taking the same JSON body as POST
 * /screenings, with no logging: what this machine, Node and Fastify can do at best.
 */
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { serveRpc } from './rpc.js';

const app = Fastify({ logger: false });
app.post('/screenings', async () => ({ object: 'floor' }));
const ready = app.listen({ host: '127.0.0.1', port: 0 }).then(() => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);

serveRpc({
  url: () => ready,
  close: () => app.close(),
});
