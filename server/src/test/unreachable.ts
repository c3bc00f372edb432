import { spawn } from 'node:child_process';
import net from 'node:net';

/*
 * Upstream addresses that cannot be reached, made locally and deterministically:
 * - a closed port: connecting is refused at once (ECONNREFUSED);
 * - a black hole: a socket that listens but never accepts, its accept queue filled, so the kernel drops further SYNs
 *   and a connect hangs until the client's connect timeout (what a firewalled or dead host looks like). Non-routable
 *   addresses are not used: on some networks a transparent proxy answers them.
 */

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface BlackHole {
  url: string;
  close(): Promise<void>;
}

/**
 * A listening socket whose process never accepts: a child Node process listens with a backlog of 1 and then blocks
 * its event loop for good; two connections fill the accept queue, after which every SYN is dropped.
 */
export async function startBlackHole(): Promise<BlackHole> {
  const script = `
    const server = require('node:net').createServer();
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      process.stdout.write(server.address().port + '\\n', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0));
    });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
  });
  // Fill the accept queue (backlog + 1 on Linux); these connections complete and are never accepted.
  const fillers: net.Socket[] = [];
  for (let i = 0; i < 3; i++) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    fillers.push(socket);
  }
  await new Promise((r) => setTimeout(r, 100));
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
    },
  };
}
