import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local midjourney-proxy (-plus) for tests, speaking its documented JSON (docs/api.md): it checks `mj-api-secret`,
 * answers submissions `{code, description, result, properties}` (code 1 unless the test scripts another), and moves
 * each task one step along its plan on every list-by-condition that asks for it: SUBMITTED, IN_PROGRESS with the
 * plan's progress steps, then SUCCESS with an image it serves itself, FAILURE with a reason, or never an end. The
 * image is large and sent in chunks, held half-way until the test lets it go, so a test can see it arrive in parts.
 */

export type TaskEnd = 'SUCCESS' | 'FAILURE' | 'NEVER';

export interface TaskPlan {
  /** The progress of each poll after SUBMITTED (default 30%, 60%). */
  steps?: string[];
  end?: TaskEnd;
  failReason?: string;
}

export interface SubmitScript {
  code: number;
  description?: string;
  /** The task id; one is made up for codes 1, 21, 22 when absent. */
  result?: unknown;
  properties?: Record<string, unknown>;
  /** The HTTP status (200 by default). */
  status?: number;
  plan?: TaskPlan;
}

export interface SeenSubmission {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface StandInTask {
  id: string;
  action: string;
  prompt: string;
  polls: number;
  plan: Required<Pick<TaskPlan, 'steps' | 'end'>> & { failReason: string };
  submitTime: number;
}

export interface MidjourneyProxyStandIn {
  url: string;
  secret: string;
  /** Every request received, as `METHOD /path?query` exactly as it arrived, in order. */
  calls: string[];
  /** Every submission received, in order. */
  submissions: SeenSubmission[];
  /** list-by-condition calls received. */
  polls: number;
  /** The ids each list-by-condition asked for. */
  polledIds: string[][];
  tasks: Map<string, StandInTask>;
  /** Decides the answer to a submission (default: code 1 with a new id, plan SUCCESS after two steps). */
  script: (s: SeenSubmission) => SubmitScript;
  /** Size of the image served (bytes). */
  imageBytes: number;
  /** The Content-Type the image is served with (undefined: none). */
  imageType: string | undefined;
  /** Bytes of the image written so far (all requests). */
  imageBytesWritten: number;
  /** Image answers whose connection is still open. */
  imagesOpen: number;
  /** Lets the image requests held half-way finish. */
  releaseImages(): void;
  /** Holds image requests half-way from now on (until releaseImages). */
  holdImages(): void;
  imageUrl(id: string): string;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const ACTION_OF: Record<string, string> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  shorten: 'SHORTEN',
  modal: 'MODAL',
  change: 'UPSCALE',
  'simple-change': 'UPSCALE',
  action: 'UPSCALE',
  'upload-discord-images': 'UPLOAD',
  swap: 'SWAP_FACE',
};

export async function startMidjourneyProxyStandIn(opts: { secret?: string; imageBytes?: number } = {}): Promise<MidjourneyProxyStandIn> {
  const secret = opts.secret ?? 'mj-secret';
  let seq = 1_700_000_000_000 + Math.floor(Math.random() * 1e9) * 1000;
  let held = false;
  let waiting: (() => void)[] = [];
  const stand: MidjourneyProxyStandIn = {
    url: '',
    secret,
    calls: [],
    submissions: [],
    polls: 0,
    polledIds: [],
    tasks: new Map(),
    script: () => ({ code: 1 }),
    imageBytes: opts.imageBytes ?? 6 * 1024 * 1024,
    imageType: 'image/png',
    imageBytesWritten: 0,
    imagesOpen: 0,
    releaseImages() {
      held = false;
      const w = waiting;
      waiting = [];
      for (const go of w) go();
    },
    holdImages() {
      held = true;
    },
    imageUrl: (id) => `${stand.url}/attachments/${id}.png`,
    close: async () => {
      stand.releaseImages();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const view = (t: StandInTask) => {
    const base = { id: t.id, action: t.action, prompt: t.prompt, promptEn: `${t.prompt} (en)`, description: `/imagine ${t.prompt}`, state: '', submitTime: t.submitTime };
    const inProgress = t.polls <= t.plan.steps.length;
    if (t.polls === 0) return { ...base, status: 'SUBMITTED', progress: '0%', startTime: 0, finishTime: 0, imageUrl: null, failReason: null, properties: {}, buttons: [] };
    if (inProgress || t.plan.end === 'NEVER') {
      const step = t.plan.steps[Math.min(t.polls, t.plan.steps.length) - 1] ?? '50%';
      return { ...base, status: 'IN_PROGRESS', progress: step, startTime: t.submitTime + 1000, finishTime: 0, imageUrl: stand.imageUrl(`${t.id}-preview`), failReason: null, properties: {}, buttons: [] };
    }
    if (t.plan.end === 'FAILURE') {
      return { ...base, status: 'FAILURE', progress: '0%', startTime: t.submitTime + 1000, finishTime: t.submitTime + 2000, imageUrl: null, failReason: t.plan.failReason, properties: {}, buttons: [] };
    }
    return {
      ...base,
      status: 'SUCCESS',
      progress: '100%',
      startTime: t.submitTime + 1000,
      finishTime: t.submitTime + 5000,
      imageUrl: stand.imageUrl(t.id),
      failReason: null,
      properties: { finalPrompt: t.prompt, finalZhPrompt: '' },
      buttons: [
        { customId: `MJ::JOB::upsample::1::${t.id}`, emoji: '', label: 'U1', type: 2, style: 2 },
        { customId: `MJ::JOB::variation::1::${t.id}`, emoji: '', label: 'V1', type: 2, style: 2 },
      ],
    };
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      stand.calls.push(`${req.method} ${req.url}`);
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path.startsWith('/attachments/')) return serveImage(res);
      if (req.headers['mj-api-secret'] !== secret) return json(res, 401, { code: 401, description: 'Unauthorized' });
      const submit = /\/mj\/(?:submit\/([a-z-]+)|insight-face\/(swap))$/.exec(path);
      if (req.method === 'POST' && submit) {
        const kind = submit[1] ?? submit[2];
        const seen: SeenSubmission = { path: req.url ?? '', headers: req.headers, body: await readJson(req) };
        stand.submissions.push(seen);
        const s = stand.script(seen);
        const accepted = [1, 21, 22].includes(s.code);
        let result = s.result;
        if (result === undefined && (accepted || s.code === 23)) result = kind === 'upload-discord-images' ? [stand.imageUrl(`upload-${++seq}`)] : String(++seq);
        if (accepted && typeof result === 'string' && !stand.tasks.has(result)) {
          stand.tasks.set(result, {
            id: result,
            action: ACTION_OF[kind] ?? 'IMAGINE',
            prompt: typeof seen.body.prompt === 'string' ? seen.body.prompt : '',
            polls: 0,
            plan: { steps: s.plan?.steps ?? ['30%', '60%'], end: s.plan?.end ?? 'SUCCESS', failReason: s.plan?.failReason ?? '' },
            submitTime: Date.now(),
          });
        }
        const description = s.description ?? ({ 1: '提交成功', 21: '任务已存在', 22: '排队中，前面还有1个任务', 23: '队列已满，请稍后尝试', 24: '可能包含敏感词', 3: '无可用的账号实例' } as Record<number, string>)[s.code] ?? '提交失败';
        const body: Record<string, unknown> = { code: s.code, description, properties: s.properties ?? {} };
        if (result !== undefined) body.result = result;
        return json(res, s.status ?? 200, body);
      }
      if (req.method === 'POST' && path.endsWith('/mj/task/list-by-condition')) {
        const ids = (await readJson(req)).ids;
        const list = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
        stand.polls++;
        stand.polledIds.push(list);
        const out = [];
        for (const id of list) {
          const t = stand.tasks.get(id);
          if (!t) continue;
          t.polls++;
          out.push(view(t));
        }
        return json(res, 200, out);
      }
      const one = /\/mj\/task\/([^/]+)\/fetch$/.exec(path);
      if (req.method === 'GET' && one) {
        const t = stand.tasks.get(one[1]);
        return t ? json(res, 200, view(t)) : json(res, 404, { code: 404, description: 'not found' });
      }
      const seed = /\/mj\/task\/([^/]+)\/image-seed$/.exec(path);
      if (req.method === 'GET' && seed) {
        return stand.tasks.has(seed[1]) ? json(res, 200, { code: 1, description: '成功', result: `seed-${seed[1]}` }) : json(res, 200, { code: 3, description: '任务不存在' });
      }
      json(res, 404, { code: 404, description: 'not found' });
    })().catch(() => res.destroy());
  });

  function serveImage(res: http.ServerResponse): void {
    res.writeHead(200, { ...(stand.imageType === undefined ? {} : { 'content-type': stand.imageType }), 'content-length': String(stand.imageBytes) });
    const chunk = Buffer.alloc(CHUNK, 0x89);
    let sent = 0;
    const half = Math.floor(stand.imageBytes / 2);
    let waited = false;
    const pump = () => {
      while (sent < stand.imageBytes) {
        if (!waited && held && sent >= half) {
          waited = true;
          waiting.push(pump);
          return;
        }
        const n = Math.min(CHUNK, stand.imageBytes - sent);
        sent += n;
        stand.imageBytesWritten += n;
        if (!res.write(n === CHUNK ? chunk : chunk.subarray(0, n))) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    stand.imagesOpen++;
    res.on('close', () => {
      stand.imagesOpen--;
      sent = stand.imageBytes;
    });
    pump();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stand.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stand;
}
