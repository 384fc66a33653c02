/**
 * One N-Quads line to its four terms, as written (`<iri>`, `_:label`, `"literal"...`). A whole-line regex
 * is the fast path (loads pass every line through it); only a line it rejects is tokenised again to say why.
 */

/** The terms of one statement as they appear in the line; `graph` is undefined for the default graph. */
export interface QuadTerms {
  subject: string;
  predicate: string;
  object: string;
  graph: string | undefined;
}

/** A line that is not N-Quads; `message` is the reason, with the 1-based column where it went wrong. */
export class LineSyntaxError extends Error {
  constructor(reason: string, column: number) {
    super(`${reason} at column ${column}`);
    this.name = 'LineSyntaxError';
  }
}

// Loops are written "unrolled" (x*(?:escape x*)*) so that a rejected line costs linear time, not exponential.
const IRI_BODY = String.raw`[^\x00-\x20<>"{}|^${'`'}\\]*(?:\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})[^\x00-\x20<>"{}|^${'`'}\\]*)*`;
const IRI = String.raw`<[A-Za-z][A-Za-z0-9+.\-]*:${IRI_BODY}>`;
const BNODE = String.raw`_:[A-Za-z0-9_\u00C0-\uFFFF](?:[A-Za-z0-9_.\-\u00B7\u00C0-\uFFFF]*[A-Za-z0-9_\-\u00B7\u00C0-\uFFFF])?`;
const STRING = String.raw`"[^"\\\n\r]*(?:\\(?:[tbnrf"'\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})[^"\\\n\r]*)*"`;
const LANG = String.raw`@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*`;
const LITERAL = String.raw`${STRING}(?:\^\^${IRI}|${LANG})?`;
const WS = String.raw`[ \t]*`;
const LINE = new RegExp(
  String.raw`^${WS}(${IRI}|${BNODE})${WS}(${IRI})${WS}(${IRI}|${BNODE}|${LITERAL})${WS}(?:(${IRI}|${BNODE})${WS})?\.${WS}(?:#[^\n]*)?\r?$`,
);
const BLANK = /^[ \t]*(?:#[^\n]*)?\r?$/;

/** Parses one line (without its `\n`); undefined for blank and comment lines; throws `LineSyntaxError`. */
export function parseQuadLine(line: string): QuadTerms | undefined {
  const m = LINE.exec(line);
  if (m) return { subject: m[1] as string, predicate: m[2] as string, object: m[3] as string, graph: m[4] };
  if (BLANK.test(line)) return undefined;
  throw diagnose(line);
}

/**
 * The terms of a statement line as a generation file writes it (canonical: `s p o g .`, single spaces, the
 * file already checked by the generation check), without the regex of a full parse: the subject and predicate
 * hold no space, the graph is the last `<`-term. Undefined for a line in the default graph or not of that form.
 */
export function splitCanonical(line: string): [string, string, string, string] | undefined {
  if (!line.endsWith('> .')) return undefined;
  const g = line.lastIndexOf(' <', line.length - 3);
  const a = line.indexOf(' ');
  const b = line.indexOf(' ', a + 1);
  if (a <= 0 || b <= a + 1 || g <= b + 1) return undefined;
  // Single spaces only (a double space would shift the terms); anything else takes the full parse.
  if (line[a + 1] !== '<' || line[b + 1] === ' ' || line[g - 1] === ' ') return undefined;
  const graph = line.slice(g + 1, line.length - 2);
  // A `<` inside a typed literal of the default graph is no graph term: such a candidate has a space or a quote.
  if (graph.includes(' ') || graph.includes('"')) return undefined;
  return [line.slice(0, a), line.slice(a + 1, b), line.slice(b + 1, g), graph];
}

/** A statement line as a triple to write in a graph block (`s p o`, without the final ` .`) and its graph term. */
export interface GraphStatement {
  subject: string;
  object: string;
  /** The graph term (`<…>`), or undefined for the default graph. */
  graph: string | undefined;
  triple: string;
}

/**
 * A statement line of a generation file as a triple and its graph: cut where the graph term starts when the line
 * is canonical (`splitCanonical`), else read by `parse` (which throws or returns undefined as its caller wants).
 * Undefined for a line `parse` skips.
 */
export function graphStatement(line: string, parse: (line: string) => QuadTerms | undefined): GraphStatement | undefined {
  const canonical = splitCanonical(line);
  if (canonical) {
    const [subject, , object, graph] = canonical;
    return { subject, object, graph, triple: line.slice(0, line.length - graph.length - 3) };
  }
  const terms = parse(line);
  if (terms === undefined) return undefined;
  return { subject: terms.subject, object: terms.object, graph: terms.graph, triple: `${terms.subject} ${terms.predicate} ${terms.object}` };
}

/**
 * The four terms of any statement line of a checked file: the canonical split when the line has that form, else
 * the full parse (the default graph: the empty string). Undefined for a blank or comment line.
 */
export function lineTerms(line: string): [string, string, string, string] | undefined {
  const canonical = splitCanonical(line);
  if (canonical) return canonical;
  const t = parseQuadLine(line);
  return t === undefined ? undefined : [t.subject, t.predicate, t.object, t.graph ?? ''];
}

const STICKY = {
  ws: /[ \t]*/y,
  iri: new RegExp(IRI, 'y'),
  relativeIri: new RegExp(`<${IRI_BODY}>`, 'y'),
  bnode: new RegExp(BNODE, 'y'),
  string: new RegExp(STRING, 'y'),
  suffix: new RegExp(String.raw`\^\^${IRI}|${LANG}`, 'y'),
  end: /\.[ \t]*(?:#[^\n]*)?\r?$/y,
};

type TermKind = 'iri' | 'bnode' | 'literal';

/** Tokenises a rejected line term by term to name the first thing that is wrong. */
function diagnose(line: string): LineSyntaxError {
  let pos = 0;
  const at = (re: RegExp): number => {
    re.lastIndex = pos;
    return re.test(line) ? re.lastIndex : -1;
  };
  const skipWs = (): void => {
    pos = at(STICKY.ws);
  };
  const term = (role: string, kinds: TermKind[]): LineSyntaxError | undefined => {
    skipWs();
    const c = line[pos];
    const col = pos + 1;
    if (c === '<' && kinds.includes('iri')) {
      const end = at(STICKY.iri);
      if (end >= 0) return void (pos = end);
      return at(STICKY.relativeIri) >= 0
        ? new LineSyntaxError(`${role} IRI is not absolute`, col)
        : new LineSyntaxError(`${role} IRI is malformed (unterminated or with a character IRIs cannot hold)`, col);
    }
    if (c === '_' && kinds.includes('bnode')) {
      const end = at(STICKY.bnode);
      if (end >= 0) return void (pos = end);
      return new LineSyntaxError(`${role} blank node label is malformed`, col);
    }
    if (c === '"' && kinds.includes('literal')) {
      const end = at(STICKY.string);
      if (end < 0) return new LineSyntaxError(`${role} literal is unterminated or has an invalid escape`, col);
      pos = end;
      if (line[pos] === '^' || line[pos] === '@') {
        const after = at(STICKY.suffix);
        if (after < 0) return new LineSyntaxError(`${role} literal has a malformed datatype or language tag`, pos + 1);
        pos = after;
      }
      return undefined;
    }
    const names = { iri: 'an IRI', bnode: 'a blank node', literal: 'a literal' };
    const alternatives = kinds.map((k) => names[k]);
    const expected = alternatives.length > 1 ? `${alternatives.slice(0, -1).join(', ')} or ${alternatives.at(-1)}` : alternatives[0];
    return new LineSyntaxError(`expected ${role} (${expected}) but found ${c === undefined ? 'end of line' : JSON.stringify(c)}`, col);
  };
  const problem =
    term('subject', ['iri', 'bnode']) ?? term('predicate', ['iri']) ?? term('object', ['iri', 'bnode', 'literal']);
  if (problem) return problem;
  skipWs();
  if (line[pos] !== '.') {
    const graphProblem = term('graph name', ['iri', 'bnode']);
    if (graphProblem) return graphProblem;
    skipWs();
  }
  if (at(STICKY.end) < 0) {
    if (line[pos] !== '.') return new LineSyntaxError('expected "." at the end of the statement', pos + 1);
    pos++;
    skipWs();
    return new LineSyntaxError('unexpected text after the final "."', pos + 1);
  }
  return new LineSyntaxError('malformed statement', 1);
}

const ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([tbnrf"'\\]))/g;
const SIMPLE_ESCAPES: Record<string, string> = { t: '\t', b: '\b', n: '\n', r: '\r', f: '\f', '"': '"', "'": "'", '\\': '\\' };

function unescape(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(ESCAPE, (_all, u4: string | undefined, u8: string | undefined, simple: string | undefined) =>
    simple !== undefined ? (SIMPLE_ESCAPES[simple] as string) : String.fromCodePoint(parseInt(u4 ?? u8 ?? '0', 16)),
  );
}

/** The IRI inside an `<iri>` term, escapes resolved; undefined for any other term. */
export function iriOf(term: string | undefined): string | undefined {
  if (term === undefined || !term.startsWith('<')) return undefined;
  return unescape(term.slice(1, -1));
}

/** The lexical form of a literal term, escapes resolved; undefined for any other term. */
export function literalValue(term: string): string | undefined {
  if (!term.startsWith('"')) return undefined;
  const close = term.lastIndexOf('"');
  return unescape(term.slice(1, close));
}
