import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { renderComment, sanitize } from '../../shared/domain/bug/commentRender.ts';

/**
 * Well-known XSS payloads (OWASP's filter evasion cheat sheet and friends), in Markdown's own
 * syntax and as raw HTML. None may come out as markup that runs script.
 */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<svg/onload=alert(1)>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '"><script>alert(1)</script>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](java\tscript:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](%6Aavascript:alert(1))',
  '[click](vbscript:msgbox(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](javascript:alert(1))',
  '![x](x" onerror="alert(1))',
  '[x](https://example.com" onmouseover="alert(1))',
  '[x][ref]\n\n[ref]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '<a href="https://example.com" onclick="alert(1)">x</a>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '<base href="javascript:alert(1)//">',
  '<details open ontoggle=alert(1)>',
  '<<script>script>alert(1)<</script>/script>',
  '[a](//evil.example/)',
  'bug 1"><script>alert(1)</script>',
];

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'del',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

/**
 * Reads the HTML as a browser would and lists what could run script: an element outside the
 * allow-list, an event handler attribute, a style, or a link or source that is not plain
 * http(s), mailto, a fragment or a relative address. Text that merely shows a payload is fine.
 */
function dangers(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (!ALLOWED_TAGS.has(name)) found.push(`element <${name}>`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (/^on/i.test(attribute) || attribute === 'style') found.push(`attribute ${attribute}`);
          if (['href', 'src', 'action', 'formaction', 'data'].includes(attribute)) {
            const address = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
            const safe =
              /^(https?:|mailto:)/.test(address) || (!/^[a-z][a-z0-9+.-]*:/.test(address) && !address.startsWith('//'));
            if (!safe) found.push(`${attribute}=${value}`);
          }
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

describe('comment rendering', () => {
  it('has a detector that sees the payloads when they are not rendered', () => {
    const caught = PAYLOADS.filter(
      (payload) =>
        !payload.startsWith('[') &&
        !payload.startsWith('!') &&
        !payload.startsWith('`') &&
        !payload.startsWith('bug') &&
        !payload.startsWith('<javascript') &&
        !payload.startsWith('<<'),
    );
    for (const payload of caught)
      expect({ payload, dangers: dangers(payload).length > 0 }).toEqual({ payload, dangers: true });
  });

  it.each(PAYLOADS)('leaves no script in %j', (payload) => {
    for (const markdown of [true, false]) {
      const html = renderComment(payload, { bugId: 7, markdown });
      expect({ payload, markdown, html, dangers: dangers(html) }).toMatchObject({ dangers: [] });
    }
  });

  it.each(PAYLOADS)('has a sanitizer that alone removes the script of %j as raw HTML', (payload) => {
    const html = sanitize(payload);
    expect({ payload, html, dangers: dangers(html) }).toMatchObject({ dangers: [] });
  });

  it('keeps the harmless markup Markdown produces when sanitizing', () => {
    const markup =
      '<p><a href="https://example.com/a?b=1" class="bz_ref" rel="nofollow noopener noreferrer">x</a> <code class="language-js">y</code></p>';
    expect(sanitize(markup)).toBe(markup);
    expect(sanitize('<a href="show_bug.cgi?id=3#c1">r</a><ol start="3"><li>z</li></ol>')).toBe(
      '<a href="show_bug.cgi?id=3#c1">r</a><ol start="3"><li>z</li></ol>',
    );
  });

  it('renders Markdown', () => {
    expect(renderComment('**bold** and _em_\n\n- one\n- two')).toBe(
      '<p><strong>bold</strong> and <em>em</em></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
    expect(renderComment('[site](https://example.com)')).toContain(
      '<a href="https://example.com" rel="nofollow noopener noreferrer">site</a>',
    );
    expect(renderComment('~~gone~~')).toContain('<s>gone</s>');
  });

  it('links bug, comment and attachment references, but not inside code or other links', () => {
    const html = renderComment('See bug 12, bug #13 comment 4, comment 3 and attachment 5.', { bugId: 7 });
    expect(html).toContain('<a href="show_bug.cgi?id=12" class="bz_ref" rel="nofollow noopener noreferrer">bug 12</a>');
    expect(html).toContain(
      '<a href="show_bug.cgi?id=13#c4" class="bz_ref" rel="nofollow noopener noreferrer">bug #13 comment 4</a>',
    );
    expect(html).toContain(
      '<a href="show_bug.cgi?id=7#c3" class="bz_ref" rel="nofollow noopener noreferrer">comment 3</a>',
    );
    expect(html).toContain(
      '<a href="attachment.cgi?id=5" class="bz_ref" rel="nofollow noopener noreferrer">attachment 5</a>',
    );
    expect(renderComment('`bug 12`')).toBe('<p><code>bug 12</code></p>\n');
    expect(renderComment('[bug 12](https://example.com)')).not.toContain('show_bug.cgi');
    expect(renderComment('debug 12')).not.toContain('<a');
    expect(renderComment('bug 12', { urlBase: 'https://tracker.example/' })).toContain(
      'href="https://tracker.example/show_bug.cgi?id=12"',
    );
  });

  it('shows text as text when Markdown is off', () => {
    expect(renderComment('**not bold** <b>x</b> bug 3', { markdown: false })).toBe(
      '<pre class="bz_comment_text">**not bold** &lt;b&gt;x&lt;/b&gt; <a href="show_bug.cgi?id=3" class="bz_ref" rel="nofollow noopener noreferrer">bug 3</a></pre>',
    );
  });
});
