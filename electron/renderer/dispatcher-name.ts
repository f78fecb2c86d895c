/**
 * The dispatcher's name, remembered on this machine and shared by every view that records
 * who did something (review decisions, change acknowledgements).
 */

export const DISPATCHER_NAME_KEY = 'carrier-screen.dispatcher';

export function loadDispatcherName(): string {
  try {
    return localStorage.getItem(DISPATCHER_NAME_KEY) ?? '';
  } catch {
    return ''; // storage refused (private mode, policy): the name is simply asked again
  }
}

export function saveDispatcherName(name: string): void {
  const n = name.trim();
  if (n === '') return;
  try {
    localStorage.setItem(DISPATCHER_NAME_KEY, n);
  } catch {
    /* not remembered; the decision itself is still recorded */
  }
}
