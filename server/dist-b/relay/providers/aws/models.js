/*
 * Anthropic model names as Amazon Bedrock model ids, and the cross-Region inference profile prefix for the models
 * Bedrock serves only through inference profiles ("Invocation of model ID … with on-demand throughput isn't
 * supported"). Sources: Bedrock's "Supported Regions and models for inference profiles" and Anthropic's
 * "Claude on Amazon Bedrock" model table. Adding a model is adding a line here.
 */
const BEDROCK_MODELS = {
    'claude-instant-1.2': { id: 'anthropic.claude-instant-v1' },
    'claude-2.0': { id: 'anthropic.claude-v2' },
    'claude-2.1': { id: 'anthropic.claude-v2:1' },
    'claude-3-haiku-20240307': { id: 'anthropic.claude-3-haiku-20240307-v1:0' },
    'claude-3-sonnet-20240229': { id: 'anthropic.claude-3-sonnet-20240229-v1:0' },
    'claude-3-opus-20240229': { id: 'anthropic.claude-3-opus-20240229-v1:0' },
    'claude-3-5-sonnet-20240620': { id: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
    'claude-3-5-sonnet-20241022': { id: 'anthropic.claude-3-5-sonnet-20241022-v2:0' },
    'claude-3-5-haiku-20241022': { id: 'anthropic.claude-3-5-haiku-20241022-v1:0' },
    'claude-3-7-sonnet-20250219': { id: 'anthropic.claude-3-7-sonnet-20250219-v1:0', profiles: ['us', 'eu', 'apac', 'us-gov'] },
    'claude-sonnet-4-20250514': { id: 'anthropic.claude-sonnet-4-20250514-v1:0', profiles: ['us', 'eu', 'apac', 'global'] },
    'claude-opus-4-20250514': { id: 'anthropic.claude-opus-4-20250514-v1:0', profiles: ['us'] },
    'claude-opus-4-1-20250805': { id: 'anthropic.claude-opus-4-1-20250805-v1:0', profiles: ['us'] },
    'claude-sonnet-4-5-20250929': { id: 'anthropic.claude-sonnet-4-5-20250929-v1:0', profiles: ['us', 'eu', 'jp', 'au', 'us-gov', 'global'] },
    'claude-haiku-4-5-20251001': { id: 'anthropic.claude-haiku-4-5-20251001-v1:0', profiles: ['us', 'eu', 'jp', 'au', 'global'] },
    'claude-opus-4-5-20251101': { id: 'anthropic.claude-opus-4-5-20251101-v1:0', profiles: ['us', 'eu', 'global'] },
    'claude-opus-4-6': { id: 'anthropic.claude-opus-4-6-v1', profiles: ['us', 'eu', 'jp', 'au', 'apac', 'global'] },
    'claude-sonnet-4-6': { id: 'anthropic.claude-sonnet-4-6', profiles: ['us', 'eu', 'jp', 'au', 'global'] },
};
/** Anthropic's undated aliases, as the dated model they stand for. */
const ALIASES = {
    'claude-3-5-sonnet-latest': 'claude-3-5-sonnet-20241022',
    'claude-3-5-haiku-latest': 'claude-3-5-haiku-20241022',
    'claude-3-7-sonnet-latest': 'claude-3-7-sonnet-20250219',
    'claude-3-opus-latest': 'claude-3-opus-20240229',
    'claude-sonnet-4-0': 'claude-sonnet-4-20250514',
    'claude-opus-4-0': 'claude-opus-4-20250514',
    'claude-opus-4-1': 'claude-opus-4-1-20250805',
    'claude-sonnet-4-5': 'claude-sonnet-4-5-20250929',
    'claude-haiku-4-5': 'claude-haiku-4-5-20251001',
    'claude-opus-4-5': 'claude-opus-4-5-20251101',
};
/** The profile geographies a source Region may call, nearest first. */
function geographiesOf(region) {
    if (region.startsWith('us-gov-'))
        return ['us-gov'];
    if (region.startsWith('us-'))
        return ['us'];
    if (region.startsWith('eu-'))
        return ['eu'];
    // Tokyo and Osaka have Japan-only profiles, Sydney and Melbourne Australia-only ones, for the newer models.
    if (region === 'ap-northeast-1' || region === 'ap-northeast-3')
        return ['jp', 'apac'];
    if (region === 'ap-southeast-2' || region === 'ap-southeast-4')
        return ['au', 'apac'];
    if (region.startsWith('ap-'))
        return ['apac'];
    return [];
}
/**
 * The Bedrock model id for a model name and the channel's Region. Names outside the table (ids already in Bedrock
 * form such as `anthropic.…` or `us.anthropic.…`, inference profile ARNs) are used as they are.
 */
export function bedrockModelId(model, region) {
    const entry = BEDROCK_MODELS[ALIASES[model] ?? model];
    if (!entry)
        return model;
    if (!entry.profiles)
        return entry.id;
    const geo = geographiesOf(region).find((g) => entry.profiles.includes(g)) ??
        (entry.profiles.includes('global') ? 'global' : entry.profiles[0]);
    return `${geo}.${entry.id}`;
}
/**
 * The foundation-model id (no inference-profile prefix): Bedrock's CountTokens takes only those ("The provided model
 * doesn't support counting tokens" for a profile id).
 */
export function bedrockFoundationModelId(model) {
    const entry = BEDROCK_MODELS[ALIASES[model] ?? model];
    if (entry)
        return entry.id;
    return model.replace(/^(?:us|us-gov|eu|apac|jp|au|global)\./, '');
}
//# sourceMappingURL=models.js.map