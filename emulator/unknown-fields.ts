/**
 * What a later /v1 release may send (spec, Versioning 3): new fields at every level and new
 * values of decision, severity, flags and knockout codes. Used by the unknownFields fault.
 */
import type { SvcScore } from '../shared/svc-contract.js';

export const UNKNOWN_VALUES = {
  decision: 'conditional_approval',
  severity: 'advisory',
  flag: 'hazmat_endorsement_pending',
  knockoutCode: 'ELD_MANDATE_NONCOMPLIANT',
} as const;

/** Changes `body` in place and returns it. */
export function addUnknownFields(body: SvcScore): SvcScore {
  body.risk_trend = { direction: 'worsening', window_days: 90 };
  body.score_components = [{ area: 'Safety & Roadside', points: -6 }];
  body.carrier.country = 'US';
  body.carrier.power_units = 12;
  body.knockout.evaluated_at = body.calculated_at;
  if (body.checks) {
    body.checks.advisory = 1;
    // The extra reason below is one more triggered check; keep the four counts summing up.
    if (body.checks.passed > 0) {
      body.checks.passed -= 1;
      body.checks.triggered += 1;
    }
  }
  body.reasons.push({
    check: 'ELD provider on approved list',
    area: 'Technology & Telematics',
    severity: UNKNOWN_VALUES.severity,
    detail: 'The electronic logging device provider was removed from the approved list.',
    facts: [{ label: 'ELD provider', value: 'Example ELD', source: 'registry' }],
    docs_url: 'https://example.invalid/checks/eld',
  });
  body.flags = [...(body.flags ?? []), UNKNOWN_VALUES.flag];
  if (body.knockout.triggered) {
    // A knocked-out carrier stays rejected; it gets an unknown knockout code instead.
    body.knockout.reasons.push({ code: UNKNOWN_VALUES.knockoutCode, message: 'The carrier does not meet the ELD mandate.' });
  } else {
    body.decision = UNKNOWN_VALUES.decision;
  }
  return body;
}

/**
 * Display fields that drift from the document's types while the decision stays right (the
 * driftShare fault): data_confidence a hair over 1, a fact's value as a number, calculated_at
 * in ISO 8601 basic format, flags null. Changes `body` in place and returns it.
 */
export function driftDisplayFields(body: SvcScore): SvcScore {
  const raw = body as unknown as Record<string, unknown>;
  raw.data_confidence = 1.0000001;
  raw.calculated_at = body.calculated_at.replace(/[-:]/g, '').replace(/\.\d+/, '');
  raw.flags = null;
  body.reasons.push({
    check: 'Fleet size',
    area: 'Operations & Fleet',
    severity: 'low',
    detail: 'Power units on the registration.',
    facts: [{ label: 'Power units', value: 12 as unknown as string }],
  });
  if (body.checks && body.checks.passed > 0) {
    body.checks.passed -= 1;
    body.checks.triggered += 1;
  }
  return body;
}
