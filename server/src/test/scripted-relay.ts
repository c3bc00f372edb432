import type { TestDatabase } from './databases.js';
import { setPrices } from './billing.js';
import { startRelay, type RelayFixture } from './relay-fixture.js';
import { startScriptedUpstream, type ScriptedUpstream } from './mocks/scripted.js';

/*
 * A relay with one scripted upstream per wire family (Claude, Gemini, OpenAI), each behind a channel of its type, for
 * the suites that check what a converted request looks like upstream and what a scripted answer looks like to the
 * client. Models are named for their channel.
 */

export const SCRIPTED_MODELS = {
  /** A Claude model with structured outputs (output_config.format). */
  claude: 'claude-sonnet-4-5',
  /** A Claude model without them (a forced tool carries the schema). */
  claudeOld: 'claude-3-5-haiku-20241022',
  gemini: 'gemini-2.5-flash',
  gpt: 'gpt-4o-mini',
  /** An OpenAI reasoning model (max_completion_tokens, not max_tokens). */
  gptReasoning: 'o4-mini',
} as const;

export interface ScriptedRelay {
  f: RelayFixture;
  claude: ScriptedUpstream;
  gemini: ScriptedUpstream;
  openai: ScriptedUpstream;
  /** A root token's key, with sk-. */
  key: string;
  close(): Promise<void>;
}

export async function startScriptedRelay(database: TestDatabase): Promise<ScriptedRelay> {
  const [claude, gemini, openai] = await Promise.all([startScriptedUpstream(), startScriptedUpstream(), startScriptedUpstream()]);
  const f = await startRelay(database);
  await setPrices(f, Object.fromEntries(Object.values(SCRIPTED_MODELS).map((m) => [m, { ratio: 1, completion: 2 }])));
  await f.channel({ type: 14, base_url: claude.url, key: 'sk-ant-scripted', models: [SCRIPTED_MODELS.claude, SCRIPTED_MODELS.claudeOld].join(',') });
  await f.channel({ type: 24, base_url: gemini.url, key: 'AIza-scripted', models: SCRIPTED_MODELS.gemini });
  await f.channel({ type: 1, base_url: openai.url, key: 'sk-openai-scripted', models: [SCRIPTED_MODELS.gpt, SCRIPTED_MODELS.gptReasoning].join(',') });
  const { key } = await f.token();
  return {
    f,
    claude,
    gemini,
    openai,
    key,
    close: async () => {
      await f.close();
      await Promise.all([claude.close(), gemini.close(), openai.close()]);
    },
  };
}
