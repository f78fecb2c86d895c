import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ConfigError, loadConfig, parseDuration, parseReserve, recordWhere, reserveCount } from '../../shared/config.js';
import { pgRemoteHost, pgTlsOn, pinnedPgTls, redactedUrl } from '../../shared/database-url.js';
import { InvalidIdentifierError, normalizeDot, normalizeMc, parseCarrierQuery, queryKey } from '../../shared/carrier-id.js';
import { readRoster } from '../../worker/roster.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.db).toEqual({ kind: 'sqlite', path: './data/carrier-screen.db' });
    expect(c.dataDir).toBe('./data');
    expect(c.cacheTtlMs).toBe(4 * 3_600_000);
    // "A few hours" (the /v1 document): at most 6h (DESIGN.md).
    expect(c.staleIfErrorMs).toBe(6 * 3_600_000);
    expect(c.rescreenWithinMs).toBe(2 * 3_600_000);
    expect(c.quotaReserve).toEqual({ kind: 'share', value: 0.05 });
    expect([c.intakeHost, c.intakePort]).toEqual(['127.0.0.1', 8787]);
    expect(c.svcApiKey).toBeUndefined();
  });

  it.each<[Record<string, string>, string]>([
    [{ SVC_API_KEY: 'sk_live_x', SVC_BASE_URL: 'http://x' }, 'SVC_API_KEY'],
    [{ SVC_BASE_URL: 'http://x' }, 'SVC_BASE_URL'],
    [{ SVC_API_KEY: 'svc_test_abc' }, 'SVC_API_KEY'],
    [{ SCREEN_CACHE_TTL: 'soon' }, 'SCREEN_CACHE_TTL'],
    [{ SCREEN_QUOTA_RESERVE: '120%' }, 'SCREEN_QUOTA_RESERVE'],
    [{ INTAKE_PORT: '99999' }, 'INTAKE_PORT'],
    [{ SVC_API_KEY: 'svc_test_abc', SVC_BASE_URL: 'ftp://x' }, 'SVC_BASE_URL'],
    [{ SCREEN_DB: 'postgres://cs:s3cret@db.example:notaport/screen' }, 'SCREEN_DB'],
    [{ SCREEN_DB: 'mysql://cs:s3cret@db.example/screen' }, 'SCREEN_DB'],
    [{ SCREEN_DB: '/var/lib/carrier-screen/' }, 'SCREEN_DB'],
    [{ SCREEN_DB: './data/..' }, 'SCREEN_DB'],
    [{ SCREEN_DB: 'host=db.example dbname=screen user=cs password=s3cret' }, 'SCREEN_DB'],
    [{ SCREEN_DATA_DIR: 'postgres://cs:s3cret@db.example/screen' }, 'SCREEN_DATA_DIR'],
    [{ SCREEN_DATA_DIR: 's3://cs:s3cret@bucket/data' }, 'SCREEN_DATA_DIR'],
    [{ REDIS_SENTINELS: '10.0.0.5:26379,10.0.0.6', REDIS_SENTINEL_NAME: 'cs' }, 'REDIS_SENTINELS'],
    [{ REDIS_SENTINELS: '10.0.0.5:99999', REDIS_SENTINEL_NAME: 'cs' }, 'REDIS_SENTINELS'],
    [{ REDIS_SENTINELS: '10.0.0.5:26379' }, 'REDIS_SENTINEL_NAME'],
    [{ REDIS_SENTINELS: '10.0.0.5:26379', REDIS_SENTINEL_NAME: 'cs main' }, 'REDIS_SENTINEL_NAME'],
    [{ REDIS_SENTINEL_NAME: 'cs' }, 'REDIS_SENTINEL_NAME'],
  ])('%o is refused naming %s, without echoing a key', (env, variable) => {
    let err: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(variable);
    if (env.SVC_API_KEY) expect((err as Error).message).not.toContain(env.SVC_API_KEY);
    // A database URL may carry a password.
    expect((err as Error).message).not.toContain('s3cret');
  });

  it('REDIS_SENTINELS: host:port pairs (IPv6 in brackets) and the group; never a private redis-server then', () => {
    expect(loadConfig({ REDIS_SENTINELS: ' 10.0.0.5:26379, [fd00::7]:26380 ', REDIS_SENTINEL_NAME: 'carrier-screen' })).toMatchObject({
      redisSentinel: {
        sentinels: [
          { host: '10.0.0.5', port: 26379 },
          { host: 'fd00::7', port: 26380 },
        ],
        name: 'carrier-screen',
      },
      redisUrlGiven: true,
    });
    expect(loadConfig({}).redisSentinel).toBeUndefined();
  });

  describe("where the record is (SCREEN_DB) and the worker's own files (SCREEN_DATA_DIR)", () => {
    it('a SQLite path: the data dir is its directory unless SCREEN_DATA_DIR names another', () => {
      expect(loadConfig({ SCREEN_DB: '/var/lib/cs/screen.db' })).toMatchObject({
        db: { kind: 'sqlite', path: '/var/lib/cs/screen.db' },
        dataDir: '/var/lib/cs',
      });
      expect(loadConfig({ SCREEN_DB: 'screen.db' }).dataDir).toBe('.');
      expect(loadConfig({ SCREEN_DB: '/var/lib/cs/screen.db', SCREEN_DATA_DIR: ' /srv/cs-files ' })).toMatchObject({
        db: { kind: 'sqlite', path: '/var/lib/cs/screen.db' },
        dataDir: '/srv/cs-files',
      });
      // Blank is unset, as for every variable.
      expect(loadConfig({ SCREEN_DB: '/var/lib/cs/screen.db', SCREEN_DATA_DIR: '  ' }).dataDir).toBe('/var/lib/cs');
    });

    it.each([
      'postgres://cs:s3cret@db.example:5432/screen',
      'postgresql://cs:s3cret@db.example/screen?sslmode=require',
      'POSTGRES:///screen',
    ])('a PostgreSQL URL (%s) is taken; the data dir is ./data unless SCREEN_DATA_DIR names one', (url) => {
      expect(loadConfig({ SCREEN_DB: url })).toMatchObject({ db: { kind: 'postgres', url }, dataDir: './data' });
      expect(loadConfig({ SCREEN_DB: url, SCREEN_DATA_DIR: '/var/lib/cs' }).dataDir).toBe('/var/lib/cs');
    });

    it.each([
      ['sslmode=prefer', /^SCREEN_DB: sslmode=prefer goes on without TLS when the server offers none; give sslmode=verify-full/],
      ['sslmode=allow', /^SCREEN_DB: sslmode=allow goes on without TLS/],
      ['sslmode=verify', /^SCREEN_DB: sslmode=verify is not one of libpq's/],
      ['sslmode=verify-full&sslrootcert=', /^SCREEN_DB: sslrootcert= names no file$/],
      ['sslmode=disable&sslrootcert=/etc/ca.pem', /^SCREEN_DB: sslmode=disable with sslrootcert: ask for TLS/],
      // pg reads the last of a repeated parameter: verify-full then require&uselibpqcompat would check nothing.
      ['sslmode=verify-full&sslmode=require', /^SCREEN_DB: sslmode= is given more than once$/],
      ['sslrootcert=/a.pem&sslrootcert=/b.pem', /^SCREEN_DB: sslrootcert= is given more than once$/],
      ['ssl=no-verify', /^SCREEN_DB: ssl= is not taken/],
      ['sslmode=require&uselibpqcompat=true', /^SCREEN_DB: uselibpqcompat= is not taken/],
    ])('SCREEN_DB with %s is refused, naming SCREEN_DB, the URL not shown', (query, message) => {
      const db = `postgres://cs:s3cret@db.example/screen?${query}`;
      const err = (() => {
        try {
          loadConfig({ SCREEN_DB: db });
        } catch (e) {
          return e as ConfigError;
        }
        throw new Error('taken');
      })();
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.variable).toBe('SCREEN_DB');
      expect(err.message).toMatch(message);
      expect(err.message).not.toContain('s3cret');
    });

    it('TLS to PostgreSQL: on when asked or a TLS file is named; require and verify-ca pinned to verify-full; a remote host named', () => {
      const u = 'postgres://cs@db.example/screen';
      expect([u, `${u}?sslmode=disable`, `${u}?application_name=x`].map(pgTlsOn)).toEqual([false, false, false]);
      expect([`${u}?sslmode=require`, `${u}?sslmode=verify-full`, `${u}?sslrootcert=/etc/ca.pem`].map(pgTlsOn)).toEqual([true, true, true]);
      expect(pinnedPgTls(`${u}?sslmode=require&sslrootcert=/etc/ca.pem`)).toBe(`${u}?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem`);
      expect(pinnedPgTls(`${u}?sslmode=verify-ca`)).toBe(`${u}?sslmode=verify-full`);
      for (const same of [u, `${u}?sslmode=verify-full&sslrootcert=/etc/ca.pem`, `${u}?sslmode=disable`])
        expect(pinnedPgTls(same)).toBe(same);
      expect(pgRemoteHost(u)).toBe('db.example');
      expect(pgRemoteHost('postgres://cs@10.20.0.5:5432/screen')).toBe('10.20.0.5');
      // Not percent-encoding: the name as written, not an exception.
      expect(pgRemoteHost('postgres://cs@ho%zzst/screen')).toBe('ho%zzst');
      for (const local of [
        'postgres://cs@127.0.0.1/screen',
        'postgres://cs@localhost/screen',
        'postgres://cs@[::1]:5432/screen',
        'postgres:///screen',
        'postgres:///screen?host=/var/run/postgresql',
      ])
        expect(pgRemoteHost(local), local).toBeUndefined();
    });

    it('SCREEN_DB_POOL_MAX: the connections per process to a PostgreSQL record, from 4; unset, the default', () => {
      const url = 'postgres://cs@db.example/screen';
      expect(loadConfig({ SCREEN_DB: url, SCREEN_DB_POOL_MAX: ' 12 ' }).db).toEqual({ kind: 'postgres', url, poolMax: 12 });
      expect(loadConfig({ SCREEN_DB: url }).db).toEqual({ kind: 'postgres', url });
      expect(() => loadConfig({ SCREEN_DB: url, SCREEN_DB_POOL_MAX: '3' })).toThrow(/^SCREEN_DB_POOL_MAX: /);
      expect(() => loadConfig({ SCREEN_DB: 'x.db', SCREEN_DB_POOL_MAX: '10' })).toThrow(
        /^SCREEN_DB_POOL_MAX: is set but SCREEN_DB is a SQLite file/,
      );
    });

    it('a PostgreSQL URL is shown without its password, in the user part or a parameter', () => {
      const shown = recordWhere(loadConfig({ SCREEN_DB: 'postgres://cs:s3cret@db.example/screen?password=s3cret&sslmode=require' }).db);
      expect(shown).toBe('postgres://cs:***@db.example/screen?password=***&sslmode=require');
      expect(recordWhere(loadConfig({ SCREEN_DB: 'postgres://db.example/screen' }).db)).toBe('postgres://db.example/screen');
      expect(recordWhere(loadConfig({ SCREEN_DB: './data/x.db' }).db)).toBe('./data/x.db');
      // The store's errors use the same rule.
      expect(redactedUrl('postgres://cs:s3cret@db.example/screen')).toBe('postgres://cs:***@db.example/screen');
      expect(redactedUrl('postgres://cs:s3cret@db.example:port/screen')).not.toContain('s3cret');
    });
  });

  it('durations and reserves', () => {
    expect(parseDuration('90s', 'X')).toBe(90_000);
    expect(parseDuration('1.5h', 'X')).toBe(5_400_000);
    expect(parseDuration('250ms', 'X')).toBe(250);
    expect(parseReserve('500', 'X')).toEqual({ kind: 'count', value: 500 });
    expect(reserveCount({ kind: 'share', value: 0.05 }, 1_000)).toBe(50);
    expect(loadConfig({ SVC_API_KEY: 'svc_test_a', SVC_BASE_URL: 'https://h.example/v1/' }).svcBaseUrl).toBe('https://h.example');
  });
});

