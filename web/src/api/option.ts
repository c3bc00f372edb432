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

  /** GET /api/option/secret_status (super admin): which secret options hold a value, never the values. */
  secretStatus: (): Promise<Record<string, boolean>> => unwrap(api.get<Record<string, boolean>>('/api/option/secret_status')),

  /** POST /api/option/rest_model_ratio (super admin): the model ratios back to the built-in table. */
  resetModelRatio: async (): Promise<void> => {
    await unwrap(api.post('/api/option/rest_model_ratio'));
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
