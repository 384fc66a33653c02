/**
 * The static cost check (src/queries/query-cost.ts) through the endpoint's policy (prepareQuery): each limit
 * holds at its value and refuses one past it with a 400 that names it; the shapes of issue 44 (a 12,000-branch
 * UNION, 3,000 sibling OPTIONALs, 26 chained CONCAT doublings) are refused; the editor's example queries, the
 * service's own queries and ordinary research queries pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BadRequestError } from '../../src/http/errors.js';
import { COST_LIMITS } from '../../src/queries/query-cost.js';
import { prepareQuery, type PolicyOptions, type ProtocolDataset } from '../../src/sparql/query-policy.js';
import { EXAMPLE_QUERIES } from '../../src/sparql/examples.js';

const OPTIONS: PolicyOptions = { baseIri: 'http://localhost:3000/sparql', maxRows: 100 };
const NO_DATASET: ProtocolDataset = { defaultGraphs: [], namedGraphs: [] };
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** The refusal of `query`, or undefined when the policy accepts it. */
function refusal(query: string): string | undefined {
  try {
    prepareQuery(query, NO_DATASET, OPTIONS);
    return undefined;
  } catch (err) {
    if (!(err instanceof BadRequestError)) throw err;
    return err.message;
  }
}

/** `{?s ?p 0} UNION {?s ?p 1} UNION …`, n branches. */
const union = (n: number): string => `SELECT * WHERE { ${range(n).map((i) => `{ ?s ?p ${i} }`).join(' UNION ')} }`;
/** n OPTIONALs side by side in one group. */
const optionals = (n: number): string => `SELECT * WHERE { ?s ?p ?o ${range(n).map((i) => `OPTIONAL { ?s <p${i}> ?v${i} }`).join(' ')} }`;
/** n chained doublings: BIND(CONCAT(?x0, ?x0) AS ?x1) BIND(CONCAT(?x1, ?x1) AS ?x2) … */
const doublings = (n: number): string => `SELECT * WHERE { ?s ?p ?x0 ${range(n).map((i) => `BIND(CONCAT(?x${i}, ?x${i}) AS ?x${i + 1})`).join(' ')} }`;

