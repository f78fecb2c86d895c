import { repositoryOf } from './repo.js';

/** One operator setting as kept: its value and when it last changed. */
export interface OperatorSetting {
  value: string;
  updated_at: string;
}

/** The operator_state table (worker/recovery/operator-state.ts says what is kept there). */
export interface OperatorStateRepo {
  get(key: string): OperatorSetting | undefined;
  /** Set `key`; updated_at moves only when the value changes. */
  put(key: string, value: string, at: string): void;
}

export const operatorStateOf = repositoryOf<OperatorStateRepo>((db) => {
  const get = db.prepare<[string], OperatorSetting>('SELECT value, updated_at FROM operator_state WHERE key = ?');
  const put = db.prepare<[string, string, string]>(`
    INSERT INTO operator_state (key, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value,
      updated_at = CASE WHEN operator_state.value = excluded.value THEN operator_state.updated_at ELSE excluded.updated_at END`);
  return {
    get: (key) => get.get(key),
    put: (key, value, at) => void put.run(key, value, at),
  };
});
