/**
 * Finds environment variables that were evidently meant as settings but are not one. The environment also
 * holds the shell's, npm's and the platform's variables, so "unknown" cannot mean "not ours"; it means a
 * name that is ours in all but spelling. The rule (documented in docs/configuration.md):
 *   1. the name differs from a setting only in letter case (`port`, `Base_Url`);
 *   2. the name is within one edit of a setting of up to 8 characters, or two edits of a longer one
 *      (`BASE_URI`, `RATE_LIMIT_PER_MINUTES`, `TRUSTPROXY`);
 *   3. the name starts with a prefix that only this service uses (`RATE_LIMIT`, `SPARQL_`, `DEMO_`, `V1_`,
 *      `STORE_`) and is not a setting (`RATE_LIMIT=5`, `SPARQL_TIMEOUT=3`).
 */

/** Prefixes reserved for the service's settings (`STORE_`: the remote store's, docs/remote-store.md). */
export const RESERVED_PREFIXES = ['RATE_LIMIT', 'SPARQL_', 'DEMO_', 'V1_', 'STORE_'] as const;

/** Levenshtein distance, stopping early once it exceeds `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    prev = row;
  }
  return prev[b.length] ?? max + 1;
}

/** One problem line per variable in `names` that looks like a misspelt setting of `known`. */
export function unknownSettingProblems(names: readonly string[], known: readonly string[]): string[] {
  const knownSet = new Set(known);
  const problems: string[] = [];
  for (const name of names) {
    if (knownSet.has(name)) continue;
    const upper = name.toUpperCase();
    const near = known.find((k) => {
      const allowed = k.length <= 8 ? 1 : 2;
      return editDistance(upper, k, allowed) <= allowed;
    });
    if (near !== undefined) {
      problems.push(`${name} is not a setting (did you mean ${near}?)`);
    } else if (RESERVED_PREFIXES.some((p) => upper.startsWith(p))) {
      problems.push(`${name} is not a setting (names starting with ${RESERVED_PREFIXES.join(', ')} are reserved)`);
    }
  }
  return problems;
}
