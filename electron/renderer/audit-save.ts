import type { AuditSaved, DeskBridge } from '../shared/bridge.js';

/**
 * Saves the audit CSV of [from, to) with no overall time limit (a year is hundreds of MB and takes
 * minutes): in Electron, main streams it into the file the user picks; in a browser, the page
 * takes it chunk by chunk and hands it to the browser's download as one Blob of those chunks
 * (the browser may keep a large Blob on disk), never as one string.
 */
export async function saveAuditCsv(
  bridge: DeskBridge,
  range: { from: string; to: string; fileName: string },
  onProgress: (bytes: number) => void,
): Promise<AuditSaved | null> {
  if (bridge.saveAuditCsv) return bridge.saveAuditCsv(range.from, range.to, onProgress);
  if (!bridge.streamAuditCsv) throw new Error('this dashboard cannot export the audit record');
  const chunks: BlobPart[] = [];
  const bytes = await bridge.streamAuditCsv(range.from, range.to, (chunk) => void chunks.push(chunk as Uint8Array<ArrayBuffer>), {
    onProgress,
  });
  const href = URL.createObjectURL(new Blob(chunks, { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = href;
  a.download = range.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return { file: range.fileName, bytes };
}
