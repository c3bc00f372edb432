import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UpstreamRequest } from '../../types.js';
import type { BufferedCall, WholeAnswer } from '../../upstream.js';
import { dashScopeToEmbeddings, embeddingsToDashScope } from './embeddings.js';
import { parseDashScopeError } from './errors.js';
import { imagesToDashScope, taskToImages } from './images.js';
import { clampTopP, dashScopeUrl } from './index.js';
import { runImageTask, setTaskPolling } from './task.js';

const FIXTURES = new URL('../../../test/fixtures/dashscope/', import.meta.url);

describe('DashScope endpoints and top_p', () => {
  it('puts chat under the compatible mode and the rest under the native API, whatever root the base URL names', () => {
    for (const base of ['https://dashscope.aliyuncs.com', 'https://dashscope.aliyuncs.com/', 'https://dashscope.aliyuncs.com/compatible-mode/v1', 'https://dashscope.aliyuncs.com/api/v1/']) {
      expect(dashScopeUrl(base, 'chat')).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions');
      expect(dashScopeUrl(base, 'embeddings')).toBe('https://dashscope.aliyuncs.com/api/v1/services/embeddings/text-embedding/text-embedding');
      expect(dashScopeUrl(base, 'images')).toBe('https://dashscope.aliyuncs.com/api/v1/services/aigc/text2image/image-synthesis');
    }
  });

  it('moves top_p into (0, 1) and leaves values inside, and absent ones, alone', () => {
    expect(clampTopP(1)).toBe(0.999);
    expect(clampTopP(1.5)).toBe(0.999);
    expect(clampTopP(0)).toBe(0.001);
    expect(clampTopP(-1)).toBe(0.001);
    expect(clampTopP(0.7)).toBe(0.7);
    expect(clampTopP(undefined)).toBeUndefined();
  });
});

describe('DashScope error bodies (the stand-in’s fixtures)', () => {
  const cases: Array<[string, number, { type: string; code: string; credentials?: boolean }]> = [
    ['chat/401.json', 401, { type: 'invalid_request_error', code: 'invalid_api_key', credentials: true }],
    ['chat/429.json', 429, { type: 'limit_requests', code: 'limit_requests' }],
    ['chat/400.json', 400, { type: 'invalid_request_error', code: 'invalid_parameter_error' }],
    ['embeddings/401.json', 401, { type: 'authentication_error', code: 'InvalidApiKey', credentials: true }],
    ['embeddings/429.json', 429, { type: 'rate_limit_error', code: 'Throttling.RateQuota' }],
    ['embeddings/400.json', 400, { type: 'invalid_request_error', code: 'InvalidParameter' }],
    ['image-synthesis/sync.json', 403, { type: 'forbidden_error', code: 'AccessDenied' }],
  ];
  it.each(cases)('%s', (file, status, expected) => {
    const body = readFileSync(new URL(file, FIXTURES), 'utf8');
    const parsed = parseDashScopeError(status, body);
    expect(parsed).toMatchObject(expected);
    expect(parsed.message).toBe((JSON.parse(body) as { error?: { message: string }; message?: string }).error?.message ?? JSON.parse(body).message);
    if (!expected.credentials) expect(parsed.credentials).toBeUndefined();
  });

  it('reads an overdue account as lost credit and never echoes a body that is not JSON', () => {
    expect(parseDashScopeError(400, JSON.stringify({ code: 'Arrearage', message: 'Access denied, please make sure your account is in good standing.' })).type).toBe('insufficient_quota');
    expect(parseDashScopeError(502, '<html>bad gateway</html>')).toEqual({ message: 'bad response status code 502', type: 'api_error', code: '' });
  });
});

