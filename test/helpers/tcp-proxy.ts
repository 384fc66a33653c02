/**
 * A TCP proxy (node:net) in front of a real server that a test can hang the way a hung Virtuoso does: it keeps
 * accepting connections but answers nothing, and the connections already open freeze too (bytes either way are
 * held, not passed on). `release()` passes everything held on, in order, and forwards again, as a server that
 * comes back from a long stall would answer what it was sent.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface HangingProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Stops passing bytes on (both ways, old and new connections); new connections are still accepted. */
  hang(): void;
  /** Passes on what was held and forwards again. */
  release(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

/** One client connection and its connection to the server, with the bytes held while the proxy hangs. */
interface Link {
  client: Socket;
  upstream: Socket | undefined;
  toServer: Buffer[];
  toClient: Buffer[];
}

/** A proxy on a free port of 127.0.0.1 that forwards to `targetPort` on 127.0.0.1 until told to hang. */
export async function startHangingProxy(targetPort: number): Promise<HangingProxy> {
  let hung = false;
  let accepted = 0;
  const links = new Set<Link>();

  const drop = (link: Link): void => {
    links.delete(link);
    link.client.destroy();
    link.upstream?.destroy();
  };
  const flush = (link: Link): void => {
    if (hung || link.upstream === undefined) return;
    for (const chunk of link.toServer.splice(0)) link.upstream.write(chunk);
    for (const chunk of link.toClient.splice(0)) link.client.write(chunk);
  };
  const openUpstream = (link: Link): void => {
    // A connection accepted while hanging reaches the server only once released, as with a stalled accept loop.
    const upstream = connect(targetPort, '127.0.0.1');
    link.upstream = upstream;
    upstream.on('data', (chunk: Buffer) => {
      if (hung) link.toClient.push(chunk);
      else link.client.write(chunk);
    });
    upstream.on('error', () => drop(link));
    upstream.on('close', () => drop(link));
    upstream.on('connect', () => flush(link));
  };

  const server: Server = createServer((client) => {
    accepted++;
    const link: Link = { client, upstream: undefined, toServer: [], toClient: [] };
    links.add(link);
    client.on('data', (chunk: Buffer) => {
      if (hung || link.upstream === undefined || link.upstream.connecting) link.toServer.push(chunk);
      else link.upstream.write(chunk);
    });
    client.on('error', () => drop(link));
    client.on('close', () => drop(link));
    if (!hung) openUpstream(link);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted;
    },
    hang() {
      hung = true;
    },
    release() {
      hung = false;
      for (const link of links) {
        if (link.upstream === undefined) openUpstream(link);
        else if (!link.upstream.connecting) flush(link);
      }
    },
    async close() {
      for (const link of [...links]) drop(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
