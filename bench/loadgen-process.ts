/** Child process: the load generator, driven by the bench over IPC (see load-generator.ts). */
import { runLoad, type LoadJob } from './load-generator.js';
import { serveRpc } from './rpc.js';

serveRpc({
  run: (job: LoadJob) => runLoad(job),
});
