/** Types for build.mjs (used by the build test). */
export const FORBIDDEN_PACKAGES: string[];
export interface BundleMeta {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports?: Array<{ path: string; external?: boolean }> }>;
}
export function forbiddenInputs(metafile: BundleMeta, allowExternal?: (path: string) => boolean): string[];
export function buildTray(opts?: { outDir?: string; minify?: boolean }): Promise<{ outDir: string; files: string[] }>;
