import type { PricingResponse } from '@switchyard/shared';
import { api, ApiError } from './client';

export const pricingApi = {
  /** The public price list; group facts arrive beside `data` (spec §7). */
  async list(): Promise<PricingResponse> {
    const res = (await api.get('/api/pricing')) as unknown as PricingResponse;
    if (!res.success) throw new ApiError(res.message, 200);
    return res;
  },
};
