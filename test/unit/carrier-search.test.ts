import { describe, expect, it } from 'vitest';
import { authorityRecordUrl, externalLinkAllowed, saferSnapshotUrl } from '../../electron/shared/fmcsa-links.js';
import { parseCarrierQuery } from '../../electron/renderer/views/carrier.js';

/** The carrier page's search box and its links out (issue 30). */
describe('carrier search', () => {
  it('reads DOT and MC numbers however they are typed, and anything else as a load id or a name', () => {
    expect(parseCarrierQuery(' 1000002 ')).toEqual({ kind: 'dot', dot: '1000002' });
    expect(parseCarrierQuery('DOT 0123')).toEqual({ kind: 'dot', dot: '123' });
    expect(parseCarrierQuery('USDOT#1000002')).toEqual({ kind: 'dot', dot: '1000002' });
    expect(parseCarrierQuery('mc-1000002')).toEqual({ kind: 'mc', mc: 'MC1000002' });
    expect(parseCarrierQuery('MC 42')).toEqual({ kind: 'mc', mc: 'MC42' });
    expect(parseCarrierQuery('LOAD-77')).toEqual({ kind: 'text', text: 'LOAD-77' });
    expect(parseCarrierQuery('123456789')).toEqual({ kind: 'text', text: '123456789' }); // 9 digits: not a DOT
    expect(parseCarrierQuery('Blue Ridge')).toEqual({ kind: 'text', text: 'Blue Ridge' });
    expect(parseCarrierQuery('   ')).toBeNull();
  });
});

describe('FMCSA links', () => {
  it('builds SAFER and L&I links by DOT, and only those may leave the app', () => {
    const safer = saferSnapshotUrl('1000002');
    const li = authorityRecordUrl('1000002');
    expect(safer).toBe(
      'https://safer.fmcsa.dot.gov/query.asp?searchtype=ANY&query_type=queryCarrierSnapshot&query_param=USDOT&query_string=1000002',
    );
    expect(li).toBe('https://li-public.fmcsa.dot.gov/LIVIEW/pkg_carrquery.prc_carrlist?n_dotno=1000002');
    expect(externalLinkAllowed(safer)).toBe(true);
    expect(externalLinkAllowed(li)).toBe(true);
    for (const bad of [
      'http://safer.fmcsa.dot.gov/query.asp',
      'https://safer.fmcsa.dot.gov.evil.example/query.asp',
      'https://safer.fmcsa.dot.gov/other',
      'https://u:p@safer.fmcsa.dot.gov/query.asp',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
    ])
      expect(externalLinkAllowed(bad), bad).toBe(false);
    expect(() => saferSnapshotUrl('12a')).toThrow(/1 to 8 digits/);
  });
});
