import type {
  Caller,
  CarrierChange,
  DailyUsage,
  Decision,
  IntakeEvent,
  LocalBlock,
  Review,
  ReviewState,
  Screening,
  StatusReport,
} from '../../shared/screening.js';
import type {
  AuditSaved,
  BlockInput,
  BlockListState,
  CarrierFilter,
  ChangeState,
  ConnectionState,
  DecisionListState,
  DeskSettingsInput,
  DeskSettingsView,
  HistoryPage,
  RecheckInput,
  ReviewDecision,
  ReviewVerdict,
  ScreeningSearch,
} from './bridge.js';

/** IPC channel names shared by the preload and the main; one place so they cannot drift. */
export const IpcChannel = {
  getStatus: 'desk:get-status',
  whoAmI: 'desk:who-am-i',
  listReviews: 'desk:list-reviews',
  recentDecisions: 'desk:recent-decisions',
  recentChanges: 'desk:recent-changes',
  resolveReview: 'desk:resolve-review',
  listScreenings: 'desk:list-screenings',
  getScreening: 'desk:get-screening',
  searchScreenings: 'desk:search-screenings',
  getReview: 'desk:get-review',
  dailyUsage: 'desk:daily-usage',
  pauseQueue: 'desk:pause-queue',
  resumeQueue: 'desk:resume-queue',
  listChanges: 'desk:list-changes',
  acknowledgeChange: 'desk:acknowledge-change',
  listBlocks: 'desk:list-blocks',
  blockCarrier: 'desk:block-carrier',
  liftBlock: 'desk:lift-block',
  listDecisions: 'desk:list-decisions',
  endedDecisions: 'desk:ended-decisions',
  liftedBlocks: 'desk:lifted-blocks',
  revokeDecision: 'desk:revoke-decision',
  recheckCarrier: 'desk:recheck-carrier',
  /** Save the audit CSV of [from, to) to a file the user picks (main's dialog), streamed; null when cancelled. */
  auditExport: 'desk:audit-export',
  connectionState: 'desk:connection-state',
  settingsGet: 'desk:settings-get',
  settingsSave: 'desk:settings-save',
  /** main → renderer pushes */
  event: 'desk:event',
  connection: 'desk:connection',
  navigate: 'desk:navigate',
  /** Bytes written so far by a running audit export. */
  auditProgress: 'desk:audit-progress',
} as const;

/** What an invoke answers: errors travel as data, since IPC flattens thrown errors to a message. */
export type IpcResult<T> =
  { ok: true; value: T } | { ok: false; error: { message: string; status: number; code: string; param?: string; review?: Review } };

/** What the preload exposes as `window.desk`: results as data; the renderer wraps it into a DeskBridge. */
export interface DeskIpcApi {
  readonly kind: 'electron';
  getStatus(): Promise<IpcResult<StatusReport>>;
  whoAmI(): Promise<IpcResult<Caller>>;
  listReviews(state: ReviewState): Promise<IpcResult<Review[]>>;
  recentDecisions(limit: number): Promise<IpcResult<Review[]>>;
  resolveReview(id: string, verdict: ReviewVerdict, decision: ReviewDecision): Promise<IpcResult<Review>>;
  listScreenings(limit: number): Promise<IpcResult<Screening[]>>;
  getScreening(id: string): Promise<IpcResult<Screening>>;
  searchScreenings(filter: ScreeningSearch, limit: number): Promise<IpcResult<Screening[]>>;
  getReview(id: string): Promise<IpcResult<Review>>;
  dailyUsage(): Promise<IpcResult<DailyUsage>>;
  pauseQueue(): Promise<IpcResult<StatusReport>>;
  resumeQueue(): Promise<IpcResult<StatusReport>>;
  listChanges(state: ChangeState | 'all', filter?: CarrierFilter): Promise<IpcResult<CarrierChange[]>>;
  recentChanges(state: ChangeState, limit: number): Promise<IpcResult<CarrierChange[]>>;
  acknowledgeChange(id: string, by: string | null, note?: string | null): Promise<IpcResult<CarrierChange>>;
  listBlocks(state: BlockListState, filter?: CarrierFilter): Promise<IpcResult<LocalBlock[]>>;
  blockCarrier(input: BlockInput): Promise<IpcResult<LocalBlock>>;
  liftBlock(carrier: string, by: string, note?: string): Promise<IpcResult<LocalBlock>>;
  listDecisions(state: DecisionListState, filter?: CarrierFilter): Promise<IpcResult<Decision[]>>;
  revokeDecision(id: string, by: string | null, note: string): Promise<IpcResult<Decision>>;
  endedDecisions(limit: number, startingAfter?: string): Promise<IpcResult<HistoryPage<Decision>>>;
  liftedBlocks(limit: number, startingAfter?: string): Promise<IpcResult<HistoryPage<LocalBlock>>>;
  recheckCarrier(input: RecheckInput): Promise<IpcResult<Screening>>;
  /** The audit CSV streamed into a file the user picks: no time limit, not held in memory. null: cancelled. */
  auditExport(from: string, to: string): Promise<IpcResult<AuditSaved | null>>;
  /** Progress of a running auditExport, in bytes written. */
  onAuditProgress(cb: (bytes: number) => void): () => void;
  connectionState(): Promise<ConnectionState>;
  onEvent(cb: (event: IntakeEvent) => void): () => void;
  onConnectionChange(cb: (state: ConnectionState) => void): () => void;
  /** The tray asks the window to show a view (desk, queue, quota, changes, settings). */
  onNavigate(cb: (view: string) => void): () => void;
  settingsGet(): Promise<IpcResult<DeskSettingsView>>;
  settingsSave(input: DeskSettingsInput): Promise<IpcResult<DeskSettingsView>>;
}
