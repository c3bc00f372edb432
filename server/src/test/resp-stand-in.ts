import net from 'node:net';
import { once } from 'node:events';

/*
 * A Redis the test scripts connection by connection, for the moments a real one cannot be made to hit on demand
 * (a connection that answers its handshake and then goes quiet). It reads RESP arrays of bulk strings, as clients
 * send commands, and answers what ioredis asks while connecting (CLIENT, INFO, PING) and SUBSCRIBE; a connection
 * told to stay quiet reads and records every command and answers none after its handshake.
 */

export interface RespConnection {
  readonly socket: net.Socket;
  readonly commands: string[][];
}

export class RespStandIn {
  readonly connections: RespConnection[] = [];
  /** Connections opened from now on answer their handshake (CLIENT, INFO) and nothing else. */
  quiet = false;

  private constructor(private readonly server: net.Server) {}

  static async start(): Promise<RespStandIn> {
    const server = net.createServer();
    const standIn = new RespStandIn(server);
    server.on('connection', (socket) => standIn.accept(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return standIn;
  }

  get url(): string {
    return `redis://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** Resolves once some connection has received a command named `name` (lower case) that `matches`. */
  async waitFor(name: string, matches: (conn: RespConnection) => boolean = () => true): Promise<RespConnection> {
    for (let i = 0; i < 500; i++) {
      const conn = this.connections.find((c) => matches(c) && c.commands.some((cmd) => cmd[0] === name));
      if (conn) return conn;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${name} received`);
  }

  /** Ends every open connection from the server's side. */
  dropAll(): void {
    for (const c of this.connections) c.socket.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    const conn: RespConnection = { socket, commands: [] };
    const quiet = this.quiet;
    this.connections.push(conn);
    let buffered = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const parsed = readCommand(buffered);
        if (!parsed) return;
        buffered = buffered.slice(parsed.length);
        const command = parsed.args;
        command[0] = command[0].toLowerCase();
        conn.commands.push(command);
        const answer = answerTo(command, quiet);
        if (answer !== null) socket.write(answer);
      }
    });
  }
}

function answerTo(command: string[], quiet: boolean): string | null {
  const [name] = command;
  if (name === 'client') return '+OK\r\n';
  if (name === 'info') return bulk('# Server\r\nloading:0\r\n');
  if (quiet) return null;
  if (name === 'ping') return '+PONG\r\n';
  if (name === 'subscribe') return command.slice(1).map((channel, i) => `*3\r\n${bulk('subscribe')}${bulk(channel)}:${i + 1}\r\n`).join('');
  if (name === 'publish') return ':0\r\n';
  return '+OK\r\n';
}

const bulk = (s: string): string => `$${Buffer.byteLength(s, 'latin1')}\r\n${s}\r\n`;

/** One RESP array of bulk strings from the start of `input`, or null while it is incomplete. */
function readCommand(input: string): { args: string[]; length: number } | null {
  if (input === '') return null;
  if (!input.startsWith('*')) throw new Error(`unexpected RESP: ${JSON.stringify(input.slice(0, 20))}`);
  let at = input.indexOf('\r\n');
  if (at < 0) return null;
  const count = Number(input.slice(1, at));
  at += 2;
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    const end = input.indexOf('\r\n', at);
    if (end < 0) return null;
    const size = Number(input.slice(at + 1, end));
    const start = end + 2;
    if (input.length < start + size + 2) return null;
    args.push(input.slice(start, start + size));
    at = start + size + 2;
  }
  return { args, length: at };
}
