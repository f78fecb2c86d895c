/**
 * The 53 checks of the emulator's scoring model, in seven areas. The live dataset triggers
 * them at random (per carrier, deterministically); the sandbox fixtures name some by id.
 */
import type { Rng } from './prng.js';
import type { SvcFact } from '../shared/svc-contract.js';

export const AREAS = [
  'Authority & Compliance',
  'Insurance & Financial',
  'Safety & Roadside',
  'Crash History',
  'Inspection & Maintenance',
  'Registration & Identity',
  'Operations & Fleet',
] as const;
export type Area = (typeof AREAS)[number];

export type CheckSeverity = 'critical' | 'review' | 'medium' | 'low';

export interface Finding {
  detail: string;
  facts: SvcFact[];
}

export interface CheckDef {
  id: string;
  /** reasons[].check */
  name: string;
  area: Area;
  severity: CheckSeverity;
  /** Set on the four knockout checks: firing one makes the decision `rejected`. */
  knockout?: { code: string; message: string };
  /** What was found, with figures drawn from the carrier's own generator. */
  finding(r: Rng): Finding;
}

const fact = (label: string, value: string | number): SvcFact => ({ label, value: String(value) });
const pct = (r: Rng, lo: number, hi: number): string => `${(lo + r.next() * (hi - lo)).toFixed(1)}%`;
const money = (n: number): string => `$${n.toLocaleString('en-US')}`;

/** A BASIC (safety measurement category) above its intervention threshold. */
function basic(id: string, label: string, threshold: number, severity: CheckSeverity): CheckDef {
  return {
    id,
    name: `${label} BASIC above threshold`,
    area: 'Safety & Roadside',
    severity,
    finding: (r) => {
      const p = r.int(threshold + 1, 99);
      return {
        detail: `The ${label} percentile is ${p}, above the intervention threshold of ${threshold}.`,
        facts: [fact('Percentile', p), fact('Threshold', threshold)],
      };
    },
  };
}

/** Simple "n events in a period" check. */
function countCheck(
  id: string,
  name: string,
  area: Area,
  severity: CheckSeverity,
  label: string,
  lo: number,
  hi: number,
  sentence: (n: number) => string,
): CheckDef {
  return {
    id,
    name,
    area,
    severity,
    finding: (r) => {
      const n = r.int(lo, hi);
      return { detail: sentence(n), facts: [fact(label, n)] };
    },
  };
}

