import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { BackupFormatError } from './backup-format.js';

/** Largest element of a streamed array; rows are far smaller. */
export const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;

/**
 * Yields the elements of a JSON array read from a stream, one at a time: memory holds one
 * element, not the array. A whole number of more than 15 digits, which a JavaScript number may
 * round (an int64 asset id), is read as its text instead (see `keepLongIntegers`). Throws
 * `BackupFormatError` naming `what` when the text is not a JSON array or an element is not valid
 * JSON.
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
      return JSON.parse(keepLongIntegers(text)) as unknown;
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

/** A run of more than 15 digits: only then may a whole number be too long to be exact. */
const LONG_DIGITS = /\d{16}/;

/** A JSON number, read where the scan stands. */
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * JSON text with each whole number of more than 15 digits outside strings written as a string
 * of its digits (`{"asset_id":9223372036854775807}` → `{"asset_id":"9223372036854775807"}`), so
 * that parsing keeps all of them; fractions and exponents stay numbers.
 */
export function keepLongIntegers(text: string): string {
  if (!LONG_DIGITS.test(text)) return text;
  let out = '';
  let start = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      continue;
    }
    if (char !== '-' && (char < '0' || char > '9')) continue;
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (!number) continue;
    const [literal, fraction, exponent] = number;
    if (fraction === undefined && exponent === undefined && literal.replace('-', '').length > 15) {
      out += `${text.slice(start, i)}"${literal}"`;
      start = i + literal.length;
    }
    i += literal.length - 1;
  }
  return out + text.slice(start);
}
