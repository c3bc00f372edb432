import type { ClientFormat } from '../types.js';

/*
 * A channel's system prompt written into a chat request in the client's own format, as the established gateway
 * does: with no system instruction in the request the prompt becomes it; with one, the prompt goes in front of it
 * (joined by a newline, or as a first text part) only when the channel says override, else the client's stays as
 * it is. The request is never changed in place: the call is shared by every attempt on every channel.
 */

type Json = Record<string, unknown>;

const isText = (v: unknown): v is string => typeof v === 'string';
const joined = (prompt: string, existing: string) => (existing.trim() === '' ? prompt : `${prompt}\n${existing}`);

function openAI(json: Json, prompt: string, override: boolean): Json {
  const messages = Array.isArray(json.messages) ? (json.messages as unknown[]) : [];
  const at = messages.findIndex((m) => {
    const role = (m as { role?: unknown } | null)?.role;
    return role === 'system' || role === 'developer';
  });
  if (at < 0) return { ...json, messages: [{ role: 'system', content: prompt }, ...messages] };
  if (!override) return json;
  const message = messages[at] as Json;
  const content = message.content;
  const merged = isText(content)
    ? joined(prompt, content)
    : [{ type: 'text', text: prompt }, ...(Array.isArray(content) ? (content as unknown[]) : [])];
  const next = [...messages];
  next[at] = { ...message, content: merged };
  return { ...json, messages: next };
}

function claude(json: Json, prompt: string, override: boolean): Json {
  const system = json.system;
  if (system === undefined || system === null) return { ...json, system: prompt };
  if (!override) return json;
  if (isText(system)) return { ...json, system: joined(prompt, system) };
  return { ...json, system: [{ type: 'text', text: prompt }, ...(Array.isArray(system) ? (system as unknown[]) : [])] };
}

function gemini(json: Json, prompt: string, override: boolean): Json {
  const key = json.systemInstruction !== undefined ? 'systemInstruction' : json.system_instruction !== undefined ? 'system_instruction' : null;
  if (key === null) return { ...json, systemInstruction: { parts: [{ text: prompt }] } };
  if (!override) return json;
  const instruction = (json[key] && typeof json[key] === 'object' ? json[key] : {}) as Json;
  const parts = Array.isArray(instruction.parts) ? (instruction.parts as unknown[]) : [];
  return { ...json, [key]: { ...instruction, parts: [{ text: prompt }, ...parts] } };
}

function responses(json: Json, prompt: string, override: boolean): Json {
  const instructions = json.instructions;
  if (!isText(instructions) || instructions.trim() === '') return { ...json, instructions: prompt };
  return override ? { ...json, instructions: joined(prompt, instructions) } : json;
}

const WRITERS: Record<ClientFormat, (json: Json, prompt: string, override: boolean) => Json> = { openai: openAI, claude, gemini, responses };

/** The chat request with the prompt as its system instruction (the same object when nothing changes). */
export function withSystemPrompt(format: ClientFormat, json: Json, prompt: string, override: boolean): Json {
  return prompt === '' ? json : WRITERS[format](json, prompt, override);
}