describe('carrier identifiers', () => {
  it('MC spellings normalise to MC + digits', () => {
    for (const v of ['mc123', 'MC-123', 'MC 123', ' Mc123 ']) expect(normalizeMc(v)).toBe('MC123');
  });

  it('a DOT is 1–8 digits, as a string or a JSON integer, 0 excepted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
        expect(normalizeDot(n)).toBe(String(n));
      }),
    );
    for (const bad of ['', '0', '00000000', 0, '123456789', '12a', '-1', 1.5, -3, true, null, {}])
      expect(() => normalizeDot(bad)).toThrow(InvalidIdentifierError);
  });

  it('one normal form per number: leading zeros dropped, in the query and its key alike', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999 }), fc.integer({ min: 0, max: 7 }), (n, zeros) => {
        const padded = '0'.repeat(zeros) + String(n);
        if (padded.length > 8) return; // beyond the intake's 8 digits
        expect(normalizeDot(padded)).toBe(String(n));
        expect(queryKey(parseCarrierQuery({ dot_number: padded }))).toBe(`dot:${n}`);
        expect(normalizeMc(`mc-${padded}`)).toBe(`MC${n}`);
      }),
    );
    expect(normalizeDot('07000014')).toBe('7000014');
    expect(() => normalizeMc('MC000')).toThrow(/MC0/);
  });

  it('exactly one identifier', () => {
    expect(() => parseCarrierQuery({})).toThrow(/one of dot_number or mc_number/);
    expect(() => parseCarrierQuery({ dot_number: '1', mc_number: 'MC1' })).toThrow(/not both/);
    expect(parseCarrierQuery({ mc_number: 'mc-77' })).toEqual({ mc_number: 'MC77' });
  });
});

