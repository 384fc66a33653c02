/** The form of a SPARQL query (SELECT, CONSTRUCT, DESCRIBE, ASK), read past its prologue without a full parse. */

export type QueryForm = 'select' | 'construct' | 'describe' | 'ask';

// Comments, BASE and PREFIX declarations; IRIs inside them are consumed whole, so a "#" in one is no comment.
const PROLOGUE = /^(?:\s+|#[^\n]*(?:\n|$)|BASE\s*<[^>]*>|PREFIX\s+[^\s:]*:\s*<[^>]*>)*/i;
const FORM = /^(SELECT|CONSTRUCT|DESCRIBE|ASK)(?![A-Za-z0-9_])/i;

/** The query form, or undefined when the text does not start like a SPARQL query (an update, garbage). */
export function queryForm(sparql: string): QueryForm | undefined {
  const rest = sparql.slice(PROLOGUE.exec(sparql)?.[0].length ?? 0);
  return FORM.exec(rest)?.[1]?.toLowerCase() as QueryForm | undefined;
}

/** True for forms that answer with RDF (CONSTRUCT, DESCRIBE) rather than SPARQL results. */
export function answersWithRdf(form: QueryForm | undefined): boolean {
  return form === 'construct' || form === 'describe';
}
