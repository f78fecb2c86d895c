import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { IntakeEvent } from '../../shared/screening.js';
import type { ConnectionState } from '../shared/bridge.js';
import { IpcChannel, type DeskIpcApi } from '../shared/ipc-channels.js';

/**
 * The renderer's only door to the worker: a few named calls, each one IPC invoke. The
 * token and the HTTP client stay in main. Listeners get plain data, never the IPC event.
 */

function subscribe<T>(channel: string, cb: (value: T) => void): () => void {
  const listener = (_e: IpcRendererEvent, value: T): void => cb(value);
  ipcRenderer.on(channel, listener);
  return () => {
    ipcRenderer.removeListener(channel, listener);
  };
}

const desk: DeskIpcApi = {
  kind: 'electron',
  getStatus: () => ipcRenderer.invoke(IpcChannel.getStatus),
  whoAmI: () => ipcRenderer.invoke(IpcChannel.whoAmI),
  listReviews: (state) => ipcRenderer.invoke(IpcChannel.listReviews, state),
  recentDecisions: (limit) => ipcRenderer.invoke(IpcChannel.recentDecisions, limit),
  resolveReview: (id, verdict, decision) =>
    ipcRenderer.invoke(IpcChannel.resolveReview, id, verdict, {
      by: decision.by ?? null,
      note: decision.note,
      block: decision.block === true,
      review_version: decision.review_version ?? null,
    }),
  listScreenings: (limit) => ipcRenderer.invoke(IpcChannel.listScreenings, limit),
  getScreening: (id) => ipcRenderer.invoke(IpcChannel.getScreening, id),
  searchScreenings: (filter, limit) =>
    ipcRenderer.invoke(
      IpcChannel.searchScreenings,
      { dot_number: filter.dot_number, mc_number: filter.mc_number, tender_id: filter.tender_id },
      limit,
    ),
  getReview: (id) => ipcRenderer.invoke(IpcChannel.getReview, id),
  dailyUsage: () => ipcRenderer.invoke(IpcChannel.dailyUsage),
  pauseQueue: () => ipcRenderer.invoke(IpcChannel.pauseQueue),
  resumeQueue: () => ipcRenderer.invoke(IpcChannel.resumeQueue),
  listChanges: (state, filter) => ipcRenderer.invoke(IpcChannel.listChanges, state, { dot_number: filter?.dot_number }),
  acknowledgeChange: (id, by, note) => ipcRenderer.invoke(IpcChannel.acknowledgeChange, id, by, note ?? null),
  recentChanges: (state, limit) => ipcRenderer.invoke(IpcChannel.recentChanges, state, limit),
  listBlocks: (state, filter) => ipcRenderer.invoke(IpcChannel.listBlocks, state, { dot_number: filter?.dot_number }),
  // Copied field by field: only plain data crosses, never an object the page built with getters.
  blockCarrier: (input) =>
    ipcRenderer.invoke(IpcChannel.blockCarrier, {
      dot_number: input.dot_number,
      mc_number: input.mc_number,
      by: input.by,
      reason: input.reason,
    }),
  liftBlock: (carrier, by, note) => ipcRenderer.invoke(IpcChannel.liftBlock, carrier, by, note),
  listDecisions: (state, filter) => ipcRenderer.invoke(IpcChannel.listDecisions, state, { dot_number: filter?.dot_number }),
  revokeDecision: (id, by, note) => ipcRenderer.invoke(IpcChannel.revokeDecision, id, by, note),
  endedDecisions: (limit, startingAfter) => ipcRenderer.invoke(IpcChannel.endedDecisions, limit, startingAfter),
  liftedBlocks: (limit, startingAfter) => ipcRenderer.invoke(IpcChannel.liftedBlocks, limit, startingAfter),
  recheckCarrier: (input) => ipcRenderer.invoke(IpcChannel.recheckCarrier, { dot_number: input.dot_number, mc_number: input.mc_number }),
  auditExport: (from, to) => ipcRenderer.invoke(IpcChannel.auditExport, from, to),
  onAuditProgress: (cb) => subscribe<number>(IpcChannel.auditProgress, cb),
  connectionState: () => ipcRenderer.invoke(IpcChannel.connectionState),
  onEvent: (cb) => subscribe<IntakeEvent>(IpcChannel.event, cb),
  onConnectionChange: (cb) => subscribe<ConnectionState>(IpcChannel.connection, cb),
  onNavigate: (cb) => subscribe<string>(IpcChannel.navigate, cb),
  settingsGet: () => ipcRenderer.invoke(IpcChannel.settingsGet),
  settingsSave: (input) =>
    ipcRenderer.invoke(IpcChannel.settingsSave, { workerUrl: input.workerUrl, token: input.token, openAtLogin: input.openAtLogin }),
};

contextBridge.exposeInMainWorld('desk', desk);
