import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './content-security.js';

const hashOf = (body: string): string =>
  `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes the inline scripts a page runs, and no script with src or a data type', () => {
    const page =
      '<script src="/a.js"></script><script>window.a=1</script>' +
      '<script type="module">import "/b.js"</script>' +
      '<script type="application/json" id="d">{"x":1}</script>' +
      '<SCRIPT TYPE="text/javascript">\nwindow.c=3\n</SCRIPT >' +
      '<script type="module" src="/c.js" crossorigin></script><script>window.a=1</script>';
    expect(inlineScriptHashes(page)).toEqual(
      [hashOf('window.a=1'), hashOf('import "/b.js"'), hashOf('\nwindow.c=3\n')].sort(),
    );
  });

  it('finds none in a page without inline scripts', () => {
    expect(inlineScriptHashes('<html><body><p>script</p></body></html>')).toEqual([]);
  });
});
