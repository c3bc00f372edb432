import { api, unwrap } from './client';

/** Every group name (admin): GET /api/group/. */
export const groupApi = {
  names: () => unwrap(api.get<string[]>('/api/group/')),
};
