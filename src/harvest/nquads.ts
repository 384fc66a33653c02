/**
 * N-Quads 1.1 term serialisation, written as plain strings: the harvest emits millions of quads and
 * allocating RDF/JS term objects per quad would dominate its cost.
 */
import { createHash } from 'node:crypto';
import { NS } from '../vocab/namespaces.js';

// Source URIs only pass a WHATWG URL check, which tolerates characters an RFC 3987 IRI may not contain
// (space, `<>"{}|^` and backquote, brackets outside the host, a stray `%` or second `#`, C1 controls,
// private-use code points). Strict N-Quads parsers such as Oxigraph reject those, so they are
// percent-encoded: the same resource, spelled as a valid IRI. Well-formed URIs take the fast path.
const IRI_PLAIN = /^[A-Za-z0-9\-._~:/?@!$&'()*+,;=]*$/;
const ASCII_ALLOWED = /[A-Za-z0-9\-._~:/?@!$&'()*+,;=]/;
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;

/** The IRI as an N-Quads term `<...>`, percent-encoding what an IRI may not contain. */
export function iri(value: string): string {
  return IRI_PLAIN.test(value) ? `<${value}>` : `<${toIri(value)}>`;
}

function toIri(value: string): string {
  const authorityEnd = AUTHORITY.exec(value)?.[0].length ?? 0;
  let out = '';
  let seenHash = false;
  for (let i = 0; i < value.length; ) {
    const cp = value.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    if (cp >= 0xd800 && cp <= 0xdfff) out += '%EF%BF%BD'; // lone surrogate: U+FFFD, as a UTF-8 writer would
    else if (cp >= 0x80) out += isUcschar(cp) ? ch : encodeURIComponent(ch);
    else if (ch === '%') out += HEX2.test(value.slice(i + 1, i + 3)) ? '%' : '%25';
    else if (ch === '#') {
      out += seenHash ? '%23' : '#';
      seenHash = true;
    } else if (ch === '[' || ch === ']') out += i < authorityEnd ? ch : percent(cp);
    else out += ASCII_ALLOWED.test(ch) ? ch : percent(cp);
    i += ch.length;
  }
  return out;
}

function percent(asciiCode: number): string {
  return `%${asciiCode.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** RFC 3987 ucschar: non-ASCII code points allowed anywhere in an IRI. */
function isUcschar(cp: number): boolean {
  if (cp < 0xa0) return false;
  if (cp <= 0xd7ff) return true;
  if (cp < 0xf900) return false;
  if (cp <= 0xfdcf) return true;
  if (cp < 0xfdf0) return false;
  if (cp <= 0xffef) return true;
  if (cp <= 0xffff) return false;
  // Planes 1 to 14 without their last two code points (plane 14 from E1000); 15 and 16 are private use.
  if (cp >= 0xe0000 && cp < 0xe1000) return false;
  return cp <= 0xeffff && (cp & 0xffff) <= 0xfffd;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const LITERAL_SPECIAL = /["\\\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex -- as above
const LITERAL_SPECIAL_TEST = /["\\\u0000-\u001f\u007f]/;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

function escapeChar(c: string): string {
  return SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The quoted lexical form, escaped as canonical N-Triples does (ECHAR, else \uXXXX for controls). */
export function quoted(value: string): string {
  if (!LITERAL_SPECIAL_TEST.test(value)) return `"${value}"`;
  return `"${value.replace(LITERAL_SPECIAL, escapeChar)}"`;
}

/** A plain string literal (xsd:string, written without datatype). */
export const literal = quoted;

/** A language-tagged literal; `lang` is a well-formed BCP 47 tag chosen by the caller. */
export function langLiteral(value: string, lang: string): string {
  return `${quoted(value)}@${lang}`;
}

const xsd = (name: string): string => `<${NS.xsd}${name}>`;
/** Datatype IRIs as ready-made N-Quads terms. */
export const XSD = {
  dateTime: xsd('dateTime'),
  date: xsd('date'),
  gYear: xsd('gYear'),
  decimal: xsd('decimal'),
  double: xsd('double'),
  integer: xsd('integer'),
  boolean: xsd('boolean'),
} as const;

/** A typed literal whose lexical form the caller has already made valid for the datatype. */
export function typed(lexical: string, datatype: string): string {
  return `${quoted(lexical)}^^${datatype}`;
}

/**
 * Mints the blank node labels of one record graph: `_:r<scope>_1`, `_:r<scope>_2`, … where the scope is 72 bits
 * of the SHA-256 of the graph's name. A record's text thus depends on the record alone, never on the records
 * harvested before it, so an unchanged record is written byte for byte as before and an incremental harvest can
 * keep it (docs/incremental.md); and labels of two graphs never meet in one file (a collision of two scopes
 * among a million records has odds of about 1 in 10^10).
 */
export class BlankNodes {
  private next = 0;
  private scope: string | undefined;

  /** `graph`: the record graph's name as an N-Quads term (`<iri>`). */
  constructor(private readonly graph: string) {}

  /** A fresh blank node term. */
  mint(): string {
    this.scope ??= createHash('sha256').update(this.graph).digest('base64url').slice(0, 12);
    this.next += 1;
    return `_:r${this.scope}_${this.next}`;
  }
}
