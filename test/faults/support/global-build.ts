import { ensureBuilt } from '../../helpers/processes.js';

/** The fault suite runs the built CLI: build dist/ once, before any test file starts. */
export async function setup(): Promise<void> {
  await ensureBuilt();
}
