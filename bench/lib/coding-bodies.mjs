// Request bodies as coding agents send them, generated deterministically (a seeded generator, no clock, no
// randomness from outside), to a target size:
//   claudeCodeBody(bytes, { model })  POST /v1/messages as Claude Code sends it: two system text blocks with
//                                     cache_control, 18 tools with nested JSON schemas, a first user message with a
//                                     <system-reminder>, then turns of signed thinking, text and tool_use blocks
//                                     answered by tool_result blocks (file reads, searches, shell output, edits),
//                                     cache_control on the last two user messages, thinking enabled, stream true.
//   codexBody(bytes, { model })       POST /v1/responses as Codex sends it: instructions, 12 function tools, the
//                                     user instructions and environment context, then turns of reasoning items
//                                     (encrypted_content), function_call and function_call_output items and
//                                     assistant messages; reasoning, include reasoning.encrypted_content, store
//                                     false, stream true.
// Each returns { body: Buffer, json } whose JSON is within a few bytes of `bytes` (the last tool result is cut to
// fit); the same arguments give the same bytes. The texts are mostly ASCII code and prose, with the `→` of a file
// read's line numbers (3 bytes in UTF-8), quotes, backslashes and newlines to escape.
import { prng } from './prng.mjs';


const PROSE = (
  'the a an of to in for on with as by from at that this it is are be was were will can should must may not and or ' +
  'but if when then so because while after before each every any all some no only also just still already ' +
  'file files function functions call calls value values type types test tests change changes code path paths ' +
  'request requests response responses error errors result results module modules config option options line ' +
  'lines method build server client stream streams body bodies header headers token tokens cache queue worker ' +
  'user users channel channels model models price limit limits field fields list map set key keys log logs ' +
  'read write update add remove rename move check run runs fix fixes keep keeps return returns parse parses ' +
  'handle handles pass passes fail fails expect expects use uses need needs make makes look looks find finds ' +
  'first last next new old same other small large empty missing wrong right clear simple current whole ' +
  'here there now again instead probably likely seems looks like means which what where why how'
).split(' ');
const CODE = (
  'relay stream body chunk buffer event meter usage token channel model price quota cache queue request response ' +
  'handler route client upstream settle journal ledger batch record entry option config limit window count total ' +
  'parse format encode decode write read flush close open start stop retry error reason status header key value ' +
  'item items list map index offset length size bytes text json schema field name id user group tier rate'
).split(' ');
const TYPES = ['string', 'number', 'boolean', 'Buffer', 'Usage', 'Channel', 'Request', 'Response', 'ClientCall', 'RelayInput', 'Promise<void>', 'Record<string, unknown>', 'readonly string[]'];
const DIRS = ['src', 'src/relay', 'src/relay/formats', 'src/relay/providers', 'src/console', 'src/db', 'src/lib', 'src/options', 'test', 'scripts', 'web/src/pages', 'packages/shared/src'];
const EXTS = ['.ts', '.ts', '.ts', '.tsx', '.mjs', '.json', '.md'];
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${B62}+/`;

class Gen {
  constructor(seed) {
    this.r = prng(seed);
  }
  int(lo, hi) {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick(xs) {
    return xs[Math.floor(this.r() * xs.length)];
  }
  chance(p) {
    return this.r() < p;
  }
  chars(alphabet, n) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.r() * alphabet.length)];
    return s;
  }
  hex(n) {
    return this.chars('0123456789abcdef', n);
  }
  uuid() {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${this.pick(['8', '9', 'a', 'b'])}${this.hex(3)}-${this.hex(12)}`;
  }
  /** Sentences of prose, about n words in all. */
  words(n) {
    const out = [];
    let sentence = [];
    for (let i = 0; i < n; i++) {
      let w = this.pick(PROSE);
      if (this.chance(0.06)) w = `\`${this.ident()}\``;
      sentence.push(w);
      if (sentence.length >= this.int(8, 18) || i === n - 1) {
        const s = sentence.join(' ');
        out.push(`${s[0].toUpperCase()}${s.slice(1)}${this.pick(['.', '.', '.', ':', ','])}`);
        sentence = [];
      }
    }
    return out.join(' ');
  }
  ident() {
    const n = this.int(1, 3);
    let s = this.pick(CODE);
    for (let i = 1; i < n; i++) {
      const w = this.pick(CODE);
      s += w[0].toUpperCase() + w.slice(1);
    }
    return s;
  }
  path() {
    return `${this.pick(DIRS)}/${this.ident().replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}${this.pick(EXTS)}`;
  }
  /** One line of TypeScript-looking code, with its indentation. */
  codeLine(depth) {
    const pad = '  '.repeat(depth);
    switch (this.int(0, 11)) {
      case 0:
        return `${pad}export function ${this.ident()}(${this.ident()}: ${this.pick(TYPES)}, ${this.ident()}: ${this.pick(TYPES)}): ${this.pick(TYPES)} {`;
      case 1:
        return `${pad}const ${this.ident()} = await ${this.ident()}.${this.ident()}(${this.ident()}, { ${this.ident()}: ${this.int(0, 5000)} });`;
      case 2:
        return `${pad}if (!${this.ident()}) throw new RelayError(${this.pick([400, 401, 404, 429, 500, 502])}, '${this.words(this.int(3, 8)).replace(/[`'.:,]/g, '')}');`;
      case 3:
        return `${pad}return { ${this.ident()}, ${this.ident()}: ${this.ident()}.${this.ident()} ?? null };`;
      case 4:
        return `${pad}// ${this.words(this.int(6, 16))}`;
      case 5:
        return `${pad}for (const ${this.ident()} of ${this.ident()}.${this.ident()}) ${this.ident()}.push(${this.ident()});`;
      case 6:
        return `${pad}const ${this.ident()} = /^${this.ident()}\\/(\\d+)\\s*$/.exec(${this.ident()})?.[1];`;
      case 7:
        return `${pad}log.warn({ ${this.ident()}, ${this.ident()} }, "${this.words(this.int(3, 7)).replace(/[`"]/g, '')}");`;
      case 8:
        return `${pad}}`;
      case 9:
        return '';
      case 10:
        return `${pad}${this.ident()}.${this.ident()} = ${this.ident()}(${this.ident()}, ${this.int(0, 99)}) as ${this.pick(TYPES)};`;
      default:
        return `${pad}expect(${this.ident()}(${this.ident()})).toEqual({ ${this.ident()}: '${this.ident()}', ${this.ident()}: ${this.int(0, 9)} });`;
    }
  }
  code(lines) {
    const out = [];
    let depth = 0;
    for (let i = 0; i < lines; i++) {
      const line = this.codeLine(depth);
      out.push(line);
      if (line.endsWith('{')) depth = Math.min(depth + 1, 4);
      else if (line.trim() === '}') depth = Math.max(depth - 1, 0);
    }
    return out;
  }
  /** A file read as Claude Code's Read tool shows it: six-wide line numbers, then →. */
  fileRead(lines, from = 1) {
    return this.code(lines)
      .map((l, i) => `${String(from + i).padStart(6)}→${l}`)
      .join('\n');
  }
  grep(lines) {
    return Array.from({ length: lines }, () => `${this.path()}:${this.int(1, 900)}:${this.codeLine(this.int(0, 3))}`).join('\n');
  }
  shell(lines) {
    const out = [];
    for (let i = 0; i < lines; i++) {
      switch (this.int(0, 5)) {
        case 0:
          out.push(` ✓ ${this.path()} (${this.int(1, 60)} tests) ${this.int(5, 2000)}ms`);
          break;
        case 1:
          out.push(`${this.pick(['M', 'A', '??', 'D'])} ${this.path()}`);
          break;
        case 2:
          out.push(`${this.path()}:${this.int(1, 400)}:${this.int(1, 80)} - error TS${this.int(2000, 2800)}: ${this.words(this.int(6, 14))}`);
          break;
        case 3:
          out.push(`    at ${this.ident()} (${this.path()}:${this.int(1, 400)}:${this.int(1, 80)})`);
          break;
        default:
          out.push(this.words(this.int(5, 15)));
      }
    }
    return out.join('\n');
  }
  /** A document of headings and bullet points, about `bytes` long. */
  doc(bytes, title) {
    const out = [`# ${title}`];
    let size = out[0].length;
    while (size < bytes) {
      const line = this.chance(0.12) ? `\n## ${this.words(this.int(2, 5)).replace(/[.:,]$/, '')}` : `- ${this.words(this.int(12, 40))}`;
      out.push(line);
      size += line.length + 1;
    }
    return out.join('\n');
  }
}

