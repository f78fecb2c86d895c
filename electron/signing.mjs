#!/usr/bin/env node
/**
 * Says, before `npm run dist` packs, whether the installers will be signed and notarized: the
 * signing material comes from the environment only (electron-builder.yml), and a build without it
 * is unsigned — Gatekeeper and SmartScreen warn on it. It never fails the build: unsigned builds
 * are fine for testing, and say so.
 */

/** Lines saying what this environment signs, for each system. */
export function signingReport(env) {
  const has = (k) => typeof env[k] === 'string' && env[k].trim() !== '';
  const missing = (keys) => keys.filter((k) => !has(k));
  const lines = [];
  const macSign = missing(['CSC_LINK', 'CSC_KEY_PASSWORD']);
  const notarize = missing(['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID']);
  lines.push(macSign.length === 0 ? 'macOS: signed with CSC_LINK' : `macOS: UNSIGNED (set ${macSign.join(', ')})`);
  lines.push(
    notarize.length === 0 ? 'macOS: notarized (APPLE_ID, team APPLE_TEAM_ID)' : `macOS: NOT notarized (set ${notarize.join(', ')})`,
  );
  const win = has('WIN_CSC_LINK') ? missing(['WIN_CSC_KEY_PASSWORD']) : missing(['CSC_LINK', 'CSC_KEY_PASSWORD']);
  lines.push(
    win.length === 0
      ? `Windows: signed with ${has('WIN_CSC_LINK') ? 'WIN_CSC_LINK' : 'CSC_LINK'}`
      : `Windows: UNSIGNED (set WIN_CSC_LINK and WIN_CSC_KEY_PASSWORD)`,
  );
  lines.push('Linux: .deb and .rpm are not signed by electron-builder (sign the repository instead)');
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of signingReport(process.env)) console.log(`signing: ${line}`);
}
