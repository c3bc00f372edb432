import type http from 'node:http';
import { randomAlphanumeric } from '../../lib/random.js';
import { sendJson, startRecordingServer, type RecordingServer } from './local-server.js';

/*
 * A stand-in for GitHub's OAuth app flow, behaving as GitHub does where the gateway depends on it: the authorize
 * page hands out a code and sends the browser back to the app's callback (here at once, as for an app already
 * authorized); a code buys one access token, once (a replayed code is bad_verification_code, in a 200 answer);
 * the token is JSON only when asked for; GET /user needs the token and a User-Agent.
 */

export interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
}

export interface FakeGitHub extends RecordingServer {
  /** The OAuth app's callback (the console's /oauth/github), where the authorize page sends the browser. */
  callbackUrl: string;
  /** The GitHub account that is signed in at the authorize page. */
  signedIn: GitHubUser;
  /** A code as the authorize page would give it for this account. */
  issueCode(user: GitHubUser): string;
}

export async function startFakeGitHub(app: { clientId: string; clientSecret: string }, signedIn: GitHubUser): Promise<FakeGitHub> {
  const codes = new Map<string, GitHubUser>();
  const tokens = new Map<string, GitHubUser>();
  const issueCode = (user: GitHubUser) => {
    const code = randomAlphanumeric(20);
    codes.set(code, user);
    return code;
  };

  function exchange(req: { json: Record<string, unknown> | null; body: Buffer; headers: http.IncomingHttpHeaders }, res: http.ServerResponse): void {
    const fields = req.json ?? Object.fromEntries(new URLSearchParams(req.body.toString('utf8')));
    let answer: Record<string, string>;
    if (fields.client_id !== app.clientId || fields.client_secret !== app.clientSecret) {
      answer = { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' };
    } else {
      const user = typeof fields.code === 'string' ? codes.get(fields.code) : undefined;
      if (!user) {
        answer = { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' };
      } else {
        codes.delete(fields.code as string);
        const token = `gho_${randomAlphanumeric(36)}`;
        tokens.set(token, user);
        answer = { access_token: token, token_type: 'bearer', scope: 'user:email' };
      }
    }
    if (String(req.headers.accept ?? '').includes('application/json')) return sendJson(res, 200, JSON.stringify(answer));
    const form = new URLSearchParams(answer).toString();
    res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
    res.end(form);
  }

  const fake = {} as FakeGitHub;
  const server = await startRecordingServer(async (req, res, query) => {
    if (req.method === 'GET' && req.path === '/login/oauth/authorize') {
      if (query.get('client_id') !== app.clientId) return sendJson(res, 404, JSON.stringify({ error: 'unknown client' }));
      const back = new URL(fake.callbackUrl);
      back.searchParams.set('code', issueCode(fake.signedIn));
      back.searchParams.set('state', query.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return void res.end();
    }
    if (req.method === 'POST' && req.path === '/login/oauth/access_token') return exchange(req, res);
    if (req.method === 'GET' && req.path === '/user') {
      if (!req.headers['user-agent']) return sendJson(res, 403, JSON.stringify({ message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header' }));
      const token = /^(?:Bearer|token) (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      const user = token ? tokens.get(token) : undefined;
      if (!user) return sendJson(res, 401, JSON.stringify({ message: 'Bad credentials' }));
      return sendJson(res, 200, JSON.stringify({ ...user, type: 'User', html_url: `https://github.com/${user.login}` }));
    }
    sendJson(res, 404, JSON.stringify({ message: 'Not Found' }));
  });
  return Object.assign(fake, server, { callbackUrl: '', signedIn, issueCode });
}
