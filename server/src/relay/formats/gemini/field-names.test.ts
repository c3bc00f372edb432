import { describe, expect, it } from 'vitest';
import { parseGeminiCall } from './call.js';
import { geminiEmbedToOpenAI } from './embeddings.js';
import { camelCaseFields } from './field-names.js';

describe('Gemini proto field names', () => {
  it('renames every snake_case field to its camelCase JSON name, at any depth', () => {
    expect(
      camelCaseFields({
        generation_config: { thinking_config: { thinking_budget: 0, include_thoughts: false }, response_mime_type: 'application/json', response_logprobs: true },
        safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        cached_content: 'cachedContents/abc_def',
      }),
    ).toEqual({
      generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false }, responseMimeType: 'application/json', responseLogprobs: true },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      cachedContent: 'cachedContents/abc_def',
    });
  });

  it('keeps free-form JSON and schema property names as sent', () => {
    const body = {
      contents: [{ parts: [{ function_call: { name: 'f', args: { snake_key: { inner_key: 1 } } } }, { function_response: { name: 'f', response: { result_value: 2 } } }] }],
      tools: [
        {
          function_declarations: [
            { name: 'f', parameters: { type: 'OBJECT', properties: { user_name: { type: 'STRING', min_length: 1 } } }, parameters_json_schema: { properties: { x_y: {} } } },
          ],
        },
      ],
    };
    expect(camelCaseFields(body)).toEqual({
      contents: [{ parts: [{ functionCall: { name: 'f', args: { snake_key: { inner_key: 1 } } } }, { functionResponse: { name: 'f', response: { result_value: 2 } } }] }],
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { user_name: { type: 'STRING', minLength: 1 } } }, parametersJsonSchema: { properties: { x_y: {} } } }] }],
    });
  });

  it('reads embedContent’s task_type and output_dimensionality', () => {
    const req = camelCaseFields({ content: { parts: [{ text: 'hi' }] }, task_type: 'RETRIEVAL_QUERY', output_dimensionality: 256 });
    expect(geminiEmbedToOpenAI(req, 'text-embedding-004')).toMatchObject({ input: ['hi'], dimensions: 256 });
  });

  it('reserves for generation_config.max_output_tokens', () => {
    const raw = Buffer.from(JSON.stringify({ contents: [], generation_config: { max_output_tokens: 77 } }));
    expect(parseGeminiCall('gemini-2.5-flash', 'generateContent', raw).maxTokens).toBe(77);
  });
});
