import type { Logger } from 'pino';
import { ConfigError, recordWhere, type Config } from '../shared/config.js';
import { ensureService } from './bootstrap.js';
import { createCallbacks } from './callbacks/index.js';
import { startIntake } from './intake/server.js';
import { ensureSecret, readSecret } from './intake/token-file.js';
import type { IntakeTls } from './intake/transport.js';
import { createScreener } from './screener.js';
import { authenticator } from './intake/auth.js';
import { metricsText } from './metrics/metrics.js';
import { startMetricsServer, type MetricsServer } from './metrics/metrics-server.js';
import { IntakeTokens, tokenPath } from './tokens/intake-tokens.js';
import { mayUse } from './tokens/roles.js';

/** The intake token a local client (status, tray) should use, or undefined. */
export function readIntakeToken(config: Config): string | undefined {
  return config.intakeToken ?? readSecret(config.dataDir, 'intake-token');
}

/**
 * `start` and `worker`: the screening core with a queue worker, the callback sender, and
 * (for `start`) the intake API. Returns a function that stops it all.
 */
export async function runStart(config: Config, log: Logger, o: { withIntake: boolean; tls?: IntakeTls }): Promise<() => Promise<void>> {
  const svc = await ensureService(config, log);
  const dataDir = config.dataDir;
  const callbackSecret = config.callbackSecret ?? ensureSecret(dataDir, 'callback-secret');
  const screener = await createScreener(config, {
    svc,
    logger: log,
    callbacks: (deps) => createCallbacks({ ...deps, secret: callbackSecret }),
  });
  log.info({ environment: screener.environment, db: recordWhere(config.db) }, 'screening worker running');

  // A `worker` has no intake to serve /metrics: SCREEN_METRICS_PORT gives it a port of its own.
  let metrics: MetricsServer | undefined;
  if (config.metricsPort !== undefined) {
    const tokens = new IntakeTokens(screener.store);
    const who = authenticator(readIntakeToken(config), tokens);
    try {
      metrics = await startMetricsServer({
        host: config.metricsHost,
        port: config.metricsPort,
        allowed: async (a) => {
          const caller = await who(a);
          return caller !== undefined && mayUse(caller.role, 'metrics');
        },
        // Free space where the intake's /metrics reads it (worker/intake/server.ts): no file of the record on PostgreSQL.
        text: () => metricsText(() => screener.status(), { dataDir: screener.dataDir, ages: () => screener.ages() }),
      });
    } catch (e) {
      // Taken or not ours to bind: a setting to fix (exit 2), said in one line.
      await screener.close();
      await svc.emulator?.close();
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new ConfigError(
        `cannot serve /metrics on ${config.metricsHost}:${config.metricsPort} (${code}): pick a free port`,
        'SCREEN_METRICS_PORT',
      );
    }
    log.info({ url: `${metrics.url}/metrics` }, 'metrics served on a port of their own (SCREEN_METRICS_PORT)');
  }

  let intake: Awaited<ReturnType<typeof startIntake>> | undefined;
  if (o.withIntake) {
    const token = config.intakeToken ?? ensureSecret(dataDir, 'intake-token');
    intake = await startIntake({
      screener,
      token,
      logger: log,
      host: config.intakeHost,
      port: config.intakePort,
      limits: config.intakeLimits,
      ...(o.tls ? { tls: o.tls } : {}),
    });
    const where = config.intakeToken
      ? 'from INTAKE_TOKEN (set it in your shell to paste the examples)'
      : `in ${tokenPath(config)} (mode 0600)`;
    // The token as the examples read it: the variable that gave it, or the file written for it (never the value).
    const bearer = config.intakeToken ? '$INTAKE_TOKEN' : `$(cat ${tokenPath(config)})`;
    process.stdout.write(
      [
        '',
        `carrier-screen is running (${screener.environment}${svc.emulator ? ', bundled emulator at ' + svc.emulator.baseUrl : ''})`,
        `  intake API:  ${intake.url}`,
        `  token:       ${where}`,
        `  dashboard:   ${intake.url}/ui/#token=<token>`,
        '',
        // Live: no carrier of the emulator's catalogue, and a new carrier costs a lookup of the month's quota.
        screener.environment === 'sandbox'
          ? '  Screen a carrier (the sandbox carrier 1000003 is held for review):'
          : "  Screen a carrier (live: a carrier not in the cache is one /v1 lookup of the month's quota):",
        `    curl -s -X POST "${intake.url}/screenings?wait=10" \\`,
        `      -H "Authorization: Bearer ${bearer}" \\`,
        `      -H "Content-Type: application/json" -d '{"dot_number":"${screener.environment === 'sandbox' ? '1000003' : '<DOT number>'}","tender_id":"T-1"}'`,
        `    curl -s "${intake.url}/reviews?state=pending" -H "Authorization: Bearer ${bearer}"`,
        '',
        '  Ctrl-C stops it.',
        '',
      ].join('\n'),
    );
  }
  return async () => {
    await metrics?.close();
    await intake?.close();
    await screener.close();
    await svc.emulator?.close();
  };
}
