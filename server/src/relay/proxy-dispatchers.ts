import type * as SocksModule from 'socks';
import { Agent, buildConnector, ProxyAgent, type Dispatcher } from 'undici';

/*
 * Dispatchers for channels whose upstream calls go through a proxy (`setting.proxy`). http(s) proxies use undici's
 * ProxyAgent (a CONNECT tunnel per connection, credentials in the URL sent as Proxy-Authorization). socks5 proxies
 * use an undici Agent whose connections are opened by the `socks` client, TLS then set up over the tunnel by
 * undici's own connector; undici's built-in SOCKS5 agent is still marked experimental. Both keep connections
 * alive like the direct pool, with the same timeouts.
 */

export type AgentOptions = ConstructorParameters<typeof Agent>[0] & { connect?: { timeout?: number } };

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80);

// Loaded when a SOCKS proxy first connects, not at every start of the server.
let socks: Promise<typeof SocksModule> | null = null;
const loadSocks = () => (socks ??= import('socks'));

/** Opens each connection through the SOCKS5 proxy; names are resolved by the proxy. */
function socksConnector(proxy: URL, timeoutMs: number): buildConnector.connector {
  const tlsOver = buildConnector({});
  const user = decodeURIComponent(proxy.username);
  return (opts, callback) => {
    const open = ({ SocksClient }: typeof SocksModule) =>
      SocksClient.createConnection({
        command: 'connect',
        proxy: {
          host: proxy.hostname.replace(/^\[|\]$/g, ''),
          port: Number(proxy.port) || 1080,
          type: 5,
          ...(user ? { userId: user, password: decodeURIComponent(proxy.password) } : {}),
        },
        destination: { host: opts.hostname.replace(/^\[|\]$/g, ''), port: Number(opts.port) || defaultPort(opts.protocol) },
        timeout: timeoutMs,
      });
    loadSocks()
      .then(open)
      .then(
        ({ socket }) => {
          if (opts.protocol !== 'https:') callback(null, socket);
          else tlsOver({ ...opts, httpSocket: socket } as buildConnector.Options, callback);
        },
        (err: Error) => callback(err, null),
      );
  };
}

/** A dispatcher that sends every call through the proxy at `proxyUrl` (a URL parseProxyUrl accepted). */
export function proxyDispatcher(proxyUrl: string, options: AgentOptions): Dispatcher {
  const url = new URL(proxyUrl);
  if (url.protocol === 'socks5:' || url.protocol === 'socks5h:') {
    return new Agent({ ...options, connect: socksConnector(url, options.connect?.timeout ?? 10_000) });
  }
  const { connect: _direct, ...rest } = options;
  return new ProxyAgent({ ...rest, uri: proxyUrl });
}
