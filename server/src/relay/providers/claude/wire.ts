import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { ClaudeResponse } from '../../formats/claude/types.js';
import { readUsage } from '../../formats/openai/usage.js';
import type { Attempt, ChunkDecoder, Usage, WireCodec } from '../../types.js';
import { parseClaudeError } from './errors.js';
import { chatToClaudeRequest } from './request.js';
import { claudeToChatCompletion } from './response.js';
import { ClaudeSseSplitter, ClaudeStreamToChat } from './stream.js';

/** Claude's Messages body as a wire (Anthropic, and the Claude models on Bedrock and Vertex). */

class ClaudeChunkDecoder implements ChunkDecoder {
  private readonly splitter = new ClaudeSseSplitter();
  private readonly toChat = new ClaudeStreamToChat();

  get failure() {
    return this.toChat.error;
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.splitter.push(chunk).flatMap((e) => this.toChat.push(e.event, e.data));
  }

  finish(): ChatChunk[] {
    return this.splitter.finish().flatMap((e) => this.toChat.push(e.event, e.data));
  }

  partialUsage(): Usage | null {
    return readUsage(this.toChat.usage());
  }
}

export const claudeWire: WireCodec = {
  format: 'claude',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    const out = chatToClaudeRequest(canonical as ChatRequest, up.upstreamModel, {
      defaultMaxTokens: up.options.get('claude.default_max_tokens'),
    }) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer) {
    return claudeToChatCompletion(JSON.parse(body.toString('utf8')) as ClaudeResponse) as unknown as Record<string, unknown>;
  },
  streamDecoder: () => new ClaudeChunkDecoder(),
  parseError: parseClaudeError,
};
