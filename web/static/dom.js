// Building DOM without innerHTML: every text goes through textContent, so
// lesson, scenario and URL text can never become markup.

const SVG = 'http://www.w3.org/2000/svg';

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.setAttribute('class', value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h('p', {class: 'x'}, 'text', child, …). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

/** Text as `inline` draws it, without its markers: for a tooltip. */
export function plain(text) {
  const span = document.createElement('span');
  span.append(...inline(text));
  return span.textContent;
}

/**
 * Text with `code` spans and **strong** spans, as nodes (never markup).
 * As in Markdown, an opening `**` is followed and a closing one preceded by
 * a non-space; `**` inside code, or without a partner, stays text.
 */
export function inline(text) {
  const source = String(text);
  const nodes = [];
  let strong = null;
  let chunk = '';
  const place = (node) => (strong ? strong.append(node) : nodes.push(node));
  const flush = () => {
    if (chunk) place(document.createTextNode(chunk));
    chunk = '';
  };
  const solid = (i) => i >= 0 && i < source.length && !/\s/.test(source[i]);
  const marker = (i) => source.startsWith('**', i);
  const closesAt = (i) => marker(i) && solid(i - 1);
  const partnerAfter = (from) => {
    let code = false;
    for (let j = from; j < source.length; j += 1) {
      if (source[j] === '`') code = !code;
      else if (!code && closesAt(j)) return true;
    }
    return false;
  };
  let i = 0;
  while (i < source.length) {
    if (source[i] === '`') {
      const end = source.indexOf('`', i + 1);
      if (end > i) {
        flush();
        place(h('code', {}, source.slice(i + 1, end)));
        i = end + 1;
        continue;
      }
    } else if (strong ? closesAt(i) : marker(i) && solid(i + 2) && partnerAfter(i + 2)) {
      flush();
      if (strong) nodes.push(strong);
      strong = strong ? null : h('strong', {});
      i += 2;
      continue;
    }
    chunk += source[i];
    i += 1;
  }
  flush();
  if (strong) nodes.push(strong);
  return nodes;
}

/** Paragraphs separated by blank lines, each with `code` and **strong** spans. */
export function paragraphs(text) {
  return String(text)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => h('p', {}, inline(p)));
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}
