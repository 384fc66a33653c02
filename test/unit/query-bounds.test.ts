/**
 * The lexical pre-check of SPARQL texts (src/queries/query-bounds.ts): nesting counted as SPARQL's lexer
 * splits the text, the limits named in the refusals. The expected depths come from how each text is built;
 * sparqljs's own lexer is the oracle of "never counts less than the parser sees".
 */
import fc from 'fast-check';
import sparqljs from 'sparqljs';
import { boundsViolation, MAX_QUERY_DEPTH, MAX_QUERY_LENGTH, nestingDepth, QUERY_BOUNDS, scanText } from '../../src/queries/query-bounds.js';
import { COST_LIMITS, optionalsMessage, unionBranchesMessage } from '../../src/queries/query-cost.js';

interface JisonLexer {
  setInput(text: string, yy: object): void;
  lex(): number | string;
  yytext: string;
}
const lexer = (new sparqljs.Parser() as unknown as { lexer: JisonLexer }).lexer;

/** The nesting sparqljs's lexer sees, up to the first token it cannot read (where the parser stops). */
function lexerDepth(text: string): number {
  lexer.setInput(text, {});
  let depth = 0;
  let deepest = 0;
  for (;;) {
    const token = lexer.lex();
    if (token === 1 || token === 'INVALID') return deepest;
    const first = lexer.yytext[0];
    if (first === '{' || first === '(' || first === '[') {
      deepest = Math.max(deepest, depth + 1);
      // NIL `()` and ANON `[ ]` open and close in one token.
      if (lexer.yytext.length === 1 || lexer.yytext === '{|') depth++;
    } else if (first === '}' || first === ')' || first === ']' || lexer.yytext === '|}') depth = Math.max(0, depth - 1);
  }
}

const nested = (n: number): string => `SELECT * WHERE ${'{ '.repeat(n)}?s ?p ?o${' }'.repeat(n)}`;

