/*
 * Responses tools a chat upstream only knows as functions. A `custom` tool (free-form input, optionally held to a
 * grammar: Codex's apply_patch and exec) is offered as a function with one string argument, `input`; a tool inside a
 * `namespace` is offered under `<namespace>__<name>`. The answer's calls are named back from the request itself
 * (toolOrigins), so nothing is kept between the two directions.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The one argument a custom tool's stand-in function takes. */
export const CUSTOM_INPUT = 'input';

/** What a function name offered upstream stands for. */
export interface ToolOrigin {
  name: string;
  namespace?: string;
  custom: boolean;
}

/** The function name a tool is offered under. */
export const flatName = (name: string, namespace?: string): string => (namespace ? `${namespace}__${name}` : name);

/** Input items that bring tools: Codex's additional_tools, and what a client-run tool search found. */
const TOOL_ITEMS = new Set(['additional_tools', 'tool_search_output']);

/** The tools a request offers: its `tools`, then those its input items bring, in order. */
export function offeredTools(req: Obj): unknown[] {
  const tools = Array.isArray(req.tools) ? [...(req.tools as unknown[])] : [];
  if (Array.isArray(req.input)) {
    for (const item of req.input as unknown[]) {
      if (isObj(item) && TOOL_ITEMS.has(item.type as string) && Array.isArray(item.tools)) tools.push(...(item.tools as unknown[]));
    }
  }
  return tools;
}

/**
 * Offered function name -> the custom or namespaced tool it stands for. Plain functions are not in it: their calls
 * keep their names.
 */
export function toolOrigins(req: Obj): Map<string, ToolOrigin> {
  const origins = new Map<string, ToolOrigin>();
  const add = (tool: unknown, namespace?: string) => {
    if (!isObj(tool) || typeof tool.name !== 'string') return;
    const custom = tool.type === 'custom';
    if (custom || namespace) origins.set(flatName(tool.name, namespace), namespace ? { name: tool.name, namespace, custom } : { name: tool.name, custom });
  };
  for (const tool of offeredTools(req)) {
    if (!isObj(tool)) continue;
    if (tool.type === 'namespace' && typeof tool.name === 'string' && Array.isArray(tool.tools)) {
      for (const inner of tool.tools as unknown[]) add(inner, tool.name);
    } else add(tool);
  }
  return origins;
}

/** The free-form input a call of a custom tool's stand-in carries: its `input` argument, else the arguments as sent. */
export function customInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isObj(parsed) && typeof parsed[CUSTOM_INPUT] === 'string') return parsed[CUSTOM_INPUT];
  } catch {
    // Not JSON: the model wrote the input itself.
  }
  return args;
}

/** The parameters of a custom tool's stand-in function, with what the input must look like. */
export function customParameters(format: unknown): Obj {
  let description = 'The tool’s whole input, as free-form text.';
  if (isObj(format) && format.type === 'grammar' && typeof format.definition === 'string') {
    const syntax = typeof format.syntax === 'string' ? format.syntax : 'lark';
    description = `The tool’s whole input, as free-form text matching this ${syntax} grammar:\n${format.definition}`;
  }
  return {
    type: 'object',
    properties: { [CUSTOM_INPUT]: { type: 'string', description } },
    required: [CUSTOM_INPUT],
    additionalProperties: false,
  };
}
