/**
 * Golden texts of the remote store's query rewrite (src/store/remote/graph-view.ts, issue 24): for each rule of
 * the rewrite (the rule table, the Virtuoso 7.2 workarounds, the refusals) a small query and the exact SPARQL
 * text, LIMIT, boolean and hidden variables it is rewritten to, or the exact message it is refused with. The
 * equivalence test beside it (graph-view-rewrite.test.ts) shows that rewrites answer as the service does; these
 * show which text that is, so that a change to the rewrite's modules that changes a text is seen.
 *
 * Generation G1 throughout: its public graphs are `urn:x-museum-ld:g:G1:p:<graph>`, its non-public ones
 * `urn:x-museum-ld:g:G1:n:<graph>`, its union graph `urn:x-museum-ld:union:G1`; the prefixes are 23 characters
 * long, so the graph IRI of the data model is the server graph's name from character 24 on.
 */
import { QueryError } from '../../src/store/errors.js';
import { generationGraphs, rewriteForView, type GraphView, type RewriteOptions, type ViewQuery } from '../../src/store/remote/graph-view.js';

const B = 'http://example.org';
const ADMIN = `${B}/graph/admin`;
const P = 'PREFIX ex: <http://example.org/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ';

/** The SPARQL endpoint's view: the public graphs, the default graph their union. */
const publicView: GraphView = { graphs: generationGraphs('G1'), includeNonPublic: false };
const SPARQL: RewriteOptions = { unionDefaultGraph: true };
/** The REST store's view: public and non-public graphs (the admin graph non-public), the default graph empty. */
const fullView: GraphView = { graphs: generationGraphs('G1'), includeNonPublic: true, nonPublicGraphs: new Set([ADMIN]) };
const REST: RewriteOptions = { unionDefaultGraph: false };

const rewrite = (query: string, view: GraphView = publicView, options: RewriteOptions = SPARQL): ViewQuery => rewriteForView(query, view, options);

/** A text as the generator writes it, one argument a line. */
const lines = (...text: string[]): string => text.join('\n');

