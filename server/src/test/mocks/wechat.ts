import { randomInt } from 'node:crypto';
import { sendJson, startRecordingServer, type RecordingServer } from './local-server.js';

/*
 * A stand-in for the WeChat server behind an official account: a follower's keyword gets a code (here `issueCode`),
 * and GET /api/wechat/user?code= with the server's token answers {success, message, data: openid}, once per code.
 */

export interface FakeWeChat extends RecordingServer {
  /** The code the official account would reply to this follower with. */
  issueCode(openId: string): string;
}

export async function startFakeWeChat(token: string): Promise<FakeWeChat> {
  const codes = new Map<string, string>();
  const server = await startRecordingServer(async (req, res, query) => {
    if (req.method !== 'GET' || req.path !== '/api/wechat/user') return sendJson(res, 404, JSON.stringify({ success: false, message: 'not found' }));
    if (req.headers.authorization !== token) return sendJson(res, 200, JSON.stringify({ success: false, message: '无权进行此操作，未登录或 token 无效' }));
    const code = query.get('code') ?? '';
    const openId = codes.get(code);
    if (!openId) return sendJson(res, 200, JSON.stringify({ success: false, message: '验证码错误或已过期' }));
    codes.delete(code);
    sendJson(res, 200, JSON.stringify({ success: true, message: '', data: openId }));
  });
  return Object.assign(server, {
    issueCode(openId: string) {
      const code = String(randomInt(100000, 1000000));
      codes.set(code, openId);
      return code;
    },
  });
}
