import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { parseJson } from '../openai/wire.js';
import { parseLibraryError } from './errors.js';
import { LIBRARY_FIELDS } from './fields.js';
import { chatToLibraryRequest } from './request.js';
import { LibraryStreamToChat, libraryToChatCompletion } from './response.js';
import type { LibraryAnswer, LibraryEvent } from './types.js';

/** AI Proxy's library ask body as a wire (knowledge-base channels, chat only). */

declare module '../../types.js' {
  interface ProviderWires {
    'aiproxy-library': true;
  }
}

/** The channel's "other" field: the id of the knowledge base asked. */
export const libraryIdOf = (up: Pick<Attempt, 'channel'>): string => up.channel.other.trim();

const LF = 0x0a;
const EMPTY = Buffer.alloc(0);

/** A `data:` line's JSON object; null for any other line (blank lines, comments, [DONE], a broken last line). */
function eventOf(line: string): LibraryEvent | null {
  if (!line.startsWith('data:')) return null;
  try {
    const parsed: unknown = JSON.parse(line.slice(5));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as LibraryEvent) : null;
  } catch {
    return null;
  }
}

/**
 * The library's stream read line by line (each `data:` line is one event, with or without a blank line after it, as
 * the established gateway reads it); only the unfinished last line is kept between chunks.
 */
export class LibraryChunkDecoder implements ChunkDecoder {
  readonly failure = null;
  private tail: Buffer = EMPTY;
  private readonly toChat: LibraryStreamToChat;

  constructor(model: string, created?: number) {
    this.toChat = new LibraryStreamToChat(model, created);
  }

  push(chunk: Buffer): ChatChunk[] {
    const buf = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    const out: ChatChunk[] = [];
    let start = 0;
    for (let end = buf.indexOf(LF, start); end >= 0; end = buf.indexOf(LF, start)) {
      const event = eventOf(buf.subarray(start, end).toString('utf8').trimEnd());
      if (event) out.push(...this.toChat.push(event));
      start = end + 1;
    }
    this.tail = start < buf.length ? Buffer.from(buf.subarray(start)) : EMPTY;
    return out;
  }

  /** A stream that ended whole: a last line without its newline, then the references if no event finished it. */
  finish(): ChatChunk[] {
    const event = eventOf(this.tail.toString('utf8').trimEnd());
    this.tail = EMPTY;
    return [...(event ? this.toChat.push(event) : []), ...this.toChat.end()];
  }
}

export const libraryWire: WireCodec = {
  format: 'aiproxy-library',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    checkCanonical(canonical as ChatRequest, LIBRARY_FIELDS, up.dropped);
    const out = chatToLibraryRequest(canonical as ChatRequest, up.upstreamModel, libraryIdOf(up), up.call.stream) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode: (body: Buffer, up: UpstreamCall) => libraryToChatCompletion(parseJson(body) as LibraryAnswer, up.call.model) as unknown as Record<string, unknown>,
  streamDecoder: (up) => new LibraryChunkDecoder(up.call.model),
  parseError: parseLibraryError,
};
