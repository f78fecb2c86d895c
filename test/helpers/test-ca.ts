import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A private test CA and a server certificate it signed (for localhost and 127.0.0.1), made with
 * the `openssl` command line in `dir`: what an operator's own CA gives them.
 */
export interface TestCerts {
  /** The CA's certificate (PEM): what a client must trust (NODE_EXTRA_CA_CERTS). */
  caPath: string;
  certPath: string;
  keyPath: string;
}

export function makeTestCerts(dir: string): TestCerts {
  const p = (name: string): string => join(dir, name);
  const ssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=carrier-screen test CA',
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.pem'),
  );
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', p('server.key'), '-out', p('server.csr'));
  writeFileSync(p('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  ssl(
    'x509',
    '-req',
    '-in',
    p('server.csr'),
    '-CA',
    p('ca.pem'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    p('server.ext'),
    '-out',
    p('server.pem'),
  );
  return { caPath: p('ca.pem'), certPath: p('server.pem'), keyPath: p('server.key') };
}
