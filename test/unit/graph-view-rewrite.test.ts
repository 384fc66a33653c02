/**
 * The remote store's query rewrite (src/store/remote/graph-view.ts) without a server (issue 24): a small
 * generation is held in an embedded Oxigraph store twice, as the service reads it (record graphs under their
 * own names) and as a server holds it after publication (every graph name prefixed with its generation, public
 * and non-public apart, the public statements also in the generation's union graph, another generation beside
 * it). Each query must answer the same on the first as its rewrite on the second: in the public view (the
 * SPARQL endpoint's, default graph the union of the public graphs) and in the full view (the REST store's).
 */
import oxigraph from 'oxigraph';
import { generationGraphs, GENERATIONS_GRAPH, rewriteForView, type GraphView } from '../../src/store/remote/graph-view.js';

const B = 'http://example.org';
const GEN = 'G1';
const OTHER = 'G0';
const ADMIN = `${B}/graph/admin`;
const rec = (pid: string): string => `${B}/v2/id/object/${pid}`;
const P = (name: string): string => `<${B}/p/${name}>`;

/** The generation as the service reads it: [graph, statements], public or not. */
const PUBLIC: [string, string[]][] = [
  [rec('1'), [`<${rec('1')}> ${P('title')} "Stoel"@nl .`, `<${rec('1')}> ${P('maker')} <${B}/v2/id/agent/A> .`, `<${rec('1')}> ${P('dim')} _:d1 .`, `_:d1 ${P('value')} "12"^^<http://www.w3.org/2001/XMLSchema#integer> .`]],
  [rec('2'), [`<${rec('2')}> ${P('title')} "Tafel"@nl .`, `<${rec('2')}> ${P('part')} <${rec('1')}> .`]],
  [`${B}/v2/id/agent/A`, [`<${B}/v2/id/agent/A> ${P('name')} "Ettore" .`]],
];
const NON_PUBLIC: [string, string[]][] = [
  [ADMIN, [`<${rec('3')}> <urn:x-museum-ld:admin#state> "private" .`]],
  [rec('3'), [`<${rec('3')}> ${P('title')} "Geheim"@nl .`, `<${rec('3')}> ${P('maker')} <${B}/v2/id/agent/A> .`]],
];

const quads = (graphs: [string, string[]][], name: (g: string) => string): string =>
  graphs.flatMap(([g, lines]) => lines.map((l) => `${l.slice(0, -2)} <${name(g)}> .`)).join('\n');

/** The generation as the service reads it, public graphs only or all. */
function serviceStore(includeNonPublic: boolean): oxigraph.Store {
  const store = new oxigraph.Store();
  store.load(quads(includeNonPublic ? [...PUBLIC, ...NON_PUBLIC] : PUBLIC, (g) => g), { format: 'application/n-quads' });
  return store;
}

/** The server after publishing generation GEN beside an older OTHER (whose data must never show). */
function serverStore(): oxigraph.Store {
  const store = new oxigraph.Store();
  for (const [id, title] of [[GEN, undefined], [OTHER, 'Oud']] as const) {
    const graphs = generationGraphs(id);
    const pub: [string, string[]][] = title === undefined ? PUBLIC : PUBLIC.map(([g, lines]) => [g, lines.map((l) => l.replace(/"(Stoel|Tafel)"/, `"${title}"`))]);
    store.load(quads(pub, (g) => `${graphs.publicPrefix}${g}`), { format: 'application/n-quads' });
    store.load(quads(NON_PUBLIC, (g) => `${graphs.nonPublicPrefix}${g}`), { format: 'application/n-quads' });
    store.load(quads(pub, () => graphs.unionGraph), { format: 'application/n-quads' });
    store.load(`<${graphs.marker}> <urn:x-museum-ld:state> "complete" <${GENERATIONS_GRAPH}> .`, { format: 'application/n-quads' });
  }
  return store;
}

type Answer = boolean | string[];

/** An answer in a form that two stores can be compared on: sorted rows (blank nodes by position), or the boolean. */
function answerOf(result: unknown, hidden: readonly string[] = []): Answer {
  if (typeof result === 'boolean') return result;
  const rows = result as (Map<string, oxigraph.Term> | oxigraph.Quad)[];
  return rows
    .map((row) => {
      if (row instanceof Map) {
        return [...row.entries()]
          .filter(([name]) => !hidden.includes(name))
          .map(([name, term]) => `${name}=${term.termType === 'BlankNode' ? '_' : term.toString()}`)
          .sort()
          .join(' ');
      }
      const q = row as oxigraph.Quad;
      const t = (term: oxigraph.Term): string => (term.termType === 'BlankNode' ? '_' : term.toString());
      return `${t(q.subject)} ${t(q.predicate)} ${t(q.object)}`;
    })
    .sort();
}

