// Entry of every worker thread started by ts-worker.ts. On Node 20 a worker cannot run a .ts file directly
// (not even with --import tsx), so the thread registers tsx first and then imports the TypeScript module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
