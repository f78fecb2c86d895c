/**
 * The Node versions carrier-screen runs on, checked before anything else loads.
 *
 * The store's SQLite driver (worker/store/, version 13) is built for Node-API 10, which Node has
 * from 22.14: on an older Node it crashes the process (a segmentation fault, no message) instead
 * of throwing. So the command line imports this module first, for its side effect, and a
 * too-old runtime gets one line that says what to install.
 */

/** The oldest Node that runs carrier-screen, and the one to install (the active LTS). */
export const MIN_NODE = '22.14.0';
export const TARGET_NODE_MAJOR = 24;

function parts(v: string): number[] {
  return v
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
}

/** Undefined when `version` (e.g. process.versions.node) is supported, else the one line to print. */
export function runtimeProblem(version: string): string | undefined {
  const have = parts(version);
  const min = parts(MIN_NODE);
  for (let i = 0; i < 3; i++) {
    if (have[i]! > min[i]!) return undefined;
    if (have[i]! < min[i]!) {
      return `Node ${version} is too old: carrier-screen needs Node ${MIN_NODE} or later; install Node ${TARGET_NODE_MAJOR} LTS (or run: source scripts/node24.sh)`;
    }
  }
  return undefined;
}

const problem = runtimeProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`carrier-screen: ${problem}\n`);
  process.exit(2);
}
