import type { Logger } from 'pino';
import type { SvcUsage } from '../../shared/svc-contract.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import type { Env, RecordStore } from '../store/index.js';
import { environmentMismatch, type SvcClient } from '../svc/index.js';
import type { QuotaGate } from './quota-gate.js';
import type { ServiceState } from './service-state.js';

/**
 * What GET /v1/usage tells this install: the quota gate's figures, the service state (reachable,
 * key accepted, right environment), the day's usage snapshot in the store and a quota.changed
 * event. Polled every few minutes by a worker, once at start from the key check's answer, and
 * when Redis lost the gate's figures (worker/recovery/redis-rebuild.ts).
 */
export interface UsagePollDeps {
  env: Env;
  client: SvcClient;
  service: ServiceState;
  gate: QuotaGate;
  store: Pick<RecordStore, 'unitOfWork'>;
  events: Pick<SharedEventFeed, 'publish'>;
  logger: Logger;
}

export class UsagePoll {
  constructor(private readonly d: UsagePollDeps) {}

  /** Ask /v1 for the usage; a failure tells the service state (refused key, unreachable), never the caller. */
  async poll(): Promise<void> {
    const { client, service, gate, events, env, logger } = this.d;
    try {
      // The service asked us (Retry-After) to stay away: no call at all until then. Its health
      // check says it is up, not that our calls are welcome, so it does not end the hold-off.
      if ((await service.holdOffUntil()) !== null) return;
      const { body, limits } = await client.getUsage();
      // Unreachable at start, so never checked: the first answer must come from the key's environment.
      const mismatch = environmentMismatch(env, body.livemode, limits.environment, false);
      if (mismatch) {
        await service.environmentMismatch(mismatch);
        logger.error({ mismatch }, '/v1 answered from the wrong environment: calls stopped');
        return;
      }
      await gate.observeUsage(body);
      await service.limits(limits);
      await service.keyAccepted(); // the key check passed: a refused key no longer stops calls
      await this.#snapshot(body);
      await events.publish('quota.changed', await gate.status());
    } catch (e) {
      const err = e as Error & { kind?: string };
      if (err.kind === 'authentication') await service.keyRejected(err.message);
      else await service.unreachable(err.message);
    }
  }

  /** The start-up key check's answer (it came from the key's environment): figures, snapshot, key accepted. */
  async observeKeyCheck(usage: SvcUsage): Promise<void> {
    await this.d.gate.observeUsage(usage);
    await this.#snapshot(usage);
    await this.d.service.keyAccepted();
    // Checked just now: a mismatch another start recorded is over.
    await this.d.service.environmentMatches();
  }

  /** The day's usage snapshot, in a unit of its own. */
  #snapshot(u: SvcUsage): Promise<void> {
    const { store, env } = this.d;
    return store.unitOfWork((tx) =>
      tx.usage.putUsageSnapshot(env, {
        monthly_quota: u.monthly_quota,
        used: u.live_requests_used,
        remaining: u.remaining,
        rate_limit_per_minute: u.rate_limit_per_minute,
      }),
    );
  }
}
