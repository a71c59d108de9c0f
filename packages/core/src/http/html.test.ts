import { describe, expect, it } from 'vitest';
import { escapeHtml, Html, html, htmlReply, trusted } from './html.js';

describe('html`…`: one auto-escaping template', () => {
  it('escapes every interpolated text, quotes included', () => {
    expect(html`<p title="${`"x" & 'y'`}">${'<script>alert(1)</script>'}</p>`.text).toBe(
      '<p title="&quot;x&quot; &amp; &#39;y&#39;">&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });

  it('keeps Html as it is, renders lists in order and nothing for null, undefined and false', () => {
    const items = ['a&b', html`<b>c</b>`];
    expect(html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&amp;b</li><li><b>c</b></li></ul>0');
  });

  it('trusted markup goes in unescaped, and only as Html', () => {
    expect(html`<style>${trusted('a > b { }')}</style>`.text).toBe('<style>a > b { }</style>');
    expect(trusted('x')).toBeInstanceOf(Html);
  });

  it('escapeHtml escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('htmlReply answers text/html', () => {
    const reply = htmlReply(html`<p>ok</p>`, 404, { 'cache-control': 'no-store' });
    expect(reply).toMatchObject({ status: 404, body: '<p>ok</p>', headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
  });
});
