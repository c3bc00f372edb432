import type { Provider } from '../types.js';
import { azureProvider } from './azure/index.js';
import { minimaxProvider } from './minimax/index.js';
import { openAIProvider } from './openai/index.js';

/** Every upstream family. Adding a provider is adding its folder and one line here. */
const PROVIDERS: readonly Provider[] = [openAIProvider, azureProvider, minimaxProvider];

const byType = new Map<number, Provider>();
for (const p of PROVIDERS) for (const t of p.types) byType.set(t, p);

/** The provider serving a channel type; types without their own folder speak OpenAI's format. */
export function providerFor(type: number): Provider {
  return byType.get(type) ?? openAIProvider;
}
