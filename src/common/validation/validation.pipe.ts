import {
  BadRequestException,
  ValidationPipe,
  type ArgumentMetadata,
  type Paramtype,
} from '@nestjs/common';
import { ValidationFailedException } from '../errors/validation-failed.exception.js';

/** What the pipe checks for in every text it is given: PostgreSQL cannot store it in text. */
const NUL = '\u0000';

const PARAMETER_KINDS: Partial<Record<Paramtype, string>> = {
  query: 'query parameter',
  param: 'path parameter',
};

/**
 * The global pipe: refuses NUL characters anywhere in the plain input, then transforms plain
 * bodies and queries into DTOs, strips properties a DTO does not declare (so role, group or
 * user ids in a body are never assigned), and answers 422 with JSON field names. Unknown keys are
 * dropped rather than refused because Homebox clients send extra keys (such as `id` in update
 * bodies) and must keep working.
 */
export class TroveValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => ValidationFailedException.fromErrors(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    refuseNul(value, metadata);
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new TroveValidationPipe();
}

/**
 * A NUL character in a body (a value or a key, at any depth) is a 422 naming the field as
 * `fields` does (`fields.0.name`); in a query or path parameter a 400 naming the parameter.
 * Other arguments (the caller, uploaded files) are not client text and pass.
 */
function refuseNul(value: unknown, metadata: ArgumentMetadata): void {
  if (metadata.type !== 'body' && metadata.type !== 'query' && metadata.type !== 'param') return;
  const field = findNul(value, metadata.data ?? '');
  if (field === undefined) return;
  const kind = PARAMETER_KINDS[metadata.type];
  const name = field === '' ? metadata.type : field;
  if (kind) throw new BadRequestException(`${kind} ${name} must not contain NUL characters`);
  throw ValidationFailedException.forField(name, `${name} must not contain NUL characters`);
}

/**
 * The dotted path of the first string or key holding a NUL character, `''` for the value
 * itself, undefined when there is none. Iterative, so no nesting can exhaust the stack.
 */
function findNul(root: unknown, rootPath: string): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value: root, path: rootPath }];
  const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path;
      continue;
    }
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      if (key.includes(NUL)) return join(path, key.replaceAll(NUL, '\\u0000'));
      pending.push({ value: child, path: join(path, key) });
    }
  }
  return undefined;
}
