/**
 * Runs the TREE community's LDES client (ldes-client, pinned in package.json) on event streams, in a process of
 * its own (its state is a LevelDB folder and its logging is process-wide): `tsx test/helpers/ldes-follow.ts
 * STATE_ROOT URL…`. Each stream is replicated in turn, its state kept in STATE_ROOT/<its position>. Prints one
 * JSON line: per URL, every member the client emitted, with the version paths it read and its statements as
 * N-Quads. Given the same STATE_ROOT again, the client emits only the members it has not emitted before.
 */
import path from 'node:path';
import { intoConfig, replicateLDES } from 'ldes-client';
import { Writer } from 'n3';

export interface FollowedMember {
  id: string;
  isVersionOf: string | undefined;
  timestamp: string | undefined;
  type: string | undefined;
  nquads: string;
}

const [stateRoot, ...urls] = process.argv.slice(2);
if (stateRoot === undefined || urls.length === 0) throw new Error('usage: ldes-follow.ts STATE_ROOT URL…');

const streams: Record<string, FollowedMember[]> = {};
for (const [i, url] of urls.entries()) {
  const client = replicateLDES(intoConfig({ url, statePath: path.join(stateRoot, String(i)) }));
  const reader = client.stream({ highWaterMark: 10 }).getReader();
  const members: FollowedMember[] = [];
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    const member = next.value;
    const writer = new Writer({ format: 'N-Quads' });
    writer.addQuads(member.quads);
    const nquads = await new Promise<string>((resolve, reject) => writer.end((err: Error | null, text: string) => (err ? reject(err) : resolve(text))));
    const timestamp = member.timestamp instanceof Date ? member.timestamp.toISOString() : member.timestamp;
    members.push({ id: member.id.value, isVersionOf: member.isVersionOf, timestamp, type: member.type?.value, nquads });
  }
  streams[url] = members;
}
// The process ends by itself once the clients have closed their state (an exit now could lose its last writes).
process.stdout.write(`${JSON.stringify({ streams })}\n`);
