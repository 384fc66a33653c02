/**
 * Where the remote store rewrites a query for its view (graph-view.ts): the SPARQL store's queries are the
 * clients', so their public-view rewrite (a sparqljs parse and regeneration) runs in the parse worker
 * (src/sparql/parse-worker.ts), off the event loop; the REST store's are the service's own bounded library
 * queries and stay in this thread. Either way the text must first keep the rewrite's bounds
 * (query-bounds.ts): defence in depth behind the endpoint's policy, which has checked client texts already.
 */
import { ParseBudgetError, ParseBusyError, ParseRefusedError } from '../../sparql/parse-errors.js';
import { sharedParseWorker, type ParseWorker } from '../../sparql/parse-worker.js';
import { QueryError, StoreUnavailableError } from '../errors.js';
import { generationGraphs, rewriteForView, type GenerationGraphs, type GraphView, type RewriteOptions, type ViewQuery } from './graph-view.js';

/** True when `view` is exactly the public view of generation `id`, the one the worker rebuilds from the id. */
function isPublicViewOf(view: GraphView, id: string | undefined): id is string {
  if (view.includeNonPublic || view.nonPublicGraphs !== undefined || id === undefined) return false;
  const expected = generationGraphs(id);
  const keys = Object.keys(expected) as (keyof GenerationGraphs)[];
  return keys.length === Object.keys(view.graphs).length && keys.every((key) => view.graphs[key] === expected[key]);
}

/**
 * `rewriteForView(text, view, options)`, in the parse worker when `view` is the public view of generation
 * `generation`; rejects with QueryError for what cannot run (and for a text past the bounds), and with
 * StoreUnavailableError when the worker's queue is full.
 */
export async function rewriteOffLoop(
  text: string,
  view: GraphView,
  generation: string | undefined,
  options: RewriteOptions,
  worker: ParseWorker = sharedParseWorker(),
): Promise<ViewQuery> {
  if (!isPublicViewOf(view, generation)) return rewriteForView(text, view, options);
  try {
    return await worker.rewrite(text, generation, options);
  } catch (err) {
    if (err instanceof ParseRefusedError) throw new QueryError(err.message);
    if (err instanceof ParseBudgetError) throw new QueryError(`the query is too complex to rewrite within ${err.budgetMs} ms`);
    if (err instanceof ParseBusyError) throw new StoreUnavailableError('too many queries are waiting to be rewritten', 1);
    throw err;
  }
}
