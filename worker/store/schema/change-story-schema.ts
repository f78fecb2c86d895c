/**
 * Migration 29: a change keeps the findings its new score added and removed (found at detection,
 * from the old and new scores), and an acknowledgement may say why (issue 30). Rows from before
 * have neither: the API gives `findings: null` and `ack_note: null`.
 */
export const CHANGE_STORY_MIGRATION_SQL = `
  ALTER TABLE carrier_changes ADD COLUMN findings TEXT;
  ALTER TABLE carrier_changes ADD COLUMN ack_note TEXT;
`;
