import type { OptionKey } from '../options/index.js';
import type { TestApp } from './app.js';

/** Options a test changes, put back as they were by `restore()` (call it after each test). */
export function optionChanges(app: () => TestApp): { set(key: OptionKey, value: string): Promise<void>; restore(): Promise<void> } {
  const before = new Map<OptionKey, string>();
  const options = () => app().app.ctx.options;
  return {
    async set(key, value) {
      if (!before.has(key)) before.set(key, String(options().raw(key)));
      const error = await options().set(key, value);
      if (error) throw new Error(`option ${key}=${value} refused: ${error}`);
    },
    async restore() {
      for (const [key, value] of before) await options().set(key, value);
      before.clear();
    },
  };
}
