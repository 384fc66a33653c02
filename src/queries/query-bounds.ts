/**
 * The bounds a SPARQL text must keep before anything parses it. sparqljs parses nesting in superlinear time
 * and recursion (a query nested 3,000 groups deep takes seconds, 20,000 overflows the stack), so the nesting
 * depth of `{ ( [` is counted here, in one pass over the characters, the way SPARQL's lexer splits them:
 * brackets inside string literals, IRIs (`<…>`, the IRIREF token) and `#` comments do not count. Where the
 * text is not valid SPARQL (an unterminated string, a `<` that opens no IRI) the scan counts what follows,
 * so it can only over-count, never hide nesting from the parser.
 */
import { COST_LIMITS, optionalsMessage, unionBranchesMessage, type CostLimits } from './query-cost.js';

/** The deepest nesting of `{ ( [` a query may have (the service's own .rq queries reach 6). */
export const MAX_QUERY_DEPTH = 64;
/** The longest query text, in characters (the endpoint's POST body limit is 256 kB, so only GET or a decoded form gets here). */
export const MAX_QUERY_LENGTH = 256 * 1024;

export interface QueryBounds {
  maxDepth: number;
  /** Characters; undefined: no length bound (the remote store's rewrite of texts the policy regenerated). */
  maxLength?: number;
  /** The cost limits whose keywords the text is counted against (clients' queries). */
  keywords?: Pick<CostLimits, 'maxUnionBranches' | 'maxOptionals'>;
}

/** The endpoint's bounds. */
export const QUERY_BOUNDS: Readonly<QueryBounds> = { maxDepth: MAX_QUERY_DEPTH, maxLength: MAX_QUERY_LENGTH, keywords: COST_LIMITS };

/**
 * The deepest parsed tree (objects, arrays not counted; query-policy.ts measures it after the parse) of a
 * query. A text within MAX_QUERY_DEPTH parses at most about 3 levels per bracket (FILTER EXISTS { … }: 192 at
 * 64), but a chain of operators (`?a = 1 || ?a = 2 || …`, `!!!?a`) is one level per operator however flat its
 * text: the regeneration and the store's parser recurse over those levels (Oxigraph's overflows near 1,000).
 */
export const MAX_AST_DEPTH = 256;

/** The 400 message of a query whose parsed tree is deeper than MAX_AST_DEPTH. */
export const treeTooDeepMessage = (): string =>
  `The query's expressions nest more than ${MAX_AST_DEPTH} levels deep once parsed (each operator of a chain such as ?a = 1 || ?a = 2 || … is one level); use IN (…) or VALUES for long lists of alternatives.`;

/**
 * The remote store's bounds for the texts it rewrites: texts the policy regenerated from a tree within
 * MAX_AST_DEPTH (the generator writes FILTER EXISTS as FILTER(EXISTS …) and an operator chain as nested
 * parentheses, so they nest deeper than the client's text), and the service's own queries.
 */
export const REWRITE_BOUNDS: Readonly<QueryBounds> = { maxDepth: 2 * MAX_AST_DEPTH };

const OPEN_BRACE = 0x7b;
const OPEN_PAREN = 0x28;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_PAREN = 0x29;
const CLOSE_BRACKET = 0x5d;
const HASH = 0x23;
const LT = 0x3c;
const GT = 0x3e;
const BACKSLASH = 0x5c;
const SQUOTE = 0x27;
const DQUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** Characters an IRIREF may not hold besides U+0000-U+0020: `< > " { } | ^ \` \\`. */
const NOT_IN_IRI = new Set([0x3c, 0x3e, 0x22, 0x7b, 0x7d, 0x7c, 0x5e, 0x60, 0x5c]);
/** What a backslash escapes in a prefixed name's local part (PN_LOCAL_ESC): `ex:a\(b` holds no bracket. */
const LOCAL_ESCAPES = new Set("_~.-!$&'()*+,;=/?#@%".split('').map((c) => c.charCodeAt(0)));
const HEX = /^[0-9A-Fa-f]+$/;

/** The index after the IRIREF that starts at `at` (a `<`), or -1 when none does (the `<` is an operator). */
function iriEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === GT) return i + 1;
    if (c <= 0x20 || NOT_IN_IRI.has(c)) return -1;
  }
  return -1;
}

/** The length of the escape sequence (ECHAR or UCHAR) at `at` (a backslash) in a string literal, 0 when invalid. */
function escapeLength(text: string, at: number): number {
  const next = text[at + 1];
  if (next !== undefined && 'tbnrf\\"\''.includes(next)) return 2;
  if (next === 'u' && HEX.test(text.slice(at + 2, at + 6)) && at + 6 <= text.length) return 6;
  if (next === 'U' && HEX.test(text.slice(at + 2, at + 10)) && at + 10 <= text.length) return 10;
  return 0;
}

/** The index after the long string (''' or """ quoted) that starts at `at`, or -1 when none is closed validly there. */
function longStringEnd(text: string, at: number, quote: number): number {
  // Any character but an unescaped run of three quotes; the literal ends at the first such run.
  for (let i = at + 3; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === quote && text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote) return i + 3;
    if (c === BACKSLASH) {
      const n = escapeLength(text, i);
      if (n === 0) return -1;
      i += n;
    } else i++;
  }
  return -1;
}

