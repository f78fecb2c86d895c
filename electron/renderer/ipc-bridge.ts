import type { IntakeEvent } from '../../shared/screening.js';
import { IntakeError, type ConnectionState, type DeskBridge } from '../shared/bridge.js';
import type { DeskIpcApi, IpcResult } from '../shared/ipc-channels.js';

/** DeskBridge over the preload's `window.desk` (Electron): unwraps results into values or IntakeErrors. */
export class IpcBridge implements DeskBridge {
  private state: ConnectionState = 'connecting';
  private readonly stateListeners = new Set<(s: ConnectionState) => void>();

  constructor(private readonly api: DeskIpcApi) {
    api.onConnectionChange((s) => this.setState(s));
    void api.connectionState().then((s) => this.setState(s));
  }

  getStatus = () => unwrap(this.api.getStatus());
  whoAmI = () => unwrap(this.api.whoAmI());
  listReviews = (state: Parameters<DeskBridge['listReviews']>[0]) => unwrap(this.api.listReviews(state));
  recentDecisions = (limit: number) => unwrap(this.api.recentDecisions(limit));
  resolveReview = (...a: Parameters<DeskBridge['resolveReview']>) => unwrap(this.api.resolveReview(...a));
  listScreenings = (limit: number) => unwrap(this.api.listScreenings(limit));
  getScreening = (id: string) => unwrap(this.api.getScreening(id));
  searchScreenings = (...a: Parameters<DeskBridge['searchScreenings']>) => unwrap(this.api.searchScreenings(...a));
  getReview = (id: string) => unwrap(this.api.getReview(id));
  dailyUsage = () => unwrap(this.api.dailyUsage());
  pauseQueue = () => unwrap(this.api.pauseQueue());
  resumeQueue = () => unwrap(this.api.resumeQueue());
  listChanges = (...a: Parameters<DeskBridge['listChanges']>) => unwrap(this.api.listChanges(...a));
  acknowledgeChange = (id: string, by: string | null, note?: string | null) => unwrap(this.api.acknowledgeChange(id, by, note));
  recentChanges = (...a: Parameters<DeskBridge['recentChanges']>) => unwrap(this.api.recentChanges(...a));
  listBlocks = (...a: Parameters<DeskBridge['listBlocks']>) => unwrap(this.api.listBlocks(...a));
  blockCarrier = (input: Parameters<DeskBridge['blockCarrier']>[0]) => unwrap(this.api.blockCarrier(input));
  liftBlock = (carrier: string, by: string, note?: string) => unwrap(this.api.liftBlock(carrier, by, note));
  listDecisions = (...a: Parameters<DeskBridge['listDecisions']>) => unwrap(this.api.listDecisions(...a));
  revokeDecision = (id: string, by: string | null, note: string) => unwrap(this.api.revokeDecision(id, by, note));
  endedDecisions = (limit: number, startingAfter?: string) => unwrap(this.api.endedDecisions(limit, startingAfter));
  liftedBlocks = (limit: number, startingAfter?: string) => unwrap(this.api.liftedBlocks(limit, startingAfter));
  recheckCarrier = (input: Parameters<DeskBridge['recheckCarrier']>[0]) => unwrap(this.api.recheckCarrier(input));
  /** Main shows the save dialog and streams the CSV into the file; progress comes back as bytes. */
  async saveAuditCsv(from: string, to: string, onProgress: (bytes: number) => void) {
    const off = this.api.onAuditProgress(onProgress);
    try {
      return await unwrap(this.api.auditExport(from, to));
    } finally {
      off();
    }
  }

  onEvent(cb: (event: IntakeEvent) => void): () => void {
    return this.api.onEvent(cb);
  }

  connectionState(): ConnectionState {
    return this.state;
  }

  onConnectionChange(cb: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(cb);
    return () => void this.stateListeners.delete(cb);
  }

  settings = {
    get: () => unwrap(this.api.settingsGet()),
    save: (input: Parameters<DeskIpcApi['settingsSave']>[0]) => unwrap(this.api.settingsSave(input)),
  };

  /** The tray asks to show a view. */
  onNavigate(cb: (view: string) => void): () => void {
    return this.api.onNavigate(cb);
  }

  private setState(s: ConnectionState): void {
    if (s === this.state) return;
    this.state = s;
    for (const cb of [...this.stateListeners]) cb(s);
  }
}

async function unwrap<T>(p: Promise<IpcResult<T>>): Promise<T> {
  const r = await p;
  if (r.ok) return r.value;
  throw new IntakeError(r.error.message, r.error.status, r.error.code, r.error.param, r.error.review);
}