describe('the nesting depth of a SPARQL text', () => {
  it('counts braces, parentheses and brackets as one nesting', () => {
    expect(nestingDepth('SELECT * WHERE { ?s ?p ?o }')).toBe(1);
    expect(nestingDepth('SELECT * WHERE { ?s ?p [ ?q ?o ] FILTER((?o > 1)) }')).toBe(3);
    expect(nestingDepth(nested(3000))).toBe(3000);
    expect(nestingDepth('ASK {}')).toBe(1);
    expect(nestingDepth('')).toBe(0);
  });

  it('does not count brackets inside string literals of any of the four quotings, escapes included', () => {
    expect(nestingDepth(`SELECT * WHERE { ?s ?p "{ ( [" }`)).toBe(1);
    expect(nestingDepth(`SELECT * WHERE { ?s ?p '{ \\' {' }`)).toBe(1);
    expect(nestingDepth(`SELECT * WHERE { ?s ?p "a \\" { \\\\" }`)).toBe(1);
    expect(nestingDepth(`SELECT * WHERE { ?s ?p '''{ ' '' {\n{''' }`)).toBe(1);
    expect(nestingDepth(`SELECT * WHERE { ?s ?p """{ " "" \\""" {""" }`)).toBe(1);
    expect(nestingDepth(`SELECT * WHERE { ?s ?p "\\u007B" }`)).toBe(1);
  });

  it('does not count brackets inside IRIs, and counts after a < that opens none', () => {
    expect(nestingDepth('SELECT * WHERE { ?s <http://example.org/a(b)[c]> ?o }')).toBe(1);
    // A space ends an IRI: this `<` is the operator, and the parentheses after it count.
    expect(nestingDepth('SELECT * WHERE { ?s ?p ?o FILTER(?o < ((1))) }')).toBe(4);
    expect(nestingDepth('SELECT * WHERE { ?s ?p ?o FILTER(?o <((1))) }')).toBe(4);
    expect(nestingDepth('SELECT * WHERE { ?s ?p ?o FILTER(?a < (?b) && ?c > 1) }')).toBe(3);
    // `<<` is a token of its own (quoted triples), so what follows it is not taken for an IRI.
    expect(nestingDepth('SELECT * WHERE { <<(((>> }')).toBe(4);
  });

  it('does not count brackets in comments, which end at the line end', () => {
    expect(nestingDepth('SELECT * WHERE { # {{{ (((\n ?s ?p ?o }')).toBe(1);
    expect(nestingDepth('# {{{\r{ {')).toBe(2);
    // A # inside an IRI or a string is no comment.
    expect(nestingDepth('SELECT * WHERE { <http://a/#x> ?p "#" { ?s ?p ?o } }')).toBe(2);
  });

  it('does not count a bracket escaped in a prefixed name, and counts one a backslash cannot escape there', () => {
    expect(nestingDepth('PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:a\\(b ?o }')).toBe(1);
    expect(nestingDepth("PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:a\\'b ?o . ?s ?p 'x' }")).toBe(1);
    expect(nestingDepth('SELECT * WHERE { \\{ }')).toBe(2);
  });

  it('counts what follows a string that never ends, or ends at a line break', () => {
    expect(nestingDepth('SELECT * WHERE { ?s ?p "abc { {')).toBe(3);
    expect(nestingDepth("SELECT * WHERE { ?s ?p 'abc\n{ { '")).toBe(3);
    expect(nestingDepth('SELECT * WHERE { ?s ?p """abc { {')).toBe(3);
  });

  it('stops counting past the depth it is asked about', () => {
    expect(nestingDepth(nested(20_000), MAX_QUERY_DEPTH)).toBe(MAX_QUERY_DEPTH + 1);
  });

  it('never counts less than the nesting sparqljs reads, whatever the text', () => {
    // Mostly tokens the lexer reads (so that it reads far), some it cannot (where the parser would stop).
    const escapeShort = (t: string, quote: string): string =>
      t.replace(/\\/g, '\\\\').replaceAll(quote, `\\${quote}`).replace(/\n/g, '\\n').replace(/\r/g, '\\r');
    const piece = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('{', '}', '(', ')', '[', ']', '{|', '|}', ' ', '\n', '\r') },
      { weight: 3, arbitrary: fc.constantFrom('<', '>', '<<', '>>', '<=', '|', '^', '.', ';', ',', '?x', 'ex:a', 'ex:a\\(', "ex:a\\'", 'ex:\\#b', 'a', 'SELECT', 'WHERE') },
      { weight: 2, arbitrary: fc.string({ maxLength: 6 }).map((t) => `"${escapeShort(t, '"')}"`) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((t) => `'${escapeShort(t, "'")}'`) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((t) => `"""${t.replace(/\\/g, '\\\\').replaceAll('"', '\\"')}"""`) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((t) => `'''${t.replace(/\\/g, '\\\\').replaceAll("'", "\\'")}'''`) },
      { weight: 2, arbitrary: fc.stringMatching(/^[a-z()[\]#'.:/]{0,6}$/).map((t) => `<${t}>`) },
      { weight: 1, arbitrary: fc.stringMatching(/^[^\n\r]{0,6}$/).map((t) => `#${t}\n`) },
      { weight: 1, arbitrary: fc.constantFrom("'", '"', "'''", '"""', '\\', '#', '`', '\\u0041') },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(nestingDepth(text)).toBeGreaterThanOrEqual(lexerDepth(text));
      }),
      { numRuns: 3000 },
    );
    // And short texts of the characters where lexing is delicate, so that every small case comes up.
    const tricky = fc.constantFrom('(', '[', '{', ')', ' ', '<', '<<', '>', '"', "'", '#', '\n', '\\', '\\(', 'ex:a', '?b');
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 10 }), (pieces) => {
        const text = pieces.join('');
        expect(nestingDepth(text)).toBeGreaterThanOrEqual(lexerDepth(text));
      }),
      { numRuns: 10_000 },
    );
  });
});

