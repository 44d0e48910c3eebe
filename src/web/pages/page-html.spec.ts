import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './page-html.js';

describe('escapeHtml', () => {
  it('escapes what could end text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });
});

// Named apart, so that the formatter leaves these templates as written.
const markup = html;

describe('html', () => {
  it('escapes every value, writes markup it made as it is, and joins arrays', () => {
    const name = '<script>alert(1)</script>';
    const rows = ['a&b', '"c"'].map((cell) => markup`<td>${cell}</td>`);
    expect(markup`<p title="${name}">${name}</p><tr>${rows}</tr>`.text).toBe(
      '<p title="&lt;script&gt;alert(1)&lt;/script&gt;">&lt;script&gt;alert(1)&lt;/script&gt;</p>' +
        '<tr><td>a&amp;b</td><td>&quot;c&quot;</td></tr>',
    );
  });

  it('writes nothing for undefined, null and false, and numbers as text', () => {
    expect(markup`[${undefined}${null}${false}${0}${true}]`.text).toBe('[0true]');
  });
});
