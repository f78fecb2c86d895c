/** Display formats for the dashboard. Times are shown in the dispatcher's local time, UTC on hover. */

const counts = new Intl.NumberFormat('en-US');

export function fmtCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : counts.format(n);
}

/** "3 min ago", "2 h 5 min ago", "4 d ago"; "in 2 h" for the future. */
export function fmtAge(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const diff = now.getTime() - t;
  const future = diff < 0;
  const s = Math.abs(diff) / 1000;
  let text: string;
  if (s < 10) return 'just now';
  if (s < 60) text = `${Math.floor(s)} s`;
  else if (s < 3600) text = `${Math.floor(s / 60)} min`;
  else if (s < 86_400) {
    const hours = Math.floor(s / 3600);
    const min = Math.floor((s % 3600) / 60);
    text = min > 0 && hours < 10 ? `${hours} h ${min} min` : `${hours} h`;
  } else text = `${Math.floor(s / 86_400)} d`;
  return future ? `in ${text}` : `${text} ago`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The local zone's short name at `d` ("CST", "UTC", "GMT+2"): every time shown says its zone. */
export function zoneName(d: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'local time';
}

/** "2025-03-14 09:05 CST" in local time, with its zone. */
export function fmtLocal(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())} ${zoneName(d)}`;
}

/** "09:05 CST" (today's events), local, with its zone. */
export function fmtTime(d: Date): string {
  return `${pad(d.getHours())}:${pad(d.getMinutes())} ${zoneName(d)}`;
}

/** "Dec 1" in local time (a reset date). */
export function fmtLocalDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

/** "2025-03-14 09:05 UTC". */
export function fmtUtc(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

export function fmtPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  return `${Math.round(share * 100)}%`;
}

/** "Mar 24" from "2025-03-24". */
export function fmtDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${months[Number(m[2]) - 1] ?? m[2]} ${Number(m[3])}`;
}
