/** Buffers N-Quads text for one output stream and writes it in large chunks, honouring back-pressure. */
import { once } from 'node:events';

const CHUNK_CHARS = 1 << 16;

export class QuadSink {
  private buffer = '';
  private count = 0;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  /** Number of quads accepted so far. */
  get quads(): number {
    return this.count;
  }

  /** Queues `quads` lines of text; waits for 'drain' when the stream asks for it. */
  async write(text: string, quads: number): Promise<void> {
    if (quads === 0) return;
    this.buffer += text;
    this.count += quads;
    if (this.buffer.length >= CHUNK_CHARS) await this.flush();
  }

  /** Hands everything buffered to the stream (does not end it). */
  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
}
