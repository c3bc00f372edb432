import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';

/*
 * Upstream addresses that cannot be reached, made locally and deterministically:
 * - a closed port: connecting is refused at once (ECONNREFUSED);
 * - a black hole: a socket that listens but never accepts, its accept queue filled, so the kernel drops further SYNs
 *   and a connect hangs until the client's connect timeout (what a firewalled or dead host looks like). Non-routable
 *   addresses are not used: on some networks a transparent proxy answers them.
 */

/*
 * Closed ports are taken below the range the system hands out for port 0 (ip_local_port_range), where no test binds
 * anything but these ports: a port that was free a moment ago in that range could be handed at once to a server of
 * a test file running beside this one. Each Vitest worker (VITEST_POOL_ID) draws from a band of its own, so two files
 * running at once never pick the same one; a test may also listen on one later (a Redis brought back on its port).
 */
const BAND = 500;
const BANDS_FROM = 10_000;

function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

const bands = Math.max(1, Math.floor((ephemeralLow() - BANDS_FROM) / BAND));
const band = BANDS_FROM + (Number(process.env.VITEST_POOL_ID ?? 0) % bands) * BAND;
let next = Math.floor(Math.random() * BAND);

/** What a connection to 127.0.0.1:`port` meets: a listener, a refusal, or another error. */
export async function probePort(port: number): Promise<'open' | 'refused' | 'failed'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'failed'));
  });
}

/** A port on 127.0.0.1 that nothing listens on, and that no other test file's server can be given meanwhile. */
export async function closedPort(): Promise<number> {
  for (let tries = 0; tries < BAND; tries++) {
    const port = band + (next++ % BAND);
    if ((await probePort(port)) === 'refused') return port;
  }
  throw new Error(`no closed port left in ${band}-${band + BAND - 1}`);
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