const obj = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });
const str = (description) => ({ type: 'string', description });

/** Claude Code's tools: the built-in ones and two from MCP servers, with nested schemas and long descriptions. */
function claudeTools(g) {
  const d = (n) => g.words(n);
  const tools = [
    ['Task', 230, obj({ description: str(d(8)), prompt: str(d(6)), subagent_type: str(d(7)) })],
    ['Bash', 600, obj({ command: str(d(5)), timeout: { type: 'number', description: d(8) }, description: str(d(40)), run_in_background: { type: 'boolean', description: d(14) } }, ['command'])],
    ['Glob', 70, obj({ pattern: str(d(6)), path: str(d(30)) }, ['pattern'])],
    [
      'Grep',
      180,
      obj(
        {
          pattern: str(d(10)),
          path: str(d(12)),
          glob: str(d(14)),
          output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'], description: d(30) },
          '-B': { type: 'number', description: d(16) },
          '-A': { type: 'number', description: d(16) },
          '-C': { type: 'number', description: d(14) },
          '-n': { type: 'boolean', description: d(14) },
          '-i': { type: 'boolean', description: d(6) },
          type: str(d(18)),
          head_limit: { type: 'number', description: d(30) },
          multiline: { type: 'boolean', description: d(14) },
        },
        ['pattern'],
      ),
    ],
    ['ExitPlanMode', 140, obj({ plan: str(d(14)) })],
    ['Read', 210, obj({ file_path: str(d(6)), offset: { type: 'number', description: d(14) }, limit: { type: 'number', description: d(10) } }, ['file_path'])],
    ['Edit', 140, obj({ file_path: str(d(6)), old_string: str(d(5)), new_string: str(d(8)), replace_all: { type: 'boolean', default: false, description: d(8) } }, ['file_path', 'old_string', 'new_string'])],
    [
      'MultiEdit',
      290,
      obj({
        file_path: str(d(6)),
        edits: {
          type: 'array',
          minItems: 1,
          description: d(8),
          items: obj({ old_string: str(d(5)), new_string: str(d(6)), replace_all: { type: 'boolean', default: false, description: d(8) } }, ['old_string', 'new_string']),
        },
      }),
    ],
    ['Write', 110, obj({ file_path: str(d(10)), content: str(d(6)) })],
    ['NotebookEdit', 80, obj({ notebook_path: str(d(10)), cell_id: str(d(14)), new_source: str(d(5)), cell_type: { type: 'string', enum: ['code', 'markdown'], description: d(12) }, edit_mode: { type: 'string', enum: ['replace', 'insert', 'delete'], description: d(10) } }, ['notebook_path', 'new_source'])],
    ['WebFetch', 180, obj({ url: { type: 'string', format: 'uri', description: d(6) }, prompt: str(d(6)) })],
    [
      'TodoWrite',
      880,
      obj({
        todos: {
          type: 'array',
          description: d(5),
          items: obj({ content: { type: 'string', minLength: 1 }, status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] }, activeForm: { type: 'string', minLength: 1 } }),
        },
      }),
    ],
    ['WebSearch', 130, obj({ query: { type: 'string', minLength: 2, description: d(5) }, allowed_domains: { type: 'array', items: { type: 'string' }, description: d(8) }, blocked_domains: { type: 'array', items: { type: 'string' }, description: d(8) } }, ['query'])],
    ['BashOutput', 80, obj({ bash_id: str(d(8)), filter: str(d(20)) }, ['bash_id'])],
    ['KillShell', 40, obj({ shell_id: str(d(6)) })],
    ['SlashCommand', 330, obj({ command: str(d(12)) })],
    [
      'AskUserQuestion',
      160,
      obj({
        questions: {
          type: 'array',
          minItems: 1,
          maxItems: 4,
          description: d(8),
          items: obj({
            question: str(d(20)),
            header: str(d(14)),
            options: { type: 'array', minItems: 2, maxItems: 4, description: d(12), items: obj({ label: str(d(16)), description: str(d(14)) }) },
            multiSelect: { type: 'boolean', description: d(14) },
          }),
        },
      }),
    ],
    [
      'mcp__tracker__create_issue',
      50,
      obj(
        {
          issue: obj(
            {
              title: str(d(4)),
              description: str(d(8)),
              priority: { type: 'integer', minimum: 0, maximum: 4, description: d(10) },
              labels: { type: 'array', items: obj({ id: str(d(3)), name: str(d(3)) }, ['name']) },
              assignee: { anyOf: [obj({ id: str(d(3)), email: { type: 'string', format: 'email' } }, ['id']), { type: 'null' }] },
              links: { type: 'array', items: obj({ url: { type: 'string', format: 'uri' }, title: str(d(3)), kind: { type: 'string', enum: ['related', 'blocks', 'duplicates'] } }, ['url']) },
            },
            ['title'],
          ),
          team: str(d(6)),
        },
        ['issue', 'team'],
      ),
    ],
  ];
  return tools.map(([name, words, schema]) => ({ name, description: g.words(words), input_schema: { ...schema, $schema: 'http://json-schema.org/draft-07/schema#' } }));
}

