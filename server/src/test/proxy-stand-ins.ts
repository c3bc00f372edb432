import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/* Local stand-ins for a channel's outbound proxy: an HTTP CONNECT proxy and a SOCKS5 server, each recording targets. */

export interface SeenTunnel {
  target: string;
  auth?: string;
}

const listening = async (server: net.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** Joins two sockets both ways; either side's end or error ends the other. */
function splice(a: net.Socket, b: net.Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
}

/** An HTTP proxy that only tunnels (CONNECT), and only to loopback. */
export async function startConnectProxy() {
  const seen: SeenTunnel[] = [];
  const tunnels = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.add(client);
    client.on('close', () => tunnels.delete(client));
    const target = req.url ?? '';
    seen.push({ target, auth: req.headers['proxy-authorization'] });
    const at = target.lastIndexOf(':');
    const host = target.slice(0, at);
    if (host !== '127.0.0.1') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(target.slice(at + 1)), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      splice(client, upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  const port = await listening(server);
  /** Ends the open tunnels, so the next call must open (and be seen opening) another. */
  const dropTunnels = async () => {
    for (const s of tunnels) s.destroy();
    await new Promise((r) => setTimeout(r, 50));
  };
  const close = () =>
    new Promise<void>((r) => {
      for (const s of tunnels) s.destroy();
      server.close(() => r());
    });
  return { url: `http://127.0.0.1:${port}`, port, seen, dropTunnels, close };
}

export type ConnectProxy = Awaited<ReturnType<typeof startConnectProxy>>;

/** A SOCKS5 server (no authentication, CONNECT only, loopback targets only). */
export async function startSocksProxy() {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    client.once('data', () => {
      client.write(Buffer.from([5, 0]));
      client.once('data', (req: Buffer) => {
        const type = req[3];
        let host: string;
        let offset: number;
        if (type === 1) {
          host = [...req.subarray(4, 8)].join('.');
          offset = 8;
        } else if (type === 3) {
          host = req.subarray(5, 5 + req[4]).toString('utf8');
          offset = 5 + req[4];
        } else {
          client.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
          return;
        }
        const port = req.readUInt16BE(offset);
        seen.push(`${host}:${port}`);
        if (host !== '127.0.0.1' && host !== 'localhost') {
          client.end(Buffer.from([5, 2, 0, 1, 0, 0, 0, 0, 0, 0]));
          return;
        }
        const upstream = net.connect(port, '127.0.0.1', () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          splice(client, upstream);
        });
        upstream.on('error', () => client.destroy());
      });
    });
  });
  const port = await listening(server);
  return {
    url: `socks5://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
