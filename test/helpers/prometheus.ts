/** Reading samples out of a Prometheus text exposition, for tests of /metrics. */

/** The value of the sample `name{labels}` (labels in any order, all must match exactly), or undefined. */
export function sampleValue(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      found[pair[1] ?? ''] = (pair[2] ?? '').replace(/\\(.)/g, '$1');
    }
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}
