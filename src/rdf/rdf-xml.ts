/**
 * A small RDF/XML writer (RDF 1.1 XML Syntax, striped form: one rdf:Description per subject) for the graphs
 * the service negotiates outside the store: a record's CONSTRUCT graph and the SPARQL service description.
 * n3 has no RDF/XML writer; query answers in RDF/XML come from the store itself.
 */
import type { Quad, Term } from '@rdfjs/types';

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const LANG_STRING = `${RDF}langString`;

// XML NCName characters (ASCII letters, digits, '-', '.', '_' and all non-ASCII name characters, loosely).
const NAME_START = /[A-Za-z_\u00C0-\uFFFF]/;
const NAME_CHAR = /[A-Za-z0-9_.\-\u00B7\u00C0-\uFFFF]/;

/** Splits a predicate IRI into namespace and an XML local name; RDF/XML cannot write a predicate without one. */
export function splitPredicate(iri: string): [string, string] {
  let start = iri.length;
  while (start > 0 && NAME_CHAR.test(iri.charAt(start - 1))) start--;
  while (start < iri.length && !NAME_START.test(iri.charAt(start))) start++;
  if (start >= iri.length) throw new Error(`the predicate <${iri}> cannot be written in RDF/XML (no XML local name)`);
  return [iri.slice(0, start), iri.slice(start)];
}

// A carriage return would reach a parser as a line feed (XML end-of-line handling) unless escaped.
const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const escapeAttribute = (s: string): string =>
  escapeText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

/** `rdf:about` or `rdf:nodeID` for a subject or object node. */
function nodeAttribute(term: Term, about: 'about' | 'resource'): string {
  if (term.termType === 'NamedNode') return `rdf:${about}="${escapeAttribute(term.value)}"`;
  if (term.termType === 'BlankNode') return `rdf:nodeID="${escapeAttribute(blankId(term.value))}"`;
  throw new Error(`a ${term.termType} cannot be a node in RDF/XML`);
}

/** Blank node labels must be XML names in rdf:nodeID. */
const blankId = (label: string): string => (NAME_START.test(label.charAt(0)) && [...label].every((c) => NAME_CHAR.test(c)) ? label : `b${Buffer.from(label).toString('hex')}`);

/** Writes `quads` (graph names ignored) as an RDF/XML document; `prefixes` name the namespaces it declares. */
export function writeRdfXml(quads: readonly Quad[], prefixes: Readonly<Record<string, string>> = {}): string {
  const namespaces = new Map<string, string>([[RDF, 'rdf']]);
  const used = new Set(['rdf', 'xml']);
  for (const [name, iri] of Object.entries(prefixes)) {
    if (!namespaces.has(iri) && !used.has(name)) {
      namespaces.set(iri, name);
      used.add(name);
    }
  }
  const declared = new Set<string>([RDF]);
  const qname = (iri: string): string => {
    const [ns, local] = splitPredicate(iri);
    let prefix = namespaces.get(ns);
    if (prefix === undefined) {
      let n = 0;
      while (used.has(`ns${n}`)) n++;
      prefix = `ns${n}`;
      namespaces.set(ns, prefix);
      used.add(prefix);
    }
    declared.add(ns);
    return `${prefix}:${local}`;
  };

  const bySubject = new Map<string, { subject: Term; lines: string[] }>();
  for (const { subject, predicate, object } of quads) {
    const key = `${subject.termType}:${subject.value}`;
    let entry = bySubject.get(key);
    if (!entry) {
      entry = { subject, lines: [] };
      bySubject.set(key, entry);
    }
    const name = qname(predicate.value);
    if (object.termType === 'Literal') {
      const datatype = object.datatype.value;
      const attribute = object.language
        ? ` xml:lang="${escapeAttribute(object.language)}"`
        : datatype === XSD_STRING || datatype === LANG_STRING
          ? ''
          : ` rdf:datatype="${escapeAttribute(datatype)}"`;
      entry.lines.push(`    <${name}${attribute}>${escapeText(object.value)}</${name}>`);
    } else {
      entry.lines.push(`    <${name} ${nodeAttribute(object, 'resource')}/>`);
    }
  }

  const body: string[] = [];
  for (const { subject, lines } of bySubject.values()) {
    body.push(`  <rdf:Description ${nodeAttribute(subject, 'about')}>`, ...lines, '  </rdf:Description>');
  }
  const xmlns = [...declared].map((ns) => `xmlns:${namespaces.get(ns) ?? ''}="${escapeAttribute(ns)}"`).join(' ');
  return ['<?xml version="1.0" encoding="utf-8"?>', `<rdf:RDF ${xmlns}>`, ...body, '</rdf:RDF>', ''].join('\n');
}
