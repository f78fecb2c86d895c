/**
 * The dashboard's Content-Security-Policy. The same text is in renderer/index.html's meta
 * tag (a unit test keeps them equal); main also sends it as a header.
 */
export const RENDERER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'";

/** Header-only additions (a meta tag cannot carry frame-ancestors). */
export const RENDERER_CSP_HEADER = `${RENDERER_CSP}; frame-ancestors 'none'`;
