import type { DeskModel, Resource } from './desk-model.js';
import { fmtTime } from './format.js';
import type { ListViewSpec } from './list-view.js';

/**
 * The parts of a list view's spec that say how far its lists can be trusted: loading, failed
 * (with Retry), stale while the worker is unreachable, and actions off meanwhile. One home,
 * so every view says it the same way.
 */
export function listStates<T extends { id: string }>(
  model: DeskModel,
  resources: readonly Resource[],
  what: string,
  history: readonly Resource[] = [],
): Pick<ListViewSpec<T>, 'loadState' | 'loadError' | 'historyLoadState' | 'retry' | 'stale' | 'actionsOff' | 'what'> {
  return {
    what,
    loadState: () => model.loadState(...resources),
    loadError: () => model.errorOf(...resources),
    historyLoadState: () => (history.length ? model.loadState(...history) : 'ready'),
    retry: () => void Promise.all([...resources, ...history].map((r) => model.load(r))),
    stale: () => staleText(model),
    actionsOff: () => model.actionsOff(),
  };
}

/** "not live since 14:02 UTC": the mark on every count while the event stream is down. */
export function staleText(model: DeskModel): string | null {
  if (!model.isStale()) return null;
  return model.staleSince ? `not live since ${fmtTime(model.staleSince)}` : 'not live yet';
}