/** An object of a triple holding brackets the parser never counts: in a literal, an IRI, or a comment before it. */
const quoted = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
  fc.string({ maxLength: 12 }).map((s) => `'''${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'''`),
  fc.stringMatching(/^[a-z/()[\]#.:-]{0,12}$/).map((s) => `<http://example.org/${s}>`),
  fc.string({ maxLength: 12 }).map((s) => `# ${s.replace(/[\n\r]/g, ' ')}\n?o`),
);

/** A query nested exactly `depth` levels (groups, OPTIONAL, FILTER parentheses), with `noise` in its triples. */
function nestedQuery(depth: number, kinds: readonly number[], noise: readonly string[]): string {
  let open = '';
  let close = '';
  for (let level = 1; level < depth; level++) {
    const kind = kinds[level % kinds.length] ?? 0;
    const object = noise[level % Math.max(1, noise.length)] ?? '?o';
    open += `${kind === 0 ? '{' : kind === 1 ? 'OPTIONAL {' : 'FILTER EXISTS {'} ?s ?p ${object} . `;
    close = ` }${close}`;
  }
  return `SELECT * WHERE { ${open}?s ?p ?o${close} }`;
}

describe('the bounds check before the parse', () => {
  it('accepts a nesting depth d if and only if d is within the limit, however the levels and literals are written', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 * MAX_QUERY_DEPTH }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 8 }),
        fc.array(quoted, { maxLength: 8 }),
        (depth, kinds, noise) => {
          const query = nestedQuery(depth, kinds, noise);
          expect(nestingDepth(query)).toBe(depth);
          expect(boundsViolation(query) === undefined).toBe(depth <= MAX_QUERY_DEPTH);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('builds only texts sparqljs parses, so the depths above are those of real queries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }), fc.array(quoted, { maxLength: 4 }), (depth, kinds, noise) => {
        expect(() => new sparqljs.Parser().parse(nestedQuery(depth, kinds, noise))).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });

  it('names the depth limit when a query nests past it', () => {
    expect(boundsViolation(nested(MAX_QUERY_DEPTH))).toBeUndefined();
    expect(boundsViolation(nested(MAX_QUERY_DEPTH + 1))).toBe(
      'The query is nested more than 64 levels deep (groups, parentheses and brackets); this endpoint accepts at most 64.',
    );
  });

  it('names the length limit when a query is longer', () => {
    const long = `SELECT * WHERE { ?s ?p "${'x'.repeat(MAX_QUERY_LENGTH)}" }`;
    expect(boundsViolation(long)).toBe(`The query is ${long.length} characters long; this endpoint accepts queries of at most 262144 characters.`);
    expect(boundsViolation(long, { maxDepth: QUERY_BOUNDS.maxDepth })).toBeUndefined();
  });
});

describe('UNION and OPTIONAL keywords counted from the text', () => {
  const unions = (n: number): string => `SELECT * WHERE { ${Array.from({ length: n + 1 }, (_, i) => `{ ?s ?p ${i} }`).join(' UNION ')} }`;
  it('counts keywords as tokens, in any case, outside strings, IRIs, comments and names', () => {
    expect(scanText('SELECT * { {?a ?b ?c} UNION {?a ?b ?d} union {?a ?b ?e} OPTIONAL { ?a ?b ?f } optional{?a ?b ?g} }')).toEqual({ depth: 2, unions: 2, optionals: 2 });
    const hidden = 'PREFIX UNION: <http://x/UNION> SELECT ?union ?OPTIONAL $union WHERE { ?s UNION:OPTIONAL "UNION OPTIONAL" ; <http://e/UNION> \'\'\'OPTIONAL\'\'\' ; ex:a.UNION ?o } # UNION OPTIONAL';
    expect(scanText(hidden)).toMatchObject({ unions: 0, optionals: 0 });
  });

  it('refuses a text with as many UNION keywords as branches allowed, or more OPTIONALs, before any parse', () => {
    expect(boundsViolation(unions(COST_LIMITS.maxUnionBranches - 1))).toBeUndefined();
    expect(boundsViolation(unions(COST_LIMITS.maxUnionBranches))).toBe(unionBranchesMessage(COST_LIMITS.maxUnionBranches));
    const optionals = (n: number): string => `SELECT * WHERE { ?s ?p ?o ${'OPTIONAL { ?s ?p ?v } '.repeat(n)}}`;
    expect(boundsViolation(optionals(COST_LIMITS.maxOptionals))).toBeUndefined();
    expect(boundsViolation(optionals(COST_LIMITS.maxOptionals + 1))).toBe(optionalsMessage(COST_LIMITS.maxOptionals));
    // The remote store's rewrite bounds count no keywords: the service's own queries are not a client's.
    expect(boundsViolation(unions(1000), { maxDepth: 512 })).toBeUndefined();
  });
});
