import {
  IntakeError,
  type AuditSaved,
  type BlockInput,
  type ConnectionState,
  type DeskSettingsInput,
  type DeskSettingsView,
} from '../shared/bridge.js';
import type { HttpBridge } from '../shared/http-bridge.js';
import { IpcChannel, type IpcResult } from '../shared/ipc-channels.js';

/**
 * What main answers on each IPC channel the preload calls, as a table: main.ts registers it with
 * `ipcMain.handle` behind its own-frame guard, and the Settings view's browser test runs the same
 * table in Node (Electron cannot run here). No `electron` import, so both can load it.
 */

export type IpcHandler = (...args: unknown[]) => Promise<unknown>;

export interface IpcHandlerDeps {
  /** The open connection's bridge, if the tray is set up. */
  bridge(): HttpBridge | undefined;
  /** After an admin action: note a refused admin token and refresh the tray (absent: no tray). */
  controller?(): { noteAdminError(err: unknown): void; refresh(): Promise<unknown> } | undefined;
  connectionState(): ConnectionState;
  exportAudit(range: { from: string; to: string }): Promise<AuditSaved | null>;
  settingsView(): DeskSettingsView;
  /** Save the settings and reconnect (tray-session.ts). */
  saveSettings(input: DeskSettingsInput): Promise<unknown>;
}

/** A value or an error, as data: IPC flattens thrown errors to a message. */
export function ipcResult<T>(fn: () => Promise<T>): Promise<IpcResult<T>> {
  // Through then(): a bridge method that throws at once (bad input) still answers as data.
  return Promise.resolve()
    .then(fn)
    .then(
      (value) => ({ ok: true as const, value }),
      (err: unknown) => ({
        ok: false as const,
        error:
          err instanceof IntakeError
            ? {
                message: err.message,
                status: err.status,
                code: err.code,
                ...(err.param ? { param: err.param } : {}),
                ...(err.review ? { review: err.review } : {}),
              }
            : { message: err instanceof Error ? err.message : String(err), status: 0, code: 'tray_error' },
      }),
    );
}

/** A carrier or load filter from the page: only its string fields cross. */
export function carrierSearch(v: unknown): { dot_number?: string; mc_number?: string; tender_id?: string } {
  const i = (v ?? {}) as Record<string, unknown>;
  const out: { dot_number?: string; mc_number?: string; tender_id?: string } = {};
  for (const k of ['dot_number', 'mc_number', 'tender_id'] as const) if (typeof i[k] === 'string') out[k] = i[k];
  return out;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A DOT or MC from the page: only the string fields cross. */
function carrierOf(input: unknown): { dot_number?: string; mc_number?: string } {
  const i = (input ?? {}) as Record<string, unknown>;
  const dot = text(i.dot_number);
  const mc = text(i.mc_number);
  return { ...(dot !== undefined ? { dot_number: dot } : {}), ...(mc !== undefined ? { mc_number: mc } : {}) };
}

export function ipcHandlers(d: IpcHandlerDeps): Record<string, IpcHandler> {
  const bridge = (): HttpBridge => {
    const b = d.bridge();
    if (!b) throw new IntakeError('The tray is not set up: add the worker URL and token in Settings', 0, 'not_configured');
    return b;
  };
  /** An admin action: a refused token is noted on the tray, and the tray refreshes after it. */
  const admin = <T>(fn: () => Promise<T>) =>
    ipcResult(async () => {
      const s = await fn().catch((err: unknown) => {
        d.controller?.()?.noteAdminError(err);
        throw err;
      });
      void d.controller?.()?.refresh();
      return s;
    });
  return {
    [IpcChannel.getStatus]: () => ipcResult(() => bridge().getStatus()),
    [IpcChannel.whoAmI]: () => ipcResult(() => bridge().whoAmI()),
    [IpcChannel.listReviews]: (state) => ipcResult(() => bridge().listReviews(state as never)),
    [IpcChannel.recentDecisions]: (limit) => ipcResult(() => bridge().recentDecisions(limit as number)),
    [IpcChannel.resolveReview]: (id, verdict, decision) =>
      ipcResult(() => bridge().resolveReview(id as string, verdict as never, decision as never)),
    [IpcChannel.listScreenings]: (limit) => ipcResult(() => bridge().listScreenings(limit as number)),
    [IpcChannel.getScreening]: (id) => ipcResult(() => bridge().getScreening(id as string)),
    [IpcChannel.searchScreenings]: (filter, limit) => ipcResult(() => bridge().searchScreenings(carrierSearch(filter), limit as number)),
    [IpcChannel.getReview]: (id) => ipcResult(() => bridge().getReview(id as string)),
    [IpcChannel.dailyUsage]: () => ipcResult(() => bridge().dailyUsage()),
    [IpcChannel.pauseQueue]: () => admin(() => bridge().pauseQueue()),
    [IpcChannel.resumeQueue]: () => admin(() => bridge().resumeQueue()),
    [IpcChannel.listChanges]: (state, filter) => ipcResult(() => bridge().listChanges(state as never, carrierSearch(filter))),
    [IpcChannel.endedDecisions]: (limit, after) => ipcResult(() => bridge().endedDecisions(limit as number, text(after))),
    [IpcChannel.liftedBlocks]: (limit, after) => ipcResult(() => bridge().liftedBlocks(limit as number, text(after))),
    [IpcChannel.recentChanges]: (state, limit) => ipcResult(() => bridge().recentChanges(state as never, limit as number)),
    [IpcChannel.acknowledgeChange]: (id, by, note) =>
      ipcResult(async () => {
        const c = await bridge().acknowledgeChange(id as string, by as string | null, text(note) ?? null);
        void d.controller?.()?.refresh();
        return c;
      }),
    [IpcChannel.listBlocks]: (state, filter) => ipcResult(() => bridge().listBlocks(state as never, carrierSearch(filter))),
    [IpcChannel.blockCarrier]: (input) => {
      const i = (input ?? {}) as Partial<Record<keyof BlockInput, unknown>>;
      return ipcResult(() => bridge().blockCarrier({ ...carrierOf(input), by: String(i.by ?? ''), reason: String(i.reason ?? '') }));
    },
    [IpcChannel.liftBlock]: (carrier, by, note) => ipcResult(() => bridge().liftBlock(carrier as string, by as string, text(note))),
    [IpcChannel.listDecisions]: (state, filter) => ipcResult(() => bridge().listDecisions(state as never, carrierSearch(filter))),
    [IpcChannel.revokeDecision]: (id, by, note) =>
      ipcResult(() => bridge().revokeDecision(id as string, by as string | null, note as string)),
    [IpcChannel.recheckCarrier]: (input) => ipcResult(() => bridge().recheckCarrier(carrierOf(input))),
    [IpcChannel.auditExport]: (from, to) => ipcResult(() => d.exportAudit({ from: String(from), to: String(to) })),
    [IpcChannel.connectionState]: async () => d.connectionState(),
    [IpcChannel.settingsGet]: () => ipcResult(async () => d.settingsView()),
    [IpcChannel.settingsSave]: (input) =>
      ipcResult(async () => {
        const i = (input ?? {}) as Partial<DeskSettingsInput>;
        // Always reconnects (the same token may be accepted now); see tray-session.ts.
        await d.saveSettings({
          workerUrl: String(i.workerUrl ?? ''),
          ...(typeof i.token === 'string' ? { token: i.token } : {}),
          ...(typeof i.openAtLogin === 'boolean' ? { openAtLogin: i.openAtLogin } : {}),
        });
        return d.settingsView();
      }),
  };
}
