/**
 * The intake's /openapi.json generates the typed client (openapi-typescript → shared/intake-api.ts,
 * used with openapi-fetch), and the checked-in client is current: a route or field changed on the
 * server without regenerating fails here (`npm run gen:client` regenerates it). Then the generated
 * client drives an end-to-end flow against the real stack, and every answer is checked against
 * its named component: no field the server sends is missing from the spec.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, paths } from '../../shared/intake-api.js';
import { COMPONENTS } from '../../worker/intake/components.js';
import { startStack, type Stack } from '../helpers/stack.js';

const CLIENT_FILE = join(resolve(import.meta.dirname, '../..'), 'shared/intake-api.ts');
const HEADER = "/* Generated from the intake's /openapi.json by openapi-typescript (npm run gen:client). Do not edit. */\n\n";

let stack: Stack;
let spec: {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};
const client = () => createClient<paths>({ baseUrl: stack.intakeUrl, headers: { authorization: `Bearer ${stack.token}` } });

beforeAll(async () => {
  stack = await startStack();
  spec = (await (
    await fetch(`${stack.intakeUrl}/openapi.json`, { headers: { authorization: `Bearer ${stack.token}` } })
  ).json()) as typeof spec;
});
afterAll(async () => {
  await stack?.close();
});

/** Top-level fields the answer has that its component does not name. */
function unnamed(component: string, answer: object): string[] {
  const props = spec.components.schemas[component]?.properties ?? {};
  return Object.keys(answer).filter((k) => !(k in props));
}

describe('the OpenAPI document', () => {
  it('names every operation and the object components, referenced by $ref', () => {
    const ops = Object.values(spec.paths).flatMap((methods) =>
      Object.entries(methods)
        .filter(([m]) => m !== 'parameters')
        .map(([, op]) => op.operationId),
    );
    expect(ops.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ops).size).toBe(ops.length);
    for (const name of [
      'Screening',
      'Review',
      'Decision',
      'WatchEntry',
      'LocalBlock',
      'CarrierChange',
      'Status',
      'ErrorEnvelope',
      'Callback',
      'DailyUsage',
      'Score',
    ])
      expect(Object.keys(spec.components.schemas), name).toContain(name);
    expect(COMPONENTS.map((c) => (c as { $id?: string }).$id).sort()).toEqual(
      Object.keys(spec.components.schemas)
        .filter((k) => !k.startsWith('def-'))
        .sort(),
    );
    const text = JSON.stringify(spec);
    expect(text).toContain('"$ref":"#/components/schemas/Screening"');
    // Closed sets are enums; the error codes are catalogued.
    // A screening is a union told apart by status: a generated client narrows on it.
    const screening = spec.components.schemas.Screening as {
      oneOf: unknown[];
      discriminator: { propertyName: string; mapping: Record<string, string> };
    };
    expect(screening.discriminator.propertyName).toBe('status');
    expect(Object.keys(screening.discriminator.mapping).sort()).toEqual(['active', 'done', 'queued']);
    expect(JSON.stringify(spec.components.schemas.ScreeningQueued?.properties?.status)).toContain('"queued"');
    expect(JSON.stringify(spec.components.schemas.ErrorEnvelope)).toContain('resource_missing');
  });

  it('generates the checked-in client exactly (regenerate with npm run gen:client)', async () => {
    const generated = HEADER + astToString(await openapiTS(spec as never));
    if (process.env.UPDATE_INTAKE_CLIENT === '1') writeFileSync(CLIENT_FILE, generated);
    expect(readFileSync(CLIENT_FILE, 'utf8'), 'shared/intake-api.ts is stale: run npm run gen:client').toBe(generated);
  });
});

describe('the generated client against the real stack', () => {
  it('screens, finds, decides, blocks and revokes; every answer matches its component', async () => {
    const api = client();
    const held = await api.POST('/screenings', { params: { query: { wait: 10 } }, body: { dot_number: '1000003', tender_id: 'CLIENT-1' } });
    expect(held.response.status).toBe(200);
    const s = held.data!;
    expect(s.action).toBe('hold');
    expect(unnamed('ScreeningDone', s)).toEqual([]);
    expect(unnamed('Score', s.score!)).toEqual([]);

    const found = await api.GET('/screenings', { params: { query: { tender_id: 'CLIENT-1' } } });
    expect(found.data!.data.map((x) => x.id)).toEqual([s.id]);
    expect(found.data!.has_more).toBe(false);

    const review = (await api.GET('/reviews/{id}', { params: { path: { id: s.review!.id } } })).data!;
    expect(unnamed('Review', review)).toEqual([]);
    const approved = await api.POST('/reviews/{id}/approve', { params: { path: { id: review.id } }, body: { by: 'Dana', note: 'ok' } });
    expect(approved.data!.state).toBe('approved');
    const again = await api.POST('/reviews/{id}/approve', { params: { path: { id: review.id } }, body: { by: 'Dana' } });
    const err: components['schemas']['ErrorEnvelope'] | undefined = again.error;
    expect([again.response.status, err?.error.code, err?.error.resource_id]).toEqual([409, 'review_conflict', review.id]);

    const [decision] = (await api.GET('/decisions', { params: { query: { state: 'standing' } } })).data!.data;
    expect(unnamed('Decision', decision!)).toEqual([]);
    const revoked = await api.POST('/decisions/{id}/revoke', {
      params: { path: { id: decision!.id } },
      body: { by: 'Dana', note: 'test' },
    });
    expect(revoked.data!.state).toBe('revoked');

    const block = await api.POST('/blocks', { body: { dot_number: '1000001', by: 'Dana', reason: 'fraud report' } });
    expect(unnamed('LocalBlock', block.data!)).toEqual([]);
    const lifted = await api.DELETE('/blocks/{dot}', { params: { path: { dot: '1000001' }, query: { by: 'Dana' } } });
    expect(lifted.data!.state).toBe('lifted');

    const status = (await api.GET('/status')).data!;
    expect(unnamed('Status', status)).toEqual([]);
    const me = (await api.GET('/me')).data!;
    expect(unnamed('Caller', me)).toEqual([]);
    expect(me).toEqual({ object: 'caller', token_id: null, name: null, role: 'admin' });
    const usage = (await api.GET('/usage/daily')).data!;
    expect(unnamed('DailyUsage', usage)).toEqual([]);
    const watch = (await api.GET('/watchlist')).data!.data;
    for (const w of watch) expect(unnamed('WatchEntry', w)).toEqual([]);
    const callbacks = (await api.GET('/callbacks', { params: { query: { state: 'all' } } })).data!.data;
    for (const c of callbacks) expect(unnamed('Callback', c)).toEqual([]);
    const missing = await api.GET('/screenings/{id}', { params: { path: { id: 'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa' } } });
    expect(missing.error?.error.code).toBe('resource_missing');
  });
});