describe('roster CSV', () => {
  it('reads a header with dot_number/mc_number, or one number a line, and reports bad lines', () => {
    const r = readRoster('name,dot_number,mc_number\nA,1000001,\nB,,mc-55\nC,x1,\n');
    expect(r.queries).toEqual([{ dot_number: '1000001' }, { mc_number: 'MC55' }]);
    expect(r.errors).toEqual(['line 4: dot_number must be 1 to 8 digits']);
    expect(readRoster('# roster\n1000003\nMC1000005\n').queries).toEqual([{ dot_number: '1000003' }, { mc_number: 'MC1000005' }]);
  });

  it('reads rosters as spreadsheets and FMCSA exports write them: quotes, commas in names, BOM, CRLF, upper-case headers, blank lines', () => {
    const text =
      '\uFEFFLEGAL_NAME,DOT_NUMBER,MC_NUMBER\r\n"Smith, Inc.",1234567,\r\n\r\n"Say ""Hi"" Freight",,MC-00055\r\n"Bad, Co.",12x,\r\n';
    const r = readRoster(text);
    expect(r.queries).toEqual([{ dot_number: '1234567' }, { mc_number: 'MC55' }]);
    expect(r.errors).toEqual(['line 5: dot_number must be 1 to 8 digits']);
    // Line numbers count blank and comment lines, so the file can be opened at the line named.
    expect(readRoster('# list\n\n1000003\n\nabc\n').errors).toEqual(['line 5: dot_number must be 1 to 8 digits']);
    expect(readRoster('dot number\n00100003\n').queries).toEqual([{ dot_number: '100003' }]);
  });

  it('a roster with a broken quote is refused whole, naming where', () => {
    const r = readRoster('name,dot_number\n"Open quote,1000003\nB,1000004\n');
    expect(r.queries).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/not a readable CSV file/);
  });
});

