import type { IntakeEvent } from '../../shared/screening.js';
import type { ConnectionState, DeskBridge } from '../shared/bridge.js';

/**
 * Forward a (new) bridge's connection states and events to the dashboard. The connection
 * subscription comes first and the current state is pushed at once: subscribing to events starts
 * the stream, and after Settings → Save the dashboard must see "connecting" to drop the old
 * worker's data and read everything again when the new one is "open".
 */
export function wireBridge(
  bridge: Pick<DeskBridge, 'onConnectionChange' | 'onEvent' | 'connectionState'>,
  push: { connection(state: ConnectionState): void; event(e: IntakeEvent): void },
): Array<() => void> {
  const unsubs = [bridge.onConnectionChange((s) => push.connection(s))];
  unsubs.push(bridge.onEvent((e) => push.event(e)));
  push.connection(bridge.connectionState());
  return unsubs;
}
