/**
 * `npm run generate -- --objects N --seed S --out DIR [--iiif-base URL]`: writes a deterministic demo source
 * export (objects, agents, exhibitions, concepts .jsonl) and images.jsonl for the demo IIIF server.
 */
import { parseArgs } from 'node:util';
import { collectionSizes, streamCollection } from '../generator/collection.js';
import { writeCollection } from '../generator/write.js';

const USAGE = 'usage: npm run generate -- --objects N --seed S --out DIR [--iiif-base URL]';

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Parses the command line, writes the collection and reports what it wrote; exits non-zero on any error. */
function main(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: {
      objects: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      'iiif-base': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.out) throw new Error(`--out DIR is required\n${USAGE}`);
  const objects = integer('objects', values.objects, 1000);
  const seed = integer('seed', values.seed, 1);
  const iiifBase = (values['iiif-base'] ?? 'http://localhost:3000').replace(/\/+$/, '');
  const started = performance.now();
  const counts = writeCollection(values.out, streamCollection({ objects, seed, iiifBase }));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (counts.objects !== collectionSizes(objects).objects) throw new Error('object count differs from the plan');
  console.log(
    `wrote ${counts.objects} objects, ${counts.agents} agents, ${counts.exhibitions} exhibitions, ${counts.concepts} concepts and ${counts.images} images to ${values.out} in ${seconds} s`,
  );
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
