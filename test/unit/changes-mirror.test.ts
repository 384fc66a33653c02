/**
 * The promise of the change feed to a harvester: a mirror that starts at page 1 and replays every activity ends
 * with exactly the public records of the current generation, whatever sequence of loads and rollbacks made it.
 */
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { currentGeneration, generationFiles, setCurrent, type Generation } from '../../src/store/generations.js';
import { httpTestContext, ReadinessOnlyStore } from '../helpers/http-context.js';
import { adminQuads, agentGraph, agentIri, BASE, objectGraph, objectIri, tempDir, writeNQuads } from './store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

type ObjectState = 'absent' | 'public' | 'retitled' | 'private' | 'removed' | 'merged';
type AgentState = 'absent' | 'public' | 'private';
type Step = { kind: 'load'; objects: ObjectState[]; agents: AgentState[] } | { kind: 'rollback'; to: number };

const OBJECTS = 5;
const AGENTS = 2;

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('load' as const),
      objects: fc.array(fc.constantFrom<ObjectState>('absent', 'public', 'retitled', 'private', 'removed', 'merged'), { minLength: OBJECTS, maxLength: OBJECTS }),
      agents: fc.array(fc.constantFrom<AgentState>('absent', 'public', 'private'), { minLength: AGENTS, maxLength: AGENTS }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rollback' as const), to: fc.nat() }) },
);

/** The N-Quads of one load step (record graphs, then the admin graph). */
function dataset(step: Extract<Step, { kind: 'load' }>): string[] {
  const lines: string[] = [];
  const admin: string[] = [];
  step.objects.forEach((state, i) => {
    const n = i + 1;
    if (state === 'absent') return;
    lines.push(...objectGraph(n, state === 'retitled' ? `Retitled ${n}` : `Object ${n}`));
    if (state === 'private') admin.push(...adminQuads(objectIri(n), { state: 'current', private: true }));
    if (state === 'removed') admin.push(...adminQuads(objectIri(n), { state: 'removed' }));
    if (state === 'merged') admin.push(...adminQuads(objectIri(n), { state: 'merged', resolvesTo: objectIri(n === 1 ? 2 : 1) }));
  });
  step.agents.forEach((state, i) => {
    if (state === 'absent') return;
    lines.push(...agentGraph(i + 1));
    if (state === 'private') admin.push(...adminQuads(agentIri(i + 1), { state: 'current', private: true }));
  });
  return [...lines, ...admin];
}

/** Record IRIs of the public records of a load step, by the rules (the model). */
function modelPublic(step: Extract<Step, { kind: 'load' }>): string[] {
  return [
    ...step.objects.flatMap((s, i) => (s === 'public' || s === 'retitled' ? [objectIri(i + 1)] : [])),
    ...step.agents.flatMap((s, i) => (s === 'public' ? [agentIri(i + 1)] : [])),
  ].sort();
}

/** Record graphs of a generation's public file: what is really public. */
async function publicRecords(generation: Generation): Promise<string[]> {
  const text = gunzipSync(await readFile(generationFiles(generation.dir).public)).toString('utf8');
  const graphs = new Set<string>();
  for (const m of text.matchAll(/ <([^>]+\/v2\/id\/(?:object|agent|exhibition|concept)\/[^/>]+)> \.$/gm)) graphs.add(m[1] as string);
  return [...graphs].sort();
}

describe('a mirror replaying the change feed from page 1', () => {
  it('ends with exactly the public records of the current generation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 5 }), async (steps) => {
        const { dir, remove } = await tempDir('changes-mirror-');
        const dataDir = path.join(dir, 'data');
        try {
          const generations: { generation: Generation; model: string[] }[] = [];
          for (const [i, step] of steps.entries()) {
            if (step.kind === 'rollback') {
              const target = generations[step.to % Math.max(1, generations.length)];
              if (target) await setCurrent(dataDir, target.generation.id);
              if (target) generations.push(target);
              continue;
            }
            const generation = await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, `in${i}.nq`), dataset(step)), { baseUrl: BASE, kinds: KIND_NAMES });
            generations.push({ generation, model: modelPublic(step) });
          }
          const current = await currentGeneration(dataDir);
          const store = new ReadinessOnlyStore(true, current?.manifest);
          const app = createApp(httpTestContext({ DATA_DIR: dataDir, BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: '0' }, store), { changes: { pageSize: 2 } });

          const mirror = new Set<string>();
          let url: string | undefined = (await request(app).get('/v2/changes').expect(200)).body.first.id;
          while (url !== undefined) {
            const page = (await request(app).get(new URL(url).pathname).expect(200)).body as {
              next?: { id: string };
              orderedItems: { type: string; object: { id: string } }[];
            };
            for (const activity of page.orderedItems) {
              // Each activity is consistent with what the mirror holds: no Create twice, no Update or Delete of nothing.
              expect([activity.type, mirror.has(activity.object.id)]).toEqual([activity.type, activity.type !== 'Create']);
              if (activity.type === 'Delete') mirror.delete(activity.object.id);
              else mirror.add(activity.object.id);
            }
            url = page.next?.id;
          }
          const expected = current ? await publicRecords(current) : [];
          expect([...mirror].sort()).toEqual(expected);
          expect(expected).toEqual(generations.at(-1)?.model ?? []);
        } finally {
          await remove();
        }
      }),
      { numRuns: 12 },
    );
  }, 60_000);
});