const server = serverStore();
const publicView: GraphView = { graphs: generationGraphs(GEN), includeNonPublic: false };
const fullView: GraphView = { graphs: generationGraphs(GEN), includeNonPublic: true, nonPublicGraphs: new Set(NON_PUBLIC.map(([g]) => g)) };

/** The query on the service's data beside its rewrite on the server's. */
function both(query: string, view: GraphView): { expected: Answer; actual: Answer } {
  const publicOnly = !view.includeNonPublic;
  const expected = answerOf(serviceStore(!publicOnly).query(query, { use_default_graph_as_union: publicOnly }));
  const rewritten = rewriteForView(query, view, { unionDefaultGraph: publicOnly });
  return { expected, actual: answerOf(server.query(rewritten.text), rewritten.hidden) };
}

const PUBLIC_QUERIES = [
  // The default graph is the union of the public graphs.
  'SELECT ?s ?o WHERE { ?s <http://example.org/p/title> ?o }',
  'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }',
  // Named graphs: only the public ones, under their own names.
  'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }',
  `SELECT ?p ?o WHERE { GRAPH <${rec('1')}> { ?s ?p ?o } }`,
  // A non-public graph named outright, or through VALUES, holds nothing.
  `SELECT ?s WHERE { GRAPH <${ADMIN}> { ?s ?p ?o } }`,
  `SELECT ?s WHERE { VALUES ?g { <${rec('3')}> <${rec('2')}> } GRAPH ?g { ?s ?p ?o } }`,
  `ASK { GRAPH <${rec('3')}> { ?s ?p ?o } }`,
  // Another generation's or the store's own graphs are not reachable by name.
  `ASK { GRAPH <${generationGraphs(OTHER).publicPrefix}${rec('1')}> { ?s ?p ?o } }`,
  `ASK { GRAPH <${GENERATIONS_GRAPH}> { ?s ?p ?o } }`,
  // EXISTS, NOT EXISTS, MINUS and EXISTS as a value.
  'SELECT ?s WHERE { ?s <http://example.org/p/title> ?t FILTER EXISTS { ?s <http://example.org/p/maker> ?m } }',
  'SELECT ?s WHERE { ?s <http://example.org/p/title> ?t FILTER NOT EXISTS { GRAPH ?g { ?x <http://example.org/p/part> ?s } } }',
  'SELECT ?s WHERE { ?s <http://example.org/p/title> ?t MINUS { ?s <http://example.org/p/part> ?x } }',
  'SELECT ?s ?has WHERE { ?s <http://example.org/p/title> ?t BIND(EXISTS { ?s <http://example.org/p/maker> ?m } AS ?has) }',
  // Blank nodes, OPTIONAL, a subquery with LIMIT, CONSTRUCT.
  'SELECT ?s ?v WHERE { ?s <http://example.org/p/title> ?t OPTIONAL { ?s <http://example.org/p/dim> ?d . ?d <http://example.org/p/value> ?v } }',
  'SELECT ?s WHERE { { SELECT ?s WHERE { ?s <http://example.org/p/title> ?t } ORDER BY ?s LIMIT 1 } }',
  `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${rec('1')}> { ?s ?p ?o } }`,
];

const FULL_QUERIES = [
  // The REST store's own forms: a record graph unless the admin graph names it; a page of graphs by VALUES.
  ...[rec('1'), rec('3')].map(
    (r) => `CONSTRUCT { ?s ?p ?o } WHERE { VALUES (?record ?admin) { (<${r}> <${ADMIN}>) } FILTER NOT EXISTS { GRAPH ?admin { ?record ?state ?value } } GRAPH ?record { ?s ?p ?o } }`,
  ),
  `SELECT ?record ?s ?p ?o WHERE { VALUES ?record { <${rec('1')}> <${rec('2')}> <${rec('3')}> } GRAPH ?record { ?s ?p ?o } }`,
  `SELECT ?r ?state WHERE { GRAPH <${ADMIN}> { ?r <urn:x-museum-ld:admin#state> ?state } }`,
  'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }',
  'SELECT ?g ?s WHERE { GRAPH ?g { ?s <http://example.org/p/maker> ?m } }',
];

describe('rewriteForView against the same query on the data as the service reads it', () => {
  it.each(PUBLIC_QUERIES)('public view: %s', (query) => {
    const { expected, actual } = both(query, publicView);
    expect(actual).toEqual(expected);
  });

  it.each(FULL_QUERIES)('full view: %s', (query) => {
    const { expected, actual } = both(query, fullView);
    expect(actual).toEqual(expected);
  });

  it('never answers from the other generation, whose titles differ', () => {
    const rewritten = rewriteForView('SELECT ?t WHERE { GRAPH ?g { ?s <http://example.org/p/title> ?t } }', publicView, { unionDefaultGraph: true });
    expect(answerOf(server.query(rewritten.text), rewritten.hidden)).toEqual(['t="Stoel"@nl', 't="Tafel"@nl']);
  });
});