/** The message of the QueryError that `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(QueryError);
    return (err as Error).message;
  }
  throw new Error('the query was not refused');
}

describe('the public view', () => {
  // Every way a query can name a graph, with the non-public admin graph and another generation's graph named.
  it.each([
    `SELECT * WHERE { GRAPH <${ADMIN}> { ?s ?p ?o } }`,
    `SELECT * WHERE { VALUES ?g { <${ADMIN}> } GRAPH ?g { ?s ?p ?o } }`,
    `SELECT * WHERE { BIND(<${ADMIN}> AS ?g) GRAPH ?g { ?s ?p ?o } }`,
    `SELECT * FROM <${ADMIN}> WHERE { ?s ?p ?o }`,
    `SELECT * FROM NAMED <${ADMIN}> WHERE { GRAPH ?g { ?s ?p ?o } }`,
    `SELECT * WHERE { GRAPH <urn:x-museum-ld:g:G0:p:${B}/r1> { ?s ?p ?o } }`,
  ])('never names a non-public graph, nor a graph outside the generation: %s', (query) => {
    const { text } = rewrite(query);
    expect(text).not.toContain('urn:x-museum-ld:g:G1:n:');
    expect(text).not.toContain('"urn:x-museum-ld:g:G1:"');
    // Another generation's name is only ever read as a graph IRI of the data model, inside G1's public prefix.
    expect(text.replaceAll(`urn:x-museum-ld:g:G1:p:urn:x-museum-ld:g:G0:`, '')).not.toContain('urn:x-museum-ld:g:G0:');
  });
});

describe('GRAPH <g> { P }: the prefixed graph of the view', () => {
  it('names the public graph of the generation in the public view', () => {
    expect(rewrite('SELECT ?s WHERE { GRAPH <http://example.org/r1> { ?s ?p ?o } }')).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE { { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s ?p ?o. } } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('names a non-public graph by its public name in the public view, so it reads nothing', () => {
    expect(rewrite(`SELECT ?s WHERE { GRAPH <${ADMIN}> { ?s ?p ?o } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE { { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/graph/admin> { ?s ?p ?o. } } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('names a non-public graph by its non-public name in the full view', () => {
    expect(rewrite(`SELECT ?s WHERE { GRAPH <${ADMIN}> { ?s ?p ?o } }`, fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE { { GRAPH <urn:x-museum-ld:g:G1:n:http://example.org/graph/admin> { ?s ?p ?o. } } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('names a public graph by its public name in the full view', () => {
    expect(rewrite(`SELECT ?s WHERE { GRAPH <http://example.org/r1> { ?s ?p ?o } }`, fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE { { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s ?p ?o. } } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('resolves a relative graph IRI against the base IRI before prefixing it', () => {
    expect(rewrite(`SELECT ?s WHERE { GRAPH <r1> { ?s ?p ?o } }`, publicView, { unionDefaultGraph: true, baseIri: 'http://example.org/' })).toEqual({
      text: lines(
        'BASE <http://example.org/>',
        'SELECT ?s WHERE { { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s ?p ?o. } } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

});

describe("GRAPH ?g { P }: the generation's graphs, ?g without the prefix", () => {
  it('reads a prefixed graph variable, scoped by STRSTARTS to the public prefix, and binds ?g to the name without it', () => {
    expect(rewrite('SELECT ?g ?s WHERE { GRAPH ?g { ?s ?p ?o } }')).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?g ?s WHERE {',
        '  {',
        '    GRAPH ?g_mld0 { ?s ?p ?o. }',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it("scopes the full view to the generation's prefix (public and non-public)", () => {
    expect(rewrite('SELECT ?g ?s WHERE { GRAPH ?g { ?s ?p ?o } }', fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?g ?s WHERE {',
        '  {',
        '    GRAPH ?g_mld0 { ?s ?p ?o. }',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:"))',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it('checks ?g with a FILTER when the pattern binds ?g itself', () => {
    expect(rewrite('SELECT ?g WHERE { GRAPH ?g { ?g ?p ?o } }')).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?g WHERE {',
        '  {',
        '    GRAPH ?g_mld0 { ?g ?p ?o. }',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '    FILTER(?g = (IRI(SUBSTR(STR(?g_mld0), 24 ))))',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it('gives one graph variable the same server-graph variable wherever it is read on its own', () => {
    expect(rewrite(`${P}SELECT ?g WHERE { { GRAPH ?g { ?s ex:p ?o } } UNION { GRAPH ?g { ?s ex:q ?o } } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?g WHERE {',
        '  {',
        '    GRAPH ?g_mld0 { ?s ex:p ?o. }',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '  UNION',
        '  {',
        '    GRAPH ?g_mld0 { ?s ex:q ?o. }',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it('gives a top-level VALUES of graph IRIs a column of their public names, and a filter listing them, in the public view', () => {
    expect(rewrite(`SELECT ?s WHERE { VALUES ?g { <${B}/r1> <${ADMIN}> } GRAPH ?g { ?s ?p ?o } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE {',
        '  VALUES (?g ?g_mld0) {',
        '    (<http://example.org/r1> <urn:x-museum-ld:g:G1:p:http://example.org/r1>)',
        '    (<http://example.org/graph/admin> <urn:x-museum-ld:g:G1:p:http://example.org/graph/admin>)',
        '  }',
        '  {',
        '    GRAPH ?g_mld0 { ?s ?p ?o. }',
        '    FILTER(?g_mld0 IN(<urn:x-museum-ld:g:G1:p:http://example.org/r1>, <urn:x-museum-ld:g:G1:p:http://example.org/graph/admin>))',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it("gives a top-level VALUES of graph IRIs a column of each one's own server name, and a filter listing them, in the full view", () => {
    expect(rewrite(`SELECT ?s WHERE { VALUES ?g { <${B}/r1> <${ADMIN}> } GRAPH ?g { ?s ?p ?o } }`, fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE {',
        '  VALUES (?g ?g_mld0) {',
        '    (<http://example.org/r1> <urn:x-museum-ld:g:G1:p:http://example.org/r1>)',
        '    (<http://example.org/graph/admin> <urn:x-museum-ld:g:G1:n:http://example.org/graph/admin>)',
        '  }',
        '  {',
        '    GRAPH ?g_mld0 { ?s ?p ?o. }',
        '    FILTER(?g_mld0 IN(<urn:x-museum-ld:g:G1:p:http://example.org/r1>, <urn:x-museum-ld:g:G1:n:http://example.org/graph/admin>))',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it('computes the prefixed name of a graph variable bound earlier in the group, from the public prefix only in the public view', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?r ex:p ?x GRAPH ?r { ?s ?p ?o } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?r ex:p ?x. }',
        '  VALUES ?prefix_mld1 {',
        '    "urn:x-museum-ld:g:G1:p:"',
        '  }',
        '  BIND(IRI(CONCAT(?prefix_mld1, STR(?r))) AS ?r_mld0)',
        '  GRAPH ?r_mld0 { ?s ?p ?o. }',
        '  FILTER(STRSTARTS(STR(?r_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '  FILTER(?r = (IRI(SUBSTR(STR(?r_mld0), 24 ))))',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['r_mld0', 'prefix_mld1'],
    });
  });

  it('computes the prefixed name of a graph variable bound earlier from both prefixes in the full view', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?r ex:p ?x GRAPH ?r { ?s ?p ?o } }`, fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  GRAPH <urn:x-museum-ld:empty> { ?r ex:p ?x. }',
        '  VALUES ?prefix_mld1 {',
        '    "urn:x-museum-ld:g:G1:p:"',
        '    "urn:x-museum-ld:g:G1:n:"',
        '  }',
        '  BIND(IRI(CONCAT(?prefix_mld1, STR(?r))) AS ?r_mld0)',
        '  GRAPH ?r_mld0 { ?s ?p ?o. }',
        '  FILTER(STRSTARTS(STR(?r_mld0), "urn:x-museum-ld:g:G1:"))',
        '  FILTER(?r = (IRI(SUBSTR(STR(?r_mld0), 24 ))))',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['r_mld0', 'prefix_mld1'],
    });
  });

  it('computes the prefixed name of a graph variable from around an EXISTS as a UNION of BINDs in the full view', () => {
    // Virtuoso 7.2 answers two such EXISTS with the VALUES form with a few of the right solutions.
    expect(rewrite(`${P}SELECT ?r WHERE { ?r a ex:A FILTER EXISTS { GRAPH ?r { ?r ex:p ?x } } }`, fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?r WHERE {',
        '  GRAPH <urn:x-museum-ld:empty> { ?r <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ex:A. }',
        '  FILTER(EXISTS {',
        '    { BIND(IRI(CONCAT("urn:x-museum-ld:g:G1:p:", STR(?r))) AS ?r_mld0) }',
        '    UNION',
        '    { BIND(IRI(CONCAT("urn:x-museum-ld:g:G1:n:", STR(?r))) AS ?r_mld0) }',
        '    GRAPH ?r_mld0 { ?r ex:p ?x. }',
        '    FILTER(STRSTARTS(STR(?r_mld0), "urn:x-museum-ld:g:G1:"))',
        '    FILTER(?r = (IRI(SUBSTR(STR(?r_mld0), 24 ))))',
        '  })',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['r_mld0'],
    });
  });

  it('asks whether a named graph holds a statement for an empty GRAPH <g> {}', () => {
    expect(rewrite(`ASK { GRAPH <${B}/r1> { } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'ASK WHERE {',
        '  {',
        '    {',
        '      SELECT ?s_mld0 WHERE { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s_mld0 ?p_mld1 ?o_mld2. } }',
        '      LIMIT 1',
        '    }',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['s_mld0', 'p_mld1', 'o_mld2'],
    });
  });

  it('lists the graphs that hold a statement for an empty GRAPH ?g {}', () => {
    expect(rewrite(`SELECT ?g WHERE { GRAPH ?g { } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?g WHERE {',
        '  {',
        '    { SELECT DISTINCT ?g_mld0 WHERE { GRAPH ?g_mld0 { ?s_mld1 ?p_mld2 ?o_mld3. } } }',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0', 's_mld1', 'p_mld2', 'o_mld3'],
    });
  });

  it('rewrites the patterns and ORDER BY of a subquery the same way', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { { SELECT ?s WHERE { GRAPH ?g { ?s ex:year ?y } } ORDER BY ?y LIMIT 1 } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>',
        'SELECT ?s WHERE {',
        '  {',
        '    SELECT ?s WHERE {',
        '      {',
        '        GRAPH ?g_mld0 { ?s ex:year ?y. }',
        '        FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '        BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '      }',
        '    }',
        '    ORDER BY (COALESCE(IF((DATATYPE(?y)) = xsd:gYear, xsd:integer(REPLACE(STR(?y), "^(-?[0-9]+).*$", "$1")), ?y), ?y))',
        '    LIMIT 1',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

});

describe('the dataset', () => {
  it("reads the default graph as the generation's union graph when the query names no dataset (SPARQL endpoint)", () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('reads the default graph as the empty graph when the query names no dataset (REST)', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o }`, fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE { GRAPH <urn:x-museum-ld:empty> { ?s ex:p ?o. } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('reads a single FROM graph by its prefixed name, and no named graph (FROM alone)', () => {
    expect(rewrite(`${P}SELECT ?s FROM <${B}/r1> WHERE { ?s ex:p ?o GRAPH ?g { ?s ?q ?z } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s ex:p ?o. }',
        '  GRAPH <urn:x-museum-ld:empty> { ?s ?q ?z. }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('reads each pattern within one of several FROM graphs', () => {
    expect(rewrite(`${P}SELECT ?s FROM <${B}/r1> FROM <${B}/r2> WHERE { ?s ex:p ?o }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  {',
        '    VALUES ?default_mld0 {',
        '      <urn:x-museum-ld:g:G1:p:http://example.org/r1>',
        '      <urn:x-museum-ld:g:G1:p:http://example.org/r2>',
        '    }',
        '    GRAPH ?default_mld0 { ?s ex:p ?o. }',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['default_mld0'],
    });
  });

  it('lets GRAPH ?g read exactly the FROM NAMED graphs, prefixed', () => {
    expect(rewrite(`${P}SELECT ?g ?s FROM NAMED <${B}/r1> FROM NAMED <${ADMIN}> WHERE { GRAPH ?g { ?s ?p ?o } }`, fullView, REST)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?g ?s WHERE {',
        '  {',
        '    VALUES ?g_mld0 {',
        '      <urn:x-museum-ld:g:G1:p:http://example.org/r1>',
        '      <urn:x-museum-ld:g:G1:n:http://example.org/graph/admin>',
        '    }',
        '    GRAPH ?g_mld0 { ?s ?p ?o. }',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it('lets GRAPH <g> read a FROM NAMED graph', () => {
    expect(rewrite(`${P}SELECT ?s FROM NAMED <${B}/r1> WHERE { GRAPH <${B}/r1> { ?s ?p ?o } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE {',
        '  {',
        '    VALUES ?graph_mld0 {',
        '      <urn:x-museum-ld:g:G1:p:http://example.org/r1>',
        '    }',
        '    GRAPH ?graph_mld0 { ?s ?p ?o. }',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['graph_mld0'],
    });
  });

  it('lets GRAPH <g> of a graph outside FROM NAMED read the empty graph', () => {
    expect(rewrite(`${P}SELECT ?s FROM NAMED <${B}/r1> WHERE { GRAPH <${B}/r2> { ?s ?p ?o } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT ?s WHERE { GRAPH <urn:x-museum-ld:empty> { ?s ?p ?o. } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

});

describe('ORDER BY: xsd:gYear by its number', () => {
  it("orders a variable's xsd:gYear values by their year number", () => {
    expect(rewrite(`${P}SELECT ?s ?y WHERE { ?s ex:year ?y } ORDER BY DESC(?y)`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>',
        'SELECT ?s ?y WHERE { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:year ?y. } }',
        'ORDER BY DESC (COALESCE(IF((DATATYPE(?y)) = xsd:gYear, xsd:integer(REPLACE(STR(?y), "^(-?[0-9]+).*$", "$1")), ?y), ?y))',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it("leaves an aggregate's alias alone (Virtuoso allows no expression over it)", () => {
    expect(rewrite(`${P}SELECT ?s (MAX(?y) AS ?m) WHERE { ?s ex:year ?y } GROUP BY ?s ORDER BY ?m`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s (MAX(?y) AS ?m) WHERE { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:year ?y. } }',
        'GROUP BY ?s',
        'ORDER BY (?m)',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

});

describe('Virtuoso 7.2: MINUS', () => {
  it('drops a MINUS that shares no variable with what precedes it', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o MINUS { ?a ex:q ?b } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('writes a MINUS whose shared variables are bound for certain as FILTER NOT EXISTS', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o MINUS { ?s ex:q ?b } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '  FILTER(NOT EXISTS { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:q ?b. } })',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it("writes any other MINUS as an OPTIONAL sub-select on MINUS's own test and a FILTER on its flag", () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o OPTIONAL { ?s ex:r ?x } MINUS { ?s ex:q ?x } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '  OPTIONAL { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:r ?x. } }',
        '  OPTIONAL {',
        '    { SELECT ?s_minus0 ?x_minus1 (1  AS ?hit_minus2) WHERE { GRAPH <urn:x-museum-ld:union:G1> { ?s_minus0 ex:q ?x_minus1. } } }',
        '    FILTER((((!((BOUND(?s)) && (BOUND(?s_minus0)))) || (SAMETERM(?s, ?s_minus0))) && ((!((BOUND(?x)) && (BOUND(?x_minus1)))) || (SAMETERM(?x, ?x_minus1)))) && (((BOUND(?s)) && (BOUND(?s_minus0))) || ((BOUND(?x)) && (BOUND(?x_minus1)))))',
        '  }',
        '  FILTER(!(BOUND(?hit_minus2)))',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

});

describe('Virtuoso 7.2: EXISTS', () => {
  it('binds an EXISTS projected as a value with a BIND, then as an OPTIONAL sub-select and BOUND of its flag', () => {
    expect(rewrite(`${P}SELECT ?s (EXISTS { ?s ex:q ?z } AS ?has) WHERE { ?s ex:p ?o }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s ?has WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '  OPTIONAL {',
        '    {',
        '      SELECT ?s (1  AS ?exists_mld0) WHERE { { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:q ?z. } } }',
        '      GROUP BY ?s',
        '    }',
        '  }',
        '  BIND(BOUND(?exists_mld0) AS ?has)',
        '}',
      ),
      limit: undefined,
      booleans: ['has'],
      hidden: ['exists_mld0'],
    });
  });

  it('limits the sub-select of a NOT EXISTS value that shares no variable to one row', () => {
    expect(rewrite(`${P}SELECT ?s ?any WHERE { ?s ex:p ?o BIND(NOT EXISTS { ?a ex:q ?b } AS ?any) }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s ?any WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '  OPTIONAL {',
        '    {',
        '      SELECT (1  AS ?exists_mld0) WHERE { { GRAPH <urn:x-museum-ld:union:G1> { ?a ex:q ?b. } } }',
        '      LIMIT 1',
        '    }',
        '  }',
        '  BIND(!(BOUND(?exists_mld0)) AS ?any)',
        '}',
      ),
      limit: undefined,
      booleans: ['any'],
      hidden: ['exists_mld0'],
    });
  });

  it('binds an EXISTS in ORDER BY to a variable of its own and orders by that', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o } ORDER BY DESC(EXISTS { ?s ex:q ?z })`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '  OPTIONAL {',
        '    {',
        '      SELECT ?s (1  AS ?exists_mld0) WHERE { { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:q ?z. } } }',
        '      GROUP BY ?s',
        '    }',
        '  }',
        '  BIND(BOUND(?exists_mld0) AS ?order_exists_0)',
        '}',
        'ORDER BY DESC (?order_exists_0)',
      ),
      limit: undefined,
      booleans: ['order_exists_0'],
      hidden: ['exists_mld0'],
    });
  });

  it('moves a FILTER EXISTS out of its GRAPH and names the graph inside the EXISTS', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { GRAPH <${B}/r1> { ?s ex:p ?o FILTER EXISTS { ?s ex:q ?z } } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  {',
        '    GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s ex:p ?o. }',
        '    FILTER(EXISTS { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { { ?s ex:q ?z. } } })',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('moves a FILTER NOT EXISTS out of a GRAPH ?g and names the server-graph variable inside it', () => {
    expect(rewrite(`${P}SELECT ?g ?s WHERE { GRAPH ?g { ?s ex:p ?o FILTER NOT EXISTS { ?s ex:q ?z } } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?g ?s WHERE {',
        '  {',
        '    GRAPH ?g_mld0 { ?s ex:p ?o. }',
        '    FILTER(NOT EXISTS { GRAPH ?g_mld0 { { ?s ex:q ?z. } } })',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it('moves a BIND of EXISTS out of its GRAPH before lifting it to a sub-select of that graph', () => {
    expect(rewrite(`${P}SELECT ?s ?on WHERE { GRAPH <${B}/r1> { ?s ex:p ?o BIND(EXISTS { ?s ex:q ?z } AS ?on) } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s ?on WHERE {',
        '  {',
        '    GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s ex:p ?o. }',
        '    OPTIONAL {',
        '      {',
        '        SELECT ?s (1  AS ?exists_mld0) WHERE { { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { { ?s ex:q ?z. } } } }',
        '        GROUP BY ?s',
        '      }',
        '    }',
        '    BIND(BOUND(?exists_mld0) AS ?on)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: ['on'],
      hidden: ['exists_mld0'],
    });
  });

  it('gives a group that only filters with EXISTS a one-row VALUES', () => {
    expect(rewrite(`${P}SELECT * WHERE { FILTER EXISTS { ?s ex:q ?b } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT * WHERE {',
        '  VALUES ?unit_mld0 {',
        '    1 ',
        '  }',
        '  FILTER(EXISTS { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:q ?b. } })',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['unit_mld0'],
    });
  });

});

describe('Virtuoso 7.2: booleans, DESCRIBE, SELECT *, VALUES, LIMIT', () => {
  it('reports the variables bound to a boolean expression, by BIND or in the projection', () => {
    expect(rewrite(`${P}SELECT ?s ?big (?n = 1 AS ?one) WHERE { ?s ex:n ?n BIND(?n > 3 AS ?big) BIND(?n + 1 AS ?next) }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s ?big (?n = 1  AS ?one) WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:n ?n. }',
        '  BIND(?n > 3  AS ?big)',
        '  BIND(?n + 1  AS ?next)',
        '}',
      ),
      limit: undefined,
      booleans: ['one', 'big'],
      hidden: [],
    });
  });

  it('writes DESCRIBE of one resource as the CONSTRUCT of its statements in the default graph', () => {
    expect(rewrite(`DESCRIBE <${B}/r1>`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'CONSTRUCT { <http://example.org/r1> ?describe_p0_mld ?describe_o0_mld. }',
        'WHERE { { GRAPH <urn:x-museum-ld:union:G1> { <http://example.org/r1> ?describe_p0_mld ?describe_o0_mld. } } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('writes DESCRIBE of several resources as a UNION of their statements after the WHERE pattern', () => {
    expect(rewrite(`${P}DESCRIBE ?s <${B}/r2> WHERE { ?s ex:p ?o }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'CONSTRUCT {',
        '  ?s ?describe_p0_mld ?describe_o0_mld.',
        '  ex:r2 ?describe_p1_mld ?describe_o1_mld.',
        '}',
        'WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '  { GRAPH <urn:x-museum-ld:union:G1> { ?s ?describe_p0_mld ?describe_o0_mld. } }',
        '  UNION',
        '  { GRAPH <urn:x-museum-ld:union:G1> { ex:r2 ?describe_p1_mld ?describe_o1_mld. } }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('writes DESCRIBE * as the description of every variable of the pattern', () => {
    expect(rewrite(`${P}DESCRIBE * WHERE { ?s ex:p ?o }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'CONSTRUCT {',
        '  ?s ?describe_p0_mld ?describe_o0_mld.',
        '  ?o ?describe_p1_mld ?describe_o1_mld.',
        '}',
        'WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '  { GRAPH <urn:x-museum-ld:union:G1> { ?s ?describe_p0_mld ?describe_o0_mld. } }',
        '  UNION',
        '  { GRAPH <urn:x-museum-ld:union:G1> { ?o ?describe_p1_mld ?describe_o1_mld. } }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it("projects SELECT * as the query's own variables, not the rewrite's", () => {
    expect(rewrite(`${P}SELECT * WHERE { GRAPH ?g { ?s ex:p ?o } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?g ?s ?o WHERE {',
        '  {',
        '    GRAPH ?g_mld0 { ?s ex:p ?o. }',
        '    FILTER(STRSTARTS(STR(?g_mld0), "urn:x-museum-ld:g:G1:p:"))',
        '    BIND(IRI(SUBSTR(STR(?g_mld0), 24 )) AS ?g)',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['g_mld0'],
    });
  });

  it("projects SELECT * as the query's own variables, not those the MINUS rewrite introduces", () => {
    const { text, hidden } = rewrite(`${P}SELECT * WHERE { ?s ex:p ?o OPTIONAL { ?s ex:q ?x } MINUS { ?s ex:r ?x } }`);
    expect(text.split('\n')[2]).toBe('SELECT ?s ?o ?x WHERE {');
    // The MINUS became an OPTIONAL sub-select of renamed variables, none of them projected.
    expect(text).toContain('?hit_minus2');
    expect(hidden).toEqual([]);
  });

  it('keeps SELECT * when the pattern binds no variable and the rewrite introduces none', () => {
    expect(rewrite(`SELECT * WHERE { GRAPH <${B}/r1> { <${B}/a> <${B}/b> <${B}/c> } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT * WHERE { { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { <http://example.org/a> <http://example.org/b> <http://example.org/c>. } } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it("keeps SELECT * when the pattern binds no variable, and hides the rewrite's variables", () => {
    expect(rewrite(`SELECT * WHERE { GRAPH <${B}/r1> { } }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'SELECT * WHERE {',
        '  {',
        '    {',
        '      SELECT ?s_mld0 WHERE { GRAPH <urn:x-museum-ld:g:G1:p:http://example.org/r1> { ?s_mld0 ?p_mld1 ?o_mld2. } }',
        '      LIMIT 1',
        '    }',
        '  }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: ['s_mld0', 'p_mld1', 'o_mld2'],
    });
  });

  it('moves a trailing VALUES to lead the pattern, the pattern a group of its own', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o } VALUES ?o { 1 2 }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  VALUES ?o {',
        '    1 ',
        '    2 ',
        '  }',
        '  { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. } }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('writes VALUES () { () } as an empty group', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { VALUES () { () } ?s ex:p ?o }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE {',
        '  {  }',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. }',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('accepts the XSD casts', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:n ?n FILTER(xsd:integer(?n) > 3) }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>',
        'SELECT ?s WHERE {',
        '  GRAPH <urn:x-museum-ld:union:G1> { ?s ex:n ?n. }',
        '  FILTER((xsd:integer(?n)) > 3 )',
        '}',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

  it('reports the LIMIT and keeps LIMIT and OFFSET in the text', () => {
    expect(rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o } LIMIT 10 OFFSET 5`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'SELECT ?s WHERE { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. } }',
        'OFFSET 5',
        'LIMIT 10',
      ),
      limit: 10,
      booleans: [],
      hidden: [],
    });
  });

  it('rewrites the WHERE pattern of a CONSTRUCT, not its template', () => {
    expect(rewrite(`${P}CONSTRUCT { ?s ex:p ?o } WHERE { ?s ex:p ?o }`)).toEqual({
      text: lines(
        'BASE <urn:x-museum-ld:base>',
        'PREFIX ex: <http://example.org/>',
        'CONSTRUCT { ?s ex:p ?o. }',
        'WHERE { GRAPH <urn:x-museum-ld:union:G1> { ?s ex:p ?o. } }',
      ),
      limit: undefined,
      booleans: [],
      hidden: [],
    });
  });

});

describe('refusals', () => {
  it("refuses any function but the XSD casts (Virtuoso's bif: and sql: run SQL)", () => {
    expect(refusal(() => rewrite(`SELECT ?s WHERE { ?s ?p ?o FILTER(<bif:contains>(?o, "x")) }`))).toBe("the function <bif:contains> is not available on this endpoint (only SPARQL's built-in functions and the XSD casts are)");
  });

  it('refuses a function inside an aggregate', () => {
    expect(refusal(() => rewrite(`${P}SELECT (SUM(<http://example.org/f>(?o)) AS ?n) WHERE { ?s ?p ?o }`))).toBe("the function <http://example.org/f> is not available on this endpoint (only SPARQL's built-in functions and the XSD casts are)");
  });

  it("refuses a text nested past the rewrite's bounds before any parse", () => {
    expect(refusal(() => rewrite(`SELECT * WHERE ${'{ '.repeat(513)}?s ?p ?o${' }'.repeat(513)}`))).toBe('The query is nested more than 512 levels deep (groups, parentheses and brackets); this endpoint accepts at most 512.');
  });

  it('refuses a text that does not parse', () => {
    expect(refusal(() => rewrite('SELECT WHERE'))).toBe(lines(
      'invalid SPARQL query: Parse error on line 1:',
      'SELECT WHERE',
      '-------^',
      "Expecting '*', '(', 'VAR', 'DISTINCT', 'REDUCED', got 'WHERE'",
    ));
  });

  it('refuses an update', () => {
    expect(refusal(() => rewrite('INSERT DATA { <urn:a> <urn:b> <urn:c> }'))).toBe('the store is read-only: updates are not accepted');
  });

  it('refuses SERVICE', () => {
    expect(refusal(() => rewrite('SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }'))).toBe('SERVICE is not allowed');
  });

  it('refuses a subquery that names a dataset (sparqljs already does not parse one)', () => {
    expect(refusal(() => rewrite('SELECT * WHERE { { SELECT ?s FROM <http://example.org/r1> WHERE { ?s ?p ?o } } }'))).toBe(lines(
      'invalid SPARQL query: Parse error on line 1:',
      '...WHERE { { SELECT ?s FROM <http://example',
      '-----------------------^',
      "Expecting 'WHERE', '{', got 'FROM'",
    ));
  });

  it('refuses an EXISTS used as a value inside a MINUS pattern', () => {
    expect(refusal(() => rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o MINUS { ?s ex:q ?b BIND(EXISTS { ?b ex:r ?c } AS ?e) } }`))).toBe('EXISTS used as a value (in a BIND) inside another EXISTS, NOT EXISTS or MINUS pattern cannot run on this store: in the forms the SPARQL server evaluates, this shape ends the server process. Move the BIND out of that pattern');
  });

  it('refuses an EXISTS used as a value inside a FILTER EXISTS pattern', () => {
    expect(refusal(() => rewrite(`${P}SELECT ?s WHERE { ?s ex:p ?o FILTER EXISTS { ?s ex:q ?b BIND(EXISTS { ?b ex:r ?c } AS ?e) } }`))).toBe('EXISTS used as a value (in a BIND) inside another EXISTS, NOT EXISTS or MINUS pattern cannot run on this store: in the forms the SPARQL server evaluates, this shape ends the server process. Move the BIND out of that pattern');
  });

  it('refuses an EXISTS used as a value in a grouped query', () => {
    expect(refusal(() => rewrite(`${P}SELECT ?s (EXISTS { ?s ex:q ?z } AS ?has) WHERE { ?s ex:p ?o } GROUP BY ?s`))).toBe('EXISTS used as a value in a grouped query cannot run on this store (it would hang the SPARQL server); use FILTER EXISTS or an OPTIONAL instead');
  });

  it('refuses an EXISTS used as a value that reads an outer variable only in an expression', () => {
    expect(refusal(() => rewrite(`${P}SELECT ?s ?has WHERE { ?s ex:p ?o BIND(EXISTS { ?a ex:q ?b FILTER(?b = ?o) } AS ?has) }`))).toBe('EXISTS used as a value reads ?o only in an expression; this store evaluates such an EXISTS as a sub-select, which cannot see ?o. Use FILTER EXISTS, or match ?o in a pattern inside the EXISTS');
  });

});
