import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { parseChatRequest, REFUSAL_TYPES } from './schema';

const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

function refusalOf(body: unknown): { type: string; param?: unknown; status: number } {
  try {
    parseChatRequest(body);
  } catch (e) {
    if (e instanceof AppError) return { type: e.type, param: e.extra?.param, status: e.status };
    throw e;
  }
  throw new Error('accepted');
}

describe('parseChatRequest', () => {
  it('applies defaults and keeps the fields of SPEC §4.10', () => {
    const r = parseChatRequest({
      ...base,
      temperature: 0.2,
      top_p: 0.9,
      stop: 'END',
      conversation_key: 'k',
      tools: [{ type: 'function', function: { name: 'f' } }],
      tool_choice: 'none',
    });
    expect(r.stream).toBe(false);
    expect(r.redact_only).toBe(false);
    expect(r.max_tokens).toBeUndefined();
    expect(r.tool_choice).toBe('none');
  });

  it('reasoning: only effort and summary survive', () => {
    const r = parseChatRequest({ ...base, reasoning: { effort: 'low', summary: 'auto', budget: 9 } });
    expect(r.reasoning?.effort).toBe('low');
    expect(r.reasoning?.summary).toBe('auto');
  });

  it.each([
    [{ ...base, stream: true }, REFUSAL_TYPES.streamWithoutRedactOnly, 'stream'],
    [{ ...base, stream: true, redact_only: true, tools: [] }, REFUSAL_TYPES.toolsWithStream, 'tools'],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }, REFUSAL_TYPES.nonTextContent, 'messages.0.content.0'],
    [{ ...base, tool_choice: 'required' }, REFUSAL_TYPES.forcedTool, 'tool_choice'],
    [{ ...base, tool_choice: { type: 'function', function: { name: 'f' } } }, REFUSAL_TYPES.forcedTool, 'tool_choice'],
    [{ ...base, functions: [] }, REFUSAL_TYPES.deprecatedFunctions, 'functions'],
    [{ ...base, function_call: 'none' }, REFUSAL_TYPES.deprecatedFunctions, 'function_call'],
  ])('refuses %j with its own type', (body, type, param) => {
    expect(refusalOf(body)).toEqual({ type, param, status: 400 });
  });

  it.each([
    [{ ...base, max_tokens: 0 }, 'max_tokens'],
    [{ ...base, max_tokens: 32_001 }, 'max_tokens'],
    [{ ...base, max_tokens: 10, max_completion_tokens: 11 }, 'max_completion_tokens'],
    [{ ...base, messages: [] }, 'messages'],
    [{ ...base, messages: [{ role: 'user', content: 'x', name: 'Ahmad' }] }, "unknown field 'name'"],
    [{ ...base, messages: [{ role: 'tool', content: 'x' }] }, 'tool_call_id'],
    [{ ...base, conversation_key: 'x'.repeat(201) }, 'conversation_key'],
    [{ ...base, seed: 1 }, "'seed'"],
    [{ model: '', messages: base.messages }, 'model'],
  ])('invalid %j → invalid_request naming %s', (body, named) => {
    try {
      parseChatRequest(body);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).type).toBe('invalid_request');
      expect((e as AppError).message).toContain(named);
    }
  });
});
