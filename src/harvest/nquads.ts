/**
 * N-Quads 1.1 term serialisation, written as plain strings: the harvest emits millions of quads and
 * allocating RDF/JS term objects per quad would dominate its cost.
 */
import { NS } from '../vocab/namespaces.js';

// Characters that IRIREF forbids (space, controls, <>"{}|^`\). Source URIs pass a WHATWG URL check that
// tolerates several of them, so they are percent-encoded: the same resource, and a valid IRI.
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const IRI_FORBIDDEN = /[\u0000-\u0020<>"{}|^`\\]/g;
// eslint-disable-next-line no-control-regex -- as above
const IRI_FORBIDDEN_TEST = /[\u0000-\u0020<>"{}|^`\\]/;

/** The IRI as an N-Quads term `<...>`, with forbidden characters percent-encoded. */
export function iri(value: string): string {
  if (!IRI_FORBIDDEN_TEST.test(value)) return `<${value}>`;
  return `<${value.replace(IRI_FORBIDDEN, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}>`;
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
  integer: xsd('integer'),
  boolean: xsd('boolean'),
} as const;

/** A typed literal whose lexical form the caller has already made valid for the datatype. */
export function typed(lexical: string, datatype: string): string {
  return `${quoted(lexical)}^^${datatype}`;
}

/** Mints blank node labels unique within one harvest (`_:b1`, `_:b2`, ...). */
export class BlankNodes {
  private next = 0;

  /** A fresh blank node term. */
  mint(): string {
    this.next += 1;
    return `_:b${this.next}`;
  }
}
