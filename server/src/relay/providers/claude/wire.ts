import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { ClaudeResponse } from '../../formats/claude/types.js';
import { readUsage } from '../../formats/openai/usage.js';
import type { Attempt, ChunkDecoder, Usage, WireCodec } from '../../types.js';
import { parseClaudeError } from './errors.js';
import { chatToClaudeRequest } from './request.js';
import { claudeToChatCompletion } from './response.js';
import { ClaudeStreamToChat } from './stream.js';
import { SseReader, type SseEvent } from '../../formats/claude/sse.js';
import { jsonToolOf, unwrapJsonTool } from './structured-output.js';
import { checkCanonical } from '../field-policy.js';
import { CLAUDE_FIELDS } from './fields.js';

/** Claude's Messages body as a wire (Anthropic, and the Claude models on Bedrock and Vertex). */

class ClaudeChunkDecoder implements ChunkDecoder {
  private readonly reader = new SseReader();
  private readonly toChat: ClaudeStreamToChat;

  /** jsonTool: the tool that carries a response format, whose input streams as the answer's text. */
  constructor(jsonTool: string | null) {
    this.toChat = new ClaudeStreamToChat(undefined, jsonTool);
  }

  get failure() {
    return this.toChat.error;
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.convert(this.reader.push(chunk));
  }

  finish(): ChatChunk[] {
    return this.convert(this.reader.finish());
  }

  private convert(events: SseEvent[]): ChatChunk[] {
    const out: ChatChunk[] = [];
    for (const e of events) for (const c of this.toChat.pushRaw(e)) out.push(c);
    return out;
  }

  partialUsage(): Usage | null {
    return readUsage(this.toChat.usage());
  }
}

export const claudeWire: WireCodec = {
  format: 'claude',
  encode(canonical: Record<string, unknown>, up: Attempt, withheld) {
    checkCanonical(canonical as ChatRequest, CLAUDE_FIELDS, up.dropped);
    const out = chatToClaudeRequest(canonical as ChatRequest, up.upstreamModel, {
      defaultMaxTokens: up.options.get('claude.default_max_tokens'),
      dropped: up.dropped,
      ...(withheld?.has('claude.output_format') ? { outputFormat: false } : {}),
    }) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer, up) {
    const answer = claudeToChatCompletion(JSON.parse(body.toString('utf8')) as ClaudeResponse);
    const jsonTool = jsonToolOf(up.converted);
    return (jsonTool ? unwrapJsonTool(answer, jsonTool) : answer) as unknown as Record<string, unknown>;
  },
  streamDecoder: (up) => new ClaudeChunkDecoder(jsonToolOf(up.converted)),
  parseError: parseClaudeError,
};
