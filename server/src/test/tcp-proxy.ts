import net from 'node:net';
import { closedPort } from './unreachable.js';

/*
 * A TCP relay in front of a real server (a database, Redis) that a test can make go away in the two ways a network
 * dependency does: `silence()` keeps every connection open and accepts new ones but passes nothing either way (a
 * paused server, a half-open connection, a partition); `close()` ends every connection and refuses new ones (a
 * crash, a restart). `restore()` passes traffic again on new connections (the silenced ones are ended: whatever they
 * were in the middle of is lost, as after a real outage).
 */

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
  live: boolean;
}

export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  private mode: 'forward' | 'silent' = 'forward';
  private server: net.Server | null = null;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    public port = 0,
  ) {}

  static async start(target: string): Promise<TcpProxy> {
    const u = new URL(target);
    // A port of its own outside the system's range for port 0: after close() it listens on it again, and a port the
    // system handed out could by then be another test file's.
    const proxy = new TcpProxy(u.hostname, Number(u.port), await closedPort());
    await proxy.listen();
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  private async listen(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  private accept(client: net.Socket): void {
    const pair: Pair = { client, upstream: null, live: this.mode === 'forward' };
    this.pairs.add(pair);
    client.on('error', () => {});
    client.on('close', () => this.end(pair));
    if (!pair.live) return;
    const upstream = net.connect(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => {});
    upstream.on('close', () => this.end(pair));
    client.on('data', (d) => pair.live && upstream.write(d));
    upstream.on('data', (d) => pair.live && client.write(d));
  }

  private end(pair: Pair): void {
    pair.client.destroy();
    pair.upstream?.destroy();
    this.pairs.delete(pair);
  }

  silence(): void {
    this.mode = 'silent';
    for (const pair of this.pairs) pair.live = false;
  }

  async close(): Promise<void> {
    this.mode = 'silent';
    const server = this.server;
    this.server = null;
    const closed = server ? new Promise((resolve) => server.close(resolve)) : null;
    for (const pair of [...this.pairs]) this.end(pair);
    await closed;
  }

  async restore(): Promise<void> {
    for (const pair of [...this.pairs]) if (!pair.live) this.end(pair);
    this.mode = 'forward';
    if (!this.server) await this.listen();
  }
}
