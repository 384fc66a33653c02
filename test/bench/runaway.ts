/** A runaway SPARQL query and the time from its answer to the next 200 of /sparql (the sparql and shared benchmarks). */

/** A cube of every statement: runs until its deadline on any collection of the benchmarks. */
export const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';

export interface RunawayToAnswer {
  /** Status of the runaway query (504 when its deadline ended it). */
  runaway: number;
  /** From its answer to the first 200 of a probe, in ms. */
  ms: number;
  /** The probes' statuses, counted. */
  statuses: Record<string, number>;
}

let probes = 0;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends RUNAWAY to the service at `origin`, then a cheap query never asked before every 25 ms until one answers 200. */
export async function runawayToAnswer(origin: string): Promise<RunawayToAnswer> {
  const res = await fetch(`${origin}/sparql?query=${encodeURIComponent(RUNAWAY)}`);
  await res.arrayBuffer();
  const started = performance.now();
  const statuses: Record<string, number> = {};
  for (;;) {
    const probe = await fetch(`${origin}/sparql?query=${encodeURIComponent(`ASK { ?s ?p "probe ${++probes}" }`)}`);
    await probe.arrayBuffer();
    statuses[probe.status] = (statuses[probe.status] ?? 0) + 1;
    if (probe.status === 200) return { runaway: res.status, ms: performance.now() - started, statuses };
    await sleep(25);
  }
}
