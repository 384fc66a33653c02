/**
 * A SELECT of the service's own (a collection index, the stored index, a change snapshot) that asks for more
 * rows than the server delivers in one answer (Virtuoso's ResultSetMaxRows, 10,000 in Debian's virtuoso.ini),
 * read in pages instead: the query becomes a sub-select ordered by every variable it projects, and the outer
 * query takes one slice of it at a time (LIMIT and OFFSET outside). Ordering inside and slicing outside is
 * what Virtuoso needs: an ORDER BY with OFFSET + LIMIT past its MaxSortedTopRows (10,000 too) fails with SR353,
 * a slice of an ordered sub-select does not. Clients' queries (/sparql) are never paged: they get a 400 that
 * says to ask for less.
 */
import sparqljs from 'sparqljs';
import type { Ordering, SelectQuery, VariableTerm } from 'sparqljs';
import { DataFactory } from 'n3';
import { parserFor } from '../../queries/sparql-ast.js';

const generator = new sparqljs.Generator();

/** The names a SELECT projects; undefined for `SELECT *` or a query that is not a plain SELECT. */
function projected(query: SelectQuery): string[] | undefined {
  const names: string[] = [];
  for (const item of query.variables as unknown[]) {
    const v = item as { termType?: string; value?: string; variable?: VariableTerm };
    if (v.termType === 'Variable' && v.value !== undefined) names.push(v.value);
    else if (v.variable !== undefined) names.push(v.variable.value);
    else return undefined;
  }
  return names;
}

/**
 * A function from a page number (0, 1, …) to the text of that page of `text`, `pageSize` rows each; undefined
 * when the query cannot be paged (not a SELECT, `SELECT *`, or it has a LIMIT or OFFSET of its own).
 */
export function selectPages(text: string, pageSize: number, baseIri = 'urn:x-museum-ld:base'): ((page: number) => string) | undefined {
  let query: sparqljs.SparqlQuery;
  try {
    query = parserFor(baseIri).parse(text);
  } catch {
    return undefined;
  }
  if (query.type !== 'query' || query.queryType !== 'SELECT' || query.limit !== undefined || query.offset !== undefined) return undefined;
  const names = projected(query);
  if (names === undefined || names.length === 0) return undefined;
  const { prefixes, base, ...rest } = query as SelectQuery & { base?: string };
  const ties: Ordering[] = names.map((name) => ({ expression: DataFactory.variable(name) }));
  const inner = { ...rest, prefixes: {}, order: [...(query.order ?? []), ...ties] } as unknown as SelectQuery;
  return (page) =>
    generator.stringify({
      type: 'query',
      queryType: 'SELECT',
      prefixes,
      ...(base === undefined ? {} : { base }),
      variables: names.map((name) => DataFactory.variable(name)),
      where: [{ type: 'group', patterns: [inner] }],
      limit: pageSize,
      ...(page > 0 ? { offset: page * pageSize } : {}),
    } as unknown as SelectQuery);
}