describe('pooled random bytes for ids', () => {
  it('never hands out the same bytes twice, across refills, and ids stay unique', async () => {
    const { randomBytesPooled } = await import('../../shared/random-pool.js');
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(randomBytesPooled(16).toString('hex')); // ~8 refills of the 4 KiB pool
    expect(seen.size).toBe(2000);
    const kept = randomBytesPooled(16);
    const copy = Buffer.from(kept);
    for (let i = 0; i < 300; i++) randomBytesPooled(16); // refill under it
    expect(kept.equals(copy)).toBe(true);
    expect(() => randomBytesPooled(5000)).toThrow(RangeError);
  });
});

describe('record ids', () => {
  it('are the documented shape, sort by creation time as text, and differ within one millisecond', async () => {
    const { orderedId, newScreeningId } = await import('../../worker/store/ids.js');
    expect(newScreeningId()).toMatch(/^scr_[a-z2-7]{26}$/);
    const times = [0, 1, 31, 32, 1_700_000_000_000, 1_700_000_000_001, 1_764_000_000_000, 2 ** 50 - 1];
    const ids = times.map((t) => orderedId(t));
    for (const id of ids) expect(id).toMatch(/^[a-z2-7]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => orderedId(1_764_000_000_000)));
    expect(same.size).toBe(1000);
  });
});
