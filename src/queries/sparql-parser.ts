/**
 * sparqljs parsers, one per base IRI: a parser resets its prefixes and blank nodes at every parse, so one
 * serves every request (the SPARQL endpoint's policy and the remote store's rewrite both parse).
 */
import sparqljs from 'sparqljs';

const parsers = new Map<string, sparqljs.SparqlParser>();

/** The parser that resolves relative IRIs against `baseIri`. */
export function parserFor(baseIri: string): sparqljs.SparqlParser {
  let parser = parsers.get(baseIri);
  if (!parser) {
    parser = new sparqljs.Parser({ baseIRI: baseIri });
    parsers.set(baseIri, parser);
  }
  return parser;
}