/** One tool_use block and its tool_result's content, for the Claude history. */
function claudeToolCall(g) {
  const id = `toolu_01${g.chars(B62, 22)}`;
  const file = g.path();
  const k = g.int(0, 99);
  if (k < 34) {
    const from = g.chance(0.7) ? 1 : g.int(50, 400);
    return { id, name: 'Read', input: { file_path: `/home/dev/switchyard/${file}`, ...(from > 1 ? { offset: from, limit: 200 } : {}) }, result: g.fileRead(g.int(40, 320), from) };
  }
  if (k < 50) return { id, name: 'Grep', input: { pattern: g.ident(), path: g.pick(DIRS), output_mode: 'content', '-n': true }, result: g.grep(g.int(4, 60)) };
  if (k < 70) {
    const command = g.pick([`npx vitest run ${file}`, `git diff --stat`, `npx tsc -p server --noEmit`, `rg -n "${g.ident()}" ${g.pick(DIRS)}`, `git status --short`]);
    return { id, name: 'Bash', input: { command, description: g.words(g.int(4, 9)) }, result: g.shell(g.int(3, 70)) };
  }
  if (k < 85) {
    const old = g.code(g.int(2, 8)).join('\n');
    const neu = g.code(g.int(2, 10)).join('\n');
    return {
      id,
      name: 'Edit',
      input: { file_path: `/home/dev/switchyard/${file}`, old_string: old, new_string: neu },
      result: `The file /home/dev/switchyard/${file} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${g.fileRead(g.int(8, 24), g.int(1, 300))}`,
    };
  }
  if (k < 90) return { id, name: 'Glob', input: { pattern: `**/*${g.pick(EXTS)}` }, result: Array.from({ length: g.int(5, 40) }, () => `/home/dev/switchyard/${g.path()}`).join('\n') };
  if (k < 95) {
    const todos = Array.from({ length: g.int(3, 8) }, () => ({ content: g.words(g.int(5, 12)), status: g.pick(['pending', 'in_progress', 'completed']), activeForm: g.words(g.int(4, 10)) }));
    return { id, name: 'TodoWrite', input: { todos }, result: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable' };
  }
  const edits = Array.from({ length: g.int(2, 5) }, () => ({ old_string: g.code(g.int(1, 5)).join('\n'), new_string: g.code(g.int(1, 6)).join('\n') }));
  return { id, name: 'MultiEdit', input: { file_path: `/home/dev/switchyard/${file}`, edits }, result: `Applied ${edits.length} edits to /home/dev/switchyard/${file}:\n${edits.map((e, i) => `${i + 1}. Replaced "${e.old_string.slice(0, 40)}..." with "${e.new_string.slice(0, 40)}..."`).join('\n')}` };
}

const byteLength = (json) => Buffer.byteLength(JSON.stringify(json));

/**
 * Appends turns (`turn()` gives the items of one) while the body stays under `bytes`, then one last turn
 * (`last()`, whose final item holds a long tool output) with that output cut (`setOutput(item, text)`) so the body
 * ends within a few bytes of `bytes`.
 */
function fill(json, items, bytes, { turn, last, outputOf, setOutput }) {
  let size = byteLength(json);
  for (;;) {
    const next = turn();
    const add = next.reduce((n, m) => n + byteLength(m) + 1, 0);
    if (size + add > bytes - 4096) break;
    items.push(...next);
    size += add;
  }
  const next = last();
  items.push(...next);
  const item = next.at(-1);
  let lines = outputOf(item).split('\n');
  let over = byteLength(json) - bytes;
  while (over > 0 && lines.length > 1) {
    // Drop about as many lines from the end as the excess needs (their escaped length), then measure again.
    let cut = 0;
    let n = 0;
    while (cut < over && lines.length - n > 1) cut += byteLength(lines[lines.length - 1 - n++]);
    lines = lines.slice(0, lines.length - n);
    setOutput(item, lines.join('\n'));
    over = byteLength(json) - bytes;
  }
}

export const CLAUDE_CODE_HEADERS = {
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14',
  'anthropic-dangerous-direct-browser-access': 'true',
  'x-app': 'cli',
  'user-agent': 'claude-cli/2.0.14 (external, cli)',
  accept: 'application/json',
};

export function claudeCodeBody(bytes, { model = 'claude-sonnet-4-5-20250929', seed = 1 } = {}) {
  const g = new Gen(seed);
  const system = [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
    {
      type: 'text',
      text: `${g.doc(13_000, 'Instructions')}\n\n<env>\nWorking directory: /home/dev/switchyard\nIs directory a git repo: Yes\nPlatform: linux\nOS Version: Linux 6.1.0-27-amd64\nToday's date: 2025-10-14\n</env>\n\ngitStatus: This is the git status at the start of the conversation.\nCurrent branch: main\n\nStatus:\n${g.shell(12)}`,
      cache_control: { type: 'ephemeral' },
    },
  ];
  const messages = [
    {
      role: 'user',
      content: [
        { type: 'text', text: `<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\n${g.doc(3_000, 'CLAUDE.md')}\n\n      IMPORTANT: this context may or may not be relevant to your tasks.\n</system-reminder>\n` },
        { type: 'text', text: g.words(60) },
      ],
    },
  ];
  const json = {
    model,
    messages,
    temperature: 1,
    system,
    tools: claudeTools(g),
    metadata: { user_id: `user_${g.hex(64)}_account_${g.uuid()}_session_${g.uuid()}` },
    max_tokens: 32000,
    thinking: { type: 'enabled', budget_tokens: 31999 },
    stream: true,
  };
  const turn = () => {
    const calls = Array.from({ length: g.chance(0.25) ? g.int(2, 3) : 1 }, () => claudeToolCall(g));
    const content = [{ type: 'thinking', thinking: g.words(g.int(20, 140)), signature: g.chars(B64, g.int(300, 900)) }];
    if (g.chance(0.5)) content.push({ type: 'text', text: g.words(g.int(8, 50)) });
    for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
    const results = calls.map((c) => {
      const error = g.chance(0.04);
      const text = error ? `<tool_use_error>${g.words(g.int(6, 20))}</tool_use_error>` : c.result;
      return { type: 'tool_result', tool_use_id: c.id, content: g.chance(0.2) ? [{ type: 'text', text }] : text, ...(error ? { is_error: true } : {}) };
    });
    if (g.chance(0.1)) results.push({ type: 'text', text: `<system-reminder>\n${g.words(g.int(30, 80))}\n</system-reminder>` });
    // The tool result to cut comes last.
    const cut = results.findLastIndex((r) => r.type === 'tool_result');
    results.push(...results.splice(cut, 1));
    return [
      { role: 'assistant', content },
      { role: 'user', content: results },
    ];
  };
  // The last turn reads a long file; its tool result is cut to fit.
  const last = () => {
    const id = `toolu_01${g.chars(B62, 22)}`;
    const file = `/home/dev/switchyard/${g.path()}`;
    return [
      { role: 'assistant', content: [{ type: 'thinking', thinking: g.words(g.int(20, 60)), signature: g.chars(B64, 400) }, { type: 'tool_use', id, name: 'Read', input: { file_path: file } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: g.fileRead(500) }] },
    ];
  };
  const outputOf = (m) => m.content.at(-1).content;
  const setOutput = (m, text) => (m.content.at(-1).content = text);
  // Room for the two cache_control marks added below.
  fill(json, messages, bytes - 2 * byteLength({ cache_control: { type: 'ephemeral' } }), { turn, last, outputOf, setOutput });
  // cache_control on the last block of the last two user messages, as Claude Code marks them.
  const users = messages.filter((m) => m.role === 'user').slice(-2);
  for (const m of users) m.content.at(-1).cache_control = { type: 'ephemeral' };
  return { json, body: Buffer.from(JSON.stringify(json)) };
}

// ---------------------------------------------------------------------------------------------------- Codex
export const CODEX_HEADERS = {
  'openai-beta': 'responses=experimental',
  originator: 'codex_cli_rs',
  'user-agent': 'codex_cli_rs/0.46.0 (Debian 12.0.0; x86_64) xterm-256color',
  accept: 'text/event-stream',
};

const fn = (name, description, parameters) => ({ type: 'function', name, description, strict: false, parameters });

function codexTools(g) {
  const d = (n) => g.words(n);
  return [
    fn('shell', d(40), obj({ command: { type: 'array', items: { type: 'string' }, description: d(6) }, workdir: str(d(6)), timeout_ms: { type: 'number', description: d(6) }, with_escalated_permissions: { type: 'boolean', description: d(24) }, justification: str(d(30)) }, ['command'])),
    fn('update_plan', d(60), obj({ explanation: { type: 'string' }, plan: { type: 'array', description: d(8), items: obj({ step: { type: 'string' }, status: { type: 'string', description: d(6) } }) } }, ['plan'])),
    fn('apply_patch', d(380), obj({ input: str(d(12)) })),
    fn('view_image', d(20), obj({ path: str(d(8)) })),
    fn('list_mcp_resources', d(40), obj({ server: str(d(10)), cursor: str(d(10)) }, [])),
    fn('read_mcp_resource', d(30), obj({ server: str(d(8)), uri: str(d(8)) })),
    fn('tracker__search_issues', d(50), obj({ query: str(d(8)), filter: obj({ state: { type: 'array', items: { type: 'string', enum: ['open', 'closed', 'triage'] } }, labels: { type: 'array', items: { type: 'string' } }, updated_after: { type: 'string', format: 'date-time' } }, []), limit: { type: 'integer', minimum: 1, maximum: 100 } }, ['query'])),
    fn('tracker__create_issue', d(40), obj({ title: str(d(4)), body: str(d(6)), labels: { type: 'array', items: obj({ name: { type: 'string' }, color: { type: 'string' } }, ['name']) }, assignees: { type: 'array', items: { type: 'string' } } }, ['title'])),
    fn('docs__search', d(60), obj({ library: str(d(8)), topic: str(d(8)), tokens: { type: 'integer', minimum: 1000 } }, ['library'])),
    fn('browser__navigate', d(30), obj({ url: { type: 'string', format: 'uri' }, wait: obj({ until: { type: 'string', enum: ['load', 'domcontentloaded', 'networkidle'] }, timeout_ms: { type: 'integer' } }, []) }, ['url'])),
    fn('browser__snapshot', d(40), obj({ selector: str(d(8)), include: { type: 'array', items: { type: 'string', enum: ['text', 'roles', 'bounds'] } } }, [])),
    fn('db__query', d(50), obj({ sql: str(d(10)), params: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] } }, max_rows: { type: 'integer', minimum: 1 } }, ['sql'])),
  ];
}

