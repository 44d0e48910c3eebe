import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { BackupFormatError } from './backup-format.js';

/** Largest element of a streamed array; rows are far smaller. */
export const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;

/**
 * Yields the elements of a JSON array read from a stream, one at a time: memory holds one
 * element, not the array. Throws `BackupFormatError` naming `what` when the text is not a JSON
 * array or an element is not valid JSON.
 */
export async function* parseJsonArray(input: Readable, what: string): AsyncGenerator<unknown> {
  const decoder = new StringDecoder('utf8');
  /** 'before' the `[`, 'inside' it, 'after' the `]`. */
  let phase: 'before' | 'inside' | 'after' = 'before';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = '';

  const fail = (detail: string): BackupFormatError =>
    new BackupFormatError(`${what} is not a JSON array: ${detail}`);

  const finish = (): unknown => {
    const text = element.trim();
    element = '';
    if (text.length === 0) throw fail('empty element');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw fail('an element is not valid JSON');
    }
  };

  const chunks = async function* (): AsyncGenerator<string> {
    for await (const chunk of input) {
      yield typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    }
    yield decoder.end();
  };

  let sawElement = false;
  for await (const text of chunks()) {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (phase === 'before') {
        if (char === '[') {
          phase = 'inside';
          start = i + 1;
        } else if (!/\s/.test(char) && char !== '\ufeff') {
          throw fail('it does not start with "["');
        }
        continue;
      }
      if (phase === 'after') {
        if (!/\s/.test(char)) throw fail('text after the closing "]"');
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '"') inString = true;
      else if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') {
        if (depth > 0) depth--;
        else {
          // The array's closing bracket.
          element += text.slice(start, i);
          phase = 'after';
          if (sawElement || element.trim().length > 0) yield finish();
          start = i + 1;
        }
      } else if (char === ',' && depth === 0) {
        element += text.slice(start, i);
        sawElement = true;
        yield finish();
        start = i + 1;
      }
    }
    if (phase === 'inside') {
      element += text.slice(start);
      if (element.length > MAX_ELEMENT_CHARS) throw fail('an element is larger than 4 MB');
    }
  }
  const ended = phase as 'before' | 'inside' | 'after';
  if (ended !== 'after') throw fail(ended === 'before' ? 'it is empty' : 'it is not closed');
}
