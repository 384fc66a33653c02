import { StoreManager } from '../src/store/store-manager.js';
import { QueryCatalogue } from '../src/queries/catalogue.js';
import { parseSelectJson } from '../src/records/sparql-json.js';
const root0 = process.env.GEN_ROOT ?? '/work/main/.cache/test-demo-1000-1/data/generations/'; const dir = root0 + (await import('node:fs')).readdirSync(root0)[0];
const store = new StoreManager({ includeNonPublic: true });
await store.start(dir);
const cat = new QueryCatalogue();
const admin = 'http://localhost:3000/graph/admin';
for (const name of process.argv.slice(2)) {
  const e = cat.get(name);
  const q = e.params.length ? cat.bind(name, { admin }) : cat.bind(name, [{}]);
  const t0 = performance.now();
  const text = await store.query(q, { format: 'application/sparql-results+json' });
  const rows = parseSelectJson(text);
  console.log(name, rows.length, (performance.now() - t0).toFixed(1), 'ms', JSON.stringify(rows.slice(0, 3)));
}
await store.close();