describe('embeddings conversion', () => {
  it('sends the texts and the dimension, and reads the vectors back in input order as floats or base64', () => {
    expect(embeddingsToDashScope({ model: 'x', input: 'one', dimensions: 512 }, 'text-embedding-v4')).toEqual({
      model: 'text-embedding-v4',
      input: { texts: ['one'] },
      parameters: { dimension: 512 },
    });
    const answer = { output: { embeddings: [{ text_index: 1, embedding: [0.5] }, { text_index: 0, embedding: [1, -2] }] }, usage: { total_tokens: 4 } };
    expect(dashScopeToEmbeddings(answer, 'm', false)).toEqual({
      object: 'list',
      model: 'm',
      data: [
        { object: 'embedding', index: 0, embedding: [1, -2] },
        { object: 'embedding', index: 1, embedding: [0.5] },
      ],
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    const b64 = dashScopeToEmbeddings(answer, 'm', true).data[0].embedding as unknown as string;
    const buf = Buffer.from(b64, 'base64');
    expect([buf.readFloatLE(0), buf.readFloatLE(4)]).toEqual([1, -2]);
    expect('usage' in dashScopeToEmbeddings({ output: answer.output }, 'm', false)).toBe(false);
  });

  it('refuses token arrays and unknown encodings', () => {
    expect(() => embeddingsToDashScope({ model: 'x', input: [[1, 2]] as unknown as string[] }, 'm')).toThrow(/token/);
    expect(() => embeddingsToDashScope({ model: 'x', input: 'a', encoding_format: 'int8' as 'float' }, 'm')).toThrow(/encoding_format/);
  });
});

describe('images conversion', () => {
  it('maps size, n and DashScope’s own fields; refuses what wanx cannot honour', () => {
    expect(imagesToDashScope({ prompt: 'p', n: 2, size: '720x1280', negative_prompt: 'blur', seed: 42, style: '<sketch>', quality: 'standard', user: 'u' }, 'wanx-v1')).toEqual({
      model: 'wanx-v1',
      input: { prompt: 'p', negative_prompt: 'blur' },
      parameters: { n: 2, size: '720*1280', seed: 42, style: '<sketch>' },
    });
    for (const bad of [{ style: 'vivid' }, { quality: 'hd' }, { n: 5 }, { size: 'big' }, { response_format: 'png' }, { output_compression: 50 }, { prompt: '' }]) {
      expect(() => imagesToDashScope({ prompt: 'p', ...bad }, 'wanx-v1')).toThrow();
    }
  });

  it('answers only the results that carry an image, with the revised prompt', () => {
    const task = { output: { task_status: 'SUCCEEDED' as const, results: [{ url: 'u1', actual_prompt: 'p!' }, { code: 'DataInspectionFailed', message: 'm' }, { url: 'u3', b64_json: 'QUJD' }] } };
    expect(taskToImages(task, 'url', 7)).toEqual({ created: 7, data: [{ url: 'u1', revised_prompt: 'p!' }, { url: 'u3' }] });
    expect(taskToImages(task, 'b64_json', 7)).toEqual({ created: 7, data: [{ b64_json: 'QUJD' }] });
  });
});

describe('the image task runner', () => {
  const json = (body: unknown, status = 200): WholeAnswer => ({ statusCode: status, headers: {}, body: Buffer.from(JSON.stringify(body)) });

  /** A client answering from a script; each call is recorded. */
  function scripted(answers: Array<WholeAnswer | 'hang'>) {
    const sent: UpstreamRequest[] = [];
    let cancelled = 0;
    const client = {
      fetch(req: UpstreamRequest): BufferedCall {
        sent.push(req);
        const next = answers.shift() ?? 'hang';
        return { answer: next === 'hang' ? new Promise<WholeAnswer>(() => undefined) : Promise.resolve(next), cancel: () => void cancelled++ };
      },
    };
    return { client, sent, cancelled: () => cancelled };
  }

  const task = { submit: { url: 'http://d/submit', method: 'POST' as const, headers: {} }, taskRequest: (id: string) => ({ url: `http://d/tasks/${id}`, method: 'GET' as const, headers: {} }), format: 'url' as const };

  it('stops polling, and the call under way, when cancelled', async () => {
    setTaskPolling({ firstMs: 1, intervalMs: 1, timeoutMs: 10_000 });
    try {
      const running = json({ output: { task_id: 't1', task_status: 'RUNNING' } });
      const s = scripted([json({ output: { task_id: 't1', task_status: 'PENDING' } }), running, running, 'hang']);
      const call = runImageTask(task, s.client);
      const outcome = call.answer.then(
        () => 'answered',
        () => 'rejected',
      );
      while (s.sent.length < 4) await new Promise((r) => setTimeout(r, 2));
      call.cancel();
      expect(await outcome).toBe('rejected');
      expect(s.cancelled()).toBe(1);
      await new Promise((r) => setTimeout(r, 20));
      expect(s.sent.map((r) => r.url)).toEqual(['http://d/submit', 'http://d/tasks/t1', 'http://d/tasks/t1', 'http://d/tasks/t1']);
    } finally {
      setTaskPolling();
    }
  });

  it('answers a submission without a task id as a bad upstream answer, and passes a refused submission on', async () => {
    const noId = await runImageTask(task, scripted([json({ output: {} })]).client).answer;
    expect(noId.statusCode).toBe(502);
    const refused = await runImageTask(task, scripted([json({ code: 'InvalidApiKey', message: 'no' }, 401)]).client).answer;
    expect(refused.statusCode).toBe(401);
  });

  it('never polls at a task id that would step out of the tasks path', async () => {
    for (const id of ['..', '.']) {
      const s = scripted([json({ output: { task_id: id, task_status: 'PENDING' } })]);
      const answer = await runImageTask(task, s.client).answer;
      expect(answer.statusCode, id).toBe(502);
      expect(JSON.parse(answer.body.toString('utf8')), id).toMatchObject({ code: 'InvalidResponse' });
      expect(s.sent.map((r) => r.url), id).toEqual(['http://d/submit']);
    }
  });
});