/**
 * The index after the string literal that starts at `at` (a quote), or -1 when no valid literal starts there
 * (then the lexer stops at the quote, and the scan counts on past it).
 */
function stringEnd(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  if (text.charCodeAt(at + 1) === quote && text.charCodeAt(at + 2) === quote) {
    const end = longStringEnd(text, at, quote);
    if (end !== -1) return end;
    // No valid long literal: the lexer takes the two quotes as an empty short one (below).
  }
  for (let i = at + 1; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === quote) return i + 1;
    if (c === LF || c === CR) return -1;
    if (c === BACKSLASH) {
      const n = escapeLength(text, i);
      if (n === 0) return -1;
      i += n;
    } else i++;
  }
  return -1;
}

/** What one pass over a query's text finds: its deepest nesting, and the UNION and OPTIONAL keywords it holds. */
export interface TextScan {
  depth: number;
  unions: number;
  optionals: number;
}

/** True for a character that continues a name (a variable, a prefixed name, a keyword): the keyword test's edge. */
const isNameChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d || c === 0x3a || c === 0x2e || c === 0x3f || c === 0x24 || c > 0x7f;

/** True when the keyword `upper` (upper case) is written at `at`, in any case, as a token of its own. */
function keywordAt(text: string, at: number, upper: string): boolean {
  if (at > 0 && isNameChar(text.charCodeAt(at - 1))) return false;
  if (at + upper.length < text.length && isNameChar(text.charCodeAt(at + upper.length))) return false;
  return text.slice(at, at + upper.length).toUpperCase() === upper;
}

const LOWER_U = 0x75;
const UPPER_U = 0x55;
const LOWER_O = 0x6f;
const UPPER_O = 0x4f;

/**
 * One pass over `text` outside string literals, IRIs and comments: the deepest nesting of `{ ( [`, and how many
 * UNION and OPTIONAL keywords it holds. Counting stops once the depth passes `stopAbove`, so a hostile text
 * costs no more than its first levels. A closing bracket with nothing open counts as nothing (it cannot lower
 * the depth of what follows).
 */
export function scanText(text: string, stopAbove = Number.POSITIVE_INFINITY): TextScan {
  let depth = 0;
  const found: TextScan = { depth: 0, unions: 0, optionals: 0 };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    switch (c) {
      case OPEN_BRACE:
      case OPEN_PAREN:
      case OPEN_BRACKET:
        depth++;
        if (depth > found.depth) {
          found.depth = depth;
          if (depth > stopAbove) return found;
        }
        i++;
        break;
      case CLOSE_BRACE:
      case CLOSE_PAREN:
      case CLOSE_BRACKET:
        if (depth > 0) depth--;
        i++;
        break;
      case HASH:
        // A comment runs to the end of its line.
        while (i < text.length && text.charCodeAt(i) !== LF && text.charCodeAt(i) !== CR) i++;
        break;
      case LT:
        // `<<` is a token of its own (the lexer's longest match), never the start of an IRI.
        if (text.charCodeAt(i + 1) === LT) i += 2;
        else {
          const end = iriEnd(text, i);
          i = end === -1 ? i + 1 : end;
        }
        break;
      case SQUOTE:
      case DQUOTE: {
        const end = stringEnd(text, i);
        i = end === -1 ? i + 1 : end;
        break;
      }
      case BACKSLASH:
        i += LOCAL_ESCAPES.has(text.charCodeAt(i + 1)) ? 2 : 1;
        break;
      case LOWER_U:
      case UPPER_U:
        if (keywordAt(text, i, 'UNION')) found.unions++;
        i++;
        break;
      case LOWER_O:
      case UPPER_O:
        if (keywordAt(text, i, 'OPTIONAL')) found.optionals++;
        i++;
        break;
      default:
        i++;
    }
  }
  return found;
}

/** The deepest nesting of `{ ( [` in `text` outside string literals, IRIs and comments (see `scanText`). */
export const nestingDepth = (text: string, stopAbove = Number.POSITIVE_INFINITY): number => scanText(text, stopAbove).depth;

/**
 * Why `text` is refused before it is parsed (a message naming the limit), or undefined when it is within
 * `bounds`. With `keywords`, a text holding more UNION or OPTIONAL keywords than the cost check of the parsed
 * query allows is refused here, with the same message, without its parse (a 250 kB UNION takes the parse
 * worker seconds): n UNION keywords make more than n branches, n OPTIONAL keywords n OPTIONALs.
 */
export function boundsViolation(text: string, bounds: Readonly<QueryBounds> = QUERY_BOUNDS): string | undefined {
  if (bounds.maxLength !== undefined && text.length > bounds.maxLength) {
    return `The query is ${text.length} characters long; this endpoint accepts queries of at most ${bounds.maxLength} characters.`;
  }
  const scan = scanText(text, bounds.maxDepth);
  if (scan.depth > bounds.maxDepth) {
    return `The query is nested more than ${bounds.maxDepth} levels deep (groups, parentheses and brackets); this endpoint accepts at most ${bounds.maxDepth}.`;
  }
  const { keywords } = bounds;
  if (keywords !== undefined && scan.unions >= keywords.maxUnionBranches) return unionBranchesMessage(keywords.maxUnionBranches);
  if (keywords !== undefined && scan.optionals > keywords.maxOptionals) return optionalsMessage(keywords.maxOptionals);
  return undefined;
}
