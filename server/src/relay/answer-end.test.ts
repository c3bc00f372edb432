import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeClient } from './formats/claude/client.js';
import { openAIClient } from './formats/openai/client.js';
import { deliverJson, deliverStream, type Delivery } from './respond.js';
import type { ClientCall } from './types.js';
import type { StreamedResponse } from './upstream.js';

/*
 * Where an answer ends: the call is settled (its settlement journaled) before the bytes that let the client take the
 * answer as finished are written — OpenAI's [DONE], Claude's message_stop, a whole JSON answer — and those bytes wait
 * for the journal's write, so a process killed after the client has its whole answer never takes the charge with it.
 */

/** What reached the client, in order, with the moment the call was settled marked in it. */
function recordingClient() {
  const seen: string[] = [];
  const out = {
    writeHead: () => out,
    write: (bytes: Buffer | string) => (seen.push(bytes.toString()), true),
    end: (bytes?: Buffer | string) => {
      if (bytes !== undefined) seen.push(bytes.toString());
      seen.push('<end>');
    },
    on: () => out,
    off: () => out,
    destroy: () => undefined,
  };
  const ending = (d: Delivery) => {
    seen.push(`<settled ${d.usage.promptTokens}+${d.usage.completionTokens}>`);
    // The journal's wait: the last write goes through it.
    return (lastWrite: () => void) => {
      seen.push('<journaled>');
      lastWrite();
    };
  };
  return { out: out as unknown as ServerResponse, ending, seen };
}

/** An upstream stream that arrives in the given pieces, then ends. */
const upstream = (pieces: string[]): StreamedResponse => ({
  statusCode: 200,
  headers: {},
  consume: (onChunk) => {
    for (const p of pieces) onChunk(Buffer.from(p));
    return Promise.resolve('complete');
  },
  resume: () => undefined,
  cancel: () => undefined,
  text: () => Promise.resolve(''),
});

const call = (format: 'openai' | 'claude', stream: boolean): ClientCall => ({ format, mode: 'chat', model: 'gpt-4o', stream, json: {}, clientWantsStreamUsage: true, maxTokens: 0 });
const notGone = () => false;
const notStopped = () => null;

describe('the end of an answer', () => {
  it("writes an OpenAI stream's [DONE] only after the call is settled, whichever piece it came in", async () => {
    const delta = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    const usage = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\n`;
    for (const pieces of [[delta('Hi'), delta(' there'), usage, 'data: [DONE]\n\n'], [delta('Hi') + delta(' there') + usage + 'data: [DONE]\n\n']]) {
      const client = recordingClient();
      const c = call('openai', true);
      await deliverStream(c, upstream(pieces), client.out, client.ending, notGone, notStopped, openAIClient.streamMeter(c));
      const text = client.seen.join('');
      expect(text.indexOf('<settled 3+2>')).toBeGreaterThan(text.indexOf(usage));
      expect(text.endsWith('<settled 3+2><journaled>data: [DONE]\n\n<end>')).toBe(true);
      expect(text.match(/\[DONE\]/g)).toHaveLength(1);
    }
  });

  it("writes a Claude stream's message_stop only after the call is settled", async () => {
    const stream = readFileSync(new URL('../test/fixtures/claude/messages/default.sse', import.meta.url), 'utf8').replaceAll('{{model}}', 'claude-haiku-4-5').replace(/\n*$/, '\n\n');
    const client = recordingClient();
    const c = call('claude', true);
    const stop = stream.indexOf('event: message_stop');
    await deliverStream(c, upstream([stream.slice(0, stop), stream.slice(stop)]), client.out, client.ending, notGone, notStopped, claudeClient.streamMeter(c));
    const text = client.seen.join('');
    expect(text.indexOf('<settled 21+9>')).toBeGreaterThan(0);
    expect(text.indexOf('<journaled>')).toBeLessThan(text.indexOf('event: message_stop'));
    expect(text.replace('<settled 21+9>', '').replace('<journaled>', '').replace('<end>', '')).toBe(stream);
  });

  it('writes a whole JSON answer only after the call is settled', () => {
    const client = recordingClient();
    const body = Buffer.from(JSON.stringify({ id: 'c', object: 'chat.completion', choices: [], usage: { prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 } }));
    deliverJson(call('openai', false), { statusCode: 200, headers: {}, body }, client.out, client.ending, { usage: (b) => openAIClient.usageFromJson(b, call('openai', false)) });
    expect(client.seen).toEqual(['<settled 4+1>', '<journaled>', body.toString(), '<end>']);
  });
});
