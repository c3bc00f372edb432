import { describe, expect, it } from 'vitest';
import { listsOfBatchEmbed, listsOfCountTokens, listsOfEmbed, listsOfGenerate } from './lists.js';

describe("single objects where Google's JSON mapping takes them for lists", () => {
  it('makes them lists in a generateContent body, in either spelling', () => {
    const body: Record<string, unknown> = {
      system_instruction: { parts: { text: 'You are a cat.' } },
      contents: { role: 'user', parts: { text: 'hello' } },
      tools: { function_declarations: { name: 'f' } },
      safety_settings: { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
      generationConfig: { stopSequences: 'END' },
      tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: 'f' } },
    };
    listsOfGenerate(body);
    expect(body).toEqual({
      system_instruction: { parts: [{ text: 'You are a cat.' }] },
      contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
      tools: [{ function_declarations: [{ name: 'f' }] }],
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      generationConfig: { stopSequences: ['END'] },
      tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['f'] } },
    });
  });

  it('leaves lists as they are', () => {
    const contents = [{ parts: [{ text: 'hi' }] }];
    const body = { contents };
    listsOfGenerate(body);
    expect(body.contents).toBe(contents);
    expect(body.contents[0].parts).toBe(contents[0].parts);
  });

  it('covers countTokens, embedContent and batchEmbedContents', () => {
    const count: Record<string, unknown> = { generateContentRequest: { contents: { parts: { text: 'x' } } } };
    listsOfCountTokens(count);
    expect(count).toEqual({ generateContentRequest: { contents: [{ parts: [{ text: 'x' }] }] } });
    const embed: Record<string, unknown> = { content: { parts: { text: 'x' } } };
    listsOfEmbed(embed);
    expect(embed).toEqual({ content: { parts: [{ text: 'x' }] } });
    const batch: Record<string, unknown> = { requests: { content: { parts: { text: 'x' } } } };
    listsOfBatchEmbed(batch);
    expect(batch).toEqual({ requests: [{ content: { parts: [{ text: 'x' }] } }] });
  });
});
