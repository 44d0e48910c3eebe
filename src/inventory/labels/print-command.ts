/** Thrown when the configured print command cannot be split into arguments. */
export class PrintCommandSyntaxError extends Error {}

/**
 * Splits a command line into arguments as a POSIX shell would for plain words, without
 * running one: blanks separate arguments; `'...'` keeps everything literally; `"..."` keeps
 * everything but `\"` and `\\`; outside quotes a backslash keeps the next character. Nothing
 * else is special (`;`, `|`, `$(...)`, `*` are ordinary characters).
 */
export function splitCommandLine(command: string): string[] {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < command.length; index++) {
    const char = command[index];
    if (quote === "'") {
      if (char === "'") quote = null;
      else current += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && (command[index + 1] === '"' || command[index + 1] === '\\')) {
        current += command[++index];
      } else current += char;
    } else if (/\s/.test(char)) {
      if (inWord) args.push(current);
      current = '';
      inWord = false;
    } else {
      inWord = true;
      if (char === "'" || char === '"') quote = char;
      else if (char === '\\') {
        if (index + 1 >= command.length) throw new PrintCommandSyntaxError('trailing backslash');
        current += command[++index];
      } else current += char;
    }
  }
  if (quote) throw new PrintCommandSyntaxError(`unterminated ${quote} quote`);
  if (inWord) args.push(current);
  return args;
}

const FILE_NAME_PLACEHOLDER = /\{\{\s*\.FileName\s*\}\}/g;

/** The arguments with every `{{.FileName}}` (Homebox's template placeholder) replaced by `fileName`. */
export function fillFileName(args: readonly string[], fileName: string): string[] {
  return args.map((arg) => arg.replace(FILE_NAME_PLACEHOLDER, () => fileName));
}
