import { describe, expect, it } from 'vitest';
import { fillFileName, PrintCommandSyntaxError, splitCommandLine } from './print-command.js';

describe('splitCommandLine', () => {
  it('splits at blanks', () => {
    expect(splitCommandLine('  lp  -d   brother\t{{.FileName}} ')).toEqual([
      'lp',
      '-d',
      'brother',
      '{{.FileName}}',
    ]);
  });

  it('keeps quoted text together and literal', () => {
    expect(splitCommandLine(`print 'a b' "c d" 'it''s' "say \\"hi\\" \\\\ \\n" ''`)).toEqual([
      'print',
      'a b',
      'c d',
      'its',
      'say "hi" \\ \\n',
      '',
    ]);
    expect(splitCommandLine(`lp -o 'media=Custom.62x29mm' {{.FileName}}`)).toEqual([
      'lp',
      '-o',
      'media=Custom.62x29mm',
      '{{.FileName}}',
    ]);
  });

  it('treats shell syntax as ordinary characters', () => {
    expect(
      splitCommandLine('cp {{.FileName}} /tmp/x; touch /tmp/pwned | cat $(id) `id` *'),
    ).toEqual([
      'cp',
      '{{.FileName}}',
      '/tmp/x;',
      'touch',
      '/tmp/pwned',
      '|',
      'cat',
      '$(id)',
      '`id`',
      '*',
    ]);
    expect(splitCommandLine(`cp a '; touch /tmp/pwned'`)).toEqual([
      'cp',
      'a',
      '; touch /tmp/pwned',
    ]);
  });

  it('lets a backslash keep the next character outside quotes', () => {
    expect(splitCommandLine('cp my\\ label.png \\"x\\"')).toEqual(['cp', 'my label.png', '"x"']);
  });

  it('refuses an unterminated quote or a trailing backslash', () => {
    expect(() => splitCommandLine(`lp 'oops`)).toThrow(PrintCommandSyntaxError);
    expect(() => splitCommandLine(`lp "oops`)).toThrow(PrintCommandSyntaxError);
    expect(() => splitCommandLine('lp oops\\')).toThrow(PrintCommandSyntaxError);
  });

  it('gives no arguments for a blank command', () => {
    expect(splitCommandLine('   ')).toEqual([]);
  });
});

describe('fillFileName', () => {
  it('replaces every {{.FileName}}, also inside an argument and with blanks in the braces', () => {
    expect(
      fillFileName(
        ['lp', '{{.FileName}}', '--file={{ .FileName }}', 'keep {{.Other}}'],
        '/tmp/l $1.png',
      ),
    ).toEqual(['lp', '/tmp/l $1.png', '--file=/tmp/l $1.png', 'keep {{.Other}}']);
  });
});
