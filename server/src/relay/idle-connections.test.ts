import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../test/server-process.js';

/*
 * Many keep-alive connections left open by clients cost the server a few kilobytes each, not megabytes: measured on
 * the server process (its resident size from /proc), 5,000 idle connections after one call each.
 */

const CONNECTIONS = 5000;

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Opens a connection, makes one keep-alive call on it, and leaves it open. */
function idleConnection(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /api/status HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'));
    socket.once('data', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('many idle keep-alive connections', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  }, 60_000);
  afterAll(async () => {
    server.child.kill('SIGKILL');
    await server.exited;
    server.cleanup();
  });

  it(`hold ${CONNECTIONS} idle connections in little memory`, async () => {
    const port = Number(new URL(server.url).port);
    const pid = server.child.pid!;
    // Warm up: the first calls load and compile what every call needs.
    for (const s of await Promise.all(Array.from({ length: 50 }, () => idleConnection(port)))) s.destroy();
    await new Promise((r) => setTimeout(r, 500));
    const before = residentBytes(pid);
    const sockets: net.Socket[] = [];
    for (let i = 0; i < CONNECTIONS; i += 250) {
      sockets.push(...(await Promise.all(Array.from({ length: 250 }, () => idleConnection(port)))));
    }
    await new Promise((r) => setTimeout(r, 500));
    const perConnection = (residentBytes(pid) - before) / CONNECTIONS;
    console.info(`idle keep-alive connection: ${Math.round(perConnection)} bytes of the server's RSS each`);
    for (const s of sockets) s.destroy();
    expect(perConnection).toBeLessThan(16 * 1024);
  }, 120_000);
});
