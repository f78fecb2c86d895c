/**
 * Accounts and their keys, and the Authorization check. Error messages say what is wrong
 * with a key but never repeat it.
 */
import { SVC_KEY_PREFIX, keyEnvironment } from '../shared/svc-contract.js';
import type { EmulatorAccount, EmulatorMode } from './types.js';

/** Fixed, documented keys of the demo account (they are test fixtures, not secrets). */
export const DEMO_KEYS: { sandbox: string; live: string } = Object.freeze({
  sandbox: 'svc_test_demo_4f1c9b7e2a6d8035',
  live: 'svc_live_demo_9d2e7a4c1b5f6083',
});

export const DEMO_ACCOUNT: EmulatorAccount = {
  id: 'acct_demo',
  name: 'Demo Freight Brokerage',
  keys: [DEMO_KEYS.sandbox, DEMO_KEYS.live],
};

export interface AuthFailure {
  code: 'missing_api_key' | 'invalid_api_key' | 'wrong_environment_key';
  message: string;
}

export type AuthResult = { account: EmulatorAccount } | { failure: AuthFailure };

const ENV_NAME: Record<EmulatorMode, string> = { sandbox: 'sandbox', live: 'live' };

export class AccountRegistry {
  private readonly byKey = new Map<string, EmulatorAccount>();
  readonly accounts: readonly EmulatorAccount[];

  constructor(extra: readonly EmulatorAccount[] = []) {
    this.accounts = [DEMO_ACCOUNT, ...extra];
    const ids = new Set<string>();
    for (const account of this.accounts) {
      if (!account.id || ids.has(account.id)) throw new Error(`accounts: duplicate or empty account id "${account.id}"`);
      ids.add(account.id);
      for (const key of account.keys) {
        if (!keyEnvironment(key)) throw new Error(`accounts[${account.id}].keys: a key must start with svc_test_ or svc_live_`);
        if (key.length <= SVC_KEY_PREFIX.sandbox.length)
          throw new Error(`accounts[${account.id}].keys: a key needs characters after its prefix`);
        if (this.byKey.has(key)) throw new Error(`accounts[${account.id}].keys: a key belongs to two accounts`);
        this.byKey.set(key, account);
      }
    }
  }

  /** Resolve an Authorization header against an instance of the given mode. */
  authenticate(header: string | undefined, mode: EmulatorMode): AuthResult {
    if (header === undefined || header.trim() === '')
      return { failure: { code: 'missing_api_key', message: 'No API key: send the header "Authorization: Bearer <API key>".' } };
    const m = /^Bearer(?:[ \t]+(\S+))?$/i.exec(header.trim());
    if (!m) {
      return {
        failure: { code: 'invalid_api_key', message: 'The Authorization header is malformed: it must be "Bearer <API key>".' },
      };
    }
    const key = m[1] ?? '';
    if (key === '')
      return { failure: { code: 'missing_api_key', message: 'No API key: the Authorization header has "Bearer" but no key.' } };
    const env = keyEnvironment(key);
    if (env !== undefined && env !== mode) {
      const expected = SVC_KEY_PREFIX[mode];
      return {
        failure: {
          code: 'wrong_environment_key',
          message: `This is a ${ENV_NAME[env]} key (prefix ${SVC_KEY_PREFIX[env]}) sent to the ${ENV_NAME[mode]} environment. Use a ${ENV_NAME[mode]} key (prefix ${expected}) here, or send the request to the ${ENV_NAME[env]} base URL.`,
        },
      };
    }
    const account = this.byKey.get(key);
    if (!account) {
      return {
        failure: {
          code: 'invalid_api_key',
          message: `The API key is not recognised: it may be mistyped, truncated or revoked. Check it against the ${ENV_NAME[mode]} key (prefix ${SVC_KEY_PREFIX[mode]}) issued to your account.`,
        },
      };
    }
    return { account };
  }
}