export const CHECKS: readonly CheckDef[] = [
  // Authority & Compliance (8)
  {
    id: 'authority_active',
    name: 'Operating authority active',
    area: 'Authority & Compliance',
    severity: 'critical',
    knockout: { code: 'AUTHORITY_INACTIVE', message: 'Operating authority is not active.' },
    finding: (r) => {
      const status = r.pick(['Inactive', 'Revoked', 'Not authorized']);
      const days = r.int(20, 700);
      return {
        detail: `Operating authority is ${status.toLowerCase()}; the carrier may not haul regulated freight.`,
        facts: [fact('Authority status', status), fact('Days in this status', days)],
      };
    },
  },
  {
    id: 'authority_age',
    name: 'Authority age under 18 months',
    area: 'Authority & Compliance',
    severity: 'review',
    finding: (r) => {
      const months = r.int(1, 17);
      return {
        detail: `Operating authority was granted ${months} months ago, less than the 18 months the model requires.`,
        facts: [fact('Months since authority granted', months), fact('Minimum', 18)],
      };
    },
  },
  {
    id: 'dual_authority',
    name: 'Dual common and contract authority',
    area: 'Authority & Compliance',
    severity: 'low',
    finding: () => ({
      detail: 'The carrier holds both common and contract authority.',
      facts: [fact('Common authority', 'Active'), fact('Contract authority', 'Active')],
    }),
  },
  countCheck(
    'authority_revocations',
    'Authority revocation history',
    'Authority & Compliance',
    'review',
    'Revocations in 36 months',
    1,
    3,
    (n) => `Operating authority was revoked ${n} time(s) in the past 36 months.`,
  ),
  {
    id: 'pending_application',
    name: 'Pending authority application',
    area: 'Authority & Compliance',
    severity: 'low',
    finding: (r) => {
      const days = r.int(5, 90);
      return {
        detail: `An application for additional authority has been pending for ${days} days.`,
        facts: [fact('Days pending', days)],
      };
    },
  },
  {
    id: 'safety_rating_unsatisfactory',
    name: 'Unsatisfactory safety rating',
    area: 'Authority & Compliance',
    severity: 'critical',
    knockout: { code: 'UNSATISFACTORY_RATING', message: 'The carrier has an Unsatisfactory safety rating.' },
    finding: (r) => {
      const months = r.int(1, 30);
      return {
        detail: `The most recent compliance review rated the carrier Unsatisfactory, ${months} months ago.`,
        facts: [fact('Safety rating', 'Unsatisfactory'), fact('Months since rating', months)],
      };
    },
  },
  {
    id: 'safety_rating_conditional',
    name: 'Conditional safety rating',
    area: 'Authority & Compliance',
    severity: 'review',
    finding: (r) => {
      const months = r.int(1, 48);
      return {
        detail: `The most recent compliance review rated the carrier Conditional, ${months} months ago.`,
        facts: [fact('Safety rating', 'Conditional'), fact('Months since rating', months)],
      };
    },
  },
  {
    id: 'out_of_service_order',
    name: 'Active out-of-service order',
    area: 'Authority & Compliance',
    severity: 'critical',
    knockout: { code: 'OUT_OF_SERVICE_ORDER', message: 'An out-of-service order is in effect.' },
    finding: (r) => {
      const kind = r.pick(['Imminent hazard', 'Failure to pay civil penalty', 'Unsatisfactory rating']);
      return {
        detail: `An out-of-service order (${kind.toLowerCase()}) is in effect.`,
        facts: [fact('Order type', kind), fact('Days in effect', r.int(1, 400))],
      };
    },
  },

  // Insurance & Financial (7)
  {
    id: 'bipd_on_file',
    name: 'BIPD insurance on file',
    area: 'Insurance & Financial',
    severity: 'critical',
    knockout: { code: 'NO_BIPD', message: 'No bodily injury and property damage (BIPD) insurance is on file.' },
    finding: () => ({
      detail: 'No bodily injury and property damage insurance is on file.',
      facts: [fact('BIPD on file', 'No'), fact('Required minimum', money(750_000))],
    }),
  },
  {
    id: 'bipd_below_required',
    name: 'BIPD coverage below required minimum',
    area: 'Insurance & Financial',
    severity: 'critical',
    finding: (r) => {
      const cover = r.pick([300_000, 500_000, 600_000]);
      return {
        detail: `BIPD coverage on file is ${money(cover)}, below the required ${money(750_000)}.`,
        facts: [fact('Coverage on file', money(cover)), fact('Required minimum', money(750_000))],
      };
    },
  },
  {
    id: 'cargo_insurance',
    name: 'Cargo insurance on file',
    area: 'Insurance & Financial',
    severity: 'medium',
    finding: () => ({
      detail: 'No cargo insurance filing was found.',
      facts: [fact('Cargo coverage', 'None on file')],
    }),
  },
  countCheck(
    'insurance_cancellation_pending',
    'Insurance cancellation pending',
    'Insurance & Financial',
    'review',
    'Days until cancellation',
    3,
    30,
    (n) => `The insurer has filed a cancellation that takes effect in ${n} days.`,
  ),
  countCheck(
    'insurer_changes',
    'Frequent insurer changes',
    'Insurance & Financial',
    'medium',
    'Insurers in 24 months',
    3,
    6,
    (n) => `The carrier has had ${n} different insurers in the past 24 months.`,
  ),
  countCheck(
    'filing_lapse_history',
    'Insurance filing lapse history',
    'Insurance & Financial',
    'medium',
    'Lapses in 36 months',
    1,
    4,
    (n) => `Insurance filings lapsed ${n} time(s) in the past 36 months.`,
  ),
  countCheck(
    'recent_insurance_lapse',
    'Recent insurance lapse',
    'Insurance & Financial',
    'review',
    'Days without coverage',
    1,
    45,
    (n) => `Coverage lapsed for ${n} days within the past 12 months.`,
  ),

  // Safety & Roadside (10)
  basic('unsafe_driving_basic', 'Unsafe Driving', 65, 'review'),
  basic('hos_basic', 'Hours-of-Service Compliance', 65, 'medium'),
  basic('driver_fitness_basic', 'Driver Fitness', 80, 'medium'),
  basic('drugs_alcohol_basic', 'Controlled Substances/Alcohol', 80, 'review'),
  basic('vehicle_maintenance_basic', 'Vehicle Maintenance', 80, 'medium'),
  basic('hazmat_basic', 'Hazardous Materials Compliance', 80, 'medium'),
  {
    id: 'vehicle_oos_rate',
    name: 'Vehicle out-of-service rate',
    area: 'Safety & Roadside',
    severity: 'medium',
    finding: (r) => ({
      detail: 'The vehicle out-of-service rate is above the national average.',
      facts: [
        fact('Vehicle OOS rate', pct(r, 23, 60)),
        fact('National average', '22.3%'),
        fact('Vehicle inspections (24 months)', r.int(5, 300)),
      ],
    }),
  },
  {
    id: 'driver_oos_rate',
    name: 'Driver out-of-service rate',
    area: 'Safety & Roadside',
    severity: 'medium',
    finding: (r) => ({
      detail: 'The driver out-of-service rate is above the national average.',
      facts: [
        fact('Driver OOS rate', pct(r, 7, 30)),
        fact('National average', '6.7%'),
        fact('Driver inspections (24 months)', r.int(5, 300)),
      ],
    }),
  },
  countCheck(
    'serious_violations',
    'Serious violations in 12 months',
    'Safety & Roadside',
    'review',
    'Serious violations',
    1,
    6,
    (n) => `${n} serious violation(s) were recorded at roadside in the past 12 months.`,
  ),
  countCheck(
    'speeding_violations',
    'Speeding violations',
    'Safety & Roadside',
    'low',
    'Speeding violations (24 months)',
    2,
    15,
    (n) => `${n} speeding violations were recorded in the past 24 months.`,
  ),

  // Crash History (6)
  {
    id: 'crash_rate',
    name: 'Crash rate above national average',
    area: 'Crash History',
    severity: 'review',
    finding: (r) => {
      const rate = (0.8 + r.next() * 2).toFixed(2);
      return {
        detail: `The carrier had ${rate} crashes per million miles, above the national average of 0.72.`,
        facts: [fact('Crashes per million miles', rate), fact('National average', '0.72')],
      };
    },
  },
  countCheck(
    'fatal_crashes',
    'Fatal crashes in 24 months',
    'Crash History',
    'critical',
    'Fatal crashes',
    1,
    2,
    (n) => `${n} crash(es) with a fatality in the past 24 months.`,
  ),
  countCheck(
    'injury_crashes',
    'Injury crashes in 24 months',
    'Crash History',
    'medium',
    'Injury crashes',
    1,
    5,
    (n) => `${n} crash(es) with injuries in the past 24 months.`,
  ),
  countCheck(
    'tow_away_crashes',
    'Tow-away crashes in 24 months',
    'Crash History',
    'low',
    'Tow-away crashes',
    1,
    6,
    (n) => `${n} crash(es) needing a tow-away in the past 24 months.`,
  ),
  countCheck(
    'crash_trend',
    'Crash trend rising',
    'Crash History',
    'low',
    'Crashes in the last 12 months',
    2,
    8,
    (n) => `Crashes rose to ${n} in the last 12 months from fewer the year before.`,
  ),
  countCheck(
    'hazmat_release',
    'Crash with hazardous materials release',
    'Crash History',
    'review',
    'Crashes with release',
    1,
    2,
    (n) => `${n} crash(es) released hazardous materials in the past 24 months.`,
  ),

  // Inspection & Maintenance (8)
  {
    id: 'no_recent_inspections',
    name: 'No inspections in 24 months',
    area: 'Inspection & Maintenance',
    severity: 'low',
    finding: () => ({
      detail: 'No roadside inspections were recorded in the past 24 months, so safety data is thin.',
      facts: [fact('Inspections (24 months)', 0)],
    }),
  },
  countCheck(
    'brake_violations',
    'Brake violations',
    'Inspection & Maintenance',
    'medium',
    'Brake violations (24 months)',
    2,
    20,
    (n) => `${n} brake violations were recorded in the past 24 months.`,
  ),
  countCheck(
    'tire_violations',
    'Tire violations',
    'Inspection & Maintenance',
    'low',
    'Tire violations (24 months)',
    2,
    15,
    (n) => `${n} tire violations were recorded in the past 24 months.`,
  ),
  countCheck(
    'lighting_violations',
    'Lighting violations',
    'Inspection & Maintenance',
    'low',
    'Lighting violations (24 months)',
    3,
    25,
    (n) => `${n} lighting violations were recorded in the past 24 months.`,
  ),
  countCheck(
    'oos_trend',
    'Out-of-service trend rising',
    'Inspection & Maintenance',
    'low',
    'Out-of-service orders (12 months)',
    2,
    9,
    (n) => `Out-of-service results rose to ${n} in the last 12 months.`,
  ),
  {
    id: 'level1_failure_rate',
    name: 'Level I inspection failure rate',
    area: 'Inspection & Maintenance',
    severity: 'medium',
    finding: (r) => ({
      detail: 'Full (Level I) inspections fail more often than the national average.',
      facts: [fact('Level I failure rate', pct(r, 30, 70)), fact('National average', '27.0%')],
    }),
  },
  countCheck(
    'repeat_violations',
    'Repeat violations of the same type',
    'Inspection & Maintenance',
    'medium',
    'Repeated violation types',
    2,
    5,
    (n) => `${n} violation types recur across inspections.`,
  ),
  countCheck(
    'periodic_inspection_overdue',
    'Periodic inspection overdue',
    'Inspection & Maintenance',
    'review',
    'Units overdue',
    1,
    4,
    (n) => `${n} power unit(s) have no periodic inspection in the past 12 months.`,
  ),

  // Registration & Identity (8)
  countCheck(
    'mcs150_outdated',
    'MCS-150 update overdue',
    'Registration & Identity',
    'low',
    'Months since last MCS-150 update',
    25,
    60,
    (n) => `The registration (MCS-150) was last updated ${n} months ago.`,
  ),
  countCheck(
    'address_change',
    'Recent change of physical address',
    'Registration & Identity',
    'review',
    'Days since address change',
    3,
    60,
    (n) => `The physical address changed ${n} days ago.`,
  ),
  countCheck(
    'phone_shared',
    'Phone number shared with other carriers',
    'Registration & Identity',
    'review',
    'Carriers sharing the phone number',
    2,
    9,
    (n) => `The registered phone number is also used by ${n} other carriers.`,
  ),
  countCheck(
    'address_shared',
    'Address shared with other carriers',
    'Registration & Identity',
    'medium',
    'Carriers sharing the address',
    2,
    14,
    (n) => `The registered address is also used by ${n} other carriers.`,
  ),
  {
    id: 'free_email_domain',
    name: 'Free e-mail domain on registration',
    area: 'Registration & Identity',
    severity: 'low',
    finding: (r) => ({
      detail: 'The registration lists an e-mail address at a free mail provider.',
      facts: [fact('E-mail domain', r.pick(['gmail.com', 'yahoo.com', 'outlook.com']))],
    }),
  },
  countCheck(
    'officer_change',
    'Recent change of company officer',
    'Registration & Identity',
    'medium',
    'Days since officer change',
    5,
    120,
    (n) => `A company officer changed ${n} days ago.`,
  ),
  countCheck(
    'name_change',
    'Recent legal name change',
    'Registration & Identity',
    'medium',
    'Days since name change',
    5,
    180,
    (n) => `The legal name changed ${n} days ago.`,
  ),
  {
    id: 'possible_reincarnation',
    name: 'Possible reincarnated carrier',
    area: 'Registration & Identity',
    severity: 'critical',
    finding: (r) => ({
      detail: 'Officers, address and phone match a carrier whose authority was revoked.',
      facts: [fact('Matching revoked DOT number', r.int(100000, 3999999)), fact('Matching fields', 3)],
    }),
  },

  // Operations & Fleet (6)
  {
    id: 'mileage_fleet_mismatch',
    name: 'Power units inconsistent with reported mileage',
    area: 'Operations & Fleet',
    severity: 'low',
    finding: (r) => {
      const units = r.int(2, 40);
      return {
        detail: `${units} power units reported, but the mileage reported would need far fewer.`,
        facts: [fact('Power units', units), fact('Miles per unit per year', r.int(1000, 9000).toLocaleString('en-US'))],
      };
    },
  },
  {
    id: 'single_power_unit',
    name: 'Single power unit',
    area: 'Operations & Fleet',
    severity: 'low',
    finding: () => ({ detail: 'The carrier operates one power unit.', facts: [fact('Power units', 1)] }),
  },
  {
    id: 'drivers_fewer_than_units',
    name: 'Fewer drivers than power units',
    area: 'Operations & Fleet',
    severity: 'low',
    finding: (r) => {
      const units = r.int(4, 30);
      return {
        detail: 'Fewer drivers are registered than power units.',
        facts: [fact('Power units', units), fact('Drivers', r.int(1, units - 1))],
      };
    },
  },
  {
    id: 'out_of_region',
    name: 'Operating outside registered region',
    area: 'Operations & Fleet',
    severity: 'low',
    finding: (r) => ({
      detail: 'Most recent inspections took place far from the registered operating region.',
      facts: [fact('Share of inspections out of region', pct(r, 40, 95))],
    }),
  },
  {
    id: 'cargo_class_mismatch',
    name: 'Cargo class not registered',
    area: 'Operations & Fleet',
    severity: 'medium',
    finding: (r) => ({
      detail: 'Inspections show a cargo class the registration does not list.',
      facts: [fact('Cargo class seen', r.pick(['Hazardous materials', 'Livestock', 'Household goods', 'Passengers']))],
    }),
  },
  {
    id: 'mileage_not_reported',
    name: 'Mileage not reported',
    area: 'Operations & Fleet',
    severity: 'low',
    finding: () => ({
      detail: 'No vehicle mileage was reported on the last registration update.',
      facts: [fact('Mileage reported', 'No')],
    }),
  },
];

export const TOTAL_CHECKS = 53;

const byId = new Map(CHECKS.map((c) => [c.id, c]));

export function checkById(id: string): CheckDef {
  const c = byId.get(id);
  if (!c) throw new Error(`unknown check id ${id}`);
  return c;
}