/** One function_call item and its output, for the Codex history. */
function codexCall(g) {
  const call_id = `call_${g.chars(B62, 24)}`;
  const k = g.int(0, 99);
  let name = 'shell';
  let args;
  let output;
  if (k < 40) {
    const file = g.path();
    args = { command: ['bash', '-lc', `sed -n '1,${g.int(80, 300)}p' ${file}`], workdir: '/home/dev/switchyard' };
    output = g.code(g.int(40, 300)).join('\n');
  } else if (k < 60) {
    args = { command: ['bash', '-lc', `rg -n "${g.ident()}" ${g.pick(DIRS)}`], workdir: '/home/dev/switchyard' };
    output = g.grep(g.int(4, 60));
  } else if (k < 78) {
    args = { command: ['bash', '-lc', g.pick(['npx vitest run', 'npx tsc -p server --noEmit', 'git status --short', 'npm run lint'])], workdir: '/home/dev/switchyard', timeout_ms: 120000 };
    output = g.shell(g.int(3, 70));
  } else if (k < 92) {
    name = 'apply_patch';
    const file = g.path();
    const minus = g.code(g.int(2, 10)).map((l) => `-${l}`);
    const plus = g.code(g.int(2, 14)).map((l) => `+${l}`);
    args = { input: `*** Begin Patch\n*** Update File: ${file}\n@@ ${g.codeLine(0)}\n${[...minus, ...plus].join('\n')}\n*** End Patch` };
    output = JSON.stringify({ output: `Success. Updated the following files:\nM ${file}\n`, metadata: { exit_code: 0, duration_seconds: 0 } });
    return { call: { type: 'function_call', name, arguments: JSON.stringify(args), call_id }, output: { type: 'function_call_output', call_id, output } };
  } else {
    name = 'update_plan';
    args = { plan: Array.from({ length: g.int(3, 6) }, () => ({ step: g.words(g.int(4, 10)), status: g.pick(['pending', 'in_progress', 'completed']) })) };
    output = 'Plan updated';
    return { call: { type: 'function_call', name, arguments: JSON.stringify(args), call_id }, output: { type: 'function_call_output', call_id, output } };
  }
  const text = `Exit code: 0\nWall time: ${(g.int(1, 400) / 10).toFixed(1)} seconds\nOutput:\n${output}`;
  return { call: { type: 'function_call', name, arguments: JSON.stringify(args), call_id }, output: { type: 'function_call_output', call_id, output: text } };
}

