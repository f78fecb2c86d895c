/**
 * What /openapi.json declares beyond the shapes (issue 32): the headers, every status a route
 * can answer, the non-JSON bodies, the callbacks as webhooks and the unions a client narrows on.
 * The document is read as a TMS would: without a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

type Json = Record<string, any>;
let stack: Stack;
let doc: Json;
const ops = (): Array<{ path: string; method: string; op: Json }> =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Json })),
  );
const opById = (id: string): Json => ops().find((o) => o.op.operationId === id)!.op;
const paramNames = (op: Json): string[] =>
  (op.parameters as Json[]).map((p) => (p.$ref ? doc.components.parameters[String(p.$ref).split('/').pop()!].name : p.name) as string);

beforeAll(async () => {
  stack = await startStack();
  const res = await fetch(`${stack.intakeUrl}/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
});
afterAll(async () => {
  await stack?.close();
});

describe('the OpenAPI document', () => {
  it('has servers, tags, and a description and a tag for every operation', () => {
    expect(doc.servers[0].url).toBe('{scheme}://{host}:{port}');
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    for (const { path, method, op } of ops()) {
      expect(String(op.description ?? ''), `${method} ${path}`).not.toBe('');
      expect(
        op.tags.every((t: string) => tags.has(t)),
        `${method} ${path}`,
      ).toBe(true);
    }
  });

  it('declares the request headers where they are read, and the response headers on every answer', () => {
    for (const { path, method, op } of ops()) {
      expect(paramNames(op), `${method} ${path}`).toContain('Carrier-Screen-Version');
      for (const [status, res] of Object.entries(op.responses as Record<string, Json>))
        expect(Object.keys(res.headers), `${method} ${path} ${status}`).toContain('X-Request-Id');
    }
    for (const id of ['createScreening', 'createScreeningBatch', 'approveReview', 'rejectReview'])
      expect(paramNames(opById(id))).toContain('Idempotency-Key');
    expect(paramNames(opById('getScreening'))).not.toContain('Idempotency-Key');
    expect(paramNames(opById('streamEvents'))).toContain('Last-Event-ID');
    const create = opById('createScreening').responses;
    expect(Object.keys(create['202'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'Location', 'Idempotent-Replayed']));
    expect(Object.keys(create['429'].headers)).toContain('Retry-After');
    expect(Object.keys(create['401'].headers)).toContain('WWW-Authenticate');
  });

  it('lists every status a route answers: 409 on createScreening, 403 only where a role (or the body) is refused', () => {
    expect(Object.keys(opById('createScreening').responses)).toEqual(
      expect.arrayContaining(['200', '202', '400', '401', '403', '409', '413', '415', '429', '500', '503']),
    );
    for (const id of ['approveReview', 'createBlock', 'liftBlock', 'pauseQueue', 'retryCallback', 'exportAudit', 'revokeDecision'])
      expect(Object.keys(opById(id).responses), id).toContain('403');
    // Any token may read: a 403 there would be a promise the server never keeps.
    for (const id of ['getStatus', 'listScreenings', 'getMe']) expect(Object.keys(opById(id).responses), id).not.toContain('403');
    expect(Object.keys(opById('getHealth').responses).sort()).toEqual(['200', '400', '500', '503']);
  });

  it('gives /audit.csv, /metrics and /events their 200 with their content types; the events are named', () => {
    expect(Object.keys(opById('exportAudit').responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(opById('getMetrics').responses['200'].content)).toEqual(['text/plain']);
    const stream = opById('streamEvents').responses['200'].content['text/event-stream'].schema;
    expect(stream.contentSchema.$ref).toBe('#/components/schemas/StreamEvent');
    const names = (doc.components.schemas.StreamEvent.oneOf as Json[]).map((e) => e.properties.event.enum[0]);
    expect(names).toEqual(
      expect.arrayContaining([
        'screening.completed',
        'review.created',
        'review.resolved',
        'carrier.changed',
        'quota.changed',
        'queue.changed',
      ]),
    );
  });

  it('documents each callback as a webhook with its body and signed headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(['carrier.changed', 'review.resolved', 'screening.completed']);
    const completed = doc.webhooks['screening.completed'].post;
    expect(completed.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/ScreeningCallback');
    expect(completed.parameters.map((p: Json) => p.name)).toEqual([
      'X-Carrier-Screen-Event',
      'X-Carrier-Screen-Delivery',
      'X-Carrier-Screen-Signature',
    ]);
    expect(doc.webhooks['carrier.changed'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CarrierChangedCallback',
    );
  });

  it('names the error envelope ErrorEnvelope, and tells screenings and batch items apart by status', () => {
    expect(doc.components.schemas.Error).toBeUndefined();
    expect(opById('getScreening').responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
    const s = doc.components.schemas.Screening;
    expect(s.discriminator.propertyName).toBe('status');
    // Done: action and completed_at are never null.
    const done = doc.components.schemas.ScreeningDone.properties;
    expect(JSON.stringify(done.action)).not.toContain('null');
    expect(JSON.stringify(done.completed_at)).not.toContain('null');
    const items = opById('createScreeningBatch').responses['207'].content['application/json'].schema.properties.data.items.anyOf as Json[];
    expect(items.map((i) => i.title)).toEqual(['BatchItemDone', 'BatchItemQueued', 'BatchItemRefused']);
    expect(items[0]!.properties.status.enum).toEqual([200]);
    expect(items[1]!.properties.status.enum).toEqual([202]);
    const refused = (items[2]!.properties.status.anyOf as Json[]).flatMap((x) => x.enum);
    expect(refused).toContain(400);
    expect(refused).not.toContain(200);
    expect(refused).not.toContain(202);
  });
});
