/**
 * The six fixed sandbox carriers. Hand-written, not produced by the live model, so they never
 * change when the model does. 1000003 and 1000005 are exactly the spec's table.
 */
import { checkById } from './check-catalog.js';
import type { CarrierProfile } from './score-object.js';

type Reason = CarrierProfile['reasons'][number];

function reason(checkId: string, detail: string, facts: [string, string][]): Reason {
  const c = checkById(checkId);
  return { check: c.name, area: c.area, severity: c.severity, detail, facts: facts.map(([label, value]) => ({ label, value })) };
}

function checks(triggered: number, notChecked: number): CarrierProfile['checks'] {
  return { total: 53, triggered, passed: 53 - triggered - notChecked, not_checked: notChecked };
}

export const SANDBOX_CARRIERS: readonly CarrierProfile[] = [
  {
    // approved, needs no review; has a DBA name
    carrier: { dot_number: '1000001', mc_number: 'MC1000001', legal_name: 'Blue Ridge Freight Lines LLC', dba_name: 'Blue Ridge Express' },
    score: 94,
    grade: 'A',
    decision: 'approved',
    verdict: 'Approved: 1 minor finding(s).',
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [
      reason('mcs150_outdated', 'The registration (MCS-150) was last updated 26 months ago.', [['Months since last MCS-150 update', '26']]),
    ],
    checks: checks(1, 0),
    flags: [],
    data_confidence: 1,
  },
  {
    // high_risk; new carrier holding dual authority
    carrier: { dot_number: '1000002', mc_number: 'MC1000002', legal_name: 'Redline Carriers Inc', dba_name: null },
    score: 47,
    grade: 'F',
    decision: 'high_risk',
    verdict: 'High risk: 5 finding(s); do not book.',
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [
      reason('authority_age', 'Operating authority was granted 7 months ago, less than the 18 months the model requires.', [
        ['Months since authority granted', '7'],
        ['Minimum', '18'],
      ]),
      reason('unsafe_driving_basic', 'The Unsafe Driving percentile is 82, above the intervention threshold of 65.', [
        ['Percentile', '82'],
        ['Threshold', '65'],
      ]),
      reason('crash_rate', 'The carrier had 1.64 crashes per million miles, above the national average of 0.72.', [
        ['Crashes per million miles', '1.64'],
        ['National average', '0.72'],
      ]),
      reason('driver_oos_rate', 'The driver out-of-service rate is above the national average.', [
        ['Driver OOS rate', '14.9%'],
        ['National average', '6.7%'],
        ['Driver inspections (24 months)', '23'],
      ]),
      reason('dual_authority', 'The carrier holds both common and contract authority.', [
        ['Common authority', 'Active'],
        ['Contract authority', 'Active'],
      ]),
    ],
    checks: checks(5, 2),
    flags: ['dual_authority', 'new_authority'],
    data_confidence: 0.96,
  },
  {
    // spec: review, 66, D, needs_manual_review, one medium Safety & Roadside reason
    carrier: { dot_number: '1000003', mc_number: 'MC1000003', legal_name: 'Great Plains Haulage Co', dba_name: null },
    score: 66,
    grade: 'D',
    decision: 'review',
    verdict: "Review: 1 finding(s) need a person's decision.",
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [
      reason('vehicle_oos_rate', 'The vehicle out-of-service rate is above the national average.', [
        ['Vehicle OOS rate', '31.2%'],
        ['National average', '22.3%'],
        ['Vehicle inspections (24 months)', '48'],
      ]),
    ],
    checks: checks(1, 0),
    flags: [],
    data_confidence: 1,
  },
  {
    // review; intrastate carrier without an MC number; thin data
    carrier: { dot_number: '1000004', mc_number: null, legal_name: 'Lone Star Intrastate Trucking LLC', dba_name: null },
    score: 74,
    grade: 'C',
    decision: 'review',
    verdict: "Review: 2 finding(s) need a person's decision.",
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [
      reason('address_change', 'The physical address changed 12 days ago.', [['Days since address change', '12']]),
      reason('no_recent_inspections', 'No roadside inspections were recorded in the past 24 months, so safety data is thin.', [
        ['Inspections (24 months)', '0'],
      ]),
    ],
    checks: checks(2, 9),
    flags: [],
    data_confidence: 0.83,
  },
  {
    // spec: rejected, 18, F, knockouts AUTHORITY_INACTIVE and NO_BIPD; checks 53/2/45/6
    carrier: { dot_number: '1000005', mc_number: 'MC1000005', legal_name: 'Midnight Express Transport LLC', dba_name: null },
    score: 18,
    grade: 'F',
    decision: 'rejected',
    verdict: 'Rejected: a knockout check fired; do not book.',
    needs_manual_review: false,
    knockout: {
      triggered: true,
      reasons: [
        { code: 'AUTHORITY_INACTIVE', message: 'Operating authority is not active.' },
        { code: 'NO_BIPD', message: 'No bodily injury and property damage (BIPD) insurance is on file.' },
      ],
    },
    reasons: [
      reason('authority_active', 'Operating authority is inactive; the carrier may not haul regulated freight.', [
        ['Authority status', 'Inactive'],
        ['Days in this status', '143'],
      ]),
      reason('bipd_on_file', 'No bodily injury and property damage insurance is on file.', [
        ['BIPD on file', 'No'],
        ['Required minimum', '$750,000'],
      ]),
    ],
    checks: checks(2, 6),
    flags: [],
    data_confidence: 0.89,
  },
  {
    // approved but needs a person's look (a review-severity finding); has a DBA name
    carrier: { dot_number: '1000006', mc_number: 'MC1000006', legal_name: 'Harbor Point Logistics Inc', dba_name: 'HPL Freight' },
    score: 85,
    grade: 'B',
    decision: 'approved',
    verdict: 'Approved, but 1 finding(s) should be looked at before booking.',
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [
      reason('phone_shared', 'The registered phone number is also used by 3 other carriers.', [['Carriers sharing the phone number', '3']]),
    ],
    checks: checks(1, 0),
    flags: [],
    data_confidence: 1,
  },
];

/** DOT number that simulates a scoring outage in the sandbox. */
export const SANDBOX_OUTAGE_DOT = '1000503';
/** DOT number the spec documents as not found in the sandbox (any other unknown number is too). */
export const SANDBOX_NOT_FOUND_DOT = '4242';

const byDot = new Map(SANDBOX_CARRIERS.map((c) => [c.carrier.dot_number, c]));
const byMc = new Map(SANDBOX_CARRIERS.filter((c) => c.carrier.mc_number).map((c) => [c.carrier.mc_number as string, c]));

export function sandboxByDot(dot: string): CarrierProfile | undefined {
  return byDot.get(dot);
}

export function sandboxByMc(mc: string): CarrierProfile | undefined {
  return byMc.get(mc);
}
