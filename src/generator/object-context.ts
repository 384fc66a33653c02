/** What building an object record (objects.ts) and its images (object-images.ts) reads of the collection planned so far. */
import type { AgentPool } from './agents.js';
import type { Thesaurus } from './concepts.js';
import type { ImagePool } from './images.js';
import type { ObjectsPlan } from './plan.js';

export interface ObjectContext {
  seed: number;
  iiifBase: string;
  thesaurus: Thesaurus;
  agents: AgentPool;
  images: ImagePool;
  plan: ObjectsPlan;
  exhibitionPids: ReadonlySet<string>;
}
