/**
 * HTML through one auto-escaping tagged template: every value put into `html`…`` is escaped
 * unless it is already Html (another template's result, or markup the repository itself
 * wrote, marked `trusted`), so a page cannot forget to escape a customer's e-mail or a key.
 *
 *   html`<p>Sent to ${customer.email}.</p>`         // & < > " ' escaped
 *   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`
 */
import { Reply } from './json.js';

/** Markup that is safe to put into a page as it is. */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What a template takes: text (escaped), numbers, Html (kept), lists of these; null, undefined and false render nothing. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] as string;
  for (let i = 0; i < values.length; i++) text += render(values[i] as HtmlValue) + (strings[i + 1] as string);
  return new Html(text);
}

/** Markup written in this repository (a style sheet, an embedded script): put in as it is. Never for request or store data. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** An HTML answer. */
export function htmlReply(page: Html, status = 200, headers?: Record<string, string>): Reply {
  return new Reply(status, page.text, { 'content-type': 'text/html; charset=utf-8', ...headers });
}
