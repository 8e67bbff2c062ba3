/**
 * A TCP proxy on 127.0.0.1 in front of a real PostgreSQL or Redis, for the fault tests: it can
 * lose the reply to a request that the server did receive and act on (the connection drops after
 * the server answered), refuse connections (the server unreachable), and pause every connection
 * (a network partition: nothing flows either way until it heals, then TCP delivers what waited).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The port to connect to instead of the server's. */
  readonly port: number;
  /**
   * Lose the reply to the next request: forward the next chunk a client sends, swallow what the
   * server answers, then drop that connection (after `settleMs`, so the server has finished the
   * request, committed included). With `thenRefuse`, refuse connections from then on too.
   */
  loseNextReply(options?: { readonly thenRefuse?: boolean; readonly settleMs?: number }): Promise<void>;
  /** Refuse new connections (stop listening) and drop open ones (true), or accept them again on the same port (false). */
  refuse(refusing: boolean): void;
  /** Stop every byte in both directions on open and new connections (a partition), or let them flow again. */
  pause(paused: boolean): void;
  /** Replies lost so far. */
  readonly lostReplies: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; server: Socket }>();
  let refusing = false;
  let paused = false;
  let lostReplies = 0;
  let armed: { thenRefuse: boolean; settleMs: number; done: () => void } | undefined;

  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    const pair = { client, server: upstream };
    pairs.add(pair);
    let losing: typeof armed;
    let dropping = false;
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk) => {
      if (armed && !losing) {
        losing = armed;
        armed = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!losing) {
        client.write(chunk);
        return;
      }
      // The server answered: swallow it, and drop the connection once the request has settled.
      if (dropping) return;
      dropping = true;
      lostReplies += 1;
      const lost = losing;
      setTimeout(() => {
        if (lost.thenRefuse) proxy.refuse(true);
        end();
        lost.done();
      }, lost.settleMs);
    });
    if (paused) {
      client.pause();
      upstream.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');

  const proxy: TcpProxy = {
    port: address.port,
    loseNextReply(options = {}) {
      return new Promise<void>((resolve) => {
        armed = { thenRefuse: options.thenRefuse ?? false, settleMs: options.settleMs ?? 100, done: resolve };
      });
    },
    refuse(next) {
      if (next === refusing) return;
      refusing = next;
      if (next) {
        // Stop listening, so that a connection is refused (ECONNREFUSED) as by a server that is down.
        server.close();
        for (const pair of pairs) {
          pair.client.destroy();
          pair.server.destroy();
        }
      } else {
        server.listen(address.port, '127.0.0.1');
      }
    },
    pause(next) {
      paused = next;
      for (const { client, server: upstream } of pairs) {
        if (next) {
          client.pause();
          upstream.pause();
        } else {
          client.resume();
          upstream.resume();
        }
      }
    },
    get lostReplies() {
      return lostReplies;
    },
    async close() {
      const listening = server.listening;
      proxy.refuse(true);
      if (listening) await new Promise<void>((resolve) => server.once('close', () => resolve()));
    },
  };
  return proxy;
}
