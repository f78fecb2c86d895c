/**
 * The start-up key check: GET /v1/usage, then the key's prefix, `usage.livemode` and the
 * SVC-Environment header must all name the same environment. Messages name environments and
 * the key's prefix only, never any other part of the key.
 */
import { SVC_KEY_PREFIX, keyEnvironment, type SvcUsage } from '../../shared/svc-contract.js';
import type { SvcClient } from './client.js';
import { SvcAuthenticationError, SvcError } from './errors.js';
import type { LimitsSnapshot } from './limits.js';

export type KeyCheckCode = 'key_prefix' | 'environment_mismatch' | 'key_rejected' | 'wrong_base_url' | 'service_unreachable';

export class KeyCheckError extends Error {
  override readonly name = 'KeyCheckError';
  constructor(
    readonly code: KeyCheckCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

type Env = 'sandbox' | 'live';

function describeKey(env: Env): string {
  return `a ${env} key (${SVC_KEY_PREFIX[env]}…)`;
}

export async function verifyKey(client: SvcClient, apiKey: string): Promise<{ environment: Env; usage: SvcUsage; limits: LimitsSnapshot }> {
  const keyEnv = typeof apiKey === 'string' ? keyEnvironment(apiKey) : undefined;
  if (!keyEnv)
    throw new KeyCheckError(
      'key_prefix',
      `the API key must start with ${SVC_KEY_PREFIX.sandbox} (sandbox) or ${SVC_KEY_PREFIX.live} (live)`,
    );

  let usage: SvcUsage;
  let limits: LimitsSnapshot;
  try {
    ({ body: usage, limits } = await client.getUsage());
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    const serverEnv = e.limits?.environment ?? null;
    if (e instanceof SvcAuthenticationError) {
      // A live key sent to the sandbox is refused with 401; the header still says where we are.
      const code = serverEnv !== null && serverEnv !== keyEnv ? 'environment_mismatch' : 'key_rejected';
      const where = serverEnv !== null ? ` (${serverEnv})` : '';
      throw new KeyCheckError(code, `the /v1 service at ${client.baseUrl}${where} refused ${describeKey(keyEnv)}: ${e.message}`, {
        cause: e,
      });
    }
    const wrong = wrongService(e);
    if (wrong) throw new KeyCheckError('wrong_base_url', `${client.baseUrl} is not the /v1 service: GET /v1/usage ${wrong}`, { cause: e });
    throw new KeyCheckError('service_unreachable', `could not check the API key at ${client.baseUrl}: ${e.message}`, {
      cause: e,
    });
  }

  const mismatch = environmentMismatch(keyEnv, usage.livemode, limits.environment);
  if (mismatch)
    throw new KeyCheckError(
      'environment_mismatch',
      `${describeKey(keyEnv)} does not match the /v1 service at ${client.baseUrl}: ${mismatch}`,
    );
  return { environment: keyEnv, usage, limits };
}

/**
 * A definite wrong answer at the base URL (something answered, and it is not /v1): 404, a
 * redirect, or a 2xx that is not a usage object. Null for what may pass (5xx, time-outs).
 */
function wrongService(e: SvcError): string | null {
  const s = e.status;
  if (s === null) return null;
  if (s === 404) return 'answered 404 (no such route)';
  if (s >= 300 && s <= 399) return `answered a redirect (HTTP ${s})`;
  if (s >= 200 && s <= 299 && e.kind === 'invalid_response') return `answered HTTP ${s} with a body that is not a /v1 usage object`;
  return null;
}

/**
 * The one rule for "this answer comes from the key's environment": `livemode` (of a usage or a
 * score) and the SVC-Environment header must both name it. At start the header is required;
 * later answers are checked on what they carry. Returns what is wrong, or null.
 */
export function environmentMismatch(expected: Env, livemode: boolean, headerEnv: string | null, requireHeader = true): string | null {
  const bodyEnv: Env = livemode ? 'live' : 'sandbox';
  const headerOk = headerEnv === expected || (headerEnv === null && !requireHeader);
  if (bodyEnv === expected && headerOk) return null;
  const header = headerEnv === null ? 'no SVC-Environment header' : `SVC-Environment: ${headerEnv}`;
  return (
    `expected ${expected}, but livemode is ${String(livemode)} (${bodyEnv}) and the response has ${header}; ` +
    `use a sandbox key with a sandbox URL and a live key with a live URL`
  );
}
