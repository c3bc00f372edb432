import { z } from 'zod';
import { caller } from '../auth/guard.js';
import { INVITE_MESSAGES, transferInviteQuota } from '../services/invites.js';
import { ok } from './envelope.js';
import { parse } from './input.js';
/** Whole quota units; the console's number input may send them as a string. */
const TransferBody = z.object({ quota: z.coerce.number().int().safe() });
/** Invite earnings. (The invite code itself, GET /api/user/aff, lives with the other self-service calls in user.ts.) */
export const inviteRoutes = async (app) => {
    app.post('/user/aff_transfer', { config: { access: 'user' } }, async (request) => {
        const { quota } = parse(TransferBody, request.body);
        await transferInviteQuota(app.ctx, caller(request), quota);
        return ok(undefined, INVITE_MESSAGES.done);
    });
};
//# sourceMappingURL=invite.js.map