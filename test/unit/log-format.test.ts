import { describe, expect, it } from 'vitest';
import { logFormat } from '../../worker/log.js';

describe('log format', () => {
  it('JSON when stderr is a pipe or file, one readable line per event on a terminal; LOG_FORMAT decides when set', () => {
    expect(logFormat(false, {})).toBe('json');
    expect(logFormat(true, {})).toBe('pretty');
    expect(logFormat(true, { LOG_FORMAT: 'json' })).toBe('json');
    expect(logFormat(false, { LOG_FORMAT: 'pretty' })).toBe('pretty');
    expect(logFormat(false, { LOG_FORMAT: 'yaml' })).toBe('json');
  });
});
