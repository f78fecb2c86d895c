/**
 * The emulator's scoring rules (documented in emulator/README.md): how triggered checks
 * become a score, and how a score becomes a grade, a decision and a review flag.
 */
import type { SvcReason } from '../shared/svc-contract.js';
import { TOTAL_CHECKS, type CheckSeverity } from './check-catalog.js';

/** Points a triggered check takes off 100. */
export const SEVERITY_POINTS: Record<CheckSeverity, number> = { critical: 25, review: 12, medium: 6, low: 2 };
/** Points each check that could not be run takes off. */
export const NOT_CHECKED_POINTS = 1;
/** A knockout caps the score here. */
export const KNOCKOUT_SCORE_CAP = 35;

const SEVERITY_RANK: Record<string, number> = { critical: 0, review: 1, medium: 2, low: 3 };

export type KnownDecision = 'approved' | 'review' | 'high_risk' | 'rejected';
export type KnownGrade = 'A' | 'B' | 'C' | 'D' | 'F';

export function modelScore(severities: readonly CheckSeverity[], notChecked: number, knockedOut: boolean): number {
  let score = 100 - severities.reduce((sum, s) => sum + SEVERITY_POINTS[s], 0) - notChecked * NOT_CHECKED_POINTS;
  if (knockedOut) score = Math.min(score, KNOCKOUT_SCORE_CAP);
  return Math.max(0, Math.min(100, score));
}

export function gradeFor(score: number): KnownGrade {
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  if (score >= 60) return 'D';
  return 'F';
}

export function decisionFor(score: number, knockedOut: boolean): KnownDecision {
  if (knockedOut) return 'rejected';
  if (score >= 80) return 'approved';
  if (score >= 60) return 'review';
  return 'high_risk';
}

/** `review` always; `approved` when a serious reason or thin data remains; blocked decisions never. */
export function needsManualReview(decision: KnownDecision, reasons: readonly SvcReason[], dataConfidence: number | null): boolean {
  if (decision === 'review') return true;
  if (decision !== 'approved') return false;
  return reasons.some((r) => r.severity === 'critical' || r.severity === 'review') || (dataConfidence !== null && dataConfidence < 0.8);
}

/** Share of the checks that could be run, two decimals. */
export function dataConfidenceFor(notChecked: number): number {
  return Math.round(((TOTAL_CHECKS - notChecked) / TOTAL_CHECKS) * 100) / 100;
}

/** Most serious first; a stable sort keeps catalogue order within a severity. */
export function sortReasons<T extends { severity: string }>(reasons: T[]): T[] {
  return [...reasons].sort((a, b) => (SEVERITY_RANK[a.severity] ?? 9) - (SEVERITY_RANK[b.severity] ?? 9));
}

export function verdictFor(decision: KnownDecision, triggered: number, needsReview: boolean): string {
  switch (decision) {
    case 'approved':
      return triggered === 0
        ? 'Approved: no problems found.'
        : needsReview
          ? `Approved, but ${triggered} finding(s) should be looked at before booking.`
          : `Approved: ${triggered} minor finding(s).`;
    case 'review':
      return `Review: ${triggered} finding(s) need a person's decision.`;
    case 'high_risk':
      return `High risk: ${triggered} finding(s); do not book.`;
    case 'rejected':
      return 'Rejected: a knockout check fired; do not book.';
  }
}
