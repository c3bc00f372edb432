import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../formats/openai/chat.js';
import type { ClaudeRequest } from '../../formats/claude/types.js';
import { chatToClaudeRequest, type ClaudeRequestOptions } from './request.js';
import { claudeHeaders, claudeUrl } from './index.js';

const dir = new URL('./fixtures/request/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const defaults: ClaudeRequestOptions = { defaultMaxTokens: { default: 8192, 'claude-3-haiku-20240307': 4096 } };

describe('ChatRequest -> Claude request', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (file) => {
    const c = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
      upstreamModel: string;
      opts?: ClaudeRequestOptions;
      input: ChatRequest;
      expected: ClaudeRequest;
    };
    expect(chatToClaudeRequest(c.input, c.upstreamModel, c.opts ?? defaults)).toEqual(c.expected);
  });
});

describe('tool_choice to Claude', () => {
  const req = (tool_choice: unknown): ChatRequest =>
    ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: {} } }], tool_choice }) as ChatRequest;
  const choiceOf = (tool_choice: unknown) => chatToClaudeRequest(req(tool_choice), 'claude-x', defaults).tool_choice;

  it('maps named modes and a named function, and `any` as compatible servers spell required', () => {
    expect(choiceOf('required')).toEqual({ type: 'any' });
    expect(choiceOf('any')).toEqual({ type: 'any' });
    expect(choiceOf({ type: 'function', function: { name: 'f' } })).toEqual({ type: 'tool', name: 'f' });
  });

  it('refuses a choice Claude has no form for with a 400 rather than failing on it', () => {
    for (const choice of [{ type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } }, { type: 'custom', custom: { name: 'f' } }, 'sometimes']) {
      expect(() => choiceOf(choice)).toThrow(expect.objectContaining({ status: 400, code: 'unsupported_tool_choice' }) as Error);
    }
  });
});

describe('thinking in a tool loop', () => {
  const tools: ChatRequest['tools'] = [{ type: 'function', function: { name: 'read', parameters: { type: 'object', properties: {} } } }];
  const ask = { role: 'user' as const, content: 'read a.txt' };
  const called = { role: 'assistant' as const, content: null, tool_calls: [{ id: 't1', type: 'function' as const, function: { name: 'read', arguments: '{}' } }] };
  const result = { role: 'tool' as const, tool_call_id: 't1', content: 'hello' };

  it('thinks on a turn that starts a conversation or follows a text answer', () => {
    const opened = chatToClaudeRequest({ model: 'm', messages: [ask], tools, reasoning_effort: 'medium' }, 'claude-sonnet-4-5', defaults);
    expect(opened.thinking).toEqual({ type: 'enabled', budget_tokens: 6553 });
    const afterText = [ask, called, result, { role: 'assistant' as const, content: 'It says hello.' }, { role: 'user' as const, content: 'thanks' }];
    expect(chatToClaudeRequest({ model: 'm', messages: afterText, tools, reasoning_effort: 'medium' }, 'claude-sonnet-4-5', defaults).thinking).toBeDefined();
  });

  it('does not think when the turn goes on from tool results whose call carries no signed thinking, and names the effort as dropped', () => {
    // Claude refuses such a request: "a final assistant message must start with a thinking block".
    const dropped: string[] = [];
    const out = chatToClaudeRequest({ model: 'm', messages: [ask, called, result], tools, reasoning_effort: 'high', temperature: 0.2 }, 'claude-sonnet-4-5', { ...defaults, dropped });
    expect(out).not.toHaveProperty('thinking');
    expect(out.temperature).toBe(0.2);
    expect(dropped).toEqual(['reasoning_effort']);
  });

  it('sends the signed thinking back as the first block of its turn and keeps thinking on in the loop', () => {
    const signed = { ...called, reasoning_content: 'I should read it.', reasoning_signature: 'EqQBsig==' };
    const dropped: string[] = [];
    const out = chatToClaudeRequest({ model: 'm', messages: [ask, signed, result], tools, reasoning_effort: 'medium' }, 'claude-sonnet-4-5', { ...defaults, dropped });
    expect(out.thinking).toEqual({ type: 'enabled', budget_tokens: 6553 });
    expect(out.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'I should read it.', signature: 'EqQBsig==' },
      { type: 'tool_use', id: 't1', name: 'read', input: {} },
    ]);
    expect(dropped).toEqual([]);
  });

  it('leaves thinking without a signature out of the history', () => {
    const unsigned = { ...called, reasoning_content: 'I should read it.' };
    const out = chatToClaudeRequest({ model: 'm', messages: [ask, unsigned, result], tools }, 'claude-sonnet-4-5', defaults);
    expect(out.messages[1].content).toEqual([{ type: 'tool_use', id: 't1', name: 'read', input: {} }]);
  });
});

describe('Claude endpoint and headers', () => {
  it('adds /v1/messages once', () => {
    expect(claudeUrl('https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/messages');
    expect(claudeUrl('https://proxy.example/v1/')).toBe('https://proxy.example/v1/messages');
  });

  it('sends the key as x-api-key and keeps the client anthropic-version', () => {
    expect(claudeHeaders('sk-ant')).toEqual({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(claudeHeaders('sk-ant', '2024-01-01')['anthropic-version']).toBe('2024-01-01');
  });
});
