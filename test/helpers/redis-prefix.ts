import { randomUUID } from 'node:crypto';

/**
 * A unique BullMQ/Redis key prefix per test, so tests sharing one Redis never see each
 * other's keys and nothing has to be flushed.
 */
export function uniquePrefix(name = 'cs'): string {
  return `${name}-test-${randomUUID().slice(0, 8)}`;
}
