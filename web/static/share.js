// Share links: a scenario file in the URL fragment, #/share/CODE, where
// CODE is the base64url text of the file compressed with the browser's own
// 'deflate-raw' (CompressionStream), so the page ships no compressor.
// Opening a link only decodes text; the simulator then parses it like a
// pasted scenario, so a bad scenario reports its LINE:COL: message.

import { h } from './dom.js';
import { t } from './strings.js';

/** The longest CODE a link may carry, and the longest file it may unpack to. */
export const MAX_CODE = 12000;
export const MAX_TEXT = 64 * 1024;

export const SHARE_PREFIX = '#/share/';

async function pipe(bytes, stream) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > MAX_TEXT) {
      await reader.cancel();
      throw new ShareError('shareTooBig');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) { out.set(chunk, at); at += chunk.length; }
  return out;
}

/** A link that cannot be opened; `key` names the page's message. */
export class ShareError extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

function toBase64url(bytes) {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(code) {
  if (!/^[A-Za-z0-9_-]+$/.test(code) || code.length % 4 === 1) throw new ShareError('shareGarbage');
  const binary = atob(code.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The link's CODE for a scenario file's text. */
export async function encodeShare(text) {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  const code = toBase64url(packed);
  if (code.length > MAX_CODE) throw new ShareError('shareTooLong');
  return code;
}

/** The scenario file's text a CODE holds; a ShareError when it holds none. */
export async function decodeShare(code) {
  if (code.length > MAX_CODE) throw new ShareError('shareTooLong');
  const packed = fromBase64url(code);
  let bytes;
  try {
    bytes = await pipe(packed, new DecompressionStream('deflate-raw'));
  } catch (error) {
    if (error instanceof ShareError) throw error;
    throw new ShareError('shareGarbage');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ShareError('shareGarbage');
  }
}

/** The whole link for a scenario file's text. */
export async function shareLink(text) {
  const url = new URL(location.href);
  url.hash = SHARE_PREFIX + await encodeShare(text);
  return url.href;
}

/**
 * A "Share" button for the scenario text `getText()` gives: it shows the
 * link in a read-only field (selected, for copying) and copies it when the
 * browser lets it.
 */
export function shareButton(getText) {
  const field = h('input', { type: 'text', readonly: true, class: 'share-link', 'aria-label': t('shareLink'), hidden: true });
  const said = h('span', { class: 'muted share-said', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'share-button' }, `↗ ${t('share')}`);
  button.addEventListener('click', async () => {
    try {
      const link = await shareLink(getText());
      field.value = link;
      field.hidden = false;
      field.focus();
      field.select();
      said.textContent = t('shareMade');
      try {
        await navigator.clipboard.writeText(link);
        said.textContent = t('shareCopied');
      } catch { /* the field is there to copy from */ }
    } catch (error) {
      said.textContent = t(error instanceof ShareError ? error.key : 'shareGarbage');
    }
  });
  return h('div', { class: 'share' }, button, said, field);
}
