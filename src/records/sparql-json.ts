/** Reading SPARQL 1.1 JSON results into plain rows of term values. */

interface JsonTerm {
  type: 'uri' | 'literal' | 'bnode' | 'typed-literal';
  value: string;
}
interface JsonResults {
  head: { vars?: string[] };
  results?: { bindings: Record<string, JsonTerm>[] };
  boolean?: boolean;
}

/** Rows of `variable → value` (the lexical value of each bound term). */
export function parseSelectJson(text: string): Record<string, string>[] {
  const parsed = JSON.parse(text) as JsonResults;
  return (parsed.results?.bindings ?? []).map((binding) => {
    const row: Record<string, string> = {};
    for (const [name, term] of Object.entries(binding)) row[name] = term.value;
    return row;
  });
}