export function codexBody(bytes, { model = 'gpt-5-codex', seed = 2 } = {}) {
  const g = new Gen(seed);
  const userText = (text) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const input = [
    userText(`<user_instructions>\n\n${g.doc(3_000, 'AGENTS.md')}\n\n</user_instructions>`),
    userText('<environment_context>\n  <cwd>/home/dev/switchyard</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>'),
    userText(g.words(60)),
  ];
  const json = {
    model,
    instructions: g.doc(22_000, 'Codex CLI'),
    input,
    tools: codexTools(g),
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    stream: true,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: g.uuid(),
  };
  const turn = () => {
    const items = [];
    if (g.chance(0.15)) items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: g.words(g.int(10, 60)) }] });
    items.push({ type: 'reasoning', summary: [{ type: 'summary_text', text: `**${g.words(g.int(2, 5)).replace(/[.:,]$/, '')}**\n\n${g.words(g.int(15, 70))}` }], content: null, encrypted_content: `gAAAAAB${g.chars(B64, g.int(600, 2400))}` });
    const { call, output } = codexCall(g);
    items.push(call, output);
    return items;
  };
  // The last turn reads a long file; its output is cut to fit.
  const last = () => {
    const call_id = `call_${g.chars(B62, 24)}`;
    const args = { command: ['bash', '-lc', `sed -n '1,500p' ${g.path()}`], workdir: '/home/dev/switchyard' };
    return [
      { type: 'reasoning', summary: [{ type: 'summary_text', text: `**Reading the file**\n\n${g.words(30)}` }], content: null, encrypted_content: `gAAAAAB${g.chars(B64, 800)}` },
      { type: 'function_call', name: 'shell', arguments: JSON.stringify(args), call_id },
      { type: 'function_call_output', call_id, output: `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${g.code(500).join('\n')}` },
    ];
  };
  fill(json, input, bytes, { turn, last, outputOf: (item) => item.output, setOutput: (item, text) => (item.output = text) });
  return { json, body: Buffer.from(JSON.stringify(json)) };
}
