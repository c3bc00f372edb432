import { Agent, fetch } from 'undici';

/**
 * `count` chat calls sent at once (a connection each), spread in turn over `urls` (the nodes of a deployment); each
 * answer is read whole. Resolves with the statuses, in the order sent.
 */
export async function concurrentChats(urls: readonly string[], key: string, model: string, count: number): Promise<number[]> {
  const dispatcher = new Agent({ connections: count });
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });
  try {
    return await Promise.all(
      Array.from({ length: count }, (_, i) =>
        fetch(`${urls[i % urls.length]}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
          dispatcher,
        }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
  } finally {
    await dispatcher.close();
  }
}
