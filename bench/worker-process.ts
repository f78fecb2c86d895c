/**
 * Child process: the worker as `carrier-screen start` runs it (screening core, queue worker,
 * callback sender, intake API), configured from the environment the bench passes in.
 * Its own process, so its CPU and peak RSS are its own.
 */
import { pino } from 'pino';
import { loadConfig } from '../shared/config.js';
import { createCallbacks } from '../worker/callbacks/index.js';
import { startIntake } from '../worker/intake/server.js';
import { createScreener } from '../worker/screener.js';
import { serveRpc } from './rpc.js';

const config = loadConfig(process.env);
const token = config.intakeToken;
const secret = config.callbackSecret;
if (!token || !secret) throw new Error('worker-process: INTAKE_TOKEN and CALLBACK_SECRET must be set');
// Logged as in production (info, JSON lines), into a file: the cost is real, the terminal stays clean.
const logger = pino(
  { level: process.env.LOG_LEVEL ?? 'info' },
  pino.destination({ dest: process.env.BENCH_LOG_FILE ?? '/dev/null', sync: false, mkdir: true }),
);

const started = (async () => {
  const screener = await createScreener(config, {
    logger,
    callbacks: (deps) => createCallbacks({ ...deps, secret }),
  });
  // The bench drives thousands of requests a minute through one token: it measures the worker,
  // not the per-token rate limit (INTAKE_RATE_LIMIT), which would answer most of them 429.
  const intake = await startIntake({
    screener,
    token,
    logger,
    host: '127.0.0.1',
    port: 0,
    limits: { ...config.intakeLimits, ratePerMinute: 0 },
  });
  return { screener, intake };
})();
// Reported through the "url" call; this only keeps Node from exiting on it first.
started.catch(() => {});

serveRpc({
  url: async () => (await started).intake.url,
  memory: () => process.memoryUsage(),
  close: async () => {
    const { screener, intake } = await started;
    await intake.close();
    await screener.close();
    logger.flush();
  },
});
