/**
 * Migration 18 (with the outbox's part): `screenings.version`, an integer that grows with every
 * change of a screening as the API shows it (its own columns, or its review's), so a TMS can
 * apply an update only when it is newer (docs/callbacks.md "Ordering"). Triggers keep it, so no
 * write path can forget to. A review is opened in the transaction that writes its screening
 * held, so that write's own step covers it; deciding it is a step. Rows from before start where
 * their history would have brought them: created 1, active 2, done 3, review decided 5.
 */
export const SCREENING_VERSION_MIGRATION_SQL = `
  ALTER TABLE screenings ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  UPDATE screenings SET version = 1 + (status != 'queued') + (status = 'done')
    + COALESCE((SELECT 2 * (r.state != 'pending') FROM reviews r WHERE r.screening_id = screenings.id), 0);

  CREATE TRIGGER screenings_version AFTER UPDATE OF
      status, action, hold_reason, source, score, score_fetch_id, score_fetched_at, model_version, error, completed_at, settled_by, standing_decision
    ON screenings
    WHEN OLD.status IS NOT NEW.status OR OLD.action IS NOT NEW.action OR OLD.hold_reason IS NOT NEW.hold_reason
      OR OLD.source IS NOT NEW.source OR OLD.score IS NOT NEW.score OR OLD.score_fetch_id IS NOT NEW.score_fetch_id
      OR OLD.score_fetched_at IS NOT NEW.score_fetched_at OR OLD.model_version IS NOT NEW.model_version
      OR OLD.error IS NOT NEW.error OR OLD.completed_at IS NOT NEW.completed_at OR OLD.settled_by IS NOT NEW.settled_by
      OR OLD.standing_decision IS NOT NEW.standing_decision
  BEGIN
    UPDATE screenings SET version = version + 1 WHERE id = NEW.id;
  END;

  CREATE TRIGGER screenings_version_review_changed AFTER UPDATE OF state, decided_by, decided_at, note ON reviews
    WHEN OLD.state IS NOT NEW.state OR OLD.decided_by IS NOT NEW.decided_by OR OLD.decided_at IS NOT NEW.decided_at OR OLD.note IS NOT NEW.note
  BEGIN
    UPDATE screenings SET version = version + 1 WHERE id = NEW.screening_id;
  END;
`;
