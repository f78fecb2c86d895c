/** Migration 27: a lift of a local block may say why (the desk's lift asks for a note; issue 30). */
export const LIFT_NOTE_MIGRATION_SQL = `
  ALTER TABLE local_blocks ADD COLUMN lift_note TEXT;
`;
