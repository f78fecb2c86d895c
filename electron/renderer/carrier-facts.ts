import type { Screening } from '../../shared/screening.js';

/** Who a screening is about, in the words a dispatcher uses. */
export interface CarrierNames {
  name: string;
  dba: string | null;
  dot: string | null;
  mc: string | null;
}

export function carrierNames(s: Screening): CarrierNames {
  const c = s.score?.carrier;
  const dot = c?.dot_number ?? ('dot_number' in s.query ? s.query.dot_number : null);
  const mc = c?.mc_number ?? ('mc_number' in s.query ? s.query.mc_number : null);
  const legal = c?.legal_name ?? null;
  return {
    name: legal ?? (dot ? `DOT ${dot}` : mc ? mc : 'Unknown carrier'),
    dba: c?.dba_name ?? null,
    dot,
    mc,
  };
}

export function idLine(s: Screening): string {
  const n = carrierNames(s);
  const parts = [n.dot ? `DOT ${n.dot}` : null, n.mc, s.tender_id ? `Tender ${s.tender_id}` : null];
  return parts.filter((p) => p !== null).join(' · ');
}