describe('the static cost check', () => {
  it('refuses the shapes that took a store down, naming the limit', () => {
    // Refused from its text, before any parse: 11,999 UNION keywords make more branches than the query may have.
    expect(refusal(union(12_000))).toBe(
      `The query has more than ${COST_LIMITS.maxUnionBranches} UNION branches in all; this endpoint accepts at most ${COST_LIMITS.maxUnionBranches} (see "Query cost" in the endpoint's documentation (docs/sparql.md)).`,
    );
    expect(refusal(union(200))).toBe(
      `The query has a UNION of 200 branches; this endpoint accepts at most ${COST_LIMITS.maxUnionWidth} in one UNION (see "Query cost" in the endpoint's documentation (docs/sparql.md)); VALUES lists alternatives at a fraction of the cost.`,
    );
    expect(refusal(optionals(3000))).toContain(`more than ${COST_LIMITS.maxOptionals} OPTIONALs in all`);
    expect(refusal(optionals(100))).toContain(`more than ${COST_LIMITS.maxSiblingOptionals} OPTIONALs side by side`);
    expect(refusal(doublings(26))).toContain(`grow more than ${COST_LIMITS.maxStringGrowth} times the longest value`);
    expect(refusal(doublings(23))).toContain('BIND(CONCAT(?a, ?a) AS ?b)');
  });

  it('holds each limit at its value and refuses one past it', () => {
    const L = COST_LIMITS;
    // UNION width, and branches in all (nested unions of allowed width).
    expect(refusal(union(L.maxUnionWidth))).toBeUndefined();
    expect(refusal(union(L.maxUnionWidth + 1))).toContain('UNION of 65 branches');
    const unions = (groups: number, width: number): string => `SELECT * WHERE { ${range(groups).map((g) => `{ ${range(width).map((i) => `{ ?s <p${g}> ${i} }`).join(' UNION ')} }`).join(' UNION ')} }`;
    // groups × width inner branches plus the outer union's `groups` branches.
    expect(refusal(unions(3, 64))).toBeUndefined(); // 3 + 192 = 195
    expect(refusal(unions(4, 64))).toContain(`more than ${L.maxUnionBranches} UNION branches in all`); // 4 + 256
    // Sibling OPTIONALs, and OPTIONALs in all.
    expect(refusal(optionals(L.maxSiblingOptionals))).toBeUndefined();
    expect(refusal(optionals(L.maxSiblingOptionals + 1))).toContain(`more than ${L.maxSiblingOptionals} OPTIONALs side by side`);
    const spread = (n: number): string => `SELECT * WHERE { ${range(n).map((i) => `{ ?s ?p ?o OPTIONAL { ?s <p${i}> ?v${i} } }`).join(' ')} }`;
    expect(refusal(spread(L.maxOptionals))).toBeUndefined();
    expect(refusal(spread(L.maxOptionals + 1))).toContain(`more than ${L.maxOptionals} OPTIONALs in all`);
    // Triple patterns.
    const patterns = (n: number): string => `SELECT * WHERE { ${range(n).map((i) => `?s <p${i}> ?o${i} .`).join(' ')} }`;
    expect(refusal(patterns(L.maxPatterns))).toBeUndefined();
    expect(refusal(patterns(L.maxPatterns + 1))).toContain(`more than ${L.maxPatterns} triple patterns`);
    // String growth: 2^10 = 1024 is the limit.
    expect(refusal(doublings(10))).toBeUndefined();
    expect(refusal(doublings(11))).toContain('grow more than 1024 times');
    // Closures, and their nesting.
    const closures = (n: number): string => `SELECT * WHERE { ${range(n).map((i) => `?s <p${i}>* ?o${i} .`).join(' ')} }`;
    expect(refusal(closures(L.maxClosures))).toBeUndefined();
    expect(refusal(closures(L.maxClosures + 1))).toContain(`more than ${L.maxClosures} property-path closures`);
    expect(refusal('SELECT * WHERE { ?s (<p>*/<q>)* ?o }')).toBeUndefined();
    expect(refusal('SELECT * WHERE { ?s ((<p>+/<q>)*/<r>)+ ?o }')).toContain('nests property-path closures (* or +) 3 deep');
    // VALUES products: 400 × 250 = 100,000 rows pass, one row more does not.
    const values = (a: number, b: number): string => `SELECT * WHERE { VALUES ?a { ${range(a).join(' ')} } VALUES ?b { ${range(b).join(' ')} } ?s ?p ?a }`;
    expect(refusal(values(400, 250))).toBeUndefined();
    expect(refusal(values(400, 251))).toContain(`join into more than ${L.maxValuesProduct} rows`);
  });

  it('follows growth through every way of writing it', () => {
    // One expression naming a variable many times.
    const leaves = (n: number): string => `SELECT (CONCAT(${range(n).map(() => '?o').join(', ')}) AS ?big) WHERE { ?s ?p ?o }`;
    expect(refusal(leaves(1024))).toBeUndefined();
    expect(refusal(leaves(1025))).toContain('grow more than 1024 times');
    // Nested calls, and a chain written inside out.
    expect(refusal(`SELECT * WHERE { ?s ?p ?o FILTER(STRLEN(${'CONCAT('.repeat(11)}?o${', ?o)'.repeat(11)}) > 0) }`)).toBeUndefined(); // 12 leaves
    const reversed = (n: number): string => `SELECT * WHERE { ?s ?p ?x0 ${range(n).reverse().map((i) => `{ BIND(CONCAT(?x${i}, ?x${i}) AS ?x${i + 1}) }`).join(' ')} }`;
    expect(refusal(reversed(11))).toContain('grow more than 1024 times');
    // Through subqueries' projections, GROUP_CONCAT, a REPLACE whose replacement is the input itself, ENCODE_FOR_URI.
    expect(refusal(`SELECT (CONCAT(?b, ?b) AS ?c) WHERE { { SELECT (CONCAT(?a, ?a, ?a, ?a) AS ?b) WHERE { ?s ?p ?a } } }`)).toBeUndefined();
    const sub = (n: number): string => `SELECT ?x${n} WHERE { ${range(n).reduce((inner, i) => `{ SELECT (CONCAT(?x${i}, ?x${i}) AS ?x${i + 1}) WHERE ${inner} }`, '{ ?s ?p ?x0 }')} }`;
    expect(refusal(sub(10))).toBeUndefined();
    expect(refusal(sub(11))).toContain('grow more than 1024 times');
    expect(refusal(`SELECT * WHERE { ?s ?p ?a BIND(REPLACE(?a, "", ?a) AS ?b) BIND(REPLACE(?b, "", ?b) AS ?c) BIND(REPLACE(?c, "", ?c) AS ?d) }`)).toContain('grow more than');
    // REPLACE: a plain pattern replaced by as many characters keeps the length (a diacritics fold of 20 steps
    // passes); a replacement that repeats the match grows by 1 + its characters and references at each step.
    const fold = range(20).reduce((inner) => `REPLACE(${inner}, "é", "e")`, '?a');
    expect(refusal(`SELECT * WHERE { ?s ?p ?a BIND(${fold} AS ?b) }`)).toBeUndefined();
    const repeat = (n: number): string => `SELECT * WHERE { ?s ?p ?a BIND(${range(n).reduce((inner) => `REPLACE(${inner}, ".*", "$0$0")`, '?a')} AS ?b) }`;
    expect(refusal(repeat(6))).toBeUndefined(); // 3^6 = 729
    expect(refusal(repeat(7))).toContain('grow more than 1024 times'); // 3^7 = 2187
    expect(refusal(`SELECT * WHERE { ?s ?p ?a BIND(ENCODE_FOR_URI(ENCODE_FOR_URI(ENCODE_FOR_URI(?a))) AS ?b) }`)).toContain('grow more than');
    // A doubling chain that starts from a constant grows as well.
    expect(refusal(`SELECT * WHERE { BIND("ab" AS ?x0) ${range(11).map((i) => `BIND(CONCAT(?x${i}, ?x${i}) AS ?x${i + 1})`).join(' ')} }`)).toContain('grow more than');
  });

  it('looks into EXISTS, MINUS, GRAPH, subqueries and projections', () => {
    const hidden = [
      `SELECT * WHERE { ?s ?p ?o FILTER EXISTS { ${union(65).slice('SELECT * WHERE '.length)} } }`,
      `SELECT * WHERE { ?s ?p ?o MINUS { ${union(65).slice('SELECT * WHERE '.length)} } }`,
      `SELECT * WHERE { GRAPH ?g { ${optionals(33).slice('SELECT * WHERE { '.length)} }`,
      `SELECT * WHERE { { ${doublings(11)} } }`,
      `SELECT (EXISTS { ${union(65).slice('SELECT * WHERE '.length)} } AS ?e) WHERE { ?s ?p ?o }`,
      `ASK { ${optionals(33).slice('SELECT * WHERE { '.length)}`,
      `CONSTRUCT { ?s ?p ?o } WHERE { ${union(65).slice('SELECT * WHERE '.length)} }`,
    ];
    for (const query of hidden) expect(refusal(query)).toMatch(/^The query /);
  });

  it("passes the editor's examples, the service's own queries and ordinary research queries", () => {
    for (const example of EXAMPLE_QUERIES) expect([example.id, refusal(example.query)]).toEqual([example.id, undefined]);
    const root = join(process.cwd(), 'queries');
    for (const folder of readdirSync(root)) {
      for (const file of readdirSync(join(root, folder)).filter((f) => f.endsWith('.rq'))) {
        // Parameters (`?_id` and the like are variables already; `$` placeholders too) parse as they are.
        const text = readFileSync(join(root, folder, file), 'utf8');
        expect([file, refusal(text)]).toEqual([file, undefined]);
      }
    }
    const research = `PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/>
      SELECT ?maker (GROUP_CONCAT(DISTINCT ?title; separator=" | ") AS ?titles) (COUNT(*) AS ?n) WHERE {
        GRAPH ?o { ?o crm:P108i_was_produced_by/crm:P9_consists_of*/crm:P14_carried_out_by ?maker ; crm:P102_has_title/crm:P190_has_symbolic_content ?title }
        OPTIONAL { ?maker crm:P1_is_identified_by/crm:P190_has_symbolic_content ?name }
        { ?o crm:P2_has_type ?t } UNION { ?o crm:P45_consists_of ?t }
        BIND(CONCAT(STR(?maker), " — ", COALESCE(?name, "")) AS ?label)
        FILTER(LANG(?title) = "nl" || LANG(?title) = "en")
      } GROUP BY ?maker ORDER BY DESC(?n) LIMIT 50`;
    expect(refusal(research)).toBeUndefined();
  });
});
