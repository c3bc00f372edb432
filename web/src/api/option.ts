import { api, unwrap } from './client';

/** One stored option as the server lists it: values are strings (booleans "true"/"false", JSON as text). */
export interface OptionEntry {
  key: string;
  value: string;
}

/** How a batch of option writes went. */
export interface SaveOutcome {
  saved: string[];
  failed: string[];
}

export const optionApi = {
  /** GET /api/option/ (super admin): every option except secrets (keys ending in Token, Secret or Key). */
  list: async (): Promise<Record<string, string>> => {
    const entries = await unwrap(api.get<OptionEntry[]>('/api/option/'));
    return Object.fromEntries(entries.map((e) => [e.key, e.value]));
  },

  /** PUT /api/option/ once per key, in order; a refusal is shown by the client with the server's reason. */
  async save(values: Record<string, string>): Promise<SaveOutcome> {
    const outcome: SaveOutcome = { saved: [], failed: [] };
    for (const [key, value] of Object.entries(values)) {
      try {
        const res = await api.put('/api/option/', { key, value });
        (res.success ? outcome.saved : outcome.failed).push(key);
      } catch {
        outcome.failed.push(key);
      }
    }
    return outcome;
  },
};
