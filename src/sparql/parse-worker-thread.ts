/**
 * The SPARQL parse worker thread: parses and checks client queries off the HTTP event loop, one at a time,
 * and answers each with the policy's prepared query (src/sparql/query-policy.ts) or the remote store's
 * rewrite for the public view (src/store/remote/graph-view.ts), or the refusal. Started by ParseWorker
 * through startTsWorker; ending this thread is how a query past the budget is stopped (sparqljs cannot be
 * interrupted).
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { BadRequestError, ForbiddenError } from '../http/errors.js';
import { prepareQuery } from './query-policy.js';
import { QueryError } from '../store/errors.js';
import { generationGraphs, rewriteForView } from '../store/remote/graph-view.js';
import type { FromParseWorker, ToParseWorker } from './parse-protocol.js';

/** The nice value of this thread: below the HTTP thread's, which it competes with for the cores. */
const NICE = 10;

// A flood of queries to parse must not slow /healthz and the REST API: at a lower priority the parse takes the
// cores only when the HTTP thread does not want them. On Linux the nice value is this thread's own; elsewhere
// it would be the whole process's, so it is left alone there.
if (process.platform === 'linux') {
  try {
    setPriority(0, NICE);
  } catch {
    // Not allowed here: the parse runs at the normal priority.
  }
}

const port = parentPort;
if (!port) throw new Error('parse-worker-thread.ts runs only as a worker thread');
const send = (message: FromParseWorker): void => port.postMessage(message);

/** The answer to one message; refusals are answers too. */
function answer(message: ToParseWorker): FromParseWorker {
  const { id } = message;
  try {
    if (message.type === 'prepare') return { type: 'prepared', id, prepared: prepareQuery(message.query, message.dataset, message.options) };
    // The view is rebuilt here from the generation, never received: the worker can only read public graphs.
    const view = { graphs: generationGraphs(message.generation), includeNonPublic: false };
    return { type: 'rewritten', id, query: rewriteForView(message.text, view, message.options) };
  } catch (err) {
    if (err instanceof BadRequestError || err instanceof ForbiddenError) return { type: 'refused', id, status: err.status as 400 | 403, message: err.message };
    if (err instanceof QueryError) return { type: 'refused', id, status: 400, message: err.message };
    return { type: 'failed', id, message: err instanceof Error ? err.message : String(err) };
  }
}

port.on('message', (message: ToParseWorker) => send(answer(message)));
send({ type: 'ready' });
