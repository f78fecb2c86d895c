import type { DeskBridge } from '../shared/bridge.js';
import { HttpBridge } from '../shared/http-bridge.js';
import type { DeskIpcApi } from '../shared/ipc-channels.js';
import { IpcBridge } from './ipc-bridge.js';

/**
 * Which bridge the dashboard talks through: `window.desk` inside Electron; otherwise the
 * intake that served this page (same origin), with the token from `#token=…` (then taken
 * out of the address bar and kept for this tab only) or from the token form.
 */

const TOKEN_KEY = 'carrier-screen.intake-token';

export type BridgeChoice = { kind: 'electron'; bridge: IpcBridge } | { kind: 'http'; bridge: HttpBridge } | { kind: 'needs-token' };

declare global {
  interface Window {
    desk?: DeskIpcApi;
  }
}

/** Take `token` out of a `#token=…` hash; returns the token and the hash to keep. */
export function takeTokenFromHash(hash: string): { token: string | null; rest: string } {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!body.startsWith('token=')) return { token: null, rest: hash };
  const params = new URLSearchParams(body);
  const token = params.get('token');
  params.delete('token');
  const rest = params.toString();
  return { token: token && token.trim() !== '' ? token.trim() : null, rest: rest ? `#${rest}` : '' };
}

export function pickBridge(): BridgeChoice {
  if (window.desk && window.desk.kind === 'electron') return { kind: 'electron', bridge: new IpcBridge(window.desk) };
  const { token: fromHash, rest } = takeTokenFromHash(location.hash);
  if (fromHash !== null) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    // Out of the address bar, the history and any screenshot.
    history.replaceState(null, '', location.pathname + location.search + rest);
  }
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return { kind: 'needs-token' };
  return { kind: 'http', bridge: new HttpBridge({ baseUrl: location.origin, token }) };
}

export function rememberToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

export type { DeskBridge };
