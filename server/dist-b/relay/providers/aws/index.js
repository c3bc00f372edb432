import { CHANNEL_TYPE } from '@switchyard/shared';
import { parseBedrockError } from './errors.js';
import { bedrockCountRequest, buildBedrockRequest } from './request.js';
import { bedrockEventStreamToSse } from './stream.js';
/*
 * AWS Claude (channel type 33): Claude on Amazon Bedrock through InvokeModel. The body is Claude's Messages body,
 * the key `AK|SK|Region[|SessionToken]` signs each call with SigV4, and streams come back in AWS's binary event
 * stream, turned into Claude SSE before the Claude codec reads them.
 */
export const awsProvider = {
    name: 'aws',
    types: [CHANNEL_TYPE.AWS],
    supports: (mode) => mode === 'chat',
    wire: () => 'claude',
    build: (up) => buildBedrockRequest(up),
    streamAdapter: () => bedrockEventStreamToSse(),
    parseError: parseBedrockError,
    defaultTestModel: 'claude-3-haiku-20240307',
    countTokens: (up, body) => bedrockCountRequest(up, body),
};
export { bedrockModelId } from './models.js';
export { parseAwsKey } from './key.js';
export { bedrockBody, bedrockUrl, buildBedrockRequest, signBedrockRequest, BEDROCK_ANTHROPIC_VERSION } from './request.js';
export { bedrockEventStreamToSse } from './stream.js';
export { parseBedrockError } from './errors.js';
//# sourceMappingURL=index.js.map