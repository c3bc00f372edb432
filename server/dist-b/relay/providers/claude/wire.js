import { readUsage } from '../../formats/openai/usage.js';
import { parseClaudeError } from './errors.js';
import { chatToClaudeRequest } from './request.js';
import { claudeToChatCompletion } from './response.js';
import { ClaudeSseSplitter, ClaudeStreamToChat } from './stream.js';
import { jsonToolOf, unwrapJsonTool } from './structured-output.js';
import { checkCanonical } from '../field-policy.js';
import { CLAUDE_FIELDS } from './fields.js';
/** Claude's Messages body as a wire (Anthropic, and the Claude models on Bedrock and Vertex). */
class ClaudeChunkDecoder {
    splitter = new ClaudeSseSplitter();
    toChat;
    /** jsonTool: the tool that carries a response format, whose input streams as the answer's text. */
    constructor(jsonTool) {
        this.toChat = new ClaudeStreamToChat(undefined, jsonTool);
    }
    get failure() {
        return this.toChat.error;
    }
    push(chunk) {
        return this.splitter.push(chunk).flatMap((e) => this.toChat.push(e.event, e.data));
    }
    finish() {
        return this.splitter.finish().flatMap((e) => this.toChat.push(e.event, e.data));
    }
    partialUsage() {
        return readUsage(this.toChat.usage());
    }
}
export const claudeWire = {
    format: 'claude',
    encode(canonical, up, withheld) {
        checkCanonical(canonical, CLAUDE_FIELDS);
        const out = chatToClaudeRequest(canonical, up.upstreamModel, {
            defaultMaxTokens: up.options.get('claude.default_max_tokens'),
            ...(withheld?.has('claude.output_format') ? { outputFormat: false } : {}),
        });
        return Object.assign(out, up.channel.paramOverride);
    },
    decode(body, up) {
        const answer = claudeToChatCompletion(JSON.parse(body.toString('utf8')));
        const jsonTool = jsonToolOf(up.converted);
        return (jsonTool ? unwrapJsonTool(answer, jsonTool) : answer);
    },
    streamDecoder: (up) => new ClaudeChunkDecoder(jsonToolOf(up.converted)),
    parseError: parseClaudeError,
};
//# sourceMappingURL=wire.js.map